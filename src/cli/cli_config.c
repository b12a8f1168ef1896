/*
 * cli_config.c - loads the user's defaults file (see cli_config.h and
 * docs/config.md). Strict like the other loaders: an unknown key or a value
 * of the wrong type is an error naming the file, because a misspelt
 * "regoin" that is silently ignored would send a user's jobs to the wrong
 * region without a word. cli_default_region (environment, then this file)
 * lives here too.
 */
#include "cli_config.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ec2fit/awscreds.h"
#include "ec2fit/buf.h"
#include "json_check.h"
#include "ec2fit/stacks.h"

#define CONFIG_MAX_BYTES (64 * 1024)

static cli_config config = {"", "", -1, "", "", -1};

const cli_config *cli_config_get(void)
{
    return &config;
}

int cli_config_path(char *out, size_t n)
{
    const char *xdg = getenv("XDG_CONFIG_HOME");
    const char *home = getenv("HOME");
    int len;

    if (xdg && *xdg)
        len = snprintf(out, n, "%s/ec2fit/config.json", xdg);
    else if (home && *home)
        len = snprintf(out, n, "%s/.config/ec2fit/config.json", home);
    else
        return ECF_ENOTFOUND;
    return len < 0 || (size_t)len >= n ? ECF_ENOTFOUND : 0;
}

static int copy_string(char *dst, size_t n, const cJSON *item,
                       const char *path, ecf_err *err)
{
    if (!cJSON_IsString(item) || !item->valuestring[0])
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: \"%s\": expected a non-empty string", path,
                           item->string);
    if (strlen(item->valuestring) >= n)
        return ecf_err_set(err, ECF_EPARSE, "%s: \"%s\": longer than %zu "
                           "characters", path, item->string, n - 1);
    memcpy(dst, item->valuestring, strlen(item->valuestring) + 1);
    return 0;
}

/* A relative "rules" path is taken from the config file's directory, so
 * the same config works from any working directory. */
static int resolve_rules(cli_config *c, const char *value, ecf_err *err)
{
    const char *slash = strrchr(c->path, '/');
    int len;

    if (value[0] == '/' || !slash)
        len = snprintf(c->rules, sizeof(c->rules), "%s", value);
    else
        len = snprintf(c->rules, sizeof(c->rules), "%.*s/%s",
                       (int)(slash - c->path), c->path, value);
    if (len < 0 || (size_t)len >= sizeof(c->rules))
        return ecf_err_set(err, ECF_EPARSE, "%s: \"rules\": path too long",
                           c->path);
    return 0;
}

int cli_config_load(ecf_err *err)
{
    cli_config c = {"", "", -1, "", "", -1};
    ecf_buf text = ECF_BUF_INIT;
    cJSON *root = NULL;
    const cJSON *item = NULL;
    char rules[4096] = "";
    int fd, rc = 0;

    config = c;
    if (cli_config_path(c.path, sizeof(c.path)) != 0)
        return 0;
    /* A missing file is the common case: not an error. A FIFO or device
     * is refused without blocking (ecf_buf_open_regular). */
    fd = ecf_buf_open_regular(c.path, err);
    if (fd < 0) {
        if (errno == ENOENT || errno == ENOTDIR) {
            *err = (ecf_err)ECF_ERR_INIT;
            return 0;
        }
        return ECF_EIO;
    }
    close(fd);
    rc = ecf_buf_read_file(&text, c.path, CONFIG_MAX_BYTES, err);
    if (rc != 0) {
        rc = ECF_EIO;
        err->code = ECF_EIO;
        goto out;
    }
    /* The loaders' strict parse: duplicate keys, invalid UTF-8 and data
     * after the value are errors naming the file. */
    rc = ecf_json_parse(&root, text.data, text.len, CONFIG_MAX_BYTES, "",
                        c.path, ECF_EPARSE, err);
    if (rc != 0)
        goto out;
    if (!cJSON_IsObject(root)) {
        rc = ecf_err_set(err, ECF_EPARSE, "%s: expected a JSON object",
                         c.path);
        goto out;
    }
    cJSON_ArrayForEach(item, root) {
        const char *key = item->string;
        if (strcmp(key, "region") == 0) {
            rc = copy_string(c.region, sizeof(c.region), item, c.path, err);
        } else if (strcmp(key, "spot") == 0) {
            if (!cJSON_IsBool(item))
                rc = ecf_err_set(err, ECF_EPARSE,
                                 "%s: \"spot\": expected true or false",
                                 c.path);
            else
                c.spot = cJSON_IsTrue(item) ? 1 : 0;
        } else if (strcmp(key, "output") == 0) {
            rc = copy_string(c.output, sizeof(c.output), item, c.path, err);
            /* the CLI's one list of formats (cli_parse_output), so a
             * format --output takes is never refused here */
            if (rc == 0) {
                cli_output v;
                ecf_err e = ECF_ERR_INIT;
                const char *pfx = "--output: ";
                if (cli_parse_output(&v, c.output, cli_output_all(), &e) != 0)
                    rc = ecf_err_set(err, ECF_EPARSE, "%s: \"output\": %s",
                                     c.path,
                                     strncmp(e.msg, pfx, strlen(pfx)) == 0
                                         ? e.msg + strlen(pfx)
                                         : e.msg);
            }
        } else if (strcmp(key, "rules") == 0) {
            rc = copy_string(rules, sizeof(rules), item, c.path, err);
            if (rc == 0)
                rc = resolve_rules(&c, rules, err);
        } else if (strcmp(key, "framework") == 0) {
            char fw[16] = "";
            rc = copy_string(fw, sizeof(fw), item, c.path, err);
            if (rc == 0 && (c.framework = ecf_framework_parse(fw)) < 0)
                rc = ecf_err_set(err, ECF_EPARSE,
                                 "%s: \"framework\": expected pytorch, "
                                 "tensorflow or jax, got '%s'",
                                 c.path, fw);
        } else {
            rc = ecf_err_set(err, ECF_EPARSE,
                             "%s: unknown key \"%s\" (expected region, spot, "
                             "output, rules or framework)",
                             c.path, key);
        }
        if (rc != 0)
            goto out;
    }
    config = c;
out:
    cJSON_Delete(root);
    ecf_buf_dispose(&text);
    return rc;
}

