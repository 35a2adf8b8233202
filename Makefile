# KeychainLab: the two commands the README starts with, and the steps behind them.
#
#   make demo    bring the demo world up, play the seeds' stories, bring it down
#   make test    install what is missing, lint, build without warnings, run every test and the
#                docs' marked command blocks (make doc-check)
#   make bench   measure keychaind (release build) against gnome-keyring, AASA validation
#                against curl + openssl, and what metrics and the audit log cost; see docs/benchmarks.md
#   make scale-demo   the demo lab, two PostgreSQL shards, three cloudd replicas over them and a
#                fleet of 1,000 light devices for a minute; prints the report (docs/scale.md)
#   make scale-faults   fleets of 500 devices through faults: a cloudd replica killed, a shard
#                crashed and restarted, a shard frozen, a standby promoted; prints each report
#                (docs/scale.md)
#   make bench-scale   kclab fleet at 1,000 devices (cloudd on SQLite, one PostgreSQL, two shards)
#                and 10,000 (release build); prints a table (docs/scale.md)
#   make compose-demo   the demo world as containers (needs a Docker engine and docker-compose);
#                see docs/compose.md
#   make compose-scale-demo   the same with two PostgreSQL shards, three cloudd replicas and a
#                fleet of 1,000 devices (docker-compose.scale.yml, docs/scale.md)

SWIFT ?= swift
# Debian packages the build and the tests need: OpenSSL (CMS, and the openssl command the seeds
# use), SQLite for the stores, pkg-config to find them, curl for the transport tests, nginx for
# the website fixture, python3 for the independent HTTPS server of the association tests, and
# python3-venv for the passkey interop tests' PyPI packages (soft-webauthn, py_webauthn), and
# postgresql for the store contract on PostgreSQL (a throwaway server per test, started as nobody).
APT_PACKAGES := libssl-dev openssl libsqlite3-dev pkg-config curl nginx python3 python3-venv jq postgresql chromium chromium-driver
BIN := .build/debug

# The Linux peer the benchmark compares with: gnome-keyring's Secret Service through libsecret.
BENCH_PACKAGES := gnome-keyring libsecret-1-0 gir1.2-secret-1 python3-gi dbus

# The files generated from a table (Devices/KeychainLabSecurity/SecBaseErrors.swift from OSStatusTable);
# a test fails when one is stale.
generate: build
	KCLAB_REGENERATE=1 $(SWIFT) test --skip-build --filter GeneratedConstantsTests

.PHONY: generate overlap wrappers demo scale-demo scale-faults bench-scale walkthrough doc-check test bench bench-instrumentation deps lint format build clean static-check fuzz complexity fuzz-coverage durability install install-for-tests install-programs test-deps apt-install uninstall compose-image compose-up compose-down compose-demo compose-scale-demo compose-prune

demo: deps
	$(SWIFT) build
	$(BIN)/kclab demo --world Tools/worlds/demo.yaml --state .demo $(if $(KEEP),--keep)

# docs/walkthrough.md from a real run of the demo (a test fails when it is stale).
walkthrough: deps
	$(SWIFT) build
	$(BIN)/kclab demo --world Tools/worlds/demo.yaml --state .demo --markdown docs/walkthrough.md >/dev/null

test: deps lint build
	$(SWIFT) test --skip-build
	Tools/doc-check.sh

# Two PostgreSQL shards, three cloudd replicas over them and a fleet of 1,000 devices for a minute,
# beside the demo lab; the lab goes down afterwards whatever the fleet did (docs/scale.md). The
# devices sync and run no app: a debug build on two cores saturates at about 700 devices setting
# up their app (make bench-scale gives release figures with the app's calls).
scale-demo: deps
	$(SWIFT) build
	$(BIN)/kclab up --state .scale
	$(BIN)/kclab fleet --state .scale --shards 2 --replicas 3 --devices 1000 --seconds 60 --ramp 20 \
	  --calls-per-minute 0 --checks-per-minute 0 --web-credentials-per-minute 0 --json .scale/fleet.json; \
	  status=$$?; $(BIN)/kclab down --state .scale; exit $$status

