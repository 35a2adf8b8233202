# KeychainLab: the two commands the README starts with, and the steps behind them.
#
#   make demo    bring the demo world up, play the seeds' stories, bring it down
#   make test    install what is missing, lint, build without warnings, run every test
#   make bench   measure keychaind (release build) against gnome-keyring, and AASA validation
#                against curl + openssl; see docs/benchmarks.md

SWIFT ?= swift
# Debian packages the build and the tests need: OpenSSL (CMS, and the openssl command the seeds
# use), SQLite for the stores, pkg-config to find them, curl for the transport tests, nginx for
# the website fixture, python3 for the independent HTTPS server of the association tests.
APT_PACKAGES := libssl-dev openssl libsqlite3-dev pkg-config curl nginx python3
BIN := .build/debug

# The Linux peer the benchmark compares with: gnome-keyring's Secret Service through libsecret.
BENCH_PACKAGES := gnome-keyring libsecret-1-0 gir1.2-secret-1 python3-gi dbus

.PHONY: demo test bench deps lint format build clean

demo: deps
	$(SWIFT) build
	$(BIN)/kclab demo --world Tools/worlds/demo.yaml --state .demo

test: deps lint build
	$(SWIFT) test --skip-build

bench: deps
	@$(MAKE) --no-print-directory APT_PACKAGES="$(BENCH_PACKAGES)" deps
	$(SWIFT) build -c release
	.build/release/keychain-bench --state .bench
	.build/release/association-bench --state .bench-associations

# Installs only what is missing, with sudo when not root.
deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi; \
	  $$sudo apt-get update -q && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -q --no-install-recommends $$missing; \
	fi

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Services Devices Website Tools Tests Benchmarks

format:
	$(SWIFT) format --in-place --recursive Package.swift Services Devices Website Tools Tests Benchmarks

# Every target of ours treats warnings as errors (Package.swift), so this build is the warnings gate.
build:
	$(SWIFT) build --build-tests

clean:
	rm -rf .build .demo .bench .bench-associations
