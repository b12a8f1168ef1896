/*
 * render_report.c - shared pieces of the HTML and Markdown reports
 * (render_report.h): plan notes as --output json lists them, number
 * formatting with thousands separators, the cost-exclusion sentence.
 */
#include "render_report.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

const char rr_cost_excludes[] =
    "Costs are EC2 instance hours only (Linux, shared tenancy): they exclude "
    "EBS volumes and snapshots, S3, data transfer, other AWS services, "
    "support plans and taxes.";

/* One note: "rule: reason" for an object, the string itself for a string. */
static bool note_text(char *out, const cJSON *item)
{
    const cJSON *rule, *reason;
    if (cJSON_IsString(item)) {
        snprintf(out, RR_NOTE_LEN, "%s", item->valuestring);
        return true;
    }
    reason = cJSON_GetObjectItemCaseSensitive(item, "reason");
    if (!cJSON_IsString(reason)) {
        reason = cJSON_GetObjectItemCaseSensitive(item, "message");
        if (!cJSON_IsString(reason))
            return false;
    }
    rule = cJSON_GetObjectItemCaseSensitive(item, "rule");
    if (cJSON_IsString(rule))
        snprintf(out, RR_NOTE_LEN, "%s: %s", rule->valuestring,
                 reason->valuestring);
    else
        snprintf(out, RR_NOTE_LEN, "%s", reason->valuestring);
    return true;
}

static size_t add_notes(char out[][RR_NOTE_LEN], size_t *plan_out, size_t n,
                        size_t max, const cJSON *arr, size_t plan)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, arr)
    {
        if (n >= max)
            break;
        if (note_text(out[n], it))
            plan_out[n++] = plan;
    }
    return n;
}

size_t rr_report_notes(char out[][RR_NOTE_LEN], size_t *plan_out, size_t max,
                       const rr_view *v, size_t top)
{
    static const char *const general[] = {"notes", "warnings"};
    cJSON *root = rr_json(v);
    const cJSON *recs, *p;
    size_t n = 0, i = 0, k;

    if (!root)
        return 0;
    for (k = 0; k < 2; k++)
        n = add_notes(out, plan_out, n, max,
                      cJSON_GetObjectItemCaseSensitive(root, general[k]),
                      (size_t)-1);
    recs = cJSON_GetObjectItemCaseSensitive(root, "recommendations");
    cJSON_ArrayForEach(p, recs)
    {
        if (i >= top)
            break;
        for (k = 0; k < 2; k++)
            n = add_notes(out, plan_out, n, max,
                          cJSON_GetObjectItemCaseSensitive(p, general[1 - k]),
                          i);
        i++;
    }
    cJSON_Delete(root);
    return n;
}

void rr_fmt_num(char *buf, size_t n, double x, int decimals)
{
    char raw[64], *dot;
    size_t len, ilen, i, o = 0;
    if (!isfinite(x) || x < 0 || n == 0) {
        snprintf(buf, n, "-");
        return;
    }
    snprintf(raw, sizeof(raw), "%.*f", decimals, x);
    dot = strchr(raw, '.');
    len = strlen(raw);
    ilen = dot ? (size_t)(dot - raw) : len;
    for (i = 0; i < len && o + 1 < n; i++) {
        if (i > 0 && i < ilen && (ilen - i) % 3 == 0) {
            buf[o++] = ',';
            if (o + 1 >= n)
                break;
        }
        buf[o++] = raw[i];
    }
    buf[o] = '\0';
}

void rr_fmt_money(char *buf, size_t n, double x, int decimals)
{
    char num[64];
    if (!(x > 0)) {
        snprintf(buf, n, "-");
        return;
    }
    rr_fmt_num(num, sizeof(num), x, decimals);
    snprintf(buf, n, "$%s", num);
}

int rr_money_decimals(const double *x, size_t n)
{
    double lo = INFINITY;
    size_t i;
    for (i = 0; i < n; i++)
        if (x[i] > 0 && x[i] < lo)
            lo = x[i];
    return lo < 1 ? 4 : 2;
}

void rr_fmt_params(char *buf, size_t n, double params)
{
    if (params >= 1e12)
        snprintf(buf, n, "%.3g trillion", params / 1e12);
    else if (params >= 1e9)
        snprintf(buf, n, "%.3g billion", params / 1e9);
    else if (params >= 1e6)
        snprintf(buf, n, "%.3g million", params / 1e6);
    else
        rr_fmt_num(buf, n, params, 0);
}
