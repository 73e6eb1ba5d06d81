"""The user models of the exactness harness, as pyfory 1.7.7 users write
them: dataclasses with type hints, every type registered by name in
namespace `ex`.

    python3 libwire/tests/exact/models_py.py            # NAME.MODE HEX lines
    python3 libwire/tests/exact/models_py.py --read     # NAME.MODE HEX on stdin:
                                                        # NAME.MODE ok|differs|error

payloads() returns {"NAME.MODE": bytes} (MODE is `compat` or `same`);
read_back(key, bytes) deserializes bytes with the instance that wrote
`key` and compares the object with the one that was written.
"""

import dataclasses
import datetime
import decimal
import enum
import os
import subprocess
import sys
import tempfile
from typing import Any, Dict, List, Optional, Set

import pyfory

NS = "ex"


class Status(enum.Enum):
    NEW = 0
    PAID = 1
    SHIPPED = 2


class Player(enum.Enum):
    JAVA = 0
    FLASH = 1


class Size(enum.Enum):
    SMALL = 0
    LARGE = 1


@dataclasses.dataclass
class Address:
    street: str = ""
    city: str = ""


@dataclasses.dataclass
class Customer:
    name: str = ""
    email: str = ""
    addresses: List[Address] = pyfory.field(default_factory=list, ref=True)


@dataclasses.dataclass
class Product:
    sku: str = ""
    price: decimal.Decimal = decimal.Decimal(0)


@dataclasses.dataclass
class OrderLine:
    product: Optional[Product] = None
    quantity: pyfory.Int32 = 0


@dataclasses.dataclass
class Order:
    id: int = 0
    customer: Optional[Customer] = None
    shipping: Optional[Address] = pyfory.field(default=None, nullable=True, ref=True)
    lines: List[OrderLine] = dataclasses.field(default_factory=list)
    placed: datetime.datetime = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
    due: datetime.date = datetime.date(1970, 1, 1)
    tags: Dict[str, str] = dataclasses.field(default_factory=dict)
    labels: Set[str] = dataclasses.field(default_factory=set)
    blob: bytes = b""
    status: Status = Status.NEW
    note: Optional[str] = None


@dataclasses.dataclass
class Image:
    uri: str = ""
    title: Optional[str] = None
    width: pyfory.Int32 = 0
    height: pyfory.Int32 = 0
    size: Size = Size.SMALL


@dataclasses.dataclass
class Media:
    uri: str = ""
    title: Optional[str] = None
    width: pyfory.Int32 = 0
    height: pyfory.Int32 = 0
    format: str = ""
    duration: int = 0
    size: int = 0
    bitrate: pyfory.Int32 = 0
    hasBitrate: bool = False
    persons: List[str] = dataclasses.field(default_factory=list)
    player: Player = Player.JAVA
    copyright: Optional[str] = None


@dataclasses.dataclass
class MediaContent:
    media: Optional[Media] = None
    images: List[Image] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Sample:
    int_value: pyfory.Int32 = 0
    long_value: int = 0
    float_value: pyfory.Float32 = 0.0
    double_value: float = 0.0
    short_value: pyfory.Int16 = 0
    byte_value: pyfory.Int8 = 0
    boolean_value: bool = False
    int_array: pyfory.Int32Array = dataclasses.field(default_factory=lambda: pyfory.Int32Array([]))
    long_array: pyfory.Int64Array = dataclasses.field(default_factory=lambda: pyfory.Int64Array([]))
    double_array: pyfory.Float64Array = dataclasses.field(default_factory=lambda: pyfory.Float64Array([]))
    string: str = ""


@dataclasses.dataclass
class SampleList:
    samples: List[Sample] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Node:
    value: pyfory.Int32 = 0
    children: Optional[List["Node"]] = None


@dataclasses.dataclass
class Person:
    name: str = ""
    home: Optional[Address] = None
    work: Optional[Address] = None


@dataclasses.dataclass
class Inner:
    a: pyfory.Int32 = 0
    b: str = ""


@dataclasses.dataclass
class Outer:
    inner: Inner = dataclasses.field(default_factory=Inner)
    label: str = ""


@dataclasses.dataclass
class Empty:
    pass


