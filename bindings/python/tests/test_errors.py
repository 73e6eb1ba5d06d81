"""WireError: class, byte offset and message."""

import dataclasses

import pytest

import libwire
from conftest import schema


@pytest.mark.parametrize("hexdata,cls,offset", [
    ("", "truncated", 0),                       # no value at all
    ("01ff07", "truncated", 3),                 # varint64 body missing
    ("01ff15", "truncated", 3),                 # string header missing
    ("02ff0702", "header", 0),                  # not the xlang bitmap
    ("01ff078000", "varint", 3),                # overlong varint64
    ("01ff05ffffffff7f", "varint", 3),          # varint32 beyond 32 bits
    ("01ff1503", "string", 3),                  # reserved string encoding
    ("01fe05", "ref", 1),                       # back reference to nothing
    ("01ffc8", "type", 2),                      # undefined type id
    ("01ff010205", "value", 3),                 # bool 2
    ("01ff070a00", "header", 4),                # a root, then garbage
])
def test_decode_errors(hexdata, cls, offset):
    with pytest.raises(libwire.WireError) as e:
        libwire.loads_all(bytes.fromhex(hexdata))
    err = e.value
    assert err.cls == cls, err
    if offset is not None:
        assert err.offset == offset, err
    assert err.message and isinstance(err.code, int)
    assert str(err).startswith(cls)


def test_depth_limit():
    ctx = libwire.Context(limits={"depth": 3})
    data = libwire.dumps([[[[[1]]]]])
    with pytest.raises(libwire.WireError) as e:
        ctx.loads(data)
    assert e.value.cls == "depth" and e.value.offset > 0


def test_collection_limit():
    ctx = libwire.Context(limits={"collection": 2})
    with pytest.raises(libwire.WireError) as e:
        ctx.loads(libwire.dumps([1, 2, 3]))
    assert e.value.cls == "limit"


def test_python_side_errors():
    with pytest.raises(libwire.WireError) as e:
        libwire.dumps(2 ** 64)
    assert e.value.cls == "value" and e.value.offset is None
    with pytest.raises(libwire.WireError) as e:
        libwire.dumps(object())
    assert e.value.cls == "unsupported"
    with pytest.raises(libwire.WireError) as e:
        libwire.dumps("\ud800")
    assert e.value.cls == "string"
    with pytest.raises(libwire.WireError) as e:
        libwire.dumps(float("nan") if False else __import__("decimal").Decimal("NaN"))
    assert e.value.cls == "decimal"


def test_schema_errors(tmp_path):
    ctx = libwire.Context(schema=schema("test_item"))
    with pytest.raises(libwire.WireError) as e:
        ctx.dumps(libwire.Struct("NoSuchType", name="x"))
    assert e.value.cls == "schema"
    with pytest.raises(libwire.WireError) as e:
        ctx.dumps(libwire.Struct("Item", nope="x"))
    assert e.value.cls == "encode" and "nope" in e.value.message
    bad = tmp_path / "bad.fdl"
    bad.write_text("message Broken [id=1] { string = ; }\n")
    with pytest.raises(libwire.WireError) as e:
        libwire.Context().load_schema(bad)
    assert e.value.cls == "idl" and "bad.fdl" in e.value.message
    with pytest.raises(libwire.WireError) as e:
        libwire.Context().load_schema(tmp_path / "missing.fdl")
    assert e.value.cls in ("idl", "arg")


def test_compatible_struct_without_schema_needs_typedef():
    with pytest.raises(libwire.WireError) as e:
        libwire.dumps(libwire.Struct(102, name="x"), compatible=True)
    assert e.value.cls == "schema"


def test_error_is_picklable():
    import pickle
    err = libwire.WireError("truncated", 3, "msg", 1)
    back = pickle.loads(pickle.dumps(err))
    assert (back.cls, back.offset, back.message, back.code) == \
        ("truncated", 3, "msg", 1)


GENERIC = """
package g;
enum Color [id=600] { RED = 0; GREEN = 1; }
message In [id=601] { string s = 1; }
message P [id=602] {
  int32 a = 1; string s = 2; list<int32> l = 3; Color c = 4; In inner = 5;
  map<string, int64> m = 6; uint8 u = 7;
}
message H [id=603] { list<P> ps = 1; }
"""


