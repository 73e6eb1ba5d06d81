"""Enum numbers the writer's schema does not declare (libwire/_enums.c).

An enum value is written only with a number its schema enum declares: a
member of a registered enum.Enum class whose wire value the schema enum
lacks, or an EnumValue of a schema enum with another number (negative and
over 32 bits included), is refused with one WireError("value") naming the
field, the number and the declared numbers, on every write path (the
layouts and the tape; dumps and dumps_all), in every mode, as a root, a
field, an optional field, a list item, a map key or value, in a struct in a
list. Declared numbers are written as before, through the layouts. Reading
keeps what it did: a newer writer's number decodes into an EnumValue (and
is refused when written back); a registered class without a member for it
is an error, as before."""

import dataclasses
import enum
import itertools

import pytest

import libwire

SCHEMA = """
package b;
enum Color [id=600] { RED = 0; GREEN = 1; BLUE = 2; }
enum Sparse { ONE = 1; FIVE = 5; THOUSAND = 1000; }
message M { Color c = 1; }
message O { optional Color c = 1; }
message L { list<Color> c = 1; }
message K { map<Color, string> c = 1; }
message V { map<string, Color> c = 1; }
message S { Sparse c = 1; }
message LS { list<Sparse> c = 1; }
message In { int32 n = 1; Color c = 2; }
message N { list<In> c = 1; }
"""

DECLARED = {"Color": "0, 1, 2", "Sparse": "1, 5, 1000"}


class Wide(enum.Enum):        # the schema's Color has no CYAN
    CYAN = 7                  # (first: the members after it still write)
    RED = 0
    GREEN = 1
    BLUE = 2


class Sparse(enum.Enum):      # own values; SIX is not declared
    ONE = 1
    FIVE = 5
    SIX = 6
    THOUSAND = 1000


@dataclasses.dataclass
class M:
    c: object


@dataclasses.dataclass
class O:
    c: object


@dataclasses.dataclass
class L:
    c: list


@dataclasses.dataclass
class K:
    c: dict


@dataclasses.dataclass
class V:
    c: dict


@dataclasses.dataclass
class S:
    c: object


@dataclasses.dataclass
class LS:
    c: list


@dataclasses.dataclass
class In:
    n: int
    c: object


@dataclasses.dataclass
class N:
    c: list


CLASSES = ((M, "b.M"), (O, "b.O"), (L, "b.L"), (K, "b.K"), (V, "b.V"),
           (S, "b.S"), (LS, "b.LS"), (In, "b.In"), (N, "b.N"))


def make_ctx(compatible, ref, layouts, enums=True, schema=SCHEMA):
    ctx = libwire.Context(compatible=compatible, ref=ref)
    ctx.load_schema_text(schema)
    for cls, name in CLASSES:
        ctx.register(cls, name)
    if enums:
        ctx.register(Wide, "b.Color")
        ctx.register(Sparse, "b.Sparse")
    ctx._codec.use_layouts(layouts)
    return ctx


def ev(v, t="b.Color"):
    return libwire.EnumValue(t, v)


# (value holding the number, the number as printed, the enum, the field
# named in the message or None at the root, whether the classes are
# registered: an EnumValue of a type with a class is written as well)
CASES = [
    (Wide.CYAN, "7", "Color", None),
    (ev(7), "7", "Color", None),
    (ev(3), "3", "Color", None),
    (ev(-1), "-1", "Color", None),
    (ev(2 ** 32), "4294967296", "Color", None),
    (libwire.EnumValue(600, 7), "7", "Color", None),      # by the enum's id
    (Sparse.SIX, "6", "Sparse", None),
    (ev(0, "b.Sparse"), "0", "Sparse", None),
    (ev(999, "b.Sparse"), "999", "Sparse", None),
    (M(Wide.CYAN), "7", "Color", "b.M.c"),
    (M(ev(7)), "7", "Color", "b.M.c"),
    (M(ev(-5)), "-5", "Color", "b.M.c"),
    (M(libwire.EnumValue(600, 9)), "9", "Color", "b.M.c"),
    (O(Wide.CYAN), "7", "Color", "b.O.c"),
    (O(ev(4)), "4", "Color", "b.O.c"),
    (L([Wide.RED, Wide.CYAN]), "7", "Color", "b.L.c"),
    (L([ev(1), ev(9)]), "9", "Color", "b.L.c"),
    (K({Wide.CYAN: "x"}), "7", "Color", "b.K.c"),
    (K({ev(3): "x"}), "3", "Color", "b.K.c"),
    (V({"k": Wide.BLUE, "j": Wide.CYAN}), "7", "Color", "b.V.c"),
    (V({"k": ev(8)}), "8", "Color", "b.V.c"),
    (S(Sparse.SIX), "6", "Sparse", "b.S.c"),
    (S(ev(2, "b.Sparse")), "2", "Sparse", "b.S.c"),
    (S(ev(1001, "b.Sparse")), "1001", "Sparse", "b.S.c"),
    (LS([Sparse.ONE, Sparse.SIX]), "6", "Sparse", "b.LS.c"),
    (In(1, Wide.CYAN), "7", "Color", "b.In.c"),
    (N([In(1, Wide.RED), In(2, Wide.CYAN)]), "7", "Color", "b.In.c"),
    (N([In(1, ev(6))]), "6", "Color", "b.In.c"),
    (libwire.Struct("b.M", c=ev(5)), "5", "Color", "b.M.c"),   # generic
    # by (namespace, name): the schema enum of that full name checks it
    (libwire.EnumValue(("b", "Color"), 7), "7", "Color", None),
    (libwire.EnumValue(("b", "Color"), -1), "-1", "Color", None),
    (libwire.EnumValue(("b", "Sparse"), 6), "6", "Sparse", None),
    (M(libwire.EnumValue(("b", "Color"), 7)), "7", "Color", "b.M.c"),
    (L([ev(1), libwire.EnumValue(("b", "Color"), 9)]), "9", "Color", "b.L.c"),
    (K({libwire.EnumValue(("b", "Color"), 3): "x"}), "3", "Color", "b.K.c"),
    (V({"k": libwire.EnumValue(("b", "Color"), 8)}), "8", "Color", "b.V.c"),
]


