"""Registered classes through the compiled layouts (libwire/_mem.c): the
same bytes as the tape path on every field type, what goes to the tape
path instead, writers' TypeDefs mapped onto the class (pyfory's real
bytes), evolution defaults, references, hostile bytes, and reference
counts."""

import array
import dataclasses
import datetime
import enum
import gc
import json
import os
import random
import sys
import tracemalloc
from typing import List, Optional

import pytest

import libwire
from conftest import PKG, REPO, corpus

sys.path.insert(0, PKG)
import bench  # noqa: E402

SCHEMA = """
package lt;
enum Color [id=400] { RED = 0; GREEN = 1; BLUE = 5; }
message Inner [id=401] { string s = 1; int64 n = 2; }
message All [id=402] {
  int8 i8 = 1; int16 i16 = 2; int32 i32 = 3; int64 i64 = 4;
  uint8 u8 = 5; uint16 u16 = 6; uint32 u32 = 7; uint64 u64 = 8;
  fixed int32 fi32 = 9; tagged int64 ti64 = 10; fixed uint64 fu64 = 11;
  float32 f32 = 12; float64 f64 = 13; bool b = 14; string s = 15;
  bytes bin = 16; Color color = 17; Inner inner = 18 [nullable = false];
  Inner maybe = 19; list<string> names = 20; list<int32> nums = 21;
  list<Inner> inners = 22; map<string, int64> counts = 23;
  map<int32, Inner> by_id = 24; array<int32> arr = 25;
  array<float64> darr = 26; array<bool> flags = 27; optional int32 oi = 28;
  optional string os = 29; list<optional string> ols = 30;
  list<int32> iset = 31 [wire_set = true]; list<float32> fl = 32;
  map<string, optional float64> om = 33; array<uint8> u8s = 34;
  list<list<string>> nested = 35;
}
message WithDate [id=403] { string s = 1; date d = 2; }
message WithAny [id=404] { string s = 1; any x = 2; }
"""


class Color(enum.Enum):
    RED = 0
    GREEN = 1
    BLUE = 5


@dataclasses.dataclass
class Inner:
    s: str
    n: int


@dataclasses.dataclass
class All:
    i8: int
    i16: int
    i32: int
    i64: int
    u8: int
    u16: int
    u32: int
    u64: int
    fi32: int
    ti64: int
    fu64: int
    f32: float
    f64: float
    b: bool
    s: str
    bin: bytes
    color: Color
    inner: Inner
    maybe: Optional[Inner]
    names: List[str]
    nums: List[int]
    inners: List[Inner]
    counts: dict
    by_id: dict
    arr: object
    darr: object
    flags: List[bool]
    oi: Optional[int]
    os: Optional[str]
    ols: List[Optional[str]]
    iset: set
    fl: List[float]
    om: dict
    u8s: object
    nested: list


@dataclasses.dataclass
class WithDate:
    s: str
    d: datetime.date


@dataclasses.dataclass
class WithAny:
    s: str
    x: object


STRINGS = ["", "a", "plain ascii", "h\u00e9llo w\u00f6rld", "\u00ff" * 3,
           "\u65e5\u672c", "a\u00e9\u65e5", "abcd\u00e9\u65e5",
           "abc\u65e5", "x" * 70 + "\u65e5", "\u65e5" + "x" * 70,
           "a\U0001F600", "\U0001F600", "y" * 300]


def make_ctx(layouts=True, compatible=True):
    ctx = libwire.Context(compatible=compatible)
    ctx.load_schema_text(SCHEMA)
    for cls, name in ((Color, "lt.Color"), (Inner, "lt.Inner"),
                      (All, "lt.All"), (WithDate, "lt.WithDate"),
                      (WithAny, "lt.WithAny")):
        ctx.register(cls, name)
    ctx._codec.use_layouts(layouts)
    return ctx


