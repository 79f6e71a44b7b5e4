# The two commands: `make run` starts the whole sandbox, `make test` runs every test.
.PHONY: run test build release bench clean setup

SWIFT ?= swift
ARGS ?=

setup:
	@scripts/setup

run: setup
	$(SWIFT) build -c release --product sandbox
	.build/release/sandbox up $(ARGS)

# Builds every product (the loopback suite runs the real executables) and then runs every suite.
test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

release: setup
	$(SWIFT) build -c release

bench: release
	bench/http.sh

clean:
	rm -rf .build .sandbox
