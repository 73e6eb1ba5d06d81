"""Round trips of every supported Python type through dumps/loads."""

import array
import datetime
import decimal
import math

import pytest

import libwire
from libwire import ids

UTC = datetime.timezone.utc

VALUES = [
    None, True, False, 0, 1, -1, 127, -128, 2 ** 31, -(2 ** 63), 2 ** 63 - 1,
    0.0, -0.0, 1.5, -2.25, 1e300, float("inf"), float("-inf"),
    "", "a", "hello", "h\u00e9llo", "\u00ff" * 40, "\u65e5\u672c",
    "a\U0001F600", "\U0001F600", "mixed \u00e9 \u65e5 \U0001F600",
    b"", b"\x00\x01\xff", bytes(range(256)),
    [], [1, 2, 3], [1, "a", None, 2.5, True], [[1], [2, [3]]], ["x", "y"],
    {1, 2, 3}, {"a"}, set(),
    {}, {"a": 1, "b": None}, {1: "x", 2: "y"}, {None: 1}, {"k": [1, {"n": {}}]},
    datetime.date(2020, 1, 2), datetime.date(1, 1, 1), datetime.date(9999, 12, 31),
    datetime.date(1969, 12, 31),
    datetime.datetime(2020, 1, 2, 3, 4, 5, 123456, tzinfo=UTC),
    datetime.datetime(1960, 6, 1, 0, 0, 0, 1, tzinfo=UTC),
    datetime.timedelta(0), datetime.timedelta(days=1, microseconds=5),
    datetime.timedelta(seconds=-1, microseconds=3), datetime.timedelta(days=-400),
    decimal.Decimal("0"), decimal.Decimal("1.23"), decimal.Decimal("-1E+30"),
    decimal.Decimal("123456789012345678901234567890.123456789"),
    decimal.Decimal("-0.000001"),
]


@pytest.mark.parametrize("value", VALUES, ids=[repr(v)[:40] for v in VALUES])
def test_round_trip(value):
    back = libwire.loads(libwire.dumps(value))
    assert back == value
    assert type(back) is type(value) or isinstance(value, (tuple, frozenset))
    if isinstance(value, float):
        assert math.copysign(1, back) == math.copysign(1, value)


def test_nan():
    assert math.isnan(libwire.loads(libwire.dumps(float("nan"))))


def test_tuple_and_frozenset():
    assert libwire.loads(libwire.dumps((1, "a"))) == [1, "a"]
    assert libwire.loads(libwire.dumps(frozenset([3]))) == {3}


def test_aware_datetime_in_other_zone():
    tz = datetime.timezone(datetime.timedelta(hours=5))
    v = datetime.datetime(2020, 1, 2, 8, 0, tzinfo=tz)
    back = libwire.loads(libwire.dumps(v))
    assert back == v and back.tzinfo == UTC


def test_naive_datetime_is_local_time():
    v = datetime.datetime(2020, 1, 2, 3, 4, 5)
    assert libwire.loads(libwire.dumps(v)) == v.astimezone()


@pytest.mark.parametrize("cls,value,tid", [
    (libwire.Int8, -5, ids.INT8), (libwire.Int16, 300, ids.INT16),
    (libwire.Int32, -70000, ids.INT32), (libwire.VarInt32, 7, ids.VARINT32),
    (libwire.Int64, 2 ** 40, ids.INT64),
    (libwire.TaggedInt64, -(2 ** 40), ids.TAGGED_INT64),
    (libwire.UInt8, 255, ids.UINT8), (libwire.UInt16, 65535, ids.UINT16),
    (libwire.UInt32, 2 ** 32 - 1, ids.UINT32),
    (libwire.VarUInt32, 5, ids.VAR_UINT32),
    (libwire.UInt64, 2 ** 64 - 1, ids.UINT64),
    (libwire.VarUInt64, 2 ** 63, ids.VAR_UINT64),
    (libwire.TaggedUInt64, 2 ** 50, ids.TAGGED_UINT64),
    (libwire.Float32, 1.5, ids.FLOAT32), (libwire.Float16, -2.0, ids.FLOAT16),
    (libwire.BFloat16, 0.5, ids.BFLOAT16),
])
def test_typed_numbers(cls, value, tid):
    data = libwire.dumps(cls(value))
    assert data[2] == tid            # header 01, flag ff, then the type id
    back = libwire.loads(data)
    assert type(back) is cls and back == value
    assert libwire.dumps(back) == data


