# FieldGuide: `make` runs the nightly pipeline over input/ into output/; `make test` runs every test.
# Both first install the Debian packages the build needs when they are missing.

SWIFT      ?= swift
BIN        := .build/release
SOURCES    ?= input/faa
OUT        ?= output
BENCH_DATA ?= bench-data
ROUNDS     ?= 9
# DuckDB (from PyPI) for the FAA build's yardstick in make bench, in a virtual environment beside the data.
DUCKDB_VENV ?= $(BENCH_DATA)/duckdb-venv
# Owners the aircraft artifact withholds: none (the complete registry) or individuals (names
# and street addresses of registrant type 1 left out: a bundle shipped to the public).
REDACT     ?= none
ICAO_TYPES ?=
MODES      ?=
# The address the nightly fetches ReleasableAircraft.zip from (fetch-faa); empty: SOURCES/faa is
# read and nothing touches the network. The FAA's: https://registry.faa.gov/database/ReleasableAircraft.zip
FAA_URL    ?=
APT_PACKAGES := libcsv-dev libxml2-dev zlib1g-dev pkg-config libsqlite3-dev

.PHONY: all nightly deps build test faa bench-data bench bench-steps clean validate birds readme-examples fuzz sanitize ebd spark-deps duckdb-deps

## Exit statuses: a target that runs a stage ends with the stage's documented status (0 ok,
## 1 data rejected, 2 usage or I/O). GNU make turns every failed recipe into its own status 2,
## so these targets run in an inner make whose stage commands record their status ($(call
## stage,...)); the outer make then ends with it: 2 through a failing recipe, 1 through make's
## question mode (-q), whose "goal not up to date" status is 1. Output streams as it comes
## (the inner make writes to the outer one's standard output and error, appending).
STAGE_GOALS := all nightly faa birds validate exports ebd
GOALS := $(or $(MAKECMDGOALS),all)
ifeq ($(FG_STATUS_FILE)$(findstring n,$(firstword -$(MAKEFLAGS))),)
ifneq ($(filter $(STAGE_GOALS),$(GOALS)),)
FG_STATUS_FILE := $(shell mktemp)
FG_MAKE_STATUS := $(shell FG_STATUS_FILE=$(FG_STATUS_FILE) $(MAKE) --no-print-directory $(MAKEOVERRIDES) $(GOALS) \
  >>/proc/$$PPID/fd/1 2>>/proc/$$PPID/fd/2; echo $$?)
FG_EXIT := $(or $(shell cat $(FG_STATUS_FILE); rm -f $(FG_STATUS_FILE)),$(FG_MAKE_STATUS))
ifeq ($(FG_EXIT),1)
MAKEFLAGS += -q
endif
.PHONY: $(GOALS)
$(GOALS): ; @exit $(FG_EXIT)
FG_OUTER := 1
endif
endif

# A stage command: on failure its exit status is recorded for the outer make (see above).
stage = $(1) || { rc=$$?; [ -z "$(FG_STATUS_FILE)" ] || echo $$rc > "$(FG_STATUS_FILE)"; exit $$rc; }

ifeq ($(FG_OUTER),)
all: nightly

## deps: install missing system libraries (libcsv has no pkg-config file: look for its header).
deps:
	@missing=""; \
	[ -f /usr/include/csv.h ] || missing="$$missing libcsv-dev"; \
	[ -f /usr/include/sqlite3.h ] || missing="$$missing libsqlite3-dev"; \
	[ -f /usr/include/libxml2/libxml/xmlreader.h ] || missing="$$missing libxml2-dev"; \
	[ -f /usr/include/zlib.h ] || missing="$$missing zlib1g-dev"; \
	[ -f /usr/include/sqlite3.h ] || missing="$$missing libsqlite3-dev"; \
	command -v xmllint >/dev/null 2>&1 || missing="$$missing libxml2-utils"; \
	command -v pkg-config >/dev/null 2>&1 || missing="$$missing pkg-config"; \
	if [ -n "$$missing" ]; then \
	  echo "make: installing missing Debian packages:$$missing"; \
	  SUDO=""; [ "$$(id -u)" -eq 0 ] || SUDO="sudo"; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing \
	    || { echo "make: could not install$$missing; install them and run make again" >&2; exit 2; }; \
	fi

