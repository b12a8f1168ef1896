/* embedded_fx.h - the group fixture of the end-to-end unit tests
 * (test_recommend, test_devices, test_storage, test_train_variants, test_offload,
 * test_attn_kernels, test_kv_dtype, test_neuron_cores): the embedded catalog, zoo,
 * rules, light data, stack table and storage prices, loaded once per test
 * executable. Included by one .c file each, so its functions are static. */
#ifndef EC2FIT_TESTS_EMBEDDED_FX_H
#define EC2FIT_TESTS_EMBEDDED_FX_H

#include "ec2fit/catalog.h"
#include "ec2fit/estimate.h"
#include "ec2fit/light.h"
#include "ec2fit/rules.h"
#include "ec2fit/stacks.h"
#include "ec2fit/storage_prices.h"
#include "ec2fit/zoo.h"

typedef struct {
    ecf_catalog *cat;
    ecf_zoo *zoo;
    ecf_rules rules;
    ecf_light *light;
    ecf_stacks *stacks;
    ecf_storage_prices *sp;
} fx;

static int setup(void **state)
{
    static fx f;
    ecf_err err = ECF_ERR_INIT;
    if (ecf_catalog_load_embedded(&f.cat, &err) ||
        ecf_zoo_embedded(&f.zoo, &err) || ecf_rules_embedded(&f.rules, &err) ||
        ecf_light_embedded(&f.light, &err) ||
        ecf_stacks_embedded(&f.stacks, &err) ||
        ecf_storage_prices_embedded(&f.sp, &err))
        return -1;
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    ecf_catalog_free(f->cat);
    ecf_zoo_free(f->zoo);
    ecf_light_free(f->light);
    ecf_stacks_free(f->stacks);
    ecf_storage_prices_free(f->sp);
    return 0;
}

/* The embedded catalog's instance `type` and the zoo's model `name`; each
 * fails the test when it is missing. static inline: a file uses what it
 * needs. */
static inline const ecf_instance *fx_inst(fx *f, const char *type)
{
    const ecf_instance *in = ecf_catalog_find(f->cat, type);
    assert_non_null(in);
    return in;
}

static inline const ecf_model *fx_model(fx *f, const char *name)
{
    const ecf_model *m = ecf_zoo_find(f->zoo, name);
    assert_non_null(m);
    return m;
}

/* ecf_estimate_run of zoo model `name` on `nodes` x instance `type` that
 * must succeed. */
static inline void fx_est(ecf_estimate *e, fx *f, const char *name,
                          ecf_workload *w, const char *type, int nodes)
{
    ecf_err err = ECF_ERR_INIT;
    if (ecf_estimate_run(e, fx_model(f, name), w, fx_inst(f, type), nodes,
                         &err) != 0)
        fail_msg("%s on %s: %s", name, type, err.msg);
}

#endif
