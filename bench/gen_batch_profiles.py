#!/usr/bin/env python3
"""Writes N varied `recommend --batch` profiles (JSON Lines) to stdout.

    bench/gen_batch_profiles.py [N] [--seed S] [--distinct]

The mix looks like a CI matrix: every zoo model with the tasks it supports,
a few datasets, epochs, regions, QPS targets, budgets and deadlines. With
--distinct every line differs (a unique "epochs" or "qps" value), so no
result can be reused: that measures the uncached cost of one profile.
"""
import json
import random
import sys

CNN = ["resnet18", "resnet50", "resnet101", "resnet152", "mobilenet_v2",
       "efficientnet_b0", "efficientnet_b7", "vit_b_16", "vit_l_16"]
ENC = ["bert-base", "bert-large", "distilbert", "roberta-base"]
LLM = ["gpt2", "gpt2-xl", "gpt-j-6b", "llama-2-7b", "llama-2-13b",
       "llama-2-70b", "llama-3.1-8b", "llama-3.1-70b", "mistral-7b",
       "mixtral-8x7b", "qwen2.5-7b", "qwen2.5-72b"]
REGIONS = ["us-east-1", "us-west-2", "eu-west-1"]


def profile(rng, distinct_i=None):
    kind = rng.choice(["cnn", "enc", "llm", "llm"])
    p = {}
    if kind == "cnn":
        p["model"] = rng.choice(CNN)
        p["task"] = rng.choice(["train", "train", "infer", "batch"])
    elif kind == "enc":
        p["model"] = rng.choice(ENC)
        p["task"] = rng.choice(["finetune", "infer", "batch"])
    else:
        p["model"] = rng.choice(LLM)
        p["task"] = rng.choice(["infer", "infer", "lora", "qlora", "finetune"])
    if p["task"] == "infer":
        p["qps"] = rng.choice([1, 5, 10, 50, 200])
        if rng.random() < 0.3:
            p["latency_ms"] = rng.choice([50, 200, 2000])
        if rng.random() < 0.2:
            p["budget"] = rng.choice(["500", "5k", "50k"])
    else:
        if kind == "cnn":
            p["dataset"] = rng.choice(["1.28M", "50k", "10M"])
        else:
            p["dataset"] = rng.choice(["10M", "100M", "1B"])
        p["epochs"] = rng.choice([1, 3, 10, 90] if kind == "cnn" else [1, 3])
        if rng.random() < 0.3:
            p["deadline"] = rng.choice(["6h", "24h", "7d"])
        if rng.random() < 0.3:
            p["budget"] = rng.choice(["100", "500", "10k"])
        p["spot"] = rng.random() < 0.7
    p["region"] = rng.choice(REGIONS)
    if rng.random() < 0.2:
        p["optimize"] = rng.choice(["time", "balanced"])
    if distinct_i is not None:
        # a value no other line has: nothing can be reused
        if p["task"] == "infer":
            p["qps"] = 1 + distinct_i / 1000.0
        else:
            p["epochs"] = 1 + distinct_i / 1000.0
    return p


def main():
    args = sys.argv[1:]
    n, seed, distinct = 10000, 7, False
    i = 0
    while i < len(args):
        if args[i] == "--seed":
            seed = int(args[i + 1])
            i += 2
            continue
        if args[i] == "--distinct":
            distinct = True
        else:
            n = int(args[i])
        i += 1
    rng = random.Random(seed)
    out = sys.stdout
    for k in range(n):
        out.write(json.dumps(profile(rng, k if distinct else None),
                             separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
