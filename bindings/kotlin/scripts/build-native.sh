#!/bin/sh
# Builds libwire (make lib in the repository root) and copies libwire.so into
# the jar's resources: $1/dev/libwire/kotlin/native/linux-x86_64/libwire.so.
# Run by Maven (exec-maven-plugin, phase generate-resources); `make` keeps it
# incremental, so an up-to-date build/ costs nothing.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:?usage: build-native.sh OUTPUT_DIR}
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) plat=linux-x86_64 ;;
  *) echo "build-native.sh: only linux-x86_64 is packaged (this is $(uname -s)-$(uname -m))" >&2; exit 1 ;;
esac
make -C "$root" -s lib >&2
# the generated constants must match wire.h (scripts/gen_constants.py)
if command -v python3 >/dev/null; then python3 "$here/scripts/gen_constants.py" --check; fi
mkdir -p "$out/dev/libwire/kotlin/native/$plat"
cp -L "$root/build/lib/libwire.so" "$out/dev/libwire/kotlin/native/$plat/libwire.so"
# debug info stays in build/; the jar carries the stripped library
command -v strip >/dev/null && strip --strip-debug "$out/dev/libwire/kotlin/native/$plat/libwire.so"
