/*
 * rules_load.c - load and validate data/rules.json (or --rules FILE) into
 * the plain ecf_rules value. Every rule must appear exactly once, with only
 * its own parameters (in range) and only its own placeholders, so a typo in
 * a user's rules file is an error rather than a silently ignored setting.
 */
#include "ec2fit/rules_set.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ec2fit/buf.h"
#include "rules_table.h"
#include "json_check.h"

#ifdef ECF_HAVE_EMBEDDED_RULES
extern const char ecf_embedded_rules[];
extern const char ecf_embedded_rules_end[];
#endif

/* Checks that every {placeholder} in tmpl is one of the spec's vars. */
static int check_template(const ecf_rule_spec *spec, const char *tmpl,
                          const char *name, size_t idx, ecf_err *err)
{
    const char *p = tmpl;
    while ((p = strchr(p, '{')) != NULL) {
        const char *end = strchr(p, '}');
        size_t len, k;
        bool ok = false;
        if (!end)
            return ecf_err_set(err, ECF_EPARSE,
                               "%s: rules[%zu].message: unterminated "
                               "placeholder",
                               name, idx);
        len = (size_t)(end - p - 1);
        for (k = 0; k < 12 && spec->vars[k]; k++)
            if (strlen(spec->vars[k]) == len &&
                strncmp(spec->vars[k], p + 1, len) == 0)
                ok = true;
        if (!ok)
            return ecf_err_set(err, ECF_EPARSE,
                               "%s: rules[%zu].message: unknown placeholder "
                               "{%.*s} for rule %s",
                               name, idx, (int)len, p + 1, spec->name);
        p = end + 1;
    }
    return 0;
}

static int load_rule(ecf_rules *out, bool *seen, const cJSON *it, size_t i,
                     const char *name, ecf_err *err)
{
    const cJSON *id, *kind, *en, *w, *params, *msg, *pv;
    const ecf_rule_spec *spec;
    ecf_rule *r;
    int rid;

    if (!cJSON_IsObject(it))
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: rules[%zu]: expected an object", name, i);
    id = cJSON_GetObjectItemCaseSensitive(it, "id");
    if (!cJSON_IsString(id))
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: rules[%zu].id: expected a string", name, i);
    rid = ecf_rule_parse(id->valuestring);
    if (rid < 0)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: rules[%zu].id: unknown rule \"%.64s\"", name,
                           i, id->valuestring);
    if (seen[rid])
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: rules[%zu].id: rule \"%s\" listed twice", name,
                           i, id->valuestring);
    seen[rid] = true;
    spec = &ecf_rule_specs[rid];
    r = &out->rules[rid];
    memset(r, 0, sizeof(*r));
    r->id = (ecf_rule_id)rid;

    kind = cJSON_GetObjectItemCaseSensitive(it, "kind");
    if (!cJSON_IsString(kind) || (strcmp(kind->valuestring, "constraint") &&
                                  strcmp(kind->valuestring, "penalty")))
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: rules[%zu].kind: expected \"constraint\" or "
                           "\"penalty\"",
                           name, i);
    r->kind = strcmp(kind->valuestring, "penalty") == 0 ? ECF_RULE_PENALTY
                                                        : ECF_RULE_CONSTRAINT;
    en = cJSON_GetObjectItemCaseSensitive(it, "enabled");
    if (en && !cJSON_IsBool(en))
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: rules[%zu].enabled: expected true or false",
                           name, i);
    r->enabled = !en || cJSON_IsTrue(en);
    if ((!r->enabled || r->kind != ECF_RULE_CONSTRAINT) && !spec->may_disable)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: rules[%zu]: rule %s must stay an enabled "
                           "constraint (nothing ranks on an unknown price)",
                           name, i, spec->name);
    w = cJSON_GetObjectItemCaseSensitive(it, "weight");
    if (w && (!cJSON_IsNumber(w) || !isfinite(w->valuedouble) ||
              w->valuedouble < 0 || w->valuedouble > 100))
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: rules[%zu].weight: expected a number from 0 "
                           "to 100",
                           name, i);
    r->weight = w ? w->valuedouble : 0;
    if (r->kind == ECF_RULE_PENALTY && r->enabled && r->weight <= 0)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: rules[%zu].weight: a penalty needs a "
                           "positive weight",
                           name, i);

    /* parameters: defaults first, then the file's values */
    for (r->n_params = 0; r->n_params < ECF_RULE_MAX_PARAMS &&
                          spec->params[r->n_params].name;
         r->n_params++) {
        snprintf(r->params[r->n_params].name, sizeof(r->params[0].name), "%s",
                 spec->params[r->n_params].name);
        r->params[r->n_params].value = spec->params[r->n_params].dflt;
    }
    params = cJSON_GetObjectItemCaseSensitive(it, "params");
    if (params && !cJSON_IsObject(params))
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: rules[%zu].params: expected an object", name,
                           i);
    cJSON_ArrayForEach(pv, params)
    {
        int k, found = -1;
        for (k = 0; k < r->n_params; k++)
            if (strcmp(r->params[k].name, pv->string) == 0)
                found = k;
        if (found < 0)
            return ecf_err_set(err, ECF_EPARSE,
                               "%s: rules[%zu].params.%.64s: unknown "
                               "parameter for rule %s",
                               name, i, pv->string, spec->name);
        if (!cJSON_IsNumber(pv) || !isfinite(pv->valuedouble) ||
            pv->valuedouble < spec->params[found].min ||
            pv->valuedouble > spec->params[found].max)
            return ecf_err_set(err, ECF_EPARSE,
                               "%s: rules[%zu].params.%s: expected a number "
                               "from %g to %g",
                               name, i, pv->string, spec->params[found].min,
                               spec->params[found].max);
        r->params[found].value = pv->valuedouble;
    }
    msg = cJSON_GetObjectItemCaseSensitive(it, "message");
    if (!cJSON_IsString(msg) || !msg->valuestring[0])
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: rules[%zu].message: expected a non-empty "
                           "string",
                           name, i);
    if (strlen(msg->valuestring) >= sizeof(r->message))
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: rules[%zu].message: longer than %zu bytes",
                           name, i, sizeof(r->message) - 1);
    snprintf(r->message, sizeof(r->message), "%s", msg->valuestring);
    return check_template(spec, r->message, name, i, err);
}

