#!/usr/bin/env bash
# docs/ec2fit.1: renders without a groff warning; ENVIRONMENT lists every
# variable the program reads (grepped from src/, plus the proxy variables
# libcurl reads for `update`); SEE ALSO names only files the install puts in
# /usr/share/doc/ec2fit (checked in a `cmake --install` tree) and no other
# man page; every command of `ec2fit --help` is described.
set -u
. "$(dirname "$0")/checks.sh"
rm -rf "$WORK" && mkdir -p "$WORK"
MAN="$SRC_DIR/docs/ec2fit.1"
section() { # .SH NAME -> its text up to the next .SH
  awk -v s="$1" '/^\.SH / {on = ($0 == ".SH " s); next} on' "$MAN"
}
if command -v groff > /dev/null; then
  check "groff -ww: no warning" test -z "$(groff -man -Tutf8 -ww -z "$MAN" 2>&1)"
else
  echo "SKIP: groff not installed (apt-get install groff-base): rendering not checked"; skip=1
fi

section ENVIRONMENT > "$WORK/env"
vars=$(grep -rhoE '\b(getenv|env)\("[A-Z0-9_]+"\)' "$SRC_DIR/src" | grep -oE '"[A-Z0-9_]+"' | tr -d '"' | sort -u)
check "variables found in src/ ($(echo $vars | wc -w))" test "$(echo $vars | wc -w)" -ge 15
for v in $vars HTTPS_PROXY NO_PROXY; do
  check "ENVIRONMENT lists $v" grep -qw -- "$v" "$WORK/env"
done
# and lists nothing the program does not read
for v in $(grep -oE '\b[A-Z][A-Z0-9_]{3,}\b' "$WORK/env" | sort -u); do
  case " $(echo $vars) HTTPS_PROXY NO_PROXY ALL_PROXY " in
    *" $v "*) ;;
    *) case "$v" in https_proxy|http_proxy) ;; *) check "ENVIRONMENT: $v is read by the program" false ;; esac ;;
  esac
done

section '"SEE ALSO"' > "$WORK/see"
[ -s "$WORK/see" ] || section 'SEE ALSO' > "$WORK/see"
check "SEE ALSO names no other man page" bash -c "! grep -E '^\.BR? [a-z0-9-]+ \([0-9]\)' '$WORK/see'"
check "SEE ALSO points to /usr/share/doc/ec2fit" grep -q '/usr/share/doc/ec2fit' "$WORK/see"
BUILD=$(dirname "$EC2FIT")
cmake --install "$BUILD" --prefix "$WORK/inst" > "$WORK/install.log" 2>&1
check "cmake --install" test -x "$WORK/inst/bin/ec2fit"
DOC="$WORK/inst/share/doc/ec2fit"
files=$(sed -n 's/^\.IR\? \([^ ]*\).*/\1/p' "$WORK/see" | sed 's/\\-/-/g' | grep -v '^/')
check "SEE ALSO names files ($(echo $files | wc -w))" test "$(echo $files | wc -w)" -ge 10
for f in $files; do
  check "installed: /usr/share/doc/ec2fit/$f" bash -c "ls $DOC/$f > /dev/null"
done
for f in README.md copyright changelog.gz; do
  check "installed: /usr/share/doc/ec2fit/$f" test -s "$DOC/$f"
done
check "installed: JSON Schemas in /usr/share/ec2fit/schema, as SEE ALSO says" \
  bash -c "grep -q '/usr/share/ec2fit/schema' '$WORK/see' && test -s '$WORK/inst/share/ec2fit/schema/recommend.schema.json'"
check "installed: man page (gzip)" bash -c "zcat '$WORK/inst/share/man/man1/ec2fit.1.gz' | cmp -s - '$MAN'"

section COMMANDS > "$WORK/cmds"
cmds=$("$EC2FIT" --help | awk '/^Commands:/ {on=1; next} on && /^  [a-z]/ {print $1} on && /^$/ {on=0}')
check "commands in --help" test -n "$cmds"
for c in $cmds; do
  check "COMMANDS describes $c" grep -qE "^\.(B|BR|BI) \"?${c//-/\\\\-}( |\"|$)" "$WORK/cmds"
done
finish
