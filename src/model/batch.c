/*
 * batch.c - the batch engine, ecf_recommend_batch (`ec2fit recommend
 * --batch FILE|-` is its CLI: cmd_recommend_batch.c): one workload
 * profile per input line (a JSON object whose fields are recommend's flags
 * without the dashes), one compact JSON line out per input line, in order.
 *
 * The catalog, rules, model zoo and light data are loaded once per batch,
 * not once per line: loading is most of a single run's cost.
 * Identical profiles (the same fields with the same values, in any order)
 * are computed once: the result is a pure function of the profile, the
 * catalog and the rules, so the second copy reuses the first one's JSON.
 * The cache is bounded (RB_CACHE_MAX_BYTES); past it every line is
 * computed.
 *
 * Lines are read in chunks (RB_CHUNK_LINES while the result cache is
 * less than half full, RB_CHUNK_LINES_FULL after, RB_CHUNK_LINES_BIG when
 * a line's output can be large: --explain, a big --top; and at most
 * RB_CHUNK_BYTES of input). A record the cache holds is not copied into
 * the chunk (it points to the cache's document), so the big chunks cost
 * little memory beyond the cache's bound, and a group spread over a big
 * input is estimated once per chunk, not once per 4,096 lines. In a chunk, lines are grouped by the fields the estimator reads
 * (model and workload without qps and epochs), and a group runs on one
 * thread with that thread's estimate memo (ecf_recommend_memo, at most
 * ECF_RECOMMEND_MEMO_MAX_BYTES each): profiles that differ only in
 * region, budget, deadline, spot, ranking, qps or epochs estimate each
 * instance type once. Groups are shared out to one thread per core (at
 * most RB_MAX_THREADS); each line's records are buffered and printed in
 * input order once the chunk is done, so the output does not depend on
 * the scheduling.
 *
 * Fields are validated by the same parsers as the flags, so a line gets
 * exactly the message the flag would ("--epochs: must be more than zero,
 * got '0'"). A bad line yields {"line":N,"error":"...","exit_code":2} and
 * the batch goes on.
 */
#include "ec2fit/batch.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "ec2fit/buf.h"
#include "ec2fit/json_write.h"
#include "ec2fit/light.h"
#include "ec2fit/recommend.h"
#include "ec2fit/rules.h"
#include "ec2fit/units.h"
#include "ec2fit/textsafe.h"
#include "ec2fit/zoo.h"
#include "parse.h"
#include "region_check.h"
#include "workload_flags.h"

#define RB_MAX_LINE (1u << 20)       /* bytes in one input line */
#define RB_MAX_LIST 64               /* families in one list */
#define RB_CHUNK_LINES 16384         /* lines grouped and run together */
#define RB_CHUNK_LINES_FULL 4096     /* ... once the cache is half full */
#define RB_CHUNK_LINES_BIG 64        /* ... when --explain or --top > 20 */
#define RB_CHUNK_BYTES (16u << 20)   /* input bytes in one chunk */
#define RB_MAX_THREADS 8

#include "batch_internal.h" /* the result cache (batch_cache.c) */

/* ------------------------------------------------------------------ */
/* One profile                                                         */
/* ------------------------------------------------------------------ */

typedef struct {
    const ecf_catalog *cat;
    const char *label;
    long now; /* ecf_batch_opts.now */
    const ecf_rules *rules;
    const ecf_zoo *zoo;
    const ecf_light *light; /* NULL: a build without light data */
    const ecf_stacks *stacks;
    const struct ecf_storage_prices *storage_prices;
    const ecf_images *images; /* image per stack, for plan JSON */
    const ecf_range_table *ranges; /* likely ranges, for plan JSON */
    int top;
    bool explain;
    const char *default_region;
    const char *default_region_origin; /* what to name in a region error */
    int default_framework;             /* config file's, -1 none */
    int write_errno;                   /* first failed write to `out` */
    ecf_batch_render_fn render;
    ecf_batch_render_text_fn render_text; /* NULL: render + ecf_json_print */
    rb_cache cache;
    pthread_mutex_t lock; /* the cache and the chunk's next group */
} rb_batch;