def random_all(rnd):
    def s():
        return rnd.choice(STRINGS)

    def inner():
        return Inner(s(), rnd.randrange(-2 ** 63, 2 ** 63))
    f32 = [0.0, 1.5, -0.25, 2.0 ** 100, float("inf")]
    return All(
        i8=rnd.randrange(-128, 128), i16=rnd.randrange(-2 ** 15, 2 ** 15),
        i32=rnd.randrange(-2 ** 31, 2 ** 31),
        i64=rnd.choice([0, -1, 2 ** 63 - 1, -2 ** 63,
                        rnd.randrange(-2 ** 63, 2 ** 63)]),
        u8=rnd.randrange(256), u16=rnd.randrange(2 ** 16),
        u32=rnd.randrange(2 ** 32), u64=rnd.choice([0, 2 ** 64 - 1,
                                                     rnd.randrange(2 ** 64)]),
        fi32=rnd.randrange(-2 ** 31, 2 ** 31),
        ti64=rnd.choice([5, -2 ** 30, 2 ** 30, 2 ** 40, -2 ** 63]),
        fu64=rnd.randrange(2 ** 64), f32=rnd.choice(f32),
        f64=rnd.choice([0.5, -1e300, float("-inf"), rnd.random()]),
        b=rnd.random() < 0.5, s=s(), bin=bytes(rnd.randrange(256) for _ in
                                                range(rnd.randrange(40))),
        color=rnd.choice(list(Color)), inner=inner(),
        maybe=rnd.choice([None, inner()]),
        names=[s() for _ in range(rnd.randrange(5))],
        nums=[rnd.randrange(-2 ** 31, 2 ** 31) for _ in
              range(rnd.randrange(6))],
        inners=[inner() for _ in range(rnd.randrange(4))],
        counts={s() + str(i): rnd.randrange(-2 ** 63, 2 ** 63)
                for i in range(rnd.randrange(5))},
        by_id={rnd.randrange(-2 ** 31, 2 ** 31): inner() for _ in
               range(rnd.randrange(3))},
        arr=array.array("i", [rnd.randrange(-2 ** 31, 2 ** 31) for _ in
                              range(rnd.randrange(9))]),
        darr=array.array("d", [rnd.random() for _ in range(rnd.randrange(5))]),
        flags=[rnd.random() < 0.5 for _ in range(rnd.randrange(6))],
        oi=rnd.choice([None, 0, -7, 2 ** 31 - 1]), os=rnd.choice([None, s()]),
        ols=[rnd.choice([None, s()]) for _ in range(rnd.randrange(5))],
        iset={rnd.randrange(-5, 5) for _ in range(rnd.randrange(5))},
        fl=[rnd.choice(f32) for _ in range(rnd.randrange(4))],
        om={s() + str(i): rnd.choice([None, 2.5]) for i in
            range(rnd.randrange(4))},
        u8s=array.array("B", bytes(rnd.randrange(256) for _ in
                                   range(rnd.randrange(9)))),
        nested=[[s() for _ in range(rnd.randrange(3))] for _ in
                range(rnd.randrange(3))])


@pytest.mark.parametrize("compatible", [True, False])
def test_layouts_write_the_tape_paths_bytes_and_read_them(compatible):
    lay, tape = make_ctx(True, compatible), make_ctx(False, compatible)
    rnd = random.Random(12)
    for _ in range(150):
        v = random_all(rnd)
        data = lay.dumps(v)
        assert data == tape.dumps(v)
        back = lay.loads(data)
        assert back == v
        assert back == tape.loads(data)
        assert type(back.inner) is Inner and type(back.color) is Color
        assert type(back.arr) is array.array and back.arr.typecode == "i"
    st = lay._codec.stats()
    assert st["layout_dumps"] == 150 and st["layout_loads"] == 150
    assert st["tape_dumps"] == st["tape_loads"] == 0
    assert tape._codec.stats()["layout_dumps"] == 0


def test_benchmark_models_take_the_layouts():
    ctx = libwire.Context(compatible=True, schema=bench.SCHEMA)
    v = bench.lw_values()
    for name in bench.STRUCTS:
        assert ctx.loads(ctx.dumps(v[name])) == v[name] or name == "Sample"
    st = ctx._codec.stats()
    assert (st["layout_dumps"], st["layout_loads"]) == (3, 3)
    assert st["tape_dumps"] == st["tape_loads"] == 0


def test_plain_values_come_back_for_declared_elements():
    ctx = make_ctx()
    rnd = random.Random(3)
    v = random_all(rnd)
    v.nums, v.fl = [1, -2], [1.5]
    back = ctx.loads(ctx.dumps(v))
    assert [type(x) for x in back.nums] == [int, int]
    assert [type(x) for x in back.fl] == [float]
    assert type(back.iset) is set and type(back.u8s) is array.array


