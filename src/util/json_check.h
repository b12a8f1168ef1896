/*
 * json_check.h - checks the loaders run on a parsed cJSON tree before
 * reading it. Internal to src/: cJSON never leaves the loaders.
 */
#ifndef EC2FIT_JSON_CHECK_H
#define EC2FIT_JSON_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "ec2fit/err.h"

/** Checks a document the loaders are about to read:
 *  - nothing but whitespace follows the value (cJSON, without
 *    require_null_terminated, stops at the end of the value silently);
 *    skipped when `data` or `parse_end` is NULL;
 *  - every key and string value is valid UTF-8 (cJSON passes raw bytes
 *    through, and they would reach JSON and terminal output);
 *  - no object holds the same key twice: cJSON keeps both members and
 *    cJSON_GetObjectItem returns the first, so a duplicate would silently
 *    hide a value.
 *  Returns 0, or `code` with "NAME: PATH: duplicate key \"K\"", "NAME:
 *  PATH: invalid UTF-8 in a string" or "NAME: unexpected data after the
 *  JSON value at byte offset N" (PATH like instances[3].prices, omitted at
 *  the root). Recursion is bounded by cJSON's nesting limit (1000). */
int ecf_json_check(const cJSON *root, const char *data, size_t len,
                   const char *parse_end, const char *name, ecf_code code,
                   ecf_err *err);

/** The loaders' common start: refuses a document over `max_bytes`
 *  (ECF_EINVAL "NAME: N bytes exceed the <what>size limit of M bytes",
 *  `what` being "catalog ", "rules " or ""), parses it (`code` "NAME:
 *  invalid JSON at byte offset N") and runs ecf_json_check with `code`.
 *  On success *root_out is the caller's, freed with cJSON_Delete. */
int ecf_json_parse(cJSON **root_out, const char *data, size_t len,
                   size_t max_bytes, const char *what, const char *name,
                   ecf_code code, ecf_err *err);

/** As ecf_json_parse without ecf_json_check: for the data files embedded
 *  in the binary only (they pass the strict path in the tests), never for
 *  a user-supplied document. */
int ecf_json_parse_trusted(cJSON **root_out, const char *data, size_t len,
                           size_t max_bytes, const char *what,
                           const char *name, ecf_code code, ecf_err *err);

/** The head every versioned data file shares (data/images.json,
 *  data/engine_images.json): `root` is an object whose "schema_version" is
 *  `version` and whose "as_of" is a YYYY-MM-DD date (copied to as_of,
 *  NUL-terminated), with an array under `array_key` (*arr). Returns 0, or
 *  ECF_EPARSE with "NAME: expected a JSON object", "NAME: schema_version:
 *  expected V", "NAME: as_of: expected YYYY-MM-DD" or "NAME: KEY: expected
 *  an array". */
int ecf_json_data_head(const cJSON *root, const char *name, int version,
                       char as_of[11], const char *array_key,
                       const cJSON **arr, ecf_err *err);

#endif
