#!/bin/sh
# docker-compose.scale.yml's PostgreSQL shards: Debian's PostgreSQL 15 in the lab image, run as the
# image's unprivileged user (PostgreSQL refuses root) with its files in FOLDER (in the lab volume).
# The first start creates the cluster: role kclab, trusted from loopback and from the lab network's
# own subnet (samenet) only; the port is never published.
#
#   postgres-shard FOLDER
set -eu
folder=${1:?usage: postgres-shard FOLDER}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k4 -n | tail -n 1)
[ -x "$bin/postgres" ] || { echo "postgres-shard: PostgreSQL is not installed in this image" >&2; exit 1; }
if [ ! -s "$folder/PG_VERSION" ]; then
    mkdir -p "$folder"
    chmod 700 "$folder"
    "$bin/initdb" -D "$folder" -U kclab -A trust -E UTF8 --no-instructions >/dev/null
    echo "host all kclab samenet trust" >>"$folder/pg_hba.conf"
    echo "postgres-shard: created a cluster in $folder"
fi
exec "$bin/postgres" -D "$folder" -c listen_addresses='*' -c unix_socket_directories=/tmp -p 5432
