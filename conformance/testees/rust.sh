#!/bin/sh
# Conformance testee: the Apache Fory Rust runtime (the `fory` crate) through
# the peer in conformance/peers/rust.
#   wire conform --testee conformance/testees/rust.sh
# Builds the peer (cargo build --release) only when the binary is missing:
# after changing the peer, rebuild it with
#   cargo build --release --manifest-path conformance/peers/rust/Cargo.toml
root=$(cd "$(dirname "$0")/../.." && pwd)
src="$root/conformance/peers/rust"
bin="$src/target/release/fory-rust-peer"
if [ ! -x "$bin" ]; then
  cargo build -q --release --manifest-path "$src/Cargo.toml" >&2 || exit 1
fi
exec "$bin" "$@"
