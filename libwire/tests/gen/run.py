#!/usr/bin/env python3
"""Generated C code over the fixtures (`make test`).

1. `wire gen c` runs over every FDL schema in fixtures/schemas (except the
   deliberately broken ones) and each output compiles with
   -std=c11 -Wall -Wextra -Werror (--cc; and, when clang is on PATH and
   --cc is not clang, with clang -fsyntax-only as well).
2. For every valid fixture test whose roots are structs with generated
   code, a C program builds the fixture's values as initializers of the
   generated structs, encodes them with the generated entry points and
   compares the bytes with the fixture's; it then decodes those bytes with
   the generated decoder and encodes the result again (same bytes).
3. Schema evolution: evolve.c reads, with the code generated for
   ../fuzz/fuzz_gen.fdl, the messages the code generated for
   evolve_writer.fdl writes (fields added, removed, widened, narrowed,
   retyped; nested, by pointer, in lists), built as is and with
   -DWIRE_GEN_NO_FALLBACK, and compares with wire_mem_decode.
4. The depth limit: depth.c reads, with the code generated for depth.fdl
   (a struct type on a cycle between bounded ones), chains of nested
   values at every limit around their depth, built both ways, and
   compares with wire_mem_decode.
5. varint32 fields on hostile bytes (varint.c, varint.fdl) and 6. another
   writer's TypeDefs over structs of bounded fields only (mapped.c reads
   what mapped_writer.fdl writes with the code for mapped.fdl: the field
   maps' checked run, in place and from the padded copy), each built as is,
   with -DWIRE_GEN_NO_FALLBACK and, when the machine has BMI2, for
   x86-64-v3, and compared with wire_mem_decode.

Fixtures whose values need a form the generated code does not have (a root
that is not a struct, a union or ext field) are counted and listed, never
passed silently. Exit status 1 on any failure.

usage: run.py --wire build/bin/wire --lib build/lib/libwire.a [--keep DIR]
              [--evolve-seeds DIR]  (3. also writes fuzz_gen_decode seeds)
"""
import argparse
import glob
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
CFLAGS = ["-std=c11", "-Wall", "-Wextra", "-Werror"]


class Unsupported(Exception):
    pass


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, **kw)


def c_program(a, inc, d, exe, sources, extra, args=()):
    """Compiles sources (-I inc and d, the test flags and `extra`) with the
    library into exe and runs it with args: the result of the compile when
    it failed, else of the run."""
    r = run([a.cc] + CFLAGS + ["-Wno-missing-field-initializers"] + extra +
            ["-I" + inc, "-I" + d] + sources + [a.lib, "-lm", "-o", exe])
    if r.returncode == 0:
        r = run([exe] + list(args))
    return r


def parse_header(text):
    """{C type name: [(member type, member name)]} of the generated header."""
    types = {}
    for m in re.finditer(r"(?:typedef )?struct (\w*) ?\{\n(.*?)\n\} ?(\w*);",
                         text, re.S):
        name = m.group(3) or ("struct " + m.group(1))
        if m.group(1):
            name = "struct " + m.group(1)
        members, cases, in_union = [], [], False
        for line in m.group(2).split("\n"):
            line = line.strip()
            if not line or line.startswith("/*"):
                continue
            if line == "union {":
                in_union = True
                continue
            if in_union and line.startswith("}"):
                in_union = False
                members.append(("union", "value"))
                continue
            mm = re.match(r"(.*?)\s*(\w+);$", line)
            if mm:
                (cases if in_union else members).append(
                    (mm.group(1).strip(), mm.group(2)))
        types[name] = members
        if cases:
            # a union: its cases by id ("#define <name>_<case> <id>u")
            short = name[len("struct "):]
            ids = dict((mc.group(1), int(mc.group(2))) for mc in re.finditer(
                r"#define %s_(\w+) (\d+)u" % re.escape(short), text))
            types[name + "#cases"] = dict(
                (ids.get(n.rstrip("_"), ids.get(n)), (t, n)) for t, n in cases)
    return types


