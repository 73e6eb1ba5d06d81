#!/bin/sh
# run.sh [SECONDS] - build the libFuzzer target fuzz_decode and run it.
#
# Builds libwire/src/*.c + fuzz_decode.c with clang and
# -fsanitize=fuzzer,address,undefined into build/fuzz/, copies the seed
# corpus (libwire/tests/fuzz/corpus/) into build/fuzz/corpus/ (inputs found
# by earlier runs stay there) and fuzzes for SECONDS (default 60) with
# -max_len=4096. Exits non-zero when libFuzzer reports a crash, a leak, a
# timeout, an out-of-memory or a lossless-property mismatch (abort); the
# reproducer is then in build/fuzz/artifacts/.
#
# Environment: CC (default clang), BUILD (default build), JOBS (default 1;
# >1 runs libFuzzer in -fork=JOBS mode), FUZZ_ARGS (extra libFuzzer flags,
# e.g. "-ignore_crashes=1" with JOBS>1 to keep going after a finding),
# WIRE_FUZZ_SKIP_KNOWN=1 (do not stop on lossless failures that match the
# known, reported bugs listed in crashers/README.md; see fuzz_decode.c).
# To replay a file: build/fuzz/fuzz_decode FILE...
set -eu

SECONDS_TO_RUN=${1:-60}
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"

CC=${CC:-clang}
BUILD=${BUILD:-build}
JOBS=${JOBS:-1}
OUT=$BUILD/fuzz
BIN=$OUT/fuzz_decode

mkdir -p "$OUT/corpus" "$OUT/artifacts"

echo "== building $BIN"
# shellcheck disable=SC2086
$CC -Ilibwire/include -Ilibwire/src -D_DEFAULT_SOURCE -std=c11 -g -O1 \
  -fno-omit-frame-pointer \
  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
  libwire/src/*.c libwire/tests/fuzz/fuzz_decode.c -lm -o "$BIN"

cp libwire/tests/fuzz/corpus/* "$OUT/corpus/"

# The reproducers we keep must not crash any more once they are fixed; run
# them first so a regression shows up immediately (informational only: a
# known, not yet fixed crasher must not stop the fuzzing run).
if ls libwire/tests/fuzz/crashers/*.bin >/dev/null 2>&1; then
  echo "== replaying libwire/tests/fuzz/crashers/ (known findings)"
  for f in libwire/tests/fuzz/crashers/*.bin; do
    if env -u WIRE_FUZZ_SKIP_KNOWN "$BIN" "$f" >"$OUT/replay.log" 2>&1; then
      echo "   fixed:       $f"
    else
      echo "   still fails: $f"
    fi
  done
fi

echo "== fuzzing for ${SECONDS_TO_RUN}s (jobs: $JOBS)"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
FORK=""
if [ "$JOBS" -gt 1 ]; then FORK="-fork=$JOBS"; fi
status=0
# shellcheck disable=SC2086
"$BIN" $FORK -max_total_time="$SECONDS_TO_RUN" -max_len=4096 -timeout=10 \
  -rss_limit_mb=2048 -print_final_stats=1 \
  -dict=libwire/tests/fuzz/wire.dict \
  -artifact_prefix="$OUT/artifacts/" ${FUZZ_ARGS:-} \
  "$OUT/corpus" || status=$?

found=$(ls "$OUT/artifacts" 2>/dev/null | wc -l)
if [ "$status" -ne 0 ] || [ "$found" -ne 0 ]; then
  echo "== FAILED (exit $status); artifacts in $OUT/artifacts/:" >&2
  ls -l "$OUT/artifacts" >&2 || true
  echo "   minimize: $BIN -minimize_crash=1 -runs=20000 \\" >&2
  echo "     -exact_artifact_path=min.bin $OUT/artifacts/<file>" >&2
  exit 1
fi
echo "== OK: no crash, leak or mismatch in ${SECONDS_TO_RUN}s"
