"""The runtimes the tools drive, as JSON-lines peers (conformance/PROTOCOL.md).

PEERS is the one table to edit when a runtime is added: its start command,
how to build it, whether it is present, and what its carriers lose on
decode (the "erasure" applied to the expected values before they are compared
with what the peer printed; each peer's README documents it). A peer whose
`available()` is false is skipped (and reported).

Schema-typed fixtures (structs, enums) cannot go through these peers (they
load no FDL); typed.py drives the runtimes for those.
"""

import os
import shutil
import subprocess
import sys

from common import REPO, log

JAVA_DIR = os.path.join(REPO, "conformance", "peers", "java")
JAVA_JAR = os.path.join(JAVA_DIR, "target", "fory-java-peer.jar")

INT_KEYS = frozenset("""int8 int16 int32 varint32 int64 varint64 tagged_int64 uint8 uint16 uint32
var_uint32 uint64 var_uint64 tagged_uint64""".split())
NARROW_FLOATS = {"float16": (5, 10), "bfloat16": (8, 7), "float32": (8, 23)}


def _widen(key, bits):
    """IEEE bits of a narrower float widened to float64 (exact)."""
    ebits, mbits = NARROW_FLOATS[key]
    sign = bits >> (ebits + mbits)
    exp = (bits >> mbits) & ((1 << ebits) - 1)
    man = bits & ((1 << mbits) - 1)
    bias = (1 << (ebits - 1)) - 1
    if exp == (1 << ebits) - 1:
        return (sign << 63) | (0x7FF << 52) | (man << (52 - mbits))
    if exp == 0:
        if man == 0:
            return sign << 63
        # subnormal: normalise
        e = 1 - bias
        while not man & (1 << mbits):
            man <<= 1
            e -= 1
        man &= (1 << mbits) - 1
        return (sign << 63) | ((e + 1023) << 52) | (man << (52 - mbits))
    return (sign << 63) | ((exp - bias + 1023) << 52) | (man << (52 - mbits))