def test_typed_number_range():
    with pytest.raises(ValueError):
        libwire.Int8(128)
    with pytest.raises(ValueError):
        libwire.UInt32(-1)


def test_float32_rounds():
    back = libwire.loads(libwire.dumps(libwire.Float32(0.1)))
    assert back == 0.10000000149011612


def test_none_value():
    data = libwire.dumps(libwire.NONE)
    assert data == bytes.fromhex("01ff24")
    assert libwire.loads(data) is libwire.NONE


@pytest.mark.parametrize("typecode", list("bhilqBHILQfd"))
def test_arrays(typecode):
    a = array.array(typecode, [1, 2, 3])
    back = libwire.loads(libwire.dumps(a))
    assert isinstance(back, array.array) and back.tolist() == a.tolist()
    assert back.itemsize == a.itemsize


def test_typed_arrays():
    for t, data in (("bool_array", b"\x01\x00\x01"),
                    ("float16_array", b"\x00\x3c\x00\xc0"),
                    ("bfloat16_array", b"\x80\x3f")):
        v = libwire.TypedArray(t, data)
        back = libwire.loads(libwire.dumps(v))
        assert back == v
    assert libwire.TypedArray("float16_array", b"\x00\x3c\x00\xc0").tolist() \
        == [1.0, -2.0]


def test_nanosecond_timestamp_and_duration():
    data = bytes.fromhex("01ff26") + (5).to_bytes(8, "little") + \
        (123456789).to_bytes(4, "little")
    ts = libwire.loads(data)
    assert isinstance(ts, libwire.Timestamp) and ts.nanos == 123456789
    assert ts.microsecond == 123456
    assert libwire.dumps(ts) == data
    d = libwire.Duration.from_parts(-3, 7)
    back = libwire.loads(libwire.dumps(d))
    assert back.nanos == 7 and back == datetime.timedelta(seconds=-3)


def test_unhashable_keys_become_hashable():
    # a list as a map key / set element comes back as a tuple
    doc_bytes = libwire.dumps({(1, 2): "x"})
    assert libwire.loads(doc_bytes) == {(1, 2): "x"}


def test_several_roots():
    values = [1, "two", [3], {"four": 4.0}, None]
    data = libwire.dumps_all(values)
    assert libwire.loads_all(data) == values
    assert data == b"".join(libwire.dumps(v) for v in values)
    with pytest.raises(libwire.WireError) as e:
        libwire.loads(data)
    assert e.value.cls == "trailing"


def test_bytes_like_inputs():
    data = libwire.dumps([1, 2])
    assert libwire.loads(bytearray(data)) == [1, 2]
    assert libwire.loads(memoryview(data)) == [1, 2]
    assert libwire.loads(libwire.dumps(bytearray(b"ab"))) == b"ab"


def test_subclasses_of_plain_types():
    class MyInt(int):
        pass

    class MyList(list):
        pass

    class MyDict(dict):
        pass
    assert libwire.loads(libwire.dumps(MyInt(4))) == 4
    assert libwire.loads(libwire.dumps(MyList([1]))) == [1]
    assert libwire.loads(libwire.dumps(MyDict(a=1))) == {"a": 1}


def test_context_options_and_limits():
    with libwire.Context(ref=True, limits={"depth": 5}) as ctx:
        assert ctx.ref and not ctx.compatible
        assert ctx.get_limit("depth") == 5
        assert ctx.limits["collection"] > 0
        ctx.compatible = True
        assert ctx.compatible
        assert ctx.loads(ctx.dumps([1, [2]])) == [1, [2]]
    with pytest.raises(ValueError):
        libwire.Context(limits={"nope": 1})


def test_version():
    assert libwire.version() == "0.1.0"
