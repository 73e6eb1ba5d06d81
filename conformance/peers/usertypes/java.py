"""The Java peer's user types: foryc's --java_out for every unit, moved into
the Java package lwu.<unit> (so that two schemas may both declare
`SimpleStruct`), compiled by one javac run against the peer's jar, and
units.json for the peer (conformance/peers/java/.../UserTypes.java)."""

import os
import re
import shutil
import subprocess
import tempfile

from . import common

# `@ForyField(id = 3)` / `@ForyField(id = 3, nullable = true)`
_FIELD_ID = re.compile(r"@ForyField\(\s*id\s*=\s*-?\d+\s*(,\s*)?")


def _strip_ids(text):
    """Fields identified by name (option wire_fields_by_name): foryc
    ignores the libwire option, so its tag ids are removed, as the
    upstream cross-language test classes declare no ids."""
    text = _FIELD_ID.sub("@ForyField(", text)
    return text.replace("@ForyField()", "")


def _relocate(src_dir, dst_dir, prefix, by_name_pkgs):
    """Copies foryc's Java files under dst_dir/<prefix as path>, with every
    package (and every reference to one) moved under `prefix`."""
    files = []
    for dirpath, _, names in os.walk(src_dir):
        files += [os.path.join(dirpath, n) for n in names if n.endswith(".java")]
    pkgs = set()
    texts = {}
    for f in files:
        t = open(f, encoding="utf-8").read()
        m = re.search(r"^package\s+([\w.]+)\s*;", t, re.M)
        texts[f] = (t, m.group(1) if m else "")
        if m:
            pkgs.add(m.group(1))
    out = {}
    for f, (t, pkg) in texts.items():
        new_pkg = prefix + ("." + pkg if pkg else "")
        if pkg:
            t = re.sub(r"^package\s+[\w.]+\s*;", "package %s;" % new_pkg, t, count=1, flags=re.M)
        else:
            t = "package %s;\n" % new_pkg + t
        for p in sorted(pkgs, key=len, reverse=True):
            t = re.sub(r"(?<![\w.])" + re.escape(p) + r"\.(?=[A-Z])", prefix + "." + p + ".", t)
        if pkg in by_name_pkgs:
            t = _strip_ids(t)
        rel = os.path.join(*new_pkg.split("."), os.path.basename(f))
        dst = os.path.join(dst_dir, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "w", encoding="utf-8") as fh:
            fh.write(t)
        out.setdefault(pkg, []).append(dst)
    return out


def _java_package(path):
    text = open(path, encoding="utf-8").read()
    m = re.search(r'^\s*option\s+java_package\s*=\s*"([^"]+)"\s*;', text, re.M)
    if m:
        return m.group(1)
    m = re.search(r"^\s*package\s+([\w.]+)", text, re.M)
    return m.group(1) if m else ""


def generate(units, lw, out):
    """Writes out/src (Java sources) and returns the manifest."""
    src = os.path.join(out, "src")
    shutil.rmtree(src, ignore_errors=True)
    os.makedirs(src)
    tmp = tempfile.mkdtemp(prefix=".usertypes-", dir=os.path.dirname(out))  # no go.mod above it
    manifest = []
    try:
        for u in units:
            entry, gen = common.compile_unit(u, "java", tmp, manifest, {"modules": [], "types": {}})
            if not gen:
                continue
            by_name = {_java_package(p) for p in u["files"] if common.has_option(p, "wire_fields_by_name")}
            prefix = "lwu." + u["name"]
            by_pkg = _relocate(gen, src, prefix, by_name)
            types = common.describe(u["files"], lw)
            for full, d in types.items():
                pkg = d["package"]
                fq = prefix + ("." + pkg if pkg else "") + "." + d["name"]
                path = os.path.join(src, *fq.split(".")) + ".java"
                if not os.path.exists(path):
                    # a name foryc spells differently: find it among the package's classes
                    cands = [p for p in by_pkg.get(pkg, []) if common.norm(os.path.basename(p)[:-5]) == common.norm(d["name"])]
                    if len(cands) != 1:
                        continue
                    fq = prefix + ("." + pkg if pkg else "") + "." + os.path.basename(cands[0])[:-5]
                d["java"] = fq
                entry["types"][full] = d
            for p in u["schemas"]:
                pkg = _java_package(os.path.join(common.ROOT, p))
                for f in by_pkg.get(pkg, []):
                    if f.endswith("ForyModule.java"):
                        mod = prefix + ("." + pkg if pkg else "") + "." + os.path.basename(f)[:-5]
                        if mod not in entry["modules"]:
                            entry["modules"].append(mod)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return manifest


def compile_sources(out, classpath, manifest, javac="javac"):
    """One javac run over every generated file. A unit whose generated code
    does not compile is taken out (its manifest entry gets the error) and
    javac runs again on the rest. Returns javac's last output."""
    classes = os.path.join(out, "classes")
    by_unit = {e["name"]: e for e in manifest}
    log = ""
    for _ in range(4):
        shutil.rmtree(classes, ignore_errors=True)
        os.makedirs(classes)
        files = []
        for dirpath, _, names in os.walk(os.path.join(out, "src")):
            files += [os.path.join(dirpath, n) for n in names if n.endswith(".java")]
        argfile = os.path.join(out, "sources.txt")
        with open(argfile, "w", encoding="utf-8") as f:
            f.write("\n".join(sorted(files)) + "\n")
        proc = subprocess.run([javac, "-nowarn", "-encoding", "UTF-8", "-proc:none", "-d", classes,
                               "-cp", classpath, "@" + argfile],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        log = proc.stdout
        if proc.returncode == 0:
            return log
        bad = {}
        lwu = os.path.join(out, "src", "lwu") + os.sep
        for m in re.finditer(r"^(\S+\.java):(\d+): error: (.*)$", log, re.M):
            if m.group(1).startswith(lwu):
                name = m.group(1)[len(lwu):].split(os.sep)[0]
                bad.setdefault(name, "%s:%s: %s" % (os.path.relpath(m.group(1), lwu), m.group(2), m.group(3)))
        if not bad:
            break
        for name, first in bad.items():
            e = by_unit.get(name)
            if e is not None:
                e["error"] = "foryc 1.7.7's Java code for %s does not compile against fory-core: %s" % (
                    ", ".join(e["schemas"]), first[:300])
                e["types"], e["modules"] = {}, []
            shutil.rmtree(os.path.join(lwu, name), ignore_errors=True)
    raise RuntimeError("javac failed:\n" + log[-3000:])
