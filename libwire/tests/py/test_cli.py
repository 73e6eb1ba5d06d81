"""Behaviour of the `wire` CLI: round trips, dump, errors, roots, --pretty."""

import enum
import json
import re
import subprocess

import pytest

import pyfory
import pyfory_peer as peer
from notation import canon, string_body

# ---------------------------------------------------------------------------
# Valid payloads: `decode | encode` must give the input bytes back.
# ---------------------------------------------------------------------------

# Bytes written by the Java runtime (conformance/peers/java/PROBES.md) and by
# hand from the format.
HAND_PICKED = {
    "java string aé日 utf8": "01ff151a61c3a9e697a5",
    "java string 😀 utf16 surrogates": "01ff15113dd800de",
    "java string a*70+日 utf8 2-byte header": "01ff15a602" + "61" * 70 + "e697a5",
    "java list [1,'a',null]": "01ff160302ff0702ff150461fd",
    "java map two chunks": "01ff1802000115070461020001151504620478",
    "java map {null:1}": "01ff18010aff0702",
    "java ref list [l,l]": "0100160209160001080702fe01",
    "java ref cyclic list": "010016010916fe00",
    "java ref list [1,'a'] REF_VALUE elements": "010016020100070200150461",
    "java decimal 2^62 big": "01ff2800210000000000000040",
    "java decimal -2^62-1 big": "01ff2800230100000000000040",
    "java decimal -1 scale -3": "01ff280502",
    "java instant 100 s": "01ff26640000000000000000000000",
    "java duration -0.5 s": "01ff25010065cd1d",
    "java named enum demo.color": "01ff1a06040c8c70080489cb744002",
    "empty payload list of roots: null": "01fd",
    "none": "01ff24",
    "list of NONE values, same type": "01ff16020824",
    "list of NONE values, each typed": "01ff1602002424",
    "int8 -128": "01ff0280",
    "int16 -2": "01ff03feff",
    "int32 -1": "01ff04ffffffff",
    "varint32 min": "01ff05ffffffff0f",
    "int64 5": "01ff060500000000000000",
    "varint64 9-byte max": "01ff07feffffffffffffffff",
    "varint64 9-byte min": "01ff07ffffffffffffffffff",
    "tagged_int64 2^30": "01ff08010000004000000000",
    "tagged_int64 -2^30": "01ff0800000080",
    "tagged_int64 long form, big": "01ff0801ffffffff00000000",
    "uint8 255": "01ff09ff",
    "uint16 65535": "01ff0affff",
    "uint32 max": "01ff0bffffffff",
    "var_uint32 max": "01ff0cffffffff0f",
    "uint64 max": "01ff0dffffffffffffffff",
    "var_uint64 max 9 bytes": "01ff0effffffffffffffffff",
    "tagged_uint64 2^31": "01ff0f010000008000000000",
    "tagged_uint64 2^31-1": "01ff0ffeffffff",
    "float16 NaN 7e00": "01ff11007e",
    "float16 subnormal": "01ff110100",
    "bfloat16 -inf": "01ff1280ff",
    "float32 sNaN": "01ff130100807f",
    "float64 -0": "01ff140000000000000080",
    "timestamp nanos 999999999": "01ff260000000000000000ffc99a3b",
    "timestamp negative seconds": "01ff26ffffffffffffffff00000000",
    "duration huge seconds": "01ff25feffffffffffffffff00000000",
    "date -1": "01ff2701",
    "date max varint": "01ff27feffffffffffffffff",
    "decimal scale 2^31-1": "01ff28feffffff0f00",
    "decimal scale -2^31": "01ff28ffffffff0f00",
    "decimal big 2^64 (9 bytes)": "01ff2800250000000000000000" + "01",
    "binary 0 bytes": "01ff2900",
    "binary 128 bytes (2-byte length)": "01ff298001" + "ab" * 128,
    "string 32 latin1 chars (2-byte header)": "01ff158001" + "41" * 32,
    "string utf16 with surrogate pair": "01ff15193dd800de4100",
    "string utf8 4-byte": "01ff1512f0908080",
    "enum type id 300": "01ff19ac0207",
    "list with header 0x0b, ref flags off": "01ff16010b07ff02",
    "list header 0x01 (tracking) without ref option": "0100160101ff0702",
    "set duplicate elements kept in wire order": "01ff170208020202",
    "map duplicate keys kept": "01ff180200021507046102046104",
    "map with NONE key and value": "01ff180100012424",
    "list of float16 arrays": "01ff16020835040000003c04003c0000",
    "empty set": "01ff1700",
    "empty map": "01ff1800",
    "three roots": "01ff070a01fd01ff1500",
    "root ids restart per root": "0100160209160001080702fe01" + "0100160209160001080702fe01",
}