build: deps
	$(SWIFT) build -c release

## nightly: the main job (pipelines/nightly.yaml): over input/, or make nightly SOURCES=dir
## (faa/, birds/, exports/ beside each other; see the pipeline file); make nightly FAA_URL=URL
## fetches the FAA files (fetch-faa: conditional, so an unchanged file ends `unchanged`). Publishes into OUT
## atomically (OUT/current → OUT/builds/RUN, previous kept); stages with unchanged inputs are skipped.
NIGHTLY_SOURCES = $(if $(filter command line environment,$(origin SOURCES)),$(SOURCES),input)
## Operator settings, passed as --set when given: make nightly SOURCES=dir MASTER_MIN_ROWS=250000 STALE_REFUSE_DAYS=8
## (the guards' parameters in pipelines/nightly.yaml; see README "Operator signals").
PIPELINE_SETTINGS := MASTER_MIN_ROWS UNMATCHED_MODEL_REFUSE STALE_WARN_DAYS STALE_REFUSE_DAYS WEBHOOK_URL SQLITE
PIPELINE_SETS = $(foreach v,$(PIPELINE_SETTINGS),$(if $(filter command line environment,$(origin $(v))),--set $(v)="$($(v))"))
nightly: build
	@$(call stage,$(BIN)/pipeline run pipelines/nightly.yaml --set SOURCES="$(NIGHTLY_SOURCES)" --set REDACT="$(REDACT)" \
	  $(if $(FAA_URL),--set FAA_URL="$(FAA_URL)") $(PIPELINE_SETS) --output "$(OUT)")

## faa: from any FAA download: make faa SOURCES=dir-or-zip OUT=dir [ICAO_TYPES=file] [MODES=file] [REDACT=individuals]: the
## manufacturer index (aircraft-index.fgb) always, the registry (aircraft.fgb) when the download has MASTER.
faa: build
	@$(call stage,$(BIN)/ingest-faa "$(SOURCES)" --output "$(OUT)/stage/faa" --master-optional)
	@$(call stage,$(BIN)/emit-aircraft-index "$(OUT)/stage/faa" --output "$(OUT)" \
	  $(if $(ICAO_TYPES),--icao-types "$(ICAO_TYPES)") $(if $(MODES),--modes "$(MODES)"))
	@if [ -f "$(OUT)/stage/faa/registrations.csv" ]; then $(call stage,$(BIN)/emit-aircraft "$(OUT)/stage/faa" --output "$(OUT)" --redact "$(REDACT)"); \
	else echo "make faa: no MASTER in $(SOURCES): the manufacturer index only"; fi

test: deps spark-deps-optional
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

## bench-data: full-size generated FAA files (94K ACFTREF, 316K MASTER, 400K DEREG, 150K RESERVED), outside git;
## an older bench-data without DEREG gets the status files of the same seed added.
bench-data: deps
	cd Benchmarks && $(SWIFT) build -c release --disable-build-manifest-caching --product generate-faa-data
	@if [ ! -f $(BENCH_DATA)/faa/MASTER.txt ]; then Benchmarks/.build/release/generate-faa-data $(BENCH_DATA)/faa; \
	elif [ ! -f $(BENCH_DATA)/faa/DEREG.txt ]; then Benchmarks/.build/release/generate-faa-data $(BENCH_DATA)/faa --status-only; \
	else echo "bench-data: $(BENCH_DATA)/faa exists (delete it to regenerate)"; fi

## bench: timings and peak memory of the FAA build on full-size data, the manufacturer index (size against
## its sources, open, search), then query latencies; ends with issue 18's targets, each met or
## missed in this run (Benchmarks/bench-summary over the run's log, kept in $(OUT)/bench.log).
## Every benchmark is built first, so no compile runs between timings. The nested package's
## build plan is made anew each time: a cached one misses files added to the main package.
BENCH_ICAO_TYPES = $(firstword $(wildcard ../shared/data/aircraft/icao-types.json) input/aircraft/icao-types.json)
bench: build bench-data spark-deps-optional
	@mkdir -p $(OUT)
	@bash -o pipefail -c '$(MAKE) --no-print-directory bench-steps 2>&1 | tee $(OUT)/bench.log'
	@Benchmarks/bench-summary $(OUT)/bench.log

