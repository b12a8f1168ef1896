/*
 * render_html_chart.c - the inline-SVG scatter of the HTML report: cost
 * against time (or latency), ticks on round values (1-2-5 steps on linear
 * axes; decades, with 2 and 5 when there are at most two, on log axes),
 * and a label for every plotted plan, placed so that it stays inside the
 * viewBox and clear of the labels already placed.
 */
#include "render_html_chart.h"

#include <math.h>
#include <string.h>

#include "recommend_render_internal.h"
#include "render_report.h"

/* Plot area, in SVG user units. */
#define PW 760.0
#define PH 380.0
#define PL 84.0 /* left margin: y tick labels */
#define PB 50.0 /* bottom margin: x tick labels and title */
#define PT 20.0
#define PR 40.0 /* right margin: half of the last x tick label */
#define VW (PL + PW + PR)
#define VH (PT + PH + PB)
/* Label metrics at the 12px label font: an upper bound of DejaVu Sans Bold
 * advance widths (0.72 em for the widest lowercase and digits), so that an
 * estimated box is never narrower than the rendered one. */
#define CHAR_W 8.0
#define LINE_H 14.0

void ecf_rr_html_esc(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '&':
            fputs("&amp;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        default:
            fputc(*s, f);
        }
    }
}

/* The axes by cost basis: a job with a dataset plots total cost against
 * hours; serving plots monthly cost against latency; a job without a
 * dataset plots $ per 1M units against hours per 1M. */
static double x_of(const ecf_recommendation *r, const ecf_plan *p)
{
    if (r->serving)
        return p->latency_ms;
    if (r->basis == ECF_COST_TOTAL)
        return p->time_hours;
    return p->throughput > 0 ? 1e6 / p->throughput / 3600 : 0;
}

double ecf_rr_html_y_of(const ecf_recommendation *r, const ecf_plan *p)
{
    if (r->basis == ECF_COST_TOTAL)
        return p->total_usd;
    if (r->basis == ECF_COST_MONTHLY)
        return p->monthly_usd;
    return p->usd_per_million;
}

static const char *x_title(const ecf_recommendation *r)
{
    if (r->serving)
        return "latency per request (ms)";
    return r->basis == ECF_COST_TOTAL ? "job time (hours)"
                                      : "hours per 1M units";
}

static const char *y_title(const ecf_recommendation *r)
{
    if (r->basis == ECF_COST_TOTAL)
        return "total cost (USD)";
    return r->basis == ECF_COST_MONTHLY ? "monthly cost (USD)"
                                        : "USD per 1M units";
}

typedef struct {
    double lo, hi, step; /* step: linear axes */
    bool log;
} axis;

/* 1, 2 or 5 times a power of ten, the first at least range/target. */
static double nice_step(double range, int target)
{
    double raw = range / target, mag = pow(10, floor(log10(raw)));
    double m = raw / mag;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * mag;
}

/* Log axes when the values span more than a decade (one 8-GPU node
 * against a single small GPU); else linear, snapped to round steps. */
static axis make_axis(double lo, double hi)
{
    axis a;
    if (lo <= 0)
        lo = hi > 0 ? hi / 10 : 1;
    if (hi <= lo)
        hi = lo * 2;
    a.log = hi / lo > 10;
    a.step = 0;
    if (a.log) {
        a.lo = pow(10, floor(log10(lo)));
        a.hi = pow(10, ceil(log10(hi)));
    } else {
        double pad = (hi - lo) * 0.05;
        a.step = nice_step(hi - lo + 2 * pad, 5);
        a.lo = floor((lo - pad) / a.step) * a.step;
        if (a.lo < 0)
            a.lo = 0;
        a.hi = ceil((hi + pad) / a.step) * a.step;
    }
    return a;
}