def _pyfory_payloads():
    """Payloads pyfory 1.7.7 writes, beyond those in the interop table."""
    out = {}
    f = pyfory.Fory(xlang=True, ref=False, compatible=False)
    peer._pin_types(f)
    out["pyfory nested mixed"] = f.serialize([{"k": [1, None, "x"]}, (2.5, b"\x00"), {None: {}}]).hex()
    out["pyfory dict of lists"] = f.serialize({i: [i] * i for i in range(5)}).hex()
    out["pyfory ordered set of tuples"] = f.serialize(peer.OrderedFrozenSet([(1,), (2, "b")])).hex()
    e = pyfory.Fory(xlang=True, ref=False, compatible=False)
    color = enum.Enum("color", [("A", 0), ("B", 1), ("C", 2)])
    e.register_type(color, name="demo.color")
    # Meta string back-references: the second named enum refers to the
    # first one's namespace and name strings.
    out["pyfory named enums with meta string refs"] = e.serialize([color.A, 1, color.C]).hex()
    r = pyfory.Fory(xlang=True, ref=True, compatible=False)
    shared = [1, "a"]
    cyc = {"list": shared}
    cyc["self"] = cyc
    out["pyfory ref cyclic dict with shared list"] = r.serialize([cyc, shared, shared]).hex()
    return out


PYFORY = _pyfory_payloads()
ROUNDTRIP = dict(HAND_PICKED)
ROUNDTRIP.update(PYFORY)


@pytest.mark.parametrize("hexin", list(ROUNDTRIP.values()), ids=list(ROUNDTRIP))
def test_decode_encode_roundtrip(wire, hexin):
    docs, r = wire.decode_ok(hexin)
    assert docs, "no roots printed"
    assert wire.encode_ok(r.out) == hexin


REF_ROUNDTRIP = {
    "ref payload: java ref list [l,l]": "0100160209160001080702fe01",
    "ref payload: java cyclic list": "010016010916fe00",
    "ref payload: java [1,'a'] REF_VALUE elements": "010016020100070200150461",
    "ref payload: pyfory [1,'a'] NOT_NULL elements": "0100160201ff0702ff150461",
    "ref payload: root int": "0100070a",
    "no-ref payload: root int": "01ff070a",
    "no-ref payload: list of lists": "01ff160208160108070201080702",
    "no-ref payload: map with list value": "01ff180100011516046101080702",
}


@pytest.mark.parametrize("hexin", list(REF_ROUNDTRIP.values()), ids=list(REF_ROUNDTRIP))
def test_roundtrip_with_ref_option(wire, hexin):
    """`decode --ref | encode --ref` is lossless too: the options are the
    same on both sides, so what decode prints must be enough for encode to
    reproduce the bytes, whether or not they were written with tracking."""
    r = wire.decode(hexin, ref=True)
    assert r.rc == 0, r
    assert wire.encode_ok(r.out, ref=True) == hexin


