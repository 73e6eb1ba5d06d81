"""WireError: class, byte offset and message."""

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