@dataclasses.dataclass
class HasEmpty:
    e: Empty = dataclasses.field(default_factory=Empty)
    n: pyfory.Int32 = 0


@dataclasses.dataclass
class Optionals:
    s: Optional[str] = None
    i: Optional[pyfory.Int32] = None
    l: Optional[int] = None
    d: Optional[float] = None
    b: Optional[bool] = None
    a: Optional[Address] = None
    xs: Optional[List[str]] = None
    m: Optional[Dict[str, pyfory.Int32]] = None


@dataclasses.dataclass
class Holder:
    name: str = ""
    payload: Any = None


@dataclasses.dataclass
class Camel:
    firstName: str = ""
    lastName: str = ""
    birthYear: pyfory.Int32 = 0
    isActive: bool = False


@dataclasses.dataclass
class EvoV1:
    id: pyfory.Int32 = 0
    name: str = ""
    old: str = ""
    count: pyfory.Int32 = 0


@dataclasses.dataclass
class SharedLists:
    first: List[str] = pyfory.field(default_factory=list, ref=True)
    second: List[str] = pyfory.field(default_factory=list, ref=True)


@dataclasses.dataclass
class Stop:
    city: str = ""


@dataclasses.dataclass
class Route:
    """Lists of a struct whose elements are not annotated ref, written with
    reference tracking on: one Stop object twice in `stops` (and a None),
    one twice in `fixed` (non-optional elements)."""
    stops: List[Optional[Stop]] = dataclasses.field(default_factory=list)
    fixed: List[Stop] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class RefOff:
    """A field annotated ref=True in a Fory(ref=False) instance."""
    name: str = ""
    inner: Optional[Inner] = pyfory.field(default=None, nullable=True, ref=True)


@dataclasses.dataclass
class LongNamedStructForTheLongNamesCheck:
    """Registered as longnamespace.forthemetastrings.LongNamedStructForTheLongNamesCheck:
    namespace and type name over 16 bytes (meta string hashes)."""
    v: pyfory.Int32 = 0


@dataclasses.dataclass
class Blobs:
    """Written with a buffer callback (out-of-band buffers, spec 1.12.1):
    bodies of at least 2 bytes out of band, shorter ones in band; pyfory
    marks its binaries only, so the array stays as it is (errata E-48)."""
    name: str = ""
    data: bytes = b""
    small: bytes = b""
    parts: List[bytes] = dataclasses.field(default_factory=list)
    maybe: Optional[bytes] = None
    ints: pyfory.Int32Array = dataclasses.field(default_factory=lambda: pyfory.Int32Array([]))


# Models written with a buffer callback.
OOB = {"blobs"}


LONG_NS = "longnamespace.forthemetastrings"

TYPES = (Status, Player, Size, Address, Customer, Product, OrderLine, Order, Image,
         Media, MediaContent, Sample, SampleList, Node, Person, Inner, Outer, Empty,
         HasEmpty, Optionals, Holder, Camel, EvoV1, SharedLists, Blobs, Stop, Route)


def fory(compatible, ref=False):
    f = pyfory.Fory(xlang=True, ref=ref, compatible=compatible)
    for cls in TYPES:
        f.register_type(cls, name=NS + "." + (cls.__name__ if cls is not EvoV1 else "Evo"))
    f.register_type(RefOff, name=NS + ".RefOff")
    f.register_type(LongNamedStructForTheLongNamesCheck,
                    name=LONG_NS + ".LongNamedStructForTheLongNamesCheck")
    return f


def _order():
    home = Address("1 Engine Lane", "Cambridge")
    return Order(
        id=1001,
        customer=Customer("Ada Lovelace", "ada@example.com", [home, Address("12 Analytical Row", "London")]),
        shipping=home,  # the same object as the customer's first address
        lines=[OrderLine(Product("BAB-1", decimal.Decimal("349.99")), 1),
               OrderLine(Product("CARD-80", decimal.Decimal("0.05")), 80)],
        placed=datetime.datetime(2024, 2, 29, 12, 34, 56, 789000, tzinfo=datetime.timezone.utc),
        due=datetime.date(2024, 3, 15),
        tags={"channel": "web", "gift": "no"},
        labels={"priority"},
        blob=b"\x00\x01\x02\xff",
        status=Status.PAID,
        note=None,
    )


