"""A compatible-mode struct field declared as struct g.A holding a value of
another kind or type, as pyfory 1.7.7 writes one (spec/errata.md E-58): an
int, a string, a list, a struct g.B, an enum, None where the field is not
nullable (NONE type meta) and where it is; by id and by name. A Python
class cannot be told what its attribute may hold, and pyfory reads each
back as written (H(f=5)); libwire's Python binding gives the same value on
both codec paths (the layouts and the tape path), the same as a document
decode, and writes it again."""

import dataclasses
from typing import Optional

import pytest

import libwire


@dataclasses.dataclass
class A:
    x: int = 0


@dataclasses.dataclass
class B:
    y: int = 0


@dataclasses.dataclass
class H:
    f: A = None


@dataclasses.dataclass
class HN:
    f: Optional[A] = None


BY_ID = """package g;
message A [id=101] { int32 x = 1; }
message B [id=102] { int32 y = 1; }
enum E [id=103] { R = 0; G = 1; }
message H [id=104] { A f = 1 [nullable = false]; }
message HN [id=105] { A f = 1; }
"""
BY_NAME = """package g;
option enable_auto_type_id = false;
message A { int32 x = 1; }
message B { int32 y = 1; }
enum E { R = 0; G = 1; }
message H { A f = 1 [nullable = false]; }
message HN { A f = 1; }
"""

# pyfory 1.7.7 (compatible, ref off): "id|name/H|HN/what", hex
CASES = [
    ("id/H/B", "01ff1c000570adb6905aba49c168401c141c02052019cb91382d7cc16640056012"),
    ("id/H/a", "01ff1c000570adb6905aba49c168401c141c0205b041dfe88ea318c16540055c0e"),
    ("id/H/enum", "01ff1c000570adb6905aba49c168401c14196701"),
    ("id/H/i32", "01ff1c000570adb6905aba49c168401c14070a"),
    ("id/H/list", "01ff1c000570adb6905aba49c168401c14160208070204"),
    ("id/H/null", "01ff1c000570adb6905aba49c168401c1424"),
    ("id/H/str", "01ff1c000570adb6905aba49c168401c1415086869"),
    ("id/HN/B", "01ff1c00054099c7d5efb577c169421c14ff1c02052019cb91382d7cc16640056012"),
    ("id/HN/a", "01ff1c00054099c7d5efb577c169421c14ff1c0205b041dfe88ea318c16540055c0e"),
    ("id/HN/enum", "01ff1c00054099c7d5efb577c169421c14ff196701"),
    ("id/HN/i32", "01ff1c00054099c7d5efb577c169421c14ff070a"),
    ("id/HN/list", "01ff1c00054099c7d5efb577c169421c14ff160208070204"),
    ("id/HN/null", "01ff1c00054099c7d5efb577c169421c14fd"),
    ("id/HN/str", "01ff1c00054099c7d5efb577c169421c14ff15086869"),
    ("name/H/B", "01ff1e0008a00ec837b13d02e10518071c401e141e0208203cbb04227017e10518070440056012"),
    ("name/H/a", "01ff1e0008a00ec837b13d02e10518071c401e141e020850bec0e29d021de10518070040055c0e"),
    ("name/H/enum", "01ff1e0008a00ec837b13d02e10518071c401e141a020580e7c96c3d732d010518071001"),
    ("name/H/i32", "01ff1e0008a00ec837b13d02e10518071c401e14070a"),
    ("name/H/list", "01ff1e0008a00ec837b13d02e10518071c401e14160208070204"),
    ("name/H/null", "01ff1e0008a00ec837b13d02e10518071c401e1424"),
    ("name/H/str", "01ff1e0008a00ec837b13d02e10518071c401e1415086869"),
    ("name/HN/B", "01ff1e00092053a82d307b76e105180a4338421e14ff1e0208203cbb04227017e10518070440056012"),
    ("name/HN/a", "01ff1e00092053a82d307b76e105180a4338421e14ff1e020850bec0e29d021de10518070040055c0e"),
    ("name/HN/enum", "01ff1e00092053a82d307b76e105180a4338421e14ff1a020580e7c96c3d732d010518071001"),
    ("name/HN/i32", "01ff1e00092053a82d307b76e105180a4338421e14ff070a"),
    ("name/HN/list", "01ff1e00092053a82d307b76e105180a4338421e14ff160208070204"),
    ("name/HN/null", "01ff1e00092053a82d307b76e105180a4338421e14fd"),
    ("name/HN/str", "01ff1e00092053a82d307b76e105180a4338421e14ff15086869"),
]

WANT = {
    "a": A(7), "i32": 5, "str": "hi", "list": [1, 2], "B": B(9),
    "enum": libwire.EnumValue("g.E", 1), "null": None,
}


def make_ctx(by_name, layouts):
    ctx = libwire.Context(compatible=True)
    ctx.load_schema_text(BY_NAME if by_name else BY_ID)
    for cls, name in ((A, "g.A"), (B, "g.B"), (H, "g.H"), (HN, "g.HN")):
        ctx.register(cls, name)
    ctx._codec.use_layouts(layouts)
    return ctx


@pytest.mark.parametrize("key,hexs", CASES)
def test_read_as_written_on_both_paths(key, hexs):
    reg, holder, what = key.split("/")
    data = bytes.fromhex(hexs)
    want = WANT[what]
    for layouts in (True, False):
        ctx = make_ctx(reg == "name", layouts)
        got = ctx.loads(data)
        assert type(got) is (HN if holder == "HN" else H), (key, layouts, got)
        f = got.f
        if what == "null" and holder == "H":
            assert f is libwire.NONE, (key, layouts, got)   # NONE type meta, not null
        else:
            assert f == want and type(f) is type(want), (key, layouts, got)
        # and written again (its own TypeDefs, so not pyfory's bytes): no fit
        # check refuses it, and it reads back the same
        back = ctx.loads(ctx.dumps(got))
        assert back == got and type(back.f) is type(got.f), (key, layouts, back)
