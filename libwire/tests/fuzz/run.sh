#!/bin/sh
# run.sh [SECONDS] - build the libFuzzer targets and fuzz each of them.
#
# Targets (see the comment at the top of each source):
#   fuzz_decode  schema-less payloads (corpus/, wire.dict)
#   fuzz_schema  mode byte + payload: with the fixture schemas and/or in
#                compatible mode, TypeDefs (corpus_schema/,
#                wire.dict + typedef.dict)
#   fuzz_fdl     FDL schema text (corpus_fdl/, fdl.dict)
#   fuzz_notation  value notation / plain JSON text (corpus_notation/,
#                notation.dict)
#   fuzz_tape_decode  mode byte + payload: the direct tape decoder against
#                the document path (corpus_schema/, wire.dict)
#   fuzz_tape_encode  mode byte + tape: the direct tape encoder against
#                the document path (corpus_tape/, tape.dict)
#   fuzz_heap    mode byte + payload: peak heap through the context
#                allocator within 32 x input + 64 KiB (corpus_heap/ and
#                corpus_schema/, wire.dict, inputs up to 64 KiB)
#   fuzz_mem_decode  mode byte + payload: the compiled codecs' decoder into
#                C structs bound at run time (corpus_mem/, wire.dict)
#   fuzz_gen_decode  mode byte + payload: the straight-line codecs of
#                `wire gen c` against wire_mem_decode (corpus_gen/, wire.dict)
#
# Builds them with clang -fsanitize=fuzzer,address,undefined (build.sh) into
# $BUILD/fuzz/, replays the reproducers in crashers/ (informational: says
# which still fail), then fuzzes every target for SECONDS / number of targets
# (SECONDS defaults to 60, so the whole run stays within SECONDS plus the
# build). Each target keeps its working corpus in $BUILD/fuzz/corpus-<target>/
# (seeded from the checked-in corpus; inputs found by earlier runs stay).
# Exits non-zero when libFuzzer reports a crash, a leak, a timeout, an
# out-of-memory or a failed property check (abort) in any target; the
# reproducers are then in $BUILD/fuzz/artifacts/<target>/ (the files this
# run added; the log is $BUILD/fuzz/<target>.log).
#
# Environment: FUZZ_CC (default clang), BUILD (default build), TARGETS
# (default all nine), JOBS (default 1; >1 runs libFuzzer in -fork=JOBS
# mode), FUZZ_RUNS (run count per target, scaled down for the slow ones;
# see below), FUZZ_ARGS (extra libFuzzer flags, e.g. "-ignore_crashes=1" with
# JOBS>1 to keep going after a finding), FUZZ_FRESH=1 (start every target
# from the checked-in seeds only, dropping inputs kept from earlier runs:
# with FUZZ_ARGS="-seed=N" FUZZ_RUNS=M a run is then repeatable, provided the
# runs fit in the time per target), WIRE_FUZZ_SKIP_KNOWN (default 1:
# checks that fail because of reported, not yet fixed bugs are skipped for
# exactly the inputs those bugs concern, see crashers/README.md; 0 = do not
# skip), WIRE_FUZZ_KEY (default 0x5eed5eed5eed5eed: the one key of the
# keyed hash tables in these builds, build.sh; a finding replays with the
# key of its run, whatever the machine).
# Replay a file: $BUILD/fuzz/<target> FILE...
set -eu

SECONDS_TO_RUN=${1:-60}
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
FZ=libwire/tests/fuzz
BUILD=${BUILD:-build}
JOBS=${JOBS:-1}
TARGETS=${TARGETS:-fuzz_decode fuzz_schema fuzz_fdl fuzz_notation fuzz_tape_decode fuzz_tape_encode fuzz_heap fuzz_mem_decode fuzz_gen_decode}
OUT=$BUILD/fuzz
export WIRE_FUZZ_SKIP_KNOWN=${WIRE_FUZZ_SKIP_KNOWN:-1}
# The key of the keyed hash tables in these builds (build.sh,
# WIRE_FUZZ_KEYS): fixed, so that a run and its findings repeat on any
# machine; say it when replaying a finding of a run with another one.
export WIRE_FUZZ_KEY=${WIRE_FUZZ_KEY:-0x5eed5eed5eed5eed}

FUZZ_CC=${FUZZ_CC:-clang} sh $FZ/build.sh fuzz "$OUT"

ntargets=$(echo $TARGETS | wc -w)
per=$((SECONDS_TO_RUN / ntargets))
[ "$per" -ge 1 ] || per=1

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