SPOT = {
    "01ff1a06040c8c70080489cb744002": {
        "named_enum": {"namespace": "demo", "name": "color", "value": 2},
        "ns_enc": "all_to_lower_special",
        "name_enc": "all_to_lower_special",
    },
    "01ff16020824": {"list": [{"none": None}, {"none": None}], "header": 8},
    "01ff15113dd800de": {"string": "\U0001f600", "enc": "utf16"},
    "01ff151a61c3a9e697a5": {"string": "a\u00e9\u65e5", "enc": "utf8"},
    "01ff0801ffffffff00000000": {"tagged_int64": "4294967295"},
    "01ff0f010000008000000000": {"tagged_uint64": "2147483648"},
    "01ff0ffeffffff": {"tagged_uint64": "2147483647"},
    "01ff0800000080": {"tagged_int64": "-1073741824"},
    "01ff25010065cd1d": {"duration": {"seconds": "-1", "nanos": 500000000}},
    "01ff280502": {"decimal": {"unscaled": "-1", "scale": -3}},
    "01ff28ffffffff0f00": {"decimal": {"unscaled": "0", "scale": -2147483648}},
    "01ff2800250000000000000000" + "01": {"decimal": {"unscaled": str(1 << 64), "scale": 0}},
    "01ff19ac0207": {"enum": {"type_id": 300, "value": 7}},
    "01ff130100807f": {"float32": "0x7f800001"},
    "01ff11007e": {"float16": "0x7e00"},
    "01ff27feffffffffffffffff": {"date": str((1 << 63) - 1)},
    "01ff25feffffffffffffffff00000000": {"duration": {"seconds": str((1 << 63) - 1), "nanos": 0}},
    "01ff0effffffffffffffffff": {"var_uint64": str((1 << 64) - 1)},
    "0100160101ff0702": {"list": [{"varint64": "1"}], "header": 1, "tracked": True},
    "01ff170208020202": {"set": [{"int8": "2"}, {"int8": "2"}], "header": 8},
}


@pytest.mark.parametrize("hexin", list(SPOT), ids=list(SPOT))
def test_decode_spot_values(wire, hexin):
    docs, _ = wire.decode_ok(hexin)
    assert [canon(d) for d in docs] == [SPOT[hexin]]


def test_float_and_date_readable_annotations(wire):
    docs, _ = wire.decode_ok("01ff14000000000000f83f01ff2794a80201ff26640000000000000000000000")
    assert docs[0]["float64"] == "0x3ff8000000000000"
    assert float(docs[0]["approx"]) == 1.5
    assert docs[1]["date"] == "18954" and docs[1]["iso"] == "2021-11-23"
    assert docs[2]["iso"].startswith("1970-01-01T00:01:40")


# ---------------------------------------------------------------------------
# Encode of fresh notation, readers ignore readable annotations.
# ---------------------------------------------------------------------------


def test_encode_ignores_approx_and_iso(wire):
    text = '{"float64": "0x3ff8000000000000", "approx": "999"} {"date": "1", "iso": "1999-01-01"}'
    assert wire.encode_ok(text) == "01ff14000000000000f83f" + "01ff2702"


def test_encode_decimal_float_strings(wire):
    text = " ".join(
        json.dumps(d)
        for d in [
            {"float64": "1.5"},
            {"float64": "-0"},
            {"float64": "nan"},
            {"float64": "-inf"},
            {"float32": "0.1"},
            {"float16": "1"},
            {"bfloat16": "-2"},
            {"float16": "65520"},
        ]
    )
    assert wire.encode_ok(text) == (
        "01ff14000000000000f83f"
        "01ff140000000000000080"
        "01ff14000000000000f87f"
        "01ff14000000000000f0ff"
        "01ff13cdcccc3d"
        "01ff11003c"
        "01ff1200c0"
        "01ff11007c"  # 65520 rounds (to even) to +inf in float16
    )


def test_encode_typed_null_and_untyped_null(wire):
    assert wire.encode_ok('{"null": null} {"null": "string"}') == "01fd01fd"


def test_encode_anchor_without_ref_option_tracks(wire):
    """An anchor asks for reference tracking even without --ref (N-2)."""
    text = '{"list": [{"list": [], "anchor": "x"}, {"ref": "x"}]}'
    out = wire.encode_ok(text)
    docs, _ = wire.decode_ok(out)
    d = canon(docs[0])
    assert d["list"][1] == {"ref": "a1"}
    assert d["list"][0]["anchor"] == "a1"


