/*
 * calib_ranges.c - the range table (ec2fit/ranges.h) from the calibration
 * rows, and how often the ranges hold. Included by calib_report.c after
 * its row evaluation, so the table the build embeds
 * (`calib_report --write-ranges`) and the coverage the report prints come
 * from the same residuals the calibration gate reads
 * (docs/estimation.md, "Ranges").
 *
 * Per row, the residual is a duration factor d: measured / predicted for
 * times, latencies and memory, predicted / measured for rates. Per class,
 * the factors are the lo_pct and hi_pct percentiles of log d, widened
 * about the median by the small-sample factor k(n), then clamped so that
 * low <= 1 <= high (the point estimate lies inside its range).
 */
#include "ec2fit/ranges.h"

#define RANGE_MIN_ROWS 5    /* a class needs this many rows */
#define RANGE_LO_PCT   5.0 /* percentiles of log d */
#define RANGE_HI_PCT   95.0
#define RANGE_COVERAGE_MIN 80.0 /* coverage per kind, % */
/* Kinds with fewer rows are gated on their in-sample coverage: one row is
 * 5.6 points of 18 (memory), and leaving out either extreme row of a
 * small kind puts it outside by construction. Both figures are printed. */
#define RANGE_LOO_GATE_ROWS 20

typedef struct {
    bool has;          /* a residual of a range kind */
    ecf_range_kind kind;
    ecf_range_key key; /* strings static or in the cJSON tree / catalog */
    double log_d;
    const char *group; /* the row's source group ("" when none) */
} range_res;

/* The range kind of a calibration kind; -1 for the others. */
static int range_kind_of(const char *kind)
{
    int k;
    for (k = 0; k < ECF_RANGE_KIND_COUNT; k++)
        if (kind && strcmp(kind, ecf_range_kind_name((ecf_range_kind)k)) == 0)
            return k;
    return -1;
}

/* +1 for a duration-like metric (measured / predicted), -1 for a rate
 * (predicted / measured), 0 for metrics no figure's range is read from
 * (KV-cache tokens and the largest batch are capacities, not sizes). */
static int metric_sense(const char *metric)
{
    static const char *const dur[] = {
        "time_hours", "gpu_hours", "latency_ms", "ttft_ms", "tpot_ms",
        "ms_per_output_token", "memory_smi_gib", "memory_allocated_gib"};
    static const char *const rate[] = {"samples_per_s", "tokens_per_s",
                                       "mfu_pct", "decode_tokens_per_s"};
    size_t i;
    for (i = 0; i < sizeof(dur) / sizeof(dur[0]); i++)
        if (strcmp(metric, dur[i]) == 0)
            return 1;
    for (i = 0; i < sizeof(rate) / sizeof(rate[0]); i++)
        if (strcmp(metric, rate[i]) == 0)
            return -1;
    return 0;
}

/* The class of one row, from the model, workload and device the row's
 * evaluation builds (calib_report.c): the function a user's workload goes
 * through too. */
static int row_key(ecf_range_key *key, const calib_set *set, const cJSON *row)
{
    ecf_model m;
    ecf_workload w;
    ecf_accel acc;
    ecf_instance inst;
    char msg[200];

    if (build_model(&m, set->zoo, row, msg, sizeof(msg)) < 0 ||
        build_instance(&acc, &inst, set->cat, set->root, row, msg,
                       sizeof(msg)) < 0 ||
        build_workload(&w, row, msg, sizeof(msg)) < 0)
        return -1;
    ecf_range_key_of(key, &m, &w, &inst);
    /* the accelerator struct is local: keep only its borrowed string */
    return 0;
}

/* One residual per evaluated row (use and outlier) of a range kind. */
static void range_residuals(range_res *res, const calib_set *set)
{
    const cJSON *row = NULL;
    size_t i = 0;

    memset(res, 0, sizeof(res[0]) * set->n);
    cJSON_ArrayForEach (row, cJSON_GetObjectItemCaseSensitive(set->root,
                                                              "rows")) {
        const calib_row *r;
        int k, sense;
        if (i >= set->n)
            break;
        r = &set->rows[i];
        k = range_kind_of(r->kind);
        sense = r->metric ? metric_sense(r->metric) : 0;
        if (r->status != CALIB_SKIP && r->ok && k >= 0 && sense != 0 &&
            r->expect > 0 && r->predicted > 0 &&
            row_key(&res[i].key, set, row) == 0) {
            res[i].has = true;
            res[i].kind = (ecf_range_kind)k;
            res[i].log_d = sense * log(r->expect / r->predicted);
            res[i].group = r->group ? r->group : "";
        }
        i++;
    }
}

