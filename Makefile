# gpuwise — build, test, install.  `make help` lists the targets.

PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
DATADIR  ?= $(PREFIX)/share/gpuwise
DOCDIR   ?= $(PREFIX)/share/doc/gpuwise
MANDIR   ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/vendor-completions
DESTDIR  ?=
BUILD    ?= build
CC       ?= cc
CFLAGS   ?= -O2 -g
LDFLAGS  ?=
VERSION  := 0.1.0

PKGS     := lua5.4 sqlite3 libxml-2.0 libcmark-gfm libcjson libcurl libseccomp

# Every target a person runs first checks the Debian packages it needs (installing what is missing
# when run as root), then runs make again: everything computed from pkg-config below is read by
# that second make, after the install, never before it.  GW_DEPS_CHECKED marks the second make.
ifeq ($(GW_DEPS_CHECKED),)
PUBLIC_TARGETS := all demo test check-long unit asan install
.PHONY: $(PUBLIC_TARGETS)
all demo install:
	@sh .ci/deps.sh && $(MAKE) --no-print-directory GW_DEPS_CHECKED=1 $@
test check-long unit asan:
	@sh .ci/deps.sh --test && $(MAKE) --no-print-directory GW_DEPS_CHECKED=1 $@
else
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS))
# libxml2 and libcurl are opened when first needed (core/io/xml.c, core/io/fetch.c), libxml2 by the
# soname of the library found here.
# The extensions come first: from an archive, they need libcmark-gfm after them.
PKG_LIBS_SHARED := -lcmark-gfm-extensions $(shell pkg-config --libs $(filter-out libxml-2.0 libcurl,$(PKGS))) -lcsv -lm
# Each library whose archive the system has is linked from it, libc and libm aside: the shared
# libsqlite3 and libcmark-gfm bind every symbol as the program starts, 1.4 M of the 1.77 M
# instructions `gpuwise --version` took (0.37 M linked so), a sixth of `kb show`.  liblua5.4.a
# needs -ldl (in libc since glibc 2.34).
archive_of = $(filter /%,$(wildcard $(shell $(CC) -print-file-name=lib$(1).a)))
PKG_LIBS   := $(foreach l,$(PKG_LIBS_SHARED),$(or $(if $(filter-out -lm,$(filter -l%,$(l))),$(call archive_of,$(l:-l%=%))),$(l))) -ldl
LIBXML2_SONAME := $(shell objdump -p $$($(CC) -print-file-name=libxml2.so) 2>/dev/null | sed -n 's/^ *SONAME *//p')
CMOCKA_CFLAGS := $(shell pkg-config --cflags cmocka 2>/dev/null)
CMOCKA_LIBS   := $(shell pkg-config --libs cmocka 2>/dev/null)
# Unit tests check the program's XML and SVG output with libxml2 itself.
TEST_LIBS     := $(shell pkg-config --libs libxml-2.0)
endif

WARN     := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(WARN) $(PKG_CFLAGS) \
             -DGW_VERSION='"$(VERSION)"' -DGW_DATADIR='"$(DATADIR)"' -DGW_DOCDIR='"$(DOCDIR)"' \
             $(if $(LIBXML2_SONAME),-DGW_LIBXML2_SONAME='"$(LIBXML2_SONAME)"') -Icore -I$(BUILD)/gen $(CFLAGS) -MMD -MP

