# The two commands: `make run` starts the whole sandbox, `make test` runs every test.
.PHONY: run test build release bench clean setup

SWIFT ?= swift
ARGS ?=
# On macOS, scripts/setup installs the tests' Python packages into .build/python (Homebrew's
# Python takes none); the folder does not exist elsewhere, and then this changes nothing.
# Then the folder of the interpreter `python3` starts, so that the tests' hundreds of Python runs
# start it directly and not through a version manager's shim (pyenv's costs a bash and four more
# processes each time).
PYTHON_BIN := $(shell python3 -c 'import os, sys; print(os.path.dirname(sys.executable))' 2>/dev/null)
export PATH := $(CURDIR)/.build/python/bin:$(if $(PYTHON_BIN),$(PYTHON_BIN):)$(PATH)

setup:
	@scripts/setup

# Builds every executable in release (.build/release/sandbox, tapsim, webhooks, sandbox-host,
# portal-sim, wallet-sim), then starts the whole sandbox.
run: setup
	$(SWIFT) build -c release
	.build/release/sandbox up $(ARGS)

# Builds every product (the loopback suite runs the real executables) and then runs every suite:
# the browser suite (headless Chromium, the heaviest) after the others, so that it does not starve
# the suites that wait on real time on a 2-core machine. At most TEST_WIDTH tests run at once
# (Swift Testing's SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH, which toolchains without it
# ignore): started all together, a thousand tests queue on Swift's two cooperative threads, and a
# test that waits in real time (a BLIK code's 120 s, an SDK's polling) spends it in that queue.
# The browser suite needs a Chromium (scripts/chromium): Debian's on Linux, where its absence
# fails the run; on a Mac without Google Chrome or Chromium it is skipped with a line saying so.
# Each suite's event stream goes to .build/test-events/, and scripts/slowest-tests prints the run's
# length and its ten slowest tests by their own running time after it.
TEST_WIDTH ?= 8
EVENTS = .build/test-events
# A test process that crashes prints the crashed thread's frames last (not every thread's, their
# registers and the loaded images), so the end of a CI log, which is what one gets to read, names
# the code that crashed.
# The suites that run a second time with SANDBOX_TEST_DATABASE=postgres: their hosts and wallets
# keep their state in PostgreSQL (Tests/HostTestSupport/InProcessHost.swift).
POSTGRES_SUITES = ^(HostPaymentTests|LifecycleTests|WalletSimulatorTests|WebhookDeliveryTests|EnvironmentHostTests|MoneiHostTests|GeopagosTests|SandboxTestingTests|TapOnMobileSandboxTests|ConformanceTests|LauncherTests)\.
test: export SWIFT_BACKTRACE = enable=yes,threads=crashed,registers=none,images=none,color=no,interactive=no
test: setup
	$(SWIFT) build --build-tests
	@mkdir -p $(EVENTS)
	SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) $(SWIFT) test --skip-build --skip '^BrowserTests\.' \
		--experimental-event-stream-output $(EVENTS)/main.jsonl --experimental-event-stream-version 0
	@scripts/slowest-tests $(EVENTS)/main.jsonl 10 $(TEST_WIDTH)
	@echo "The route, wallet and sandbox suites again, every host and the wallet on PostgreSQL (a throw-away server):"
	SANDBOX_TEST_DATABASE=postgres SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) $(SWIFT) test --skip-build \
		--filter '$(POSTGRES_SUITES)' --experimental-event-stream-output $(EVENTS)/postgres.jsonl --experimental-event-stream-version 0
	@if chromium=$$(scripts/chromium); then \
		echo "CHROMIUM=$$chromium SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) $(SWIFT) test --skip-build --filter '^BrowserTests\.'"; \
		CHROMIUM="$$chromium" SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) $(SWIFT) test --skip-build --filter '^BrowserTests\.' \
			--experimental-event-stream-output $(EVENTS)/browser.jsonl --experimental-event-stream-version 0 \
			&& scripts/slowest-tests $(EVENTS)/browser.jsonl 10 $(TEST_WIDTH); \
	elif [ "$$(uname -s)" = Darwin ]; then \
		echo "make test: the browser suite (Tests/BrowserTests) was SKIPPED: no Chromium or Google Chrome on this Mac (see above)"; \
	else \
		exit 1; \
	fi