# One fleet run per fault, each beside the demo lab with a cloud of its own; a run fails when an
# acknowledged write is lost. The lab goes down afterwards whatever the runs did (docs/scale.md).
SCALE_FAULTS := kill-replica@15 restart-shard@15 pause-shard@15 promote-standby@15
scale-faults: deps
	$(SWIFT) build
	$(BIN)/kclab up --state .scale
	status=0; for fault in $(SCALE_FAULTS); do \
	  echo "== $$fault"; \
	  $(BIN)/kclab fleet --state .scale --shards 2 --replicas 3 --devices 500 --seconds 45 --fault $$fault \
	    --json .scale/fault-$${fault%@*}.json || status=1; \
	done; $(BIN)/kclab down --state .scale; exit $$status

# kclab fleet's figures on a release build of its own (.build-release), beside a lab in .bench-scale.
bench-scale: deps
	$(SWIFT) build -c release --scratch-path .build-release
	BIN=.build-release/release Benchmarks/scale/bench-scale.sh

# docs/overlap-demo.svg, the README's picture of the demo world (a test fails when it is stale).
overlap: build
	$(BIN)/kclab world graph Tools/worlds/demo.yaml --svg docs/overlap-demo.svg

# The README's marked command blocks, run as written (Tools/doc-check.sh).
doc-check: deps build
	Tools/doc-check.sh

bench: deps
	@$(MAKE) --no-print-directory APT_PACKAGES="$(BENCH_PACKAGES)" deps
	$(SWIFT) build -c release
	.build/release/keychain-bench --state .bench
	.build/release/association-bench --state .bench-associations
	.build/release/sync-bench --state .bench-sync
	@$(MAKE) --no-print-directory bench-instrumentation

# What keychaind's metrics and audit log cost: lookups with both off, then on, twice each
# (docs/benchmarks.md, "Metrics and audit").
INSTRUMENTATION_BENCH = .build/release/keychain-bench --state .bench --skip-peer --items 1000 --only "direct CopyMatching"
bench-instrumentation: deps
	$(SWIFT) build -c release
	@for round in 1 2; do \
	  echo "round $$round: metrics and audit log off"; METRICS_PORT=off KEYCHAIND_AUDIT=off $(INSTRUMENTATION_BENCH); \
	  echo "round $$round: metrics and audit log on"; $(INSTRUMENTATION_BENCH); \
	done

# How to run keychain-swift's, SwiftKeychainWrapper's and KeychainAccess's own suites against a lab:
# the steps, printed from docs/keychain.md (nothing is fetched; make test runs WrapperPatternTests).
wrappers:
	@awk '/^### Running a wrapper/ { on = 1 } /^## / && on { exit } on' docs/keychain.md

# What kclab test needs at run time, and nothing else (docs/testing-your-package.md's CI recipe):
# PostgreSQL, Chromium, python3-venv and jq serve this repository's own scale and console tests.
TEST_APT_PACKAGES := libssl-dev openssl libsqlite3-dev pkg-config curl nginx

# Installs only what is missing, with sudo when not root.
deps:
	@$(MAKE) --no-print-directory apt-install PACKAGES="$(APT_PACKAGES)"

test-deps:
	@$(MAKE) --no-print-directory apt-install PACKAGES="$(TEST_APT_PACKAGES)"

apt-install:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi; \
	  $$sudo apt-get update -q && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -q --no-install-recommends $$missing; \
	fi

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Services Devices Website Tools Tests Benchmarks Examples

format:
	$(SWIFT) format --in-place --recursive Package.swift Services Devices Website Tools Tests Benchmarks Examples

# Every target of ours treats warnings as errors (Package.swift), so this build is the warnings gate.
build:
	$(SWIFT) build --build-tests

# kclab and the programs it starts, in one folder (kclab finds them beside itself), with kclab on
# PATH and the demo world: make install [PREFIX=/usr/local] [CONFIG=release|debug].
PREFIX ?= /usr/local
CONFIG ?= release
PROGRAMS := $(shell cat Tools/docker/programs)
install: deps install-programs

# What a package's CI needs to run kclab test: make install without the scale and console tests'
# packages (docs/testing-your-package.md).
install-for-tests: test-deps install-programs

