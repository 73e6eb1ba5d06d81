#!/usr/bin/env python3
"""Regenerates the seed corpora of fuzz_schema and fuzz_fdl from fixtures/.

corpus_schema/: one mode byte + payload (see fuzz_schema.c). From every
fixtures/xlang-corpus/<case>.json, the pyfory and Java buffers (hex-decoded;
one file when they are equal):
  <case>.<runtime>.bin          with the writer's schema, in the case's mode
                                (compatible / schema-consistent, ref);
  <case>.<runtime>.reader.bin   with the reader's schema (evolution cases);
  <case>.<runtime>.noschema.bin compatible cases, without a schema.
Plus corpus/*.bin (fuzz_decode's seeds) with mode byte 0 (no schema).
corpus_fdl/: every fixtures/schemas/**/*.fdl, named by its path.

Usage: python3 libwire/tests/fuzz/gen_seeds.py
"""
import glob
import json
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))


def schema_slots():
    with open(os.path.join(HERE, "schemas.txt")) as fh:
        paths = [l.strip() for l in fh if l.strip() and not l.startswith("#")]
    if len(paths) + 1 > 64:
        raise SystemExit("schemas.txt: at most 63 schemas fit the mode byte")
    return {p: i + 1 for i, p in enumerate(paths)}


def mode_byte(slot, compatible, ref):
    return bytes([(slot << 2) | (2 if ref else 0) | (1 if compatible else 0)])


def fresh(d):
    if os.path.isdir(d):
        shutil.rmtree(d)
    os.makedirs(d)


def main():
    slots = schema_slots()
    out = os.path.join(HERE, "corpus_schema")
    fresh(out)
    n = 0
    for path in sorted(glob.glob(os.path.join(ROOT, "fixtures", "xlang-corpus",
                                              "*.json"))):
        case = json.load(open(path))
        compatible = case["mode"] == "compatible"
        ref = bool(case.get("ref"))
        bufs = {}
        for rt in ("pyfory", "java"):
            h = case.get(rt + "_hex")
            if h and bytes.fromhex(h) not in bufs.values():
                bufs[rt] = bytes.fromhex(h)
        variants = [("", slots[case["schema"]])]
        if case.get("reader_schema"):
            variants.append((".reader", slots[case["reader_schema"]]))
        if compatible:
            variants.append((".noschema", 0))
        for rt, payload in bufs.items():
            for suffix, slot in variants:
                name = f"{case['case']}.{rt}{suffix}.bin"
                with open(os.path.join(out, name), "wb") as fh:
                    fh.write(mode_byte(slot, compatible, ref) + payload)
                n += 1
    for path in sorted(glob.glob(os.path.join(HERE, "corpus", "*.bin"))):
        with open(path, "rb") as fh:
            payload = fh.read()
        name = "plain." + os.path.basename(path)
        with open(os.path.join(out, name), "wb") as fh:
            fh.write(mode_byte(0, False, False) + payload)
        n += 1
    print(f"corpus_schema: {n} seeds")

    out = os.path.join(HERE, "corpus_fdl")
    fresh(out)
    base = os.path.join(ROOT, "fixtures", "schemas")
    files = sorted(glob.glob(os.path.join(base, "**", "*.fdl"), recursive=True))
    for path in files:
        rel = os.path.relpath(path, base).replace(os.sep, "__")
        shutil.copyfile(path, os.path.join(out, rel))
    print(f"corpus_fdl: {len(files)} seeds")


if __name__ == "__main__":
    main()
