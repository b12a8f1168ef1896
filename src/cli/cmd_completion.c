/*
 * cmd_completion.c - `ec2fit completion bash|zsh|fish`: prints a shell
 * completion script for subcommands, flags and their values (model names
 * from the zoo, instance types and regions from the catalog, the fixed
 * word lists of --task, --output ...).
 *
 * The flags are not listed here: each command's own --help is run
 * in-process (stdout pointed at a temporary file) and its "--flag" words
 * are collected, so a flag added to a command is completed without
 * touching this file, and the script cannot drift from the help. The
 * subcommands come from main.c's table (cli_commands). Values that
 * depend on the catalog in use (instance types, regions, accelerators,
 * families), the model zoo and each command's --output formats are asked
 * of the program at completion time (`ec2fit __complete`, cmd_complete.c),
 * so an updated cache is reflected without regenerating the script.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "ec2fit/buf.h"
#include "ec2fit/estimate.h"
#include "ec2fit/filter.h"
#include "ec2fit/stacks.h"
#include "ec2fit/zoo.h"

#define MAX_FLAGS 96

typedef struct {
    char name[40]; /* without the dashes */
    bool value;    /* takes a value ("--model NAME" in the help) */
} flag;

typedef struct {
    const ecf_cmd *cmd;
    flag flags[MAX_FLAGS];
    size_t n;
} cmd_flags;

/* Value word lists: flag -> words (space-separated). */
typedef struct {
    const char *flag;
    const char *words; /* borrowed from the lists below */
} value_list;

static void usage(FILE *f)
{
    fputs("usage: ec2fit completion bash|zsh|fish\n\n"
          "Prints a completion script for the shell: subcommands, flags, "
          "model names\n(the zoo), instance types and regions (the "
          "catalog).\n\n"
          "  bash: source <(ec2fit completion bash)\n"
          "  zsh:  ec2fit completion zsh > \"${fpath[1]}/_ec2fit\"\n"
          "  fish: ec2fit completion fish > "
          "~/.config/fish/completions/ec2fit.fish\n\n"
          "  -h, --help              this help\n",
          f);
}

/* The text `ec2fit <cmd> --help` prints, run in-process. */
static int help_text(ecf_buf *out, const ecf_cmd *c)
{
    char *argv[3];
    char chunk[4096];
    FILE *tmp = tmpfile();
    int saved = -1, rc = -1;
    size_t n;

    if (!tmp)
        return -1;
    fflush(stdout);
    saved = dup(STDOUT_FILENO);
    if (saved < 0 || dup2(fileno(tmp), STDOUT_FILENO) < 0)
        goto out;
    argv[0] = (char *)c->name;
    argv[1] = (char *)"--help";
    argv[2] = NULL;
    c->fn(2, argv);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    rewind(tmp);
    while ((n = fread(chunk, 1, sizeof(chunk), tmp)) > 0)
        ecf_buf_append(out, chunk, n);
    ecf_buf_append(out, "", 0);
    rc = 0;
out:
    if (saved >= 0)
        close(saved);
    fclose(tmp);
    return rc;
}

static bool is_flag_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-';
}

/* Collects "--name" words. A flag takes a value when, where the help
 * defines it (first on its line, or after "-x, "), one space and a word
 * follow: "  --model NAME", not "  --explain   list ..." or "--spot |". */
static void parse_flags(cmd_flags *cf, const char *text)
{
    const char *p = text;
    while ((p = strstr(p, "--")) != NULL) {
        const char *start = p + 2, *e = start, *ls = p;
        size_t len, k;
        bool def, value;
        if ((p > text && is_flag_char(p[-1])) || !is_flag_char(*start) ||
            *start == '-') {
            p += 2;
            continue;
        }
        while (is_flag_char(*e))
            e++;
        len = (size_t)(e - start);
        while (ls > text && ls[-1] != '\n')
            ls--;
        while (*ls == ' ')
            ls++;
        if (ls[0] == '-' && ls[1] != '-' && ls[2] == ',' && ls[3] == ' ')
            ls += 4;
        def = ls == p;
        value = def && e[0] == ' ' && e[1] != ' ' && e[1] != '|' &&
                e[1] != '\n' && e[1] != '\0';
        p = e;
        if (len == 0 || len >= sizeof(cf->flags[0].name))
            continue;
        for (k = 0; k < cf->n; k++)
            if (strlen(cf->flags[k].name) == len &&
                strncmp(cf->flags[k].name, start, len) == 0)
                break;
        if (k == cf->n) {
            if (cf->n == MAX_FLAGS)
                continue;
            memcpy(cf->flags[k].name, start, len);
            cf->flags[k].name[len] = '\0';
            cf->flags[k].value = false;
            cf->n++;
        }
        if (def)
            cf->flags[k].value = value;
    }
}