def test_buffers_and_lists_for_dense_arrays():
    ctx, tape = make_ctx(), make_ctx(False)
    v = random_all(random.Random(5))
    for arr in ([1, 2, -3], (4, 5), array.array("i", [7, 8]),
                memoryview(array.array("i", [9]))):
        v.arr = arr
        assert ctx.dumps(v) == tape.dumps(v)
        assert list(ctx.loads(ctx.dumps(v)).arr) == list(arr)
    v.u8s = b"\x00\xff"
    assert ctx.dumps(v) == tape.dumps(v)
    v.bin = bytearray(b"xyz")
    assert ctx.dumps(v) == tape.dumps(v)
    assert ctx.loads(ctx.dumps(v)).bin == b"xyz"
    assert ctx._codec.stats()["tape_dumps"] == 0


def test_strings_in_the_java_runtimes_encoding():
    # R-WSTR-1 over PyUnicode's own data gives the tape path's choice
    lay, tape = make_ctx(), make_ctx(False)
    rnd = random.Random(9)
    alphabet = ["a", "Z", "\u00e9", "\u65e5", "\U0001F600", " "]
    for _ in range(300):
        text = "".join(rnd.choice(alphabet) for _ in range(rnd.randrange(90)))
        v = Inner(text, 1)
        assert lay.dumps(v) == tape.dumps(v), repr(text)
        assert lay.loads(lay.dumps(v)) == v


def test_lone_surrogates_go_to_the_tape_path():
    lay, tape = make_ctx(), make_ctx(False)
    v = Inner("a\ud800b", 1)
    with pytest.raises(libwire.WireError) as e1:
        lay.dumps(v)
    with pytest.raises(libwire.WireError) as e2:
        tape.dumps(v)
    assert (e1.value.cls, e1.value.message) == (e2.value.cls, e2.value.message)


@pytest.mark.parametrize("field,value", [
    ("i32", 2 ** 31), ("u8", -1), ("u64", 2 ** 64), ("i32", "x"),
    ("s", 5), ("inner", None), ("color", 1), ("names", "abc"),
    ("counts", [1]), ("b", 1), ("f64", "no"), ("arr", array.array("q", [1])),
])
def test_bad_values_raise_the_tape_paths_error(field, value):
    lay, tape = make_ctx(), make_ctx(False)
    v = random_all(random.Random(1))
    setattr(v, field, value)
    errs = []
    for ctx in (lay, tape):
        try:
            errs.append(("ok", ctx.dumps(v)))
        except libwire.WireError as e:
            errs.append((e.cls, e.message))
    assert errs[0] == errs[1]


def test_types_without_a_memory_form_take_the_tape_path():
    # dates, any fields: written and read by the tape path (the layouts
    # have no form for them yet); the result is the same class
    ctx = make_ctx()
    for v in (WithDate("x", datetime.date(2024, 2, 29)),
              WithAny("y", [1, "two", None])):
        assert ctx.loads(ctx.dumps(v)) == v
    st = ctx._codec.stats()
    assert st["tape_dumps"] == 2 and st["tape_loads"] == 2
    assert st["layout_dumps"] == st["layout_loads"] == 0


def test_subclass_or_reference_tracking_takes_the_tape_path():
    ctx = make_ctx()

    class Sub(Inner):
        pass
    with pytest.raises(libwire.WireError) as e:   # not registered itself
        ctx.dumps(Sub("s", 1))
    assert e.value.cls == "unsupported"
    assert ctx._codec.stats()["tape_dumps"] == 1
    ref = make_ctx()
    ref.ref = True
    assert ref.loads(ref.dumps(Inner("s", 2))) == Inner("s", 2)
    assert ref._codec.stats()["tape_dumps"] == 1


