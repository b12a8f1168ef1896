/*
 * cmd_tf_external.c - `ec2fit tf-external`: Terraform's external data
 * source protocol (the `external` provider's `data "external"`). Terraform
 * writes the `query` map as one JSON object of strings on stdin; the
 * program prints one flat JSON object whose values are all strings, or
 * exits non-zero with its error on stderr. Each key names a `recommend`
 * flag ("model", "task", "budget", "batch_size" or "batch-size" ...); the
 * object becomes an argv and runs the recommend pipeline unchanged, so the
 * two can never disagree. Documented in docs/terraform.md.
 */
#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_common.h"
#include "cmd.h"
#include "cmd_recommend.h"
#include "ec2fit/buf.h"
#include "json_check.h"

#define ME "tf-external"
/* Terraform queries are a handful of short strings. */
#define STDIN_MAX_BYTES (1024 * 1024)
#define KEY_MAX 64

/* recommend flags that make no sense as a query: they change what is
 * printed, and this command's output is fixed by the protocol. */
static const char *const refused[] = {"help", "output", "output-file",
                                      "explain", "top", "batch"};

static void usage(FILE *f)
{
    fputs("usage: ec2fit tf-external < query.json\n\n"
          "Terraform external data source: reads one JSON object of strings "
          "on stdin\nwhose keys are recommend's flags without the dashes "
          "(model, task, region,\nbudget, batch_size ...; \"true\"/\"false\" "
          "for switches such as spot; an empty\nstring means unset), and "
          "prints rank 1 as one flat JSON object of strings:\ninstance_type, "
          "instance_count, use_spot, region, hourly_usd, monthly_usd,\n"
          "total_usd, catalog_as_of (\"\" when a value does not apply).\n"
          "Errors: one line on stderr and exit 1, 2 or 3 as recommend. "
          "See docs/terraform.md.\n\n"
          "  -h, --help              this help\n",
          f);
}

static const struct option *find_flag(const char *name)
{
    const struct option *o = cli_recommend_longopts();
    for (; o->name; o++)
        if (strcmp(o->name, name) == 0)
            return o;
    return NULL;
}

static const char *type_name(const cJSON *item)
{
    if (cJSON_IsNumber(item))
        return "a number";
    if (cJSON_IsBool(item))
        return "a boolean";
    if (cJSON_IsNull(item))
        return "null";
    if (cJSON_IsArray(item))
        return "an array";
    return "an object";
}

/* Do two keys name one flag? "batch_size" and "batch-size" do. */
static bool same_flag(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if ((*a == '_' ? '-' : *a) != (*b == '_' ? '-' : *b))
            return false;
    return *a == *b;
}

/* Refuses a key when an earlier key names the same flag: one of the two
 * would be lost (getopt keeps the last word); exit-2 message in err. */
static int same_flag_earlier(const cJSON *root, const cJSON *item,
                             ecf_err *err)
{
    const cJSON *prev;
    for (prev = root->child; prev && prev != item; prev = prev->next)
        if (same_flag(prev->string, item->string))
            return ecf_err_set(err, ECF_EINVAL,
                               "keys '%.64s' and '%.64s' name the same flag",
                               prev->string, item->string);
    return 0;
}

