#!/bin/sh
# Conformance testee: the real pyfory runtime (PyPI) through the peer adapter
# conformance/peers/python/pyfory_peer.py (needs `pip install pyfory`).
#   wire conform --testee conformance/testees/pyfory.sh
# Extra arguments go to the peer (--no-pin, --no-isolate, --timeout S).
# The peer claims the built-in value types and, through classes that foryc
# generates from a request's "schemas", structs, enums, unions, named types,
# TypeDefs and projection (see conformance/peers/python/README.md).
root=$(cd "$(dirname "$0")/../.." && pwd)
# Python randomizes string hashes per process, and pyfory decodes a set into
# a Python set: a fixed seed keeps the (non-wire) element order, and so the
# results, the same from run to run.
PYTHONHASHSEED=${PYTHONHASHSEED:-0}
export PYTHONHASHSEED
exec python3 "$root/conformance/peers/python/pyfory_peer.py" "$@"
