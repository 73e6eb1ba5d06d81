"""The Python objects a decode builds stay within the context's mem_decode
budget (WIRE_LIMIT_MEM_DECODE x the input's length + WIRE_MEM_DECODE_BASE,
spec R-LIMIT-9) on every path: the tape path, the layouts' objects, a
generic Struct read by name; the document and streaming paths build
nothing out of proportion to the input."""

import ctypes
import dataclasses
import gc
import tracemalloc
import typing

import pytest

import libwire

BASE = 1 << 20           # WIRE_MEM_DECODE_BASE

W = """
package am;
message S [id=601] { bool b = 1; }
message M [id=602] { list<S> items = 1; }
"""
NF = 100                 # the reader's S has these fields besides b
R = W.replace("bool b = 1;", "bool b = 1; " + " ".join(
    "int64 f%d = %d;" % (i, i + 1) for i in range(1, NF + 1)))
N = 20000                # list items: one byte each from the writer


@dataclasses.dataclass
class S1:
    b: bool


@dataclasses.dataclass
class M1:
    items: list


def payload(n=N):
    w = libwire.Context(compatible=True)
    w.load_schema_text(W)
    w.register(S1, "am.S")
    w.register(M1, "am.M")
    data = w.dumps(M1([S1(i % 3 == 0) for i in range(n)]))
    assert len(data) < n + 100
    return data


def reader(kind, layouts):
    """A context whose S has NF more fields, with shared defaults, default
    factories or __slots__; through the layouts or the tape path."""
    r = libwire.Context(compatible=True)
    r.load_schema_text(R)
    if kind == "factory":
        more = [("f%d" % i, list, dataclasses.field(default_factory=list))
                for i in range(1, NF + 1)]
    else:
        more = [("f%d" % i, int, dataclasses.field(default=0))
                for i in range(1, NF + 1)]
    S2 = dataclasses.make_dataclass("S2", [("b", bool)] + more,
                                    slots=kind == "slots")
    M2 = dataclasses.make_dataclass("M2", [("items", list)])
    r.register(S2, "am.S")
    r.register(M2, "am.M")
    r._codec.use_layouts(layouts)
    return r


def built(fn, data):
    """(the value or the WireError, bytes of Python objects kept)."""
    gc.collect()
    tracemalloc.start()
    try:
        v = fn(data)
    except libwire.WireError as e:
        v = e
    kept = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return v, kept


def assert_limit_error(e, ctx):
    """The limit error: of the objects at offset 0 (they are built after the
    input has been read), or of libwire's arena inside the input."""
    assert isinstance(e, libwire.WireError), type(e)
    assert e.cls == "limit" and e.code == libwire.ids.E_LIMIT
    if "Python objects" in e.message:
        assert e.offset == 0
    else:
        assert "bytes of arena" in e.message and 0 < e.offset
    assert "WIRE_LIMIT_MEM_DECODE" in e.message
    assert "%d per input byte" % ctx.get_limit("mem_decode") in e.message


@pytest.mark.parametrize("kind", ["shared", "factory", "slots"])
@pytest.mark.parametrize("layouts", [False, True])
def test_one_byte_items_into_large_objects_stay_within_the_budget(kind,
                                                                  layouts):
    """20,000 one-byte items, each a 101-field object for the reader (3,400
    bytes with a __dict__, 9,000 with a list per field, 860 with
    __slots__, before these were charged; the layouts' arena takes 1,700):
    at each limit the decode either fails with a limit error or succeeds,
    and what it keeps stays within the budget; at the default it fails,
    raised far enough it decodes."""
    data = payload()
    r = reader(kind, layouts)
    assert r.get_limit("mem_decode") == 512
    for per in (512, 2048, 4096, 16384):
        r.set_limit("mem_decode", per)
        v, kept = built(r.loads, data)
        assert kept <= per * len(data) + BASE, (kind, per, kept / len(data))
        if not isinstance(v, libwire.WireError):
            break
        assert_limit_error(v, r)
        assert per > 512 or r._codec.stats()["layout_loads"] == 0
    assert per > 512
    assert not isinstance(v, libwire.WireError), (kind, v)
    assert len(v.items) == N and v.items[3].b and v.items[4].f7 in (0, [])
    assert r._codec.stats()["layout_loads"] == (1 if layouts else 0)


def test_the_budget_is_per_decode():
    """Each decode starts its budget again: a payload that takes most of
    it decodes again and again on one context; a refused one does not
    change what the next decode may build."""
    data = payload()
    r = reader("shared", False)
    r.set_limit("mem_decode", 4096)
    for _ in range(3):
        assert len(r.loads(data).items) == N
    small = payload(100)
    r.set_limit("mem_decode", 8)
    with pytest.raises(libwire.WireError) as e:
        r.loads(data)
    assert_limit_error(e.value, r)
    assert len(r.loads(small).items) == 100       # within the 1 MiB
    r.set_limit("mem_decode", 0)                  # the 1 MiB only
    assert len(r.loads(small).items) == 100


