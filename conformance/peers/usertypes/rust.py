"""The Rust peer's user types: foryc's --rust_out for every unit, as modules
of one file (usertypes.rs, `pub mod <unit> { pub mod <file> { ... } }`),
with the glue Rust needs for want of reflection: `impl Conv` (the peer's
src/typed.rs) for every generated struct, enum and union, and the table of
units. The peer's build.rs includes the file when LIBWIRE_RUST_USERTYPES
names it; one cargo build compiles the peer with every schema's types."""

import json
import os
import re
import shutil
import subprocess
import tempfile

from . import common

PEER = os.path.join(common.ROOT, "conformance", "peers", "rust")


def _strip_ids(text):
    """wire_fields_by_name: drop foryc's tag ids (the libwire option is
    unknown to foryc), as upstream's Rust test structs have none."""
    text = re.sub(r"#\[fory\(id = -?\d+\)\]\n\s*", "", text)
    return re.sub(r"#\[fory\(id = -?\d+, ", "#[fory(", text)


def _fix_register(text):
    """foryc 1.7.7 emits register_by_name::<T>("ns", "name") (and
    register_union_by_name); the fory crate 1.7.7 takes one qualified name
    "ns.name". The two arguments are joined; nothing else changes."""
    return re.sub(r'(register(?:_union)?_by_name::<[^>]+>)\("([^"]*)", "([^"]*)"\)',
                  lambda m: '%s("%s")' % (m.group(1), m.group(2) + "." + m.group(3) if m.group(2) else m.group(3)),
                  text)


def _items(text):
    """Generated structs, enums and unions: [(kind, name, members)] where
    members are field names (struct), (variant, value) (enum) or
    (case id, variant) (union)."""
    out = []
    for m in re.finditer(r"#\[derive\(::fory::Fory(Struct|Enum|Union)[^\]]*\]\n(?:#\[[^\n]*\]\n)*pub (?:struct|enum) (\w+) \{(.*?)\n\}",
                         text, re.S):
        kind, name, body = m.group(1).lower(), m.group(2), m.group(3)
        if kind == "struct":
            members = re.findall(r"^\s*pub (\w+): ", body, re.M)
        elif kind == "enum":
            members = [(v, int(n)) for v, n in re.findall(r"^\s*(\w+) = (-?\d+),", body, re.M)]
        else:
            members = [(int(i), v) for i, v in re.findall(r"#\[fory\(id = (\d+)[^\]]*\)\]\s*\n\s*(\w+)\(", body)]
        out.append((kind, name, members))
    return out


def _item_text(texts, path):
    """The text of the generated item at crate path u::mod::Name."""
    _, mod, name = path.split("::")
    t = texts.get(mod, "")
    m = re.search(r"pub (?:struct|enum) %s \{(.*?)\n\}" % re.escape(name), t, re.S)
    return m.group(1) if m else ""


def _rs(s):
    return json.dumps(s)  # a JSON string is a Rust string literal


