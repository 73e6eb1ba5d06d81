"""What the Java, Go and Rust peers need to run the fixtures' user types:
the schema sets the fixtures use, foryc's classes for each, and a
language-neutral description of every type.

A *unit* is one set of schema files that some test names in its "schemas"
(or a reader's "schemas"): foryc 1.7.7 (fory-compiler from PyPI, run in
process) compiles the set and its imports into one directory per unit, so
that the same type name in two schemas never clashes. The description of a
unit ("types") comes from foryc's own reading of the files (its parser),
except the order of struct fields: that is the wire order of the schema
(spec R-FORDER, computed by libwire: wire_schema_field_order), because a
decoded Java, Go or Rust object has no field order of its own and the
notation lists fields in wire order (spec/notation.md N-7.2). The runtime's
own order shows in the bytes it writes.

Type descriptors (the "type" of a field, an element, a union case):
  a notation scalar key: "bool", "int8", "varint32", "int32", ..., "string",
      "binary", "date", "timestamp", "duration", "decimal", or "any";
  {"list": D}, {"map": [K, V]}, {"array": "<elem>_array"};
  {"struct": name}, {"enum": name}, {"union": name}  (notation type names).
"""

import contextlib
import ctypes
import glob
import hashlib
import io
import json
import os
import re
import warnings

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
FIXTURES = os.path.join(ROOT, "fixtures")

# FDL integer kind -> {encoding modifier: notation key} (spec/06-fdl.md R-FDL-8)
_INT_KEYS = {
    "int32": {None: "varint32", "varint": "varint32", "fixed": "int32"},
    "int64": {None: "varint64", "varint": "varint64", "fixed": "int64", "tagged": "tagged_int64"},
    "uint32": {None: "var_uint32", "varint": "var_uint32", "fixed": "uint32"},
    "uint64": {None: "var_uint64", "varint": "var_uint64", "fixed": "uint64", "tagged": "tagged_uint64"},
}


def schema_sets(fixtures=FIXTURES):
    """Every distinct list of schema paths (as the fixtures spell them,
    relative to the repository) that a test or a reader names, sorted."""
    sets = set()
    for path in glob.glob(os.path.join(fixtures, "**", "*.json"), recursive=True):
        try:
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError):
            continue
        if not isinstance(doc, dict) or not isinstance(doc.get("tests"), list):
            continue
        for t in doc["tests"]:
            if t.get("schemas"):
                sets.add(tuple(t["schemas"]))
            for r in t.get("readers") or []:
                if r.get("schemas"):
                    sets.add(tuple(r["schemas"]))
    return sorted(sets)


def unit_key(schemas):
    """The key a peer looks a request's schemas up by."""
    return "\n".join(schemas)


def unit_name(schemas, taken):
    parts = []
    for p in schemas:
        d = os.path.basename(os.path.dirname(p))
        stem = os.path.basename(p)
        stem = stem[:-4] if stem.endswith(".fdl") else stem
        parts.append(re.sub(r"[^A-Za-z0-9]", "_", d + "_" + stem))
    name = "u_" + "__".join(parts)
    if len(name) > 80:
        name = "u_" + hashlib.sha1(unit_key(schemas).encode()).hexdigest()[:16]
    base, n = name, 2
    while name in taken:
        name = "%s_%d" % (base, n)
        n += 1
    taken.add(name)
    return name


def closure(schemas):
    """The schema files and every file they import (import paths relative
    to the importing file), each once, imports first."""
    seen, out = set(), []

    def visit(p):
        p = os.path.normpath(p)
        if p in seen:
            return
        seen.add(p)
        try:
            text = open(p, encoding="utf-8").read()
        except OSError:
            out.append(p)
            return
        for imp in re.findall(r'^\s*import\s+"([^"]+)"\s*;', text, re.M):
            visit(os.path.join(os.path.dirname(p), imp))
        out.append(p)

    for p in schemas:
        visit(p if os.path.isabs(p) else os.path.join(ROOT, p))
    return out


def has_option(path, name):
    try:
        text = open(path, encoding="utf-8").read()
    except OSError:
        return False
    return re.search(r"^\s*option\s+%s\s*=\s*true\s*;" % re.escape(name), text, re.M) is not None


