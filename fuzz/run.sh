#!/usr/bin/env bash
# fuzz/run.sh SECONDS [HARNESS...] - runs each libFuzzer harness for a
# bounded time from its seed corpus (fuzz/corpus/<harness>/), default all.
# Builds build-fuzz (clang, -DECF_FUZZ=ON) unless FUZZ_BUILD points at an
# existing build. New inputs go to a scratch copy, so the committed seeds
# stay small; a crash leaves crash-* in $FUZZ_OUT and fails the run.
# CI runs 20 s per harness; before a release run `fuzz/run.sh 600`.
# See docs/security.md, "Fuzzing".
set -euo pipefail
secs=${1:-20}
shift || true
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${FUZZ_BUILD:-$src/build-fuzz}" 2>/dev/null && pwd || echo "$src/build-fuzz")
out=${FUZZ_OUT:-$build/fuzz-out}

if [ -z "${FUZZ_BUILD:-}" ]; then
  CC=clang cmake -S "$src" -B "$build" -DECF_FUZZ=ON -DECF_BUILD_TESTS=OFF \
    -DECF_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build "$build" -j"$(nproc)" >/dev/null
fi

if [ $# -eq 0 ]; then
  set -- $(cd "$src/fuzz/corpus" && ls)
fi

export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
failed=0
for h in "$@"; do
  exe=$build/fuzz/fuzz_$h
  work=$out/$h
  rm -rf "$work"
  mkdir -p "$work/corpus"
  cp "$src/fuzz/corpus/$h/"* "$work/corpus/"
  echo "== fuzz_$h (${secs}s)"
  # Relative paths in recommend_args seeds resolve against the fixtures.
  extra=""
  case $h in  # the CLI's own messages
    recommend_args|batch_line|tf_external) extra=-close_fd_mask=2 ;;
  esac
  if (cd "$src/tests/fixtures" &&
      "$exe" $extra -max_total_time="$secs" -max_len=65536 -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/" \
        "$work/corpus" >"$work/log" 2>&1); then
    grep -E '^stat::number_of_executed_units|^#[0-9]+.*DONE' "$work/log" | tail -2 || true
  else
    echo "fuzz_$h FAILED: see $work/log" >&2
    tail -40 "$work/log" >&2
    failed=1
  fi
done
exit $failed