def _glue(path, kind, tname, d, members):
    """impl Conv for one generated type."""
    t = "crate::usertypes::" + path
    lines = ["impl crate::typed::Conv for %s {" % t]
    if kind == "struct":
        by_norm = {common.norm(f): f for f in members}
        fields = [(f["decl"], by_norm.get(common.norm(f["decl"]))) for f in d["fields"]]
        lines.append("    fn from_node(n: &Value, _d: &Value, cx: &mut Cx) -> R<Self> {")
        lines.append("        let _fields = cx.struct_fields(n, %s)?;" % _rs(tname))
        for decl, rf in fields:
            if rf is None:
                lines.append("        if cx.field(_fields, %s, %s).is_some() { return crate::typed::unsupported(%s); }" % (
                    _rs(tname), _rs(decl), _rs("foryc's %s has no field %s" % (tname, decl))))
        # a struct literal in wire order (anchors come before their refs);
        # an absent field gets its type's zero value
        lines.append("        Ok(Self {")
        for decl, rf in fields:
            if rf is not None:
                lines.append("            %s: match cx.field(_fields, %s, %s) { Some((x, d)) => Conv::from_node(x, d, cx)?, "
                             "None => Conv::absent()? }," % (rf, _rs(tname), _rs(decl)))
        for rf in members:
            if rf not in {f for _, f in fields}:
                lines.append("            %s: Conv::absent()?," % rf)
        lines.append("        })\n    }")
        lines.append("    fn absent() -> R<Self> {")
        lines.append("        Ok(Self {%s })\n    }" % "".join(" %s: Conv::absent()?," % rf for rf in members))
        lines.append("    fn to_node(&self, _d: &Value, cx: &mut Cx) -> R<Value> {")
        lines.append("        let mut m = serde_json::Map::new();")
        for decl, rf in fields:
            if rf is None:
                continue
            lines.append("        { let (d, name) = cx.fdesc(%s, %s); m.insert(name, Conv::to_node(&self.%s, d, cx)?); }" % (
                _rs(tname), _rs(decl), rf))
        lines.append("        Ok(serde_json::json!({\"struct\": {\"type\": %s, \"fields\": Value::Object(m)}}))\n    }" % _rs(tname))
        lines.append("    fn visit(&self, _cx: &mut Cx) {")
        for _, rf in fields:
            if rf is not None:
                lines.append("        self.%s.visit(_cx);" % rf)
        lines.append("    }")
    elif kind == "enum":
        lines.append("    fn from_node(n: &Value, _d: &Value, cx: &mut Cx) -> R<Self> {")
        lines.append("        match cx.enum_value(n, %s)? {" % _rs(tname))
        for v, num in members:
            lines.append("            %d => Ok(%s::%s)," % (num, t, v))
        lines.append("            x => crate::typed::unsupported(format!(\"%s has no member with value {x}\")),\n        }\n    }" % tname)
        if members:
            lines.append("    fn absent() -> R<Self> {\n        Ok(%s::%s)\n    }" % (t, min(members, key=lambda m: m[1])[0]))
        lines.append("    fn to_node(&self, _d: &Value, _cx: &mut Cx) -> R<Value> {")
        lines.append("        #[allow(unreachable_patterns)]\n        let v: i64 = match self {")
        for v, num in members:
            lines.append("            %s::%s => %d," % (t, v, num))
        lines.append("            #[allow(unreachable_patterns)]\n            _ => return crate::typed::unsupported(\"an enum value foryc's type has no number for\"),")
        lines.append("        };")
        lines.append("        Ok(serde_json::json!({\"enum\": {\"type\": %s, \"value\": v}}))\n    }" % _rs(tname))
    else:
        lines.append("    fn from_node(n: &Value, _d: &Value, cx: &mut Cx) -> R<Self> {")
        lines.append("        let (case, inner) = cx.union_parts(n, %s)?;" % _rs(tname))
        lines.append("        match case {")
        for cid, v in members:
            lines.append("            %d => Ok(%s::%s(Conv::from_node(inner, cx.case_desc(%s, %d), cx)?))," % (
                cid, t, v, _rs(tname), cid))
        lines.append("            c => crate::typed::unsupported(format!(\"%s has no case {c}\")),\n        }\n    }" % tname)
        lines.append("    fn to_node(&self, _d: &Value, cx: &mut Cx) -> R<Value> {")
        lines.append("        #[allow(unreachable_patterns)]\n        let (case, value): (u32, Value) = match self {")
        for cid, v in members:
            lines.append("            %s::%s(x) => (%d, Conv::to_node(x, cx.case_desc(%s, %d), cx)?)," % (
                t, v, cid, _rs(tname), cid))
        lines.append("            _ => return crate::typed::unsupported(\"a union case foryc's type does not know\"),")
        lines.append("        };")
        lines.append("        Ok(serde_json::json!({\"union\": {\"type\": %s, \"case\": case, \"value\": value}}))\n    }" % _rs(tname))
        lines.append("    fn visit(&self, _cx: &mut Cx) {")
        lines.append("        #[allow(unreachable_patterns)]\n        match self {")
        for cid, v in members:
            lines.append("            %s::%s(x) => x.visit(_cx)," % (t, v))
        lines.append("            _ => {}\n        }\n    }")
    lines.append("}")
    return "\n".join(lines)


def _module_of(fdl_path):
    m = re.search(r"^\s*package\s+([\w.]+)", open(fdl_path, encoding="utf-8").read(), re.M)
    return m.group(1).replace(".", "_") if m else "generated"


