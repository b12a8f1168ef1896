/*
 * estimate_storage.c - the data path of a training job: which storage the
 * dataset is read from (--storage), how fast one node can read it, and how
 * large the volume or file system is. Every figure is a published AWS
 * limit; docs/estimation.md ("Storage and data path") has each source.
 * Prices are not here (the estimator is pure): recommend_storage.c costs
 * the volume from data/storage.json.
 */
#include "ec2fit/estimate.h"

#include <math.h>
#include <string.h>

#include "estimate_internal.h"

static const char *const storage_names[ECF_STORAGE_COUNT] = {
    [ECF_STORAGE_AUTO] = "auto", [ECF_STORAGE_S3] = "s3",
    [ECF_STORAGE_GP3] = "gp3",   [ECF_STORAGE_FSX] = "fsx",
    [ECF_STORAGE_EFS] = "efs",   [ECF_STORAGE_NVME] = "nvme",
};

const char *ecf_storage_name(ecf_storage s)
{
    return (unsigned)s < ECF_STORAGE_COUNT ? storage_names[s] : "?";
}

int ecf_storage_parse(const char *s)
{
    int i;
    for (i = 0; s && i < ECF_STORAGE_COUNT; i++)
        if (strcmp(s, storage_names[i]) == 0)
            return i;
    return -1;
}

/* FSx for Lustre Persistent-2 sizes: 1.2 TiB, then multiples of 2.4 TiB. */
static double fsx_capacity_tib(double need_tib)
{
    if (need_tib <= FSX_MIN_TIB)
        return FSX_MIN_TIB;
    return ceil(need_tib / FSX_STEP_TIB - 1e-9) * FSX_STEP_TIB;
}

double storage_path(ecf_estimate *e,
                    const ecf_workload *w,
                    const ecf_instance *inst,
                    int nodes)
{
    double dataset_gb = w->dataset_samples * w->bytes_per_sample / 1e9;
    double nic = inst->network_gbps / 8.0 * 1000.0; /* ENA, MB/s */
    double nvme = inst->nvme_gb / 1000.0 * NVME_GBYTES_S_PER_TB * 1000.0;
    double rate = 0;
    ecf_storage s = (ecf_storage)w->storage;
    bool fits_nvme =
        inst->nvme_gb > 0 && (dataset_gb == 0 || dataset_gb <= inst->nvme_gb);

    if ((unsigned)s >= ECF_STORAGE_COUNT)
        s = ECF_STORAGE_AUTO;
    if (s == ECF_STORAGE_AUTO)
        s = fits_nvme ? ECF_STORAGE_NVME : ECF_STORAGE_S3;
    if (s == ECF_STORAGE_NVME && !fits_nvme) {
        warn(e,
             "%s: %s; the dataset streams from S3 instead",
             inst->type,
             inst->nvme_gb > 0 ? "the dataset is larger than its instance "
                                 "store"
                               : "no instance store (NVMe)");
        s = ECF_STORAGE_S3;
    }
    e->storage = s;
    e->data_source = storage_names[s];
    e->storage_gb = dataset_gb;
    e->storage_capacity_gb = dataset_gb;
    e->storage_mbytes_s = 0;
    switch (s) {
    case ECF_STORAGE_GP3: {
        double prov = w->storage_mbytes_s > 0 ? w->storage_mbytes_s
                                              : GP3_BASE_MBYTES_S;
        double ebs = inst->ebs_gbps / 8.0 * 1000.0;
        if (prov > GP3_MAX_MBYTES_S)
            prov = GP3_MAX_MBYTES_S;
        e->storage_mbytes_s = prov;
        if (e->storage_capacity_gb < GP3_MIN_GB)
            e->storage_capacity_gb = GP3_MIN_GB;
        rate = ebs > 0 && ebs < prov ? ebs : prov;
        break;
    }
    case ECF_STORAGE_FSX: {
        double need_tib = dataset_gb * 1e9 / 1099511627776.0;
        double tput_tib = w->storage_mbytes_s / FSX_MBYTES_S_PER_TIB;
        double cap = fsx_capacity_tib(need_tib > tput_tib ? need_tib
                                                          : tput_tib);
        double fs = cap * FSX_MBYTES_S_PER_TIB;
        /* FSx counts 1.2 TiB as 1,200 GB when it bills */
        e->storage_capacity_gb = cap * 1000.0;
        e->storage_mbytes_s = fs;
        rate = fs / nodes;
        if (nic > 0 && nic < rate)
            rate = nic;
        break;
    }
    case ECF_STORAGE_EFS:
        rate = EFS_FS_READ_MBYTES_S / nodes;
        if (rate > EFS_CLIENT_MBYTES_S)
            rate = EFS_CLIENT_MBYTES_S;
        if (nic > 0 && nic < rate)
            rate = nic;
        break;
    case ECF_STORAGE_NVME:
        e->storage_capacity_gb = 0;
        rate = nvme;
        break;
    case ECF_STORAGE_S3:
    case ECF_STORAGE_AUTO:
    case ECF_STORAGE_COUNT:
    default:
        rate = S3_INSTANCE_MBYTES_S;
        if (nic > 0 && nic < rate)
            rate = nic;
        break;
    }
    return rate;
}