# core/ is in folders by layer (README.md, Architecture); core/tools holds build-time programs.
CORE_DIRS := base io kb sandbox ingest model decide render inspect cli
CORE_SRC := $(filter-out core/cli/main.c,$(foreach d,$(CORE_DIRS),$(wildcard core/$(d)/*.c)))
CORE_OBJ := $(CORE_SRC:core/%.c=$(BUILD)/core/%.o) $(BUILD)/gen/embedded_plugins.o
# The shipped plugins, compiled into the program (core/sandbox/embedded.h); tests are not.
PLUGIN_SRC := $(sort $(filter-out %_test.lua,$(wildcard plugins/*/*.lua)))
MAIN_OBJ := $(BUILD)/core/cli/main.o
LIBGW    := $(BUILD)/libgw.a
BIN      := $(BUILD)/gpuwise
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
KB_DATA  := $(wildcard kb/data/*.csv) kb/schema.sql
KB_DB    := kb/gpuwise.db

.PHONY: all deps test-deps demo test check-long unit asan bench bench-readme fuzz install uninstall clean help gpuwise

ifneq ($(GW_DEPS_CHECKED),)
# ./gpuwise is the default build's; other builds (make asan) leave it alone.
ifeq ($(BUILD),build)
all: gpuwise $(KB_DB) $(BUILD)/gpuwise.1 $(BUILD)/gpuwise.md
else
all: $(BIN) $(KB_DB) $(BUILD)/gpuwise.1 $(BUILD)/gpuwise.md
endif

deps:
	@sh .ci/deps.sh

test-deps:
	@sh .ci/deps.sh --test

gpuwise: $(BIN)
	@ln -sf $(BIN) gpuwise

$(BUILD)/core/%.o: core/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# The KB schema is compiled into the program (an installed binary has no source tree).
$(BUILD)/gen/kb_schema.h: kb/schema.sql
	@mkdir -p $(@D)
	{ echo 'static const char kb_schema_sql[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' kb/schema.sql; echo ';'; } >$@.tmp
	@mv $@.tmp $@

$(BUILD)/core/kb/kb_file.o: $(BUILD)/gen/kb_schema.h

# The manual's prose, compiled in the same way; cli_help.c puts the command tables into it.
$(BUILD)/gen/manual_md.h: core/cli/gpuwise.1.md
	@mkdir -p $(@D)
	{ echo 'static const char manual_md[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' core/cli/gpuwise.1.md; echo ';'; } >$@.tmp
	@mv $@.tmp $@

$(BUILD)/core/cli/cli_help.o: $(BUILD)/gen/manual_md.h

# The manual page and its Markdown source, written by the program from the same tables that
# parse its command line (gpuwise help --man / --all).
$(BUILD)/gpuwise.1: $(BIN)
	$(BIN) help --man -o $@
$(BUILD)/gpuwise.md: $(BIN)
	$(BIN) help --all -o $@

$(BUILD)/tools/embed_plugins: core/tools/embed_plugins.c core/sandbox/embedded.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(PKG_LIBS) $(LDFLAGS)

$(BUILD)/gen/embedded_plugins.c: $(BUILD)/tools/embed_plugins $(PLUGIN_SRC)
	@mkdir -p $(@D)
	$(BUILD)/tools/embed_plugins $@.tmp $(PLUGIN_SRC)
	@mv $@.tmp $@

$(BUILD)/gen/embedded_plugins.o: $(BUILD)/gen/embedded_plugins.c
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(LIBGW): $(CORE_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BIN): $(MAIN_OBJ) $(LIBGW)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(MAIN_OBJ) $(LIBGW) $(PKG_LIBS)

$(BUILD)/tests/%: tests/unit/%.c $(LIBGW)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CMOCKA_CFLAGS) -o $@ $< $(LIBGW) $(PKG_LIBS) $(TEST_LIBS) $(CMOCKA_LIBS) $(LDFLAGS)

# The shipped KB is built from text by the program's own import path, in one transaction.
$(KB_DB): $(BIN) $(KB_DATA)
	@rm -f $@.tmp $@.tmp-wal $@.tmp-shm
	$(BIN) --kb $@.tmp kb import kb/data/*.csv
	$(BIN) --kb $@.tmp kb check >/dev/null
	@mv $@.tmp $@
	@rm -f $@.tmp-wal $@.tmp-shm

demo: all
	$(BIN) report examples/vision-team.lua --format html -o justification.html
	@echo "wrote justification.html"

unit: $(UNIT_BIN)

test: all $(UNIT_BIN)
	@GPUWISE_BIN=$(CURDIR)/$(BIN) GPUWISE_BUILD=$(CURDIR)/$(BUILD) sh tests/run.sh

# The sweeps too long for every make test, which samples them: 200 SIGKILLs at moments spread
# over an import (make test kills 16; tests/cli/crash.sh), every command under valgrind (make
# test runs one; tests/cli/valgrind.sh), and every open command a search prints and every
# source's facts (make test every 8th; tests/cli/kb.sh).  CI runs it too.
LONG_SUITES := tests/cli/crash.sh tests/cli/valgrind.sh tests/cli/kb.sh
check-long: all
	@GW_TEST_LONG=1 CRASH_RUNS=200 TESTS="$(LONG_SUITES)" GPUWISE_BIN=$(CURDIR)/$(BIN) \
	    GPUWISE_BUILD=$(CURDIR)/$(BUILD) sh tests/run.sh

# float-cast-overflow (a double too large for the integer it is converted to) is not part of
# gcc's -fsanitize=undefined: it is named on its own.
ASAN_SANITIZE := address,undefined,float-cast-overflow
# The suites and fuzz replays read the shipped KB at kb/gpuwise.db, which the plain build makes.
asan:
	$(MAKE) --no-print-directory all
	$(MAKE) --no-print-directory BUILD=build-asan \
	    CFLAGS="-O1 -g -fsanitize=$(ASAN_SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=undefined,float-cast-overflow" \
	    LDFLAGS="-fsanitize=$(ASAN_SANITIZE)" KB_DB=build-asan/gpuwise.db test

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/kb $(DESTDIR)$(DATADIR)/templates \
	    $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) \
	    $(DESTDIR)$(DOCDIR)/examples $(DESTDIR)$(DOCDIR)/plugins $(DESTDIR)$(DOCDIR)/templates \
	    $(DESTDIR)$(DOCDIR)/kb
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/gpuwise
	install -m 644 $(KB_DB) $(DESTDIR)$(DATADIR)/kb/gpuwise.db
	cp -R plugins $(DESTDIR)$(DATADIR)/
	cp -R templates/. $(DESTDIR)$(DATADIR)/templates/
	install -m 644 $(BUILD)/gpuwise.1 $(DESTDIR)$(MANDIR)/man1/gpuwise.1
	install -m 644 core/completion/gpuwise.bash $(DESTDIR)$(BASHCOMPDIR)/gpuwise
	install -m 644 core/completion/_gpuwise $(DESTDIR)$(ZSHCOMPDIR)/_gpuwise
	install -m 644 README.md $(BUILD)/gpuwise.md $(DESTDIR)$(DOCDIR)/
	install -m 644 $(wildcard examples/*.lua examples/*.md) $(DESTDIR)$(DOCDIR)/examples/
	install -m 644 plugins/README.md $(DESTDIR)$(DOCDIR)/plugins/
	install -m 644 templates/README.md $(DESTDIR)$(DOCDIR)/templates/
	install -m 644 kb/data/README.md $(DESTDIR)$(DOCDIR)/kb/

endif

# These check their own packages (and build through the targets above).
bench: all
	@sh .ci/deps.sh --bench
	@sh tests/bench/run.sh

# bench-readme: make bench, then README.md's Speed table rewritten from its summary.
bench-readme: bench
	@python3 tests/bench/readme_table.py build/bench/results.tsv README.md

fuzz:
	@sh .ci/deps.sh --fuzz
	@sh tests/fuzz/run.sh

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/gpuwise $(DESTDIR)$(MANDIR)/man1/gpuwise.1 \
	    $(DESTDIR)$(BASHCOMPDIR)/gpuwise $(DESTDIR)$(ZSHCOMPDIR)/_gpuwise
	rm -rf $(DESTDIR)$(DATADIR) $(DESTDIR)$(DOCDIR)

clean:
	rm -rf build build-asan gpuwise $(KB_DB) $(KB_DB).tmp* justification.html

help:
	@echo "make          build ./gpuwise and kb/gpuwise.db (installs missing Debian packages as root)"
	@echo "make demo     write justification.html for examples/vision-team.lua"
	@echo "make test     run every test suite"
	@echo "make check-long  the long sweeps make test samples (SIGKILLs, valgrind, kb sweeps)"
	@echo "make asan     run the tests under AddressSanitizer + UBSan"
	@echo "make bench    run the benchmarks (ratios against sqlite3, cmark-gfm, pandoc)"
	@echo "make bench-readme  make bench, then README.md's Speed table from its results"
	@echo "make fuzz     run the fuzz harnesses for a set time"
	@echo "make install  PREFIX=/usr/local DESTDIR="

-include $(CORE_OBJ:.o=.d) $(MAIN_OBJ:.o=.d)