/* One input line of a chunk and its records. */
typedef struct {
    long lineno;
    char *text;    /* NULL: already answered (a line too long) */
    size_t len;
    char *group;   /* estimator fields, canonical; the group's key */
    char *fields;  /* its fields (pack_fields); NULL: parse `text` */
    ecf_buf out;   /* its stdout record, or: */
    const char *shared; /* the result cache's document for it (printed
                           after {"line":N,), which outlives the chunk */
    ecf_buf errout; /* its stderr message */
    int status;
} rb_item;

/* Recommend's own fields (the workload ones come from cli_workload.h). */
enum {
    F_DEADLINE = 1, F_BUDGET, F_BUDGET_HOURLY, F_PEAK_QPS, F_MAX_NODES,
    F_SPOT, F_CHECKPOINT, F_REGION, F_REGIONS, F_FAMILIES, F_EXCLUDE,
    F_OPTIMIZE, F_ESTIMATE_MISSING
};

static const struct {
    const char *name;
    int id;
} rec_fields[] = {
    {"deadline", F_DEADLINE},
    {"budget", F_BUDGET},
    {"budget-hourly", F_BUDGET_HOURLY},
    {"peak-qps", F_PEAK_QPS},
    {"max-nodes", F_MAX_NODES},
    {"spot", F_SPOT},
    {"checkpoint-every", F_CHECKPOINT},
    {"region", F_REGION},
    {"regions", F_REGIONS},
    {"families", F_FAMILIES},
    {"exclude-families", F_EXCLUDE},
    {"optimize", F_OPTIMIZE},
    {"estimate-missing-prices", F_ESTIMATE_MISSING},
};

static const struct option wl_fields[] = {CLI_WORKLOAD_LONGOPTS,
                                          {NULL, 0, NULL, 0}};

typedef struct {
    cli_workload wl;
    ecf_recommend_opts o;
    ecf_model model;
    char region[256];
    char regions[4096];
    char fam[1024], exfam[1024];
    const char *famv[RB_MAX_LIST + 1], *exfamv[RB_MAX_LIST + 1];
} rb_profile;

/* Splits a comma list in place into `v` (NULL-terminated); the count,
 * or RB_MAX_LIST + 1 when the list holds more entries than `v` (refused
 * by the caller: an entry past the last would be dropped silently). */
