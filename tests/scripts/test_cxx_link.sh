#!/usr/bin/env bash
# The library from C++ (docs/library.md): every installed header has
# extern "C" guards, so a C++ program links against libec2fit.a.
#  1. every include/ec2fit/*.h carries `extern "C" {` under #ifdef __cplusplus;
#  2. a generated C++ file includes every installed header and takes the
#     address of every ecf_* function that libec2fit.a defines and a header
#     declares; it compiles with -Wall -Wextra -Wpedantic -Werror and links
#     (a header without the guards leaves a C++-mangled undefined reference);
#  3. every global symbol libec2fit.a defines is ecf_-prefixed (nm);
#  4. fixtures/library/render_json.cpp runs the ResNet-50 recommendation
#     through the installed library and prints the CLI's --output json bytes.
# ECF_CXX is the C++ compiler CMake found (tests/CMakeLists.txt).
set -u
. "$(dirname "$0")/checks.sh"
rm -rf "$WORK" && mkdir -p "$WORK"
CXX=${ECF_CXX:-c++}
build=$(dirname "$EC2FIT")
prefix=$WORK/prefix

for h in "$SRC_DIR"/include/ec2fit/*.h; do
  [ "$(basename "$h")" = ec2fit.h ] && continue   # umbrella: includes only
  check "$(basename "$h") has extern \"C\" guards" \
    bash -c "grep -A1 -x '#ifdef __cplusplus' '$h' | grep -qx 'extern \"C\" {'"
done

cmake --install "$build" --prefix "$prefix" --component dev >"$WORK/install.log" 2>&1
check "cmake --install --component dev" test $? -eq 0
lib=$(find "$prefix" -name libec2fit.a | head -1)
check "libec2fit.a installed" test -f "$lib"
# STYLE 6.2: every global symbol the library defines is ecf_-prefixed, so a
# program linking it keeps its own namespace (a `warn` or `train_*` of the
# library would collide with libc's err.h or the program's own names)
nm -g --defined-only "$lib" | awk 'NF == 3 && $2 ~ /^[TDBRVW]$/ { print $3 }' | sort -u > "$WORK/syms"
# (names with two leading underscores are the implementation's: ASan's
# __odr_asan.* markers)
grep -v -e '^ecf_' -e '^__' "$WORK/syms" > "$WORK/stray"
[ -s "$WORK/stray" ] && sed 's/^/  not ecf_: /' "$WORK/stray" | head -20
check "every global symbol of libec2fit.a is ecf_* ($(wc -l < "$WORK/syms") symbols)" test ! -s "$WORK/stray"
check "the symbol list is not empty (nm read the archive)" test "$(wc -l < "$WORK/syms")" -gt 300
export PKG_CONFIG_PATH=$(dirname "$lib")/pkgconfig
san=""
[ -n "${ECF_SANITIZE:-}" ] && san="-fsanitize=$ECF_SANITIZE"

# every function the library defines (nm: T) and an installed header declares
nm -g --defined-only "$lib" 2>/dev/null | awk '$2 == "T" && $3 ~ /^ecf_/ {print $3}' |
  sort -u > "$WORK/defined.txt"
: > "$WORK/public.txt"
while read -r sym; do
  grep -qE "\\b$sym\\(" "$prefix"/include/ec2fit/*.h && echo "$sym" >> "$WORK/public.txt"
done < "$WORK/defined.txt"
n=$(wc -l < "$WORK/public.txt")
check "at least 150 public functions found (got $n)" test "$n" -ge 150
{
  for h in "$prefix"/include/ec2fit/*.h; do echo "#include <ec2fit/$(basename "$h")>"; done
  echo '#include <cstdio>'
  echo 'typedef void (*any_fn)();'
  echo 'static const any_fn fns[] = {'
  sed 's/.*/    reinterpret_cast<any_fn>(\&&),/' "$WORK/public.txt"
  echo '};'
  echo 'int main() { std::printf("%zu\n", sizeof fns / sizeof fns[0]); return 0; }'
} > "$WORK/all.cpp"
# cxx SRC OUT: compile with the warnings as errors, then link apart (the
# warnings must judge this C++ file, not the library's LTO code generation)
cxx() {
  local cflags libs
  cflags=$(pkg-config --cflags ec2fit) libs=$(pkg-config --libs ec2fit)
  # shellcheck disable=SC2086
  "$CXX" -std=c++17 -Wall -Wextra -Wpedantic -Werror $san $cflags -c -o "$2.o" "$1" &&
    "$CXX" $san -o "$2" "$2.o" $libs
}
cxx "$WORK/all.cpp" "$WORK/all" 2>"$WORK/all.log"
rc=$?
[ $rc -eq 0 ] || head -20 "$WORK/all.log"
check "C++: every header included, every public function linked" test $rc -eq 0
check "the C++ program counts $n functions" test "$("$WORK/all" 2>/dev/null)" = "$n"

cxx "$FIXTURES/library/render_json.cpp" "$WORK/render_json" 2>"$WORK/cxx.log"
rc=$?
[ $rc -eq 0 ] || head -20 "$WORK/cxx.log"
check "render_json.cpp compiles and links as C++" test $rc -eq 0
"$WORK/render_json" >"$WORK/lib.json" 2>"$WORK/lib.err"
check "render_json (C++) exits 0" test $? -eq 0
"$EC2FIT" recommend --model resnet50 --task train --output json >"$WORK/cli.json"
check "C++ ecf_render(ECF_RENDER_JSON) == recommend --output json, byte for byte" \
  cmp "$WORK/lib.json" "$WORK/cli.json"
finish
