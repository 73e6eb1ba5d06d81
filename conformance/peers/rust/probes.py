#!/usr/bin/env python3
"""Probe the Rust peer (conformance/peers/probes_common.py says what is shown).

Usage: python3 conformance/peers/rust/probes.py [--md] [--peer CMD]
(default peer: conformance/peers/rust/target/release/fory-rust-peer, built by
`make peers`).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.dirname(HERE))
import probes_common  # noqa: E402

if __name__ == "__main__":
    sys.exit(probes_common.main(sys.argv[1:], os.path.join(ROOT, "conformance", "peers", "rust", "target", "release", "fory-rust-peer")))