static size_t split_list(const char **v, char *s)
{
    size_t n = 0;
    char *p, *save = NULL;
    for (p = strtok_r(s, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
        if (!*p)
            continue;
        if (n == RB_MAX_LIST) {
            v[n] = NULL;
            return RB_MAX_LIST + 1;
        }
        v[n++] = p;
    }
    v[n] = NULL;
    return n;
}

static int positive(double v, const char *flag, const char *arg,
                    ecf_err *err)
{
    if (v <= 0)
        return ecf_err_set(err, ECF_EINVAL, "%s: must be positive, got '%s'",
                           flag, arg);
    return 0;
}

/* One recommend-specific field; the checks and messages are the flags'. */
static int rec_field(rb_profile *p, int id, const rb_field *f, ecf_err *err)
{
    ecf_recommend_opts *o = &p->o;
    const char *arg = f->text;
    int rc = 0, v;

    if (f->is_bool && id != F_SPOT && id != F_ESTIMATE_MISSING)
        return ecf_err_set(err, ECF_EINVAL, "\"%s\": expected a value, got %s",
                           f->name, arg);
    switch (id) {
    case F_DEADLINE:
        rc = ecf_units_parse_duration(&o->deadline_hours, "--deadline", arg,
                                      err);
        return rc ? rc : positive(o->deadline_hours, "--deadline", arg, err);
    case F_BUDGET:
        rc = ecf_units_parse_usd(&o->budget_usd, "--budget", arg, err);
        return rc ? rc : positive(o->budget_usd, "--budget", arg, err);
    case F_BUDGET_HOURLY:
        rc = ecf_units_parse_usd(&o->budget_hourly_usd, "--budget-hourly",
                                 arg, err);
        return rc ? rc
                  : positive(o->budget_hourly_usd, "--budget-hourly", arg,
                             err);
    case F_PEAK_QPS:
        return ecf_parse_double(&o->peak_qps, "--peak-qps", arg, 0, 1e9, err);
    case F_MAX_NODES:
        return ecf_parse_int(&o->max_nodes, "--max-nodes", arg, 1, 4096, err);
    case F_SPOT:
        if (!f->is_bool)
            return ecf_err_set(err, ECF_EINVAL,
                               "\"spot\": expected true or false, got '%s'",
                               arg);
        o->spot = f->bval ? ECF_SPOT_YES : ECF_SPOT_NO;
        return 0;
    case F_ESTIMATE_MISSING:
        if (!f->is_bool)
            return ecf_err_set(err, ECF_EINVAL,
                               "\"estimate-missing-prices\": expected true "
                               "or false, got '%s'",
                               arg);
        o->estimate_missing_prices = f->bval;
        return 0;
    case F_CHECKPOINT:
        rc = ecf_units_parse_duration(&o->checkpoint_hours,
                                      "--checkpoint-every", arg, err);
        return rc ? rc
                  : positive(o->checkpoint_hours, "--checkpoint-every", arg,
                             err);
    case F_REGION:
        snprintf(p->region, sizeof(p->region), "%s", arg);
        return 0;
    case F_REGIONS:
        snprintf(p->regions, sizeof(p->regions), "%s", arg);
        return 0;
    case F_FAMILIES:
    case F_EXCLUDE: {
        bool ex = id == F_EXCLUDE;
        char *store = ex ? p->exfam : p->fam;
        const char **vec = ex ? p->exfamv : p->famv;
        const char *flag = ex ? "--exclude-families" : "--families";
        size_t n;
        if (strlen(arg) >= sizeof(p->fam))
            return ecf_err_set(err, ECF_EINVAL,
                               "%s: longer than %zu bytes", flag,
                               sizeof(p->fam) - 1);
        snprintf(store, sizeof(p->fam), "%s", arg);
        n = split_list(vec, store);
        if (n == 0)
            return ecf_err_set(err, ECF_EINVAL,
                               "%s: expected a comma-separated list, got "
                               "'%s'",
                               flag, arg);
        if (n > RB_MAX_LIST)
            return ecf_err_set(err, ECF_EINVAL,
                               "%s: more than %d entries", flag,
                               RB_MAX_LIST);
        if (ex)
            o->exclude_families = vec;
        else
            o->families = vec;
        return 0;
    }
    case F_OPTIMIZE:
        v = ecf_optimize_parse(arg);
        if (v < 0)
            return ecf_err_set(err, ECF_EINVAL,
                               "--optimize: expected cost|time|balanced, got "
                               "'%s'",
                               arg);
        o->optimize = (ecf_optimize)v;
        return 0;
    default:
        break;
    }
    return 0;
}

/* One field, workload or recommend. */
static int apply_field(rb_profile *p, const rb_field *f, ecf_err *err)
{
    size_t i;
    for (i = 0; wl_fields[i].name; i++) {
        int rc;
        if (strcmp(wl_fields[i].name, f->name) != 0)
            continue;
        if (wl_fields[i].has_arg == no_argument) {
            /* a switch: true sets it, false leaves the default */
            if (!f->is_bool)
                return ecf_err_set(err, ECF_EINVAL,
                                   "\"%s\": expected true or false, got '%s'",
                                   f->name, f->text);
            if (!f->bval && wl_fields[i].val != CLI_WL_CKPT)
                return 0;
            /* "activation-checkpointing": false forces it off */
            rc = ecf_workload_option(&p->wl,
                                     f->bval ? wl_fields[i].val
                                             : CLI_WL_NO_CKPT,
                                     NULL, err);
        } else {
            if (f->is_bool)
                return ecf_err_set(err, ECF_EINVAL,
                                   "\"%s\": expected a value, got %s",
                                   f->name, f->text);
            rc = ecf_workload_option(&p->wl, wl_fields[i].val, f->text, err);
        }
        return rc < 0 ? rc : 0;
    }
    for (i = 0; i < sizeof(rec_fields) / sizeof(rec_fields[0]); i++)
        if (strcmp(rec_fields[i].name, f->name) == 0)
            return rec_field(p, rec_fields[i].id, f, err);
    return ecf_err_set(err, ECF_EINVAL,
                       "unknown field \"%s\" (fields are recommend's flags: "
                       "see 'ec2fit recommend --help')",
                       f->name);
}

/* Builds a profile from the fields, with the command's cross-flag checks.
 * Model-name strings point into `fields`, which must outlive the run. */
static int build_profile(rb_profile *p, const rb_batch *b,
                         const rb_field *fields, size_t n, ecf_err *err)
{
    size_t i;
    int rc;

    for (i = 0; i < n; i++) {
        rc = apply_field(p, &fields[i], err);
        if (rc < 0)
            return rc;
    }
    if (p->region[0] && p->regions[0])
        return ecf_err_set(err, ECF_EINVAL,
                           "--region and --regions are exclusive");
    rc = ecf_workload_finish_zoo(&p->wl, &p->model, true, b->zoo, err);
    if (rc < 0)
        return rc;
    if (p->wl.w.task != ECF_TASK_INFER && p->wl.w.dataset_samples <= 0) {
        if (p->o.deadline_hours > 0)
            return ecf_err_set(err, ECF_EINVAL,
                               "--deadline: needs --dataset (a job's length "
                               "is unknown without it)");
        if (p->o.budget_usd > 0)
            return ecf_err_set(err, ECF_EINVAL,
                               "--budget: needs --dataset (a job's total "
                               "cost is unknown without it; see "
                               "--budget-hourly)");
    }
    if (p->o.peak_qps > 0 && p->wl.w.task != ECF_TASK_INFER)
        return ecf_err_set(err, ECF_EINVAL,
                           "--peak-qps: only for --task infer");
    if (p->o.peak_qps > 0 && p->o.peak_qps < p->wl.w.qps)
        return ecf_err_set(err, ECF_EINVAL, "--peak-qps: %g is below --qps %g",
                           p->o.peak_qps, p->wl.w.qps);

    if (strcmp(p->regions, "all") == 0) {
        for (i = 0; i < ecf_catalog_region_count(b->cat) &&
                    p->o.n_regions < ECF_RECOMMEND_MAX_REGIONS;
             i++)
            p->o.regions[p->o.n_regions++] = ecf_catalog_region_at(b->cat, i);
    } else if (p->regions[0]) {
        const char *v[ECF_RECOMMEND_MAX_REGIONS + 2];
        char copy[sizeof(p->regions)];
        size_t k, nv;
        snprintf(copy, sizeof(copy), "%s", p->regions);
        nv = 0;
        {
            char *q, *save = NULL;
            for (q = strtok_r(p->regions, ",", &save);
                 q && nv <= ECF_RECOMMEND_MAX_REGIONS;
                 q = strtok_r(NULL, ",", &save))
                if (*q)
                    v[nv++] = q;
        }
        if (nv == 0 || nv > ECF_RECOMMEND_MAX_REGIONS)
            return ecf_err_set(err, ECF_EINVAL,
                               "--regions: expected all or a list of 1 to %d "
                               "regions, got '%s'",
                               ECF_RECOMMEND_MAX_REGIONS, copy);
        for (k = 0; k < nv; k++) {
            rc = ecf_region_check(b->cat, v[k], "--regions", err);
            if (rc < 0)
                return rc;
            p->o.regions[p->o.n_regions++] = v[k];
        }
    } else {
        const char *r = p->region[0] ? p->region : b->default_region;
        rc = ecf_region_check(b->cat, r,
                              p->region[0] || !b->default_region_origin
                                  ? "--region"
                                  : b->default_region_origin,
                              err);
        if (rc < 0)
            return rc;
        if (!p->region[0])
            snprintf(p->region, sizeof(p->region), "%s", r);
        p->o.regions[p->o.n_regions++] = p->region;
    }
    return 0;
}

/* Runs one parsed profile: *json_out (compact, no "line"; the caller's)
 * and 0 or 3, or an error code with `err` set. */
static int run_profile(char **json_out, rb_batch *b, rb_profile *p,
                       ecf_recommend_memo *memo, ecf_err *err)
{
    ecf_recommendation *rec = NULL;
    ecf_result view;
    cJSON *root;
    int rc;

    *json_out = NULL;
    /* A batch line shows the first --top plans: rank only those. */
    p->o.rank_top = (size_t)b->top;
    p->o.stacks = b->stacks;
    p->o.storage_prices = b->storage_prices;
    rc = ecf_recommend_run_memo(&rec, b->cat, &p->model, &p->wl.w, b->rules,
                                &p->o, memo, err);
    if (rc < 0)
        return rc;
    memset(&view, 0, sizeof(view));
    view.cat = b->cat;
    view.catalog_label = b->label;
    view.now = b->now;
    view.model = &p->model;
    view.w = &p->wl.w;
    view.opts = &p->o;
    view.rules = b->rules;
    view.rec = rec;
    view.top = b->top;
    view.explain = b->explain;
    view.images = b->images;
    view.ranges = b->ranges;
    view.memo = memo;
    if (b->explain)
        ecf_recommend_sort_rejected(rec);
    if (b->light && p->wl.w.task == ECF_TASK_INFER)
        view.n_light = ecf_recommend_light(view.light, 2, b->light, &p->model,
                                           &p->wl.w, rec);
    if (b->render_text) {
        *json_out = b->render_text(&view);
    } else {
        root = b->render(&view);
        *json_out = ecf_json_print(root);
        cJSON_Delete(root);
    }
    rc = rec->n_plans > 0 ? 0 : 3;
    ecf_recommendation_free(rec);
    if (!*json_out) {
        fputs("ec2fit: out of memory\n", stderr);
        abort();
    }
    return rc;
}

/* The exit status of a failed line, as the single command would give. */
static int line_status(const ecf_err *err)
{
    return err->code == ECF_EINVAL || err->code == ECF_ENOTFOUND ? 2 : 1;
}

static void print_error(rb_item *it, long line, const ecf_err *err,
                        int status)
{
    cJSON *o = cJSON_CreateObject();
    char *s;
    /* escaped in the JSON line too: a raw byte that is not UTF-8 would
     * make the line invalid JSON (docs/security.md) */
    char *msg = ecf_textsafe_dup(err->msg);
    cJSON_AddNumberToObject(o, "line", (double)line);
    cJSON_AddStringToObject(o, "error", msg);
    cJSON_AddNumberToObject(o, "exit_code", status);
    s = cJSON_PrintUnformatted(o);
    if (s)
        ecf_buf_printf(&it->out, "%s\n", s);
    cJSON_free(s);
    cJSON_Delete(o);
    ecf_buf_printf(&it->errout, "ec2fit: recommend: line %ld: %s\n", line,
                   msg);
    free(msg);
}

/* Fields that change the plans but not one estimate (see
 * ecf_recommend_memo): left out of a line's group key. */
static bool estimate_free(const char *name)
{
    static const char *const names[] = {
        "region", "regions", "budget", "budget-hourly", "deadline", "spot",
        "optimize", "qps", "epochs", "peak-qps", "max-nodes",
        "checkpoint-every", "families", "exclude-families"};
    size_t i;
    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (strcmp(names[i], name) == 0)
            return true;
    return false;
}

/* Appends "name=text\x1f" ("name=?text" for a boolean) to a key: puts,
 * not printf (two vsnprintf passes per field were 2% of a batch). */
static void key_field(ecf_buf *key, const rb_field *f)
{
    ecf_buf_puts(key, f->name);
    ecf_buf_puts(key, f->is_bool ? "=?" : "=");
    ecf_buf_puts(key, f->text);
    ecf_buf_append(key, "\x1f", 1);
}

/* The group key of a line: its estimator fields, canonical, then \x1e
 * and its epochs, which only order a group's lines (the memo recomputes
 * an estimate when the epochs change: see memo_estimate in recommend.c),
 * so that each epochs value is estimated once per group. Only a grouping:
 * the memo checks what it is given, so a key never changes a result. A
 * line that does not parse gets "". */
static char *group_key(const char *text, size_t len, char **packed)
{
    rb_field fields[RB_MAX_FIELDS];
    ecf_err err = ECF_ERR_INIT;
    ecf_buf key = ECF_BUF_INIT;
    cJSON *root = parse_line(text, len, &err);
    size_t n = 0, i;

    *packed = NULL;
    if (root && read_fields(fields, &n, root, &err) == 0) {
        *packed = pack_fields(fields, n);
        for (i = 0; i < n; i++)
            if (!estimate_free(fields[i].name))
                key_field(&key, &fields[i]);
        for (i = 0; i < n; i++)
            if (strcmp(fields[i].name, "epochs") == 0) {
                ecf_buf_append(&key, "\x1e", 1);
                ecf_buf_puts(&key, fields[i].text);
            }
    }
    cJSON_Delete(root);
    if (!key.data)
        return ecf_xstrdup("");
    return ecf_buf_detach(&key);
}

/* Whether two group keys name the same group (their epochs aside). Field
 * text sorts after \x1e, so a group's keys are adjacent once sorted. */
static bool same_group(const char *a, const char *b)
{
    size_t la = strcspn(a, "\x1e"), lb = strcspn(b, "\x1e");
    return la == lb && memcmp(a, b, la) == 0;
}

/* One input line: buffers its records, returns its status (0, 1, 2, 3). */
static int batch_line(rb_batch *b, ecf_recommend_memo *memo, rb_item *it)
{
    long lineno = it->lineno;
    const char *text = it->text;
    size_t len = it->len;
    rb_field fields[RB_MAX_FIELDS];
    rb_profile *p = NULL;
    ecf_err err = ECF_ERR_INIT;
    ecf_buf key = ECF_BUF_INIT;
    cJSON *root = NULL;
    rb_entry *hit;
    char *json = NULL;
    size_t n = 0, i;
    int status;

    if (it->fields) { /* read when the line was grouped */
        n = unpack_fields(fields, it->fields);
    } else {
        root = parse_line(text, len, &err);
        if (!root)
            goto fail;
        if (read_fields(fields, &n, root, &err) < 0)
            goto fail;
    }
    /* the sorted fields are the profile's canonical form */
    for (i = 0; i < n; i++)
        key_field(&key, &fields[i]);
    pthread_mutex_lock(&b->lock);
    hit = cache_slot(&b->cache, key.data ? key.data : "");
    if (hit && hit->key) {
        status = hit->status;
        /* the cache's copy is printed: a chunk buffers no second one */
        it->shared = hit->json;
        pthread_mutex_unlock(&b->lock);
        goto out;
    }
    pthread_mutex_unlock(&b->lock);
    p = ecf_xcalloc(1, sizeof(*p));
    {
        cli_workload wl0 = CLI_WORKLOAD_INIT;
        ecf_recommend_opts o0 = ECF_RECOMMEND_OPTS_INIT;
        p->wl = wl0;
        p->wl.default_framework = b->default_framework;
        p->o = o0;
    }
    if (build_profile(p, b, fields, n, &err) < 0)
        goto fail;
    status = run_profile(&json, b, p, memo, &err);
    if (status < 0)
        goto fail;
    pthread_mutex_lock(&b->lock);
    it->shared = cache_put(&b->cache, key.data ? key.data : "", json, status);
    pthread_mutex_unlock(&b->lock);
    if (!it->shared) { /* the cache is full: the record keeps its own */
        /* puts, not printf: vsnprintf over a 3 KB document twice was 6%
         * of a batch */
        ecf_buf_printf(&it->out, "{\"line\":%ld,", lineno);
        ecf_buf_puts(&it->out, json + 1);
        ecf_buf_puts(&it->out, "\n");
    }
    goto out;
fail:
    status = line_status(&err);
    print_error(it, lineno, &err, status);
out:
    free(json);
    free(p);
    ecf_buf_dispose(&key);
    cJSON_Delete(root);
    return status;
}

/* 1 beats 2 beats 3 beats 0. */
static int worse(int a, int b)
{
    static const int rank[4] = {0, 3, 2, 1};
    if (a < 0 || a > 3)
        return a;
    if (b < 0 || b > 3)
        return b;
    return rank[b] > rank[a] ? b : a;
}

static bool blank(const char *s, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
            return false;
    return true;
}

/* ------------------------------------------------------------------ */
/* Chunks                                                              */
/* ------------------------------------------------------------------ */

typedef struct {
    rb_batch *b;
    rb_item *items;
    const size_t *order;  /* items by group, then line */
    const size_t *starts; /* group g is order[starts[g] .. starts[g+1]) */
    const size_t *by_size; /* groups, most lines first */
    size_t n_groups;
    size_t *next;         /* next group to run, under b->lock */
    ecf_recommend_memo *memo; /* this thread's */
} rb_worker;

static void *worker_main(void *arg)
{
    rb_worker *w = arg;
    for (;;) {
        size_t g, k;
        pthread_mutex_lock(&w->b->lock);
        g = (*w->next)++;
        pthread_mutex_unlock(&w->b->lock);
        if (g >= w->n_groups)
            break;
        g = w->by_size[g];
        for (k = w->starts[g]; k < w->starts[g + 1]; k++) {
            rb_item *it = &w->items[w->order[k]];
            if (it->text)
                it->status = batch_line(w->b, w->memo, it);
        }
    }
    return NULL;
}

static const rb_item *sort_items; /* qsort has no context argument */
static const size_t *sort_starts;

/* Largest group first: the threads finish together instead of one
 * running the last big group alone. */
static int size_cmp(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    size_t nx = sort_starts[x + 1] - sort_starts[x],
           ny = sort_starts[y + 1] - sort_starts[y];
    if (nx != ny)
        return nx > ny ? -1 : 1;
    return x < y ? -1 : x > y;
}

static int item_cmp(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    int c = strcmp(sort_items[x].group, sort_items[y].group);
    if (c)
        return c;
    return x < y ? -1 : x > y;
}

/* Runs a chunk's lines on `n_workers` threads and prints their records in
 * input order. Returns the worst status. */
static int run_chunk(rb_batch *b, rb_item *items, size_t n,
                     ecf_recommend_memo **memos, int n_workers, FILE *out,
                     FILE *diag)
{
    size_t *order = ecf_xmalloc((n ? n : 1) * sizeof(*order));
    size_t *starts = ecf_xmalloc((n + 1) * sizeof(*starts));
    size_t *by_size = ecf_xmalloc((n ? n : 1) * sizeof(*by_size));
    rb_worker w[RB_MAX_THREADS];
    pthread_t tid[RB_MAX_THREADS];
    bool started[RB_MAX_THREADS] = {false};
    size_t i, n_groups = 0, next = 0;
    int t, status = 0;

    for (i = 0; i < n; i++) {
        order[i] = i;
        items[i].fields = NULL;
        items[i].group = items[i].text ? group_key(items[i].text, items[i].len,
                                                   &items[i].fields)
                                       : ecf_xstrdup("");
    }
    sort_items = items;
    qsort(order, n, sizeof(*order), item_cmp);
    for (i = 0; i < n; i++)
        if (i == 0 || !same_group(items[order[i]].group,
                                  items[order[i - 1]].group))
            starts[n_groups++] = i;
    starts[n_groups] = n;
    for (i = 0; i < n_groups; i++)
        by_size[i] = i;
    sort_starts = starts;
    qsort(by_size, n_groups, sizeof(*by_size), size_cmp);
    for (t = 0; t < n_workers; t++) {
        w[t].b = b;
        w[t].items = items;
        w[t].order = order;
        w[t].starts = starts;
        w[t].by_size = by_size;
        w[t].n_groups = n_groups;
        w[t].next = &next;
        w[t].memo = memos[t];
    }
    /* this thread is worker 0 */
    for (t = 1; t < n_workers && (size_t)t < n_groups; t++)
        started[t] = pthread_create(&tid[t], NULL, worker_main, &w[t]) == 0;
    worker_main(&w[0]);
    for (t = 1; t < n_workers; t++)
        if (started[t])
            pthread_join(tid[t], NULL);
    for (i = 0; i < n; i++) {
        rb_item *it = &items[i];
        if (it->shared) {
            size_t len = strlen(it->shared + 1);
            if ((fprintf(out, "{\"line\":%ld,", it->lineno) < 0 ||
                 fwrite(it->shared + 1, 1, len, out) != len ||
                 putc('\n', out) == EOF) &&
                !b->write_errno)
                b->write_errno = errno ? errno : EIO;
        }
        if (it->out.len &&
            fwrite(it->out.data, 1, it->out.len, out) != it->out.len &&
            !b->write_errno)
            b->write_errno = errno ? errno : EIO;
        if (it->errout.len)
            fwrite(it->errout.data, 1, it->errout.len, diag);
        status = worse(status, it->status);
        free(it->text);
        free(it->group);
        free(it->fields);
        ecf_buf_dispose(&it->out);
        ecf_buf_dispose(&it->errout);
    }
    free(order);
    free(starts);
    free(by_size);
    return status;
}

/* Lines in the next chunk (without --explain or a big --top): the
 * records of a big chunk mostly live in the result cache; once that is
 * half full, a chunk's records may need their own memory, so fewer. */
static size_t chunk_size(const rb_batch *b)
{
    return b->cache.bytes < RB_CACHE_MAX_BYTES / 2 ? RB_CHUNK_LINES
                                                   : RB_CHUNK_LINES_FULL;
}

static int thread_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        return 1;
    return n > RB_MAX_THREADS ? RB_MAX_THREADS : (int)n;
}

