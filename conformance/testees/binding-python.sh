#!/bin/sh
# Conformance testee: the Python binding (bindings/python, its C extension
# built in place by `make python-ext`; the node-level API loads libwire from
# that extension).
root=$(cd "$(dirname "$0")/../.." && pwd)
exec python3 "$root/bindings/python/libwire_testee.py" "$@"