def writes(ctx, v):
    """The error of each write path: dumps, dumps_all, dumps into a
    buffer."""
    out = []
    for f in (lambda: ctx.dumps(v), lambda: ctx.dumps_all([v]),
              lambda: ctx.dumps(v, into=bytearray(4096))):
        try:
            f()
            out.append(None)
        except libwire.WireError as e:
            out.append(e)
    return out


@pytest.mark.parametrize("compatible,ref", list(itertools.product(
    (False, True), (False, True))))
@pytest.mark.parametrize("case", CASES, ids=lambda c: repr(c[0])[:40])
def test_undeclared_enum_number_refused(case, compatible, ref):
    v, num, en, field = case
    want = "enum value %s is not declared by b.%s (declared: %s)" % (
        num, en, DECLARED[en])
    if field:
        want = "field %s: %s" % (field, want)
    errs = []
    for layouts in (True, False):
        errs += writes(make_ctx(compatible, ref, layouts), v)
    for e in errs:
        assert e is not None, "%r written" % (v,)
        assert e.cls == "value" and e.message == want, e
        assert e.offset is None


def test_undeclared_member_is_checked_on_the_layouts():
    """The layouts refuse the undeclared member themselves (falling back
    to the tape path, which words the error) and write the declared ones;
    the members after an undeclared one in the class keep their values."""
    ctx = make_ctx(True, False, True)
    tape = make_ctx(True, False, False)
    for v in (M(Wide.RED), M(Wide.BLUE), L([Wide.GREEN, Wide.BLUE]),
              K({Wide.BLUE: "b"}), N([In(3, Wide.GREEN)]), S(Sparse.THOUSAND),
              LS([Sparse.FIVE, Sparse.ONE])):
        data = ctx.dumps(v)
        assert data == tape.dumps(v)
        assert ctx.loads(data) == v
    st = ctx._codec.stats()
    assert st["layout_dumps"] == 7 and st["tape_dumps"] == 0
    with pytest.raises(libwire.WireError):
        ctx.dumps(M(Wide.CYAN))
    st = ctx._codec.stats()
    assert st["layout_dumps"] == 7     # not written by the layouts
    # BLUE's wire value is 2, declared after CYAN
    assert ctx.dumps(M(Wide.BLUE)) == ctx.dumps(M(ev(2)))


def test_declared_enum_values_round_trip():
    for compatible, layouts in itertools.product((False, True), (False, True)):
        ctx = make_ctx(compatible, False, layouts)
        for v in (ev(2), ev(1000, "b.Sparse"), M(ev(0)),
                  L([ev(0), ev(2)]), S(ev(5, "b.Sparse"))):
            ctx.dumps(v)
        gen = make_ctx(compatible, False, layouts, enums=False)
        for v in (ev(2), ev(1000, "b.Sparse"), M(ev(0)), L([ev(0), ev(2)]),
                  K({ev(1): "g"}), S(ev(5, "b.Sparse"))):
            assert gen.loads(gen.dumps(v)) == v


def test_enum_by_an_id():
    """EnumValue(id, n): checked when the schema has an enum of that id
    (found once per id, again after the schema gains types); written as it
    is otherwise."""
    ctx = make_ctx(False, False, True)
    assert ctx.dumps(libwire.EnumValue(600, 2)) == ctx.dumps(ev(2))
    assert ctx.loads(ctx.dumps(libwire.EnumValue(777, 9))) == \
        libwire.EnumValue(777, 9)
    ctx.load_schema_text("package later;\nenum Late [id=777] { A = 0; }\n")
    with pytest.raises(libwire.WireError) as e:
        ctx.dumps(libwire.EnumValue(777, 9))
    assert e.value.message == ("enum value 9 is not declared by later.Late "
                               "(declared: 0)")


