#!/bin/sh
# valgrind.sh BUILD_DIR - runs libwire under valgrind memcheck:
#   (a) CLI round trips: `wire decode --hex` piped into `wire encode --hex`,
#       both processes under valgrind, the output compared with the input;
#       plus a decode of invalid input (error paths must not leak);
#   (b) `wire dump --hex` of the same payloads;
#   (c) every C test binary in BUILD_DIR/tests. Criterion runs each test in
#       a child process it re-executes (BoxFort); Criterion 2.4 has no
#       in-process mode (no --no-fork), so valgrind follows the children
#       with --trace-children=yes and --jobs 1 keeps them sequential.
#       A child's valgrind exit code does not reach Criterion's verdict, so
#       every process writes its own log and each log must report
#       "ERROR SUMMARY: 0 errors".
# Leaks count as errors only when definitely or indirectly lost.
# Exit status: 0 if everything is clean, 1 otherwise (2: cannot run).
set -u

BUILD=${1:-build}
WIRE=$BUILD/bin/wire

if ! command -v valgrind >/dev/null 2>&1; then
  echo "valgrind.sh: valgrind is not installed" >&2
  exit 2
fi
if [ ! -x "$WIRE" ]; then
  echo "valgrind.sh: $WIRE not found (run make all)" >&2
  exit 2
fi

LOGDIR=$(mktemp -d "${TMPDIR:-/tmp}/wire-valgrind.XXXXXX") || exit 2
VG="valgrind --leak-check=full --error-exitcode=9 \
--errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect"

failures=0
checks=0
processes=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# check_logs NAME: every LOGDIR/NAME.<pid>.log must end cleanly.
check_logs() {
  found=0
  for f in "$LOGDIR/$1".*.log; do
    [ -f "$f" ] || continue
    found=$((found + 1))
    processes=$((processes + 1))
    if ! grep -q "ERROR SUMMARY: 0 errors" "$f"; then
      fail "$1: valgrind reported errors (log $f)"
      grep -E "ERROR SUMMARY|Invalid|uninitialised|definitely lost|indirectly lost|Process terminating" "$f" | head -20
    fi
  done
  [ "$found" -gt 0 ] || fail "$1: valgrind wrote no log"
}

# Payloads written by pyfory 1.7.7 (and one by fory-core 1.6.0): scalars,
# strings in all three encodings, lists, sets, maps with null entries,
# named enums with hashed and referenced meta strings, shared references and
# a cycle, decimals, time values, dense arrays.
PAYLOADS="
01fd
01ff0101
01ff07d704
01ff0e808080808080808001
01ff151468e96c6c6f
01ff1519e5652c679e8a
01ff151a61c3a9e697a5
01ff160402ff0702ff150461fdff140000000000000440
01ff180211ff1504610aff150462
01ff180100011518046b0100011516046e01080101
01ff1702081504620461
01ff1603001a2601b87bc69a10f06e3a26d01e011c9a2ba38d048d11d808ab4304c0080389cb7440011a0305001a002c02c5f778f16b8c465e222c4a71a35ac1e24e01823e72368892641a36bb6e00
0100160209160001080702fe01
010016010916fe00
0100180208021516046100010807020462fe01
01ff280027000000000000000040
01ff2580c60ae8030000
01ff2e0c01000000ffffffff07000000
01ff16020a24fdfd
"

# (a) round trips
i=0
for hex in $PAYLOADS; do
  i=$((i + 1))
  checks=$((checks + 1))
  out=$(printf '%s\n' "$hex" |
    $VG --log-file="$LOGDIR/rt$i-decode.%p.log" "$WIRE" decode --hex |
    $VG --log-file="$LOGDIR/rt$i-encode.%p.log" "$WIRE" encode --hex)
  out=$(printf '%s' "$out" | tr -d ' \n')
  [ "$out" = "$hex" ] || fail "round trip $hex gave '$out'"
  check_logs "rt$i-decode"
  check_logs "rt$i-encode"
done