def cstr(b):
    out = '"'
    for ch in b:
        if ch in (0x22, 0x5C):
            out += "\\" + chr(ch)
        elif 0x20 <= ch < 0x7F and ch != 0x3F:
            out += chr(ch)
        else:
            out += "\\%03o" % ch
    return out + '"'


INT_T = {"int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t",
         "uint32_t", "uint64_t"}
VALUE_KINDS = {"null", "string", "binary", "enum", "struct", "list", "set", "map",
               "union", "decimal", "date", "timestamp", "duration", "none", "ext"}
SCALARS = {"bool", "int8", "int16", "int32", "varint32", "int64", "varint64",
           "tagged_int64", "uint8", "uint16", "uint32", "var_uint32", "uint64",
           "var_uint64", "tagged_uint64", "float16", "bfloat16", "float32",
           "float64"}


class Gen:
    def __init__(self, types, prefix):
        self.types = types
        self.prefix = prefix
        self.pre = []      # file-scope definitions (anchors)
        self.anchors = {}  # anchor -> variable name
        self.n = 0
        self.encs = set()

    def struct_name(self, fory_type):
        short = fory_type.split(".")[-1]
        cands = [t for t in self.types if t.startswith("struct ") and
                 (t.endswith("_" + short))]
        full = "struct " + self.prefix + "_" + re.sub(r"\W", "_", fory_type)
        if full in self.types:
            return full
        exact = "struct %s_%s" % (self.prefix, short)
        if exact in self.types:
            return exact
        if len(cands) == 1:
            return cands[0]
        raise Unsupported("no C struct for " + fory_type)

    def value(self, ctype, v):
        """C initializer of C type ctype for notation value v."""
        if "ref" in v:
            if ctype.startswith("const struct ") and ctype.endswith("*"):
                name = self.anchors.get(v["ref"])
                if not name:
                    raise Unsupported("reference before its anchor")
                return "&" + name
            raise Unsupported("reference in a slot held by value")
        # the value's kind is its one key that names a kind; the others are
        # notation annotations (anchor, enc, header, name_enc, approx, ...)
        kinds = [(k, x) for k, x in v.items()
                 if k in SCALARS or k.endswith("_array") or k in VALUE_KINDS]
        if len(kinds) != 1:
            raise Unsupported("value with keys %s" % sorted(v))
        (kind, body), = kinds
        if kind == "null":
            if ctype.endswith("*"):
                return "NULL"
            if self.is_seq(ctype) or ctype.endswith("_str") or ctype.endswith("_bytes"):
                return "{0}"
            raise Unsupported("null in a slot without a null form")
        if kind in SCALARS:
            if ctype in ("float", "double"):
                return float_literal(ctype, body)
            if kind == "bool":
                return "1" if body else "0"
            if kind in ("float16", "bfloat16"):
                return body
            if ctype not in INT_T:
                raise Unsupported("%s in a %s" % (kind, ctype))
            if ctype.startswith("u"):
                return "UINT64_C(%s)" % body
            if body == "-9223372036854775808":
                return "INT64_MIN"
            return "INT64_C(%s)" % body
        if kind == "string":
            if not ctype.endswith("_str"):
                raise Unsupported("string in a " + ctype)
            b = body.encode("utf-8")
            return "{%s, %d}" % (cstr(b), len(b))
        if kind == "binary":
            b = bytes.fromhex(body)
            return "{(const uint8_t *)%s, %d}" % (cstr(b), len(b))
        if kind == "enum":
            if ctype != "uint32_t":
                raise Unsupported("enum in a " + ctype)
            return "%du" % body["value"]
        if kind == "struct":
            sname = self.struct_name(body["type"])
            init = self.struct_init(sname, body["fields"])
            if ctype.endswith("*"):
                if "anchor" in v:
                    var = self.anchor_var(v["anchor"], sname)
                    self.pre.append("static %s %s = %s;" % (sname, var, init))
                    return "&" + var
                return "&(%s)%s" % (sname, init)
            if "anchor" in v:
                raise Unsupported("anchored struct held inline")
            if ctype != sname:
                raise Unsupported("struct %s in a %s" % (sname, ctype))
            return init
        if kind == "list" or kind.endswith("_array"):
            if not self.is_seq(ctype):
                raise Unsupported(kind + " in a " + ctype)
            item = self.seq_item(ctype)
            if not body:
                return "{(const void *)empty_, 0}"
            if kind.endswith("_array"):
                elems = [self.value(item, {kind[:-6]: x}) for x in body]
            else:
                elems = [self.item(item, e) for e in body]
            return "{(%s const[]){%s}, %d}" % (item, ", ".join(elems), len(body))
        if kind == "set":
            return self.value(ctype, {"list": body})
        if kind == "union":
            cases = self.types.get(ctype + "#cases")
            if not cases:
                raise Unsupported("union in a " + ctype)
            if body["case"] not in cases:
                raise Unsupported("union case %s without a C member" % body["case"])
            ct, cn = cases[body["case"]]
            return "{.case_id = %du, .value.%s = %s}" % (
                body["case"], cn, self.value(ct, body["value"]))
        if kind == "map":
            if not self.is_seq(ctype):
                raise Unsupported("map in a " + ctype)
            item = self.seq_item(ctype)
            mem = dict((n, t) for t, n in self.types.get(item, []))
            if "key" not in mem:
                raise Unsupported("map in a list")
            elems = []
            for k, x in body:
                parts = []
                for side, val in (("key", k), ("value", x)):
                    if "null" in val and ("has_" + side) in mem:
                        parts.append(".has_%s = 0" % side)
                    else:
                        parts.append(".%s = %s" % (side, self.value(mem[side], val)))
                        if ("has_" + side) in mem:
                            parts.append(".has_%s = 1" % side)
                elems.append("{" + ", ".join(parts) + "}")
            if not elems:
                return "{(const void *)empty_, 0}"
            return "{(%s const[]){%s}, %d}" % (item, ", ".join(elems), len(elems))
        raise Unsupported("no C form for " + kind)

    def item(self, item, e):
        mem = dict((n, t) for t, n in self.types.get(item, []))
        if "has_value" in mem:
            if "null" in e:
                return "{.has_value = 0}"
            return "{.value = %s, .has_value = 1}" % self.value(mem["value"], e)
        return self.value(item, e)

    def is_seq(self, ctype):
        return re.match(r"%s_seq\d+$" % re.escape(self.prefix), ctype) is not None

    def seq_item(self, ctype):
        t = self.types[ctype][0][0]
        t = re.sub(r"\s*const\s*\*$", "", t)
        return t

    def anchor_var(self, anchor, sname):
        var = "anchor_%s" % re.sub(r"\W", "_", anchor)
        self.anchors[anchor] = var
        self.pre.insert(0, "static %s %s;" % (sname, var))
        return var

    def struct_init(self, sname, fields):
        members = self.types[sname]
        names = [n for _, n in members]
        parts = []
        for fname, fv in fields.items():
            if fname not in names and fname + "_" in names:
                fname += "_"  # a C keyword
            if fname not in names:
                raise Unsupported("field %s has no C member" % fname)
            at = names.index(fname)
            ctype = members[at][0]
            # its presence flag follows it: has_<name>, '_' appended while
            # another field has that name
            flag = None
            if at + 1 < len(members) and members[at + 1][0] == "uint8_t" and \
                    members[at + 1][1].rstrip("_") == "has_" + fname.rstrip("_"):
                flag = members[at + 1][1]
            if "null" in fv and flag:
                parts.append(".%s = 0" % flag)
                continue
            parts.append(".%s = %s" % (fname, self.value(ctype, fv)))
            if flag:
                parts.append(".%s = 1" % flag)
        return "{" + ", ".join(parts) + "}"


