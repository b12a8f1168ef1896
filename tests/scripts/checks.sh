# checks.sh - sourced by the script tests: a counter of named checks and the
# closing line ctest's output is read for ("N passed, N failed").
#   check "what it checks" command args...   (passes when the command exits 0)
#   finish                                    (prints the line; fails if any did;
#                                              exits 77, which ctest reports as
#                                              Skipped, when a part was skipped)
pass=0 fail=0
check() {
  local what=$1; shift
  if "$@" >/dev/null 2>&1; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $what"; fi
}
finish() {
  echo "$pass passed, $fail failed${skip:+, $skip skipped}"
  test "$fail" -eq 0 || return 1
  if [ "${skip:-0}" -gt 0 ]; then exit 77; fi
}
