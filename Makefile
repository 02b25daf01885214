# iorate — build, test, run, bench, install.
#   make            build $(BUILD)/iorate
#   make run        install missing Debian packages, build, run a 10 s benchmark on a temporary file
#   make test       install missing Debian packages, build, unit tests (plain, ASan+UBSan and
#                   ThreadSanitizer), bats, every committed fuzz input replayed, each fuzz target
#                   run FUZZ_TEST_SECONDS (3; 0: none) where clang links one (tests/run-all.sh)
#   make fuzz       each libFuzzer target for FUZZ_SECONDS (default 60; tests/fuzz/README.md)
#   make bench      side-by-side benchmark against fio (not a test; never fails the build):
#                   bench/run.sh, then the device-bound workloads of bench/device.sh
#   make install PREFIX=/usr/local    (iorate then reads PREFIX/share/iorate/catalog)
#   make deps       apt-get install whatever of DEPS is missing
# $(BUILD)/iorate-mpi (mpirun -np N iorate-mpi run ...) is built too where MPI is found.

.DEFAULT_GOAL := all

# The builds that make test, make run and make bench start use every CPU unless make was given
# a -j (then they share its jobs): on the 2-core CI a serial build was a fifth of make test's
# time. Expanded in the recipes, where MAKEFLAGS says whether a -j was given.
JOBS = $(if $(findstring -j,$(MAKEFLAGS)),,-j$(shell nproc 2>/dev/null || echo 1))

PREFIX  ?= /usr/local
BUILD   ?= build

# A plain 'make' (or 'make all') builds on every CPU too, unless given a -j: serial, the build
# takes a minute on 2 cores. The other targets start their builds with $(JOBS) as above.
ifeq ($(findstring -j,$(MAKEFLAGS)),)
ifeq ($(filter-out all $(BUILD)/iorate $(BUILD)/iorate-mpi,$(MAKECMDGOALS)),)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)
endif
endif
CC      ?= cc
CFLAGS  ?= -O2 -g
WARN    := -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers
ifeq ($(CI),true)
WARN    += -Werror
endif
ifdef WERROR
WARN    += -Werror
endif

DEPS := gcc libc6-dev make pkg-config liburing-dev libaio-dev libjansson-dev libsqlite3-dev libblkid-dev \
	libisal-dev nettle-dev libxml2-dev libcurl4-openssl-dev \
	libcmocka-dev zlib1g-dev bats util-linux mount e2fsprogs xfsprogs fdisk lvm2 jq procps python3 sqlite3 \
	openmpi-bin libopenmpi-dev clang libclang-rt-14-dev fio librsvg2-dev fonts-dejavu-core chromium \
	strace
BENCH_DEPS := time

VERSION := $(shell cat VERSION 2>/dev/null || echo 0.0.0)
GITREV  := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)

HAVE_URING := $(shell pkg-config --exists liburing 2>/dev/null && echo 1)
HAVE_AIO   := $(shell test -f /usr/include/libaio.h && echo 1)

CPPFLAGS += -D_GNU_SOURCE -Isrc -I$(BUILD)/gen -DIORATE_VERSION='"$(VERSION)"' \
	-DIORATE_GITREV='"$(GITREV)"' \
	$(shell pkg-config --cflags blkid 2>/dev/null) \
	$(shell pkg-config --cflags libxml-2.0 2>/dev/null) $(shell pkg-config --cflags libcurl 2>/dev/null)
# libxml2 reads DiskSpd's XML profiles (src/compat/diskspd_xml.c); ISA-L (crc32c) and Nettle
# (md5, sha256) check --verify's blocks; libcurl fetches the providers' price lists
# ('iorate catalog prices'), opened by src/model/http.c when it downloads, not linked.
LDLIBS  := -ljansson -lsqlite3 -lblkid -lxml2 -lisal -lnettle -lpthread -lm
ifeq ($(HAVE_URING),1)
CPPFLAGS += -DHAVE_LIBURING
LDLIBS   += -luring
endif
ifeq ($(HAVE_AIO),1)
CPPFLAGS += -DHAVE_LIBAIO
LDLIBS   += -laio
endif
# librsvg renders the charts' SVG to PNG (iorate report --png; src/report/png.c).
HAVE_RSVG := $(shell pkg-config --exists librsvg-2.0 2>/dev/null && echo 1)
ifeq ($(HAVE_RSVG),1)
# Its headers only: png.c opens the library when a PNG is asked for (memory of every other run).
CPPFLAGS += -DHAVE_RSVG $(shell pkg-config --cflags librsvg-2.0)
endif