def float_literal(ctype, bits):
    """A C constant with exactly these float32 / float64 bits."""
    b = int(bits, 16)
    if ctype == "float":
        x = struct.unpack("<f", struct.pack("<I", b))[0]
        suffix = "f"
    else:
        x = struct.unpack("<d", struct.pack("<Q", b))[0]
        suffix = ""
    if math.isnan(x):
        canon = 0x7FC00000 if ctype == "float" else 0x7FF8000000000000
        if b != canon:
            raise Unsupported("a NaN with payload bits")
        return "NAN" if ctype == "float" else "(double)NAN"
    if math.isinf(x):
        return ("-" if x < 0 else "") + ("INFINITY" if ctype == "float" else "(double)INFINITY")
    if x == 0 and math.copysign(1, x) < 0:
        return "-0.0" + suffix
    return float.hex(x) + suffix


def all_ascii(values):
    """Whether every string among the values is ASCII."""
    if isinstance(values, dict):
        if isinstance(values.get("string"), str) and not values["string"].isascii():
            return False
        return all(all_ascii(x) for x in values.values())
    if isinstance(values, list):
        return all(all_ascii(x) for x in values)
    return True


def string_policy(values):
    encs = set()

    def walk(v):
        if isinstance(v, dict):
            if "string" in v:
                encs.add(v.get("enc", "java"))
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
    walk(values)
    if encs == {"utf8"}:
        return "WIRE_STRING_UTF8"
    if encs <= {"java"}:
        return "WIRE_STRING_JAVA"
    raise Unsupported("strings in several encodings")


