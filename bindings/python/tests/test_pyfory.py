"""Against pyfory 1.7.7 (xlang=True, compatible=False): same bytes where pyfory
and the Java runtime agree, and each reads the other's bytes."""

import array
import datetime
import decimal

import pytest

import libwire

pyfory = pytest.importorskip("pyfory")

UTC = datetime.timezone.utc

# Values whose bytes pyfory and Java (libwire's writer policy) agree on.
# Strings: Latin-1 text (all <= U+00FF: both write LATIN1), and BMP text
# that both write as UTF-16 ('日本': the Java sampling sees a non-ASCII
# first unit; pyfory's UCS-2 kind is UTF-16) or both as UTF-8 (an ASCII
# start then an astral character).
SAME_BYTES = [
    None, True, False, 0, 1, -1, 300, -(2 ** 63), 2 ** 63 - 1,
    0.0, 1.5, -1e-300, float("inf"),
    "", "abc", "h\u00e9llo w\u00f6rld", "\u00ff\u00fe", "x" * 200,
    "\u65e5\u672c", "\u65e5\u672c\u8a9e", "\u0416\u0417", "a\U0001F600",
    b"", b"\x00\xffbinary",
    [1, 2, 3], ["a", "b"], [1.5, 2.5], [True, False], [b"x"], [1, "a", None],
    [[1], [2]], [], (1, 2), ["a", None, "b"],
    {1, 2, 3}, frozenset(["only"]), set(),
    {"a": 1, "b": 2}, {"a": 1, "b": None}, {None: 1}, {"a": [1]}, {},
    {1: "x", "y": 2.5}, {i: str(i) for i in range(300)},
    datetime.date(2020, 1, 2), datetime.date(1900, 3, 1),
    datetime.datetime(2020, 1, 2, 3, 4, 5, 123456, tzinfo=UTC),
    datetime.timedelta(days=1, microseconds=5), datetime.timedelta(0),
    decimal.Decimal("1.23"), decimal.Decimal("-1E+30"),
    decimal.Decimal("98765432109876543210.0123456789"),
    array.array("i", [1, 2, 3]), array.array("d", [0.5]),
    array.array("B", [1, 255]), array.array("q", [-1]),
]

# Values both read back, but where pyfory's writer differs from Java's:
# BMP strings whose first units are ASCII (Java: UTF-8, pyfory: UTF-16),
# a lone astral character (Java: UTF-16, pyfory: UTF-8).
# An all-null list: pyfory writes NONE as the element type (0a 24), which
# Java 1.6.0 and Fory Go 1.6.1 cannot read; libwire writes Fory Go's form
# (02, no element type), which all three read (spec/errata.md E-57).
DIFFERENT_BYTES = ["a\u00e9\u65e5", "\U0001F600", "abcd\u00e9\u65e5",
                   ["\u65e5", "a\u65e5"], [None, None]]


def _ids(vals):
    return [repr(v)[:30] for v in vals]


@pytest.mark.parametrize("value", SAME_BYTES, ids=_ids(SAME_BYTES))
def test_same_bytes_as_pyfory(value, fory):
    assert libwire.dumps(value).hex() == fory.serialize(value).hex()


def test_all_null_list_bytes(fory):
    """E-57: libwire writes 02 fd fd, pyfory 0a 24 fd fd; each reads both."""
    assert libwire.dumps([None, None]).hex() == "01ff160202fdfd"
    assert fory.serialize([None, None]).hex() == "01ff16020a24fdfd"


def _plain(v):
    """pyfory's decoded form: typed arrays compared by content."""
    if isinstance(v, array.array):
        return v.tolist()
    if isinstance(v, tuple):
        return list(v)
    if isinstance(v, frozenset):
        return set(v)
    return v


def _pyfory_plain(v):
    if hasattr(v, "tolist") and not isinstance(v, (list, str, bytes)):
        return list(v.tolist())
    return v


@pytest.mark.parametrize("value", SAME_BYTES + DIFFERENT_BYTES,
                         ids=_ids(SAME_BYTES + DIFFERENT_BYTES))
def test_pyfory_reads_libwire(value, fory):
    back = fory.deserialize(libwire.dumps(value))
    assert _pyfory_plain(back) == _plain(value)


@pytest.mark.parametrize("value", SAME_BYTES + DIFFERENT_BYTES,
                         ids=_ids(SAME_BYTES + DIFFERENT_BYTES))
def test_libwire_reads_pyfory(value, fory):
    back = libwire.loads(fory.serialize(value))
    assert _plain(back) == _plain(value)


def test_string_encodings_differ_where_documented(fory):
    # spec/03-writer-policy.md R-WSTR-2
    assert libwire.dumps("a\u00e9\u65e5").hex() == "01ff151a61c3a9e697a5"
    assert fory.serialize("a\u00e9\u65e5").hex() == "01ff151961" "00e900e565"


def test_shared_list_same_bytes_with_ref(fory_ref):
    s = [1, 2]
    v = [s, s]
    assert libwire.dumps(v, ref=True) == fory_ref.serialize(v)
    back = fory_ref.deserialize(libwire.dumps(v, ref=True))
    assert back[0] is back[1]
    back = libwire.loads(fory_ref.serialize(v))
    assert back == v and back[0] is back[1]


def test_shared_map_values_with_ref(fory_ref):
    inner = {"k": 1}
    v = {"a": inner, "b": inner}
    data = libwire.dumps(v, ref=True)
    assert data == fory_ref.serialize(v)
    back = fory_ref.deserialize(data)
    assert back["a"] is back["b"]


def test_cycles_interop(fory_ref):
    a = [1]
    a.append(a)
    # libwire flags the elements of a mixed list 00 like Java (R-WLIST-4),
    # pyfory ff; each reads the other's cycle.
    ours = libwire.dumps(a, ref=True)
    back = fory_ref.deserialize(ours)
    assert back[0] == 1 and back[1] is back
    back = libwire.loads(fory_ref.serialize(a))
    assert back[0] == 1 and back[1] is back
    d = {}
    d["self"] = d
    ours = libwire.dumps(d, ref=True)
    assert ours == fory_ref.serialize(d)
    back = fory_ref.deserialize(ours)
    assert back["self"] is back