def test_encode_tracked_annotation(wire):
    assert wire.encode_ok('{"varint64": "5", "tracked": true}') == "0100070a"
    assert wire.encode_ok('{"varint64": "5"}') == "01ff070a"
    assert wire.encode_ok('{"varint64": "5"}', ref=True) == "0100070a"
    assert wire.encode_ok('{"null": null}', ref=True) == "01fd"


def test_encode_recorded_choices(wire):
    text = (
        '{"string": "hi", "enc": "utf16"} '
        '{"string": "hi", "enc": "utf8"} '
        '{"list": [{"varint64": "1"}], "header": 0} '
        '{"map": [[{"string": "a"}, {"varint64": "1"}], [{"string": "b"}, {"varint64": "2"}]], '
        '"chunks": [[0, 1], [0, 1]]}'
    )
    assert wire.encode_ok(text) == (
        "01ff1511" + "68006900"  # utf16: 4 bytes << 2 | 1
        + "01ff150a6869"  # utf8: 2 bytes << 2 | 2
        + "01ff1601000702"  # header 0: each element with its type id
        + "01ff1802" + "00011507046102" + "00011507046204"  # two chunks of one
    )


def test_encode_java_string_policy(wire):
    """Without "enc", strings follow fory-core 1.6.0's choice (Java PROBES)."""
    cases = {
        "hi": "latin1",
        "h\u00e9llo": "latin1",
        "\u65e5\u672c": "utf16",
        "\u65e5\u672ca": "utf16",
        "a\u00e9\u65e5": "utf8",
        "\U0001f600": "utf16",
        "\u20ac": "utf16",
        "a\U0001f600": "utf8",
        "a" * 70 + "\u65e5": "utf8",
        "abcde\u65e5": "utf8",
        "abcd\u00e9\u65e5": "utf16",
        "abc\u00e9\u65e5": "utf16",
        "\u00e9\u65e5": "utf16",
        "a" * 63 + "\u65e5\u65e5": "utf16",
        "\u65e5" + "a" * 70: "utf16",
        "": "latin1",
    }
    text = "\n".join(json.dumps({"string": s}) for s in cases)
    want = "".join("01ff15" + string_body(s, enc).hex() for s, enc in cases.items())
    assert wire.encode_ok(text) == want


# ---------------------------------------------------------------------------
# Several roots.
# ---------------------------------------------------------------------------


def test_multiple_roots_one_line_each(wire):
    hexin = "01ff070a" + "01fd" + "01ff1500" + "01ff160208070204" + "01ff0101"
    r = wire.decode(hexin)
    assert r.rc == 0, r
    lines = r.out.splitlines()
    assert len(lines) == 5
    assert [json.loads(x) for x in lines][:2] == [{"varint64": "5"}, {"null": None}]
    for line in lines:
        assert " " not in line, "not compact: %r" % line
    assert wire.encode_ok(r.out) == hexin


def test_encode_documents_on_one_line_and_spread(wire):
    one = '{"varint64":"1"}{"varint64":"2"} {"null":null}'
    spread = '\n\n  {"varint64":\n "1"}\n\t{"varint64":"2"}\n{"null":\nnull}\n\n'
    assert wire.encode_ok(one) == wire.encode_ok(spread) == "01ff070201ff070401fd"


def test_encode_empty_input_gives_no_bytes(wire):
    assert wire.encode_ok("") == ""
    assert wire.encode_ok(" \n\t ") == ""


def test_hex_input_whitespace_and_case(wire):
    docs, _ = wire.decode_ok("01 FF\n07\t0A\n")
    assert docs == [{"varint64": "5"}]


# ---------------------------------------------------------------------------
# --pretty.
# ---------------------------------------------------------------------------


def test_pretty(wire):
    hexin = "01ff16030a07ff02fdff04" + "01ff180100011507046102"
    plain = wire.decode(hexin)
    pretty = wire.decode(hexin, pretty=True)
    assert plain.rc == 0 and pretty.rc == 0, (plain, pretty)
    assert len(plain.out.splitlines()) == 2
    assert len(pretty.out.splitlines()) > 2
    assert re.search(r"^  \"", pretty.out, re.M), "no indentation: %r" % pretty.out
    dec = json.JSONDecoder()
    docs, pos, text = [], 0, pretty.out
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            break
        doc, pos = dec.raw_decode(text, pos)
        docs.append(doc)
    assert docs == [json.loads(x) for x in plain.out.splitlines()]
    assert wire.encode_ok(pretty.out) == hexin