def run_foryc(flags, schemas):
    """Runs foryc (in this process) with flags (["--java_out", dir, ...])
    on the schema files; returns None or foryc's error text."""
    from fory_compiler.cli import main as foryc_main

    files = [p if os.path.isabs(p) else os.path.join(ROOT, p) for p in schemas]
    incs = sorted({os.path.dirname(p) for p in files})
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            rc = foryc_main(list(flags) + ["-I" + d for d in incs] + files)
        except SystemExit as e:
            rc = e.code if isinstance(e.code, int) else 1
        except Exception as e:  # noqa: BLE001 - foryc's own failure
            err.write("Error: %s: %s\n" % (type(e).__name__, e))
            rc = 1
    if rc == 0:
        return None
    text = (err.getvalue() + out.getvalue()).replace(ROOT + os.sep, "")
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    errs = [ln for ln in lines if "rror" in ln] or lines[-1:]
    return "foryc 1.7.7 rejects %s: %s" % (", ".join(schemas), " ".join(errs)[:400])


def compile_unit(u, lang, tmp, manifest, extra, error=None):
    """Starts the manifest entry of unit u (with the empty `extra` fields)
    and runs foryc's --<lang>_out on it into tmp/<unit>; returns the output
    directory, or None when the unit has an error (then in the entry)."""
    entry = {k: u[k] for k in ("name", "key", "schemas", "error")}
    entry.update({k: (v.copy() if isinstance(v, (list, dict)) else v) for k, v in extra.items()})
    manifest.append(entry)
    if error:
        entry["error"] = error
    if entry["error"]:
        return entry, None
    gen = os.path.join(tmp, u["name"])
    err = run_foryc(["--%s_out" % lang, gen], u["schemas"])
    if err:
        entry["error"] = err
        return entry, None
    return entry, gen


# -- descriptions --------------------------------------------------------------

class _Libwire:
    """libwire through ctypes, for the wire order of struct fields."""

    def __init__(self, path):
        lib = ctypes.CDLL(path)
        P, u32, i32, sz = ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int32, ctypes.c_size_t
        sig = {
            "wire_ctx_new": (P, []),
            "wire_ctx_free": (None, [P]),
            "wire_schema_load_fdl_file": (i32, [P, ctypes.c_char_p]),
            "wire_schema_add_import_dir": (i32, [P, ctypes.c_char_p]),
            "wire_schema_finish": (i32, [P]),
            "wire_schema_find_type": (i32, [P, ctypes.c_char_p, sz, ctypes.POINTER(u32)]),
            "wire_schema_field_order": (i32, [P, u32, ctypes.POINTER(u32), sz, ctypes.POINTER(sz)]),
        }
        for name, (res, args) in sig.items():
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = res, args
        self.lib = lib

    def field_orders(self, files, structs):
        """{struct name: [declaration index, ...] in wire order} for the
        structs libwire can place; {} if libwire cannot load the files."""
        lib = self.lib
        ctx = lib.wire_ctx_new()
        out = {}
        try:
            for d in sorted({os.path.dirname(p) for p in files}):
                lib.wire_schema_add_import_dir(ctx, d.encode())
            for p in files:
                if lib.wire_schema_load_fdl_file(ctx, p.encode()) != 0:
                    return {}
            lib.wire_schema_finish(ctx)
            for name in structs:
                ti = ctypes.c_uint32()
                b = name.encode()
                if lib.wire_schema_find_type(ctx, b, len(b), ctypes.byref(ti)) != 0:
                    continue
                n = ctypes.c_size_t()
                lib.wire_schema_field_order(ctx, ti.value, None, 0, ctypes.byref(n))
                arr = (ctypes.c_uint32 * max(n.value, 1))()
                if lib.wire_schema_field_order(ctx, ti.value, arr, n.value, ctypes.byref(n)) != 0:
                    continue
                out[name] = list(arr[:n.value])
        finally:
            lib.wire_ctx_free(ctx)
        return out