/* Whether a row's key falls in the class `c` of `level` keyed by `key`. */
static bool same_class(const ecf_range_key *a, const ecf_range_key *b,
                       ecf_range_level level)
{
    if (level >= ECF_RANGE_LEVEL_KIND)
        return true;
    if (strcmp(a->family, b->family) != 0)
        return false;
    if (level >= ECF_RANGE_LEVEL_FAMILY)
        return true;
    if (strcmp(a->task, b->task) != 0)
        return false;
    if (level >= ECF_RANGE_LEVEL_TASK)
        return true;
    if (strcmp(a->engine, b->engine) != 0)
        return false;
    return level >= ECF_RANGE_LEVEL_ENGINE ||
           strcmp(a->generation, b->generation) == 0;
}

/* Percentile p (0-100) of sorted v[n], linear between order statistics
 * (Hyndman and Fan's definition 7, numpy's default). */
static double pctl(const double *v, size_t n, double p)
{
    double h = (double)(n - 1) * p / 100.0;
    size_t lo = (size_t)h;
    if (lo + 1 >= n)
        return v[n - 1];
    return v[lo] + (h - (double)lo) * (v[lo + 1] - v[lo]);
}

/* Student's t, one-sided 0.95 quantile (a two-sided 90% interval, as
 * P5-P95), by degrees of freedom (NIST/SEMATECH e-Handbook of
 * Statistical Methods, 1.4.2.3, "Critical values of the Student's t
 * distribution", column 0.95); z_0.95 = 1.645. */
static double t95(size_t df)
{
    static const double t[] = {
        0,     6.314, 2.920, 2.353, 2.132, 2.015, 1.943, 1.895, 1.860,
        1.833, 1.812, 1.796, 1.782, 1.771, 1.761, 1.753, 1.746, 1.740,
        1.734, 1.729, 1.725, 1.721, 1.717, 1.714, 1.711, 1.708, 1.706,
        1.703, 1.701, 1.699, 1.697};
    if (df < sizeof(t) / sizeof(t[0]))
        return t[df ? df : 1];
    return df < 40 ? 1.684 : df < 60 ? 1.671 : df < 120 ? 1.658 : 1.645;
}

/* The small-sample factor: how much wider a normal prediction interval
 * for one new row is than the population's (t_{0.95,n-1} sqrt(1 + 1/n)
 * over z_0.95); 1.42 at n = 5, 1.15 at 10, 1.06 at 20. */
static double widen(size_t n)
{
    return n < 2 ? 4.0 : t95(n - 1) * sqrt(1.0 + 1.0 / (double)n) / 1.645;
}

/* Factors of the rows of `kind` in the class of `key` at `level`, other
 * than row `skip` (SIZE_MAX: none). Returns the rows used. */
static size_t class_factors(double *low, double *high,
                            const range_res *res, size_t n_res,
                            ecf_range_kind kind, const ecf_range_key *key,
                            ecf_range_level level, size_t skip)
{
    double v[CALIB_MAX_ROWS], med, lo, hi, k;
    const char *first = NULL;
    bool several = false;
    size_t i, n = 0;

    for (i = 0; i < n_res; i++)
        if (i != skip && res[i].has && res[i].kind == kind &&
            same_class(&res[i].key, key, level)) {
            v[n++] = res[i].log_d;
            if (!first)
                first = res[i].group;
            else if (strcmp(first, res[i].group) != 0)
                several = true;
        }
    /* A class below the whole kind must draw on two source groups or
     * more: one publication's rows share its harness and its errors (one
     * blog's queueing-inclusive latencies once set a 21x high end), so
     * they say how that source differs, not how far a user may. */
    if (n == 0 || (!several && level != ECF_RANGE_LEVEL_KIND))
        return 0;
    qsort(v, n, sizeof(v[0]), cmp_double);
    med = pctl(v, n, 50);
    k = widen(n);
    lo = med - k * (med - pctl(v, n, RANGE_LO_PCT));
    hi = med + k * (pctl(v, n, RANGE_HI_PCT) - med);
    *low = exp(lo) < 1 ? exp(lo) : 1;
    *high = exp(hi) > 1 ? exp(hi) : 1;
    return n;
}

/* What the runtime lookup does (ecf_range_lookup over a table holding
 * the classes with at least RANGE_MIN_ROWS rows): the finest level with
 * enough rows, the whole kind last. Returns the level; 0 rows = none. */