# The steps of `make bench`, whose output the summary reads back.
bench-steps:
	cd Benchmarks && $(SWIFT) build -c release --disable-build-manifest-caching
	@$(MAKE) --no-print-directory duckdb-deps || echo "make: the FAA build runs without DuckDB's yardstick"
	@rm -rf $(OUT)/bench
	@echo "== FAA build on full-size data ($(BENCH_DATA)/faa) as the nightly runs it, $(ROUNDS) rounds alternating with DuckDB's bare load"
	@Benchmarks/faa-build $(BIN) $(BENCH_DATA)/faa $(OUT)/bench $(ROUNDS) \
	  $$([ -x $(DUCKDB_VENV)/bin/python ] && echo $(DUCKDB_VENV)/bin/python)
	@echo "== DEREG and RESERVED: the FAA build with and without them ($(BENCH_DATA)/faa), $(ROUNDS) rounds"
	@Benchmarks/faa-status-cost $(BIN) $(BENCH_DATA)/faa $(OUT)/bench-status $(ROUNDS)
	@echo "== Rejects: ingest-faa over a MASTER whose every row is rejected, against the good one ($(BENCH_DATA)/faa), 3 rounds"
	@Benchmarks/faa-rejects $(BIN) $(BENCH_DATA)/faa $(OUT)/bench-rejects 3
	@echo "== Nightly pipeline: full-size FAA data, the real bird data (../shared) or input/birds, input/exports"
	@Benchmarks/nightly-sources "$(BENCH_DATA)/nightly" "$(BENCH_DATA)/faa"
	@rm -rf $(OUT)/bench-nightly
	@/usr/bin/time -f "time: nightly, first run      %e s wall, %M KB peak RSS" $(BIN)/pipeline run pipelines/nightly.yaml \
	  --set SOURCES=$(BENCH_DATA)/nightly --output $(OUT)/bench-nightly --progress plain 2>&1 | grep '^time:\|^pipeline: [a-z]* in' || true
	@/usr/bin/time -f "time: nightly, unchanged rerun %e s wall, %M KB peak RSS" $(BIN)/pipeline run pipelines/nightly.yaml \
	  --set SOURCES=$(BENCH_DATA)/nightly --output $(OUT)/bench-nightly --progress plain 2>&1 | grep '^time:\|^pipeline: [a-z]* in' || true
	@echo "== fieldguide diff of two full-size builds (the FAA build's aircraft.fgb and the nightly's), target 0.5 s"
	@/usr/bin/time -f "time: fieldguide diff %e s wall, %U s user, %M KB peak RSS" $(BIN)/fieldguide diff \
	  $(OUT)/bench/aircraft.fgb $(OUT)/bench-nightly/current/aircraft.fgb 2>&1 >/dev/null \
	  | awk '/^time:/ { print; print "diff: " ($$4 <= 0.5 ? "met" : "MISSED") " the 0.5 s target (wall)" }'
	@rm -rf $(OUT)/bench-nightly-small
	@$(BIN)/pipeline run pipelines/nightly.yaml --output $(OUT)/bench-nightly-small --progress plain >/dev/null 2>&1
	@/usr/bin/time -f "time: nightly over input/, unchanged rerun %e s wall" $(BIN)/pipeline run pipelines/nightly.yaml \
	  --output $(OUT)/bench-nightly-small --progress plain 2>&1 | grep '^time:' || true
	@echo "== Manufacturer index: full-size ACFTREF and ENGINE, ICAO types from $(BENCH_ICAO_TYPES)"
	@/usr/bin/time -f "time: emit-aircraft-index %e s wall, %M KB peak RSS" $(BIN)/emit-aircraft-index $(OUT)/bench/stage \
	  --output $(OUT)/bench --icao-types $(BENCH_ICAO_TYPES) 2>&1 | grep '^time:\|wrote'
	Benchmarks/.build/release/index-bench $(OUT)/bench/aircraft-index.fgb \
	  --sources $(BENCH_DATA)/faa/ACFTREF.txt $(BENCH_DATA)/faa/ENGINE.txt $(BENCH_ICAO_TYPES)
	@echo "== Queries"
	Benchmarks/.build/release/fieldguide-bench $(OUT)/bench/aircraft.fgb --master $(BENCH_DATA)/faa/MASTER.txt --acftref $(BENCH_DATA)/faa/ACFTREF.txt
	Benchmarks/.build/release/birds-bench
	EXPORTS_BENCH_INGEST=$(BIN)/ingest-exports Benchmarks/.build/release/exports-bench
	Benchmarks/.build/release/birds-artifact-bench
	@echo "== aggregate-ebd on a generated 1M-row eBird Basic Dataset: embedded against libcsv, Spark, parity"
	@Benchmarks/ebd-bench $(BIN) Benchmarks/.build/release $(BENCH_DATA)/ebd $(OUT)/bench-ebd 1000000 \
	  $(if $(wildcard $(SPARK_VENV)/bin/spark-submit),$(SPARK_VENV)/bin/spark-submit)