/* trusted: the embedded copy of a data/ file, already checked by the
 * strict path in tests/unit/test_embedded_data.c, so the document-wide
 * ecf_json_check is skipped. */
static int load_buffer_(bool trusted, ecf_rules *out, const char *data, size_t len,
                          const char *name, ecf_err *err)
{
    cJSON *root = NULL;
    const cJSON *ver, *rules, *it;
    bool seen[ECF_RULE_COUNT] = {false};
    size_t i = 0;
    int rc = 0, k;

    memset(out, 0, sizeof(*out));
    rc = (trusted ? ecf_json_parse_trusted : ecf_json_parse)(
        &root, data, len, ECF_RULES_MAX_BYTES, "rules ", name,
        ECF_EPARSE, err);
    if (rc)
        return rc;
    ver = cJSON_GetObjectItemCaseSensitive(root, "schema_version");
    if (!cJSON_IsObject(root)) {
        rc = ecf_err_set(err, ECF_EPARSE, "%s: expected a JSON object", name);
        goto out;
    }
    if (!cJSON_IsNumber(ver) || ver->valuedouble != ECF_RULES_SCHEMA_VERSION) {
        rc = ecf_err_set(err, ECF_EPARSE,
                         "%s: schema_version: expected %d", name,
                         ECF_RULES_SCHEMA_VERSION);
        goto out;
    }
    rules = cJSON_GetObjectItemCaseSensitive(root, "rules");
    if (!cJSON_IsArray(rules)) {
        rc = ecf_err_set(err, ECF_EPARSE, "%s: rules: expected an array",
                         name);
        goto out;
    }
    cJSON_ArrayForEach(it, rules)
    {
        rc = load_rule(out, seen, it, i++, name, err);
        if (rc)
            goto out;
    }
    for (k = 0; k < ECF_RULE_COUNT; k++) {
        /* a rule added after rules files were in use may be left out of
         * an older one: it is then off, so that file keeps its ranking */
        if (!seen[k] && (k == ECF_RULE_END_OF_SUPPORT ||
                         k == ECF_RULE_SPOT_CAPACITY)) {
            out->rules[k].id = (ecf_rule_id)k;
            out->rules[k].enabled = false;
            out->rules[k].kind = ECF_RULE_PENALTY;
            continue;
        }
        if (!seen[k]) {
            rc = ecf_err_set(err, ECF_EPARSE,
                             "%s: rules: missing rule \"%s\" (set \"enabled\": "
                             "false to turn it off)",
                             name, ecf_rule_specs[k].name);
            goto out;
        }
    }
    snprintf(out->source, sizeof(out->source), "%s", name);
out:
    cJSON_Delete(root);
    return rc;
}

int ecf_rules_load_buffer(ecf_rules *out, const char *data, size_t len, const char *name,
                          ecf_err *err)
{
    return load_buffer_(false, out, data, len, name, err);
}

int ecf_rules_load_file(ecf_rules *out, const char *path, ecf_err *err)
{
    ecf_buf b = ECF_BUF_INIT;
    int rc = ecf_buf_read_file(&b, path, ECF_RULES_MAX_BYTES, err);
    /* Messages name the path as the user gave it. */
    if (rc == 0)
        rc = ecf_rules_load_buffer(out, b.data, b.len, path, err);
    ecf_buf_dispose(&b);
    return rc;
}

int ecf_rules_embedded(ecf_rules *out, ecf_err *err)
{
#ifdef ECF_HAVE_EMBEDDED_RULES
    return load_buffer_(
        true, out, ecf_embedded_rules,
        (size_t)(ecf_embedded_rules_end - ecf_embedded_rules), "embedded",
        err);
#else
    (void)out;
    return ecf_err_set(err, ECF_EIO, "this build has no embedded rules");
#endif
}