@pytest.mark.parametrize("compatible", (False, True))
def test_newer_writers_number_decodes(compatible):
    """CYAN = 7 in the writer's Color: an older reader without a class
    reads EnumValue('b.Color', 7) (and refuses to write it back); with
    a class lacking the member, reading is an error, as before."""
    newer = SCHEMA.replace("BLUE = 2;", "BLUE = 2; CYAN = 7;")
    w = make_ctx(compatible, False, True, schema=newer)
    for v, back in ((Wide.CYAN, ev(7)), (M(Wide.CYAN), M(ev(7))),
                    (L([Wide.RED, Wide.CYAN]), L([ev(0), ev(7)])),
                    (K({Wide.CYAN: "c"}), K({ev(7): "c"}))):
        data = w.dumps(v)
        for layouts in (True, False):
            r = make_ctx(compatible, False, layouts, enums=False)
            got = r.loads(data)
            assert got == back
            with pytest.raises(libwire.WireError) as e:
                r.dumps(got)
            assert "enum value 7 is not declared by b.Color" in e.value.message

            class Color(enum.Enum):
                RED = 0
                GREEN = 1
                BLUE = 2
            r.register(Color, "b.Color")
            with pytest.raises(libwire.WireError) as e:
                r.loads(data)
            assert "no member for wire value 7" in e.value.message


NAMED = """
package nb;
option enable_auto_type_id = false;
enum Color { RED = 0; GREEN = 1; BLUE = 2; }
message M { Color c = 1; }
message L { list<Color> c = 1; }
message K { map<Color, string> c = 1; }
message V { map<string, Color> c = 1; }
"""
NAMED_EMPTY_NS = """
package top;
option wire_namespace = "";
option enable_auto_type_id = false;
enum Color { RED = 0; GREEN = 1; BLUE = 2; }
"""


def nev(v, ns="nb", name="Color"):
    return libwire.EnumValue((ns, name), v)


def named_ctx(compatible, ref, layouts, empty_ns=False):
    ctx = libwire.Context(compatible=compatible, ref=ref)
    ctx.load_schema_text(NAMED)
    if empty_ns:
        ctx.load_schema_text(NAMED_EMPTY_NS)
    for cls, name in ((M, "nb.M"), (L, "nb.L"), (K, "nb.K"), (V, "nb.V")):
        ctx.register(cls, name)
    ctx._codec.use_layouts(layouts)
    return ctx


@pytest.mark.parametrize("compatible,ref,layouts", list(itertools.product(
    (False, True), (False, True), (False, True))))
def test_enum_by_names_checked_where_the_schema_has_it(compatible, ref,
                                                       layouts):
    """EnumValue((namespace, name), n) of a schema enum registered by name
    (NAMED_ENUM on the wire): an undeclared number is refused at the root,
    in fields, lists, map keys and values, by every write call, as
    EnumValue("ns.Name", n) is; declared numbers write the bytes they
    wrote before; names the schema lacks are written unchecked, as before
    (the bare name of nb.Color is not the empty namespace's Color)."""
    want = "enum value %s is not declared by %s (declared: 0, 1, 2)"
    ctx = named_ctx(compatible, ref, layouts)
    for v, num, field in (
            (nev(7), "7", None), (nev(3), "3", None), (nev(-2), "-2", None),
            (nev(2 ** 32), "4294967296", None),
            (M(nev(7)), "7", "nb.M.c"), (L([nev(0), nev(5)]), "5", "nb.L.c"),
            (K({nev(9): "x"}), "9", "nb.K.c"),
            (V({"a": nev(1), "b": nev(4)}), "4", "nb.V.c")):
        w = want % (num, "nb.Color")
        if field:
            w = "field %s: %s" % (field, w)
        for e in writes(ctx, v):
            assert e is not None, "%r written" % (v,)
            assert e.cls == "value" and e.message == w and e.offset is None, e
    for v in (nev(0), nev(2), M(nev(1)), L([nev(0), nev(2)]),
              K({nev(2): "x"}), V({"a": nev(1)})):
        data = ctx.dumps(v)
        assert data == ctx.dumps_all([v])
        assert ctx.dumps(ctx.loads(data)) == data    # read as "nb.Color"
    # a name the schema lacks, or a namespace it lacks: written as it is
    for v in (nev(7, name="Colour"), nev(7, ns="other"), nev(7, ns="")):
        assert ctx.loads(ctx.dumps(v)) == v
    # the empty namespace's own Color checks it, under its own name
    ctx = named_ctx(compatible, ref, layouts, empty_ns=True)
    for e in writes(ctx, nev(7, ns="")):
        assert e is not None and e.message == want % ("7", "Color"), e
    assert ctx.loads(ctx.dumps(nev(2, ns=""))) == ev(2, "Color")


def test_enum_by_names_cache_follows_the_schema():
    """A name checked before the schema has it writes; once a schema with
    that enum is loaded, the same value is refused."""
    ctx = libwire.Context()
    ctx.load_schema_text("package early;\nmessage E { int32 n = 1; }\n")
    assert ctx.loads(ctx.dumps(nev(7))) == nev(7)
    ctx.load_schema_text(NAMED)
    with pytest.raises(libwire.WireError) as e:
        ctx.dumps(nev(7))
    assert e.value.message == ("enum value 7 is not declared by nb.Color "
                               "(declared: 0, 1, 2)")
