#!/usr/bin/env bash
# The Debian package of this build (cpack -G DEB) as Debian's own tools see
# it: lintian reports no error and no warning; the binary is stripped, PIE,
# BIND_NOW and fortified; the man page and changelog are gzip -9n; the
# copyright file is DEP-5; Depends has libc (dpkg-shlibdeps) and libcurl
# (dlopen'ed); the JSON Schemas are under /usr/share/ec2fit/schema. The
# second package, libec2fit-dev, is lintian-clean too and holds libec2fit.a,
# the headers and an ec2fit.pc with prefix=/usr. Release builds only (the CI's package step; other build
# types pass without checking); reported as skipped (exit 77) without cpack,
# dpkg-deb, lintian or readelf, which the README installs.
set -u
. "$(dirname "$0")/checks.sh"
BUILD=$(dirname "$EC2FIT")
type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$BUILD/CMakeCache.txt")
for tool in cpack dpkg-deb lintian readelf; do
  command -v "$tool" > /dev/null || { echo "SKIP: $tool not installed (the README's apt-get line installs it)"; exit 77; }
done
[ "$type" = Release ] || { echo "build type '$type', not Release: skipped"; exit 0; }
rm -rf "$WORK" && mkdir -p "$WORK/x"
(cd "$WORK" && cpack -G DEB --config "$BUILD/CPackConfig.cmake" -B "$WORK/pkg") > "$WORK/cpack.log" 2>&1
deb=$(ls "$WORK"/pkg/ec2fit_*.deb 2>/dev/null | head -1)
dev=$(ls "$WORK"/pkg/libec2fit-dev_*.deb 2>/dev/null | head -1)
check "cpack made a .deb" test -n "$deb"
check "cpack made libec2fit-dev's .deb" test -n "$dev"
[ -n "$deb" ] && [ -n "$dev" ] || { cat "$WORK/cpack.log"; finish; exit 1; }
lintian "$deb" "$dev" > "$WORK/lintian.txt" 2>&1
cat "$WORK/lintian.txt"
check "lintian (both packages): no E: or W: line" bash -c "! grep -E '^[EW]: ' '$WORK/lintian.txt'"
dpkg-deb -x "$deb" "$WORK/x"
bin="$WORK/x/usr/bin/ec2fit"
check "binary stripped (no .symtab)" bash -c "! readelf -S '$bin' | grep -q '\.symtab'"
check "binary is PIE" bash -c "readelf -h '$bin' | grep -q 'DYN (Position-Independent'"
check "binary has BIND_NOW" bash -c "readelf -d '$bin' | grep -q 'BIND_NOW'"
check "binary has RELRO" bash -c "readelf -l '$bin' | grep -q 'GNU_RELRO'"
check "binary is fortified (__*_chk)" bash -c "readelf -W --dyn-syms '$bin' | grep -q '__[a-z]*_chk'"
check "binary has the stack protector" bash -c "readelf -W --dyn-syms '$bin' | grep -q '__stack_chk_fail'"
check "packaged binary runs" "$bin" --version
deps=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $deps"
check "Depends: libc6 (dpkg-shlibdeps)" grep -q 'libc6 (>= ' <<< "$deps"
check "Depends: libcurl4 (dlopen)" grep -q 'libcurl4 (>= 7.85.0)' <<< "$deps"
check "Depends: libcjson1 and libssl3" bash -c "grep -q 'libcjson1' <<< '$deps' && grep -q 'libssl3' <<< '$deps'"
doc="$WORK/x/usr/share/doc/ec2fit"
gz9n() { # gzip member: method 8, no FNAME flag, mtime 0, XFL 2 (-9)
  [ "$(od -An -tx1 -N10 "$1" | tr -d ' \n')" = 1f8b0800000000000203 ]
}
check "man page is gzip -9n" gz9n "$WORK/x/usr/share/man/man1/ec2fit.1.gz"
check "man page is not shipped uncompressed" test ! -e "$WORK/x/usr/share/man/man1/ec2fit.1"
check "changelog.gz is gzip -9n" gz9n "$doc/changelog.gz"
check "changelog version = package version" test \
  "$(zcat "$doc/changelog.gz" | sed -n '1s/^ec2fit (\([^)]*\)).*/\1/p')" = "$(dpkg-deb -f "$deb" Version)"
check "copyright is DEP-5" grep -qx 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' "$doc/copyright"
check "README shipped" test -s "$doc/README.md"
check "JSON schemas in /usr/share/ec2fit/schema" test -s "$WORK/x/usr/share/ec2fit/schema/recommend.schema.json"
check "no schema left under /usr/share/doc" test ! -e "$doc/schema"
check "the program package has no library or header" \
  bash -c "! dpkg-deb -c '$deb' | grep -E 'libec2fit\.a|include/ec2fit|\.pc\$'"

# libec2fit-dev
mkdir -p "$WORK/d"
dpkg-deb -x "$dev" "$WORK/d"
check "libec2fit-dev: Package name" test "$(dpkg-deb -f "$dev" Package)" = libec2fit-dev
check "libec2fit-dev: Section libdevel" test "$(dpkg-deb -f "$dev" Section)" = libdevel
check "libec2fit-dev: same version as ec2fit" test "$(dpkg-deb -f "$dev" Version)" = "$(dpkg-deb -f "$deb" Version)"
check "libec2fit-dev: Depends on libcjson-dev (ec2fit.pc Requires)" \
  bash -c "dpkg-deb -f '$dev' Depends | grep -q libcjson-dev"
devlib=$(find "$WORK/d/usr/lib" -name libec2fit.a | head -1)
check "libec2fit-dev: libec2fit.a under /usr/lib" test -s "$devlib"
check "libec2fit-dev: libec2fit.a defines ecf_recommend_run" \
  bash -c "nm -g --defined-only '$devlib' 2>/dev/null | grep -q ' T ecf_recommend_run\$'"
check "libec2fit-dev: every header" test \
  "$(ls "$WORK/d/usr/include/ec2fit" | sort | tr '\n' ' ')" = "$(ls "$SRC_DIR/include/ec2fit" | sort | tr '\n' ' ')"
pc=$(find "$WORK/d/usr/lib" -name ec2fit.pc | head -1)
check "libec2fit-dev: ec2fit.pc says prefix=/usr" grep -qx 'prefix=/usr' "$pc"
check "libec2fit-dev: copyright (DEP-5)" grep -qx 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' "$WORK/d/usr/share/doc/libec2fit-dev/copyright"
check "libec2fit-dev: changelog.gz is gzip -9n" gz9n "$WORK/d/usr/share/doc/libec2fit-dev/changelog.gz"
check "libec2fit-dev: no program" test ! -e "$WORK/d/usr/bin/ec2fit"
finish