def _sample(k):
    return Sample(int_value=123 + k, long_value=1 << 40, float_value=1.5, double_value=-2.25,
                  short_value=-7, byte_value=5, boolean_value=True,
                  int_array=pyfory.Int32Array([1, 2, 3]), long_array=pyfory.Int64Array([-1, 1 << 33]),
                  double_array=pyfory.Float64Array([0.5]), string="sample %d" % k)


def _route():
    x, q = Stop("X"), Stop("Q")
    return Route([x, None, x, Stop("Y")], [q, q, Stop("Z")])


def values():
    """{name: (object, ref)}: ref says the instance tracks references."""
    media = Media("http://javaone.com/keynote.mpg", "Javaone Keynote", 640, 480, "video/mpg4",
                  18000000, 58982400, 262144, True, ["Bill Gates", "Steve Jobs"], Player.JAVA, None)
    images = [Image("http://javaone.com/keynote_large.jpg", "Javaone Keynote", 1024, 768, Size.LARGE),
              Image("http://javaone.com/keynote_small.jpg", None, 320, 240, Size.SMALL)]
    shared = ["a", "b"]
    return {
        "order": (_order(), True),
        "media": (MediaContent(media, images), False),
        "sample": (_sample(0), False),
        "samples": (SampleList([_sample(i) for i in range(3)]), False),
        "tree": (Node(1, [Node(2, [Node(4, [])]), Node(3, [])]), False),
        "person": (Person("ann", Address("1 Home St", "Oslo"), Address("2 Work Rd", "Bergen")), False),
        "nested": (Outer(Inner(7, "seven"), "outer"), False),
        "empty": (HasEmpty(Empty(), 3), False),
        "optionals": (Optionals(), False),
        "any": (Holder("h", "a string in an Any field"), False),
        "camel": (Camel("Grace", "Hopper", 1906, True), False),
        "evo": (EvoV1(7, "seven", "gone in v2", 42), False),
        "shared": (SharedLists(shared, shared), True),
        "refoff": (RefOff("r", Inner(1, "one")), False),
        "reflist": (_route(), True),
        "longname": (LongNamedStructForTheLongNamesCheck(5), False),
        "blobs": (Blobs("b", b"\x00data\xff", b"s", [b"p1", b"q"], b"mm",
                        pyfory.Int32Array([1, -1])), False),
    }


UNION_FDL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                         "fixtures", "schemas", "exact", "union.fdl")
_GEN = {}


def foryc_module(fdl, name):
    """The Python code foryc (fory-compiler 1.7.7) generates from an FDL file
    of fixtures/schemas/exact/, imported from a temporary directory."""
    if name not in _GEN:
        out = tempfile.mkdtemp(prefix="wire-exact-foryc-")
        subprocess.run(["foryc", "--python_out", out, fdl], check=True,
                       capture_output=True, text=True, timeout=120)
        sys.path.insert(0, out)
        _GEN[name] = __import__(name)
    return _GEN[name]


def union_module():
    """foryc's code for fixtures/schemas/exact/union.fdl."""
    return foryc_module(UNION_FDL, "exu")


def union_values():
    u = union_module()
    return {
        "ulist": u.UHolder(pick=u.Pick.names(["a", "b"])),
        "umap": u.UHolder(pick=u.Pick.counts({"x": 1})),
        "ulabel": u.UHolder(pick=u.Pick.label("l")),
    }


SHAPES_FDL = os.path.join(os.path.dirname(UNION_FDL), "shapes.fdl")


def shapes_module():
    """foryc's code for fixtures/schemas/exact/shapes.fdl (the shapes of the
    upstream compiler's collection.fdl and example.fdl)."""
    return foryc_module(SHAPES_FDL, "exs")


