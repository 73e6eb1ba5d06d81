#!/bin/sh
# Conformance testee: the Apache Fory Go runtime (github.com/apache/fory/go/fory)
# through the peer in conformance/peers/go.
#   wire conform --testee conformance/testees/go.sh
# Builds the peer into build/conformance/go-peer when it is missing or older
# than its sources (needs Go; modules come from the Go module proxy).
root=$(cd "$(dirname "$0")/../.." && pwd)
src="$root/conformance/peers/go"
bin="$root/build/conformance/go-peer"
if [ ! -x "$bin" ] || [ -n "$(find "$src" -newer "$bin" -name '*.go' -o -newer "$bin" -name 'go.*' | head -n 1)" ]; then
  mkdir -p "$(dirname "$bin")"
  (cd "$src" && go build -o "$bin" .) >&2 || exit 1
fi
exec "$bin" "$@"
