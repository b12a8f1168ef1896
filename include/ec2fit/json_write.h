/**
 * ec2fit/json_write.h - compact JSON text of a cJSON tree, byte for byte
 * what cJSON 1.7.15's cJSON_PrintUnformatted gives, but faster (the batch
 * output's hot path: docs in src/util/json_write.c).
 */
#ifndef EC2FIT_JSON_WRITE_H
#define EC2FIT_JSON_WRITE_H

#include <cjson/cJSON.h>

/** malloc'd text (free() it), or NULL where cJSON_PrintUnformatted would
 *  give NULL (an item of no known type, a raw item without text). Aborts
 *  on out of memory. */
char *ecf_json_print(const cJSON *item);

#endif