def test_slots_and_properties():
    ctx, tape = make_ctx(), make_ctx(False)

    @dataclasses.dataclass(slots=True)
    class SInner:
        s: str
        n: int

    class PInner:
        s: str
        n: int

        def __init__(self, s, n):
            self._s, self.n = s, n

        @property
        def s(self):
            return self._s + "!"
    for c in (ctx, tape):
        c.register(SInner, "lt.Inner")
    v = SInner("slot", 3)
    assert ctx.dumps(v) == tape.dumps(v)
    back = ctx.loads(ctx.dumps(v))
    assert type(back) is SInner and back == v
    for c in (ctx, tape):
        c.register(PInner, "lt.Inner")
    assert ctx.dumps(PInner("p", 4)) == tape.dumps(PInner("p", 4)) == \
        ctx.dumps(Inner("p!", 4))
    assert ctx._codec.stats()["tape_dumps"] == 0


def test_dumps_into_a_buffer():
    ctx = make_ctx()
    v = random_all(random.Random(2))
    want = ctx.dumps(v)
    buf = bytearray(len(want))
    assert ctx.dumps(v, into=buf) == len(want) and bytes(buf) == want
    with pytest.raises(libwire.WireError) as e:
        ctx.dumps(v, into=bytearray(3))
    assert e.value.cls == "buffer_full" and e.value.offset == len(want)
    assert ctx.dumps(obj=v) == want
    with pytest.raises(TypeError):
        ctx.dumps(v, into=buf, other=1)


# ---- writers' TypeDefs ------------------------------------------------------

def test_pyfory_typedef_differing_in_nullable_flags_maps_onto_the_class():
    pytest.importorskip("pyfory")
    fory, values = bench.pyfory_models(optional=True)
    data = fory.serialize(values["MediaContent"])
    ctx = libwire.Context(compatible=True, schema=bench.SCHEMA)
    want = bench.lw_values()["MediaContent"]
    assert data != ctx.dumps(want)          # another TypeDef (nullable)
    back = ctx.loads(data)
    assert type(back) is bench.MediaContent and back == want
    assert type(back.media.player) is bench.Player
    assert ctx._codec.stats()["layout_loads"] == 1
    # and pyfory reads what libwire writes back
    again = fory.deserialize(ctx.dumps(back))
    assert again.media.uri == want.media.uri and len(again.images) == 3


def test_pyfory_fields_by_name_are_not_dropped():
    # pyfory's dataclasses without field ids name their fields; bench.fdl
    # has tag ids: libwire's mapping matches them by snake_case name
    # (R-EVOLVE-2), so the layout path reads them
    pf = pytest.importorskip("pyfory")

    @dataclasses.dataclass
    class PImage:
        uri: str
        title: str
        width: pf.Int32
        height: pf.Int32
        size: int
    fory = pf.Fory(xlang=True, ref=False, compatible=True)
    fory.register_type(PImage, type_id=4)
    data = fory.serialize(PImage("u", "t", 3, 4, 0))
    ctx = libwire.Context(compatible=True, schema=bench.SCHEMA)
    back = ctx.loads(data)
    assert type(back) is bench.Image
    assert (back.uri, back.title, back.width, back.height) == ("u", "t", 3, 4)
    assert ctx._codec.stats()["tape_loads"] == 0
    assert ctx._codec.stats()["layout_loads"] == 1


EV_V1 = "package ev;\nmessage E [id=410] { string a = 1; int32 gone = 3; }\n"
EV_V2 = ("package ev;\nmessage E [id=410] { string a = 1; int32 b = 2;\n"
         "  list<string> c = 4; }\n")


def test_fields_a_writer_did_not_send_get_the_class_defaults():
    w = libwire.Context(compatible=True)
    w.load_schema_text(EV_V1)
    r = libwire.Context(compatible=True)
    r.load_schema_text(EV_V2)

    @dataclasses.dataclass
    class E1:
        a: str
        gone: int

    @dataclasses.dataclass
    class E2:
        a: str
        b: int = 7
        c: list = dataclasses.field(default_factory=lambda: ["d"])
    w.register(E1, "ev.E")
    r.register(E2, "ev.E")
    data = w.dumps(E1("x", 9))
    for _ in range(3):                       # the mapping is cached
        assert r.loads(data) == E2("x", 7, ["d"])
    assert r._codec.stats()["layout_loads"] == 3
    # the registered TypeDef itself reads with the fast layout
    assert r.loads(r.dumps(E2("y", 1, []))) == E2("y", 1, [])


AB_FIELDS = ("int32 i = 3; list<string> xs = 7; optional int32 oi = 8; "
             "string str = 9; bytes bin = 10;")
