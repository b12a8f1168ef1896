/*
 * cli_fields.c - `--fields` (cli_fields.h). The document is built as a
 * cJSON tree anyway (ecf_render_json_print), so the selection is a copy of the
 * selected branches: no second renderer, and the bytes of every kept
 * value are what --output json alone prints.
 */
#include "cli_fields.h"

#include <stdbool.h>
#include <string.h>

#include "cmd.h"
#include "render_common.h"

typedef struct {
    const char *keys[CLI_FIELDS_DEPTH];
    size_t n;
    bool found;     /* reached its end somewhere */
    bool uncertain; /* stopped at a null or an empty array */
    size_t miss_at; /* depth of the deepest object without the key */
    const cJSON *miss_obj;
} path_state;

int cli_fields_parse(cli_fields *out, const char *arg, ecf_err *err)
{
    char *p, *save = NULL;
    memset(out, 0, sizeof(*out));
    if (strlen(arg) >= sizeof(out->text))
        return ecf_err_set(err, ECF_EINVAL, "--fields: longer than %zu bytes",
                           sizeof(out->text) - 1);
    memcpy(out->text, arg, strlen(arg) + 1);
    for (p = strtok_r(out->text, ",", &save); p;
         p = strtok_r(NULL, ",", &save)) {
        size_t depth = 1, i, seg = 0;
        if (out->n == CLI_FIELDS_MAX)
            return ecf_err_set(err, ECF_EINVAL,
                               "--fields: more than %d fields",
                               CLI_FIELDS_MAX);
        for (i = 0; p[i]; i++) {
            char c = p[i];
            if (c == '.') {
                if (seg == 0)
                    break;
                seg = 0;
                depth++;
            } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                       (c >= '0' && c <= '9') || c == '_' || c == '-') {
                seg++;
            } else {
                return ecf_err_set(err, ECF_EINVAL,
                                   "--fields: '%s': a field is keys of "
                                   "letters, digits, '_' and '-' joined by "
                                   "'.'",
                                   p);
            }
        }
        if (p[i] || seg == 0)
            return ecf_err_set(err, ECF_EINVAL,
                               "--fields: '%s': empty key", p);
        if (depth > CLI_FIELDS_DEPTH)
            return ecf_err_set(err, ECF_EINVAL,
                               "--fields: '%s': more than %d keys", p,
                               CLI_FIELDS_DEPTH);
        out->path[out->n++] = p;
    }
    if (out->n == 0)
        return ecf_err_set(err, ECF_EINVAL,
                           "--fields: expected a comma-separated list of "
                           "fields, got '%s'",
                           arg);
    return 0;
}

/* The copy of `node` holding what the active paths (indexes `act`, at
 * `depth` keys matched) select; NULL when none goes through it. */