static void word_list(ecf_buf *b, const char *const *w, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        ecf_buf_printf(b, "%s%s", i ? " " : "", w[i]);
}

/* Flags whose value is a file (completed with the shell's file list). */
static bool file_flag(const char *name)
{
    static const char *const files[] = {"model-config", "catalog", "rules",
                                        "batch", "output-file"};
    size_t i;
    for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
        if (strcmp(name, files[i]) == 0)
            return true;
    return false;
}

static const char *values_for(const value_list *vl, size_t n,
                              const char *name)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (strcmp(vl[i].flag, name) == 0)
            return vl[i].words;
    return NULL;
}

/* ---- bash ---- */
static void print_bash(FILE *f, const cmd_flags *cf, size_t nc,
                       const value_list *vl, size_t nv)
{
    size_t i, k;
    fprintf(f, "# bash completion for ec2fit (generated by `ec2fit "
               "completion bash`; do not edit)\n"
               "# values from the catalog in use: ec2fit __complete KIND PREFIX\n"
               "_ec2fit_ask()\n{\n"
               "    COMPREPLY=($(compgen -W \"$(\"${COMP_WORDS[0]}\" __complete "
               "\"$1\" 2>/dev/null)\" -- \"$2\"))\n}\n"
               "_ec2fit()\n{\n"
               "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" "
               "prev=\"${COMP_WORDS[COMP_CWORD-1]}\" cmd= opts= i\n"
               "    for ((i = 1; i < COMP_CWORD; i++)); do\n"
               "        case \"${COMP_WORDS[i]}\" in -*) ;; *) "
               "cmd=\"${COMP_WORDS[i]}\"; break ;; esac\n"
               "    done\n"
               "    if [[ -z $cmd ]]; then\n"
               "        COMPREPLY=($(compgen -W \"");
    for (i = 0; i < nc; i++)
        fprintf(f, "%s ", cf[i].cmd->name);
    fprintf(f, "--help --version\" -- \"$cur\"))\n        return\n    fi\n"
               "    case \"$prev\" in\n"
               "    --instance|-i) _ec2fit_ask types \"$cur\"; return ;;\n"
               "    --accelerator) _ec2fit_ask accelerators \"$cur\"; return ;;\n"
               "    --region|--regions|-r) _ec2fit_ask regions \"$cur\"\n"
               "        [[ $cmd == list ]] && COMPREPLY+=($(compgen -W all -- \"$cur\"))\n"
               "        return ;;\n"
               "    --family|--families|--exclude-families) "
               "_ec2fit_ask families \"$cur\"; return ;;\n"
               "    --model|-m) _ec2fit_ask models \"$cur\"; return ;;\n"
               "    --output|-o) _ec2fit_ask \"outputs:$cmd\" \"$cur\"; return ;;\n");
    for (i = 0; i < nv; i++)
        fprintf(f, "    --%s%s) COMPREPLY=($(compgen -W \"%s\" -- \"$cur\")); "
                   "return ;;\n",
                vl[i].flag, strcmp(vl[i].flag, "task") == 0 ? "|-t" : "",
                vl[i].words);
    fprintf(f, "    --model-config|--catalog|--rules|--batch|--output-file|-c)\n"
               "        compopt -o filenames 2>/dev/null\n"
               "        COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
               "    esac\n    case \"$cmd\" in\n");
    for (i = 0; i < nc; i++) {
        fprintf(f, "    %s) opts=\"", cf[i].cmd->name);
        for (k = 0; k < cf[i].n; k++)
            fprintf(f, "%s--%s", k ? " " : "", cf[i].flags[k].name);
        fprintf(f, "\"");
        if (strcmp(cf[i].cmd->name, "show") == 0)
            fprintf(f, "\n        [[ $cur != -* ]] && { _ec2fit_ask types "
                       "\"$cur\"; return; }");
        if (strcmp(cf[i].cmd->name, "help") == 0)
            fprintf(f, "\n        [[ $cur != -* ]] && opts=\"%s\"",
                    "recommend estimate list show models update tf-external "
                    "completion");
        if (strcmp(cf[i].cmd->name, "completion") == 0)
            fprintf(f, "\n        [[ $cur != -* ]] && opts=\"bash zsh fish\"");
        fprintf(f, " ;;\n");
    }
    fprintf(f, "    esac\n"
               "    COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n}\n"
               "complete -F _ec2fit ec2fit\n");
}

