# haul — build, run and test. `make run` and `make test` install what they need first.

SYSTEM_PACKAGES := nginx-light tmux curl openssl libssl-dev util-linux libncurses-dev libxml2-dev pkg-config aria2 python3-venv man-db systemd \
	tinyproxy microsocks lintian gdb binutils libtorrent-rasterbar-dev opentracker transmission-cli mktorrent
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SHELL := /bin/bash
BIN := .build/debug/haul

.PHONY: all deps build run test lint figures bench bench-many-files bench-mirrors bench-remote bench-torrents release man completions install uninstall deb clean

all: build

# Debian/Ubuntu packages the tests and the TUI use; installed only when missing.
deps:
	@missing=""; for p in $(SYSTEM_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

build:
	swift build

# The RPC tests' clients nobody here wrote: aria2p and websockets from PyPI, in a virtual
# environment of their own (Debian's Python, so no system package is touched).
PYTHON_CLIENTS := .build-python/bin/aria2p
$(PYTHON_CLIENTS):
	/usr/bin/python3 -m venv .build-python
	.build-python/bin/pip install -q aria2p websockets

# Build and start haul; pass arguments with ARGS, e.g. make run ARGS="add https://example.org/file.iso"
run: deps build
	$(BIN) $(ARGS)

# The whole test suite: unit tests, engine tests against nginx and a fault-injecting server,
# and the real binary driven end to end (scripts/test-suites: most at once, those that measure
# rates alone); run as root, the tests that depend on who runs haul once more as nobody. It ends
# with the slowest tests, so what the suite's time goes to stays in view.
# The package tests build a Debian package from haul linked as the release is (PACKAGED_BINARY),
# linked while the manual's generator builds: each of the two is mostly one process.
PACKAGED_BINARY := .build/debug/haul-packaged
test: deps $(PYTHON_CLIENTS)
	swift build --build-tests
	scripts/link-packaged .build/debug $(PACKAGED_BINARY) & linking=$$!; \
		swift build --product generate-manual && wait $$linking
	scripts/test-suites
	scripts/test-unprivileged
	@scripts/slowest-tests .build/tests-parallel.xml .build/tests-beside-*.log .build/tests-alone.log

# The formatter's rules (.swift-format) over every Swift file, the module table's imports
# (docs/ARCHITECTURE.md) and shellcheck over the scripts; fails on any finding.
SHELL_SCRIPTS := .ci/run $(shell grep -l '^\#!/usr/bin/env bash' scripts/* 2>/dev/null)
lint:
	swift format lint --strict --recursive Package.swift Sources Tests
	scripts/check-imports
	@command -v shellcheck >/dev/null || { $(SUDO) apt-get update -qq; DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq shellcheck; }
	shellcheck $(SHELL_SCRIPTS)

# Runs the reliability suite (chaos, fuzz, disk full, hostile servers) and writes its
# figures into docs/RELIABILITY.md. Part of `make test` too; this target only adds the update.
figures: deps
	swift build --build-tests
	rm -f .build/figures.rows
	HAUL_FIGURES_FILE=$(CURDIR)/.build/figures.rows HAUL_CHAOS_ROUNDS=50 swift test --skip-build \
		--filter 'ChaosTests|FuzzTests|DiskFullTests|HostileServerTests|FaultInjectionTests'
	{ echo "| what | tried | outcome |"; echo "| --- | --- | --- |"; sort .build/figures.rows; echo; \
	  echo "_Written by \`make figures\` on $$(date -u +%Y-%m-%d), $$(nproc) cores, $$(uname -sr)._"; } > .build/figures.md
	scripts/update-doc-block reliability .build/figures.md docs/RELIABILITY.md

# haul against curl, wget and aria2c on nginx over loopback (release build); writes the
# full table into docs/PERFORMANCE.md and haul's ratios into the README. Takes several minutes.
bench: deps release
	@for p in wget wget2 aria2 time python3; do dpkg -s $$p >/dev/null 2>&1 || { $(SUDO) apt-get update -qq; DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq wget wget2 aria2 time python3; break; }; done
	scripts/bench
	scripts/bench-many-files

# Many small files from one host: 1,000 of 32 KiB over https with HTTP/2 through a relay that adds
# 20 ms of round trip, and over plain http on loopback; haul against curl, wget2 and aria2c.
# Writes its table into docs/PERFORMANCE.md. About 3 minutes.
bench-many-files: deps release
	@for p in wget2 aria2 time nginx openssl; do dpkg -s $$p >/dev/null 2>&1 || { $(SUDO) apt-get update -qq; DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq wget2 aria2 time nginx openssl; break; }; done
	scripts/bench-many-files

# haul's UI on a remote aria2c holding 1,000 downloads against `aria2p top`: the first frame and
# the requests per second; writes its table into docs/PERFORMANCE.md. About 2 minutes.
bench-remote: deps release
	.build-python/bin/pip install -q 'aria2p[tui]'
	scripts/bench-remote

# haul as a BitTorrent leecher beside aria2c and transmission-cli in one loopback swarm (opentracker,
# two aria2c and two transmission-cli seeders of 1 GiB), then the UI with 20 torrents of 1,000 files
# and with one of 100,000; writes their tables into docs/PERFORMANCE.md.
bench-torrents: deps release
	scripts/bench-torrents
	scripts/bench-torrent-ui

# Several sources per file and the cost of trying more connections: haul against aria2c on
# capped nginx mirrors; writes its table into docs/PERFORMANCE.md. About 4 minutes.
bench-mirrors: deps release
	scripts/bench-mirrors

# Optimized, with the Swift and C++ runtimes linked in: the binary runs on a machine without
# Swift and starts without loading and binding runtime libraries. RELEASE_FLAGS, for every
# module the dependencies' included: a concrete generic type is made through its metadata
# accessor instead of being looked up by its mangled name at run time (each such lookup scans
# every protocol conformance record in the binary); --no-export-dynamic undoes the
# -export-dynamic that --static-swift-stdlib links with (crash backtraces read the binary's own
# symbol table and name the same frames); the C++ runtime is linked statically when the compiler
# has libstdc++.a (SwiftPM names it as -lstdc++, so a directory holding only that archive goes
# first on the library path). The measurements are in docs/PERFORMANCE.md. Changing the flags
# rebuilds every dependency (~5 minutes on 2 cores).
STATIC_CXX_DIR := $(CURDIR)/.build/static-libstdc++
RELEASE_FLAGS := -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
	-Xlinker --no-export-dynamic -Xlinker --build-id=sha1 -Xlinker -z -Xlinker now -Xlinker -L$(STATIC_CXX_DIR)
release:
	@mkdir -p $(STATIC_CXX_DIR); rm -f $(STATIC_CXX_DIR)/libstdc++.a; \
	archive="$$(c++ -print-file-name=libstdc++.a 2>/dev/null)"; \
	if [ -f "$$archive" ]; then ln -s "$$archive" $(STATIC_CXX_DIR)/libstdc++.a; fi
	swift build -c release --static-swift-stdlib $(RELEASE_FLAGS)

# Installed like a Linux program: the binary, the man page and the shell completions where each
# shell looks. The page and the completions are generated from the command-line definitions
# (swift-argument-parser's generate-manual, the binary's --generate-completion-script), so they
# never drift from --help. PREFIX: ~/.local for a user, /usr/local as root;
# DESTDIR is honoured. INSTALL_BINARY installs another build (the tests use the debug one).
PREFIX ?= $(if $(filter 0,$(shell id -u)),/usr/local,$(HOME)/.local)
INSTALL_BINARY ?= .build/release/haul
INSTALLED := bin/haul share/man/man1/haul.1 share/bash-completion/completions/haul \
	share/zsh/site-functions/_haul share/fish/vendor_completions.d/haul.fish
MANUAL_TOOL := .build/debug/generate-manual
$(MANUAL_TOOL):
	swift build --product generate-manual
man: $(if $(filter .build/release/haul,$(INSTALL_BINARY)),release) $(MANUAL_TOOL)
	mkdir -p .build/man
	.build/debug/generate-manual $(INSTALL_BINARY) --section 1 --output-directory .build/man
completions: $(if $(filter .build/release/haul,$(INSTALL_BINARY)),release)
	mkdir -p .build/completions
	for shell in bash zsh fish; do \
		$(INSTALL_BINARY) --generate-completion-script $$shell > .build/completions/haul.$$shell || exit 1; \
	done

# The installed binary is stripped, as every Linux package's is; STRIP= keeps its symbols.
STRIP ?= strip
install: man completions
	install -D -m 0755 $(INSTALL_BINARY) $(DESTDIR)$(PREFIX)/bin/haul
	$(if $(STRIP),$(STRIP) --strip-unneeded --remove-section=.comment --remove-section=.note $(DESTDIR)$(PREFIX)/bin/haul)
	install -D -m 0644 .build/man/haul.1 $(DESTDIR)$(PREFIX)/share/man/man1/haul.1
	install -D -m 0644 .build/completions/haul.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/haul
	install -D -m 0644 .build/completions/haul.zsh $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_haul
	install -D -m 0644 .build/completions/haul.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/haul.fish

# Removes exactly what install put there.
uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/,$(INSTALLED))

# A Debian package of the same files under /usr (.build/haul_VERSION_ARCH.deb), installable with
# apt install ./.build/haul_*.deb, with the user units in /usr/lib/systemd/user and the debug
# symbols in .build/haul-dbgsym_VERSION_ARCH.deb; its dependencies are what dpkg-shlibdeps finds.
deb: man
	scripts/make-deb $(INSTALL_BINARY)

clean:
	rm -rf .build