def generate(units, lw, out):
    """Generates usertypes.rs and builds the peer with it (cargo, into
    build/conformance/rust-target); a unit whose code does not compile is
    taken out and the build runs again."""
    target = os.path.join(os.path.dirname(out), "rust-target")
    broken = {}
    for _ in range(4):
        manifest, text = _generate(units, lw, out, broken)
        _write_if_changed(os.path.join(out, "units.json"),
                          json.dumps({"generator": "foryc 1.7.7", "units": manifest}, indent=1, sort_keys=True))
        _write_if_changed(os.path.join(out, "usertypes.rs"), text)
        rc, log = build(out, target)
        if rc == 0:
            return manifest
        lines = text.split("\n")
        bad = {}
        for m in re.finditer(r"--> (\S*usertypes\.rs):(\d+):\d+", log):
            name = _unit_at(lines, int(m.group(2)) - 1)
            if name and name not in bad:
                i = log.rfind("error", 0, m.start())
                msg = log[i:m.start()].strip().splitlines()[0] if i >= 0 else "error"
                bad[name] = msg
        if not bad:
            raise RuntimeError("cargo build failed:\n" + log[-4000:])
        for name, msg in bad.items():
            e = next(x for x in manifest if x["name"] == name)
            broken[name] = "foryc 1.7.7's Rust code for %s does not compile against the fory crate: %s" % (
                ", ".join(e["schemas"]), msg[:300])
    raise RuntimeError("cargo build kept failing")


def _write_if_changed(path, text):
    """cargo rebuilds on a newer mtime: leave an unchanged file alone."""
    if not os.path.exists(path) or open(path, encoding="utf-8").read() != text:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


def _unit_at(lines, i):
    """The unit whose code (or glue) holds line i of usertypes.rs."""
    pat = re.compile(r"(?:^pub mod |crate::usertypes::|^fn )(u_\w+?)(?:::| \{|_register\b|_encode\b|_boxed\b|_print\b)")
    for j in range(min(i, len(lines) - 1), -1, -1):
        m = pat.search(lines[j])
        if m:
            return m.group(1)
    return None