static cJSON *select_node(const cJSON *node, path_state *ps, const size_t *act,
                          size_t n_act, size_t depth)
{
    size_t i, k;
    cJSON *out = NULL;
    for (i = 0; i < n_act; i++)
        if (ps[act[i]].n == depth) {
            /* a path ends here: the whole value. The longer ones through
             * it are walked only to learn whether they exist. */
            size_t deeper[CLI_FIELDS_MAX], n_deeper = 0;
            for (k = 0; k < n_act; k++) {
                if (ps[act[k]].n == depth)
                    ps[act[k]].found = true;
                else
                    deeper[n_deeper++] = act[k];
            }
            if (n_deeper)
                cJSON_Delete(select_node(node, ps, deeper, n_deeper, depth));
            return cJSON_Duplicate(node, true);
        }
    if (cJSON_IsArray(node)) {
        const cJSON *e;
        out = cJSON_CreateArray();
        if (!node->child)
            for (i = 0; i < n_act; i++)
                ps[act[i]].uncertain = true;
        cJSON_ArrayForEach(e, node) {
            cJSON *c = select_node(e, ps, act, n_act, depth);
            if (c)
                cJSON_AddItemToArray(out, c);
        }
        return out;
    }
    if (cJSON_IsObject(node)) {
        const cJSON *m;
        size_t sub[CLI_FIELDS_MAX];
        for (i = 0; i < n_act; i++) {
            path_state *p = &ps[act[i]];
            if (!cJSON_GetObjectItemCaseSensitive(node, p->keys[depth]) &&
                (!p->miss_obj || depth > p->miss_at)) {
                p->miss_obj = node;
                p->miss_at = depth;
            }
        }
        cJSON_ArrayForEach(m, node) {
            size_t n_sub = 0;
            cJSON *c;
            for (i = 0; i < n_act; i++)
                if (strcmp(ps[act[i]].keys[depth], m->string) == 0)
                    sub[n_sub++] = act[i];
            if (n_sub == 0)
                continue;
            c = select_node(m, ps, sub, n_sub, depth + 1);
            if (c) {
                if (!out)
                    out = cJSON_CreateObject();
                cJSON_AddItemToObject(out, m->string, c);
            }
        }
        return out;
    }
    if (cJSON_IsNull(node)) {
        for (i = 0; i < n_act; i++)
            ps[act[i]].uncertain = true;
        return cJSON_CreateNull();
    }
    return NULL; /* a path goes on through a number or a string */
}

static int unknown(const path_state *p, const char *path, ecf_err *err)
{
    const char *names[256], *sugg[1];
    size_t n = 0, i, len = 0;
    const cJSON *m;
    if (p->miss_obj) {
        cJSON_ArrayForEach(m, p->miss_obj) {
            if (n < sizeof(names) / sizeof(names[0]))
                names[n++] = m->string;
        }
        if (ecf_parse_suggest(sugg, 1, p->keys[p->miss_at], names, n) > 0) {
            for (i = 0; i < p->miss_at; i++)
                len += strlen(p->keys[i]) + 1;
            return ecf_err_set(err, ECF_EINVAL,
                               "--fields: unknown field '%s' (did you mean "
                               "%.*s%s?)",
                               path, (int)len, path, sugg[0]);
        }
    }
    return ecf_err_set(err, ECF_EINVAL, "--fields: unknown field '%s'", path);
}

int cli_fields_apply(cJSON **root, const cli_fields *f, ecf_err *err)
{
    path_state ps[CLI_FIELDS_MAX];
    char store[sizeof(f->text) + CLI_FIELDS_MAX];
    size_t act[CLI_FIELDS_MAX] = {0}, i, n, used = 0;
    cJSON *out;

    memset(ps, 0, sizeof(ps));
    for (i = 0; i < f->n; i++) {
        /* each path's keys, split in a copy (f stays as parsed) */
        char *k, *save = NULL, *copy = store + used;
        size_t len = strlen(f->path[i]);
        if (used + len + 1 > sizeof(store))
            break;
        memcpy(copy, f->path[i], len + 1);
        used += len + 1;
        for (k = strtok_r(copy, ".", &save);
             k && ps[i].n < CLI_FIELDS_DEPTH; k = strtok_r(NULL, ".", &save))
            ps[i].keys[ps[i].n++] = k;
        act[i] = i;
    }
    n = i;
    out = select_node(*root, ps, act, n, 0);
    for (i = 0; i < n; i++)
        if (!ps[i].found && !ps[i].uncertain) {
            cJSON_Delete(out);
            return unknown(&ps[i], f->path[i], err);
        }
    cJSON_Delete(*root);
    *root = out ? out : cJSON_CreateObject();
    return 0;
}

int cli_fields_print(FILE *out, cJSON *root, const cli_fields *f,
                     const char *cmd)
{
    ecf_err err = ECF_ERR_INIT;
    if (f && cli_fields_apply(&root, f, &err) != 0) {
        cJSON_Delete(root);
        return cli_usage_error(cmd, "%s", err.msg);
    }
    ecf_render_json_print(out, root);
    return 0;
}
