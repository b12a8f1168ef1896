#!/usr/bin/env bash
# The library as another program sees it (docs/library.md): `cmake
# --install` of this build into a scratch prefix installs libec2fit.a, the
# headers and ec2fit.pc; docs/examples/library_example.c compiles with
# `pkg-config --cflags --libs ec2fit` alone and prints rank 1 for training
# ResNet-50: p3.8xlarge (4 V100), 1 node, spot at $1.7136/h (the embedded
# catalog's us-east-1 spot estimate), the same plan `ec2fit recommend`
# ranks first; and ecf_render prints the CLI's --output json bytes.
set -u
. "$(dirname "$0")/checks.sh"
rm -rf "$WORK" && mkdir -p "$WORK"
build=$(dirname "$EC2FIT")
prefix=$WORK/prefix
cmake --install "$build" --prefix "$prefix" --component dev >"$WORK/install.log" 2>&1
check "cmake --install --component dev" test $? -eq 0
libdir=$(dirname "$(find "$prefix" -name libec2fit.a | head -1)")
check "libec2fit.a installed" test -f "$libdir/libec2fit.a"
check "umbrella header installed" test -f "$prefix/include/ec2fit/ec2fit.h"
check "ec2fit.pc names the install prefix" grep -qx "prefix=$prefix" "$libdir/pkgconfig/ec2fit.pc"
check "the program is not in the dev component" test ! -e "$prefix/bin/ec2fit"

export PKG_CONFIG_PATH=$libdir/pkgconfig
flags=$(pkg-config --cflags --libs ec2fit)
check "pkg-config ec2fit" test $? -eq 0
san=""
[ -n "${ECF_SANITIZE:-}" ] && san="-fsanitize=$ECF_SANITIZE"
# shellcheck disable=SC2086
${ECF_CC:-cc} -std=c11 -Wall -Wextra -Werror $san -o "$WORK/example" \
  "$SRC_DIR/docs/examples/library_example.c" $flags 2>"$WORK/cc.log"
check "the example compiles against the installed library" test $? -eq 0
out=$("$WORK/example" 2>"$WORK/example.err"); rc=$?
check "the example exits 0" test "$rc" -eq 0
# the price is the catalog's us-east-1 spot estimate for p3.8xlarge
spot=$(jq -r '.instances[] | select(.type == "p3.8xlarge") | .prices["us-east-1"].spot_usd_per_hour' "$SRC_DIR/data/catalog.json")
check "catalog spot price of p3.8xlarge is 1.7136 (got $spot)" test "$spot" = 1.7136
check "rank 1: p3.8xlarge x1 spot \$1.7136/h (got '$out')" \
  test "$out" = "rank 1: p3.8xlarge x1 spot \$$(printf '%.4f' "$spot")/h"
check "the example writes nothing on stderr" test ! -s "$WORK/example.err"
cli=$("$EC2FIT" recommend --model resnet50 --task train --region us-east-1 --output json |
  jq -r '.recommendations[0] | "rank 1: \(.instance_type) x\(.nodes) \(.purchase) $\(.hourly_usd)"')
check "the CLI ranks the same plan first (got '$cli')" \
  test "$cli" = 'rank 1: p3.8xlarge x1 spot $1.7136'
# A second client: the JSON renderer through the library gives the CLI's bytes.
# shellcheck disable=SC2086
${ECF_CC:-cc} -std=c11 -Wall -Wextra -Werror $san -o "$WORK/render_json" \
  "$FIXTURES/library/render_json.c" $flags 2>>"$WORK/cc.log"
check "render_json.c compiles against the installed library" test $? -eq 0
"$WORK/render_json" >"$WORK/lib.json" 2>"$WORK/lib.err"
check "render_json exits 0" test $? -eq 0
"$EC2FIT" recommend --model resnet50 --task train --output json >"$WORK/cli.json"
check "ecf_render(ECF_RENDER_JSON) == recommend --output json, byte for byte" \
  cmp "$WORK/lib.json" "$WORK/cli.json"
finish