# Error paths: invalid input must fail with status 1 and leak nothing.
for hex in 01ff0102 01ff1603081504780479 0100160209160001080702fe05 \
  01ff1a00020a0c8c70 01ff0780; do
  i=$((i + 1))
  checks=$((checks + 1))
  printf '%s\n' "$hex" |
    $VG --log-file="$LOGDIR/bad$i.%p.log" "$WIRE" decode --hex \
      >/dev/null 2>&1
  rc=$?
  [ "$rc" -eq 1 ] || fail "decode of invalid $hex exited $rc, want 1"
  check_logs "bad$i"
done

# (b) dump
for hex in $PAYLOADS 01ff0102; do
  i=$((i + 1))
  checks=$((checks + 1))
  printf '%s\n' "$hex" |
    $VG --log-file="$LOGDIR/dump$i.%p.log" "$WIRE" dump --hex >/dev/null 2>&1
  rc=$?
  case $hex in
  01ff0102) [ "$rc" -eq 1 ] || fail "dump of invalid $hex exited $rc" ;;
  *) [ "$rc" -eq 0 ] || fail "dump $hex exited $rc" ;;
  esac
  check_logs "dump$i"
done

# (d) plain JSON, schema inference and fingerprints on payloads of the real
# runtimes (libwire/tests/cli/data), and plain JSON back to bytes (the loop
# variable is not `f`: check_logs uses that one)
DATA=libwire/tests/cli/data
for pl in order.pyfory order.java order.go tree.pyfory; do
  i=$((i + 1))
  checks=$((checks + 1))
  $VG --log-file="$LOGDIR/plain$i.%p.log" "$WIRE" decode --plain "$DATA/$pl.bin" \
    >"$LOGDIR/plain$i.json" 2>&1 || fail "decode --plain $pl"
  check_logs "plain$i"
  $VG --log-file="$LOGDIR/schema$i.%p.log" "$WIRE" schema "$DATA/$pl.bin" \
    >"$LOGDIR/schema$i.fdl" 2>&1 || fail "schema $pl"
  check_logs "schema$i"
  $VG --log-file="$LOGDIR/dumpschema$i.%p.log" "$WIRE" dump --schema \
    "$LOGDIR/schema$i.fdl" "$DATA/$pl.bin" >/dev/null 2>&1 || fail "dump --schema $pl"
  check_logs "dumpschema$i"
done
checks=$((checks + 1))
$VG --log-file="$LOGDIR/plainenc.%p.log" "$WIRE" encode --plain --compatible \
  --schema "$LOGDIR/schema$i.fdl" --hex <"$LOGDIR/plain$i.json" >/dev/null 2>&1 ||
  fail "encode --plain"
check_logs "plainenc"
checks=$((checks + 1))
$VG --log-file="$LOGDIR/samesch.%p.log" "$WIRE" schema "$DATA/order.pyfory-same-schema.bin" \
  >/dev/null 2>&1
[ $? -eq 1 ] || fail "schema of a same-schema payload should fail"
check_logs "samesch"

# (c) the C tests
for t in "$BUILD"/tests/*; do
  [ -f "$t" ] && [ -x "$t" ] || continue
  name=$(basename "$t")
  checks=$((checks + 1))
  echo "== valgrind $t"
  WIRE_LIB=$BUILD/lib/libwire.so $VG --trace-children=yes \
    --log-file="$LOGDIR/$name.%p.log" "$t" --jobs 1
  rc=$?
  before=$failures
  check_logs "$name"
  if [ "$rc" -ne 0 ]; then
    fail "$name exited $rc (failing tests)"
    [ "$failures" -gt $((before + 1)) ] &&
      echo "note: a failed assertion ends its test before the test's own frees," \
        "so leaks in the processes of failing tests may follow from those failures"
  fi
done

if [ "$failures" -eq 0 ]; then
  echo "valgrind: OK - $checks checks, $processes processes, no memory errors or leaks"
  rm -rf "$LOGDIR"
  exit 0
fi
echo "valgrind: FAILED - $failures failure(s) in $checks checks ($processes processes); logs in $LOGDIR"
exit 1
