#!/usr/bin/env python3
"""The machine-readable description of libwire's ABI, and the bindings'
coverage of it.

    python3 conformance/abi/abi.py generate   # writes libwire/abi.json
    python3 conformance/abi/abi.py check      # fails on drift

`generate` parses every WIRE_API declaration of libwire/include/wire.h into
libwire/abi.json: name, return type, parameters (type and name), the
section of the header, and the ownership sentence of its comment (or of
the "Ownership:" note above it in its section); and every
WIRE_* constant (enumerators and version macros) with the value the C
compiler gives it. `check` fails when abi.json is not what the header gives
(the header changed without regenerating); when the parse missed a WIRE_API
declaration; when a function that returns a pointer (or stores one through
an argument) does not say who owns it and how long it is valid; when a
declaration rebuilt from abi.json conflicts with the
header (a C translation unit that includes wire.h and declares every function
again from the JSON - the compiler, not this parser, compares the
signatures); when the compiler's value of a constant differs; when abi.json
disagrees with the exported symbols list; or when a binding neither uses a
function nor lists it in its ABI_EXCLUDED file (with a reason) - so a new
function must be bound or explicitly excluded by every binding; and when a
binding's generated copy of the header (Kotlin's WireH.kt, Go's csrc/) has
drifted.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
HEADER = os.path.join(ROOT, "libwire", "include", "wire.h")
ABI = os.path.join(ROOT, "libwire", "abi.json")
SYMBOLS = os.path.join(ROOT, "libwire", "symbols.txt")
# binding: (sources scanned for uses, file extensions, exclusion list)
BINDINGS = {
    "python": ("bindings/python/libwire", (".py", ".c"), "bindings/python/ABI_EXCLUDED"),
    "go": ("bindings/go", (".go", ".c", ".h"), "bindings/go/ABI_EXCLUDED"),
    "kotlin": ("bindings/kotlin/src/main", (".kt", ".java"), "bindings/kotlin/ABI_EXCLUDED"),
}


# Sentences that say who owns returned memory and how long it lives.
OWNERSHIP_WORDS = re.compile(r"\bfree\b|owned|allocated|static storage|valid until|"
                             r"points? into|zero-copy|belongs?|ownership", re.I)
# "/* Ownership: ... */": applies to the declarations below it, to the end
# of the header section, unless a declaration has its own sentence.
NOTE_RE = re.compile(r"/\* (Ownership: .*?)\*/", re.S)


def returns_memory(f):
    """A function that returns a pointer or stores one through an argument."""
    return "*" in f["returns"] or any(p["type"].count("*") >= 2 for p in f["params"])


# Generated copies of the header in the bindings: (what, checker command).
GENERATED = [
    ("kotlin constants (WireH.kt, TypeId, Status)",
     [sys.executable, "bindings/kotlin/scripts/gen_constants.py", "--check"]),
    ("go C sources (csrc/)", ["sh", "bindings/go/sync_csrc.sh", "--check"]),
]


def parse_header():
    text = open(HEADER).read()
    funcs = []
    section = None
    # Walk declarations: comment block (optional) + WIRE_API ... ;
    pos = 0
    decl_re = re.compile(r"^WIRE_API\s+([^;]*?)\b(wire_\w+)\s*\(([^;]*?)\)\s*;", re.S)
    for m in re.finditer(r"/\* Section - ([^*]+?)\s*\*/|" + decl_re.pattern, text, re.S | re.M):
        if m.group(1):
            section = m.group(1).strip()
            continue
        ret = " ".join(m.group(2).split())
        name = m.group(3)
        params = []
        raw = " ".join(m.group(4).split())
        if raw and raw != "void":
            for p in raw.split(","):
                p = p.strip()
                pm = re.match(r"(.*?)(\w+)$", p)
                ptype = " ".join(pm.group(1).replace("*", " * ").split()).replace(" *", "*")
                params.append({"type": ptype.replace("* ", "*"), "name": pm.group(2)})
        # the comment right before the declaration
        start = text.rfind("*/", 0, m.start())
        comment = ""
        if start != -1 and text[start + 2:m.start()].strip() == "":
            cstart = text.rfind("/*", 0, start)
            comment = " ".join(text[cstart + 2:start].replace("*", " ").split())
        owns = ""
        for sent in re.split(r"(?<=\.)\s", comment):
            if OWNERSHIP_WORDS.search(sent):
                owns += (" " if owns else "") + sent
        if not owns:  # the group note above it in the same section
            note = None
            for nm in NOTE_RE.finditer(text, 0, m.start()):
                note = nm
            sec = text.rfind("/* Section - ", 0, m.start())
            if note and note.start() > sec:
                owns = " ".join(note.group(1).replace("*", " ").split())
        funcs.append({"name": name, "returns": ret.replace(" *", "*"),
                      "params": params, "section": section, "ownership": owns})
    return funcs


def constant_names():
    """WIRE_* enumerators and value macros of the header, in order."""
    text = re.sub(r"/\*.*?\*/", " ", open(HEADER).read(), flags=re.S)
    names = re.findall(r"^#define (WIRE_VERSION_[A-Z]+) ", text, re.M)
    for body in re.findall(r"\benum\s*\w*\s*\{(.*?)\}", text, re.S):
        for item in body.split(","):
            m = re.match(r"\s*(WIRE_[A-Z0-9_]+)\b", item)
            if m:
                names.append(m.group(1))
    return names


def compile_and_run(source):
    """Builds a C program against wire.h and returns its standard output."""
    cc = os.environ.get("CC", "cc")
    with tempfile.TemporaryDirectory() as d:
        c = os.path.join(d, "abi_probe.c")
        exe = os.path.join(d, "abi_probe")
        with open(c, "w") as f:
            f.write(source)
        r = subprocess.run([cc, "-std=c11", "-Wall", "-Werror", "-I",
                            os.path.join(ROOT, "libwire", "include"), c, "-o", exe],
                           capture_output=True, text=True)
        if r.returncode != 0:
            return None, r.stderr
        return subprocess.run([exe], capture_output=True, text=True, check=True).stdout, ""


def constants():
    names = constant_names()
    src = "#include <stdio.h>\n#include \"wire.h\"\nint main(void) {\n"
    for n in names:
        src += '  printf("%%s %%lld\\n", "%s", (long long)(%s));\n' % (n, n)
    src += "  return 0;\n}\n"
    out, err = compile_and_run(src)
    if out is None:
        sys.exit("abi: cannot evaluate the constants:\n" + err)
    consts = []
    for line in out.splitlines():
        name, value = line.split()
        consts.append({"name": name, "value": int(value)})
    return consts


def redeclare(funcs):
    """A translation unit that declares every function again from the JSON
    after wire.h: the compiler rejects any signature that differs."""
    src = "#include \"wire.h\"\n"
    for f in funcs:
        params = ", ".join("%s %s" % (p["type"], p["name"]) for p in f["params"]) or "void"
        src += "WIRE_API %s %s(%s);\n" % (f["returns"], f["name"], params)
    src += "int main(void) { return 0; }\n"
    return src


def generate():
    funcs = parse_header()
    with open(ABI, "w") as f:
        json.dump({"library": "libwire", "header": "libwire/include/wire.h",
                   "functions": funcs, "constants": constants()}, f, indent=1)
        f.write("\n")
    print("wrote %s (%d functions)" % (os.path.relpath(ABI, ROOT), len(funcs)))


def check():
    problems = []
    want = {"library": "libwire", "header": "libwire/include/wire.h",
            "functions": parse_header(), "constants": constants()}
    have = json.load(open(ABI))
    if have != want:
        problems.append("libwire/abi.json is stale: run `python3 conformance/abi/abi.py generate`")
    declared = len(re.findall(r"^WIRE_API\b", open(HEADER).read(), re.M))
    if declared != len(want["functions"]):
        problems.append("wire.h has %d WIRE_API declarations, the parser found %d"
                        % (declared, len(want["functions"])))
    out, err = compile_and_run(redeclare(have.get("functions", [])))
    if out is None:
        problems.append("abi.json's signatures conflict with wire.h:\n" + err)
    names = [f["name"] for f in want["functions"]]
    for f in want["functions"]:
        if returns_memory(f) and not f["ownership"]:
            problems.append("%s returns memory or a view, and its comment does not say "
                            "who owns it or how long it is valid" % f["name"])
    symbols = [l.strip() for l in open(SYMBOLS) if l.strip()]
    for n in sorted(set(names) - set(symbols)):
        problems.append("%s is declared in wire.h but not exported" % n)
    for n in sorted(set(symbols) - set(names)):
        problems.append("%s is exported but not declared in wire.h" % n)
    for binding, (d, exts, excl) in BINDINGS.items():
        path = os.path.join(ROOT, d)
        if not os.path.isdir(path):
            problems.append("binding %s: %s is missing" % (binding, d))
            continue
        src = ""
        for dirpath, dirs, files in os.walk(path):
            # bindings/go/csrc: libwire's own sources copied into the Go
            # package (compiled by cgo); they are not uses of the ABI
            dirs[:] = [x for x in dirs if x != "csrc"]
            for fn in files:
                if fn.endswith(exts) and not fn.startswith("lw_"):
                    src += open(os.path.join(dirpath, fn), errors="replace").read()
        excl_file = os.path.join(ROOT, excl)
        excluded = {}
        if os.path.exists(excl_file):
            for line in open(excl_file):
                line = line.split("#", 1)[0].strip()
                if not line:
                    continue
                name, _, reason = line.partition(" ")
                if not reason.strip():
                    problems.append("binding %s: %s is excluded without a reason" % (binding, name))
                excluded[name] = reason.strip()
        used = {n for n in names if re.search(r"\b%s\b" % re.escape(n), src)}
        for n in names:
            if n not in used and n not in excluded:
                problems.append("binding %s neither uses nor excludes %s" % (binding, n))
        for n in sorted(set(excluded) - set(names)):
            problems.append("binding %s excludes %s, which is not in the ABI" % (binding, n))
        print("binding %-7s uses %3d, excludes %3d of %d functions"
              % (binding, len(used), len(set(excluded) & set(names)), len(names)))
    # The bindings' copies of the header's constants are generated; their
    # generators fail on drift. (Go reads C.WIRE_* through cgo from its copy
    # of the sources; Python's extension generates its table at build time
    # and its tests compare it with the header.)
    for what, cmd in GENERATED:
        r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        if r.returncode != 0:
            problems.append("%s: %s" % (what, (r.stderr or r.stdout).strip()))
        else:
            print("generated %-26s in sync with wire.h" % what)
    for p in problems:
        print("abi-check: " + p)
    print("abi-check: %d problem(s)" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in ("generate", "check"):
        print(__doc__)
        sys.exit(2)
    sys.exit(generate() if sys.argv[1] == "generate" else check())
