#!/usr/bin/env python3
"""Rebuilds fixtures/MANIFEST.json: suite version, pinned runtime versions,
and per fixture file its CRC-32 (zlib, of the file bytes) and test count.

    python3 conformance/tools/manifest.py [--check]

--check compares the existing manifest with the files and exits 1 when they
differ (a fixture file edited without rebuilding the manifest)."""

import argparse
import os
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from common import MANIFEST, SUITE_VERSION, dump_json, fixture_files, read_json, rel  # noqa: E402

RUNTIMES = {
    "pyfory": "1.7.7",
    "org.apache.fory:fory-core": "1.6.0 (newest on Maven Central; 1.7.x not published there)",
    "fory-compiler": "1.7.7 (foryc: carriers of fixtures/schemas/idl/)",
    "github.com/apache/fory/go/fory": "v1.6.1 (writer of the exact.go.* payloads in exact.json)",
}


def compute():
    files = []
    totals = {"valid": 0, "invalid": 0}
    for p in fixture_files():
        data = open(p, "rb").read()
        doc = read_json(p)
        n = len(doc["tests"])
        kind = "valid" if rel(p).startswith("fixtures/valid/") else "invalid"
        totals[kind] += n
        files.append({"path": rel(p), "crc32": "%08x" % (zlib.crc32(data) & 0xFFFFFFFF), "tests": n})
    return {"suite": "libwire-conformance", "version": SUITE_VERSION, "runtimes": RUNTIMES, "files": files,
            "totals": totals}


def build():
    m = compute()
    with open(MANIFEST, "w", encoding="utf-8") as f:
        f.write(dump_json(m))
    return m


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    if args.check:
        have = read_json(MANIFEST) if os.path.exists(MANIFEST) else None
        if have != compute():
            print("MANIFEST.json is out of date")
            return 1
        print("MANIFEST.json is up to date")
        return 0
    m = build()
    print("wrote %s: %d files, %d valid, %d invalid" % (rel(MANIFEST), len(m["files"]), m["totals"]["valid"],
                                                         m["totals"]["invalid"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