# ---------------------------------------------------------------------------
# dump.
# ---------------------------------------------------------------------------


def _dump_lines(wire, hexin, ref=False):
    r = wire.dump(hexin, ref=ref)
    assert r.rc == 0 and r.err == "", r
    return r.out.splitlines()


def _line_at(lines, offset):
    pat = re.compile(r"^\s*%d\s" % offset)
    found = [x for x in lines if pat.match(x)]
    assert found, "no dump line at offset %d:\n%s" % (offset, "\n".join(lines))
    return found[0]


def test_dump_string(wire):
    lines = _dump_lines(wire, "01ff15086869")
    assert re.search(r"header", _line_at(lines, 0), re.I)
    assert re.search(r"xlang", _line_at(lines, 0), re.I)
    assert re.search(r"ref|flag|null", _line_at(lines, 1), re.I)
    t = _line_at(lines, 2)
    assert re.search(r"type", t, re.I) and re.search(r"\b21\b|string", t, re.I)
    s = _line_at(lines, 3)
    assert re.search(r"string", s, re.I) and re.search(r"header|length|2 byte", s, re.I)
    assert re.search(r"latin1", s, re.I)
    assert re.search(r"hi", _line_at(lines, 4))
    assert re.search(r"\b6\b", lines[-1]) and re.search(r"end", lines[-1], re.I)


def test_dump_offsets_are_increasing_and_cover_input(wire):
    hexin = PYFORY["pyfory nested mixed"]
    lines = _dump_lines(wire, hexin)
    offs = [int(m.group(1)) for m in (re.match(r"^\s*(\d+)\s", x) for x in lines) if m]
    assert offs == sorted(offs)
    assert offs[0] == 0
    assert offs[-1] == len(hexin) // 2


def test_dump_ref_flags_and_list(wire):
    lines = _dump_lines(wire, "0100160209160001080702fe01")
    assert re.search(r"ref", _line_at(lines, 1), re.I)
    assert re.search(r"list", _line_at(lines, 2), re.I)
    assert re.search(r"element|header", _line_at(lines, 4), re.I)
    r = _line_at(lines, 11)
    assert re.search(r"ref", r, re.I) and "fe" in r


def test_dump_map_chunks(wire):
    lines = _dump_lines(wire, "01ff18010aff0702")
    assert re.search(r"map", _line_at(lines, 2), re.I)
    assert re.search(r"chunk", _line_at(lines, 4), re.I)
    assert re.search(r"null", _line_at(lines, 4), re.I)


def test_dump_error_reports_like_decode(wire):
    r = wire.dump("01ff0102")
    cls, off, _ = r.error()
    assert (cls, off) == ("value", 3)


# ---------------------------------------------------------------------------
# Errors.
# ---------------------------------------------------------------------------


def test_error_format_invalid_payload(wire):
    r = wire.decode("01ff0102")
    cls, off, msg = r.error()
    assert cls == "value" and off == 3 and msg
    assert r.out == ""


def test_error_not_hex(wire):
    cls, off, _ = wire.decode("01ff07zz").error()
    assert cls == "notation" and off == 6


def test_error_odd_hex_digits(wire):
    cls, _, _ = wire.decode("01ff070").error()
    assert cls == "notation"


def test_error_empty_input(wire):
    cls, off, _ = wire.decode("").error()
    assert (cls, off) == ("truncated", 0)


def test_error_bad_json(wire):
    cls, off, _ = wire.encode('{"varint64": "5"} {"varint64": ').error()
    assert cls == "notation"
    assert 18 <= off <= 32


