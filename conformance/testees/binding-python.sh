#!/bin/sh
# Conformance testee: the Python binding (bindings/python, ctypes over
# build/lib/libwire.so).
root=$(cd "$(dirname "$0")/../.." && pwd)
export LIBWIRE_PATH="${LIBWIRE_PATH:-$root/build/lib/libwire.so}"
exec python3 "$root/bindings/python/libwire_testee.py" "$@"