# The reproducers we keep: fixed ones (crashers/*) must pass; open ones
# (crashers/open/) show whether they are fixed yet. Informational only, so
# a known, not yet fixed finding does not stop the fuzzing run.
echo "== replaying $FZ/crashers/ (known findings)"
for f in $FZ/crashers/*.bin $FZ/crashers/*.fdl $FZ/crashers/open/*; do
  [ -f "$f" ] || continue
  case $f in *.md) continue ;; esac
  bad=""
  for t in $TARGETS; do
    WIRE_FUZZ_SKIP_KNOWN=0 "$OUT/$t" "$f" >"$OUT/replay.log" 2>&1 ||
      bad="$bad $t"
  done
  if [ -z "$bad" ]; then
    echo "   passes:      $f"
  else
    echo "   still fails:$bad: $f"
  fi
done

status=0
failed=""
: >"$OUT/failures.txt"
FORK=""
if [ "$JOBS" -gt 1 ]; then FORK="-fork=$JOBS"; fi
# One process: no rereading of the corpus directory every second (its
# timing would add inputs at a machine-dependent point), and where setarch
# can, without ASLR (libFuzzer's comparison tracing takes pointer values
# into its mutations): with the fixed key, a run with -seed and -runs
# then repeats exactly (two runs of fuzz_mem_decode, -seed=1 -runs=3000,
# the same corpus line for line; either one left out, they part within
# the first few hundred runs).
NOASLR=""
if [ "$JOBS" -le 1 ]; then
  FORK="-reload=0"
  if setarch "$(uname -m)" -R true >/dev/null 2>&1; then
    NOASLR="setarch $(uname -m) -R"
  fi
fi
for t in $TARGETS; do
  case $t in
    fuzz_decode) seeds=$FZ/corpus dict=$FZ/wire.dict maxlen=4096 ;;
    fuzz_schema)
      seeds=$FZ/corpus_schema maxlen=4096
      dict=$OUT/fuzz_schema.dict
      cat $FZ/wire.dict $FZ/typedef.dict >"$dict" ;;
    fuzz_fdl) seeds=$FZ/corpus_fdl dict=$FZ/fdl.dict maxlen=8192 ;;
    fuzz_notation) seeds=$FZ/corpus_notation dict=$FZ/notation.dict maxlen=8192 ;;
    fuzz_tape_decode) seeds=$FZ/corpus_schema dict=$FZ/wire.dict maxlen=4096 ;;
    fuzz_tape_encode) seeds=$FZ/corpus_tape dict=$FZ/tape.dict maxlen=8192 ;;
    fuzz_heap) # (corpus_schema: compatible payloads, TypeDefs to mutate)
      seeds="$FZ/corpus_heap $FZ/corpus_schema" dict=$FZ/wire.dict maxlen=65536 ;;
    fuzz_mem_decode) seeds=$FZ/corpus_mem dict=$FZ/wire.dict maxlen=4096 ;;
    fuzz_gen_decode) seeds=$FZ/corpus_gen dict=$FZ/wire.dict maxlen=4096 ;;
    *) echo "run.sh: unknown target $t" >&2; exit 2 ;;
  esac
  # FUZZ_RUNS: a run count for the fast targets; the slower ones (large
  # inputs, a heap count or a second decoder per input) run a ninth
  # (fuzz_heap, whose inputs with mode bit 7 decode three times: 20,344
  # runs in 101 s where it took 30,731 without them, at load 10) or a
  # sixth of it (fuzz_mem_decode, whose compatible inputs decode three
  # times more on a context with a small TypeDef cache: 15,000 runs took
  # 1.5 times as long as without them, alternated runs at load 6, so its
  # share went from a quarter to a sixth), so that every target finishes its runs well inside its
  # time (a run cut short by the clock explores a machine-dependent part of
  # the input space, and CI would no longer repeat a run known to pass).
  runs=""
  if [ -n "${FUZZ_RUNS:-}" ]; then
    case $t in
      fuzz_heap) runs="-runs=$((FUZZ_RUNS / 9))" ;;
      fuzz_mem_decode) runs="-runs=$((FUZZ_RUNS / 6))" ;;
      *) runs="-runs=$FUZZ_RUNS" ;;
    esac
  fi
  if [ "${FUZZ_FRESH:-0}" = 1 ]; then rm -rf "$OUT/corpus-$t"; fi
  mkdir -p "$OUT/corpus-$t" "$OUT/artifacts/$t"
  for d in $seeds; do cp "$d"/* "$OUT/corpus-$t/"; done
  touch "$OUT/.start-$t"
  echo "== fuzzing $t for ${per}s (jobs: $JOBS)"
  st=0
  # shellcheck disable=SC2086
  $NOASLR "$OUT/$t" $FORK -max_total_time="$per" -max_len=$maxlen -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -dict="$dict" \
    -artifact_prefix="$OUT/artifacts/$t/" $runs ${FUZZ_ARGS:-} \
    "$OUT/corpus-$t" >"$OUT/$t.log" 2>&1 || st=$?
  tail -n 12 "$OUT/$t.log"
  found=$(find "$OUT/artifacts/$t" -type f -newer "$OUT/.start-$t" | wc -l)
  if [ "$st" -ne 0 ] || [ "$found" -ne 0 ]; then
    # On stdout as well as stderr, with the finding itself, so that a CI
    # log that keeps only the end of stdout still says what failed and
    # carries the input (base64) needed to reproduce it.
    {
      echo "== $t FAILED (exit $st); log $OUT/$t.log, artifacts in" \
        "$OUT/artifacts/$t/ (replay: WIRE_FUZZ_KEY=$WIRE_FUZZ_KEY" \
        "$OUT/$t FILE):"
      grep -E "ERROR|SUMMARY|Assertion|abort|failed|#[0-9]+ 0x" "$OUT/$t.log" |
        head -n 30 || true
      for a in $(find "$OUT/artifacts/$t" -type f -newer "$OUT/.start-$t"); do
        echo "   $a ($(wc -c <"$a") bytes), base64 of the first 3 KiB:"
        head -c 3072 "$a" | base64 -w 100 | sed 's/^/     /'
      done
    } | tee -a "$OUT/failures.txt"
    echo "   minimize: $OUT/$t -minimize_crash=1 -runs=20000 \\" >&2
    echo "     -exact_artifact_path=min.bin $OUT/artifacts/$t/<file>" >&2
    status=1
    failed="$failed $t"
  fi
done
if [ "$status" -ne 0 ]; then
  # Again at the very end: a CI log that keeps only its last lines then
  # still names the failed targets and carries their findings.
  echo "== FAILED:$failed (the findings again below)" | tee /dev/stderr
  cat "$OUT/failures.txt"
  exit 1
fi
echo "== OK: no crash, leak, hang or failed check in ${SECONDS_TO_RUN}s"
