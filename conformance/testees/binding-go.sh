#!/bin/sh
# Conformance testee: the Go binding (bindings/go; cgo compiles libwire's C sources).
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="$root/build/conformance/wire-go-testee"
if [ ! -x "$bin" ]; then
  mkdir -p "$(dirname "$bin")"
  (cd "$root/bindings/go" && go build -o "$bin" ./cmd/wire-go-testee) >&2 || exit 1
fi
exec "$bin" "$@"