@pytest.mark.parametrize(
    "text",
    [
        '{"varint64": 5}',
        '{"varint64": "x"}',
        '{"int8": "128"}',
        '{"uint8": "-1"}',
        '{"var_uint64": "18446744073709551616"}',
        '{"varint64": "1", "bool": true}',
        '{"enc": "utf8"}',
        '{"string": "a", "colour": "red"}',
        '{"string": "a", "enc": "ebcdic"}',
        '{"bool": 1}',
        '{"binary": "abc"}',
        '{"list": [{"ref": "nowhere"}]}',
        '{"timestamp": {"seconds": "0", "nanos": 1000000000}}',
        '{"map": [[{"varint64": "1"}]]}',
        "[1, 2]",
        '"plain"',
        '{"string": "a\\ud800"}',
    ],
)
def test_error_bad_notation(wire, text):
    r = wire.encode(text)
    cls, off, msg = r.error()
    assert cls in ("notation", "string", "value"), (cls, msg)
    assert 0 <= off <= len(text.encode())
    assert r.out == ""


def test_error_on_second_document_reports_its_offset(wire):
    text = '{"varint64": "1"}\n{"varint64": 2}'
    cls, off, _ = wire.encode(text).error()
    assert cls == "notation" and 18 <= off <= len(text)


def test_encode_chunks_that_do_not_match(wire):
    """Chunks that do not fit the entries: --strict fails, the default
    chooses them again (as for an edited document)."""
    text = '{"map": [[{"varint64": "1"}, {"varint64": "2"}]], "chunks": [[0, 2]]}'
    r = wire.run(["encode", "--hex", "--strict"], text)
    cls, _, _ = r.error()
    assert cls == "encode"
    assert wire.encode_ok(text) == wire.encode_ok('{"map": [[{"varint64": "1"}, {"varint64": "2"}]]}')


def test_decode_file_argument(wire, tmp_path):
    p = tmp_path / "in.hex"
    p.write_text("01ff070a\n")
    r = wire.run(["decode", "--hex", str(p)], "")
    assert r.rc == 0 and json.loads(r.out) == {"varint64": "5"}


def test_raw_bytes_both_ways(wire):
    """Without --hex, encode writes and decode reads raw bytes."""
    p = subprocess.run([wire.path, "encode"], input=b'{"string": "hi"} {"varint64": "-1"}', capture_output=True,
                       timeout=20)
    assert p.returncode == 0, p
    assert p.stdout == bytes.fromhex("01ff1508686901ff0701")
    q = subprocess.run([wire.path, "decode"], input=p.stdout, capture_output=True, timeout=20)
    assert q.returncode == 0, q
    assert [json.loads(x) for x in q.stdout.decode().splitlines()] == [
        {"string": "hi", "enc": "latin1"},
        {"varint64": "-1"},
    ]


def test_missing_file_is_an_error(wire, tmp_path):
    r = wire.run(["decode", "--hex", str(tmp_path / "missing.hex")], "")
    assert r.rc != 0 and r.rc > 0
    assert r.err.startswith("error: ")


def test_unknown_command_and_option(wire):
    # spec R-CLI-1: exit status 2 for a usage error.
    r = wire.run(["frobnicate"], "")
    assert r.rc == 2 and r.out == ""
    r = wire.run(["decode", "--nope"], "01fd")
    assert r.rc == 2 and r.err.startswith("error: ")


@pytest.mark.parametrize(
    "text,hexout",
    [
        # Java's bytes for a list containing itself (Java PROBES).
        ('{"list": [{"ref": "x"}], "anchor": "x"}', "010016010916fe00"),
        # Root not tracked: the inner list takes reference id 0.
        ('{"list": [{"list": [{"varint64": "1"}], "anchor": "x"}, {"ref": "x"}]}', "01ff160209160001080702fe00"),
        # A map holding itself as a value: chunk header 08 (value tracking).
        ('{"map": [[{"string": "self"}, {"ref": "x"}]], "anchor": "x"}', "01001801080115181073656c66fe00"),
    ],
)
def test_encode_anchor_cycles_without_ref_option(wire, text, hexout):
    assert wire.encode_ok(text) == hexout
    r = wire.decode(hexout)
    assert r.rc == 0, r
    assert wire.encode_ok(r.out) == hexout
