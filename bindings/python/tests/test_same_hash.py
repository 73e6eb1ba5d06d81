"""Structs of one field layout have one schema hash (spec 5.6: the
fingerprint holds no type name). A payload's root is read as the class of
the type it names - its user type id, or its namespace and type name - and
never as another registered class of the same hash: by id, by a generated
id, by name, and one type name in two namespaces, in both modes, with and
without reference tracking, through the layouts and the tape path."""

import dataclasses

import pytest

import libwire

BY_IDS = """
package sh;
message A [id=701] { int32 n = 1; string s = 2; }
message B [id=702] { int32 n = 1; string s = 2; }
message C { int32 n = 1; string s = 2; }
message D { int32 n = 1; string s = 2; }
"""
BY_NAMES = """
package sh;
option enable_auto_type_id = false;
message A [id=701] { int32 n = 1; string s = 2; }
message B [id=702] { int32 n = 1; string s = 2; }
message C { int32 n = 1; string s = 2; }
message D { int32 n = 1; string s = 2; }
"""
NS_X = "package shx;\noption enable_auto_type_id = false;\n" \
       "message C { int32 n = 1; string s = 2; }\n"
NS_Y = "package shy;\noption enable_auto_type_id = false;\n" \
       "message C { int32 n = 1; string s = 2; }\n"


def _cls(name):
    return dataclasses.make_dataclass(name, [("n", int), ("s", str)])


ShA, ShB, ShC, ShD, ShE, ShF = (_cls("Sh" + x) for x in "ABCDEF")


def make_ctx(names, compatible, ref, layouts):
    ctx = libwire.Context(compatible=compatible, ref=ref)
    ctx.load_schema_text(BY_NAMES if names else BY_IDS)
    bound = [(ShA, "sh.A"), (ShB, "sh.B"), (ShC, "sh.C"), (ShD, "sh.D")]
    if names:
        ctx.load_schema_text(NS_X)
        ctx.load_schema_text(NS_Y)
        bound += [(ShE, "shx.C"), (ShF, "shy.C")]
    for cls, name in bound:
        ctx.register(cls, name)
    ctx._codec.use_layouts(layouts)
    return ctx, [cls for cls, _ in bound]


def test_the_structs_share_one_hash():
    ctx, _ = make_ctx(False, False, False, True)
    a, b = ctx.dumps(ShA(1, "a")), ctx.dumps(ShB(1, "a"))
    assert a[:5] != b[:5] and a[5:] == b[5:]   # 1b bd 05 / 1b be 05, then the same hash


@pytest.mark.parametrize("names", [False, True])
@pytest.mark.parametrize("compatible", [False, True])
@pytest.mark.parametrize("ref", [False, True])
@pytest.mark.parametrize("layouts", [True, False])
def test_each_root_comes_back_as_its_own_class(names, compatible, ref,
                                               layouts):
    ctx, classes = make_ctx(names, compatible, ref, layouts)
    for rnd in range(3):
        order = classes[::-1] if rnd == 1 else classes
        for i, cls in enumerate(order):
            v = cls(rnd * 10 + i, cls.__name__)
            data = ctx.dumps(v)
            back = ctx.loads(data)
            assert type(back) is cls and back == v, (cls, back)
            [all1] = ctx.loads_all(data)
            assert type(all1) is cls and all1 == v
    st = ctx._codec.stats()
    if layouts:
        # every root by id or with a TypeDef through the layouts (loads and
        # loads_all); one by name in schema-consistent mode goes to the
        # tape path
        by_name = 0 if compatible or not names else 4
        assert st["layout_loads"] == 6 * (len(classes) - by_name), st
        assert st["tape_loads"] == 6 * by_name, st
