/*
 * task.c - names of the workload tasks (ec2fit/task.h).
 */
#include "ec2fit/task.h"

#include <string.h>

static const char *const task_names[ECF_TASK_COUNT] = {
    "train", "finetune", "lora", "qlora", "infer", "batch"};

const char *ecf_task_name(ecf_task t)
{
    return (unsigned)t < ECF_TASK_COUNT ? task_names[t] : "unknown";
}

int ecf_task_parse(const char *s)
{
    int i;
    for (i = 0; i < ECF_TASK_COUNT; i++)
        if (strcmp(s, task_names[i]) == 0)
            return i;
    return -1;
}

bool ecf_task_is_training(ecf_task t)
{
    return t == ECF_TASK_TRAIN || t == ECF_TASK_FINETUNE ||
           t == ECF_TASK_LORA || t == ECF_TASK_QLORA;
}
