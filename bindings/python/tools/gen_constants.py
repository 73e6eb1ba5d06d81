#!/usr/bin/env python3
"""Writes libwire/_constants.h: every constant of wire.h (enumerators and
numeric #defines) as a {name, value} table that _native.c exports as
libwire._native.CONSTANTS. The values are the header's own macros and
enumerators (the C compiler resolves them), so Python holds no hand copy of
a number; libwire/ids.py derives its names from that table.

    gen_constants.py WIRE_H OUT       # setup.py runs it before compiling
    gen_constants.py WIRE_H OUT --check   # fails if OUT is not up to date
"""
import re
import sys


def names(header_text):
    text = re.sub(r"/\*.*?\*/", "", header_text, flags=re.S)
    out = []
    for block in re.findall(r"\benum\s*\{(.*?)\}", text, re.S):
        for m in re.finditer(r"\b(WIRE_[A-Z0-9_]+)\s*(=|,|$)", block):
            out.append(m.group(1))
    for m in re.finditer(r"^#define\s+(WIRE_[A-Z0-9_]+)\s+(0x[0-9A-Fa-f]+u?|\d+u?)\s*$",
                         text, re.M):
        out.append(m.group(1))
    seen, res = set(), []
    for n in out:
        if n not in seen:
            seen.add(n)
            res.append(n)
    return res


def render(header_text):
    lines = ["/* Generated from wire.h by tools/gen_constants.py; do not edit. */",
             "static const struct { const char *name; long long value; } "
             "wire_constants[] = {"]
    for n in names(header_text):
        lines.append('  {"%s", (long long)(%s)},' % (n, n))
    lines.append("  {0, 0}")
    lines.append("};")
    return "\n".join(lines) + "\n"


def main(argv):
    hdr, out = argv[0], argv[1]
    text = render(open(hdr).read())
    if "--check" in argv:
        try:
            cur = open(out).read()
        except OSError:
            cur = None
        if cur != text:
            sys.stderr.write("gen_constants: %s is not what %s gives\n"
                             % (out, hdr))
            return 1
        return 0
    try:
        if open(out).read() == text:
            return 0
    except OSError:
        pass
    with open(out, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