void cli_config_default_output(cli_output *out, unsigned allowed)
{
    cli_output v;
    ecf_err err = ECF_ERR_INIT;
    if (config.output[0] &&
        cli_parse_output(&v, config.output, allowed, &err) == 0)
        *out = v;
}

/* The AWS profile's region (AWS_PROFILE, AWS_CONFIG_FILE, ~/.aws/config),
 * read once; "" when there is none. The file's path for messages. */
static char profile_region[64];
static char profile_region_from[4096 + 32];
/* why the AWS config gave no region when it could not be read (rc < 0):
 * a warning for `list`, an error for recommend and estimate */
static ecf_err profile_err = ECF_ERR_INIT;
static int profile_rc;

static const char *aws_profile_region(void)
{
    static bool done;
    if (!done) {
        ecf_awscreds_env env = {0};
        ecf_err err = ECF_ERR_INIT;
        const char *home = getenv("HOME"), *cf = getenv("AWS_CONFIG_FILE");
        env.profile = getenv("AWS_PROFILE");
        env.config_file = cf;
        env.home = home;
        bool named;
        int rc;
        done = true;
        named = env.profile && *env.profile &&
                strcmp(env.profile, "default") != 0;
        env.shared_credentials_file = getenv("AWS_SHARED_CREDENTIALS_FILE");
        rc = ecf_awscreds_region(profile_region, sizeof(profile_region), &env,
                                 &err);
        if (rc == 1) {
            snprintf(profile_region_from, sizeof(profile_region_from),
                     "%.4096s: [%s%s] region",
                     cf && *cf ? cf : "~/.aws/config",
                     named ? "profile " : "", named ? env.profile : "default");
        } else {
            profile_region[0] = '\0';
            if (rc < 0) {
                profile_rc = rc;
                profile_err = err;
            }
        }
    }
    return profile_region;
}

const char *cli_rules_origin(const char *path)
{
    static char what[sizeof(((cli_config *)0)->path) + 16];
    if (path && path == cli_config_get()->rules) {
        snprintf(what, sizeof(what), "%.4096s: \"rules\"",
                 cli_config_get()->path);
        return what;
    }
    return "--rules";
}

const char *cli_region_origin(const char *region)
{
    static char what[sizeof(((cli_config *)0)->path) + 16];
    const char *r = getenv("AWS_REGION");
    if (region && r && region == r)
        return "AWS_REGION";
    r = getenv("AWS_DEFAULT_REGION");
    if (region && r && region == r)
        return "AWS_DEFAULT_REGION";
    if (region && region == cli_config_get()->region) {
        snprintf(what, sizeof(what), "%.4096s: \"region\"",
                 cli_config_get()->path);
        return what;
    }
    if (region && region == profile_region)
        return profile_region_from;
    return "--region";
}

static const char *default_region(bool strict, ecf_err *err)
{
    static bool warned;
    const char *r = getenv("AWS_REGION");
    if (r && *r)
        return r;
    r = getenv("AWS_DEFAULT_REGION");
    if (r && *r)
        return r;
    /* the AWS CLI's next source after the two variables; like them it
     * beats ec2fit's file (docs/config.md) */
    if (aws_profile_region()[0])
        return profile_region;
    if (profile_rc < 0) {
        /* was silent: a region from a file that update refuses */
        if (strict) {
            ecf_err_set(err, profile_err.code, "%s", profile_err.msg);
            return NULL;
        }
        if (!warned)
            cli_warn("%s; no region taken from the AWS config",
                     profile_err.msg);
        warned = true;
    }
    if (cli_config_get()->region[0])
        return cli_config_get()->region;
    return "us-east-1";
}

const char *cli_default_region(void)
{
    return default_region(false, NULL);
}

int cli_default_region_strict(const char **out, ecf_err *err)
{
    *out = default_region(true, err);
    return *out ? 0 : err->code;
}
