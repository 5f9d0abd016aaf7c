# cxlfab - top-level build.  One Makefile; objects out of tree in build/<variant>/.
#
#   make            build bin/cxlfab (installs missing Debian packages first when root)
#   make run        build, run the default example on 2 ranks, print its summary
#   make test       build, run the Check unit tests, then the MPI integration tests
#   make test SANITIZE=1   the same under AddressSanitizer + UBSan (alias: make sanitize)
#   make bench      benchmarks (medians over runs) and their report; see test/bench/
#   make figures    run the studies and draw the papers' figures (analysis/figures)
#   make check-headers     compile every header alone
#   test/check-includes    the include rules (private headers, MPI); part of make test
#   make fuzz       libFuzzer on the .cxt reader, then on the config loader (--check),
#                   FUZZ_TIME seconds each (default 600; clang); make fuzz-trace, fuzz-cfg
#   make clean
#
# Switches: SANITIZE=1 (or a list such as SANITIZE=address,undefined), V=1 verbose.
# Local overrides (compiler, paths) go in config.mak, which is not tracked.

MAKEFLAGS += -rR --no-print-directory
-include config.mak

DEB_PKGS := libopenmpi-dev openmpi-bin libconfig-dev check zlib1g-dev liblzma-dev libmetis-dev \
	pkg-config
FIG_PKGS := python3-matplotlib   # make figures only
CC := mpicc

ifeq ($(SANITIZE),)
VARIANT := release
SAN_FLAGS :=
else
VARIANT := sanitize
ifeq ($(SANITIZE),1)
override SANITIZE := address,undefined
endif
SAN_FLAGS := -fsanitize=$(SANITIZE) -fno-sanitize-recover=all -fno-omit-frame-pointer
endif
BUILD := build/$(VARIANT)

WARN := -Wall -Wextra -Werror -Wwrite-strings -Wstrict-prototypes -Wvla \
	-Wpointer-arith -Wold-style-definition -Wcast-function-type -fno-common
CFLAGS := -std=c11 -O2 -g $(WARN) -D_POSIX_C_SOURCE=200809L -I. $(SAN_FLAGS) $(EXTRA_CFLAGS)
LDFLAGS := $(SAN_FLAGS)
LIBS := -lconfig -lmetis -lz -llzma -lm
CHECK_LIBS := -lcheck_pic -lsubunit -lrt -pthread

ifeq ($(V),1)
Q :=
else
Q := @
endif

