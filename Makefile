# The two commands: `make run` starts the whole sandbox, `make test` runs every test.
.PHONY: run test build release bench clean setup

SWIFT ?= swift
ARGS ?=

setup:
	@scripts/setup

# Builds every executable in release (.build/release/sandbox, tapsim, webhooks, sandbox-host,
# portal-sim, wallet-sim), then starts the whole sandbox.
run: setup
	$(SWIFT) build -c release
	.build/release/sandbox up $(ARGS)

# Builds every product (the loopback suite runs the real executables) and then runs every suite:
# the browser suite (headless Chromium, the heaviest) after the others, so that it does not starve
# the suites that wait on real time on a 2-core machine. At most TEST_WIDTH tests run at once:
# started all together, a thousand tests queue on Swift's two cooperative threads, and a test
# that waits in real time (a BLIK code's 120 s, an SDK's polling) spends it in that queue.
TEST_WIDTH ?= 8
test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --skip '^BrowserTests\.' --experimental-maximum-parallelization-width $(TEST_WIDTH)
	$(SWIFT) test --skip-build --filter '^BrowserTests\.' --experimental-maximum-parallelization-width $(TEST_WIDTH)

release: setup
	$(SWIFT) build -c release

# Every benchmark in turn (several minutes); each ends with `name: value` lines.
bench: release
	SKIP_BUILD=1 bench/http.sh
	SKIP_BUILD=1 bench/sale.sh
	SKIP_BUILD=1 bench/apm.sh
	SKIP_BUILD=1 bench/history.sh
	bench/webhooks.sh
	SKIP_BUILD=1 bench/webhook-delivery.sh
	SKIP_BUILD=1 bench/portal.sh

clean:
	rm -rf .build .sandbox

# Type-checks the device libraries for iOS 18 (arm64-apple-ios18.0) against a real iOS SDK, with no
# Apple toolchain, then the sample app's sources (Examples/TapToPayDemo.swiftpm) against them.
# ios-typecheck is not in this repository: IOS_TYPECHECK names it (its README sets up the SDK).
# Both runs always happen; the target fails when either found an error.
.PHONY: check-ios
IOS_TYPECHECK ?= ../shared/tools/ios-typecheck/ios-typecheck
IOS_PRODUCTS ?= TapOnMobileSandbox MoneiTapToPay TapOnPartner Payments TapToPayHardware
check-ios:
	@status=0; \
	$(IOS_TYPECHECK) $(IOS_PRODUCTS) || status=1; \
	TAPSANDBOX_EXAMPLE_APP=1 $(IOS_TYPECHECK) TapToPayDemoCheck || status=1; \
	exit $$status

# Proves the Docker image's runtime stage starts, without a Docker engine (scripts/check-image says
# what it proves and what it cannot): builds the runtime stage's root filesystem from Debian's
# packages with mmdebstrap (the Dockerfile's release and package list; cached in .build/check-image),
# adds the executables built as the build stage builds them, runs the image's CMD as its user in
# its own network, mount and PID namespaces, and checks every port, a tapsim sale and its webhook
# from outside. Downloads packages the first time, so it is not part of `make test`. Needs root.
.PHONY: check-image
check-image:
	@SWIFT="$(SWIFT)" scripts/check-image
