/*
 * ec2fit/task.h - the task of a workload (train, fine-tune, LoRA, QLoRA,
 * serving, batch inference) and its names. A base type: the data files
 * (stacks.json) name tasks as the workload flags do.
 */
#ifndef EC2FIT_TASK_H
#define EC2FIT_TASK_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    ECF_TASK_TRAIN = 0, /* pre-training from scratch: full weights, Adam */
    ECF_TASK_FINETUNE,  /* full fine-tune: same memory as train */
    ECF_TASK_LORA,      /* frozen 16-bit base + low-rank adapters */
    ECF_TASK_QLORA,     /* frozen 4-bit (NF4) base + adapters */
    ECF_TASK_INFER,     /* online serving: latency matters */
    ECF_TASK_BATCH,     /* offline inference over a dataset */
    ECF_TASK_COUNT
} ecf_task;

/** "train", "finetune", "lora", "qlora", "infer", "batch". */
const char *ecf_task_name(ecf_task t);
/** Parses a task name; -1 when unknown. */
int ecf_task_parse(const char *s);
/** True for train, finetune, lora and qlora. */
bool ecf_task_is_training(ecf_task t);

#ifdef __cplusplus
}
#endif

#endif