static double frac(const axis *a, double v)
{
    if (v <= 0)
        v = a->lo;
    if (a->log)
        return (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
    return (v - a->lo) / (a->hi - a->lo);
}

/* Tick values, ascending; returns the count. */
static size_t ticks(double *out, size_t max, const axis *a)
{
    size_t n = 0;
    if (a->log) {
        int d0 = (int)lround(log10(a->lo)), d1 = (int)lround(log10(a->hi));
        bool fine = d1 - d0 <= 2;
        int d;
        for (d = d0; d <= d1 && n < max; d++) {
            out[n++] = pow(10, d);
            if (fine && d < d1 && n + 2 <= max) {
                out[n++] = 2 * pow(10, d);
                out[n++] = 5 * pow(10, d);
            }
        }
    } else {
        double v;
        for (v = a->lo; v <= a->hi + a->step * 1e-6 && n < max; v += a->step)
            out[n++] = fabs(v) < a->step * 1e-9 ? 0 : v;
    }
    return n;
}

/* Decimals a tick label needs to show `v` (and the step) exactly. */
static int tick_decimals(const axis *a, double v)
{
    double s = a->log ? v : a->step;
    if (s <= 0 || s >= 1)
        return 0;
    return (int)ceil(-log10(s) - 1e-9);
}

typedef struct {
    double x0, y0, x1, y1;
} box;

static bool overlaps(const box *a, const box *b)
{
    return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

typedef struct {
    double cx, cy;
} dot;

/* Distance from a point to a box (0 inside it). */
static double dist(const box *b, double x, double y)
{
    double dx = x < b->x0 ? b->x0 - x : x > b->x1 ? x - b->x1 : 0;
    double dy = y < b->y0 ? b->y0 - y : y > b->y1 ? y - b->y1 : 0;
    return sqrt(dx * dx + dy * dy);
}

/* A label reads as belonging to the dot nearest to it: so a candidate box
 * must cover no dot and be nearer to its own dot than to any other (a dot
 * drawn at the same place, a tie, is the same point to the eye). */
static bool own_nearest(const box *b, const dot *dots, size_t nd,
                        size_t self)
{
    double d0 = dist(b, dots[self].cx, dots[self].cy);
    size_t k;
    for (k = 0; k < nd; k++) {
        double d;
        if (k == self)
            continue;
        d = dist(b, dots[k].cx, dots[k].cy);
        if (d < 9 || (d < d0 && d0 - d > 0.5))
            return false;
    }
    return true;
}

/* Places a label of `w` units for dots[self]: right of it, else left,
 * above or below, shifting down then up until it is clear of the labels in
 * `placed`, covers no dot and is nearer to its own dot than to any other;
 * always inside the viewBox. Returns its box (the text baseline is y1 - 3);
 * *lead is set when no such place exists and the label needs a leader line
 * to its dot ("#2 p3dn" once sat over #4's dot: issue 25). */
static box place(const dot *dots, size_t nd, size_t self, double w,
                 const box *placed, size_t np, bool *lead)
{
    static const double dx[] = {10, -10, 10, -10};
    static const double dy[] = {-6, -6, 18, 18};
    double cx = dots[self].cx, cy = dots[self].cy;
    box best = {0, 0, 0, 0};
    int shift, c;
    *lead = false;
    for (shift = 0; shift < 40; shift++) {
        double off = (shift % 2 ? 1 : -1) * LINE_H * ((shift + 1) / 2);
        for (c = 0; c < 4; c++) {
            box b;
            size_t k;
            bool clear = true;
            double base = cy + dy[c] + off;
            b.x0 = dx[c] > 0 ? cx + dx[c] : cx + dx[c] - w;
            b.x1 = b.x0 + w;
            b.y1 = base + 3;
            b.y0 = b.y1 - LINE_H;
            if (b.x0 < 2 || b.x1 > VW - 2 || b.y0 < 2 || b.y1 > PT + PH)
                continue;
            for (k = 0; k < np && clear; k++)
                clear = !overlaps(&b, &placed[k]);
            if (!clear)
                continue;
            if (own_nearest(&b, dots, nd, self))
                return b;
            if (best.x1 == 0)
                best = b;
        }
    }
    *lead = true;
    if (best.x1 == 0) { /* nothing fits: clamp into the viewBox */
        best.x0 = cx + 10 + w > VW - 2 ? VW - 2 - w : cx + 10;
        if (best.x0 < 2)
            best.x0 = 2;
        best.x1 = best.x0 + w;
        best.y1 = cy - 3 < LINE_H + 2 ? LINE_H + 2 : cy - 3;
        best.y0 = best.y1 - LINE_H;
    }
    return best;
}

static void label_text(char *buf, size_t n, size_t rank, const ecf_plan *p)
{
    snprintf(buf, n, "#%zu %s%s%s%s", rank, p->inst->type,
             (p->marks & ECF_MARK_CHEAPEST) ? " \xc2\xb7 cheapest" : "",
             (p->marks & ECF_MARK_FASTEST) ? " \xc2\xb7 fastest" : "",
             (p->marks & ECF_MARK_BEST_VALUE) ? " \xc2\xb7 best value" : "");
}

/* characters, counting a UTF-8 sequence once */
static size_t chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xc0) != 0x80)
            n++;
    return n;
}

