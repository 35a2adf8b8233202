#!/bin/sh
# Builds KeychainLab on the host and stages its programs in .docker/ for the Dockerfile's build
# stage, for machines that cannot pull the Swift image (docs/compose.md). The programs are
# stripped; a build that links Swift's runtime dynamically also stages the runtime libraries
# they need from the toolchain in .docker/lib.
#
#   Tools/docker/prebuilt-binaries.sh [debug|release|static]    (default: debug)
set -eu
config=${1:-debug}
swift=${SWIFT:-swift}
case "$config" in
  debug) $swift build --product kclab >/dev/null; $swift build; products=.build/debug ;;
  # The release build make bench-scale keeps in .build-release, so neither builds it twice.
  release) $swift build -c release --scratch-path .build-release; products=.build-release/release ;;
  static) $swift build -c release --static-swift-stdlib; products=.build/release ;;
  *) echo "usage: $0 [debug|release|static]" >&2; exit 2 ;;
esac
rm -rf .docker
mkdir -p .docker/bin .docker/lib
for program in $(cat Tools/docker/programs); do
  cp "$products/$program" .docker/bin/
  strip .docker/bin/"$program"
done
# The toolchain's libraries the programs link (none for a static build).
toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v "$swift")")")")
for program in .docker/bin/*; do ldd "$program"; done | awk '{print $3}' | sort -u | while read -r library; do
  case "$library" in "$toolchain"/*) cp -L "$library" .docker/lib/ ;; esac
done
echo "staged $(ls .docker/bin | wc -l) programs and $(ls .docker/lib | wc -l) runtime libraries in .docker ($(du -sh .docker | cut -f1))"
