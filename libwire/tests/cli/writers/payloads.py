"""Runs the three payload writers (pyfory, Fory Java, Fory Go) and returns
their payloads: {"pyfory": {name: bytes}, "java": {...}, "go": {...}}.

    python3 libwire/tests/cli/writers/payloads.py --write   # refresh ../data/

The CLI golden tests (libwire/tests/cli/) read the committed copies in
data/; test_cli_real.py runs the writers again and checks the CLI on what
they write now.
"""

import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
DATA = os.path.join(HERE, "..", "data")
JAR = os.path.join(REPO, "conformance", "peers", "java", "target", "fory-java-peer.jar")
GO = os.environ.get("GO") or shutil.which("go") or "/usr/local/go/bin/go"


def _lines(text):
    out = {}
    for line in text.splitlines():
        name, hx = line.split()
        out[name] = bytes.fromhex(hx)
    return out


def pyfory_payloads(compatible=True):
    sys.path.insert(0, HERE)
    import pyfory_writer
    return pyfory_writer.payloads(compatible)


def java_payloads():
    if not os.path.exists(JAR):
        raise RuntimeError("build the Java peer first (bash .ci/setup): %s" % JAR)
    with tempfile.TemporaryDirectory() as tmp:
        # compiled first: fory-core's generated code crashes the JVM under
        # the single-file source launcher
        subprocess.run(["javac", "-d", tmp, "-cp", JAR, os.path.join(HERE, "JavaWriter.java")],
                       check=True, capture_output=True, text=True)
        p = subprocess.run(["java", "-cp", tmp + os.pathsep + JAR, "JavaWriter"],
                           check=True, capture_output=True, text=True, timeout=300)
    return _lines(p.stdout)


def go_payloads():
    env = dict(os.environ, GOFLAGS="-mod=mod")
    p = subprocess.run([GO, "run", "."], cwd=os.path.join(HERE, "gowriter"), check=True,
                       capture_output=True, text=True, env=env, timeout=600)
    return _lines(p.stdout)


def all_payloads():
    return {"pyfory": pyfory_payloads(), "pyfory-same-schema": pyfory_payloads(False),
            "java": java_payloads(), "go": go_payloads()}


if __name__ == "__main__":
    payloads = all_payloads()
    if "--write" in sys.argv[1:]:
        os.makedirs(DATA, exist_ok=True)
        for who, ps in payloads.items():
            for name, b in ps.items():
                with open(os.path.join(DATA, "%s.%s.bin" % (name, who)), "wb") as f:
                    f.write(b)
    for who, ps in payloads.items():
        for name, b in ps.items():
            print(who, name, len(b))