def shapes_value():
    """The same values as ExactWriter.shapes()."""
    u = shapes_module()
    return u.Shapes(
        small_ints=u.NumList.i8([1, -2, 3]),
        big_uints=u.NumList.u64([0, 2 ** 64 - 1]),
        floats=u.NumList.f32([1.5, -0.25]),
        short_array=u.NumArray.i16(pyfory.Int16Array([7, -8])),
        uint_array=u.NumArray.u32(pyfory.UInt32Array([1, 2 ** 32 - 1])),
        double_array=u.NumArray.f64(pyfory.Float64Array([0.5])),
        either=u.LeafOrNote.leaf(u.Leaf("l", 2)),
        eithers=[u.LeafOrNote.note("n"), u.LeafOrNote.code(5), u.LeafOrNote.leaf(u.Leaf("m", 3))],
        either_by_name={"a": u.LeafOrNote.code(9), "b": u.LeafOrNote.leaf(u.Leaf("x", 0))},
        lists=u.NumLists(i8=[1], i16=[-2], i32=[3], i64=[-4], u8=[5], u16=[6], u32=[7], u64=[8],
                         f32=[0.5], f64=[-1.5]),
        arrays=u.NumArrays(i8=pyfory.Int8Array([1]), i16=pyfory.Int16Array([-2]),
                           i32=pyfory.Int32Array([3]), i64=pyfory.Int64Array([-4]),
                           u8=pyfory.UInt8Array([5]), u16=pyfory.UInt16Array([6]),
                           u32=pyfory.UInt32Array([7]), u64=pyfory.UInt64Array([8]),
                           f32=pyfory.Float32Array([0.5]), f64=pyfory.Float64Array([-1.5])),
        mood=u.Mood.ANGRY,
        leaves=[u.Leaf("p", 1), u.Leaf("q", 2)],
        leaf_by_name={"k": u.Leaf("v", 7)},
    )


def shapes_fory(compatible):
    return generated_fory(compatible, shapes_module().register_exs_types)


def union_fory(compatible):
    return generated_fory(compatible, union_module().register_exu_types)


def generated_fory(compatible, register):
    """An instance with the types of foryc's generated code (its own
    registration function)."""
    f = pyfory.Fory(xlang=True, ref=False, compatible=compatible)
    register(f)
    return f


def _key_parts(key):
    name, mode = key.split(".")[:2]
    return name, mode == "compat"


def payloads():
    out = {}
    for name, obj in union_values().items():
        for mode in ("compat", "same"):
            out["%s.%s" % (name, mode)] = union_fory(mode == "compat").serialize(obj)
    for mode in ("compat", "same"):
        out["shapes.%s" % mode] = shapes_fory(mode == "compat").serialize(shapes_value())
    for name, (byname, v) in fit_models().items():
        out["%s.compat" % name] = fit_fory(byname).serialize(FitH(v))
    for name, (obj, ref) in values().items():
        for mode in ("compat", "same"):
            f = fory(mode == "compat", ref)
            if name in OOB:
                out["%s.%s" % (name, mode)] = serialize_oob(f, obj)
            else:
                out["%s.%s" % (name, mode)] = f.serialize(obj)
    return out


# errata E-58 (R-FIELD-3): a compatible-mode field declared as struct A
# holding a value of another type, which only pyfory writes. FitA, FitB,
# FitE and FitH are registered by id (101..104, fixtures/schemas/exact/
# fit_id.fdl) for the models fitid_*, by name (exf.A .. exf.H,
# fit_name.fdl) for fitname_*; H's field is not nullable, so None is the
# NONE type meta. Only compatible mode: in same-schema mode the field
# carries no type meta. (pyfory 1.7.7 cannot write a list<A> element of
# another type: its list serializer fails, KeyError or AttributeError.)
@dataclasses.dataclass
class FitA:
    x: pyfory.Int32 = 0


@dataclasses.dataclass
class FitB:
    y: pyfory.Int32 = 0


class FitE(enum.Enum):
    R = 0
    G = 1


@dataclasses.dataclass
class FitH:
    f: FitA = None


FIT_TYPES = (("A", FitA, 101), ("B", FitB, 102), ("E", FitE, 103), ("H", FitH, 104))


def fit_values():
    """{value name: the value in H's field}"""
    return {"int": 5, "str": "hi", "list": [1, 2], "struct": FitB(9), "enum": FitE.G,
            "none": None}


def fit_fory(byname):
    f = pyfory.Fory(xlang=True, ref=False, compatible=True)
    for name, cls, tid in FIT_TYPES:
        if byname:
            f.register_type(cls, name="exf." + name)
        else:
            f.register_type(cls, type_id=tid)
    return f