/* ---- zsh ---- */
static void zsh_quote(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '\'')
            fputs("'\\''", f);
        else if (*s == ':' || *s == '[' || *s == ']')
            fprintf(f, "\\%c", *s);
        else
            fputc(*s, f);
    }
}

static void print_zsh(FILE *f, const cmd_flags *cf, size_t nc,
                      const value_list *vl, size_t nv)
{
    size_t i, k;
    fprintf(f, "#compdef ec2fit\n# zsh completion for ec2fit (generated by "
               "`ec2fit completion zsh`; do not edit)\n\n"
               "_ec2fit() {\n  local -a commands\n  commands=(\n");
    for (i = 0; i < nc; i++) {
        fprintf(f, "    '%s:", cf[i].cmd->name);
        zsh_quote(f, cf[i].cmd->summary);
        fprintf(f, "'\n");
    }
    fprintf(f, "  )\n  if (( CURRENT == 2 )); then\n"
               "    if [[ $PREFIX == -* ]]; then compadd -- --help "
               "--version; else _describe 'command' commands; fi\n"
               "    return\n  fi\n  local ask=\"${words[1]} __complete\"\n"
               "  case ${words[CURRENT-1]} in\n"
               "    --instance|-i) compadd -- ${(f)\"$(${=ask} types 2>/dev/null)\"}; return ;;\n"
               "    --accelerator) compadd -- ${(f)\"$(${=ask} accelerators 2>/dev/null)\"}; return ;;\n"
               "    --region|--regions|-r) compadd -- ${(f)\"$(${=ask} regions 2>/dev/null)\"}; return ;;\n"
               "    --family|--families|--exclude-families) compadd -- ${(f)\"$(${=ask} families 2>/dev/null)\"}; return ;;\n"
               "    --model|-m) compadd -- ${(f)\"$(${=ask} models 2>/dev/null)\"}; return ;;\n"
               "    --output|-o) compadd -- ${(f)\"$(${=ask} outputs:${words[2]} 2>/dev/null)\"}; return ;;\n");
    for (i = 0; i < nv; i++)
        fprintf(f, "    --%s%s) compadd -- %s; return ;;\n", vl[i].flag,
                strcmp(vl[i].flag, "task") == 0 ? "|-t" : "", vl[i].words);
    fprintf(f, "    --model-config|--catalog|--rules|--batch|--output-file|-c) "
               "_files; return ;;\n  esac\n  case ${words[2]} in\n");
    for (i = 0; i < nc; i++) {
        fprintf(f, "    %s)\n", cf[i].cmd->name);
        if (strcmp(cf[i].cmd->name, "show") == 0)
            fprintf(f, "      [[ $PREFIX != -* ]] && { compadd -- "
                       "${(f)\"$(${=ask} types 2>/dev/null)\"}; return; }\n");
        if (strcmp(cf[i].cmd->name, "completion") == 0)
            fprintf(f, "      [[ $PREFIX != -* ]] && { compadd -- bash zsh "
                       "fish; return; }\n");
        fprintf(f, "      compadd --");
        for (k = 0; k < cf[i].n; k++)
            fprintf(f, " --%s", cf[i].flags[k].name);
        fprintf(f, " ;;\n");
    }
    fprintf(f, "  esac\n}\n\n_ec2fit \"$@\"\n");
}