AB_V2 = ("package ab;\nmessage In [id=421] { string s = 1; " + AB_FIELDS +
         " }\nmessage R [id=420] { int32 n = 1; In inner = 2 "
         "[nullable = false]; " + AB_FIELDS + " }\n")
AB_OLD_ROOT = ("package ab;\nmessage In [id=421] { string s = 1; }\n"
               "message R [id=420] { int32 n = 1; In inner = 2 "
               "[nullable = false]; }\n")
AB_OLD_INNER = ("package ab;\nmessage In [id=421] { string s = 1; }\n"
                "message R [id=420] { int32 n = 1; In inner = 2 "
                "[nullable = false]; " + AB_FIELDS + " }\n")
AB_DEFAULTS = (7, ["d"], 9, "dflt", b"b")


def ab_classes(defaults):
    """ab.In and ab.R of AB_V2 as dataclasses, with AB_DEFAULTS for the
    fields after the first ones, or without defaults."""
    extra = [("i", int), ("xs", list), ("oi", Optional[int]), ("str", str),
             ("bin", bytes)]
    if defaults:
        extra = [(n, t, dataclasses.field(default_factory=lambda d=d: d)
                  if isinstance(d, list) else dataclasses.field(default=d))
                 for (n, t), d in zip(extra, AB_DEFAULTS)]
    inner = dataclasses.make_dataclass("In", [("s", str)] + extra)
    root = dataclasses.make_dataclass("R", [("n", int), ("inner", inner)] +
                                      extra)
    return inner, root


def ab_read(old, value_of, defaults, layouts):
    """The reader's (AB_V2) object and path for what a writer of schema
    `old` writes (value_of(In, R) makes its value)."""
    w = libwire.Context(compatible=True)
    w.load_schema_text(old)
    fields = [("s", str)]
    w_in = dataclasses.make_dataclass("In", fields)
    rf = [("n", int), ("inner", w_in)]
    if old == AB_OLD_INNER:
        rf += [("i", int), ("xs", list), ("oi", Optional[int]),
               ("str", str), ("bin", bytes)]
    w_r = dataclasses.make_dataclass("R", rf)
    w.register(w_in, "ab.In")
    w.register(w_r, "ab.R")
    r = libwire.Context(compatible=True)
    r.load_schema_text(AB_V2)
    r_in, r_r = ab_classes(defaults)
    r.register(r_in, "ab.In")
    r.register(r_r, "ab.R")
    r._codec.use_layouts(layouts)
    back = r.loads(w.dumps(value_of(w_in, w_r)))
    path = "layout" if r._codec.stats()["layout_loads"] else "tape"
    return dataclasses.astuple(back), path


@pytest.mark.parametrize("defaults", [False, True])
def test_fields_a_root_writer_did_not_send_read_alike_on_both_paths(
        defaults):
    # the root's TypeDef differs (the writer lacks fields in R and In):
    # the class defaults, else None, through the layouts and the tape
    want_extra = AB_DEFAULTS if defaults else (None,) * 5
    want = (5, ("x",) + want_extra) + want_extra
    got = {}
    for layouts in (True, False):
        back, path = ab_read(AB_OLD_ROOT, lambda i, r: r(5, i("x")),
                             defaults, layouts)
        assert back == want, (layouts, back)
        got[path] = back
    assert set(got) == {"layout", "tape"}


@pytest.mark.parametrize("defaults", [False, True])
def test_fields_a_nested_writer_did_not_send_under_a_registered_root(
        defaults):
    # the root's TypeDef is the registered one, In's is not: In gets the
    # class defaults (else None) through the layouts and the tape alike;
    # the root's optional field sent as null stays None
    want_extra = AB_DEFAULTS if defaults else (None,) * 5
    for sent in ((1, ["a"], 2, "s", b"z"), (1, ["a"], None, "s", b"z")):
        want = (5, ("x",) + want_extra) + sent
        got = {}
        for layouts in (True, False):
            back, path = ab_read(AB_OLD_INNER,
                                 lambda i, r: r(5, i("x"), *sent),
                                 defaults, layouts)
            assert back == want, (layouts, back)
            got[path] = back
        assert set(got) == {"layout", "tape"}


