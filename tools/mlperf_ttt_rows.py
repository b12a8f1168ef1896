#!/usr/bin/env python3
"""mlperf_ttt_rows.py - time-to-train calibration rows from the MLPerf
Training v4.0 result logs (mlcommons/training_results_v4.0).

For every submission of llama2_70b_lora, gpt3 and resnet it reads each
result_*.txt (run_start .. run_stop, samples_count at run_stop,
global_batch_size) and the system description (systems/<name>.json), and
prints one calibration row per submission on a part the fixture knows, or
a line on stderr naming why a submission is skipped. Developer tool: run
by hand against a local checkout, never at build or test time.

    tools/mlperf_ttt_rows.py PATH/TO/training_results_v4.0 > rows.json
"""
import json
import re
import statistics
import subprocess
import sys

COMMIT = "6fe954378efe4a1a1bd665550b18ff8f26018def"
AS_OF = "2024-06-12"  # MLPerf Training v4.0 publication


def git(repo, *args):
    return subprocess.run(["git", "-C", repo] + list(args), capture_output=True,
                          text=True, errors="replace", check=True).stdout


def parse_log(text):
    """(minutes, samples_count, global_batch_size, evaluation minutes) of a
    successful run."""
    start = stop = samples = gbs = last = ev_start = None
    ev = 0.0
    ok = False
    for line in text.splitlines():
        if ":::MLLOG" not in line:
            continue
        try:
            j = json.loads(line[line.index(":::MLLOG") + 8:].strip())
        except ValueError:
            continue
        key = j.get("key")
        meta = j.get("metadata") or {}
        if key == "run_start":
            start = j["time_ms"]
        elif key == "run_stop":
            stop = j["time_ms"]
            samples = meta.get("samples_count", meta.get("epoch_num"))
            ok = meta.get("status") == "success"
        elif key == "global_batch_size":
            gbs = j["value"]
        elif key in ("block_stop", "epoch_stop"):
            last = meta.get("epoch_num", meta.get("samples_count", last))
        elif key == "eval_start":
            ev_start = j["time_ms"]
        elif key == "eval_stop" and ev_start is not None:
            ev += (j["time_ms"] - ev_start) / 60000.0
            ev_start = None
    if not (ok and start and stop):
        return None
    return ((stop - start) / 60000.0, samples if samples is not None else last,
            gbs, ev)


def hardware(name):
    n = (name or "").upper()
    if "H200" in n:
        return "h200"
    if "H100" in n and "PCIE" in n:
        return None  # no H100 PCIe in the fixture's hardware table
    if "H100" in n:
        return "h100"
    if "L40S" in n:
        return "l40s"
    if "A100" in n and "80" in n:
        return "a100-80gb"
    if "4090" in n:
        return "rtx-4090"
    return None


def host_for(hw, per_node):
    if hw in ("h100", "h200"):
        return "dgx-h100"
    if hw == "a100-80gb":
        return "dgx-a100"
    if hw == "l40s":
        return "pcie-l40s"
    return "workstation"


