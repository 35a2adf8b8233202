#!/bin/sh
# Makes debian:bookworm-slim with debootstrap and imports it, for a Docker engine that cannot pull
# from a registry. make compose-image calls it only when the image is missing; on a machine that
# can pull, Docker pulls the image as usual and this never runs.
set -eu
image=${RUNTIME_IMAGE:-debian:bookworm-slim}
docker=${DOCKER:-docker}
if $docker image inspect "$image" >/dev/null 2>&1; then exit 0; fi
if $docker pull "$image" >/dev/null 2>&1; then exit 0; fi
command -v debootstrap >/dev/null || { echo "error: $image cannot be pulled and debootstrap is not installed (apt-get install debootstrap)" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "error: debootstrap needs root to make $image" >&2; exit 1; }
# The mirror apt already uses (deb822 or one-line sources), else Debian's own.
mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null \
  | grep -vE '^[[:space:]]*#' | grep -oE 'https?://[^ ]+/debian/?( |$)' | grep -v security | head -n 1 | tr -d ' ' || true)
mirror=${mirror:-http://deb.debian.org/debian}
root=$(mktemp -d)
# mktemp's folder is 0700: as the image's / it would shut every user but root out.
chmod 755 "$root"
trap 'rm -rf "$root"' EXIT
echo "making $image with debootstrap from $mirror (about a minute)"
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.log" 2>&1 || { tail -n 20 "$root.log" >&2; exit 1; }
cat > "$root/etc/apt/sources.list" <<SOURCES
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb ${mirror%/debian*}/debian-security bookworm-security main
SOURCES
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
tar -C "$root" -c . | $docker import --change 'CMD ["bash"]' - "$image" >/dev/null
echo "imported $image"