static ecf_range_level class_for(double *low, double *high, size_t *rows,
                                 const range_res *res, size_t n_res,
                                 ecf_range_kind kind,
                                 const ecf_range_key *key, size_t skip)
{
    int level;
    for (level = 0; level < ECF_RANGE_LEVEL_COUNT; level++) {
        *rows = class_factors(low, high, res, n_res, kind, key,
                              (ecf_range_level)level, skip);
        if (*rows >= RANGE_MIN_ROWS || level == ECF_RANGE_LEVEL_KIND)
            return (ecf_range_level)level;
    }
    return ECF_RANGE_LEVEL_KIND;
}

static void put_cstr(FILE *f, const char *s, bool any)
{
    if (any)
        fputs("NULL", f);
    else
        fprintf(f, "\"%s\"", s);
}

static const char *const kind_enum[ECF_RANGE_KIND_COUNT] = {
    "ECF_RANGE_TRAIN_THROUGHPUT", "ECF_RANGE_TIME_TO_TRAIN",
    "ECF_RANGE_INFER_THROUGHPUT", "ECF_RANGE_INFER_LATENCY",
    "ECF_RANGE_MEMORY"};
static const char *const level_enum[ECF_RANGE_LEVEL_COUNT] = {
    "ECF_RANGE_LEVEL_CLASS", "ECF_RANGE_LEVEL_ENGINE", "ECF_RANGE_LEVEL_TASK",
    "ECF_RANGE_LEVEL_FAMILY", "ECF_RANGE_LEVEL_KIND"};

