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
# a namespace of more than 16 meta string bytes (written with its hash)
NS_LONG = "package shy.a_much_longer_namespace;\n" \
          "option enable_auto_type_id = false;\n" \
          "message C { int32 n = 1; string s = 2; }\n"


def _cls(name):
    return dataclasses.make_dataclass(name, [("n", int), ("s", str)])


ShA, ShB, ShC, ShD, ShE, ShF, ShG = (_cls("Sh" + x) for x in "ABCDEFG")


def make_ctx(names, compatible, ref, layouts):
    ctx = libwire.Context(compatible=compatible, ref=ref)
    ctx.load_schema_text(BY_NAMES if names else BY_IDS)
    bound = [(ShA, "sh.A"), (ShB, "sh.B"), (ShC, "sh.C"), (ShD, "sh.D")]
    if names:
        ctx.load_schema_text(NS_X)
        ctx.load_schema_text(NS_Y)
        ctx.load_schema_text(NS_LONG)
        bound += [(ShE, "shx.C"), (ShF, "shy.C"),
                  (ShG, "shy.a_much_longer_namespace.C")]
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
        # every root through the layouts (loads and loads_all): by id, with
        # a TypeDef, or by name in schema-consistent mode (its namespace and
        # type name read by wire_root_type)
        assert st["layout_loads"] == 6 * len(classes), st
        assert st["tape_loads"] == 0, st


@pytest.mark.parametrize("ref", [False, True])
def test_by_name_roots_without_a_class_or_a_type(ref):
    """Schema-consistent mode, a root by name: a type with no class bound
    comes back as a generic Struct (the tape path), a type the reader's
    schema lacks and a meta string reference where the root's names must
    be announced are refused with the tape path's messages; none is read
    as a class of the same hash."""
    ctx, _ = make_ctx(True, False, ref, True)
    data = ctx.dumps(ShG(3, "g"))
    bare = libwire.Context(compatible=False, ref=ref)
    bare.load_schema_text(NS_LONG)
    bare.register(ShE, "shy.a_much_longer_namespace.C")
    assert bare.loads(data) == ShE(3, "g")       # the class bound to the name
    plain = libwire.Context(compatible=False, ref=ref)
    plain.load_schema_text(NS_LONG)
    back = plain.loads(data)
    assert isinstance(back, libwire.Struct)
    assert back.type == "shy.a_much_longer_namespace.C"
    assert plain._codec.stats()["tape_loads"] == 1
    other = libwire.Context(compatible=False, ref=ref)
    other.load_schema_text(NS_X)
    other.register(ShE, "shx.C")
    with pytest.raises(libwire.WireError) as e:
        other.loads(data)
    assert e.value.cls == "schema" and e.value.offset == 2
    assert "struct shy.a_much_longer_namespace.C is not in the schema" in \
        e.value.message
    bad = bytearray(data)
    bad[3] = 0x23                       # a reference, not the namespace
    with pytest.raises(libwire.WireError) as e:
        ctx.loads(bytes(bad))
    assert e.value.cls == "meta_string" and e.value.offset == 3