/* ---- fish ---- */
/* The short letter of --`lng` in command `cmd`'s flag table, 0 for none. */
static int short_of(const char *cmd, const char *lng)
{
    const cli_flagset *fs = cli_flagset_find(cmd);
    const char *p, *l;
    for (p = fs ? fs->optstring : ""; *p; p++) {
        if (*p == ':' || *p == '+')
            continue;
        l = cli_short_long(fs, *p);
        if (l && strcmp(l, lng) == 0)
            return *p;
    }
    return 0;
}

static void print_fish(FILE *f, const cmd_flags *cf, size_t nc,
                       const value_list *vl, size_t nv)
{
    size_t i, k;
    fprintf(f, "# fish completion for ec2fit (generated by `ec2fit "
               "completion fish`; do not edit)\n"
               "complete -c ec2fit -f\n"
               "complete -c ec2fit -n __fish_use_subcommand -l help -d "
               "'Show help'\n"
               "complete -c ec2fit -n __fish_use_subcommand -l version -d "
               "'Show the version and catalog'\n");
    for (i = 0; i < nc; i++) {
        fprintf(f, "complete -c ec2fit -n __fish_use_subcommand -a %s -d '",
                cf[i].cmd->name);
        zsh_quote(f, cf[i].cmd->summary); /* same quoting rule for ' */
        fprintf(f, "'\n");
    }
    for (i = 0; i < nc; i++) {
        const char *name = cf[i].cmd->name;
        for (k = 0; k < cf[i].n; k++) {
            const flag *fl = &cf[i].flags[k];
            const char *words = values_for(vl, nv, fl->name);
            const char *ask = NULL;
            if (strcmp(fl->name, "instance") == 0)
                ask = "types";
            else if (strcmp(fl->name, "accelerator") == 0)
                ask = "accelerators";
            else if (strcmp(fl->name, "region") == 0 ||
                     strcmp(fl->name, "regions") == 0)
                ask = "regions";
            else if (strcmp(fl->name, "family") == 0 ||
                     strcmp(fl->name, "families") == 0 ||
                     strcmp(fl->name, "exclude-families") == 0)
                ask = "families";
            else if (strcmp(fl->name, "model") == 0)
                ask = "models";
            int letter = short_of(name, fl->name);
            fprintf(f, "complete -c ec2fit -n '__fish_seen_subcommand_from "
                       "%s' -l %s",
                    name, fl->name);
            if (letter)
                fprintf(f, " -s %c", letter);
            if (strcmp(fl->name, "output") == 0)
                fprintf(f, " -x -a '(ec2fit __complete outputs:%s)'", name);
            else if (ask)
                fprintf(f, " -x -a '(ec2fit __complete %s)'", ask);
            else if (words)
                fprintf(f, " -x -a '%s'", words);
            else if (file_flag(fl->name))
                fprintf(f, " -r -F");
            else if (fl->value)
                fprintf(f, " -x");
            fputc('\n', f);
        }
    }
    fprintf(f, "complete -c ec2fit -n '__fish_seen_subcommand_from show' "
               "-a '(ec2fit __complete types)'\n"
               "complete -c ec2fit -n '__fish_seen_subcommand_from "
               "completion' -a 'bash zsh fish'\n");
}

