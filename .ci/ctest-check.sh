# Sourced by .ci/run and .ci/fresh-debian.
# ctest_log_ok LOG: LOG is the output of the README's ctest command; fails
# unless every test ran and passed ("100% tests passed", no "Not Run", no
# skipped or disabled test). Prints the count it checked.
ctest_log_ok() {
  local log="$1" n
  n=$(sed -n 's/^100% tests passed, 0 tests failed out of \([1-9][0-9]*\)$/\1/p' "$log")
  [ -n "$n" ] || { echo "CI: $log does not report 100% passed" >&2; return 1; }
  if grep -Eq '\*\*\*(Skipped|Not Run|Disabled)|Not Run|tests did not run' "$log"; then
    echo "CI: tests skipped or not run in $log:" >&2
    grep -E '\*\*\*(Skipped|Not Run|Disabled)|Not Run' "$log" >&2
    return 1
  fi
  echo "CI: $log: $n of $n tests passed, none skipped or not run"
}