# iorate-mpi: only where MPI is found, and never linked into iorate (whose footprint and start-up
# are measured against fio). src/mpi/ is not in LIB_SRC, so the unit tests need no MPI either.
MPI_SRC := $(sort $(wildcard src/mpi/*.c))
MPI_OBJ := $(MPI_SRC:%.c=$(BUILD)/obj/%.o)
HAVE_MPI := $(shell pkg-config --exists ompi-c 2>/dev/null && echo pc || \
	(command -v mpicc >/dev/null 2>&1 && echo mpicc))
ifeq ($(HAVE_MPI),pc)
MPI_CFLAGS := $(shell pkg-config --cflags ompi-c)
MPI_LIBS   := $(shell pkg-config --libs ompi-c)
else ifeq ($(HAVE_MPI),mpicc)
MPI_CFLAGS := $(shell mpicc --showme:compile 2>/dev/null)
MPI_LIBS   := $(shell mpicc --showme:link 2>/dev/null)
endif

# V=1 shows every command.
ifeq ($(V),1)
Q :=
else
Q := @
endif

ALL_CFLAGS := -std=gnu11 $(WARN) $(CFLAGS) -MMD -MP
# float-cast-overflow is not in gcc's "undefined" set (it is in clang's, which the fuzzers use):
# a double out of an integer's range, read from a JSON file, must fail the replay too.
# The sanitizer builds are unoptimised: they catch the same faults, and at -O1 their compile
# was the largest part of make test's work after the command-line tests (-O1 costs 30 % more
# for ASan, four times as much for TSan); the warnings come from the -O2 build.
SAN_CFLAGS := -std=gnu11 $(WARN) -O0 -g -fno-omit-frame-pointer \
	-fsanitize=address,undefined,float-cast-overflow \
	-fno-sanitize-recover=undefined,float-cast-overflow -MMD -MP

# ThreadSanitizer: the runner and the throttle share counters between threads with relaxed
# atomics; their unit tests run under TSan too.
TSAN_CFLAGS := -std=gnu11 $(WARN) -O0 -g -fno-omit-frame-pointer -fsanitize=thread -MMD -MP

LIB_SRC  := $(sort $(wildcard src/util/*.c src/core/*.c src/engine/*.c src/model/*.c \
	src/result/*.c src/report/*.c src/store/*.c src/cmd/*.c src/compat/*.c \
	src/stats/*.c))
CATALOGS := $(sort $(wildcard data/catalog/*.json))
GEN_SRC  := $(BUILD)/gen/embedded_catalog.c
# The cost calculator page's markup, style and script (src/report/calc_html.c), embedded too.
CALC_ASSETS := src/report/calc_page.html src/report/calc_page.css src/report/calc_page_fmt.js \
	src/report/calc_page.js
GEN_CALC := $(BUILD)/gen/embedded_calc.c
TEST_SRC := $(sort $(wildcard tests/unit/test_*.c))

LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/embedded_catalog.o \
	$(BUILD)/obj/gen/embedded_calc.o
SAN_OBJ  := $(LIB_SRC:%.c=$(BUILD)/san/%.o) $(BUILD)/san/gen/embedded_catalog.o \
	$(BUILD)/san/gen/embedded_calc.o
TESTS    := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
SAN_TESTS:= $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests-san/%)
# The ThreadSanitizer tests exercise the runner: the layers under it (core, engine, util) are all
# they link, so only those are compiled a third time.
TSAN_OBJ := $(patsubst %.c,$(BUILD)/tsan/%.o,$(filter src/core/% src/engine/% src/util/%,$(LIB_SRC)))
TSAN_TESTS := $(BUILD)/tests-tsan/test_runner $(BUILD)/tests-tsan/test_throttle
# The test binaries link the library as an archive, so each takes only the objects it calls:
# its link is a third of linking every object, over a hundred links in make test.
LIB_A  := $(BUILD)/libiorate.a
SAN_A  := $(BUILD)/san/libiorate.a
TSAN_A := $(BUILD)/tsan/libiorate.a

# Fuzzing (tests/fuzz/README.md). make fuzz runs each libFuzzer target for FUZZ_SECONDS, FUZZ_JOBS
# at a time, and fails, showing the input, when one crashes. The library is compiled once with
# clang into $(BUILD)/fuzz/obj/ and every target links it. The replay binaries run a target's
# committed seeds and regression inputs under the gcc ASan+UBSan build, so make test replays them
# without clang. FUZZ_OPT is how much clang optimises them: make test's short runs build them
# at -O0 in a directory of their own ($(BUILD)/fuzz-quick), where compiling costs more than the
# fuzzing would gain.
FUZZ_SECONDS ?= 60
FUZZ_OPT     ?= -g -O1
FUZZ_JOBS    ?= $(shell nproc 2>/dev/null || echo 1)
FUZZ_CC      ?= clang
FUZZ_NAMES   := $(sort $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_CFLAGS  := -std=gnu11 $(WARN) $(FUZZ_OPT) -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined -MMD -MP
FUZZ_OBJ     := $(LIB_SRC:%.c=$(BUILD)/fuzz/obj/%.o) $(BUILD)/fuzz/obj/gen/embedded_catalog.o \
	$(BUILD)/fuzz/obj/gen/embedded_calc.o
FUZZ_BINS    := $(FUZZ_NAMES:%=$(BUILD)/fuzz/%)
REPLAY_BINS  := $(FUZZ_NAMES:%=$(BUILD)/fuzz/replay/%)

.PHONY: fuzz fuzz-build fuzz-replay fuzz-pending fuzz-check
fuzz-check:
	@sh tests/fuzz/have-libfuzzer.sh $(FUZZ_CC) >/dev/null
fuzz-build: fuzz-check
	@$(MAKE) -s $(JOBS) $(FUZZ_BINS)
fuzz: fuzz-build
	@sh tests/fuzz/run.sh $(BUILD) $(FUZZ_SECONDS) $(FUZZ_JOBS) $(FUZZ_NAMES)
fuzz-replay: $(REPLAY_BINS)
	@sh tests/fuzz/replay.sh $(BUILD) $(FUZZ_NAMES)
# Inputs that still crash, in code being rewritten elsewhere; expected to fail until fixed.
fuzz-pending: $(REPLAY_BINS)
	@sh tests/fuzz/replay.sh --pending $(BUILD) $(FUZZ_NAMES)

$(BUILD)/fuzz/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC fuzz $<")
	$(Q)$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<
$(BUILD)/fuzz/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC fuzz $<")
	$(Q)$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<
$(FUZZ_BINS): $(BUILD)/fuzz/%: $(BUILD)/fuzz/obj/tests/fuzz/%.o $(FUZZ_OBJ)
	@$(if $(Q),echo "  LD fuzz $@")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDFLAGS) $(LDLIBS)
ifeq ($(COVERAGE),1)
# make coverage replays them on the library it measures (gcov's), not the sanitizers'.
$(REPLAY_BINS): $(BUILD)/fuzz/replay/%: $(BUILD)/obj/tests/fuzz/%.o \
		$(BUILD)/obj/tests/fuzz/replay.o $(LIB_A)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)
else
$(REPLAY_BINS): $(BUILD)/fuzz/replay/%: $(BUILD)/san/tests/fuzz/%.o \
		$(BUILD)/san/tests/fuzz/replay.o $(SAN_A)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD san  $@")
	$(Q)$(CC) $(SAN_CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)
endif

# the 2015 A4 DiskSpd post reproduced: a sweep of 1..16 emulated standard disks under an A4's cap.
.PHONY: demo-stripe
demo-stripe: all
	@IORATE=$(abspath $(BUILD)/iorate) sh bench/demo-stripe.sh

.PHONY: man
# The man pages are generated from the option tables; tests check they are up to date.
# A page is replaced only once written whole; without MPI, iorate-mpi's is left as it is, said.
man: $(BUILD)/iorate $(if $(HAVE_MPI),$(BUILD)/iorate-mpi)
	sh tools/gen-man.sh $(BUILD)/iorate > $(BUILD)/iorate.1 && mv $(BUILD)/iorate.1 docs/iorate.1
	$(if $(HAVE_MPI),sh tools/gen-man.sh $(BUILD)/iorate-mpi > $(BUILD)/iorate-mpi.1 && \
		mv $(BUILD)/iorate-mpi.1 docs/iorate-mpi.1,@echo "man: no MPI here, so no iorate-mpi:" \
		"docs/iorate-mpi.1 is left as it is" >&2)

.PHONY: all run test test-bins unit unit-san cli bench deps bench-deps install install-catalog clean asan \
	check-root mpi-skip
all: $(BUILD)/iorate $(BUILD)/iorate.bash
ifneq ($(HAVE_MPI),)
all: $(BUILD)/iorate-mpi
else
all: mpi-skip
mpi-skip:
	@echo "make: skipping $(BUILD)/iorate-mpi: MPI not found (no pkg-config ompi-c, no mpicc);" \
		"'make deps' installs openmpi-bin and libopenmpi-dev"
endif

$(MPI_OBJ): CPPFLAGS += $(MPI_CFLAGS)
$(BUILD)/iorate-mpi: $(MPI_OBJ) $(LIB_OBJ)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDFLAGS) $(MPI_LIBS) $(LDLIBS)

$(BUILD)/iorate: $(BUILD)/obj/src/main.o $(LIB_OBJ)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)

# The bash completion, generated from the same option tables as --help and the man page.
$(BUILD)/iorate.bash: $(BUILD)/iorate
	@$(if $(Q),echo "  GEN     $@")
	$(Q)$(BUILD)/iorate help --completion > $@

$(BUILD)/iorate-san: $(BUILD)/san/src/main.o $(SAN_OBJ)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(SAN_CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)

# iorate under ASan whose Nth allocation fails (IORATE_FAIL_ALLOC=N; tests/alloc/failalloc.c):
# the executable's malloc is the one iorate and every library it links bind to.
# The shim itself is not instrumented: AddressSanitizer calls it while it starts.
ifeq ($(COVERAGE),1)
# make coverage counts the branches only a failed allocation takes: the same shim over the
# library it measures (gcov's), under the same name.
$(BUILD)/iorate-san-failalloc: $(BUILD)/obj/src/main.o $(BUILD)/obj/tests/alloc/failalloc.o \
		$(LIB_OBJ)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -rdynamic -o $@ $^ $(LDFLAGS) $(LDLIBS) -ldl
else
$(BUILD)/iorate-san-failalloc: $(BUILD)/san/src/main.o $(BUILD)/obj/tests/alloc/failalloc.o $(SAN_OBJ)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(SAN_CFLAGS) -rdynamic -o $@ $^ $(LDFLAGS) $(LDLIBS) -ldl
endif

# The installed catalog's directory, PREFIX/share/iorate/catalog, is compiled in
# (src/model/catalog_layers.c). The header is rewritten only when PREFIX changes, so a new PREFIX
# rebuilds that one file and nothing else.
PATHS_H    := $(BUILD)/gen/paths.h
LAYERS_OBJ := $(foreach d,obj san tsan fuzz/obj,$(BUILD)/$(d)/src/model/catalog_layers.o)
$(LAYERS_OBJ): $(PATHS_H)
.PHONY: FORCE
$(PATHS_H): FORCE
	@mkdir -p $(dir $@)
	@printf '#define IORATE_CATALOG_DIR_DEFAULT "%s"\n' '$(PREFIX)/share/iorate/catalog' >$@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi

$(GEN_SRC): tools/embed.sh $(CATALOGS)
	@mkdir -p $(dir $@)
	$(Q)sh tools/embed.sh $@ $(CATALOGS)
$(GEN_CALC): tools/embed.sh $(CALC_ASSETS)
	@mkdir -p $(dir $@)
	$(Q)sh tools/embed.sh -s calc_assets $@ $(CALC_ASSETS)

$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<
$(BUILD)/san/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC san  $<")
	$(Q)$(CC) $(CPPFLAGS) $(SAN_CFLAGS) -c -o $@ $<

$(BUILD)/tsan/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC tsan $<")
	$(Q)$(CC) $(CPPFLAGS) $(TSAN_CFLAGS) -c -o $@ $<
$(BUILD)/tsan/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC tsan $<")
	$(Q)$(CC) $(CPPFLAGS) $(TSAN_CFLAGS) -c -o $@ $<
$(BUILD)/tests-tsan/%: $(BUILD)/tsan/tests/unit/%.o $(TSAN_A)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(TSAN_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka $(LDLIBS)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<
# The unit tests' own code unoptimised (half the compile): the library they test is the -O2 one
# iorate ships.
$(BUILD)/obj/tests/unit/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -O0 -c -o $@ $<

$(LIB_A): $(LIB_OBJ)
$(SAN_A): $(SAN_OBJ)
$(TSAN_A): $(TSAN_OBJ)
$(LIB_A) $(SAN_A) $(TSAN_A):
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && $(AR) rcs $@ $^
$(BUILD)/san/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC san  $<")
	$(Q)$(CC) $(CPPFLAGS) $(SAN_CFLAGS) -c -o $@ $<

# test_engine_errors fails the calls of the engines' libraries as a kernel or a full system
# would: each is wrapped at link time by the test's own shim.
ENGINE_WRAPS := calloc dup preadv2 pwritev2 aio_read aio_write aio_error aio_suspend \
	io_setup io_submit io_getevents io_uring_queue_init io_uring_queue_init_params \
	io_uring_register_files io_uring_register_buffers io_uring_submit io_uring_submit_and_wait
$(BUILD)/tests/test_engine_errors $(BUILD)/tests-san/test_engine_errors: \
	LDFLAGS += $(ENGINE_WRAPS:%=-Wl,--wrap=%)
# test_worker_async finds its own asynchronous fake engine through a wrapped engine_find().
$(BUILD)/tests/test_worker_async $(BUILD)/tests-san/test_worker_async: \
	LDFLAGS += -Wl,--wrap=engine_find
# test_history_errors makes each SQLite call of the store fail in turn, wrapped the same way.
$(BUILD)/tests/test_history_errors $(BUILD)/tests-san/test_history_errors: \
	LDFLAGS += -Wl,--wrap=sqlite3_prepare_v2 -Wl,--wrap=sqlite3_step -Wl,--wrap=sqlite3_exec
# test_model_alloc makes each allocation of a model call fail in turn, wrapped the same way.
$(BUILD)/tests/test_model_alloc $(BUILD)/tests-san/test_model_alloc: LDFLAGS += \
	-Wl,--wrap=malloc -Wl,--wrap=calloc -Wl,--wrap=realloc -Wl,--wrap=strdup \
	-Wl,--wrap=strndup -Wl,--wrap=asprintf -Wl,--wrap=json_loads -Wl,--wrap=json_loadb \
	-Wl,--wrap=json_load_callback
# test_wdata measures compressibility with zlib.
$(BUILD)/tests/test_wdata $(BUILD)/tests-san/test_wdata: LDLIBS += -lz
# test_chart decodes the PNGs it checks with cairo (iorate itself opens librsvg when asked).
ifeq ($(HAVE_RSVG),1)
$(BUILD)/tests/test_chart $(BUILD)/tests-san/test_chart: LDLIBS += $(shell pkg-config --libs cairo)
endif

$(BUILD)/tests/%: $(BUILD)/obj/tests/unit/%.o $(LIB_A)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka $(LDLIBS)
$(BUILD)/tests-san/%: $(BUILD)/san/tests/unit/%.o $(SAN_A)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(SAN_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka $(LDLIBS)

# The deps list is checked with dpkg-query so an up-to-date machine never calls apt-get. Another
# apt (unattended-upgrades on a fresh machine) holding the lock is waited for, up to 10 minutes.
deps:
	@missing=""; for p in $(DEPS) $(EXTRA_DEPS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "make deps: installing$$missing"; \
		if [ "$$(id -u)" != 0 ]; then echo "make deps: need root to apt-get install$$missing" >&2; exit 1; fi; \
		sh tools/apt-install.sh $$missing >/dev/null; \
	fi

bench-deps:
	@$(MAKE) -s deps EXTRA_DEPS="$(BENCH_DEPS)"

# make coverage: the suite tests/run-all.sh runs (unit tests, bats, fuzz inputs replayed), on a
# build of its own compiled for gcov ($(COV_BUILD), so $(BUILD) is left alone), then gcovr's
# line and branch figures per directory of src/ and an HTML report in $(COV_BUILD)/html/. The
# sanitizer builds and the fuzz targets are not run: they rerun the same tests, uninstrumented.
# A failing test is reported after the figures and fails the target. Profile write errors
# (a test's zero file-size limit) go to /dev/null.
COVERAGE_DEPS := gcovr
COV_BUILD := $(BUILD)/cov
COV_CFLAGS := -O0 -g --coverage
.PHONY: coverage coverage-report mutate
coverage:
	@$(MAKE) -s deps EXTRA_DEPS="$(COVERAGE_DEPS)"
	@$(MAKE) -s $(JOBS) BUILD=$(COV_BUILD) CFLAGS="$(COV_CFLAGS)" COVERAGE=1 all
	@find $(COV_BUILD) -name '*.gcda' -delete
	@# Count files anyone may write: safety.bats runs iorate as the user nobody.
	@(umask 000 && $(COV_BUILD)/iorate --version >/dev/null)
	+@s=0; MAKE="$(MAKE)" JOBS="$(JOBS)" CFLAGS="$(COV_CFLAGS)" COVERAGE=1 \
		GCOV_ERROR_FILE=/dev/null sh tests/run-all.sh "$(COV_BUILD)" || s=$$?; \
	sh tools/coverage-report.sh "$(COV_BUILD)" || s=1; \
	[ $$s = 0 ] || echo "make coverage: the suite had failures (above); figures as measured" >&2; \
	exit $$s
# The figures again from the counts the last make coverage left.
coverage-report:
	@sh tools/coverage-report.sh "$(COV_BUILD)"

# make mutate: tools/mutate.py, mutation testing of the files whose lines are figures, in a copy
# of the tree (build/mutate/). MUTATE_FILES="src/core/stats.c ..." picks files; MUTATE_MAX caps
# the mutations run (0: all; else a sample, MUTATE_SEED picks which); MUTATE_TIMEOUT bounds one
# test command, in seconds.
MUTATE_FILES ?=
MUTATE_MAX ?= 60
MUTATE_SEED ?= 1
MUTATE_TIMEOUT ?= 300
# (The recipe names no $$(MAKE): make -n would run it.)
mutate:
	@python3 tools/mutate.py -n "$(MUTATE_MAX)" -s "$(MUTATE_SEED)" -t "$(MUTATE_TIMEOUT)" \
		$(MUTATE_FILES)

# make run: a 10-second default benchmark on a temporary file (removed afterwards).
run: deps
	@$(MAKE) -s $(JOBS) all
	@tmp=$$(mktemp -d /var/tmp/iorate-run.XXXXXX) && \
	trap 'rm -rf "$$tmp"' EXIT INT TERM && \
	$(BUILD)/iorate run --time 10s --size 256MiB $$tmp/testfile

unit: $(TESTS)
	@sh tests/run-unit.sh unit $(TESTS)
unit-san: $(SAN_TESTS)
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		sh tests/run-unit.sh unit-asan-ubsan $(SAN_TESTS)
cli: $(BUILD)/iorate
	@IORATE=$(abspath $(BUILD)/iorate) bats tests/cli

# iorate first: the command-line tests start on it while tests/run-all.sh builds the rest (the
# unit test binaries, the fuzz targets) beside them at a lower priority.
test: deps
	@$(MAKE) -s $(JOBS) all
	+@MAKE="$(MAKE)" JOBS="$(JOBS)" FUZZ_CC="$(FUZZ_CC)" sh tests/run-all.sh "$(BUILD)"
ifeq ($(COVERAGE),1)
test-bins: $(TESTS) $(REPLAY_BINS) $(BUILD)/iorate-san-failalloc
else
test-bins: $(TESTS) $(SAN_TESTS) $(TSAN_TESTS) $(REPLAY_BINS) $(BUILD)/iorate-san-failalloc
endif

bench: bench-deps
	@$(MAKE) -s $(JOBS) all
	-@BUILD=$(BUILD) sh bench/run.sh
	-@BUILD=$(BUILD) sh bench/device.sh

# The catalog files go where the binary reads them (docs/catalog.md, "Layers"); install-catalog
# alone builds nothing, so a test can install them into a DESTDIR of its own.
install: all install-catalog
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 755 $(BUILD)/iorate $(DESTDIR)$(PREFIX)/bin/iorate
	$(if $(HAVE_MPI),install -m 755 $(BUILD)/iorate-mpi $(DESTDIR)$(PREFIX)/bin/iorate-mpi)
	install -m 644 docs/iorate.1 $(DESTDIR)$(PREFIX)/share/man/man1/iorate.1
	$(if $(HAVE_MPI),install -m 644 docs/iorate-mpi.1 $(DESTDIR)$(PREFIX)/share/man/man1/iorate-mpi.1)
	install -m 644 $(BUILD)/iorate.bash \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/iorate

install-catalog:
	install -d $(DESTDIR)$(PREFIX)/share/iorate/catalog
	install -m 644 $(CATALOGS) $(DESTDIR)$(PREFIX)/share/iorate/catalog/

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