LI_OLD = ("package li;\nmessage In [id=431] { string s = 1; }\n"
          "message R [id=430] { int32 n = 1; list<In> xs = 2; }\n")
LI_NEW = ("package li;\nmessage In [id=431] { string s = 1; int32 i = 2;\n"
          "  optional int32 oi = 3; }\n"
          "message R [id=430] { int32 n = 1; list<In> xs = 2; }\n")


def test_items_a_writer_sent_without_fields_get_the_class_defaults():
    # a list's struct items lie inline in the image: theirs too
    w = libwire.Context(compatible=True)
    w.load_schema_text(LI_OLD)
    w_in = dataclasses.make_dataclass("In", [("s", str)])
    w_r = dataclasses.make_dataclass("R", [("n", int), ("xs", list)])
    w.register(w_in, "li.In")
    w.register(w_r, "li.R")
    data = w.dumps(w_r(1, [w_in("a"), w_in("b")]))

    @dataclasses.dataclass
    class In:
        s: str
        i: int = 7
        oi: Optional[int] = 9

    @dataclasses.dataclass
    class R:
        n: int
        xs: list
    for layouts in (True, False):
        r = libwire.Context(compatible=True)
        r.load_schema_text(LI_NEW)
        r.register(In, "li.In")
        r.register(R, "li.R")
        r._codec.use_layouts(layouts)
        for _ in range(2):
            assert r.loads(data) == R(1, [In("a"), In("b")])
        assert r._codec.stats()["layout_loads" if layouts
                                else "tape_loads"] == 2
        # the registered TypeDefs after: no defaults where values came
        assert r.loads(r.dumps(R(2, [In("c", 0, None)]))) == \
            R(2, [In("c", 0, None)])


# ---- references in payloads -------------------------------------------------

def test_shared_and_cyclic_references_read_into_classes():
    case = corpus("test_circular_ref_compatible")
    ctx = libwire.Context(compatible=True, schema=os.path.join(REPO,
                                                               case["schema"]))

    @dataclasses.dataclass(eq=False)
    class C:
        name: str
        self_ref: object
    ctx.register(C, "CircularRefStruct")
    v = ctx.loads(bytes.fromhex(case["java_hex"]))
    assert type(v) is C and v.self_ref is v and v.name == "compatible_circular"
    case = corpus("test_ref_compatible")
    ctx = libwire.Context(compatible=True, schema=os.path.join(REPO,
                                                               case["schema"]))

    @dataclasses.dataclass
    class I:
        id: int
        name: str

    @dataclasses.dataclass
    class O:
        inner1: I
        inner2: I
    ctx.register(I, "RefInnerCompatible")
    ctx.register(O, "RefOuterCompatible")
    v = ctx.loads(bytes.fromhex(case["java_hex"]))
    assert v.inner1 is v.inner2 and v.inner1 == I(99, "compatible_shared")
    assert ctx._codec.stats()["layout_loads"] == 1


# ---- hostile bytes ----------------------------------------------------------

def test_damaged_payloads_raise_wire_errors_only():
    ctx = make_ctx()
    rnd = random.Random(77)
    datas = [ctx.dumps(random_all(rnd)) for _ in range(20)]
    bctx = libwire.Context(compatible=True, schema=bench.SCHEMA)
    datas += [bctx.dumps(v) for v in bench.lw_values().values()]
    outcomes = set()
    for i in range(3000):
        d = bytearray(rnd.choice(datas))
        kind = i % 3
        if kind == 0:
            d = d[:rnd.randrange(len(d))]
        else:
            for _ in range(rnd.randrange(1, 4)):
                d[rnd.randrange(2, len(d))] = rnd.randrange(256)
        for c in (ctx, bctx):
            try:
                c.loads(bytes(d))
                outcomes.add("ok")
            except libwire.WireError as e:
                outcomes.add(e.cls)
    assert "ok" in outcomes and len(outcomes) > 3


# ---- reference counts and memory --------------------------------------------

