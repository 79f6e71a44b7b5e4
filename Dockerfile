# TapSandbox image: every executable (the services, tapsim and webhooks) plus the data, pages and
# API descriptions they read.
#
#   docker build -t tapsandbox .
#   docker run --rm -p 8100-8114:8100-8114 tapsandbox          # `sandbox up` on 0.0.0.0
#   docker compose up                                           # one container per service
#
# The build stage uses the official Swift image on Debian bookworm, the toolchain the test suite
# runs with; bump SWIFT_IMAGE with it (`make check-image` fails when the two differ, and when the
# runtime stage cannot start the image's command: see scripts/check-image).
ARG SWIFT_IMAGE=swift:6.3.1-bookworm

# ---------------------------------------------------------------------------------------------
FROM ${SWIFT_IMAGE} AS build

# The -dev packages the system-library targets (CMicroHTTPD, CCurl, CSQLite, CPostgres, COpenSSL, CQREncode)
# link against; pkg-config resolves their flags.
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        pkg-config \
        libmicrohttpd-dev \
        libcurl4-openssl-dev \
        libsqlite3-dev \
        libpq-dev \
        libssl-dev \
        libqrencode-dev \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /src
# The manifest names the test targets too, so their folders must exist for it to load.
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests

# The Swift runtime and Foundation are linked statically: the runtime stage needs only the C
# libraries below, not a Swift toolchain. One product at a time: a plain `swift build` would also
# build the test-support library, which imports Testing, a module the static SDK does not have.
RUN mkdir -p /staging/bin \
    && for name in sandbox-host portal-sim wallet-sim webhook-inbox sandbox tapsim webhooks; do \
           swift build -c release --static-swift-stdlib --product "$name" \
           && install -m 0755 "$(swift build -c release --static-swift-stdlib --show-bin-path)/$name" "/staging/bin/$name" \
           || exit 1; \
       done

# ---------------------------------------------------------------------------------------------
FROM debian:bookworm-slim AS runtime

# Runtime halves of the -dev packages above, CA certificates for outgoing HTTPS (webhooks),
# and curl for the compose healthchecks (`curl -fsS http://127.0.0.1:<port>/healthz`).
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        libmicrohttpd12 \
        libcurl4 \
        libsqlite3-0 \
        libpq5 \
        libssl3 \
        libqrencode4 \
        libstdc++6 \
        ca-certificates \
        tzdata \
        curl \
    && rm -rf /var/lib/apt/lists/*

# A fixed, unprivileged user; /data is created before VOLUME so a fresh named volume
# inherits its ownership and the hosts can write their SQLite files there.
RUN groupadd --system --gid 10001 tapsandbox \
    && useradd --system --uid 10001 --gid tapsandbox --home-dir /app --no-create-home \
        --shell /usr/sbin/nologin tapsandbox \
    && mkdir -p /app/bin /data \
    && chown tapsandbox:tapsandbox /data

# One line: Tests/LoopbackTests (ComposeTests) reads the executables compose runs from it.
COPY --from=build /staging/bin/sandbox-host /staging/bin/portal-sim /staging/bin/wallet-sim /staging/bin/webhook-inbox /staging/bin/sandbox /staging/bin/tapsim /staging/bin/webhooks /app/bin/
COPY sandbox-data /app/sandbox-data
COPY web /app/web
COPY openapi /app/openapi

# The executables find sandbox-data, web and openapi through TAPSANDBOX_HOME.
ENV TAPSANDBOX_HOME=/app \
    PATH=/app/bin:$PATH

WORKDIR /app
USER tapsandbox
VOLUME /data

# The `sandbox up` layout: Worldline region i of sandbox-data/environments.json on 8100 + i
# (EU … MBANK: 8100–8108), portal 8109, wallet 8110, webhook inbox 8111, then the other vendors'
# regions: MONEI 8112, PAGBANK 8113, GEOPAGOS 8114.
EXPOSE 8100-8114

# Without a command (`docker run tapsandbox`), the whole sandbox in one container;
# docker-compose.yml runs one service per container instead. The wallet's QR codes carry
# localhost:8110, the published port a browser or Simulator on the docker host opens (the
# container's own address is not reachable from a Mac).
CMD ["sandbox", "up", "--host", "0.0.0.0", "--data-dir", "/data", "--wallet-public-url", "http://localhost:8110"]