DRIVER = r"""
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "%(base)s.wire.h"

/* what empty lists and maps point to (NULL is null) */
static const char empty_[1];
const void *fixture_empty_(void);
const void *fixture_empty_(void) { return empty_; }

%(pre)s

%(roots)s

static const char expect_hex[] = "%(hex)s";

static int unhex(uint8_t *out) {
  size_t n = strlen(expect_hex) / 2;
  for (size_t i = 0; i < n; i++) {
    unsigned v;
    if (sscanf(expect_hex + 2 * i, "%%2x", &v) != 1) return -1;
    out[i] = (uint8_t)v;
  }
  return (int)n;
}

static uint8_t arena[1 << 20];

int main(void) {
  wire_ctx *ctx = wire_ctx_new();
  %(prefix)s_wire w;
  if (!ctx) return 2;
  wire_ctx_set_option(ctx, WIRE_OPT_REF_TRACKING, %(ref)d);
  wire_ctx_set_option(ctx, WIRE_OPT_COMPATIBLE, %(compat)d);
  wire_ctx_set_option(ctx, WIRE_OPT_STRING_POLICY, %(policy)s);
  wire_ctx_set_option(ctx, WIRE_OPT_PEER, %(peer)s);
  if (%(prefix)s_register(ctx, &w)) {
    printf("FAIL register: %%s\n", wire_ctx_error_message(ctx));
    return 1;
  }
  static uint8_t expect[1 << 16], got[1 << 16];
  int n = unhex(expect);
  size_t at = 0;
  int bad = 0;
%(encode)s
  if ((size_t)n != at || memcmp(expect, got, at)) {
    printf("FAIL bytes: got ");
    for (size_t i = 0; i < at; i++) printf("%%02x", got[i]);
    printf("\n");
    bad = 1;
  }
  wire_ctx_free(ctx);
  return bad;
}
"""

