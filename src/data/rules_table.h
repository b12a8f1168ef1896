/* rules_table.h - static facts about each rule (names, parameters with
 * their ranges, allowed placeholders), shared by the loader and the pure
 * evaluator. Internal to the core (defined in rules_spec.c). */
#ifndef EC2FIT_RULES_TABLE_H
#define EC2FIT_RULES_TABLE_H

#include "ec2fit/rules_set.h"

typedef struct {
    const char *name;
    double min, max, dflt;
} ecf_rule_param_spec;

typedef struct {
    const char *name;
    bool may_disable;
    ecf_rule_param_spec params[ECF_RULE_MAX_PARAMS];
    const char *vars[12]; /* placeholders the template may use */
} ecf_rule_spec;

extern const ecf_rule_spec ecf_rule_specs[ECF_RULE_COUNT];

#endif
