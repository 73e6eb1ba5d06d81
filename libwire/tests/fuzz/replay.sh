#!/bin/sh
# replay.sh - regression check for `make test`: runs every seed corpus file
# (corpus/, corpus_schema/, corpus_fdl/, corpus_notation/, corpus_tape/,
# corpus_mem/, corpus_gen/; corpus_heap/ through fuzz_heap only) and
# every kept
# reproducer of a fixed
# finding (crashers/*.bin, crashers/*.fdl) once through every fuzz target
# (fuzz_decode, fuzz_schema, fuzz_fdl, fuzz_notation, fuzz_tape_decode,
# fuzz_tape_encode, fuzz_heap, fuzz_mem_decode, fuzz_gen_decode), without
# fuzzing. Open findings
# (crashers/open/) are not replayed: run.sh reports on them.
#
# The targets are built by build.sh with replay_main.c as main() and $CC
# (default cc), with AddressSanitizer + UBSan when $CC has them, into
# $BUILD/fuzz-replay/ (BUILD defaults to build). Checks skipped for known,
# reported bugs stay skipped here (WIRE_FUZZ_SKIP_KNOWN=1, see
# crashers/README.md). Exits non-zero if any target aborts or reports an
# error on any file.
set -eu

ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
FZ=libwire/tests/fuzz
OUT=${BUILD:-build}/fuzz-replay
sh $FZ/build.sh replay "$OUT"

export WIRE_FUZZ_SKIP_KNOWN=1
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
TIMEOUT=""
if command -v timeout >/dev/null 2>&1; then TIMEOUT="timeout 600"; fi

set --
for f in $FZ/corpus/* $FZ/corpus_schema/* $FZ/corpus_fdl/* $FZ/corpus_notation/* $FZ/corpus_tape/* \
         $FZ/corpus_mem/* $FZ/corpus_gen/* \
         $FZ/crashers/*.bin $FZ/crashers/*.fdl; do
  [ -f "$f" ] && set -- "$@" "$f"
done
status=0
# corpus_heap/ (large hostile payloads) goes through fuzz_heap only
heap=""
for f in $FZ/corpus_heap/*; do [ -f "$f" ] && heap="$heap $f"; done
for t in fuzz_decode fuzz_schema fuzz_fdl fuzz_notation fuzz_tape_decode fuzz_tape_encode \
         fuzz_heap fuzz_mem_decode fuzz_gen_decode; do
  extra=""
  [ "$t" = fuzz_heap ] && extra=$heap
  # shellcheck disable=SC2086
  if $TIMEOUT "$OUT/$t" "$@" $extra >"$OUT/$t.log" 2>&1; then
    tail -n 1 "$OUT/$t.log"
  else
    echo "replay.sh: $t FAILED; see $OUT/$t.log (WIRE_FUZZ_VERBOSE=1 names" \
      "each file as it runs):" >&2
    tail -n 30 "$OUT/$t.log" >&2
    status=1
  fi
done
exit $status
