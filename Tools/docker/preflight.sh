#!/usr/bin/env bash
# What make compose-image checks before the long build (docs/compose.md, "Before the build"):
#   - every host port docker-compose.yml publishes is free on 127.0.0.1 (each can be moved with
#     its variable, e.g. KCLAB_NGINX_PORT=9443 make compose-demo);
#   - Docker's root folder has room for the image: with the vfs storage driver every layer is a
#     full copy (about 25 GB for this lab, which `docker system df` does not show), with overlay2
#     a few GB.
# Exits 1 naming what to change; COMPOSE_SKIP_PREFLIGHT=1 skips it.
set -euo pipefail
DOCKER=${DOCKER:-docker}
[ "${COMPOSE_SKIP_PREFLIGHT:-0}" = 1 ] && exit 0

failed=0
# The lab itself, still up (make compose-up), holds its ports: they are its to take again.
running=$($DOCKER ps -q --filter label=com.docker.compose.project=keychainlab 2>/dev/null || true)
check_port() {
    [ -n "$running" ] && return 0
    local variable=$1 port=$2
    # A connection that succeeds means something already listens there.
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
        echo "preflight: port $port on 127.0.0.1 is taken; pick another with $variable=PORT" >&2
        failed=1
    fi
}
check_port KCLAB_KEYCHAIND_PORT "${KCLAB_KEYCHAIND_PORT:-7701}"
check_port KCLAB_KEYCHAIND_CALLS_PORT "${KCLAB_KEYCHAIND_CALLS_PORT:-7711}"
check_port KCLAB_NGINX_PORT "${KCLAB_NGINX_PORT:-8443}"
check_port KCLAB_CLOUDD_PORT "${KCLAB_CLOUDD_PORT:-7705}"
check_port KCLAB_ASSOCIATIOND_PORT "${KCLAB_ASSOCIATIOND_PORT:-7702}"
check_port KCLAB_WEBCREDENTIALD_PORT "${KCLAB_WEBCREDENTIALD_PORT:-7703}"

if root=$($DOCKER info --format '{{.DockerRootDir}}' 2>/dev/null) && [ -d "$root" ]; then
    driver=$($DOCKER info --format '{{.Driver}}' 2>/dev/null || echo unknown)
    need_gb=8
    [ "$driver" = vfs ] && need_gb=30
    free_gb=$(df -P -BG "$root" | awk 'NR == 2 { sub("G", "", $4); print $4 }')
    if [ "$free_gb" -lt "$need_gb" ]; then
        echo "preflight: $root has ${free_gb} GB free; the $driver storage driver needs about $need_gb GB for this lab" >&2
        failed=1
    else
        echo "preflight: ports free; $root has ${free_gb} GB free ($driver driver: about $need_gb GB needed)"
    fi
fi
exit $failed
