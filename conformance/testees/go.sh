#!/bin/sh
# Conformance testee: the Apache Fory Go runtime (github.com/apache/fory/go/fory)
# through the peer in conformance/peers/go.
#   wire conform --testee conformance/testees/go.sh
# Builds build/conformance/go-peer from build/conformance/usertypes-go: a copy
# of the peer with foryc 1.7.7's Go code for every schema set the fixtures
# name (conformance/peers/usertypes; regenerated only when an input changed),
# so that the peer claims the user types. GO_PEER_USERTYPES=0 builds the
# peer alone (built-in value types only). Needs Go; modules come from the Go
# module proxy.
root=$(cd "$(dirname "$0")/../.." && pwd)
src="$root/conformance/peers/go"
bin="$root/build/conformance/go-peer"
mkdir -p "$(dirname "$bin")"
if [ "${GO_PEER_USERTYPES:-1}" != 0 ]; then
  ut="$root/build/conformance/usertypes-go"
  python3 "$root/conformance/peers/usertypes" go --out "$ut" >&2 || exit 1
  if [ ! -x "$bin" ] || [ "$ut/stamp" -nt "$bin" ] || [ -n "$(find "$src" -newer "$bin" -name '*.go' | head -n 1)" ]; then
    (cd "$ut" && go build -o "$bin" .) >&2 || exit 1
  fi
else
  bin="$root/build/conformance/go-peer-plain"
  if [ ! -x "$bin" ] || [ -n "$(find "$src" -newer "$bin" -name '*.go' -o -newer "$bin" -name 'go.*' | head -n 1)" ]; then
    (cd "$src" && go build -o "$bin" .) >&2 || exit 1
  fi
fi
exec "$bin" -root "$root" "$@"
