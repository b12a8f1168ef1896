/*
 * render_html_chart.h - the cost-versus-time scatter of the HTML report
 * (render_html_chart.c): axes on round values, every point labelled.
 */
#ifndef EC2FIT_RENDER_HTML_CHART_H
#define EC2FIT_RENDER_HTML_CHART_H

#include <stdio.h>

#include "recommend_render.h"

/** The plotted cost of a plan: total, monthly or per 1M units. */
double ecf_rr_html_y_of(const ecf_recommendation *r, const ecf_plan *p);

/** Writes the <svg class="scatter"> of the shown plans (and of a marked
 *  plan ranked below --top). */
void ecf_rr_html_scatter(FILE *f, const rr_view *v);

/** HTML-escapes s. */
void ecf_rr_html_esc(FILE *f, const char *s);

#endif