MAIN_SRC := core/main.c core/main_profile.c
LIB_SRC := $(filter-out $(MAIN_SRC),$(wildcard core/*.c)) $(wildcard models/*.c models/*/*.c) $(wildcard partition/*.c) \
	$(filter-out traces/trc_main.c,$(wildcard traces/*.c))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC := test/test_main.c $(wildcard test/core/*.c test/models/*.c test/models/*/*.c test/partition/*.c test/traces/*.c)
UNIT_OBJ := $(UNIT_SRC:%.c=$(BUILD)/%.o)
BENCH_SRC := $(wildcard test/bench/*.c)
BENCH_BIN := $(BENCH_SRC:test/bench/%.c=$(BUILD)/bench/%)
HEADERS := $(wildcard core/*.h models/*.h models/*/*.h partition/*.h traces/*.h)

CXLFAB := $(BUILD)/bin/cxlfab
CXLFAB_TRACE := $(BUILD)/bin/cxlfab-trace
UNIT := $(BUILD)/test/unit
MPI_FAULTS := $(BUILD)/test/mpi_faults

export OMPI_ALLOW_RUN_AS_ROOT := 1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM := 1
export OMPI_MCA_btl_vader_single_copy_mechanism := none
export OMPI_MCA_rmaps_base_oversubscribe := 1
export OMPI_MCA_orte_execute_quiet := 1

.PHONY: all deps _deps build run test sanitize bench figures check-headers clean fuzz _build _run \
	_test _bench _figures
.DEFAULT_GOAL := all

all: deps
	$(Q)$(MAKE) _build

# Install missing Debian packages when root; otherwise print the exact command.
deps:
	@$(MAKE) _deps PKGS="$(DEB_PKGS)"
_deps:
	@missing=""; for p in $(PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || exit 1; \
	  else \
	    echo "cxlfab needs:$$missing"; echo "run: sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi

run: deps
	$(Q)$(MAKE) _run
test: deps
	$(Q)$(MAKE) _test
sanitize: deps
	$(Q)$(MAKE) _test SANITIZE=1
bench: deps
	$(Q)$(MAKE) _bench
figures: deps
	@$(MAKE) _deps PKGS="$(FIG_PKGS)"
	$(Q)$(MAKE) _figures

_build: $(CXLFAB) bin/cxlfab $(CXLFAB_TRACE) bin/cxlfab-trace

bin/cxlfab: $(CXLFAB)
	@mkdir -p bin
	$(Q)cp $< $@

bin/cxlfab-trace: $(CXLFAB_TRACE)
	@mkdir -p bin
	$(Q)cp $< $@

_run: _build
	$(Q)rm -rf out/spine_leaf && mpirun -np 2 $(CXLFAB) configs/spine_leaf.cfg --partition metis -o out/spine_leaf
	$(Q)echo "--- summary (out/spine_leaf/stats.json) ---"
	$(Q)sed -n '/"summary"/,/^  }/p' out/spine_leaf/stats.json

_test: $(CXLFAB) $(CXLFAB_TRACE) $(UNIT) $(MPI_FAULTS)
	$(Q)test/check-includes
	$(Q)echo "=== unit tests ($(VARIANT)) ==="
	$(Q)$(UNIT)
	$(Q)echo "=== integration tests ($(VARIANT)) ==="
	$(Q)CXLFAB=$(CXLFAB) CXLFAB_TRACE=$(CXLFAB_TRACE) MPI_FAULTS=$(MPI_FAULTS) SANITIZE="$(SANITIZE)" test/integration/run.sh

_bench: $(CXLFAB) $(CXLFAB_TRACE) $(BENCH_BIN)
	$(Q)CXLFAB=$(CXLFAB) CXLFAB_TRACE=$(CXLFAB_TRACE) BENCH_DIR=$(BUILD)/bench test/bench/run.sh

# the studies' figures: PNGs and tables in out/figures (analysis/figures)
_figures: _build
	$(Q)CXLFAB=$(CXLFAB) CXLFAB_TRACE=$(CXLFAB_TRACE) analysis/figures

$(CXLFAB): $(MAIN_SRC:%.c=$(BUILD)/%.o) $(BUILD)/libcxlfab.a
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(CXLFAB_TRACE): $(BUILD)/traces/trc_main.o $(BUILD)/libcxlfab.a
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/libcxlfab.a: $(LIB_OBJ)
	@echo "  AR      $@"
	$(Q)rm -f $@ && ar rcs $@ $^

# suites.h: one CXL_SUITE(name) per test/<dir>/test_<name>.c (see test/test_main.c);
# other .c files there are shared fixtures
$(BUILD)/test/suites.h: FORCE
	@mkdir -p $(dir $@)
	@for f in $(sort $(filter-out test/test_main.c,$(UNIT_SRC))); do \
	  case $$f in */test_*) b=$${f##*/test_}; echo "CXL_SUITE($${b%.c})";; esac; done > $@.tmp; \
	cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp

$(BUILD)/test/test_main.o: $(BUILD)/test/suites.h
$(BUILD)/test/test_main.o: CFLAGS += -I$(BUILD)/test

$(UNIT): $(UNIT_OBJ) $(BUILD)/libcxlfab.a
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(CHECK_LIBS) $(LIBS)

# the engine's cross-rank panics, driven under mpirun (test/integration/t_faults.sh)
$(MPI_FAULTS): $(BUILD)/test/core/mpi/mpi_faults.o $(BUILD)/libcxlfab.a
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/bench/%: $(BUILD)/test/bench/%.o $(BUILD)/libcxlfab.a
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

# Every object depends on the flags it was built with.
$(BUILD)/.cflags: FORCE
	@mkdir -p $(BUILD)
	@echo '$(CC) $(CFLAGS)' | cmp -s - $@ || echo '$(CC) $(CFLAGS)' > $@

$(BUILD)/%.o: %.c $(BUILD)/.cflags
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

check-headers: deps
	$(Q)for h in $(HEADERS); do \
	  printf '#include "%s"\n' $$h | $(CC) $(CFLAGS) -x c -fsyntax-only - || exit 1; \
	done; echo "all $(words $(HEADERS)) headers compile alone"

# libFuzzer, two targets, each for FUZZ_TIME seconds (default 600; clang, ASan + UBSan):
#  - fuzz-trace: the .cxt reader (test/traces/fuzz/trc_fuzz.c), the trace library and
#    the core files it needs compiled straight from source.  Its corpus grows in
#    build/fuzz/corpus, seeded from traces/samples and the regression inputs in
#    test/traces/corpus; crashes land in build/fuzz/ (copy them to
#    test/traces/corpus/, where the unit tests replay them).
#  - fuzz-cfg: config text + --set strings through `cxlfab --check`'s whole path
#    (test/core/fuzz/cfg_fuzz.c: core/main*.c, main() compiled as cxlfab_main, every library
#    file, MPI linked but not started).  Its corpus grows in build/fuzz-cfg/corpus,
#    seeded from configs/ (but rack-4096.cfg: 16 s per --check under ASan) and
#    test/core/fuzz/corpus/; it runs in build/fuzz-cfg (traces/ linked there for the
#    configs' trace files); crashes land in build/fuzz-cfg/.
# `make fuzz` runs both, one after the other.
FUZZ_TIME ?= 600
FUZZ_CC ?= clang
FUZZ_FLAGS := -std=c11 -g -O1 -D_POSIX_C_SOURCE=200809L -I. \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_SRC := test/traces/fuzz/trc_fuzz.c $(filter-out traces/trc_main.c,$(wildcard traces/*.c)) \
	core/err.c core/xmalloc.c core/stime.c
MPI_CFLAGS := $(shell mpicc -showme:compile 2>/dev/null)
MPI_LIBS := $(shell mpicc -showme:link 2>/dev/null)
CFG_FUZZ_SRC := test/core/fuzz/cfg_fuzz.c $(LIB_SRC)
.PHONY: fuzz-trace fuzz-cfg
fuzz: fuzz-trace fuzz-cfg
fuzz-trace:
	@mkdir -p build/fuzz/corpus
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -o build/fuzz/trc_fuzz $(FUZZ_SRC) -lz -llzma -lm
	$(Q)cd build/fuzz && ./trc_fuzz -max_total_time=$(FUZZ_TIME) -timeout=10 -rss_limit_mb=1024 \
		-print_final_stats=1 corpus ../../traces/samples ../../test/traces/corpus
fuzz-cfg:
	@mkdir -p build/fuzz-cfg/corpus build/fuzz-cfg/seeds
	@cp $(filter-out configs/rack-4096.cfg,$(wildcard configs/*.cfg)) build/fuzz-cfg/seeds/
	@ln -sfn ../../traces build/fuzz-cfg/traces
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) $(MPI_CFLAGS) -Dmain=cxlfab_main -o build/fuzz-cfg/cfg_fuzz \
		$(CFG_FUZZ_SRC) $(MAIN_SRC) $(LIBS) $(MPI_LIBS)
	$(Q)cd build/fuzz-cfg && LSAN_OPTIONS=suppressions=../../test/core/fuzz/lsan.supp ./cfg_fuzz -max_total_time=$(FUZZ_TIME) -timeout=20 -rss_limit_mb=2048 \
		-max_len=4096 -print_final_stats=1 corpus seeds ../../test/core/fuzz/corpus

clean:
	rm -rf build bin out

FORCE:
.PHONY: FORCE
# keep objects of pattern-built programs (bench) between runs
.SECONDARY:

-include $(LIB_OBJ:.o=.d) $(UNIT_OBJ:.o=.d) $(MAIN_SRC:%.c=$(BUILD)/%.d) $(BUILD)/traces/trc_main.d \
	$(BUILD)/test/core/mpi/mpi_faults.d $(BENCH_SRC:%.c=$(BUILD)/%.d)
