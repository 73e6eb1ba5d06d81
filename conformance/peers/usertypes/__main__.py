"""Generates (and for Java compiles) the user types of the Java, Go and
Rust peers from the fixtures' FDL schemas with foryc 1.7.7.

    python3 conformance/peers/usertypes java --classpath JAR [--out DIR]
    python3 conformance/peers/usertypes go   [--out DIR]
    python3 conformance/peers/usertypes rust [--out DIR]

Default DIR: build/conformance/usertypes-<lang>. Everything is written
under DIR; nothing is cached anywhere else. The run is skipped when DIR's
stamp matches the inputs (the schema files, the fixtures' lists of
schemas, this generator, the classpath's jar), so the testee scripts can
call it before every start. See conformance/peers/README.md.
"""

import argparse
import hashlib
import json
import os
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from usertypes import common  # noqa: E402


def _stamp(lang, extra):
    h = hashlib.sha256(lang.encode())
    here = os.path.dirname(os.path.abspath(__file__))
    for name in sorted(os.listdir(here)):
        if name.endswith(".py"):
            h.update(open(os.path.join(here, name), "rb").read())
    for schemas in common.schema_sets():
        h.update(common.unit_key(schemas).encode() + b"\0")
    for dirpath, _, names in sorted(os.walk(os.path.join(common.FIXTURES, "schemas"))):
        for n in sorted(names):
            if n.endswith(".fdl"):
                h.update(n.encode() + open(os.path.join(dirpath, n), "rb").read())
    for e in extra:
        h.update(e.encode() + b"\0")
    try:
        import fory_compiler
        h.update(getattr(fory_compiler, "__version__", "?").encode())
    except ImportError:
        pass
    return h.hexdigest()


def main(argv):
    ap = argparse.ArgumentParser(prog="usertypes")
    ap.add_argument("lang", choices=["java", "go", "rust"])
    ap.add_argument("--out")
    ap.add_argument("--classpath", help="java: the peer's jar (fory-core inside)")
    ap.add_argument("--javac", default="javac")
    ap.add_argument("--force", action="store_true")
    args = ap.parse_args(argv)
    out = os.path.abspath(args.out or os.path.join(common.ROOT, "build", "conformance", "usertypes-" + args.lang))
    extra = []
    if args.classpath:
        st = os.stat(args.classpath)
        extra.append("%s %d %d" % (args.classpath, st.st_size, int(st.st_mtime)))
    if args.lang in ("go", "rust"):  # the output holds (go) or is built with (rust) the peer
        peer = os.path.join(common.ROOT, "conformance", "peers", args.lang)
        for d in (peer, os.path.join(peer, "src")):
            for n in sorted(os.listdir(d)) if os.path.isdir(d) else []:
                if n.endswith((".go", ".rs")) or n in ("go.mod", "go.sum", "Cargo.toml", "Cargo.lock"):
                    extra.append(n + hashlib.sha256(open(os.path.join(d, n), "rb").read()).hexdigest())
    stamp = _stamp(args.lang, extra)
    stamp_file = os.path.join(out, "stamp")
    if not args.force and os.path.exists(stamp_file) and open(stamp_file).read() == stamp:
        return 0
    t0 = time.time()
    os.makedirs(out, exist_ok=True)
    if os.path.exists(stamp_file):
        os.remove(stamp_file)
    units, lw = common.plan()
    if lw is None:
        print("usertypes: build/lib/libwire.so is missing (make lib): struct fields stay in"
              " declaration order", file=sys.stderr)
    if args.lang == "java":
        from usertypes import java
        if not args.classpath:
            ap.error("java needs --classpath")
        manifest = java.generate(units, lw, out)
        java.compile_sources(out, args.classpath, manifest, args.javac)
    elif args.lang == "go":
        from usertypes import go
        manifest = go.generate(units, lw, out)
    else:
        from usertypes import rust
        manifest = rust.generate(units, lw, out)
    text = json.dumps({"generator": "foryc 1.7.7", "units": manifest}, indent=1, sort_keys=True)
    path = os.path.join(out, "units.json")
    if not os.path.exists(path) or open(path, encoding="utf-8").read() != text:
        with open(path, "w", encoding="utf-8") as f:  # unchanged: keep the mtime (cargo)
            f.write(text)
    with open(stamp_file, "w") as f:
        f.write(stamp)
    ok = sum(1 for e in manifest if not e["error"])
    print("usertypes %s: %d of %d schema sets compiled in %.1f s (%s)" % (
        args.lang, ok, len(manifest), time.time() - t0, os.path.relpath(out, common.ROOT)), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