## ebd: eBird bar charts computed from the eBird Basic Dataset: make ebd EBD=FILE OUT=DIR LEVEL=state
## [SAMPLING=file] [ENGINE=embedded|spark] (Spark in local mode; SPARK_MASTER=… for another).
EBD ?=
LEVEL ?= state
ENGINE ?= embedded
SAMPLING ?=
SPARK_MASTER ?= local[*]
SPARK_VENV := .build/spark-venv
ebd: $(if $(filter spark,$(ENGINE)),spark-deps) deps
	@$(call stage,{ [ -n "$(EBD)" ] || { echo "make ebd: give EBD=FILE (an eBird Basic Dataset file) and OUT=DIR" >&2; (exit 2); }; })
	$(SWIFT) build -c release --product aggregate-ebd
	@$(call stage,$(BIN)/aggregate-ebd $(EBD) --output "$(OUT)" --level "$(LEVEL)" --engine "$(ENGINE)" \
	  $(if $(SAMPLING),--sampling "$(SAMPLING)") $(if $(filter spark,$(ENGINE)),--spark-submit $(SPARK_VENV)/bin/spark-submit --spark-master "$(SPARK_MASTER)"))

## spark-deps: what --engine spark needs: a Java runtime (Debian's default-jre-headless when
## `java` is missing) and pyspark from PyPI in a virtual environment under the build directory.
spark-deps:
	@command -v java >/dev/null 2>&1 || [ -n "$$JAVA_HOME" ] || { \
	  echo "make: installing a Java runtime for Spark (default-jre-headless)"; \
	  SUDO=""; [ "$$(id -u)" -eq 0 ] || SUDO="sudo"; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq default-jre-headless; } \
	  || { echo "make: could not install a Java runtime; install one (java on PATH or JAVA_HOME) for ENGINE=spark" >&2; exit 2; }
	@[ -x $(SPARK_VENV)/bin/spark-submit ] || { echo "make: installing pyspark into $(SPARK_VENV)"; \
	  python3 -m venv $(SPARK_VENV) && $(SPARK_VENV)/bin/pip install -q 'pyspark>=3.5,<5'; } \
	  || { echo "make: could not install pyspark into $(SPARK_VENV) (python3 with venv and PyPI needed)" >&2; exit 2; }

## duckdb-deps: DuckDB from PyPI in a virtual environment under the bench data (DUCKDB_VENV),
## the FAA build's yardstick in make bench: its bare load of ACFTREF and MASTER.
duckdb-deps:
	@[ -x $(DUCKDB_VENV)/bin/python ] && $(DUCKDB_VENV)/bin/python -c 'import duckdb' 2>/dev/null || { \
	  echo "make: installing duckdb into $(DUCKDB_VENV)"; \
	  python3 -m venv $(DUCKDB_VENV) && $(DUCKDB_VENV)/bin/pip install -q 'duckdb>=2,<3'; } \
	  || { echo "make: could not install duckdb into $(DUCKDB_VENV) (python3 with venv and PyPI needed)" >&2; exit 2; }

## spark-deps-optional: make test installs them too, so the engines' parity test runs; when
## they cannot be installed the test says it skipped.
spark-deps-optional:
	@$(MAKE) --no-print-directory spark-deps || echo "make: Spark parity test will skip: $$?"

