# KeychainLab in containers: one image holding every daemon, the device, the apps, the website and
# kclab; docker-compose.yml runs one service per process (docs/compose.md).
#
# Build arguments:
#   BUILD_IMAGE    the build stage's base: a Swift 6.3 toolchain image (default swift:6.3-bookworm)
#   RUNTIME_IMAGE  the runtime stage's base (default debian:bookworm-slim)
# When .docker/bin/kclab is in the context (Tools/docker/prebuilt-binaries.sh puts host-built
# binaries there, with the Swift runtime libraries they link in .docker/lib), the build stage
# copies them instead of compiling; any image with a shell then serves as BUILD_IMAGE.
ARG BUILD_IMAGE=swift:6.3-bookworm
ARG RUNTIME_IMAGE=debian:bookworm-slim

FROM ${BUILD_IMAGE} AS build
WORKDIR /src
COPY . .
RUN set -e; mkdir -p /out/bin /out/lib; \
    if [ -x .docker/bin/kclab ]; then \
        cp -a .docker/bin/. /out/bin/; \
        if [ -d .docker/lib ]; then cp -a .docker/lib/. /out/lib/; fi; \
    else \
        apt-get update -q && apt-get install -y -q --no-install-recommends libssl-dev libsqlite3-dev pkg-config binutils; \
        swift build -c release --static-swift-stdlib; \
        for program in $(cat Tools/docker/programs); do \
            cp .build/release/$program /out/bin/ && strip /out/bin/$program; \
        done; \
    fi

FROM ${RUNTIME_IMAGE}
# make compose-image prunes the lab images a rebuild replaced by this label, and keeps the cache.
LABEL org.keychainlab.image=lab
# openssl: world building runs it; nginx: the websites; bash: the health checks; postgresql-15:
# docker-compose.scale.yml's shards (postgres-shard).
RUN apt-get update -q \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        libssl3 openssl libsqlite3-0 zlib1g libstdc++6 libgcc-s1 ca-certificates nginx bash postgresql-15 \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 1000 --create-home --home-dir /home/keychainlab keychainlab \
    && mkdir -p /lab && chown keychainlab:keychainlab /lab
COPY --from=build /out/lib/ /usr/lib/swift/linux/
COPY --from=build /out/bin/ /opt/keychainlab/bin/
COPY Tools/worlds/ /opt/keychainlab/worlds/
COPY Tools/docker/postgres-shard.sh /opt/keychainlab/bin/postgres-shard
RUN echo /usr/lib/swift/linux > /etc/ld.so.conf.d/swift.conf && ldconfig
ENV PATH=/opt/keychainlab/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LOG_LEVEL=info
USER keychainlab
WORKDIR /lab
VOLUME /lab
CMD ["kclab", "--help"]