@pytest.mark.parametrize("make,per", [
    (lambda n: [set() for _ in range(n)], 224),   # 216-byte empty sets
    (lambda n: [{} for _ in range(n)], 72),
    (lambda n: [[] for _ in range(n)], 64),
    (lambda n: ["ab" for _ in range(n)], 20),
    (lambda n: [-60 for _ in range(n)], 40),
    (lambda n: [b"xy" for _ in range(n)], 10),
])
def test_dynamic_containers_and_scalars_are_charged(make, per):
    """Lists, sets, dicts, strings, ints and bytes of the tape path are
    charged: one input byte of an empty set is 224 bytes of objects, so
    a limit of 100 per byte refuses 300,000 of them (past the 1 MiB) and
    the default takes them."""
    data = libwire.dumps(make(300000))
    ctx = libwire.Context()
    v, kept = built(ctx.loads, data)
    assert not isinstance(v, libwire.WireError)
    assert kept <= 512 * len(data) + BASE
    ctx.set_limit("mem_decode", per // 4)
    v, kept = built(ctx.loads, data)
    assert_limit_error(v, ctx)
    assert kept < BASE                    # nothing is left behind
    v, _ = built(ctx.loads_all, data)     # every root: the same path
    assert_limit_error(v, ctx)


def test_generic_structs_share_their_typedef_and_field_names():
    """A reader without the writer's schema makes a generic Struct per
    item: before, each kept its own copy of the TypeDef (a read tape
    repeats a shared TypeDef at every struct), so a TypeDef of hundreds of
    bytes made a one-byte item cost hundreds of bytes; now the Structs of
    one decode share one bytes object (and their field names)."""
    data = payload()
    ctx = libwire.Context(compatible=True)
    v, kept = built(ctx.loads, data)
    items = v.fields["#1"]
    assert len(items) == N and items[0].fields["#1"] is True
    assert items[0].typedef is not None
    assert all(s.typedef is items[0].typedef for s in items)
    assert kept <= 400 * len(data)
    ctx.set_limit("mem_decode", 64)
    assert_limit_error(built(ctx.loads, payload(40000))[0], ctx)


def test_generic_structs_with_long_field_names_from_pyfory():
    """pyfory names its fields in the TypeDef: a 1,040-character name made
    each one-byte item a 1,849-byte Struct before (its TypeDef and its
    name again); now under 400 bytes a byte."""
    pyfory = pytest.importorskip("pyfory")
    name = "abcdefghijklmnopqrstuvwxyz" * 40
    S = dataclasses.make_dataclass("S", [(name, bool)])

    @dataclasses.dataclass
    class M:
        items: typing.List[S]
    f = pyfory.Fory(xlang=True, ref=False, compatible=True)
    f.register_type(S, name="am.S")
    f.register_type(M, name="am.M")
    data = f.serialize(M([S(True) for _ in range(5000)]))
    v, kept = built(libwire.Context(compatible=True).loads, data)
    items = next(iter(v.fields.values()))
    assert len(items) == 5000 and items[1].fields[name] is True
    assert all(next(iter(s.fields)) is next(iter(items[0].fields))
               for s in items)
    assert kept <= 400 * len(data), kept / len(data)


# ---- the other entry points ------------------------------------------------

def _malloc_in_use():
    try:
        libc = ctypes.CDLL(None)
        f = libc.mallinfo2
    except (OSError, AttributeError):
        pytest.skip("no mallinfo2 (glibc) here")

    class MI2(ctypes.Structure):
        _fields_ = [(k, ctypes.c_size_t) for k in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
            "fsmblks", "uordblks", "fordblks", "keepcost")]
    f.restype = MI2
    m = f()
    return m.uordblks + m.hblkhd


def test_the_document_path_holds_only_what_the_writer_sent():
    """ctx.decode (wire_decode, C nodes): the reader's larger class plays no
    part, so the same payload takes a few dozen bytes a byte (C memory,
    bounded by libwire's node limits); Node objects are made one per access."""
    data = payload()
    r = reader("factory", True)
    gc.collect()
    before = _malloc_in_use()
    doc = r.decode(data)
    took = _malloc_in_use() - before
    assert len(doc) == 1
    items = doc.root(0).field(0)
    assert items.count == N
    assert took <= 200 * len(data), took / len(data)
    doc.close()


def test_the_streaming_reader_copies_a_root_binary_once():
    """A root binary of 4 KiB or more is one bytes object of its length."""
    blob = bytes(range(256)) * 4096
    data = libwire.dumps(blob)
    ctx = libwire.Context()
    v, kept = built(ctx.loads, data)
    assert v == blob and ctx._codec.stats()["direct_loads"] >= 1
    assert kept <= len(data) + 4096