/* Writes the table as C (every class with enough rows, each once). */
static int calib_write_ranges(const calib_set *set, const char *path)
{
    range_res *res = ecf_xcalloc(set->n ? set->n : 1, sizeof(*res));
    FILE *f = fopen(path, "w");
    size_t i, j, count = 0;
    int level;

    if (!f) {
        fprintf(stderr, "%s: cannot write: %s\n", path, strerror(errno));
        free(res);
        return -1;
    }
    range_residuals(res, set);
    fprintf(f, "/* Generated by tools/calib_report.c --write-ranges from "
               "tests/fixtures/calibration.json\n * at build time "
               "(docs/estimation.md, \"Ranges\"): do not edit. */\n"
               "#include \"ec2fit/ranges.h\"\n\n"
               "static const ecf_range_class classes[] = {\n");
    for (level = 0; level < ECF_RANGE_LEVEL_COUNT; level++)
        for (i = 0; i < set->n; i++) {
            double lo, hi;
            size_t n;
            bool seen = false;
            if (!res[i].has)
                continue;
            for (j = 0; j < i && !seen; j++)
                seen = res[j].has && res[j].kind == res[i].kind &&
                       same_class(&res[j].key, &res[i].key,
                                  (ecf_range_level)level);
            if (seen)
                continue;
            n = class_factors(&lo, &hi, res, set->n, res[i].kind,
                              &res[i].key, (ecf_range_level)level, SIZE_MAX);
            if (n < RANGE_MIN_ROWS && level != ECF_RANGE_LEVEL_KIND)
                continue;
            fprintf(f, "    {%s, %s, ", kind_enum[res[i].kind],
                    level_enum[level]);
            put_cstr(f, res[i].key.family, level >= ECF_RANGE_LEVEL_KIND);
            fputs(", ", f);
            put_cstr(f, res[i].key.task, level >= ECF_RANGE_LEVEL_FAMILY);
            fputs(", ", f);
            put_cstr(f, res[i].key.generation,
                     level >= ECF_RANGE_LEVEL_ENGINE);
            fputs(", ", f);
            put_cstr(f, res[i].key.engine, level >= ECF_RANGE_LEVEL_TASK);
            fprintf(f, ", %.6f, %.6f, %zu},\n", lo, hi, n);
            count++;
        }
    if (count == 0)
        fprintf(f, "    {ECF_RANGE_TRAIN_THROUGHPUT, ECF_RANGE_LEVEL_KIND, "
                   "NULL, NULL, NULL, NULL, 1, 1, 0},\n");
    fprintf(f, "};\n\nstatic const ecf_range_table table = {\n    classes, "
               "%zu, %d, %.1f, %.1f, \"tests/fixtures/calibration.json\"};\n\n"
               "const ecf_range_table *ecf_ranges_embedded(void)\n{\n"
               "    return &table;\n}\n",
            count, RANGE_MIN_ROWS, RANGE_LO_PCT, RANGE_HI_PCT);
    free(res);
    if (fclose(f) != 0) {
        fprintf(stderr, "%s: cannot write: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

typedef struct {
    size_t n, loo_in, self_in;
    double abs_med, abs_p90; /* |error| %, over the rows with a residual */
} range_cov;

/* Coverage over the rows of range kind `kind` (-1: any) and source group
 * `group` (NULL: any): leave-one-out (the row's range computed without
 * it, the honest figure) and in-sample. */
static range_cov range_coverage(const calib_set *set, const range_res *res,
                                int kind, const char *group)
{
    double a[CALIB_MAX_ROWS];
    range_cov c = {0, 0, 0, -1, -1};
    size_t i, rows;

    for (i = 0; i < set->n; i++) {
        double lo, hi;
        if (!res[i].has || (kind >= 0 && (int)res[i].kind != kind) ||
            (group && strcmp(set->rows[i].group, group) != 0))
            continue;
        a[c.n++] = fabs(set->rows[i].err_pct);
        class_for(&lo, &hi, &rows, res, set->n, res[i].kind, &res[i].key, i);
        if (rows > 0 && exp(res[i].log_d) >= lo * (1 - 1e-9) &&
            exp(res[i].log_d) <= hi * (1 + 1e-9))
            c.loo_in++;
        class_for(&lo, &hi, &rows, res, set->n, res[i].kind, &res[i].key,
                  SIZE_MAX);
        if (exp(res[i].log_d) >= lo * (1 - 1e-9) &&
            exp(res[i].log_d) <= hi * (1 + 1e-9))
            c.self_in++;
    }
    if (c.n) {
        qsort(a, c.n, sizeof(a[0]), cmp_double);
        c.abs_med = pctl(a, c.n, 50);
        c.abs_p90 = pctl(a, c.n, 90);
    }
    return c;
}

/* Prints coverage per kind and per source group; returns the number of
 * kinds under RANGE_COVERAGE_MIN (leave-one-out). */
static int calib_print_ranges(const calib_set *set, FILE *f)
{
    range_res *res = ecf_xcalloc(set->n ? set->n : 1, sizeof(*res));
    int k, bad = 0;
    size_t i, j;

    range_residuals(res, set);
    fprintf(f, "\nRanges (docs/estimation.md \"Ranges\"): P%.0f-P%.0f of "
               "measured/predicted per class, widened for small classes, "
               "min %d rows;\nCOVER = share of rows inside their range "
               "computed without them (leave-one-out), SELF = in-sample\n",
            RANGE_LO_PCT, RANGE_HI_PCT, RANGE_MIN_ROWS);
    fprintf(f, "%-28s %-16s %5s %8s %8s %7s %7s\n", "SOURCE GROUP", "KIND",
            "ROWS", "|ERR|", "P90", "COVER", "SELF");
    for (i = 0; i < set->n; i++) {
        bool seen = false;
        range_cov c;
        if (!res[i].has)
            continue;
        for (j = 0; j < i && !seen; j++)
            seen = res[j].has && res[j].kind == res[i].kind &&
                   strcmp(set->rows[j].group, set->rows[i].group) == 0;
        if (seen)
            continue;
        c = range_coverage(set, res, (int)res[i].kind, set->rows[i].group);
        fprintf(f, "%-28.28s %-16s %5zu %7.1f%% %7.1f%% %6.0f%% %6.0f%%\n",
                set->rows[i].group[0] ? set->rows[i].group : "(none)",
                ecf_range_kind_name(res[i].kind), c.n, c.abs_med, c.abs_p90,
                100.0 * (double)c.loo_in / (double)c.n,
                100.0 * (double)c.self_in / (double)c.n);
    }
    fprintf(f, "\nRange coverage per kind (gate: leave-one-out COVER >= "
               "%.0f%%; kinds under %d rows: SELF >= %.0f%%)\n"
               "%-16s %5s %8s %8s %7s %7s\n",
            RANGE_COVERAGE_MIN, RANGE_LOO_GATE_ROWS, RANGE_COVERAGE_MIN,
            "KIND", "ROWS", "|ERR|", "P90", "COVER", "SELF");
    for (k = 0; k < ECF_RANGE_KIND_COUNT; k++) {
        range_cov c = range_coverage(set, res, k, NULL);
        double cov = c.n ? 100.0 * (double)c.loo_in / (double)c.n : 0;
        double self = c.n ? 100.0 * (double)c.self_in / (double)c.n : 0;
        bool ok = c.n > 0 && (c.n >= RANGE_LOO_GATE_ROWS ? cov : self) >=
                                 RANGE_COVERAGE_MIN;
        fprintf(f, "%-16s %5zu %7.1f%% %7.1f%% %6.1f%% %6.1f%% %s\n",
                ecf_range_kind_name((ecf_range_kind)k), c.n, c.abs_med,
                c.abs_p90, cov, self,
                !ok ? "UNDER"
                : c.n < RANGE_LOO_GATE_ROWS ? "ok (in-sample: few rows)"
                                            : "ok");
        if (!ok)
            bad++;
    }
    free(res);
    return bad;
}