void ecf_rr_html_scatter(FILE *f, const rr_view *v)
{
    const ecf_recommendation *r = v->rec;
    size_t n = shown(v), i, nt, np = 0;
    double xlo = INFINITY, xhi = 0, ylo = INFINITY, yhi = 0, t[32];
    box placed[64];
    dot dots[64];
    size_t rank_of[64], nd = 0;
    axis ax, ay;
    int k;

    for (i = 0; i < r->n_plans; i++) {
        double x = x_of(r, &r->plans[i]), y = ecf_rr_html_y_of(r, &r->plans[i]);
        if (i >= n && !r->plans[i].marks)
            continue;
        if (x > 0 && x < xlo)
            xlo = x;
        if (x > xhi)
            xhi = x;
        if (y > 0 && y < ylo)
            ylo = y;
        if (y > yhi)
            yhi = y;
    }
    ax = make_axis(isfinite(xlo) ? xlo : 0, xhi);
    ay = make_axis(isfinite(ylo) ? ylo : 0, yhi);
    fprintf(f, "<svg class=\"scatter\" viewBox=\"0 0 %.0f %.0f\" "
               "width=\"%.0f\" height=\"%.0f\" role=\"img\" "
               "aria-label=\"cost versus time of the ranked plans\" "
               "xmlns=\"http://www.w3.org/2000/svg\">\n",
            VW, VH, VW, VH);
    fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" "
               "class=\"plot\"/>\n",
            PL, PT, PW, PH);
    nt = ticks(t, 32, &ax);
    for (i = 0; i < nt; i++) {
        double x = PL + frac(&ax, t[i]) * PW;
        char lx[48];
        ecf_rr_fmt_num(lx, sizeof(lx), t[i], tick_decimals(&ax, t[i]));
        fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" "
                   "y2=\"%.0f\"/><text class=\"tick\" x=\"%.1f\" y=\"%.0f\" "
                   "text-anchor=\"middle\">%s</text>\n",
                x, PT, x, PT + PH, x, PT + PH + 16, lx);
    }
    nt = ticks(t, 32, &ay);
    for (i = 0; i < nt; i++) {
        double y = PT + PH - frac(&ay, t[i]) * PH;
        char ly[48];
        ecf_rr_fmt_money(ly, sizeof(ly), t[i], tick_decimals(&ay, t[i]));
        if (t[i] == 0)
            snprintf(ly, sizeof(ly), "$0");
        fprintf(f, "<line class=\"grid\" x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" "
                   "y2=\"%.1f\"/><text class=\"tick\" x=\"%.0f\" y=\"%.1f\" "
                   "text-anchor=\"end\">%s</text>\n",
                PL, y, PL + PW, y, PL - 6, y + 4, ly);
    }
    fprintf(f, "<text class=\"axis\" x=\"%.0f\" y=\"%.0f\" "
               "text-anchor=\"middle\">%s%s</text>\n",
            PL + PW / 2, PT + PH + 40, x_title(r), ax.log ? ", log scale" : "");
    fprintf(f, "<text class=\"axis\" transform=\"translate(16 %.0f) "
               "rotate(-90)\" text-anchor=\"middle\">%s%s</text>\n",
            PT + PH / 2, y_title(r), ay.log ? ", log scale" : "");
    /* the plotted plans (the shown ones and any marked one below them),
     * in rank order */
    for (i = 0; i < r->n_plans && nd < 64; i++) {
        const ecf_plan *p = &r->plans[i];
        if (i >= n && !p->marks)
            continue;
        dots[nd].cx = PL + frac(&ax, x_of(r, p)) * PW;
        dots[nd].cy = PT + PH - frac(&ay, ecf_rr_html_y_of(r, p)) * PH;
        rank_of[nd++] = i;
    }
    /* points: ordinary plans first, marked ones on top; data-rank ties a
     * point to its label (and leader line) for readers and tests */
    for (k = 0; k < 2; k++) {
        size_t d;
        for (d = 0; d < nd; d++) {
            const ecf_plan *p = &r->plans[rank_of[d]];
            bool marked = p->marks != 0;
            if (marked != (k == 1))
                continue;
            fprintf(f, "<circle class=\"plan%s%s%s%s\" data-rank=\"%zu\" "
                       "cx=\"%.1f\" cy=\"%.1f\" r=\"%d\"><title>#%zu ",
                    p->spot ? " spot" : "",
                    (p->marks & ECF_MARK_CHEAPEST) ? " cheapest" : "",
                    (p->marks & ECF_MARK_FASTEST) ? " fastest" : "",
                    (p->marks & ECF_MARK_BEST_VALUE) ? " best-value" : "",
                    rank_of[d] + 1, dots[d].cx, dots[d].cy, marked ? 8 : 5,
                    rank_of[d] + 1);
            ecf_rr_html_esc(f, p->inst->type);
            fprintf(f, " x%d %s</title></circle>\n", p->nodes, purchase(p));
        }
    }
    /* labels, in rank order so that rank 1 gets the best place */
    for (i = 0; i < nd; i++) {
        const ecf_plan *p = &r->plans[rank_of[i]];
        char text[160];
        bool lead;
        box b;
        label_text(text, sizeof(text), rank_of[i] + 1, p);
        b = place(dots, nd, i, CHAR_W * (double)chars(text), placed, np,
                  &lead);
        placed[np++] = b;
        if (lead) {
            double lx = dots[i].cx < b.x0   ? b.x0
                        : dots[i].cx > b.x1 ? b.x1
                                            : dots[i].cx;
            double ly = dots[i].cy < b.y0   ? b.y0
                        : dots[i].cy > b.y1 ? b.y1
                                            : dots[i].cy;
            fprintf(f, "<line class=\"leader\" data-rank=\"%zu\" "
                       "x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
                    rank_of[i] + 1, dots[i].cx, dots[i].cy, lx, ly);
        }
        /* a label left of its point ends at the box's right edge: the
         * rendered text (narrower than the estimate) then keeps to the
         * side facing its point */
        if (b.x1 <= dots[i].cx)
            fprintf(f, "<text class=\"label\" data-rank=\"%zu\" "
                       "x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
                    rank_of[i] + 1, b.x1, b.y1 - 3);
        else
            fprintf(f, "<text class=\"label\" data-rank=\"%zu\" "
                       "x=\"%.1f\" y=\"%.1f\">",
                    rank_of[i] + 1, b.x0, b.y1 - 3);
        ecf_rr_html_esc(f, text);
        fputs("</text>\n", f);
    }
    fputs("</svg>\n", f);
}
