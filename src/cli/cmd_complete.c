/*
 * cmd_complete.c - the hidden `ec2fit __complete KIND [PREFIX]` command the
 * completion scripts call at run time, so that instance types, regions and
 * accelerators come from the catalog the program would use now (an updated
 * cache included), and each command is offered only the formats it takes.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "ec2fit/region_name.h"
#include "cmd.h"
#include "ec2fit/filter.h"
#include "ec2fit/zoo.h"

/* The --output formats each command accepts (tests/scripts/
 * test_completion.sh runs every one, and checks the others are refused). */
static const struct {
    const char *cmd, *formats;
} formats[] = {
    {"recommend", "table json csv markdown tfvars karpenter html ecs cloudwatch"},
    {"estimate", "table json"},
    {"show", "table json"},
    {"models", "table json"},
    {"list", "table json csv"},
};

static void put(const char *w, const char *prefix)
{
    if (strncmp(w, prefix, strlen(prefix)) == 0)
        printf("%s\n", w);
}

/* Prints the words of a space-separated list that start with prefix. */
static void put_words(const char *list, const char *prefix)
{
    char w[64];
    while (*list) {
        size_t n = strcspn(list, " |");
        if (n < sizeof(w)) {
            memcpy(w, list, n);
            w[n] = '\0';
            put(w, prefix);
        }
        list += n;
        list += strspn(list, " |");
    }
}

/* tf-external and completion take no flag but -h/--help (each checks
 * its argv itself) */
/* `ec2fit`'s own flags (main.c parses them; defined here, beside the
 * other tables, so a program without main.c, such as the fuzz harnesses,
 * links the completion table) */
static const struct option main_longopts[] = {
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {"quiet", no_argument, NULL, 'q'},
    {NULL, 0, NULL, 0}};
const cli_flagset cli_flags_main = {main_longopts, "+:hVq", NULL};

static const struct option help_only[] = {{"help", no_argument, NULL, 'h'},
                                          {NULL, 0, NULL, 0}};
const cli_flagset cli_flags_completion = {help_only, "h", NULL};
const cli_flagset cli_flags_tf_external = {help_only, "h", NULL};

static const struct {
    const char *cmd;
    const cli_flagset *fs;
} flagsets[] = {
    {"main", &cli_flags_main},
    {"recommend", &cli_flags_recommend},
    {"estimate", &cli_flags_estimate},
    {"list", &cli_flags_list},
    {"show", &cli_flags_show},
    {"models", &cli_flags_models},
    {"update", &cli_flags_update},
    {"tf-external", &cli_flags_tf_external},
    {"completion", &cli_flags_completion},
};

const cli_flagset *cli_flagset_find(const char *cmd)
{
    size_t i;
    for (i = 0; i < sizeof(flagsets) / sizeof(flagsets[0]); i++)
        if (strcmp(cmd, flagsets[i].cmd) == 0)
            return flagsets[i].fs;
    return NULL;
}

static int short_index(const cli_flagset *fs, int letter)
{
    int id = letter, i;
    const cli_short *s;
    for (s = fs->shorts; s && s->letter; s++)
        if (s->letter == letter)
            id = s->id;
    for (i = 0; fs->longopts[i].name; i++)
        if (fs->longopts[i].val == id && !fs->longopts[i].flag)
            return i;
    return -1;
}

int cli_short_id(const cli_flagset *fs, int c, int *idx)
{
    const cli_short *s;
    int i;
    if (c <= 0 || c > 127 || c == '?' || c == ':')
        return c;
    for (s = fs->shorts; s && s->letter; s++)
        if (s->letter == c) {
            c = s->id;
            break;
        }
    if (idx && (i = short_index(fs, s && s->letter ? s->letter : c)) >= 0)
        *idx = i;
    return c;
}

const char *cli_short_long(const cli_flagset *fs, int letter)
{
    int i = short_index(fs, letter);
    return i >= 0 ? fs->longopts[i].name : NULL;
}

/* `__complete flags:CMD`: what the parser of CMD accepts, one flag a line
 * ("--model", "-m --model" for a short one), in table order. */
static int put_flags(const char *cmd)
{
    const cli_flagset *fs = cli_flagset_find(cmd);
    const char *p;
    size_t i;
    if (!fs)
        return 2;
    for (i = 0; fs->longopts[i].name; i++)
        printf("--%s\n", fs->longopts[i].name);
    for (p = fs->optstring; *p; p++) {
        const char *lng;
        if (*p == ':' || *p == '+')
            continue;
        lng = cli_short_long(fs, *p);
        printf("-%c%s%s\n", *p, lng ? " --" : "", lng ? lng : "");
    }
    return cli_finish_stdout(0);
}

int cmd_complete(int argc, char **argv)
{
    const char *kind = argc > 1 ? argv[1] : "";
    const char *prefix = argc > 2 ? argv[2] : "";
    ecf_catalog *cat = NULL;
    ecf_zoo *zoo = NULL;
    ecf_err err = ECF_ERR_INIT;
    cli_catalog_opts copts = {NULL};
    size_t i;
    int status = 0;

    if (argc > 3)
        return 2;
    if (strncmp(kind, "outputs:", 8) == 0) {
        for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
            if (strcmp(kind + 8, formats[i].cmd) == 0)
                put_words(formats[i].formats, prefix);
        return cli_finish_stdout(0);
    }
    if (strncmp(kind, "flags:", 6) == 0)
        return argc > 2 ? 2 : put_flags(kind + 6);
    if (strcmp(kind, "sorts") == 0) {
        put_words(ecf_sort_names(), prefix);
        return cli_finish_stdout(0);
    }
    if (strcmp(kind, "models") == 0) {
        if (ecf_zoo_embedded(&zoo, &err) != 0)
            return 1;
        for (i = 0; i < ecf_zoo_count(zoo); i++)
            put(ecf_zoo_at(zoo, i)->name, prefix);
        ecf_zoo_free(zoo);
        return cli_finish_stdout(0);
    }
    if (strcmp(kind, "types") != 0 && strcmp(kind, "regions") != 0 &&
        strcmp(kind, "accelerators") != 0 && strcmp(kind, "families") != 0)
        return 2;
    /* the catalog every other command would read; quiet on failure (a
     * completion must not write over the user's command line) */
    if (cli_open_catalog(&cat, &copts, NULL, &err) != 0)
        return 1;
    if (strcmp(kind, "types") == 0) {
        for (i = 0; i < ecf_catalog_count(cat); i++)
            put(ecf_catalog_at(cat, i)->type, prefix);
    } else if (strcmp(kind, "regions") == 0) {
        /* regions only: a Local Zone or Wavelength group is accepted by
         * --region, but offering 80 of them would bury the 30 regions */
        for (i = 0; i < ecf_catalog_region_count(cat); i++) {
            char parent[64];
            const char *r = ecf_catalog_region_at(cat, i);
            if (!ecf_region_parent(parent, sizeof(parent), r))
                put(r, prefix);
        }
    } else if (strcmp(kind, "families") == 0) {
        for (i = 0; i < ecf_catalog_count(cat); i++) {
            const char *fam = ecf_catalog_at(cat, i)->family;
            size_t k;
            for (k = 0; k < i; k++)
                if (strcmp(ecf_catalog_at(cat, k)->family, fam) == 0)
                    break;
            if (k == i)
                put(fam, prefix);
        }
    } else {
        for (i = 0; i < ecf_catalog_accel_count(cat); i++)
            put(ecf_catalog_accel_at(cat, i)->id, prefix);
        put_words("gpu neuron other", prefix);
    }
    ecf_catalog_free(cat);
    return cli_finish_stdout(status);
}