def _walk(node, fn):
    """Rebuilds a notation tree bottom-up with fn applied to every node."""
    if isinstance(node, list):
        return [_walk(x, fn) for x in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for k, v in node.items():
        if k in ("list", "set") and isinstance(v, list):
            out[k] = [_walk(x, fn) for x in v]
        elif k == "map" and isinstance(v, list):
            out[k] = [[_walk(a, fn), _walk(b, fn)] for a, b in v]
        else:
            out[k] = v
    return fn(out)


def _sort_sets(node):
    """Sets are compared as multisets and maps as multisets of entries: their
    order is not part of the value, and the runtimes' carriers (Python sets,
    Java HashMap) do not keep it."""
    import json

    def key(e):
        return json.dumps(_unnamed(e), sort_keys=True)

    def fn(n):
        if "set" in n and isinstance(n["set"], list):
            n = dict(n)
            n["set"] = sorted(n["set"], key=key)
        if "map" in n and isinstance(n["map"], list):
            n = dict(n)
            n["map"] = sorted(n["map"], key=key)
        return n

    return _walk(node, fn)


def _unnamed(x):
    """x with anchor and ref names blanked (a sort key that does not depend
    on how a printer named its anchors)."""
    if isinstance(x, list):
        return [_unnamed(e) for e in x]
    if isinstance(x, dict):
        return {k: ("" if k in ("anchor", "ref") else _unnamed(v)) for k, v in x.items()}
    return x


def _inline_refs(node, keep):
    """Replaces {"ref": x} by a copy of the node anchored x (without the
    anchor) when that node's type key is not in `keep` (the types a peer's
    carrier shares as one object)."""
    anchors = {}

    def collect(n):
        if isinstance(n, list):
            for x in n:
                collect(x)
        elif isinstance(n, dict):
            if "anchor" in n:
                anchors[n["anchor"]] = n
            for v in n.values():
                collect(v)

    collect(node)

    def key_of(n):
        return [k for k in n if k not in ("anchor", "tracked", "enc", "header", "chunks", "approx", "iso")][0]

    def fix(n):
        if isinstance(n, list):
            return [fix(x) for x in n]
        if not isinstance(n, dict):
            return n
        if "ref" in n and len(n) == 1:
            target = anchors.get(n["ref"])
            if target is not None and key_of(target) not in keep:
                return fix({k: v for k, v in target.items() if k != "anchor"})
            return n
        out = {}
        for k, v in n.items():
            if k == "anchor" and key_of(n) not in keep:
                continue
            out[k] = fix(v)
        return out

    return fix(node)


def _erase_common(node):
    def fn(n):
        if "null" in n and n["null"] is not None:
            return {"null": None}
        return n

    return _walk(node, fn)


PYFORY_SHARED = frozenset({"list", "set", "map", "bool_array", "int8_array", "int16_array", "int32_array",
                           "int64_array", "uint8_array", "uint16_array", "uint32_array", "uint64_array",
                           "float16_array", "bfloat16_array", "float32_array", "float64_array"})
JAVA_SHARED = PYFORY_SHARED | {"binary"}


def erase_pyfory(node):
    """conformance/peers/python/README.md "Decode: Python -> notation"."""

    def fn(n):
        for k in list(n):
            if k in INT_KEYS:
                v = int(n[k])
                return {"varint64" if -(1 << 63) <= v < (1 << 63) else "var_uint64": str(v)}
            if k in NARROW_FLOATS and isinstance(n[k], str) and n[k].startswith("0x"):
                return {"float64": "0x%016x" % _widen(k, int(n[k], 16))}
            if k == "none":
                return {"null": None}
        return n

    return _walk(_inline_refs(_erase_common(node), PYFORY_SHARED), fn)


def erase_java(node):
    """conformance/peers/java/README.md "Java -> notation"."""

    def fn(n):
        if "none" in n:
            return {"null": None}
        return n

    return _walk(_inline_refs(_erase_common(node), JAVA_SHARED), fn)


def erase_exact(node):
    return _erase_common(node)


def _java_available():
    return os.path.exists(JAVA_JAR) and shutil.which("java") is not None


def _build_java():
    if shutil.which("mvn") and shutil.which("java"):
        subprocess.run(["mvn", "-q", "-f", os.path.join(JAVA_DIR, "pom.xml"), "package", "-DskipTests"], check=False)


def _testee(name):
    return os.path.join(REPO, "conformance", "testees", name + ".sh")


def _script_or_binary(name, binary):
    """A runtime's start command: its testee script (conformance/testees/)
    if there is one, else its peer binary."""
    script = _testee(name)
    if os.path.exists(script):
        return ["sh", script]
    return [os.path.join(REPO, binary)]


def _exists_any(name, binary):
    return lambda: os.path.exists(_testee(name)) or os.path.exists(os.path.join(REPO, binary))


# name: start command, build step, availability, decode erasure, whether it
# can encode schema-less values, and whether it runs by default (the others
# run when named in --peers or in $LIBWIRE_PEERS, e.g. "pyfory,java,go,rust").
PEERS = {
    "pyfory": {
        "cmd": [sys.executable, os.path.join(REPO, "conformance", "peers", "python", "pyfory_peer.py")],
        "available": lambda: True,
        "build": None,
        "erase": erase_pyfory,
        "encodes": True,
        "default": True,
    },
    "java": {
        "cmd": ["java", "-jar", JAVA_JAR],
        "available": _java_available,
        "build": _build_java,
        "erase": erase_java,
        "encodes": True,
        "default": True,
    },
    "go": {
        "cmd": _script_or_binary("go", "conformance/peers/go/go-peer"),
        "available": _exists_any("go", "conformance/peers/go/go-peer"),
        "build": None,
        "erase": erase_exact,
        "encodes": True,
        "default": False,
    },
    "rust": {
        "cmd": _script_or_binary("rust", "conformance/peers/rust/target/release/fory-rust-peer"),
        "available": _exists_any("rust", "conformance/peers/rust/target/release/fory-rust-peer"),
        "build": None,
        "erase": erase_exact,
        "encodes": True,
        "default": False,
    },
}

# The runtime whose bytes are canonical (libwire's writer policy follows it).
CANONICAL = "java"

_SELECTED = []


def select(names):
    """Restricts the peers to `names` (None: the defaults or $LIBWIRE_PEERS)."""
    _SELECTED[:] = list(names or [])


def selected():
    if _SELECTED:
        return list(_SELECTED)
    env = os.environ.get("LIBWIRE_PEERS")
    if env:
        return [n.strip() for n in env.split(",") if n.strip()]
    return [n for n, p in PEERS.items() if p["default"]]


def available_peers(build=False):
    out = []
    for name in selected():
        p = PEERS.get(name)
        if p is None:
            log("unknown peer %s, skipped" % name)
            continue
        if not p["available"]() and build and p["build"]:
            log("building peer %s" % name)
            p["build"]()
        if p["available"]():
            out.append(name)
        else:
            log("peer %s not available, skipped" % name)
    return out


def prepare(name, values):
    """Expected values in the form a peer prints: erasure, no wire-choice
    annotations, sets and maps sorted."""
    from common import strip
    erase = PEERS[name]["erase"]
    return [_sort_sets(strip(erase(v))) for v in values]


def normalise_output(values):
    from common import strip
    return [_sort_sets(strip(v)) for v in values]