ENC_ONE = r"""
  {
    const uint8_t *out;
    size_t len;
    if (%(type)s_encode(ctx, &w, &%(var)s, &out, &len)) {
      printf("FAIL encode root %(i)d: %%s\n", wire_ctx_error_message(ctx));
      return 1;
    }
    memcpy(got + at, out, len);
    at += len;
    /* decode it back and encode the result again */
    static %(type)s back;
    size_t used = 0;
    if (%(type)s_decode(ctx, &w, got + at - len, len, &back, arena,
                        sizeof arena, &used, WIRE_MEM_COPY)) {
      printf("FAIL decode root %(i)d: %%s at %%llu\n", wire_ctx_error_message(ctx),
             (unsigned long long)wire_ctx_error_offset(ctx));
      return 1;
    }
    if (%(type)s_encode(ctx, &w, &back, &out, &len) ||
        len != (size_t)(got + at - (got + at - len)) ||
        memcmp(out, got + at - len, len)) {
      printf("FAIL decode root %(i)d: the decoded value encodes differently\n");
      return 1;
    }
  }
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wire", required=True)
    ap.add_argument("--lib", required=True)
    ap.add_argument("--keep")
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    ap.add_argument("--evolve-seeds")
    a = ap.parse_args()
    tmp = a.keep or tempfile.mkdtemp(prefix="wire-gen-")
    os.makedirs(tmp, exist_ok=True)
    inc = os.path.join(ROOT, "libwire", "include")
    failures = []
    # 1. every schema
    schemas = sorted(glob.glob(os.path.join(ROOT, "fixtures/schemas/**/*.fdl"),
                               recursive=True))
    compiled = 0
    noload = []
    sources = []  # the generated .wire.c files that compiled
    for s in schemas:
        rel = os.path.relpath(s, ROOT)
        if "/broken/" in rel:
            continue
        d = os.path.join(tmp, "schemas", rel.replace("/", "_")[:-4])
        os.makedirs(d, exist_ok=True)
        r = run([a.wire, "gen", "c", s, "-o", d])
        if r.returncode != 0:
            if "IDL" in r.stderr or "idl" in r.stderr:
                noload.append((rel, r.stderr.strip()))
                continue
            failures.append("%s: wire gen c: %s" % (rel, r.stderr.strip()))
            continue
        base = os.path.basename(s)[:-4]
        r = run([a.cc] + CFLAGS + ["-I" + inc, "-I" + d, "-c",
                 os.path.join(d, base + ".wire.c"), "-o",
                 os.path.join(d, base + ".o")])
        if r.returncode != 0:
            failures.append("%s: the generated code does not compile:\n%s" %
                            (rel, r.stderr[:2000]))
            continue
        compiled += 1
        sources.append(os.path.join(d, base + ".wire.c"))
    print("gen: %d schemas generated and compiled with %s" %
          (compiled, " ".join(CFLAGS)))
    # ... and with clang too when it is there and not the compiler above
    # (its warnings differ: unused static inline functions, paths that
    # leave a variable unset); syntax only, all files in one call
    clang = shutil.which("clang")
    if clang and sources and "clang" not in os.path.basename(a.cc):
        r = run([clang] + CFLAGS + ["-I" + inc, "-fsyntax-only"] + sources)
        if r.returncode != 0:
            failures.append("the generated code does not compile with clang:\n%s"
                            % r.stderr[:4000])
        else:
            print("gen: the same %d compiled with clang %s -fsyntax-only" %
                  (len(sources), " ".join(CFLAGS)))
    for rel, why in noload:
        print("gen: %s does not load as a schema (%s)" % (rel, why.splitlines()[0]))
    # 2. fixtures
    passed, straight_passed, unsupported = 0, 0, []
    for f in sorted(glob.glob(os.path.join(ROOT, "fixtures/valid/**/*.json"),
                              recursive=True)):
        doc = json.load(open(f))
        for t in doc["tests"]:
            if not t.get("schemas"):
                continue
            name = t["id"]
            try:
                if len(t["schemas"]) != 1:
                    raise Unsupported("several schema files")
                # written in a runtime's dialect: the context says which
                # (WIRE_OPT_PEER); the compiled codecs then write it
                peer = {None: "WIRE_PEER_NONE", "java": "WIRE_PEER_JAVA",
                        "pyfory": "WIRE_PEER_PYFORY", "go": "WIRE_PEER_GO"}.get(
                            t["config"].get("peer"))
                if not peer:
                    raise Unsupported("peer dialect " + t["config"]["peer"])
                schema = os.path.join(ROOT, t["schemas"][0])
                d = os.path.join(tmp, "fixtures", re.sub(r"\W", "_", name))
                os.makedirs(d, exist_ok=True)
                r = run([a.wire, "gen", "c", schema, "-o", d, "--prefix", "fx"])
                if r.returncode != 0:
                    raise Unsupported("schema: " + r.stderr.strip())
                base = os.path.basename(schema)[:-4]
                header = open(os.path.join(d, base + ".wire.h")).read()
                g = Gen(parse_header(header), "fx")
                roots, encs = [], []
                policy = string_policy(t["values"])
                # whether the straight-line codecs alone must handle it: no
                # reference tracking, every root type with straight-line
                # code in the fixture's mode, text they write themselves
                # (UTF-8, or ASCII under the Java policy)
                mode_bit = 2 if t["config"]["compatible"] else 1
                straight = not t["config"]["ref"] and peer == "WIRE_PEER_NONE" and (
                    policy != "WIRE_STRING_JAVA" or all_ascii(t["values"]))
                for i, v in enumerate(t["values"]):
                    if "struct" not in v:
                        raise Unsupported("a root that is not a struct")
                    sname = g.struct_name(v["struct"]["type"])
                    tname = sname[len("struct "):]
                    if "%s_encode(" % tname not in header:
                        raise Unsupported("no code for " + tname)
                    m = re.search(r"#define %s_STRAIGHT (\d+)u" % tname, header)
                    if not m or not int(m.group(1)) & mode_bit:
                        straight = False
                    var = "root%d" % i
                    if "anchor" in v:
                        g.anchors[v["anchor"]] = var
                        roots.insert(0, "static %s %s;" % (sname, var))
                    init = g.struct_init(sname, v["struct"]["fields"])
                    roots.append("static %s %s = %s;" % (sname, var, init))
                    encs.append(ENC_ONE % {"type": tname, "var": var, "i": i})
                src = DRIVER % {"base": base, "pre": "\n".join(g.pre),
                                "roots": "\n".join(roots), "hex": t["bytes"],
                                "prefix": "fx", "ref": int(t["config"]["ref"]),
                                "compat": int(t["config"]["compatible"]),
                                "policy": policy, "peer": peer,
                                "encode": "".join(encs)}
            except Unsupported as e:
                unsupported.append((name, str(e)))
                continue
            main_c = os.path.join(d, "main.c")
            open(main_c, "w").write(src)
            exe = os.path.join(d, "main")
            r = run([a.cc] + CFLAGS + ["-Wno-missing-field-initializers",
                     "-I" + inc, "-I" + d, main_c,
                     os.path.join(d, base + ".wire.c"), a.lib, "-lm", "-o", exe])
            if r.returncode != 0:
                failures.append("%s: the test program does not compile:\n%s" %
                                (name, r.stderr[:3000]))
                continue
            r = run([exe])
            if r.returncode != 0 and peer != "WIRE_PEER_NONE" and \
                    r.stdout.startswith("FAIL bytes"):
                # a runtime's payload keeps choices a fresh writer in its
                # dialect need not make (meta string encodings, list
                # headers, TypeDefs announced again): the document path
                # reproduces those, fresh encodings need not
                unsupported.append((name, "fresh bytes in the %s dialect differ "
                                    "from the runtime's recorded choices" %
                                    t["config"]["peer"]))
                continue
            if r.returncode != 0:
                failures.append("%s: %s (expected %s)" % (name, r.stdout.strip(),
                                                         t["bytes"]))
                continue
            passed += 1
            if not straight:
                continue
            # again with no way out to wire_mem_encode / wire_mem_decode:
            # the straight-line codecs write and read the bytes themselves
            r = run([a.cc] + CFLAGS + ["-Wno-missing-field-initializers",
                     "-DWIRE_GEN_NO_FALLBACK", "-I" + inc, "-I" + d, main_c,
                     os.path.join(d, base + ".wire.c"), a.lib, "-lm", "-o",
                     exe + "_straight"])
            if r.returncode == 0:
                r = run([exe + "_straight"])
            if r.returncode != 0:
                failures.append("%s: straight-line codecs alone: %s%s" % (
                    name, r.stdout.strip(), r.stderr[:2000]))
                continue
            straight_passed += 1
    print("gen: %d fixture tests: the generated code writes the fixture's "
          "bytes and reads them back" % passed)
    print("gen: %d of them also with the straight-line codecs alone (no "
          "fallback to wire_mem_encode / wire_mem_decode)" % straight_passed)
    for name, why in unsupported:
        print("gen: not covered: %s: %s" % (name, why))
    # 3. another writer's TypeDefs
    here = os.path.dirname(os.path.abspath(__file__))
    d = os.path.join(tmp, "evolve")
    os.makedirs(d, exist_ok=True)
    for schema, prefix in ((os.path.join(here, "evolve_writer.fdl"), "fw"),
                           (os.path.join(ROOT, "libwire/tests/fuzz/fuzz_gen.fdl"), "fg")):
        r = run([a.wire, "gen", "c", schema, "-o", d, "--prefix", prefix])
        if r.returncode != 0:
            failures.append("evolve: wire gen c %s: %s" % (schema, r.stderr.strip()))
    for extra in ([], ["-DWIRE_GEN_NO_FALLBACK"]):
        exe = os.path.join(d, "evolve" + ("_straight" if extra else ""))
        r = c_program(a, inc, d, exe, [os.path.join(here, "evolve.c"),
                                       os.path.join(d, "evolve_writer.wire.c"),
                                       os.path.join(d, "fuzz_gen.wire.c")], extra,
                      [a.evolve_seeds] if a.evolve_seeds and not extra else [])
        if r.returncode != 0:
            failures.append("evolve%s: %s%s" % (" (straight-line alone)" if extra else "",
                                               r.stdout.strip(), r.stderr[:2000]))
        else:
            print("gen: evolve%s: another writer's TypeDefs read as wire_mem_decode "
                  "reads them" % (" (straight-line alone)" if extra else ""))
    # 4. the depth limit over a type on a cycle and bounded ones
    d = os.path.join(tmp, "depth")
    os.makedirs(d, exist_ok=True)
    r = run([a.wire, "gen", "c", os.path.join(here, "depth.fdl"), "-o", d, "--prefix", "dp"])
    if r.returncode != 0:
        failures.append("depth: wire gen c: %s" % r.stderr.strip())
    for extra in ([], ["-DWIRE_GEN_NO_FALLBACK"]):
        exe = os.path.join(d, "depth" + ("_straight" if extra else ""))
        r = c_program(a, inc, d, exe, [os.path.join(here, "depth.c"),
                                       os.path.join(d, "depth.wire.c")], extra)
        if r.returncode != 0:
            failures.append("depth%s: %s%s" % (" (straight-line alone)" if extra else "",
                                              r.stdout.strip(), r.stderr[:2000]))
        else:
            print("gen: depth%s: the depth limit as wire_mem_decode applies it"
                  % (" (straight-line alone)" if extra else ""))
    # 5. varint32 fields on hostile bytes, and 6. the field maps' run of
    # bounded fields (another writer's TypeDef), also through the
    # word-at-a-time readers (-march=x86-64-v3) when this machine runs them
    variants = [[], ["-DWIRE_GEN_NO_FALLBACK"]]
    try:
        bmi2 = " bmi2 " in open("/proc/cpuinfo").read().replace("\n", " ")
    except OSError:
        bmi2 = False
    if bmi2:
        variants += [v + ["-march=x86-64-v3"] for v in variants]
    for name, schemas, what in (
            ("varint", (("varint", "vt"),),
             "varint32 fields read as wire_mem_decode reads them"),
            ("mapped", (("mapped", "mr"), ("mapped_writer", "mw")),
             "another writer's bounded fields read as wire_mem_decode reads them")):
        d = os.path.join(tmp, name)
        os.makedirs(d, exist_ok=True)
        for schema, prefix in schemas:
            r = run([a.wire, "gen", "c", os.path.join(here, schema + ".fdl"), "-o", d,
                     "--prefix", prefix])
            if r.returncode != 0:
                failures.append("%s: wire gen c: %s" % (name, r.stderr.strip()))
        for extra in variants:
            exe = os.path.join(d, name + "%d" % variants.index(extra))
            r = c_program(a, inc, d, exe, [os.path.join(here, name + ".c")] +
                          [os.path.join(d, s + ".wire.c") for s, _ in schemas], extra)
            if r.returncode != 0:
                failures.append("%s (%s): %s%s" % (name, " ".join(extra) or "as is",
                                                  r.stdout.strip()[:2000], r.stderr[:2000]))
            else:
                print("gen: %s (%s): %s" % (name, " ".join(extra) or "as is", what))
    for x in failures:
        print("FAIL " + x)
    if not a.keep:
        shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
