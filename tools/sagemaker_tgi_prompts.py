#!/usr/bin/env python3
"""sagemaker_tgi_prompts.py - the prompt lengths behind the hf-tgi-sagemaker
calibration rows (philschmid/text-generation-inference-tests).

At the results commit the load script (sagemaker_llm_container/
sagemaker_load.js) sent the ShareGPT samples of samples.json in order,
inputs = samples[scenario.iterationInTest][0], so a run of N requests (its
results/sagemaker/*.json, 'Number of requests') sent the first N samples.
For every run this prints N and the mean and median of those samples'
prompt tokens (samples.json's second field), and with --check compares
them with the fixture's input_tokens: the mean on throughput rows, the
median on the one-user median-ms/token rows (docs/estimation.md 5.5, "The
SageMaker TGI prompts"). Developer tool: run by hand against a local
checkout, never at build or test time.

    tools/sagemaker_tgi_prompts.py PATH/TO/text-generation-inference-tests [--check]
"""
import json
import os
import re
import statistics
import subprocess
import sys

COMMIT = "4373a85992198f116af57c7dd18d2f07f6d03bae"  # "res", 2023-09-21


def git(repo, *args):
    return subprocess.run(["git", "-C", repo] + list(args), capture_output=True,
                          text=True, check=True).stdout


def runs(repo):
    """{(model, instance, gptq|fp16, users): (requests, file)} of the results."""
    out = {}
    for path in git(repo, "ls-tree", "-r", "--name-only", COMMIT,
                    "results/sagemaker/").split():
        d = json.loads(git(repo, "show", f"{COMMIT}:{path}"))
        name = d["Model Id"].split("/")[-1].lower()
        quant = "gptq" if "gptq" in name else "fp16"
        model = name.replace("-hf", "").replace("-gptq", "")
        key = (model, d["Instance"].replace("ml.", ""), quant, d["Virtual Users"])
        out[key] = (d["Number of requests"], os.path.basename(path))
    return out


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    repo, check = argv[1], "--check" in argv[2:]
    samples = json.loads(git(repo, "show", f"{COMMIT}:samples.json"))
    table = {}
    for key, (n, name) in sorted(runs(repo).items()):
        tokens = [s[1] for s in samples[:n]]
        table[key] = (statistics.mean(tokens), statistics.median(tokens))
        print("%-45s %4d requests  prompt tokens mean %6.1f  median %5.1f"
              % (name, n, table[key][0], table[key][1]))
    if not check:
        return 0
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    rows = json.load(open(os.path.join(root, "tests/fixtures/calibration.json")))["rows"]
    bad = 0
    for r in rows:
        m = re.match(r"sm-tgi-(llama-2-\d+b)-(\S+?)-(fp16|gptq)-c(\d+)$", r["id"])
        if not m:
            continue
        mean, median = table[(m[1], m[2], m[3], int(m[4]))]
        want = round(median if r["kind"] == "infer_latency" else mean)
        if r["input_tokens"] != want:
            print(f"{r['id']}: input_tokens {r['input_tokens']}, the run sent {want}")
            bad += 1
    print("fixture: %s" % ("ok" if not bad else f"{bad} rows differ"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