int cmd_completion(int argc, char **argv)
{
    static const char *const outputs[] = {"table",    "json",   "csv",
                                          "markdown", "tfvars", "karpenter",
                                          "html"};
    static const char *const optimize[] = {"cost", "time", "balanced"};
    static const char *const orders[] = {"asc", "desc"};
    static const char *const arches[] = {"x86_64", "arm64"};
    static const char *const storages[] = {"auto", "s3",  "gp3",
                                           "fsx",  "efs", "nvme"};
    const char *fws[ECF_FW_COUNT], *engines[ECF_ENGINE_COUNT];
    const char *tasks[ECF_TASK_COUNT], *precs[ECF_PREC_COUNT];
    ecf_buf wtask = ECF_BUF_INIT, wprec = ECF_BUF_INIT, wout = ECF_BUF_INIT;
    ecf_buf wopt = ECF_BUF_INIT, wsort = ECF_BUF_INIT, warch = ECF_BUF_INIT;
    ecf_buf wfw = ECF_BUF_INIT, weng = ECF_BUF_INIT, wsto = ECF_BUF_INIT;
    ecf_buf wkeys = ECF_BUF_INIT;
    char *q;
    cmd_flags *cf = NULL;
    const ecf_cmd *cmds;
    size_t nc = 0, i;
    int status = 0;

    if (argc != 2)
        return cli_usage_error("completion", "expected one of bash, zsh, "
                                             "fish (see 'ec2fit completion "
                                             "--help')");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "bash") != 0 && strcmp(argv[1], "zsh") != 0 &&
        strcmp(argv[1], "fish") != 0)
        return cli_usage_error("completion",
                               "unknown shell '%s' (expected bash, zsh or "
                               "fish)",
                               argv[1]);

    for (i = 0; i < ECF_TASK_COUNT; i++)
        tasks[i] = ecf_task_name((ecf_task)i);
    for (i = 0; i < ECF_PREC_COUNT; i++)
        precs[i] = ecf_precision_name((ecf_precision)i);
    word_list(&wtask, tasks, ECF_TASK_COUNT);
    word_list(&wprec, precs, ECF_PREC_COUNT);
    word_list(&wout, outputs, sizeof(outputs) / sizeof(outputs[0]));
    word_list(&wopt, optimize, sizeof(optimize) / sizeof(optimize[0]));
    word_list(&wsort, orders, sizeof(orders) / sizeof(orders[0]));
    ecf_buf_printf(&wkeys, "%s", ecf_sort_names());
    for (q = wkeys.data; q && *q; q++)
        if (*q == '|')
            *q = ' ';
    word_list(&warch, arches, sizeof(arches) / sizeof(arches[0]));
    for (i = 0; i < ECF_FW_COUNT; i++)
        fws[i] = ecf_framework_name((int)i);
    for (i = 0; i < ECF_ENGINE_COUNT; i++)
        engines[i] = ecf_engine_name((int)i);
    word_list(&wfw, fws, ECF_FW_COUNT);
    word_list(&weng, engines, ECF_ENGINE_COUNT);
    word_list(&wsto, storages, sizeof(storages) / sizeof(storages[0]));
    {
        const value_list vl[] = {
            {"task", wtask.data},     {"precision", wprec.data},
            {"optimize", wopt.data},  {"order", wsort.data},
            {"sort", wkeys.data},
            {"arch", warch.data},
            {"framework", wfw.data},  {"engine", weng.data},
            {"storage", wsto.data},
            /* the parser's words (workload_flags.c; test_completion.sh
             * checks them against its error messages) */
            {"master-weights", "fp32 amp none"},
            {"cross-entropy", "full chunked fused"},
            {"data-loader", "cpu dali"},
            {"conv-kernels", "framework fused"},
            {"attention", "sdpa eager flash2 cudnn flash3"},
            {"kv-cache-dtype", "auto bf16 fp16 fp8"},
        };
        const size_t nv = sizeof(vl) / sizeof(vl[0]);

        cmds = cli_commands(&nc);
        cf = ecf_xcalloc(nc, sizeof(*cf));
        for (i = 0; i < nc; i++) {
            ecf_buf help = ECF_BUF_INIT;
            cf[i].cmd = &cmds[i];
            if (strcmp(cmds[i].name, "completion") != 0 &&
                help_text(&help, &cmds[i]) == 0)
                parse_flags(&cf[i], help.data ? help.data : "");
            else if (strcmp(cmds[i].name, "completion") == 0)
                parse_flags(&cf[i], "  -h, --help   this help\n");
            ecf_buf_dispose(&help);
        }
        if (strcmp(argv[1], "bash") == 0)
            print_bash(stdout, cf, nc, vl, nv);
        else if (strcmp(argv[1], "zsh") == 0)
            print_zsh(stdout, cf, nc, vl, nv);
        else
            print_fish(stdout, cf, nc, vl, nv);
    }
    free(cf);
    ecf_buf_dispose(&wtask);
    ecf_buf_dispose(&wprec);
    ecf_buf_dispose(&wout);
    ecf_buf_dispose(&wopt);
    ecf_buf_dispose(&wsort);
    ecf_buf_dispose(&wkeys);
    ecf_buf_dispose(&warch);
    ecf_buf_dispose(&wfw);
    ecf_buf_dispose(&weng);
    ecf_buf_dispose(&wsto);
    return status;
}