def fit_models():
    """{model: (by name, the value in H's field)}"""
    return {"fit%s_%s" % ("name" if byname else "id", k): (byname, v)
            for byname in (False, True) for k, v in fit_values().items()}


class Payload(bytes):
    """A payload and its out-of-band buffers (harness.Payload)."""
    buffers = ()


def serialize_oob(f, obj):
    """serialize with a buffer callback: bodies of 2 bytes or more go out
    of band (the callback returns False), shorter ones stay in band."""
    bufs = []

    def callback(bo):
        if bo.total_bytes() < 2:
            return True
        bufs.append(bytes(bo.getbuffer()))
        return False
    p = Payload(f.serialize(obj, buffer_callback=callback))
    p.buffers = bufs
    return p


@dataclasses.dataclass
class EvoV2:
    """Version 2 of Evo (fixtures/schemas/exact/v2.fdl): count widened to
    int64, old removed, added added."""
    id: pyfory.Int32 = 0
    name: str = ""
    count: pyfory.Int64 = 0
    added: str = ""


# The reader checks of camel and evo (harness.py PROJECTED): the v1
# payload read by a pyfory user whose classes are v2.fdl's. Camel has the
# same shape in both versions.
V2 = {"evo": (EvoV2, EvoV2(7, "seven", 42, "")),
      "camel": (Camel, Camel("Grace", "Hopper", 1906, True))}


def read_v2(key, data):
    """'ok' when a compatible Fory with the v2 classes registered under the
    v1 names reads data (a v1 payload of camel or evo) to V2's object."""
    name, compatible = _key_parts(key)
    cls, want = V2[name]
    f = pyfory.Fory(xlang=True, compatible=compatible)
    f.register_type(cls, name=NS + "." + name.capitalize())
    try:
        got = f.deserialize(bytes(data))
    except Exception as e:  # the runtime's own words
        return "error: %s: %s" % (type(e).__name__, e)
    return "ok" if got == want else "differs: %r" % (got,)


def read_back(key, data):
    """'ok' when the writer's instance reads data to an object equal to the
    one it wrote (and, unless key ends in .plain, sharing the objects it
    shared), else 'differs: ...' or 'error: ...'. A key ending in .v2 asks
    read_v2 instead."""
    if key.endswith(".v2"):
        return read_v2(key, data)
    name, compatible = _key_parts(key)
    if name in ("ulist", "umap", "ulabel"):
        obj, f = union_values()[name], union_fory(compatible)
    elif name == "shapes":
        obj, f = shapes_value(), shapes_fory(compatible)
    elif name in fit_models():
        byname, v = fit_models()[name]
        obj, f = FitH(v), fit_fory(byname)
    else:
        (obj, ref), f = values()[name], None
    # a payload with header 03 needs its buffers (pyfory checks the bit)
    buffers = list(getattr(data, "buffers", ())) if data[:1] == b"\x03" else None
    try:
        got = (f or fory(compatible, ref)).deserialize(bytes(data), buffers=buffers)
    except Exception as e:  # the runtime's own words
        return "error: %s: %s" % (type(e).__name__, e)
    if got == obj:
        if key.endswith(".plain"):  # plain JSON carries no identity
            return "ok"
        if name == "order" and got.shipping is not got.customer.addresses[0]:
            return "differs: the shipping address is not shared"
        if name == "shared" and got.first is not got.second:
            return "differs: the list is not shared"
        if name == "reflist" and (got.stops[0] is not got.stops[2] or got.fixed[0] is not got.fixed[1]):
            return "differs: the repeated stop is not shared"
        return "ok"
    return "differs: %r" % (got,)


if __name__ == "__main__":
    if "--read" in sys.argv[1:]:
        for line in sys.stdin:
            if line.strip():
                k, hx, *bufs = line.split()
                p = Payload(bytes.fromhex(hx))
                p.buffers = [bytes.fromhex(b.strip("-")) for b in bufs]
                print(k, read_back(k, p))
    else:
        for k, b in payloads().items():
            print(k, b.hex(), *[x.hex() or "-" for x in getattr(b, "buffers", ())])