def snake(name):
    """snake_case of a declared field name (spec/05-user-types.md R-FNAME-1)."""
    out = ""
    for i, c in enumerate(name):
        if "A" <= c <= "Z":
            prev_lower = i > 0 and (name[i - 1].islower() or name[i - 1].isdigit())
            prev_upper = i > 0 and "A" <= name[i - 1] <= "Z"
            next_lower = i + 1 < len(name) and "a" <= name[i + 1] <= "z"
            if out and not out.endswith("_") and (prev_lower or (prev_upper and next_lower)):
                out += "_"
            out += c.lower()
        else:
            out += c
    return out


def describe(files, libwire=None):
    """{notation type name: description} of every type of the files (foryc's
    parser), struct fields in wire order when libwire can place them."""
    from fory_compiler.frontend.utils import parse_idl_file
    from fory_compiler.ir import ast
    from pathlib import Path

    schemas = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for p in files:
            schemas.append(parse_idl_file(Path(p)))
    table = {}  # full name -> (kind, node, package)
    for s in schemas:
        pkg = s.package or ""
        for kind, items in (("enum", s.enums), ("struct", s.messages), ("union", s.unions)):
            for t in items:
                table[(pkg + "." if pkg else "") + t.name] = (kind, t, pkg)

    def resolve(name, pkg):
        for cand in ([pkg + "." + name] if pkg else []) + [name]:
            if cand in table:
                return cand
        ends = [k for k in table if k.endswith("." + name)]
        if len(ends) == 1:
            return ends[0]
        raise KeyError("type %s not found" % name)

    def desc(ft, pkg):
        if isinstance(ft, ast.PrimitiveType):
            k = ft.kind.value
            if k in _INT_KEYS:
                return _INT_KEYS[k][ft.encoding_modifier]
            return {"bytes": "binary"}.get(k, k)
        if isinstance(ft, ast.NamedType):
            full = resolve(ft.name, pkg)
            return {table[full][0]: full}
        if isinstance(ft, ast.ListType):
            return {"list": desc(ft.element_type, pkg)}
        if isinstance(ft, ast.ArrayType):
            return {"array": ft.element_type.kind.value + "_array"}
        if isinstance(ft, ast.MapType):
            return {"map": [desc(ft.key_type, pkg), desc(ft.value_type, pkg)]}
        raise TypeError("unknown FDL type %r" % (ft,))

    orders = libwire.field_orders(files, [n for n, v in table.items() if v[0] == "struct"]) if libwire else {}
    out = {}
    for full, (kind, node, pkg) in table.items():
        d = {"kind": kind, "name": node.name, "package": pkg}
        if kind == "enum":
            d["values"] = [{"name": v.name, "value": v.value} for v in node.values]
        elif kind == "union":
            d["cases"] = [{"id": f.number, "name": f.name, "type": desc(f.field_type, pkg)} for f in node.fields]
        else:
            fields = [{"name": snake(f.name), "decl": f.name, "type": desc(f.field_type, pkg),
                       "optional": bool(f.optional)} for f in node.fields]
            order = orders.get(full)
            if order and sorted(order) == list(range(len(fields))):
                fields = [fields[i] for i in order]
            d["fields"] = fields
            d["wire_order"] = bool(order)
        out[full] = d
    return out


def plan(fixtures=FIXTURES, libwire_path=None):
    """[{name, key, schemas, files, error, types}] for every schema set."""
    lw = None
    if libwire_path is None:
        libwire_path = os.path.join(ROOT, "build", "lib", "libwire.so")
    if os.path.exists(libwire_path):
        lw = _Libwire(libwire_path)
    taken, units = set(), []
    only = os.environ.get("LW_USERTYPES_ONLY")  # debugging: the sets whose key contains this text
    for schemas in schema_sets(fixtures):
        if only and only not in unit_key(schemas):
            continue
        files = closure(schemas)
        u = {"name": unit_name(schemas, taken), "key": unit_key(schemas), "schemas": list(schemas),
             "files": files, "error": None, "types": {}}
        missing = [p for p in files if not os.path.exists(p)]
        if missing:
            u["error"] = "foryc 1.7.7 rejects %s: missing %s" % (", ".join(schemas), ", ".join(
                os.path.relpath(p, ROOT) for p in missing))
        units.append(u)
    return units, lw


def norm(name):
    """A name with case and underscores dropped: how a field or case of the
    FDL is found among the generated members (fooBar, FooBar, foo_bar)."""
    return name.replace("_", "").lower()
