"""loads of a root whose TypeDef names its type in other encodings than
ours (R-TDEF-7 lets a writer choose): libwire reads the names
(wire_root_type) and the layouts read the payload, as the tape path does."""
import dataclasses
import glob
import json
import os

import libwire
from test_mutants import typedef_header

SCHEMA = ("package fx;\noption enable_auto_type_id = false;\n"
          "message Point { int32 a = 1; string b = 2; }\n")


@dataclasses.dataclass
class Point:
    a: int
    b: str


def ctx(layouts=True):
    c = libwire.Context(compatible=True)
    c.load_schema_text(SCHEMA)
    c.register(Point, "fx.Point")
    c._codec.use_layouts(layouts)
    return c


def utf8_named(data):
    """data with its root TypeDef's type name written in UTF8 (index 0)
    and the TypeDef's hash made right."""
    data = bytearray(data)
    assert data[3] == 0                      # a new TypeDef at 4
    header = int.from_bytes(data[4:12], "little")
    size = header & 0xFF
    assert size < 0xFF
    body = data[12:12 + size]
    assert body[0] & 0x20                    # registered by name
    p = 2 + (body[1] >> 2)                   # past the namespace
    n, index = body[p] >> 2, body[p] & 3
    assert index != 0, "ours is UTF8 already"
    new = body[:p] + bytes([len(b"Point") << 2]) + b"Point" + body[p + 1 + n:]
    out = (data[:4] + ((header & ~0xFF) | len(new)).to_bytes(8, "little") +
           new + data[12 + size:])
    out[4:12] = typedef_header(out, 4).to_bytes(8, "little")
    return bytes(out)


def test_names_in_another_encoding_take_the_layouts():
    data = utf8_named(ctx().dumps(Point(3, "x")))
    tape = ctx(layouts=False).loads(data)
    for _ in range(2):                       # and from the cache
        c = ctx()
        assert c.loads(data) == tape == Point(3, "x")
        assert c.loads(data) == tape
        assert c._codec.stats()["layout_loads"] == 2


REPO = os.path.join(os.path.dirname(__file__), "..", "..", "..")


def corpus_reads():
    """Each compatible corpus case (fixtures/xlang-corpus, no reference
    tracking) under the writer's schema and the reader's, with a class
    registered for a struct root (its fields as the tape path reads them):
    loads through the layouts and through the tape path."""
    for f in sorted(glob.glob(os.path.join(REPO, "fixtures/xlang-corpus/*.json"))):
        case = json.load(open(f))
        if case["mode"] != "compatible" or case["ref"]:
            continue
        for key in ("schema", "reader_schema"):
            if not case.get(key):
                continue
            for h in ("java_hex", "pyfory_hex"):
                data = bytes.fromhex(case[h])

                def mk():
                    return libwire.Context(compatible=True).load_schema(
                        os.path.join(REPO, case[key]))
                try:
                    roots = mk().loads_all(data)
                except libwire.WireError:
                    continue
                r = roots[0]
                if len(roots) != 1 or not isinstance(r, libwire.Struct) or \
                        not isinstance(r.type, str):
                    continue
                cls = dataclasses.make_dataclass(
                    r.type.replace(".", "_"),
                    [(n, object, dataclasses.field(default=None))
                     for n in r.fields if not n.startswith("#")])
                out = []
                for layouts in (True, False):
                    c = mk()
                    c.register(cls, r.type)
                    c._codec.use_layouts(layouts)
                    try:
                        v = c.loads(data)
                    except libwire.WireError as e:
                        v = ("error", e.cls)
                    out.append((v, c._codec.stats()["layout_loads"]))
                yield os.path.basename(f), key, h, out[0], out[1]


def test_corpus_roots_read_alike_both_ways():
    compared = layouts = foreign = 0
    bad = []
    for name, key, h, (a, na), (b, _) in corpus_reads():
        compared += 1
        layouts += na
        foreign += na and key == "reader_schema"
        if a != b:
            bad.append((name, key, h, a, b))
    assert not bad
    assert compared >= 40 and layouts >= 15 and foreign >= 2, \
        (compared, layouts, foreign)
