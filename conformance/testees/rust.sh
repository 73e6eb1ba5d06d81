#!/bin/sh
# Conformance testee: the Apache Fory Rust runtime (the `fory` crate) through
# the peer in conformance/peers/rust.
#   wire conform --testee conformance/testees/rust.sh
# The peer is built with foryc 1.7.7's Rust code for every schema set the
# fixtures name and its glue (conformance/peers/usertypes rust: generated
# into build/conformance/usertypes-rust, compiled by cargo into
# build/conformance/rust-target; skipped when nothing changed), so that it
# claims the user types. RUST_PEER_USERTYPES=0 builds and runs the peer alone
# (conformance/peers/rust/target; built-in value types only).
root=$(cd "$(dirname "$0")/../.." && pwd)
src="$root/conformance/peers/rust"
if [ "${RUST_PEER_USERTYPES:-1}" != 0 ]; then
  python3 "$root/conformance/peers/usertypes" rust >&2 || exit 1
  exec "$root/build/conformance/rust-target/usertypes/fory-rust-peer" --root "$root" "$@"
fi
bin="$src/target/release/fory-rust-peer"
if [ ! -x "$bin" ]; then
  cargo build -q --release --manifest-path "$src/Cargo.toml" >&2 || exit 1
fi
exec "$bin" --root "$root" "$@"