def main():
    repo = sys.argv[1]
    files = git(repo, "ls-tree", "-r", "--name-only", "HEAD").split()
    rows = []
    for bench in ("llama2_70b_lora", "gpt3", "resnet"):
        dirs = sorted({f.rsplit("/", 1)[0] for f in files
                       if f.count("/") >= 3 and f.split("/")[-2] == bench
                       and re.search(r"result_\d+\.txt$", f)})
        for d in dirs:
            org, _, system, _ = d.split("/")
            runs = []
            for f in sorted(x for x in files if x.startswith(d + "/")
                            and re.search(r"result_\d+\.txt$", x)):
                r = parse_log(git(repo, "show", "HEAD:" + f))
                if r:
                    runs.append(r)
            try:
                sysj = json.loads(git(repo, "show",
                                      "HEAD:%s/systems/%s.json" % (org, system)))
            except (subprocess.CalledProcessError, ValueError):
                print("skip %s: no systems/%s.json" % (d, system), file=sys.stderr)
                continue
            accel = sysj.get("accelerator_model_name", "")
            hw = hardware(accel)
            per_node = int(sysj.get("accelerators_per_node") or 0)
            nodes = int(sysj.get("number_of_nodes") or 1)
            fw = sysj.get("framework", "")
            if not runs:
                print("skip %s: no successful run" % d, file=sys.stderr)
                continue
            if not hw:
                print("skip %s: %s is not in the fixture's hardware table"
                      % (d, accel), file=sys.stderr)
                continue
            minutes = statistics.mean(r[0] for r in runs)
            train_min = statistics.mean(r[0] - r[3] for r in runs)
            samples = statistics.mean(r[1] for r in runs)
            gbs = runs[0][2]
            devices = per_node * nodes
            row = {
                "id": "mlperf-v4.0-%s-%s" % (bench.replace("_", "-"),
                                             system.lower().replace("_", "-")),
                "kind": "time_to_train",
                "source": "mlcommons/training_results_v4.0@%s:%s/result_*.txt "
                          "(run_start to run_stop, samples_count at run_stop) "
                          "and %s/systems/%s.json" % (COMMIT, d, org, system),
                "as_of": AS_OF,
                "source_group": "mlperf-training",
                "published_value": round(minutes, 3),
                "published_unit": "minutes, mean of %d successful runs" % len(runs),
                "hardware": hw,
                "host": host_for(hw, per_node),
                "devices": per_node,
                "nodes": nodes,
                "metric": "time_hours",
                "expect": round(train_min / 60.0, 6),
                "tolerance_pct": 35,
                "status": "use",
            }
            cond = "%s; %d x %d %s; framework %s; global batch %s" % (
                org + "/" + system, nodes, per_node, accel, fw, gbs)
            if bench == "llama2_70b_lora":
                ds = "deepspeed" in system.lower() or "deepspeed" in fw.lower()
                row.update({
                    "engine": "pytorch-deepspeed" if ds else "nemo",
                    "model": "llama-2-70b", "task": "lora",
                    "precision": "bf16" if ds else "fp8",
                    "batch": 1, "seq_len": 4096, "lora_rank": 16,
                    "dataset_samples": round(2 * samples, 1), "epochs": 1,
                    "note": "each packed 8,192-token sample is counted as "
                            "two 4,096-token samples (the zoo's Llama-2-70B "
                            "context is 4,096): the same tokens, attention "
                            "FLOPs ~4% low",
                })
                cond += ("; LoRA rank 16 on the attention projections, packed "
                         "8,192-token sequences, micro-batch 1; %s; mean %.0f "
                         "samples to the target eval loss 0.925" %
                         ("DeepSpeed ZeRO-3, bf16 (configs/ds_lora_config.json)"
                          if ds else "NeMo recipe with FP8=True (NVIDIA "
                          "config_*.sh; Dell's log prints fp8: true)", samples))
            elif bench == "gpt3":
                row.update({
                    "engine": "nemo", "task": "train",
                    "custom_model": {"name": "gpt3-175b", "layers": 96,
                                     "hidden": 12288, "heads": 96,
                                     "vocab": 50304, "max_context": 2048,
                                     "seq": 2048},
                    "precision": "fp8", "batch": 2 if nodes == 64 else 1,
                    "seq_len": 2048, "dataset_tokens": round(samples),
                    "epochs": 1,
                    "note": "shape from Brown et al. 2020 (arXiv 2005.14165) "
                            "Table 2.1, as the nvidia-nemo-perf 175B rows",
                })
                cond += ("; GPT-3 175B from the reference checkpoint to log "
                         "perplexity 2.69, sequence 2048, FP8 (config_fp8.sh), "
                         "TP 4 x PP 8 (n64) or TP 4 x PP 6 (n1344, n1452); mean "
                         "%.4g tokens (samples_count counts tokens)" % samples)
            else:
                row.update({
                    "engine": "tinygrad" if org == "tinycorp" else "mxnet",
                    "model": "resnet50", "task": "train", "precision": "fp16",
                    "batch": int(gbs) // devices,
                    "dataset_samples": 1281167, "epochs": round(samples, 2),
                    "input_pipeline": "tinygrad" if org == "tinycorp" else "dali",
                })
                cond += ("; ResNet-50 v1.5 to 75.9%% top-1, mean %.2f epochs, "
                         "batch %d per device%s" % (
                             samples, int(gbs) // devices,
                             "" if org == "tinycorp" else
                             ", images decoded on the GPUs by DALI (the logs "
                             "load common/dali.py)"))
            row["conditions"] = cond
            row["note"] = ((row.get("note", "") + "; ") if row.get("note")
                           else "") + (
                "expect is the run time minus its logged evaluations "
                "(eval_start to eval_stop, %.2f of %.2f min on average): "
                "the estimator times training, not evaluation" %
                (minutes - train_min, minutes))
            rows.append(row)
    json.dump(rows, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
