/*
 * render_escape.h - the one escaping boundary per output language. Every
 * string that did not come from a literal in the renderer (catalog names,
 * model names, file names, notes, user flags) reaches its output through
 * exactly one of these:
 *
 *   terminal (table, text, stderr)  ecf_textsafe (ec2fit/textsafe.h)
 *   JSON (json, tfvars, tf-external, ECS, CloudWatch)
 *                                   cJSON / ec2fit/json_write.h, on text
 *                                   that passed ecf_textsafe when it may
 *                                   hold bytes that are not UTF-8
 *   CSV                             ecf_render_csv_field (render_common.h)
 *   HTML                            ecf_rr_html_esc (render_html_chart.h)
 *   YAML (karpenter)                ecf_rr_yaml_str; comments: ecf_rr_yaml_comment
 *   Markdown                        ecf_rr_md_text
 *
 * Identifiers are also restricted when they are loaded (instance types,
 * families, regions, accelerator ids: docs/catalog.md "Identifiers"), so
 * these are the second line of defence for those and the only one for
 * free text. docs/security.md lists both.
 */
#ifndef EC2FIT_RENDER_ESCAPE_H
#define EC2FIT_RENDER_ESCAPE_H

#include <stdio.h>

/** Writes s as a YAML double-quoted scalar, quotes included: '"' and '\'
 *  backslash-escaped, control characters (C0, DEL, C1) and bytes that are
 *  not UTF-8 as \xHH (YAML 1.2 section 5.7), so a value can never end its
 *  scalar or its line. */
void ecf_rr_yaml_str(FILE *f, const char *s);

/** Writes s for the inside of a YAML "# ..." comment: as ecf_textsafe
 *  (a newline becomes the four characters \x0a, so the comment cannot
 *  end early). */
void ecf_rr_yaml_comment(FILE *f, const char *s);

/** Writes s as Markdown text (also inside a table cell): as ecf_textsafe,
 *  then a backslash before each of \ ` * _ | < > [ ] & (CommonMark 0.31
 *  section 2.4: any ASCII punctuation may be backslash-escaped), so a
 *  catalog string cannot open raw HTML, a link, code or emphasis, or end
 *  a table cell. Underscores inside a word are left alone (GFM does not
 *  emphasise them and model names use them). */
void ecf_rr_md_text(FILE *f, const char *s);

#endif