/* Appends the argv words for one key; 0, or an exit-2 message in err. */
static int add_key(ecf_buf *words, size_t *nwords, const cJSON *item,
                   ecf_err *err)
{
    char name[KEY_MAX + 4];
    const struct option *opt = NULL;
    const char *val;
    size_t i;

    if (strlen(item->string) > KEY_MAX || !item->string[0])
        return ecf_err_set(err, ECF_EINVAL, "unknown key '%.64s'",
                           item->string);
    for (i = 0; item->string[i]; i++)
        name[i] = item->string[i] == '_' ? '-' : item->string[i];
    name[i] = '\0';
    for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
        if (strcmp(name, refused[i]) == 0)
            return ecf_err_set(err, ECF_EINVAL,
                               "key '%s' is not accepted (the output is "
                               "fixed by Terraform's protocol)",
                               item->string);
    opt = find_flag(name);
    if (!opt)
        return ecf_err_set(err, ECF_EINVAL,
                           "unknown key '%s' (keys are recommend's flags: "
                           "see 'ec2fit recommend --help')",
                           item->string);
    if (!cJSON_IsString(item))
        return ecf_err_set(err, ECF_EINVAL,
                           "key '%s': expected a string, got %s (Terraform "
                           "passes every query value as a string)",
                           item->string, type_name(item));
    val = item->valuestring;
    if (!val[0])
        return 0; /* "" = unset, for conditional expressions in HCL */
    if (opt->has_arg == no_argument) {
        if (strcmp(val, "true") == 0) {
            ecf_buf_printf(words, "--%s", name);
        } else if (strcmp(val, "false") == 0) {
            char neg[KEY_MAX + 8];
            snprintf(neg, sizeof(neg), "no-%s", name);
            if (!find_flag(neg))
                return 0;
            ecf_buf_printf(words, "--%s", neg);
        } else {
            return ecf_err_set(err, ECF_EINVAL,
                               "key '%s': expected \"true\" or \"false\", "
                               "got '%s'",
                               item->string, val);
        }
    } else {
        ecf_buf_printf(words, "--%s=%s", name, val);
    }
    ecf_buf_append(words, "", 1); /* keep the NUL: words are split later */
    (*nwords)++;
    return 0;
}

int cmd_tf_external(int argc, char **argv)
{
    ecf_buf in = ECF_BUF_INIT, words = ECF_BUF_INIT;
    ecf_err err = ECF_ERR_INIT;
    cJSON *root = NULL;
    const cJSON *item = NULL;
    char **av = NULL;
    char chunk[4096];
    size_t n, nwords = 0, i;
    int status = 0;

    if (argc == 2 && (strcmp(argv[1], "--help") == 0 ||
                      strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc > 1)
        return cli_usage_error(ME, "unexpected argument '%s' (the query is "
                                   "read from stdin)",
                               argv[1]);
    while ((n = fread(chunk, 1, sizeof(chunk), stdin)) > 0) {
        if (in.len + n > STDIN_MAX_BYTES) {
            status = cli_usage_error(ME, "stdin: more than %d bytes",
                                     STDIN_MAX_BYTES);
            goto out;
        }
        ecf_buf_append(&in, chunk, n);
    }
    if (ferror(stdin)) {
        fprintf(stderr, "ec2fit: " ME ": stdin: read error\n");
        status = 1;
        goto out;
    }
    ecf_buf_append(&in, "", 0);
    if (in.data[strspn(in.data, " \t\r\n")] == '\0') {
        status = cli_usage_error(ME, "stdin: empty (expected one JSON object "
                                     "of strings)");
        goto out;
    }
    /* The loaders' strict parse (json_check.h): nothing after the object,
     * no duplicate key (cJSON would keep the first silently), no \u0000 or
     * raw control character in a string, valid UTF-8 only. */
    if (ecf_json_parse(&root, in.data, in.len, STDIN_MAX_BYTES, "", "stdin",
                       ECF_EINVAL, &err) != 0) {
        status = cli_usage_error(ME, "%s", err.msg);
        goto out;
    }
    if (!cJSON_IsObject(root)) {
        status = cli_usage_error(ME, "stdin: expected one JSON object of "
                                     "strings, got %s",
                                 cJSON_IsString(root) ? "a string"
                                                      : type_name(root));
        goto out;
    }
    cJSON_ArrayForEach(item, root) {
        if (same_flag_earlier(root, item, &err) != 0 ||
            add_key(&words, &nwords, item, &err) != 0) {
            status = cli_usage_error(ME, "%s", err.msg);
            goto out;
        }
    }
    /* argv: "tf-external" then the words, NULL-terminated (getopt). */
    av = ecf_xcalloc(nwords + 2, sizeof(*av));
    av[0] = argv[0];
    for (i = 0, n = 0; i < nwords; i++) {
        av[i + 1] = words.data + n;
        n += strlen(words.data + n) + 1;
    }
    status = cli_recommend_main((int)nwords + 1, av, ecf_rr_print_tf_external);
out:
    free(av);
    cJSON_Delete(root);
    ecf_buf_dispose(&in);
    ecf_buf_dispose(&words);
    return status;
}