def test_layout_path_leaks_nothing():
    ctx = make_ctx()
    rnd = random.Random(4)
    objs = [random_all(rnd) for _ in range(3)]
    for i, o in enumerate(objs):             # strings only these hold
        o.s = "".join(["unique \u00e9", str(i)])
        o.names = ["".join(["n\u65e5", str(i)])]
    del o
    bad = random_all(rnd)
    bad.i32 = 2 ** 40                        # falls back, then an error
    datas = [ctx.dumps(o) for o in objs]
    strs = [o.s for o in objs] + [o.names[0] for o in objs] + \
        [o.inner for o in objs]
    refs = [sys.getrefcount(o) for o in objs + strs]
    for _ in range(200):
        for o, d in zip(objs, datas):
            ctx.loads(ctx.dumps(o))
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for _ in range(1500):
        for o, d in zip(objs, datas):
            ctx.dumps(o)
            ctx.loads(d)
        with pytest.raises(libwire.WireError):
            ctx.dumps(bad)
        with pytest.raises(libwire.WireError):
            ctx.loads(datas[0][:-5])
    del o, d
    gc.collect()
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert grown < 64 * 1024, grown
    assert [sys.getrefcount(o) for o in objs + strs] == refs


def test_registration_changes_between_calls():
    ctx = make_ctx()
    v = Inner("a", 1)
    data = ctx.dumps(v)

    @dataclasses.dataclass
    class Other:
        s: str
        n: int
    ctx.register(Other, "lt.Inner")           # the last class registered
    back = ctx.loads(data)
    assert type(back) is Other and back == Other("a", 1)
    assert ctx.dumps(back) == data


# ---- large binaries and arrays at the root ----------------------------------

def test_large_binary_and_array_roots_one_copy_same_bytes():
    lay, tape = libwire.Context(), libwire.Context()
    tape._codec.use_layouts(False)
    rnd = random.Random(8)
    blob = rnd.randbytes(70000)
    roots = [blob, bytearray(blob), memoryview(blob), memoryview(blob)[10:],
             array.array("q", range(-5000, 5000)), array.array("d", [0.5] * 999),
             array.array("B", blob[:5000]), array.array("h", range(3000)),
             array.array("I", range(2000)), array.array("f", [1.5] * 1500)]
    for v in roots:
        data = lay.dumps(v)
        assert data == tape.dumps(v)
        back = lay.loads(data)
        assert back == (bytes(v) if not isinstance(v, array.array) else v)
        assert tape.loads(data) == back
        buf = bytearray(len(data) + 3)
        assert lay.dumps(v, into=buf) == len(data) and buf[:len(data)] == data
        with pytest.raises(libwire.WireError) as e:
            lay.dumps(v, into=bytearray(100))
        assert e.value.cls == "buffer_full" and e.value.offset == len(data)
    st = lay._codec.stats()
    assert st["direct_dumps"] == 3 * len(roots) - len(roots)  # not the errors
    assert st["direct_loads"] == len(roots)
    # damaged and trailing bytes: the tape path's errors
    data = lay.dumps(blob)
    for bad in (data[:-1], data + b"\x00", data[:3] + b"\xff" + data[4:]):
        errs = []
        for c in (lay, tape):
            try:
                c.loads(bad)
                errs.append("ok")
            except libwire.WireError as e:
                errs.append((e.cls, e.offset))
        assert errs[0] == errs[1] and errs[0] != "ok"
    lay.set_limit("binary", 1000)
    with pytest.raises(libwire.WireError) as e:
        lay.loads(data)
    assert e.value.cls == "limit"


def test_python_code_during_the_walk_cannot_free_what_the_image_uses():
    # The walk points into str objects without holding them while no Python
    # code can run; a property met later makes it start again holding them
    # (the property here drops the last reference to a string read before).
    SCHEMA2 = ("package pw;\nmessage In [id=420] { string t = 1; }\n"
               "message Out [id=421] { string s = 1; In inner = 2; "
               "list<string> more = 3; }\n")

    @dataclasses.dataclass
    class Out:
        s: str
        inner: object
        more: list

    class In:
        t: str

        def __init__(self, owner):
            self.owner = owner

        @property
        def t(self):
            self.owner.s = "replaced"
            self.owner.more = ["gone"]
            return "from a property"
    ctxs = []
    for layouts in (True, False):
        ctx = libwire.Context()
        ctx.load_schema_text(SCHEMA2)
        ctx.register(Out, "pw.Out")
        ctx.register(In, "pw.In")
        ctx._codec.use_layouts(layouts)
        ctxs.append(ctx)
    for _ in range(3):                       # the first call restarts
        outs = []
        for ctx in ctxs:
            o = Out("".join(["unique", "\u00e9" * 900]), None,
                    ["".join(["m", str(i)]) * 600 for i in range(5)])
            o.inner = In(o)
            outs.append(ctx.dumps(o))
            assert o.s == "replaced"
        assert outs[0] == outs[1]
        reader = libwire.Context()
        reader.load_schema_text(SCHEMA2)
        reader.register(Out, "pw.Out")
        back = reader.loads(outs[0])
        assert back.s.startswith("unique")   # read before the property ran
        assert back.inner.t == "from a property"
    assert ctxs[0]._codec.stats()["layout_dumps"] == 3


