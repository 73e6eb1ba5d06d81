"""Shared helpers of the conformance tools (generate.py, verify.py,
manifest.py, check_libwire.py): paths, JSON output, the value-notation
comparison of conformance/PROTOCOL.md, and a JSON-lines peer client."""

import json
import os
import subprocess
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
FIXTURES = os.path.join(REPO, "fixtures")
VALID_DIR = os.path.join(FIXTURES, "valid")
INVALID_DIR = os.path.join(FIXTURES, "invalid")
SCHEMA_JSON = os.path.join(FIXTURES, "schema.json")
MANIFEST = os.path.join(FIXTURES, "MANIFEST.json")
IDS_JSON = os.path.join(HERE, "ids.json")
WIRE = os.path.join(REPO, "build", "bin", "wire")
# Scratch space for compiled schema carriers (foryc output, javac classes).
BUILD_DIR = os.path.join(REPO, "build", "conformance")

FORMAT = "libwire-fixtures/1"
SUITE_VERSION = "0.1.0"

# Wire-choice annotations (spec/notation.md N-3, conformance/PROTOCOL.md).
WIRE_CHOICES = frozenset({
    "enc", "header", "chunks", "tracked", "approx", "iso", "typedef", "ns_enc", "name_enc",
    "ns_hash", "name_hash", "ns_xref", "name_xref", "band", "oob",
})


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def dump_json(obj):
    """The one JSON text form of every file the tools write (stable)."""
    return json.dumps(obj, indent=1, ensure_ascii=False) + "\n"


def write_json(path, obj):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    text = dump_json(obj)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def read_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def fixture_files(kind=None):
    """Paths of the fixture files, sorted, kind in (None, 'valid', 'invalid')."""
    out = []
    for k in ("valid", "invalid"):
        if kind and k != kind:
            continue
        base = os.path.join(FIXTURES, k)
        for root, _, files in os.walk(base):
            for f in files:
                if f.endswith(".json"):
                    out.append(os.path.join(root, f))
    return sorted(out)


def rel(path):
    return os.path.relpath(path, REPO)


# ---------------------------------------------------------------------------
# Notation comparison (PROTOCOL.md "Comparing")
# ---------------------------------------------------------------------------

def strip(node, drop=WIRE_CHOICES):
    """Drops wire-choice annotations at every depth (also inside struct
    fields and union values)."""
    if isinstance(node, list):
        return [strip(x, drop) for x in node]
    if isinstance(node, dict):
        return {k: strip(v, drop) for k, v in node.items() if k not in drop}
    return node


def canon_anchors(doc):
    """Renames anchors by order of first appearance (per root document, a
    node's own anchor before its children) and drops anchors that nothing
    refers to."""
    used = set()

    def scan(x):
        if isinstance(x, list):
            for e in x:
                scan(e)
        elif isinstance(x, dict):
            for k, v in x.items():
                if k == "ref" and isinstance(v, str):
                    used.add(v)
                else:
                    scan(v)

    scan(doc)
    names = {}

    def walk(x):
        if isinstance(x, list):
            return [walk(e) for e in x]
        if isinstance(x, dict):
            out = {}
            a = x.get("anchor")
            if isinstance(a, str) and a in used:
                names.setdefault(a, "a%d" % (len(names) + 1))
                out["anchor"] = names[a]
            for k, v in x.items():
                if k == "anchor" and isinstance(v, str):
                    continue
                if k == "ref" and isinstance(v, str):
                    out[k] = names.get(v, "?" + v)
                else:
                    out[k] = walk(v)
            return out
        return x

    return walk(doc)


def comparable(values):
    """The comparison form of a list of root documents."""
    return [canon_anchors(strip(v)) for v in values]


def same_values(a, b):
    return comparable(a) == comparable(b)


# ---------------------------------------------------------------------------
# JSON-lines peer client
# ---------------------------------------------------------------------------

class PeerError(Exception):
    pass


class Peer:
    """A running JSON-lines testee (conformance/PROTOCOL.md)."""

    def __init__(self, name, cmd, cwd=REPO):
        self.name = name
        self.cmd = cmd
        self.proc = subprocess.Popen(cmd, shell=isinstance(cmd, str), cwd=cwd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                     encoding="utf-8", bufsize=1)
        line = self.proc.stdout.readline()
        if not line:
            raise PeerError("%s: no hello line (command %r)" % (name, cmd))
        self.hello = json.loads(line).get("hello", {})
        self._next = 0

    def batch(self, requests):
        """Sends the requests (dicts without "id") and returns the responses
        in order. Requests are written from a thread so that a peer that
        answers while we are still writing cannot block either side."""
        reqs = []
        for r in requests:
            self._next += 1
            reqs.append(dict(r, id=self._next))

        def writer():
            try:
                for r in reqs:
                    self.proc.stdin.write(json.dumps(r, ensure_ascii=False) + "\n")
                self.proc.stdin.flush()
            except BrokenPipeError:
                pass

        t = threading.Thread(target=writer, daemon=True)
        t.start()
        out = []
        for r in reqs:
            line = self.proc.stdout.readline()
            if not line:
                raise PeerError("%s exited early" % self.name)
            resp = json.loads(line)
            if resp.get("id") != r["id"]:
                raise PeerError("%s: response id %r for request %r" % (self.name, resp.get("id"), r["id"]))
            out.append(resp)
        t.join()
        return out

    def close(self):
        try:
            self.proc.stdin.close()
        except Exception:  # noqa: BLE001
            pass
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