# The conformance suites with 200 generated cases per operation (make test draws 10) and a seed
# schemathesis draws anew each run (make test's is fixed, so it draws the same cases every time):
# a failure's report prints the seed that replays it, SCHEMATHESIS_SEED=<seed> make fuzz. About
# six and a half minutes on 2 cores. SCHEMATHESIS_MAX_EXAMPLES changes the count.
SCHEMATHESIS_MAX_EXAMPLES ?= 200
SCHEMATHESIS_SEED ?= random
.PHONY: fuzz
fuzz: setup
	$(SWIFT) build --build-tests
	SCHEMATHESIS_MAX_EXAMPLES=$(SCHEMATHESIS_MAX_EXAMPLES) SCHEMATHESIS_SEED=$(SCHEMATHESIS_SEED) \
		SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) $(SWIFT) test --skip-build --filter '^ConformanceTests\.'

# Every page of the portal, the wallet, the bank app and the inbox at 1280 px and at 390 px, as
# PNGs in SCREENSHOTS (.build/screenshots/<page>-<width>.png), by the browser test that checks no
# page is wider than its window (which make test runs without drawing them).
SCREENSHOTS ?= .build/screenshots
.PHONY: screenshots
screenshots: setup
	$(SWIFT) build --build-tests
	CHROMIUM="$$(scripts/chromium)" SCREENSHOTS="$(abspath $(SCREENSHOTS))" $(SWIFT) test --skip-build --filter '^BrowserTests\.PageLayoutTests'
	@ls $(SCREENSHOTS)

release: setup
	$(SWIFT) build -c release

# Installs the executables in $(PREFIX)/bin and the folders they read in $(PREFIX)/share/tapsandbox,
# where they find them from any working directory (see any service's --help, FILES).
#   make install PREFIX=$$HOME/.local
PREFIX ?= /usr/local
BIN_DIR ?= .build/release
EXECUTABLES = sandbox sandbox-host portal-sim wallet-sim webhook-inbox tapsim webhooks
.PHONY: install
install: release
	mkdir -p "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/tapsandbox"
	for name in $(EXECUTABLES); do install -m 0755 "$(BIN_DIR)/$$name" "$(DESTDIR)$(PREFIX)/bin/$$name"; done
	for folder in sandbox-data web openapi; do \
		rm -rf "$(DESTDIR)$(PREFIX)/share/tapsandbox/$$folder" && cp -R "$$folder" "$(DESTDIR)$(PREFIX)/share/tapsandbox/"; \
	done

# Every benchmark in turn (several minutes), ending with one table: each figure, its same-run
# reference, the ratio and the aim (bench/all.sh; the outputs stay in .build/bench).
bench: release
	SKIP_BUILD=1 bench/all.sh

clean:
	rm -rf .build .sandbox

# Type-checks the device libraries for iOS 18 (arm64-apple-ios18.0) against a real iOS SDK, with no
# Apple toolchain, then the sample app's sources (Examples/TapToPayDemo.swiftpm) against them.
# ios-typecheck is not in this repository: IOS_TYPECHECK names it (its README sets up the SDK).
# Both runs always happen; the target fails when either found an error.
.PHONY: check-ios
IOS_TYPECHECK ?= ../shared/tools/ios-typecheck/ios-typecheck
IOS_PRODUCTS ?= TapOnMobileSandbox MoneiTapToPay TapOnPartner Payments TapToPayHardware SandboxTesting
check-ios:
	@status=0; \
	$(IOS_TYPECHECK) $(IOS_PRODUCTS) || status=1; \
	TAPSANDBOX_EXAMPLE_APP=1 $(IOS_TYPECHECK) TapToPayDemoCheck || status=1; \
	exit $$status

# Type-checks the server and command-line modules (and what tapsim pulls in) for Darwin, with
# ios-typecheck's iOS SDK standing in for macOS and the C libraries' headers from Debian's -dev
# packages (scripts/check-darwin says what that proves and what not). Errors of the SDK's old Swift
# 5.10 standard library are listed, not counted.
.PHONY: check-darwin
check-darwin:
	@IOS_TYPECHECK="$(IOS_TYPECHECK)" scripts/check-darwin

# Proves the Docker image's runtime stage starts, without a Docker engine (scripts/check-image says
# what it proves and what it cannot): builds the runtime stage's root filesystem from Debian's
# packages with mmdebstrap (the Dockerfile's release and package list; cached in .build/check-image),
# adds the executables built as the build stage builds them, runs the image's CMD as its user in
# its own network, mount and PID namespaces, and checks every port, a tapsim sale and its webhook
# from outside. Downloads packages the first time, so it is not part of `make test`. Needs root.
.PHONY: check-image
check-image:
	@SWIFT="$(SWIFT)" scripts/check-image