def _generic_p(**bad):
    f = dict(a=libwire.VarInt32(1), s="x", l=[libwire.VarInt32(1)],
             c=libwire.EnumValue("g.Color", 1),
             inner=libwire.Struct("g.In", s="y"), m={"k": 1},
             u=libwire.UInt8(3))
    f.update(bad)
    return libwire.Struct("g.P", **{k: v for k, v in f.items()
                                    if v is not None})


@pytest.mark.parametrize("compatible", (False, True))
@pytest.mark.parametrize("bad,want", [
    (dict(a="str"), "field g.P.a: a string where varint32 is declared"),
    (dict(a=2 ** 40), "field g.P.a: a varint64 where varint32 is declared"),
    (dict(a=None), "field g.P.a: no value (not nullable)"),
    (dict(s=5), "field g.P.s: a varint64 where string is declared"),
    (dict(l=["x"]), "field g.P.l: a string where varint32 is declared"),
    (dict(l=7), "field g.P.l: a varint64 where list is declared"),
    (dict(c=3), "field g.P.c: a varint64 where g.Color is declared"),
    (dict(c=libwire.EnumValue("g.Color", 9)),
     "field g.P.c: enum value 9 is not declared by g.Color (declared: 0, 1)"),
    (dict(m={"k": "v"}), "field g.P.m: a string where varint64 is declared"),
    (dict(u=300), "field g.P.u: a varint64 where uint8 is declared"),
    (dict(u=libwire.Int8(3)), "field g.P.u: a int8 where uint8 is declared"),
    # a nested generic Struct's field: named by its own type, once
    (dict(inner=libwire.Struct("g.In", s=4)),
     "field g.In.s: a varint64 where string is declared"),
    # a value with no wire type, a field the struct lacks
    (dict(a=object()), "field g.P.a: cannot serialize a object: no wire type"),
    (dict(l=[1j]), "field g.P.l: cannot serialize a complex: no wire type"),
    (dict(m={"k": object()}),
     "field g.P.m: cannot serialize a object: no wire type"),
    (dict(inner=libwire.Struct("g.In", s=object())),
     "field g.In.s: cannot serialize a object: no wire type"),
    (dict(inner=libwire.Struct("g.Zz")),
     "field g.P.inner: the context's schema has no type 'g.Zz'"),
    (dict(zz=1), "struct g.P has no field zz"),
    (dict(inner=libwire.Struct("g.In", s="y", zz=1)),
     "struct g.In has no field zz"),
])
def test_generic_struct_refusals_name_the_field(compatible, bad, want):
    """A generic Struct (no registered class) whose field value does not fit
    the schema is refused naming the struct type and the field, as the
    refusals of registered classes do, by every write call, at the root
    and inside a list of another generic Struct; the good value writes."""
    ctx = libwire.Context(compatible=compatible, schema=None)
    ctx.load_schema_text(GENERIC)
    good = _generic_p()
    assert ctx.loads(ctx.dumps(good)) == good
    v = _generic_p(**bad)
    for f in (lambda: ctx.dumps(v), lambda: ctx.dumps_all([v]),
              lambda: ctx.dumps(v, into=bytearray(4096)),
              lambda: ctx.dumps(libwire.Struct("g.H", ps=[good, v])),
              lambda: ctx.dumps([v])):
        with pytest.raises(libwire.WireError) as e:
            f()
        assert e.value.message == want
    assert ctx.loads(ctx.dumps(good)) == good      # (and nothing left over)


@pytest.mark.parametrize("compatible", (False, True))
def test_registered_class_unsupported_value_names_the_field(compatible):
    """A registered class's field holding a value with no wire type is
    refused naming the field, as a generic Struct's is; at the root the
    message names none."""
    ctx = libwire.Context(compatible=compatible, schema=None)
    ctx.load_schema_text(GENERIC)

    @dataclasses.dataclass
    class In:
        s: str = ""
    ctx.register(In, "g.In")
    for v in (In(s=object()), [In(s=object())],
              libwire.Struct("g.H", ps=[_generic_p(inner=In(s=object()))])):
        with pytest.raises(libwire.WireError) as e:
            ctx.dumps(v)
        assert e.value.cls == "unsupported"
        assert e.value.message == \
            "field g.In.s: cannot serialize a object: no wire type"
    with pytest.raises(libwire.WireError) as e:
        ctx.dumps(object())
    assert e.value.message == "cannot serialize a object: no wire type"