install-programs:
	$(SWIFT) build -c $(CONFIG)
	install -d $(DESTDIR)$(PREFIX)/lib/keychainlab $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/keychainlab/worlds
	for program in $(PROGRAMS); do install -m 755 .build/$(CONFIG)/$$program $(DESTDIR)$(PREFIX)/lib/keychainlab/; done
	ln -sf ../lib/keychainlab/kclab $(DESTDIR)$(PREFIX)/bin/kclab
	install -m 644 Tools/worlds/*.yaml $(DESTDIR)$(PREFIX)/share/keychainlab/worlds/
	@echo "installed kclab in $(DESTDIR)$(PREFIX)/bin; the demo world is $(PREFIX)/share/keychainlab/worlds/demo.yaml"

uninstall:
	rm -rf $(DESTDIR)$(PREFIX)/lib/keychainlab $(DESTDIR)$(PREFIX)/share/keychainlab $(DESTDIR)$(PREFIX)/bin/kclab

# kclab linked with --static-swift-stdlib (as the Dockerfile's Swift stage builds it) builds the
# demo world: static Foundation differs from the dynamic one (docs/compose.md). A release build:
# about half an hour on two cores the first time, so not part of make test.
static-check: deps
	$(SWIFT) build -c release --static-swift-stdlib --scratch-path .build-static --product kclab
	rm -rf .build-static/world && KCLAB_BIN_DIR=$(BIN) .build-static/release/kclab world build Tools/worlds/demo.yaml --out .build-static/world
	.build-static/release/kclab bundle verify .build-static/world/apps/com.example.AppOne.app --trust .build-static/world >/dev/null

# Every parser fed mutated inputs, FUZZ_SECONDS each (at most a million inputs); a crash saves
# its input in .fuzz-crashes/ and fails, and so does an input far slower per byte than the
# target's median (the slowest are kept in .fuzz-slow/). Then the complexity check: each parser
# on inputs of N and 8N bytes in every shape, failing when the time grows more than 16 times.
# Optimized, beside static-check's build (docs/reliability.md).
FUZZ_SECONDS ?= 60
fuzz: deps
	$(SWIFT) build -c release --static-swift-stdlib --scratch-path .build-static --product kclab-fuzz
	@mkdir -p .fuzz-crashes
	@.build-static/release/kclab-fuzz --seconds $(FUZZ_SECONDS) --crashes .fuzz-crashes 2>.fuzz-crashes/stderr.log \
	  || { grep -v CFPropertyList .fuzz-crashes/stderr.log | tail -n 20; ls -l .fuzz-crashes .fuzz-slow; exit 1; }
	.build-static/release/kclab-fuzz --complexity 2>/dev/null

# The complexity check alone, on the debug build (minutes, not the release build's half hour).
complexity: deps
	$(SWIFT) build --product kclab-fuzz
	$(BIN)/kclab-fuzz --complexity 2>/dev/null

# The same parsers under libFuzzer, coverage-guided, with AddressSanitizer: FUZZ_SECONDS each, the
# corpus kept in .fuzz-corpus/ between runs (docs/reliability.md). FUZZ_TARGETS picks some.
FUZZ_TARGETS ?=
fuzz-coverage: deps
	$(SWIFT) build --scratch-path .build-fuzz --product kclab-libfuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -DLIBFUZZER
	Tools/fuzz/libfuzzer.sh .build-fuzz/debug/kclab-libfuzzer $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# keychaind killed with SIGKILL DURABILITY_ROUNDS times while 16 writers add items through the call
# channel; fails unless every acknowledged item is there and SQLite's integrity check passes.
DURABILITY_ROUNDS ?= 20
durability: deps
	$(SWIFT) build
	$(BIN)/keychain-bench --durability $(DURABILITY_ROUNDS) --state .durability

# The compose lab (docs/compose.md). DOCKER_BINARIES=swift builds inside the Dockerfile's Swift
# stage (a machine that can pull swift:6.3-bookworm); otherwise the host builds the programs
# (debug, release or static) and the Dockerfile copies them.
DOCKER ?= docker
COMPOSE ?= docker-compose
DOCKER_BINARIES ?= debug
COMPOSE_FLAGS := -p keychainlab
# docker-compose 1.29 gives up on the engine after 60 s, which a loaded machine exceeds.
export COMPOSE_HTTP_TIMEOUT ?= 600
export DOCKER_CLIENT_TIMEOUT ?= 600

compose-image:
	@DOCKER=$(DOCKER) Tools/docker/preflight.sh
	@if [ "$(DOCKER_BINARIES)" = swift ]; then rm -rf .docker; \
	  $(DOCKER) build -t keychainlab:latest .; \
	else \
	  $(MAKE) --no-print-directory deps && Tools/docker/prebuilt-binaries.sh $(DOCKER_BINARIES) && \
	  DOCKER=$(DOCKER) Tools/docker/offline-base-images.sh && \
	  $(DOCKER) build --build-arg BUILD_IMAGE=debian:bookworm-slim -t keychainlab:latest .; \
	fi
	@# The lab image a rebuild replaced (gigabytes with the vfs driver), not the build's cache.
	@$(DOCKER) image prune -f --filter label=org.keychainlab.image=lab >/dev/null
	@root=$$($(DOCKER) info --format '{{.DockerRootDir}}' 2>/dev/null) && [ -d "$$root" ] && \
	  echo "Docker's root folder $$root now takes $$(timeout 120 du -sxh "$$root" 2>/dev/null | cut -f1) on disk (docker system df undercounts the vfs driver)" || true

# Removes the lab's images and the build cache the compose targets keep.
compose-prune:
	$(DOCKER) image rm -f keychainlab:latest 2>/dev/null || true
	$(DOCKER) image prune -f
	$(DOCKER) builder prune -f 2>/dev/null || true

compose-up: compose-image
	$(COMPOSE) $(COMPOSE_FLAGS) up -d
	$(COMPOSE) $(COMPOSE_FLAGS) ps

compose-down:
	$(COMPOSE) $(COMPOSE_FLAGS) down --volumes --remove-orphans

# Brings the lab up, plays the demo against it, and always brings it down; fails if anything did.
compose-demo: compose-image
	@$(COMPOSE) $(COMPOSE_FLAGS) down --volumes --remove-orphans >/dev/null 2>&1 || true
	@status=0; \
	$(COMPOSE) $(COMPOSE_FLAGS) up -d && \
	$(COMPOSE) $(COMPOSE_FLAGS) run --rm kclab || status=$$?; \
	if [ $$status -ne 0 ]; then $(COMPOSE) $(COMPOSE_FLAGS) ps; $(COMPOSE) $(COMPOSE_FLAGS) logs --tail=30; fi; \
	$(COMPOSE) $(COMPOSE_FLAGS) down --volumes --remove-orphans; \
	exit $$status

# The scale lab as containers (docs/scale.md): the compose lab with two PostgreSQL shards and three
# cloudd replicas (docker-compose.scale.yml); plays the demo across the replicas, runs a fleet of
# 1,000 devices for a minute, prints its report, and always brings the lab down.
COMPOSE_SCALE_FLAGS := $(COMPOSE_FLAGS) -f docker-compose.yml -f docker-compose.scale.yml
compose-scale-demo: compose-image
	@$(COMPOSE) $(COMPOSE_SCALE_FLAGS) down --volumes --remove-orphans >/dev/null 2>&1 || true
	@status=0; \
	$(COMPOSE) $(COMPOSE_SCALE_FLAGS) up -d && \
	$(COMPOSE) $(COMPOSE_SCALE_FLAGS) run --rm kclab && \
	$(COMPOSE) $(COMPOSE_SCALE_FLAGS) run --rm fleet || status=$$?; \
	if [ $$status -ne 0 ]; then $(COMPOSE) $(COMPOSE_SCALE_FLAGS) ps; $(COMPOSE) $(COMPOSE_SCALE_FLAGS) logs --tail=30; fi; \
	$(COMPOSE) $(COMPOSE_SCALE_FLAGS) down --volumes --remove-orphans; \
	exit $$status

clean:
	rm -rf .build .build-static .demo .bench .bench-associations .bench-sync .durability .docker .fuzz-crashes .fuzz-corpus .fuzz-slow