/* ------------------------------------------------------------------ */
/* Driver                                                              */
/* ------------------------------------------------------------------ */

int ecf_recommend_batch(FILE *in, FILE *out, FILE *diag,
                        const ecf_batch_opts *opts)
{
    rb_batch b;
    ecf_err err = ECF_ERR_INIT;
    char *line = NULL;
    size_t cap = 0;
    long long got;
    bool read_error = false;
    long lineno = 0;
    int status = 0;
    rb_item *items = NULL;
    ecf_recommend_memo *memos[RB_MAX_THREADS] = {NULL};
    size_t n_items = 0, chunk_lines, chunk_bytes = 0;
    int n_workers = thread_count(), t;

    if (opts->threads > 0)
        n_workers = opts->threads < RB_MAX_THREADS ? opts->threads
                                                   : RB_MAX_THREADS;
    memset(&b, 0, sizeof(b));
    pthread_mutex_init(&b.lock, NULL);
    b.cat = opts->cat;
    b.label = opts->catalog_label;
    b.now = opts->now;
    b.rules = opts->rules;
    b.zoo = opts->zoo;
    b.light = opts->light;
    b.top = opts->top;
    b.explain = opts->explain;
    b.default_region = opts->default_region;
    b.render = opts->render;
    b.render_text = opts->render_text;
    b.stacks = opts->stacks;
    b.storage_prices = opts->storage_prices;
    b.images = opts->images;
    b.ranges = opts->ranges;
    b.default_region_origin = opts->default_region_origin;
    b.default_framework = opts->default_framework;

    chunk_lines = b.explain || b.top > 20 ? RB_CHUNK_LINES_BIG
                                          : RB_CHUNK_LINES;
    items = ecf_xcalloc(chunk_lines, sizeof(*items));
    if (chunk_lines == RB_CHUNK_LINES)
        chunk_lines = chunk_size(&b);
    for (t = 0; t < n_workers; t++)
        memos[t] = ecf_recommend_memo_new();
    for (;;) {
        rb_item *it;
        bool too_long;
        got = read_line(&line, &cap, in, RB_MAX_LINE, &too_long);
        if (got == 0)
            break;
        if (got < 0) {
            read_error = true;
            break;
        }
        lineno++;
        if (!too_long && blank(line, (size_t)got))
            continue;
        it = &items[n_items++];
        memset(it, 0, sizeof(*it));
        it->lineno = lineno;
        if (too_long) {
            ecf_err_set(&err, ECF_EINVAL, "line longer than %u bytes",
                        RB_MAX_LINE);
            print_error(it, lineno, &err, 2);
            it->status = 2;
        } else {
            it->text = ecf_xmalloc((size_t)got + 1);
            memcpy(it->text, line, (size_t)got + 1);
            it->len = (size_t)got;
            chunk_bytes += (size_t)got;
        }
        if (n_items == chunk_lines || chunk_bytes >= RB_CHUNK_BYTES) {
            status = worse(status, run_chunk(&b, items, n_items, memos,
                                             n_workers, out, diag));
            n_items = 0;
            chunk_bytes = 0;
            if (chunk_lines > RB_CHUNK_LINES_BIG)
                chunk_lines = chunk_size(&b);
        }
    }
    if (n_items)
        status = worse(status, run_chunk(&b, items, n_items, memos, n_workers,
                                         out, diag));
    if (read_error) /* ferror(in) is set: the caller names the input */
        status = worse(status, 1);
    free(line);
    free(items);
    for (t = 0; t < RB_MAX_THREADS; t++)
        ecf_recommend_memo_free(memos[t]);
    pthread_mutex_destroy(&b.lock);
    cache_free(&b.cache);
    if (opts->write_errno)
        *opts->write_errno = b.write_errno;
    return status;
}