def _generate(units, lw, out, broken):
    tmp = tempfile.mkdtemp(prefix=".usertypes-", dir=os.path.dirname(out))
    manifest, mods, glue, table = [], [], [], []
    try:
        for u in units:
            entry, gen = common.compile_unit(u, "rust", tmp, manifest, {"types": {}}, broken.get(u["name"]))
            if not gen:
                continue
            by_name = {_module_of(p) for p in u["files"] if common.has_option(p, "wire_fields_by_name")}
            files = sorted(n[:-3] for n in os.listdir(gen) if n.endswith(".rs"))
            texts = {}
            for f in files:
                t = open(os.path.join(gen, f + ".rs"), encoding="utf-8").read()
                for g in files:
                    t = t.replace("crate::%s::" % g, "crate::usertypes::%s::%s::" % (u["name"], g))
                t = _fix_register(t)
                if f in by_name:
                    t = _strip_ids(t)
                texts[f] = t
            types = common.describe(u["files"], lw)
            items = {f: _items(texts[f]) for f in files}
            unit_glue, found = [], {}
            for full, d in sorted(types.items()):
                mod = d["package"].replace(".", "_") if d["package"] else "generated"
                cands = [it for it in items.get(mod, []) if it[0] == d["kind"] and common.norm(it[1]) == common.norm(d["name"])]
                if len(cands) != 1:
                    continue
                kind, rname, members = cands[0]
                path = "%s::%s::%s" % (u["name"], mod, rname)
                unit_glue.append(_glue(path, kind, full, d, members))
                found[full] = path
                entry["types"][full] = d
            mods.append("#[allow(dead_code, unused_imports, unused_mut, non_camel_case_types, non_snake_case, "
                        "clippy::all)]\npub mod %s {\n%s\n}\n" % (u["name"], "\n".join(
                            "    pub mod %s {\n%s\n    }" % (f, texts[f]) for f in files)))
            glue.append("\n\n".join(unit_glue))
            order = []
            for p in u["files"]:  # imports first
                m = _module_of(p)
                if m in texts and m not in order:
                    order.append(m)
            reg = "".join("    %s::%s::register_types(f)?;\n" % (u["name"], m) for m in order)
            enc = "".join("        %s => Some(cx.encode_root::<crate::usertypes::%s>(n, f)),\n" % (_rs(k), v)
                          for k, v in sorted(found.items()))
            box = "".join("        %s => Some(cx.boxed::<crate::usertypes::%s>(n)),\n" % (_rs(k), v)
                          for k, v in sorted(found.items()))
            sendable = {k: v for k, v in found.items() if "::std::rc::" not in _item_text(texts, v)}
            arc = "".join("        %s => Some(cx.arced::<crate::usertypes::%s>(n)),\n" % (_rs(k), v)
                          for k, v in sorted(sendable.items()))
            prt = "".join("    if let Some(x) = v.downcast_ref::<crate::usertypes::%s>() { return Some(cx.print_root(x)); }\n" % v
                          for _, v in sorted(found.items()))
            glue.append(
                "fn %(u)s_register(f: &mut ::fory::Fory) -> Result<(), ::fory::Error> {\n%(reg)s    Ok(())\n}\n"
                "fn %(u)s_encode(name: &str, n: &Value, cx: &mut Cx, f: &::fory::Fory) -> Option<R<Vec<u8>>> {\n"
                "    match name {\n%(enc)s        _ => None,\n    }\n}\n"
                "fn %(u)s_boxed(name: &str, n: &Value, cx: &mut Cx) -> Option<R<Box<dyn ::std::any::Any>>> {\n"
                "    match name {\n%(box)s        _ => None,\n    }\n}\n"
                "#[allow(unused_variables)]\nfn %(u)s_print(v: &dyn ::std::any::Any, cx: &mut Cx) -> Option<R<Value>> {\n%(prt)s    None\n}\n"
                "fn %(u)s_arc(name: &str, n: &Value, cx: &mut Cx) -> Option<R<::std::sync::Arc<dyn ::std::any::Any + Send + Sync>>> {\n"
                "    match name {\n%(arc)s        _ => None,\n    }\n}\n"
                % {"u": u["name"], "reg": reg, "enc": enc, "box": box, "prt": prt, "arc": arc})
            table.append("    UnitFns { key: %s, err: None, register: %s_register, encode: %s_encode, boxed: %s_boxed, "
                         "print: %s_print, arc: %s_arc }," % ((_rs(u["key"]),) + (u["name"],) * 5))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    src = "\n".join([
        "// Generated by conformance/peers/usertypes (rust): foryc 1.7.7's --rust_out for every",
        "// schema set the fixtures name, and the peer's glue for them (src/typed.rs).",
        "",
        "\n".join(mods),
        "use crate::typed::{Conv, Cx, UnitFns, R};",
        "use serde_json::Value;",
        "",
        "\n\n".join(g for g in glue if g),
        "",
        "fn no_encode(_: &str, _: &Value, _: &mut Cx, _: &::fory::Fory) -> Option<R<Vec<u8>>> { None }",
        "fn no_boxed(_: &str, _: &Value, _: &mut Cx) -> Option<R<Box<dyn ::std::any::Any>>> { None }",
        "fn no_print(_: &dyn ::std::any::Any, _: &mut Cx) -> Option<R<Value>> { None }",
        "fn no_register(_: &mut ::fory::Fory) -> Result<(), ::fory::Error> { Ok(()) }",
        "fn no_arc(_: &str, _: &Value, _: &mut Cx) -> Option<R<::std::sync::Arc<dyn ::std::any::Any + Send + Sync>>> { None }",
        "",
        "pub static UNITS: &[UnitFns] = &[",
    ] + table + [
        "    // schema sets foryc rejects",
    ] + ["    UnitFns { key: %s, err: Some(%s), register: no_register, encode: no_encode, boxed: no_boxed, print: no_print, arc: no_arc },"
         % (_rs(e["key"]), _rs(e["error"])) for e in manifest if e["error"]] + [
        "];",
        "",
        "pub const UNITS_JSON: &str = include_str!(%s);" % _rs(os.path.join(out, "units.json")),
        "",
    ])
    return manifest, src


def build(out, target, jobs=2):
    """cargo build of the peer with the user types; returns its output."""
    env = dict(os.environ, LIBWIRE_RUST_USERTYPES=os.path.join(out, "usertypes.rs"), CARGO_TARGET_DIR=target)
    proc = subprocess.run(["cargo", "build", "-q", "--profile", "usertypes", "-j", str(jobs), "--manifest-path",
                           os.path.join(PEER, "Cargo.toml")], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return proc.returncode, proc.stdout