def test_a_setter_that_drops_a_struct_a_later_reference_names():
    # objects built from pointed-to images are held until loads returns: a
    # property setter that keeps nothing cannot free what a reference names
    case = corpus("test_ref_compatible")
    ctx = libwire.Context(compatible=True, schema=os.path.join(REPO,
                                                               case["schema"]))

    @dataclasses.dataclass
    class I:
        id: int
        name: str

    class O:
        inner1: I
        inner2: I

        @property
        def inner1(self):
            return None

        @inner1.setter
        def inner1(self, value):
            pass                              # dropped
    ctx.register(I, "RefInnerCompatible")
    ctx.register(O, "RefOuterCompatible")
    for _ in range(50):
        v = ctx.loads(bytes.fromhex(case["java_hex"]))
        assert type(v.inner2) is I and v.inner2 == I(99, "compatible_shared")
        [I(i, "x" * i) for i in range(20)]    # reuse freed memory, if any


# ---- the arena's limit (WIRE_LIMIT_MEM_DECODE) ------------------------------

AMP_W = """
package am;
message S [id=601] { bool b = 1; }
message M [id=602] { list<S> items = 1; }
"""
AMP_FIELDS = 48


def test_struct_images_stay_within_the_mem_decode_limit():
    """A compatible writer's struct of one bool sends each list item as one
    byte; the reader's class of 49 fields makes it an image of 49 slots of
    16 bytes. The default limit (512 arena bytes per input byte + 1 MiB)
    refuses that with a limit error inside the input; raised, it decodes;
    a message within the 1 MiB decodes at any limit."""
    w = libwire.Context(compatible=True)
    w.load_schema_text(AMP_W)
    r = libwire.Context(compatible=True)
    r.load_schema_text(AMP_W.replace(
        "bool b = 1;", "bool b = 1; " + " ".join(
            "int64 f%d = %d;" % (i, i + 1) for i in range(1, AMP_FIELDS + 1))))

    @dataclasses.dataclass
    class S1:
        b: bool

    @dataclasses.dataclass
    class M1:
        items: list
    S2 = dataclasses.make_dataclass(
        "S2", [("b", bool)] + [("f%d" % i, int, dataclasses.field(default=0))
                               for i in range(1, AMP_FIELDS + 1)])

    @dataclasses.dataclass
    class M2:
        items: list
    w.register(S1, "am.S")
    w.register(M1, "am.M")
    r.register(S2, "am.S")
    r.register(M2, "am.M")
    data = w.dumps(M1([S1(i % 3 == 0) for i in range(20000)]))
    assert len(data) < 21000
    assert r.get_limit("mem_decode") == 512
    with pytest.raises(libwire.WireError) as e:
        r.loads(data)
    assert e.value.cls == "limit"
    assert 0 <= e.value.offset <= len(data)
    assert "WIRE_LIMIT_MEM_DECODE" in e.value.message
    r.set_limit("mem_decode", 4096)
    v = r.loads(data)
    assert len(v.items) == 20000
    assert [s.b for s in v.items[:4]] == [True, False, False, True]
    assert v.items[5].f48 == 0
    assert r._codec.stats()["layout_loads"] == 1
    r.set_limit("mem_decode", 512)
    with pytest.raises(libwire.WireError) as e:
        r.loads(data)
    assert e.value.cls == "limit"
    r.set_limit("mem_decode", 0)
    assert len(r.loads(w.dumps(M1([S1(True)] * 100))).items) == 100