## fuzz: builds the libFuzzer targets (Fuzz/, with AddressSanitizer) and runs each for
## FUZZ_SECONDS over seeds from input/ and Tests/Fixtures; one line per target, fails on a crash.
## Not part of make test (CI time).
## SwiftPM gives `-sanitize=fuzzer` to the fuzz package's own targets only: the FieldGuide
## libraries (a dependency) got AddressSanitizer without coverage, so libFuzzer had no feedback
## from the readers ("no interesting inputs were found"). -sanitize-coverage instruments them too;
## each target is built as a product (with the flag, a whole-package build also compiled the
## dependency's executables, and their main.swift as a library). The build plan is made anew each
## time, as for the benchmarks: a cached one still listed a source file the main package had lost.
FUZZ_SECONDS ?= 60
FUZZ_COVERAGE = -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp
fuzz: deps
	$(SWIFT) build
	cd Fuzz && for target in $$(./run --targets); do \
	  $(SWIFT) build --disable-build-manifest-caching --sanitize=fuzzer --sanitize=address $(FUZZ_COVERAGE) --product $$target || exit 2; done
	Fuzz/run .build/debug $(BENCH_DATA)/fuzz $(FUZZ_SECONDS)

## sanitize: the whole test suite under ThreadSanitizer, then under AddressSanitizer (each in a
## build directory of its own; the executables the tests run are the sanitized ones). Both run
## even when the first reports; the target fails when either does. Leak reports are off: XCTest
## and FoundationEssentials leak a few KiB at exit (FileManager reading an empty file), and a
## leak report at exit would change the exit statuses the tests check. Not part of make test (CI time).
sanitize: deps
	@status=0; \
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan && \
	  $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan || status=1; \
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan && \
	  ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan || status=1; \
	exit $$status

## readme-examples: rewrites the outputs of README.md's `$ fieldguide …` examples from the real
## commands (the test ReadmeExamplesTests fails when they drift).
readme-examples: deps
	$(SWIFT) build --build-tests
	README_UPDATE=1 $(SWIFT) test --skip-build --filter ReadmeExamplesTests

clean:
	rm -rf .build Benchmarks/.build $(OUT)/stage $(OUT)/bench $(OUT)/bench-nightly $(OUT)/bench-nightly-small $(OUT)/bench-ebd

## validate: the bird seed JSON check CI runs: make validate [PATHS=dir-or-files] [FORMAT=github] [STRICT=1]
PATHS ?= input
FORMAT ?= human
validate: deps
	$(SWIFT) build -c release --product validate
	$(SWIFT) build -c release --product pipeline
	@$(call stage,$(BIN)/pipeline run pipelines/validate-seeds.yaml --set PATHS="$(PATHS)" --set FORMAT="$(FORMAT)" \
	  --set STRICT="$(if $(filter 1,$(STRICT)),--strict,)" --output "$(OUT)")

## birds: the birds artifact from any directory of bird files: make birds SOURCES=dir OUT=dir
## (optional TAXONOMY=csv BARCHARTS="files" SEASONS=csv LABELS="files"; found under SOURCES when not given)
BIRD_SOURCES = $(if $(filter command line environment,$(origin SOURCES)),$(SOURCES),input/birds)
birds: build
	@$(call stage,BIN=$(BIN) pipelines/birds "$(BIRD_SOURCES)" "$(OUT)")

## exports: normalized observations from metadata exports: make exports [SOURCES=files-or-dirs] [OUT=dir]
## (SOURCES defaults to input/exports here; --aircraft is used when OUT/aircraft.fgb exists;
##  ICAO_TYPES=../shared/data/aircraft/icao-types.json resolves ICAO type designators)
EXPORT_SOURCES = $(if $(filter command line environment,$(origin SOURCES)),$(SOURCES),input/exports)
.PHONY: exports
exports: deps
	$(SWIFT) build -c release --product ingest-exports
	@$(call stage,$(BIN)/ingest-exports $(EXPORT_SOURCES) --output "$(OUT)/stage/exports" \
	  $(if $(ICAO_TYPES),--icao-types "$(ICAO_TYPES)") $(if $(wildcard $(OUT)/aircraft.fgb),--aircraft "$(OUT)/aircraft.fgb"))

endif
