# iorate — build, test, run, bench, install.
#   make            build $(BUILD)/iorate
#   make run        install missing Debian packages, build, run a 10 s benchmark on a temporary file
#   make test       install missing Debian packages, build, unit tests (plain, then ASan+UBSan), bats
#   make bench      side-by-side benchmark against fio (not a test; never fails the build)
#   make install PREFIX=/usr/local
#   make deps       apt-get install whatever of DEPS is missing
# $(BUILD)/iorate-mpi (mpirun -np N iorate-mpi run ...) is built too where MPI is found.

.DEFAULT_GOAL := all

PREFIX  ?= /usr/local
BUILD   ?= build
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
	libcmocka-dev bats util-linux mount e2fsprogs jq procps python3 \
	openmpi-bin libopenmpi-dev
BENCH_DEPS := fio time

VERSION := $(shell cat VERSION 2>/dev/null || echo 0.0.0)
GITREV  := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)

HAVE_URING := $(shell pkg-config --exists liburing 2>/dev/null && echo 1)
HAVE_AIO   := $(shell test -f /usr/include/libaio.h && echo 1)

CPPFLAGS += -D_GNU_SOURCE -Isrc -I$(BUILD)/gen -DIORATE_VERSION='"$(VERSION)"' \
	-DIORATE_GITREV='"$(GITREV)"' \
	$(shell pkg-config --cflags blkid 2>/dev/null)
LDLIBS  := -ljansson -lsqlite3 -lblkid -lpthread -lm
ifeq ($(HAVE_URING),1)
CPPFLAGS += -DHAVE_LIBURING
LDLIBS   += -luring
endif
ifeq ($(HAVE_AIO),1)
CPPFLAGS += -DHAVE_LIBAIO
LDLIBS   += -laio
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
SAN_CFLAGS := -std=gnu11 $(WARN) -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined -MMD -MP

LIB_SRC  := $(sort $(wildcard src/util/*.c src/core/*.c src/engine/*.c src/model/*.c \
	src/report/*.c src/store/*.c src/cmd/*.c))
CATALOGS := $(sort $(wildcard data/catalog/*.json))
GEN_SRC  := $(BUILD)/gen/embedded_catalog.c
TEST_SRC := $(sort $(wildcard tests/unit/test_*.c))

LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/embedded_catalog.o
SAN_OBJ  := $(LIB_SRC:%.c=$(BUILD)/san/%.o) $(BUILD)/san/gen/embedded_catalog.o
TESTS    := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
SAN_TESTS:= $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests-san/%)

# make fuzz: each libFuzzer target for FUZZ_SECONDS (clang, ASan+UBSan). Not part of make test.
FUZZ_SECONDS ?= 60
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_LIB := $(filter-out src/main.c,$(LIB_SRC)) $(GEN_SRC)
.PHONY: fuzz
fuzz: $(GEN_SRC)
	@mkdir -p $(BUILD)/fuzz
	@for f in $(FUZZ_SRC); do \
		b=$(BUILD)/fuzz/$$(basename $$f .c); \
		echo "  FUZZ    $$b ($(FUZZ_SECONDS) s)"; \
		clang -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined $(CPPFLAGS) \
			-o $$b $$f $(FUZZ_LIB) $(LDLIBS) || exit 1; \
		mkdir -p $(BUILD)/fuzz/corpus-$$(basename $$f .c); \
		$$b -max_total_time=$(FUZZ_SECONDS) -max_len=4096 \
			$(BUILD)/fuzz/corpus-$$(basename $$f .c) >$$b.log 2>&1 \
			|| { tail -30 $$b.log; exit 1; }; \
		tail -1 $$b.log; \
	done

# Seed 000 reproduced: a sweep of 1..16 emulated standard disks under an A4's cap.
.PHONY: demo-stripe
demo-stripe: all
	@IORATE=$(abspath $(BUILD)/iorate) sh bench/demo-stripe.sh

.PHONY: man
# The man page is generated from the option table; a test checks it is up to date.
man: $(BUILD)/iorate
	sh tools/gen-man.sh $(BUILD)/iorate > docs/iorate.1

.PHONY: all run test unit unit-san cli bench deps bench-deps install clean asan check-root mpi-skip
all: $(BUILD)/iorate
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

$(BUILD)/iorate-san: $(BUILD)/san/src/main.o $(SAN_OBJ)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(SAN_CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)

$(GEN_SRC): tools/embed.sh $(CATALOGS)
	@mkdir -p $(dir $@)
	$(Q)sh tools/embed.sh $@ $(CATALOGS)

$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<
$(BUILD)/san/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC san  $<")
	$(Q)$(CC) $(CPPFLAGS) $(SAN_CFLAGS) -c -o $@ $<

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<
$(BUILD)/san/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC san  $<")
	$(Q)$(CC) $(CPPFLAGS) $(SAN_CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: $(BUILD)/obj/tests/unit/%.o $(LIB_OBJ)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka $(LDLIBS)
$(BUILD)/tests-san/%: $(BUILD)/san/tests/unit/%.o $(SAN_OBJ)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(SAN_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka $(LDLIBS)

# The deps list is checked with dpkg-query so an up-to-date machine never calls apt-get.
deps:
	@missing=""; for p in $(DEPS) $(EXTRA_DEPS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "make deps: installing$$missing"; \
		if [ "$$(id -u)" != 0 ]; then echo "make deps: need root to apt-get install$$missing" >&2; exit 1; fi; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

bench-deps:
	@$(MAKE) -s deps EXTRA_DEPS="$(BENCH_DEPS)"

# make run: a 10-second default benchmark on a temporary file (removed afterwards).
run: deps
	@$(MAKE) -s all
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

test: deps
	@$(MAKE) -s all $(TESTS) $(SAN_TESTS)
	@sh tests/run-all.sh "$(BUILD)"

bench: bench-deps
	@$(MAKE) -s all
	-@BUILD=$(BUILD) sh bench/run.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/iorate/catalog
	install -m 755 $(BUILD)/iorate $(DESTDIR)$(PREFIX)/bin/iorate
	$(if $(HAVE_MPI),install -m 755 $(BUILD)/iorate-mpi $(DESTDIR)$(PREFIX)/bin/iorate-mpi)
	install -m 644 docs/iorate.1 $(DESTDIR)$(PREFIX)/share/man/man1/iorate.1
	$(if $(CATALOGS),install -m 644 $(CATALOGS) $(DESTDIR)$(PREFIX)/share/iorate/catalog/)

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
