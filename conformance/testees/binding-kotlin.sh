#!/bin/sh
# Conformance testee: the Kotlin binding (bindings/kotlin, Java FFM).
root=$(cd "$(dirname "$0")/../.." && pwd)
exec sh "$root/bindings/kotlin/testee.sh" "$@"
