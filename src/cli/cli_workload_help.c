/*
 * cli_workload_help.c - the help lines of the workload flags
 * (workload_flags.h), printed by `estimate --help` and `recommend --help`.
 */
#include "cmd.h"

void cli_workload_usage(FILE *f)
{
    fputs("Model (exactly one):\n"
          "  --model NAME            a model from 'ec2fit models' (aliases "
          "and case ignored)\n"
          "  --params N              a dense decoder of N parameters (7B, "
          "350M, 1.5T)\n"
          "  --model-config FILE     a Hugging Face config.json (llama, "
          "mistral, qwen2,\n"
          "                          mixtral, gpt2, bert, roberta, "
          "distilbert)\n"
          "Workload:\n"
          "  --task T                train | finetune | lora | qlora | infer "
          "| batch\n"
          "  --precision P           fp32 | tf32 | fp16 | bf16 (default) | "
          "fp8 | int8 | int4\n"
          "  --batch-size N          per-device micro-batch (training, batch) "
          "or\n"
          "                          concurrent requests (infer)\n"
          "  --seq-len N             tokens per training sample (default: "
          "the model's)\n"
          "  --input-tokens N        prompt tokens per request (LLM serving, "
          "default 512)\n"
          "  --output-tokens N       generated tokens per request (default "
          "256)\n"
          "  --dataset SIZE          1.28M (samples; tokens for LLMs), "
          "2Ttok, 5Msamples,\n"
          "                          150GB, 500GiB\n"
          "  --epochs N              passes over the dataset (default 1)\n"
          "  --activation-checkpointing, --no-activation-checkpointing\n"
          "                          force recomputation on/off (default: "
          "only to fit)\n"
          "  --optimizer-8bit        8-bit Adam states (10 instead of 16 "
          "bytes/param)\n"
          "  --lora-rank N           LoRA rank (default 16)\n"
          "  --latency-ms MS         serving latency target per request\n"
          "  --qps N                 serving requests per second wanted\n"
          "  --sample-bytes SIZE     bytes read from storage per sample "
          "(e.g. 110KB)\n"
          "  --tensor-parallel N     serving: GPUs per model replica (default:\n"
          "                          the group size with the best throughput)\n",
          f);
}
