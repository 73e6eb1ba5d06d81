"""Invalid inputs and the error class the spec gives for each
(spec/04-errors-and-limits.md, and the rule named in "rules").

Most byte strings are written by hand from the layouts of spec/01 and
spec/02; the truncation and corruption cases are cut from the canonical bytes
of valid fixtures (so they start from bytes a runtime wrote). TypeDefs
built here get the header hash a writer computes, so that they fail only
where they mean to. A few tests are byte strings a runtime writes against
the spec (spec/errata.md E-29, E-33: the corpus bytes, and pyfory's bytes of
a corpus case in the other mode from typed.corpus_produce). The class is
the spec's: check_libwire.py compares it with what `wire decode` reports.
"""


SINCE = "0.1.0"


class Builder:
    def __init__(self, valid):
        self.valid = {(t["_area"], t["_key"]): t for t in valid}
        self.tests = []

    def add(self, area, group, key, name, hexstr, error, rules, ref=False, compatible=False, schemas=(), tags=(),
            note=None, upstream=None, buffers=()):
        hexstr = hexstr.replace(" ", "").lower()
        t = {"_area": area, "_key": key, "_group": group, "name": name, "rules": list(dict.fromkeys(rules)),
             "config": {"ref": ref, "compatible": compatible}, "schemas": list(schemas), "bytes": hexstr,
             "error": error, "tags": sorted(set(tags)), "since": SINCE}
        if upstream:
            t["upstream_case"] = upstream
        if note:
            t["note"] = note
        if buffers:
            t["buffers"] = list(buffers)
        self.tests.append(t)

    def bytes_of(self, area, key):
        t = self.valid.get((area, key))
        if t is None:
            raise KeyError("valid test %s/%s not found (was it dropped?)" % (area, key))
        return t


R_TRUNC = ["R-PAYLOAD-4", "R-ERR-2"]


def truncations(b, area, key, label, extra_rules=(), only=None):
    """Every strict prefix of a valid test's canonical bytes."""
    t = b.bytes_of(area, key)
    data = t["bytes"]
    n = len(data) // 2
    rules = R_TRUNC + list(extra_rules)
    offsets = range(n) if only is None else [o for o in only if o < n]
    for k in offsets:
        b.add("truncated", "inv.truncated." + label, "%s prefix %d" % (label, k),
              "%s cut after %d of %d bytes" % (t["name"], k, n), data[:2 * k], "truncated", rules,
              ref=t["config"]["ref"], compatible=t["config"]["compatible"], schemas=t["schemas"], tags=t["tags"],
              upstream=t.get("upstream_case"))


def hostile(b):
    """Small payloads of the hostile classes of spec R-SEC-9..12 (the large
    ones come from libwire/tests/hostile/hostile_gen.h)."""
    A, G = "hostile", "inv.hostile"
    b.add(A, G, "ms ref across roots", "a meta string reference to a name announced in the previous root "
          "(the table is per root)",
          "01ff1a 0600616263 060078797a 00" + "01ff1a 03 05 00", "meta_string",
          ["R-SEC-10", "R-SEC-5", "R-MSWIRE-6"], tags=["named_types", "meta_string"])
    b.add(A, G, "depth over the cap", "%d nested lists: deeper than the largest depth limit (1024)" % 1026,
          "01ff16" + "010816" * 1025 + "00", "depth", ["R-LIMIT-8", "R-LIMIT-1", "R-SEC-4"])
    b.add(A, G, "zero width two roots", "two roots of 1024 NONE each in 14 bytes: the zero-width budget "
          "(1024 + 14/8) is the payload's", "01ff16800808 24" * 2, "limit", ["R-SEC-11", "R-LIST-9"])
    b.add(A, G, "zero width one root", "1032 NONE in a 7-byte payload (budget 1024 + 7/8 = 1024)", "01ff16880808 24",
          "limit", ["R-SEC-11", "R-LIST-9"])
    b.add(A, G, "nested counts", "a list of 5 whose first element, a list of 5 nulls, takes the bytes its "
          "4 later siblings need", "01ff160500 160502fdfdfdfdfd", "truncated", ["R-SEC-12", "R-LIST-7"])
    b.add(A, G, "nested map counts", "a map of 4 null->null entries inside a list of 3 that owes 2 more "
          "elements", "01ff160300 180412121212", "truncated", ["R-SEC-12", "R-LIST-7"])
    # Each root: a list (16) of 700 (bc05) elements of one declared type
    # (08), a compatible struct (1c) whose TypeDef has no fields; the 700
    # null roots (01 fd) after them are the bytes both lists claim.
    empty_structs = "01ff16bc05081c0006a0e25a1cd9f237c092e496ff06"
    b.add(A, G, "zero width empty structs", "two roots, each a list of 700 empty structs (read through a TypeDef) "
          "claiming the same 700 bytes of null roots: the structs take no bytes, so they draw on the zero-width "
          "budget (1024 + 744/2)", empty_structs * 2 + "01fd" * 350, "limit", ["R-SEC-11", "R-LIST-9"],
          compatible=True, tags=["typedef"])


def out_of_band(b):
    """Payloads with header 03 (spec 1.12.1), read with the Java runtime's
    marker rule (binaries and dense arrays, R-OOB-3), with their buffers."""
    A, G, T = "oob", "inv.oob", ["oob"]
    R = ["R-OOB-2", "R-PAYLOAD-3"]
    b.add(A, G, "marker 02", "binary marker 02 (only 00 and 01 are defined)", "03ff2902", "value", R, tags=T)
    b.add(A, G, "marker ff", "int32_array marker ff", "03ff2eff", "value", R, tags=T + ["dense_array"])
    b.add(A, G, "no marker", "the payload ends where the binary's marker is", "03ff29", "truncated",
          R + ["R-PAYLOAD-4"], tags=T)
    b.add(A, G, "no buffer", "an out-of-band binary and no buffer", "03ff2900", "truncated",
          R + ["R-OOB-1", "R-OOB-4"], tags=T)
    b.add(A, G, "one buffer short", "a list of two out-of-band binaries (Fory Java's bytes) with one buffer",
          "03ff160208290000", "truncated", R + ["R-OOB-1", "R-OOB-4"], tags=T, buffers=["09"])
    b.add(A, G, "buffer width", "an out-of-band int32_array whose buffer has 3 bytes", "03ff2e00", "length",
          R + ["R-OOB-4", "R-BIN-2"], tags=T + ["dense_array"], buffers=["010203"])
    b.add(A, G, "buffer width f64", "an out-of-band float64_array whose buffer has 12 bytes", "03ff3800",
          "length", R + ["R-OOB-4", "R-BIN-2"], tags=T + ["dense_array"], buffers=["00" * 12])
    b.add(A, G, "buffer bool", "an out-of-band bool_array whose buffer holds a byte 02", "03ff2b00", "value",
          R + ["R-OOB-4", "R-BIN-3"], tags=T + ["dense_array"], buffers=["0102"])
    b.add(A, G, "in band width", "an in-band int32_array of 3 bytes", "03ff2e0103010203", "length",
          R + ["R-BIN-2"], tags=T + ["dense_array"])
    b.add(A, G, "in band cut", "an in-band binary whose length is missing", "03ff2901", "truncated",
          R + ["R-PAYLOAD-4"], tags=T)
    b.add(A, G, "header 07", "header 07: a reserved bit with the out-of-band bit", "07ff2900", "header",
          ["R-PAYLOAD-2", "R-PAYLOAD-3"], tags=T)
    b.add(A, G, "second root", "a root with header 01, then one with header 03 whose binary marker is 02",
          "01ff290100" + "03ff2902", "value", ["R-OOB-2", "R-PAYLOAD-3", "R-PAYLOAD-5"], tags=T)


def build(valid):
    b = Builder(valid)

    # -- truncation at every offset of representative payloads -------------
    truncations(b, "collections/map", "mixed-chunks", "map_mixed_chunks", ["R-MAP-3", "R-MAP-4"])
    truncations(b, "collections/list", "heterogeneous", "list_heterogeneous", ["R-LIST-4", "R-LIST-7"])
    truncations(b, "primitives/string", "string a-e-ri", "string_utf8", ["R-STR-4", "R-VARINT-4"])
    truncations(b, "primitives/varint", "varint64 -9223372036854775808", "varint64_min", ["R-VARINT-4"])
    truncations(b, "decimal", "decimal 18446744073709551616 0", "decimal_big", ["R-DEC-2"])
    truncations(b, "temporal", "timestamp 1577836800 123456000", "timestamp", ["R-TIME-1"])
    truncations(b, "enum", "named demo|Color", "named_enum", ["R-MSWIRE-6"])
    truncations(b, "refs", "shared-list", "ref_shared_list", ["R-REF-3"])
    truncations(b, "arrays/dense", "float64_array small", "float64_array", ["R-BIN-2"])
    truncations(b, "structs/test_one_string_field_compatible", "corpus", "struct_compatible", [])
    truncations(b, "structs/test_struct_version_check", "corpus", "struct_schema_consistent", [])

    # -- header bitmap --------------------------------------------------------
    A, G = "header", "inv.header"
    for hb in ["00", "02", "04", "05", "09", "41", "81", "ff", "fd"]:
        b.add(A, G, "header %s" % hb, "header byte %s" % hb, hb + "ff070a", "header", ["R-PAYLOAD-2", "R-PAYLOAD-3"])
    # 03 (xlang, out-of-band buffers) is valid (R-PAYLOAD-3); its errors are in oob.json
    b.add(A, G, "trailing ff", "a byte ff after a complete root", "01ff070aff", "header", ["R-PAYLOAD-4"])
    b.add(A, G, "trailing 00", "a byte 00 after a complete root", "01ff070a00", "header", ["R-PAYLOAD-4"])
    b.add(A, G, "trailing 01", "a lone header byte after a complete root", "01ff070a01", "truncated",
          ["R-PAYLOAD-4"])
    b.add(A, G, "empty", "empty input", "", "truncated", ["R-PAYLOAD-4"])

    # -- reference flags ---------------------------------------------------------
    A, G = "ref", "inv.ref"
    for flag in ["05", "80", "fc", "7f"]:
        b.add(A, G, "root flag %s" % flag, "root reference flag %s" % flag, "01" + flag + "070a", "ref", ["R-REF-1"])
    b.add(A, G, "root ref 0", "root REF to id 0 (nothing assigned)", "01fe00", "ref", ["R-REF-4", "R-PAYLOAD-6"])
    b.add(A, G, "root ref 5", "root REF to id 5", "01fe05", "ref", ["R-REF-4", "R-PAYLOAD-6"])
    b.add(A, G, "root ref 0 tracking", "root REF to id 0, reference tracking on", "01fe00", "ref",
          ["R-REF-4", "R-REF-7"], ref=True)
    b.add(A, G, "forward ref", "list element REF to an id not yet assigned", "0100160209 16 fe01", "ref",
          ["R-REF-4"], ref=True)
    b.add(A, G, "forward ref far", "list element REF to id 1000", "0100160209 16 fee807", "ref", ["R-REF-4"],
          ref=True)
    b.add(A, G, "ref in null-only slot", "flag 00 where only null/not-null flags are allowed",
          "01ff16020a07 00 02 ff04", "ref", ["R-REF-2", "R-LIST-4"])
    b.add(A, G, "fe in null-only slot", "flag fe where only null/not-null flags are allowed",
          "01ff16020a07 fe00 ff04", "ref", ["R-REF-2", "R-LIST-4"])
    b.add(A, G, "bad element flag", "element flag 05 in a tracked list", "0100160209 07 0502", "ref", ["R-REF-1"])
    b.add(A, G, "bad map flag", "key flag 05 in a tracked map chunk", "01ff18010901 1507 05 0461 ff02", "ref",
          ["R-REF-1", "R-MAP-4"])
    b.add(A, G, "ref to root in second root", "REF in the second root to an id of the first root",
          "0100160208070202 01fe00", "ref", ["R-REF-4", "R-PAYLOAD-5"], ref=True)

    # -- varints ------------------------------------------------------------------
    A, G = "varint", "inv.varint"
    cases = [
        ("var_uint32 overlong 80 00", "0c8000", ["R-VARINT-3"]),
        ("var_uint32 overlong ff 80 00", "0cff8000", ["R-VARINT-3"]),
        ("var_uint32 33 bits", "0cffffffff1f", ["R-VARINT-2"]),
        ("var_uint32 6 bytes", "0cffffffffff01", ["R-VARINT-2"]),
        ("var_uint32 fifth byte 10", "0c8080808010", ["R-VARINT-2"]),
        ("varint32 overlong", "058000", ["R-VARINT-3", "R-VARINT-5"]),
        ("varint32 33 bits", "05ffffffff1f", ["R-VARINT-2", "R-VARINT-5"]),
        ("varint64 overlong", "078000", ["R-PVL-3"]),
        ("varint64 overlong 8 bytes", "0780808080808080 00", ["R-PVL-3"]),
        ("varint64 ninth byte 00", "07808080808080808000", ["R-PVL-3"]),
        ("var_uint64 overlong", "0e8000", ["R-PVL-3"]),
        ("var_uint64 ninth byte 00", "0e808080808080808000", ["R-PVL-3"]),
        ("list count overlong", "168000", ["R-VARINT-3", "R-LIST-1"]),
        ("map count overlong", "188000", ["R-VARINT-3", "R-MAP-1"]),
        ("binary length overlong", "298000", ["R-VARINT-3", "R-BIN-1"]),
        ("string header overlong", "158000", ["R-V36-2"]),
        ("string header fifth byte 00", "158080808000", ["R-V36-2"]),
        ("enum id overlong", "198000 00", ["R-VARINT-3", "R-TYPE-2"]),
        ("enum value overlong", "1965 8000", ["R-VARINT-3", "R-ENUM-1"]),
        ("date overlong", "278000", ["R-PVL-3", "R-TIME-3"]),
        ("duration seconds overlong", "25 8000 00000000", ["R-PVL-3", "R-TIME-1"]),
        ("decimal scale overlong", "28 8000 00", ["R-VARINT-3"]),
        ("decimal header overlong", "28 00 8000", ["R-PVL-3"]),
        ("tagged_int64 first byte 03", "0803000000", ["R-TAGGED-3"]),
        ("tagged_int64 first byte ff", "08ffffffff", ["R-TAGGED-3"]),
        ("tagged_int64 long form of 5", "08 01 0500000000000000", ["R-TAGGED-3"]),
        ("tagged_int64 long form of -1", "08 01 ffffffffffffffff", ["R-TAGGED-3"]),
        ("tagged_int64 long form of 2^30-1", "08 01 ffffff3f00000000", ["R-TAGGED-3"]),
        ("tagged_uint64 long form of 5", "0f 01 0500000000000000", ["R-TAGGED-3"]),
        ("tagged_uint64 long form of 2^31-1", "0f 01 ffffff7f00000000", ["R-TAGGED-3"]),
        ("tagged_uint64 first byte 05", "0f05000000", ["R-TAGGED-3"]),
    ]
    for key, body, rules in cases:
        b.add(A, G, key, key, "01ff" + body, "varint", rules)

    # -- strings ------------------------------------------------------------------
    A, G = "string", "inv.string"
    cases = [
        ("encoding 3", "0761", "header (1 << 2) | 3: reserved encoding"),
        ("encoding 3 empty", "03", "header 3: reserved encoding, length 0"),
        ("utf16 odd length 1", "0561", "UTF-16 of one byte"),
        ("utf16 odd length 3", "0d616263", "UTF-16 of three bytes"),
        ("utf16 lone high surrogate", "0900d8", "a high surrogate at the end"),
        ("utf16 lone low surrogate", "0900dc", "a low surrogate alone"),
        ("utf16 high then ascii", "1100d84100", "a high surrogate followed by 'A'"),
        ("utf16 low then high", "1100dc00d8", "low surrogate before high surrogate"),
        ("utf16 two highs", "1100d800d8", "two high surrogates"),
        ("utf8 ff", "06ff", "byte ff"),
        ("utf8 fe", "06fe", "byte fe"),
        ("utf8 lone continuation", "0680", "a continuation byte alone"),
        ("utf8 missing continuation", "0ac341", "c3 followed by 'A'"),
        ("utf8 cut sequence", "06c3", "c3 at the end of the text"),
        ("utf8 cut 3-byte sequence", "0ae697", "e6 97 at the end of the text"),
        ("utf8 overlong 2-byte", "0ac080", "c0 80: overlong NUL"),
        ("utf8 overlong c1", "0ac1bf", "c1 bf: overlong"),
        ("utf8 overlong 3-byte", "0ee08080", "e0 80 80: overlong"),
        ("utf8 overlong 4-byte", "12f0808080", "f0 80 80 80: overlong"),
        ("utf8 surrogate", "0eeda080", "ed a0 80: U+D800"),
        ("utf8 low surrogate", "0eedbfbf", "ed bf bf: U+DFFF"),
        ("utf8 above 10ffff", "12f4908080", "f4 90 80 80: U+110000"),
        ("utf8 f5", "12f5808080", "f5: never valid"),
    ]
    for key, body, what in cases:
        b.add(A, G, key, "string: %s" % what, "01ff15" + body, "string", ["R-STR-3", "R-STR-4"])
    b.add(A, G, "utf8 bad in list", "list of strings whose second text is not UTF-8", "01ff1602081504610680",
          "string", ["R-STR-3"])
    b.add(A, G, "string length over input", "string of 100 bytes with 2 present", "01ff15920161 62", "truncated",
          ["R-STR-4"])
    b.add(A, G, "string length limit", "string header announcing 2^31 bytes", "01ff15" + "8280808020", "limit",
          ["R-STR-4", "R-LIMIT-1", "R-SEC-2"])

    # -- type ids -----------------------------------------------------------------
    A, G = "type", "inv.type"
    for tid in ["00", "10", "2a", "34", "39", "3f", "40", "7f", "80", "ff"]:
        b.add(A, G, "type id %s" % tid, "type id 0x%s" % tid, "01ff" + tid + "00", "type", ["R-TYPE-3"])
    b.add(A, G, "list element type 00", "list with element type 0", "01ff16010800", "type", ["R-TYPE-3"])
    b.add(A, G, "map key type 10", "map chunk with key type FLOAT8", "01ff1801000110070000", "type", ["R-TYPE-3"])

    # -- values and lengths ---------------------------------------------------------
    A, G = "value", "inv.value"
    b.add(A, G, "bool 2", "bool byte 02", "01ff0102", "value", ["R-BOOL-2"])
    b.add(A, G, "bool ff", "bool byte ff", "01ff01ff", "value", ["R-BOOL-2"])
    b.add(A, G, "bool in list", "list of bools with byte 03", "01ff1602080100 03", "value", ["R-BOOL-2"])
    b.add(A, G, "bool_array 2", "bool_array with byte 02", "01ff2b0102", "value", ["R-BIN-3"])
    b.add(A, G, "timestamp nanos 1e9", "timestamp with 1 000 000 000 ns", "01ff26" + "00" * 8 + "00ca9a3b", "value",
          ["R-TIME-2"])
    b.add(A, G, "timestamp nanos ffffffff", "timestamp with nanoseconds ffffffff", "01ff26" + "00" * 8 + "ffffffff",
          "value", ["R-TIME-2"])
    b.add(A, G, "duration nanos 1e9", "duration with 1 000 000 000 ns", "01ff2500" + "00ca9a3b", "value",
          ["R-TIME-2"])
    b.add(A, G, "duration nanos negative", "duration with nanoseconds -1", "01ff2500" + "ffffffff", "value",
          ["R-TIME-2"])
    b.add(A, G, "root int32 varint body", "root INT32 with a one-byte body, as the Java runtime 1.6.0 reads it",
          "01ff0401", "truncated", ["R-FIXED-1", "R-PAYLOAD-4"],
          note="INT32 has a fixed 4-byte body; the Java runtime reads a root INT32 as a varint (spec/errata.md "
               "E-19).")
    b.add(A, G, "root int64 varint body", "root INT64 with a one-byte body, as the Java runtime 1.6.0 reads it",
          "01ff0601", "truncated", ["R-FIXED-1", "R-PAYLOAD-4"],
          note="INT64 has a fixed 8-byte body; the Java runtime reads a root INT64 as a varint (spec/errata.md "
               "E-19).")
    A, G = "length", "inv.length"
    for key, tid, n in [("int16_array", "2d", 3), ("int32_array", "2e", 6), ("int64_array", "2f", 12),
                        ("uint16_array", "31", 1), ("uint32_array", "32", 2), ("uint64_array", "33", 7),
                        ("float16_array", "35", 3), ("bfloat16_array", "36", 5), ("float32_array", "37", 9),
                        ("float64_array", "38", 15)]:
        b.add(A, G, "%s length %d" % (key, n), "%s with a byte length of %d" % (key, n),
              "01ff" + tid + "%02x" % n + "00" * n, "length", ["R-BIN-2"])
    b.add(A, G, "binary over input", "binary of 1000 bytes with 3 present", "01ff29e807010203", "truncated",
          ["R-BIN-2", "R-SEC-2"])
    b.add(A, G, "binary limit", "binary announcing 2^31 bytes", "01ff29" + "8080808008", "limit",
          ["R-BIN-2", "R-LIMIT-1"])
    b.add(A, G, "int32_array limit", "int32_array announcing 2^31 + 4 bytes", "01ff2e" + "8480808008", "limit",
          ["R-BIN-2", "R-LIMIT-1"])

    # -- collections ------------------------------------------------------------------
    A, G = "collection", "inv.collection"
    b.add(A, G, "list header 10", "list element header with reserved bit 0x10", "01ff1601180702", "collection",
          ["R-LIST-3"])
    b.add(A, G, "list header 80", "list element header with reserved bit 0x80", "01ff1601880702", "collection",
          ["R-LIST-3"])
    b.add(A, G, "set header f8", "set element header f8", "01ff1701f80702", "collection", ["R-LIST-3"])
    b.add(A, G, "map chunk size 0", "map chunk of 0 entries", "01ff18010000", "collection", ["R-MAP-5"])
    b.add(A, G, "map chunk too big", "map chunk of 2 entries where 1 is left", "01ff18010002150704610204620404",
          "collection", ["R-MAP-5"])
    b.add(A, G, "map second chunk too big", "second chunk larger than the entries left",
          "01ff1802000115070461020002150704620404", "collection", ["R-MAP-5"])
    b.add(A, G, "map chunk header 40", "map chunk header with reserved bit 0x40", "01ff180140011507046102",
          "collection", ["R-MAP-2"])
    b.add(A, G, "map chunk header 80", "map chunk header with reserved bit 0x80", "01ff180180011507046102",
          "collection", ["R-MAP-2"])
    b.add(A, G, "list declared", "list element header with the declared bit (needs a schema)", "01ff16010c0702",
          "unsupported", ["R-LIST-3", "R-FIELD-7"])
    b.add(A, G, "map key declared", "map chunk with the key-declared bit (needs a schema)", "01ff18010401070461 02",
          "unsupported", ["R-MAP-2", "R-FIELD-7"])
    b.add(A, G, "all-null list java", "list [null, null] as the Java runtime 1.6.0 writes it: element type "
          "NAMED_STRUCT java.lang.Object", "01ff 16 02 0a 1d 0c 04 24 15 06 96 06 98 08 03 38 29 20 a6 fd fd", "schema",
          ["R-LIST-5", "R-UTYPE-7"], tags=["named_types", "meta_string"],
          note="The bytes of spec/errata.md E-18. A same-schema struct needs its schema (R-UTYPE-7); no runtime "
               "registers java.lang.Object, so no reader, Java included, can read this list.")
    b.add(A, G, "list count over input", "list of 100 elements with 2 bytes left", "01ff16640807 02", "truncated",
          ["R-LIST-7", "R-SEC-2"])
    b.add(A, G, "set count over input", "set of 1000 elements with 3 bytes left", "01ff17e8070807 02", "truncated",
          ["R-LIST-7", "R-SEC-2"])
    b.add(A, G, "map count over input", "map of 1000 entries with 3 bytes left", "01ff18e80700011507", "truncated",
          ["R-MAP-6", "R-SEC-2"])
    b.add(A, G, "list count limit", "list of 10^9 elements", "01ff168094ebdc03080702", "limit",
          ["R-LIST-7", "R-LIMIT-1"])
    b.add(A, G, "set count limit", "set of 2^24 + 1 elements", "01ff17818080080807 02", "limit",
          ["R-LIST-7", "R-LIMIT-1"])
    b.add(A, G, "map count limit", "map of 2^32 - 1 entries", "01ff18ffffffff0f00011507", "limit",
          ["R-MAP-6", "R-LIMIT-1"])
    b.add(A, G, "none elements limit", "list of 8193 NONE elements without flags (zero-width bomb)",
          "01ff16814008 24", "limit", ["R-LIST-9", "R-LIMIT-2", "R-SEC-2"])
    b.add(A, G, "none elements limit two lists", "two lists of 4097 NONE elements in one root",
          "01ff160208 16 81200824 81200824", "limit", ["R-LIST-9", "R-LIMIT-2"])

    # -- decimals -----------------------------------------------------------------------
    A, G = "decimal", "inv.decimal"
    b.add(A, G, "big len 0", "big form with a magnitude of 0 bytes", "01ff280001", "decimal", ["R-DEC-3"])
    b.add(A, G, "big trailing zero", "big form whose last magnitude byte is 00", "01ff2800050100", "decimal",
          ["R-DEC-3"])
    b.add(A, G, "big in small range 1", "big form holding 1", "01ff28000501", "decimal", ["R-DEC-3", "R-DEC-1"])
    b.add(A, G, "big in small range 2^62-1", "big form holding 2^62 - 1", "01ff280021ffffffffffffff3f", "decimal",
          ["R-DEC-3", "R-DEC-1"])
    b.add(A, G, "big in small range -2^62", "big form holding -2^62", "01ff2800230000000000000040", "decimal",
          ["R-DEC-3", "R-DEC-1"])
    b.add(A, G, "big negative zero", "big form holding -0", "01ff28000700", "decimal", ["R-DEC-3", "R-DEC-5"])
    b.add(A, G, "big len over limit", "big form of 10001 magnitude bytes", "01ff2800" + "c5b802", "decimal",
          ["R-DEC-3", "R-LIMIT-1"])

    # -- meta strings --------------------------------------------------------------------
    A, G = "meta_string", "inv.meta_string"
    # NAMED_ENUM demo.Color (Java): 1a | 06 04 0c8c70 | 08 03 89cb7440 | 01
    b.add(A, G, "ref index 0", "namespace given as a reference to index 0 (nothing announced)",
          "01ff1a 01 080389cb7440 01", "meta_string", ["R-MSWIRE-6"], tags=["named_types", "meta_string"])
    b.add(A, G, "ref index too big", "type name given as a reference to index 5",
          "01ff1a 06040c8c70 0b 01", "meta_string", ["R-MSWIRE-6"], tags=["named_types", "meta_string"])
    # "ref wrong role" (inv.meta_string.0003, id retired): a type name given
    # as a reference to an equal namespace is valid - pyfory 1.7.7 writes it
    # (errata E-39).
    b.add(A, G, "encoding 5", "namespace with encoding id 5", "01ff1a 06050c8c70 080389cb7440 01", "meta_string",
          ["R-MSWIRE-6"], tags=["named_types", "meta_string"])
    b.add(A, G, "encoding ff", "namespace with encoding id ff", "01ff1a 06ff0c8c70 080389cb7440 01", "meta_string",
          ["R-MSWIRE-6"], tags=["named_types", "meta_string"])
    b.add(A, G, "5-bit value 31", "namespace with a 5-bit value of 31", "01ff1a 0604fc8c70 080389cb7440 01",
          "meta_string", ["R-MS-6"], tags=["named_types", "meta_string"])
    b.add(A, G, "padding not zero", "namespace with non-zero padding bits", "01ff1a 06040c8c71 080389cb7440 01",
          "meta_string", ["R-MS-5", "R-MS-6"], tags=["named_types", "meta_string"])
    b.add(A, G, "flag bit wrong", "namespace whose flag bit is set where the padding has no room for a value",
          "01ff1a 06048c8c70 080389cb7440 01", "meta_string", ["R-MS-5", "R-MS-6"],
          tags=["named_types", "meta_string"])
    b.add(A, G, "first_to_lower lower first", "FIRST_TO_LOWER_SPECIAL whose first letter decodes upper from a "
          "non-letter", "01ff1a 06040c8c70 0403d0 01", "meta_string", ["R-MS-3", "R-MS-6"],
          tags=["named_types", "meta_string"])
    b.add(A, G, "utf8 invalid", "namespace in UTF8 encoding with byte ff", "01ff1a 0200ff 080389cb7440 01",
          "meta_string", ["R-MS-6"], tags=["named_types", "meta_string"])
    # "duplicate announcement" (inv.meta_string.0011, id retired): the same
    # names announced again in one root are accepted since libwire 8871b0c
    # (Fory Go writes them).
    # enum.named "demo.averyveryverylongtypenamexyz" with one bit of its hash
    # flipped: the bytes are otherwise complete, so only the hash check
    # (R-MSWIRE-6 item 4) rejects them.
    ln = b.bytes_of("enum", "named demo|averyveryverylongtypenamexyz")["bytes"]
    # 01 ff 1a | 06 04 0c8c70 (ns "demo") | 24 | hash: 04 c8e2d4bd246f42 | 18 name bytes | 01
    if ln[:18] != "01ff1a06040c8c7024" or len(ln) != 2 * (9 + 8 + 18 + 1):
        raise ValueError("enum.named long type name bytes changed: %s" % ln)
    b.add(A, G, "hash wrong", "a long name whose hash does not match its bytes",
          _flip(ln, 12, 0x10), "meta_string", ["R-MSWIRE-6", "R-MSWIRE-3"], tags=["named_types", "meta_string"],
          note="enum.named 'demo.averyveryverylongtypenamexyz' with bit 4 of hash byte 3 flipped; every byte "
               "the name and the value need is present.")
    b.add(A, G, "length over input", "a name announced with 100 bytes and 3 present", "01ff1a c801 04 0c8c70",
          "truncated", ["R-MSWIRE-6"], tags=["named_types", "meta_string"])

    # -- depth and size bombs ------------------------------------------------------------
    A, G = "depth", "inv.depth"
    for n in [65, 100, 1000]:
        b.add(A, G, "nested lists %d" % n, "%d nested lists" % (n + 1), "01ff16" + "010816" * n + "00", "depth",
              ["R-LIMIT-1", "R-SEC-4"])
    b.add(A, G, "nested maps 100", "101 nested maps (each the value of a one-entry map)",
          "01ff18" + "01000115180461" * 100 + "00", "depth", ["R-LIMIT-1", "R-SEC-4"])
    b.add(A, G, "nested sets 100", "101 nested sets", "01ff17" + "010817" * 100 + "00", "depth",
          ["R-LIMIT-1", "R-SEC-4"])
    b.add(A, G, "nested mixed 200", "200 nested lists alternating with maps",
          "01ff16" + ("01081801000115160461" * 100) + "00", "depth", ["R-LIMIT-1", "R-SEC-4"])
    b.add(A, G, "ref cycle bomb", "a tracked list nested 200 deep whose innermost element refers to the root",
          "010016" + "010916" + "00010916" * 199 + "fe00", "depth", ["R-LIMIT-1", "R-SEC-3", "R-SEC-4"], ref=True)

    # -- out-of-band buffers (issue 11 item 14) --------------------------------------------------
    out_of_band(b)

    # -- hostile input (issue 9): budgets and cross-root state ----------------------------------
    hostile(b)
    depth_struct_errors(b)

    # -- schema and TypeDef errors (user types) ---------------------------------------------------
    struct_errors(b)
    nullable_flag_errors(b)
    fdl_errors(b)
    return b.tests


def _flip(hexstr, byte_index, xor=0x01):
    data = bytearray(bytes.fromhex(hexstr))
    data[byte_index] ^= xor
    return data.hex()


# Schemas that a loader must reject (spec/fdl-grammar.md F.1 and F.3): the
# request carries the schema, the bytes (varint64 -1) are never reached.
FDL_BROKEN = [
    ("bad_child", "a field without its ';'", ["R-FDLG-1", "R-FDL-1"]),
    ("imports_bad_child", "an import whose file has a syntax error", ["R-FDLG-1", "R-FDL-2"]),
    ("dup_package", "two package declarations", ["R-FDLG-4"]),
    ("option_in_message", "an option statement inside a message", ["R-FDLG-4"]),
    ("dup_type", "two types named Point", ["R-FDLG-5"]),
    ("dup_field_name", "two fields named a", ["R-FDLG-5"]),
    ("unknown_in_import", "a field type that resolves to no type", ["R-FDLG-5", "R-FDL-3"]),
    ("dup_field_number", "two fields with number 1", ["R-FDLG-6"]),
    ("message_id_zero", "type id 0 on a message", ["R-FDLG-6", "R-FDL-5"]),
    ("empty_union", "a union without cases", ["R-FDLG-6"]),
    ("fixed_string", "fixed on string", ["R-FDLG-7", "R-FDL-8"]),
    ("float_map_key", "a float64 map key", ["R-FDLG-7", "R-FDL-9"]),
    ("ref_scalar", "ref on an int32 field", ["R-FDLG-7", "R-FDL-11"]),
    ("missing_import", "an import of a file that does not exist", ["R-FDLG-8", "R-FDL-2"]),
    ("cycle_a", "an import cycle", ["R-FDLG-8", "R-FDL-2"]),
]


def depth_struct_errors(b):
    """R-STRUCT-5, R-LIMIT-7: a struct body is a nesting level. 64 nested
    lists whose innermost element is a struct put the struct's body at
    depth 65; the same lists ending in an empty list are accepted (an empty
    list enters no level), so only a decoder that counts struct bodies
    rejects this one."""
    it = b.bytes_of("structs/test_item", "corpus root 1")
    h = it["bytes"]
    # 01 ff 1c 00 <TypeDef of Item 102: 7 bytes> <body: string>
    if h[:8] != "01ff1c00":
        raise ValueError("test_item bytes changed: %s" % h)
    struct = h[4:]  # type meta (1c, shared TypeDef marker, TypeDef) and body
    b.add("depth", "inv.depth", "struct in 64 nested lists", "a struct inside 64 nested lists (its body at "
          "depth 65)", "01ff16" + "010816" * 63 + "0108" + struct, "depth", ["R-STRUCT-5", "R-LIMIT-7", "R-LIMIT-1"],
          compatible=True, schemas=it["schemas"], tags=it["tags"], upstream="test_item",
          note="The same 64 lists around an empty list decode: the struct's body is the 65th level.")


def nullable_flag_errors(b):
    """R-FIELD-2: a field that is nullable but not ref-tracked takes only the
    flags ff and fd; 00 (REF_VALUE) and fe (REF) are class ref."""
    cs = b.bytes_of("structs/test_one_string_field_compatible", "corpus")
    h = cs["bytes"]
    # 01 ff 1c 00 | header | c1 c801 86 15 0ba8 | ff 14 68656c6c6f  (f1: nullable string)
    if not h.endswith("ff1468656c6c6f"):
        raise ValueError("test_one_string_field_compatible bytes changed: %s" % h)
    head = h[:-len("ff1468656c6c6f")]
    for flag, what in [("00", "REF_VALUE (00)"), ("fe00", "REF (fe) to id 0")]:
        b.add("ref", "inv.ref", "nullable field flag %s" % flag[:2], "a nullable, not ref-tracked string field "
              "with the flag %s" % what, head + flag + "1468656c6c6f"[: 0 if flag.startswith("fe") else None],
              "ref", ["R-FIELD-2"], compatible=True, schemas=cs["schemas"], tags=cs["tags"],
              upstream="test_one_string_field_compatible",
              note="test_one_string_field_compatible with the field's flag ff replaced: only ff and fd are "
                   "valid where the field is nullable but not ref-tracked.")


def fdl_errors(b):
    A, G = "idl", "inv.idl"
    for name, what, rules in FDL_BROKEN:
        b.add(A, G, "schema %s" % name, "schema with %s" % what, "01ff0701", "idl", rules,
              schemas=["fixtures/schemas/fdl-tests/broken/%s.fdl" % name], tags=["schema"],
              note="The schema is rejected when it is loaded (class idl, offset: the byte in the file that "
                   "R-FDL-1 reports); the bytes are never read.")


def struct_errors(b):
    A, G = "schema_mismatch", "inv.schema"
    sc = b.bytes_of("structs/test_struct_version_check", "corpus")
    # 01 ff 1b c901 | 282bf1df schema hash | ...
    for k in range(4):
        b.add(A, G, "version check hash byte %d" % k, "test_struct_version_check with byte %d of the schema hash "
              "flipped" % k, _flip(sc["bytes"], 5 + k), "schema", ["R-STRUCT-3", "R-SHASH-2"], schemas=sc["schemas"],
              tags=sc["tags"], upstream="test_struct_version_check",
              note="The struct's schema hash does not match the reader's schema (same-schema mode).")
    b.add(A, G, "version check unknown id", "test_struct_version_check with the struct's user type id changed",
          _flip(sc["bytes"], 3, 0x02), "schema", ["R-UTYPE-7"], schemas=sc["schemas"], tags=sc["tags"],
          upstream="test_struct_version_check", note="A user type id the schema does not have.")
    b.add(A, G, "version check no schema", "test_struct_version_check read without its schema", sc["bytes"],
          "schema", ["R-UTYPE-7"], tags=sc["tags"], upstream="test_struct_version_check",
          note="Same-schema struct payloads cannot be read without the schema.")
    A, G = "typedef", "inv.typedef"
    cs = b.bytes_of("structs/test_one_string_field_compatible", "corpus")
    # 01 ff 1c 00 | 8-byte header 07a00977cdad653c | body c1 c801 8615 0ba8 | ff 14 68656c6c6f
    h = cs["bytes"]
    b.add(A, G, "typedef hash", "test_one_string_field_compatible with the TypeDef hash changed",
          _flip(h, 10, 0x10), "typedef", ["R-TDEF-3"], compatible=True, schemas=cs["schemas"], tags=cs["tags"],
          upstream="test_one_string_field_compatible",
          note="The TypeDef header hash does not match its body.")
    b.add(A, G, "typedef size larger", "TypeDef header claiming 8 body bytes where 7 follow the header "
          "before the value", _flip(h, 4, 0x0f), "typedef", ["R-TDEF-1", "R-TDEF-3"], compatible=True, schemas=cs["schemas"],
          tags=cs["tags"], upstream="test_one_string_field_compatible",
          note="The declared size includes the first byte of the value; the hash no longer matches.")
    b.add(A, G, "typedef size over limit", "TypeDef header whose size extension announces a body of more than "
          "4096 bytes", h[:8] + "ff" + h[10:], "limit", ["R-TDEF-1", "R-LIMIT-5"], compatible=True,
          schemas=cs["schemas"], tags=cs["tags"], upstream="test_one_string_field_compatible",
          note="The header's size byte is ff, so a varuint32 size extension follows the header; here it is read "
               "from the body bytes and announces a body larger than the TypeDef byte limit.")
    b.add(A, G, "typedef size beyond input", "TypeDef header announcing a 64-byte body in a shorter input",
          h[:8] + "40" + h[10:], "truncated", ["R-TDEF-1", "R-PAYLOAD-4"], compatible=True, schemas=cs["schemas"],
          tags=cs["tags"], upstream="test_one_string_field_compatible")
    b.add(A, G, "typedef new index 1", "the first TypeDef of a root announced with index 1",
          h[:6] + "02" + h[8:], "typedef", ["R-SHARED-2"], compatible=True, schemas=cs["schemas"], tags=cs["tags"],
          upstream="test_one_string_field_compatible")
    b.add(A, G, "typedef reserved bit", "TypeDef header with reserved bit 9 set", _flip(h, 5, 0x02), "typedef",
          ["R-TDEF-2", "R-TDEF-3"], compatible=True, schemas=cs["schemas"], tags=cs["tags"],
          upstream="test_one_string_field_compatible")
    b.add(A, G, "typedef field count", "TypeDef body announcing 2 fields where 1 is present",
          _flip(h, 12, 0x03), "typedef", ["R-TDEF-3", "R-TDEF-4"], compatible=True, schemas=cs["schemas"], tags=cs["tags"],
          upstream="test_one_string_field_compatible", note="The body is shorter than its fields.")
    b.add(A, G, "typedef index unknown", "a shared-TypeDef reference to index 1 (only index 0 exists)",
          h[:6] + "03" + h[8 + 16 + 14:], "typedef", ["R-SHARED-3"], compatible=True, schemas=cs["schemas"],
          tags=cs["tags"], upstream="test_one_string_field_compatible",
          note="The marker 03 refers to TypeDef index 1, which was never announced.")
    typedef_body_errors(b, cs)
    typedef_kind_errors(b, cs)
    field_errors(b)
    runtime_form_errors(b)


def _typedef(body_hex):
    """A TypeDef (header and body) with the header a writer computes for the
    body (R-TDEF-1, R-TDEF-3), so that a test fails only where it means to."""
    import typed  # noqa: F401  (puts the corpus tools on sys.path)
    from typedefs import header_for
    body = bytes.fromhex(body_hex.replace(" ", ""))
    if len(body) >= 255:
        raise ValueError("TypeDef body too long for this helper")
    return (header_for(body).to_bytes(8, "little") + body).hex()


def typedef_body_errors(b, cs):
    """R-TDEF-11: TypeDef bodies that a decoder must reject, each with a
    correct header hash. Base: test_one_string_field_compatible,
    01 ff 1c 00 | header | c1 c801 86 15 0ba8 | ff 14 68656c6c6f
    (struct by id 200, one field: LUDS name "f1", nullable, STRING)."""
    h = cs["bytes"]
    if h[:8] != "01ff1c00" or h[24:38] != "c1c80186150ba8":
        raise ValueError("test_one_string_field_compatible bytes changed: %s" % h)
    value = h[38:]
    A, G = "typedef", "inv.typedef"

    def add(key, name, body, error, rules, note=None):
        b.add(A, G, key, name, "01ff1c00" + _typedef(body) + value, error, rules, compatible=True,
              schemas=cs["schemas"], tags=cs["tags"], upstream="test_one_string_field_compatible", note=note)

    add("typedef field type 57", "TypeDef field of type id 57 (undefined)", "c1 c801 86 39 0ba8", "typedef",
        ["R-TDEF-11", "R-TDEF-9"])
    add("typedef field type 16", "TypeDef field of type id 16 (FLOAT8, reserved)", "c1 c801 86 10 0ba8", "type",
        ["R-TDEF-11", "R-TYPE-3"], note="Accepted in the TypeDef; the field's value cannot be read.")
    add("typedef name past body", "TypeDef field name running past the end of the body", "c1 c801 86 15 0b",
        "typedef", ["R-TDEF-11", "R-TDEF-8"])
    add("typedef field past body", "TypeDef announcing 2 fields whose second field is missing",
        "c2 c801 86 15 0ba8", "typedef", ["R-TDEF-11", "R-TDEF-4"])
    add("typedef fields over body", "TypeDef announcing 1 field and holding none", "c1 c801", "typedef",
        ["R-TDEF-11", "R-TDEF-4"], note="More fields than the body could hold at two bytes each.")
    add("typedef name not utf8", "TypeDef field name in UTF8 encoding with byte ff", "c1 c801 06 15 66ff", "typedef",
        ["R-TDEF-11", "R-TDEF-8"])
    add("typedef bytes after fields", "TypeDef body with a byte left after the last field", "c1 c801 86 15 0ba8 00",
        "typedef", ["R-TDEF-11"])
    add("typedef empty body", "TypeDef whose header announces an empty body", "", "typedef",
        ["R-TDEF-11", "R-TDEF-4"], note="A body has at least its first byte (R-TDEF-4): an empty body is a field "
                                        "count that runs past the end of the body.")


def typedef_kind_errors(b, cs):
    """R-UTYPE-5: a shared TypeDef whose kind is not that of the type id
    before its marker."""
    A, G = "typedef", "inv.typedef"
    h = cs["bytes"]
    for tid, what in [("1a", "NAMED_ENUM"), ("20", "NAMED_EXT"), ("23", "NAMED_UNION")]:
        b.add(A, G, "struct typedef after %s" % tid, "a struct TypeDef after %s (%s)" % (what, tid),
              h[:4] + tid + h[6:], "typedef", ["R-UTYPE-5", "R-UTYPE-2"], compatible=True, schemas=cs["schemas"],
              tags=cs["tags"], upstream="test_one_string_field_compatible",
              note="test_one_string_field_compatible with its COMPATIBLE_STRUCT id changed.")
    en = b.bytes_of("enum", "named compatible")
    e = en["bytes"]
    if e[:8] != "01ff1a00":
        raise ValueError("named enum compatible bytes changed: %s" % e)
    for tid, what in [("1c", "COMPATIBLE_STRUCT"), ("1d", "NAMED_STRUCT")]:
        b.add(A, G, "enum typedef after %s" % tid, "a named-enum TypeDef after %s (%s)" % (what, tid),
              e[:4] + tid + e[6:], "typedef", ["R-UTYPE-5", "R-UTYPE-3"], compatible=True, tags=en["tags"],
              note="The named enum demo.Color in compatible mode with its NAMED_ENUM id changed.")


def field_errors(b):
    """Field slots that do not fit their declared type (R-FIELD-7, R-FIELD-9)."""
    g = b.bytes_of("structs/idl_graph", "two nodes schema_consistent")
    h = g["bytes"]
    # 01 00 1b 970a <hash> | nodes: 02 0d | 00 <Node n1: hash, id, out_edges: 01 0d | 00 <Edge e1: hash,
    # weight, id, source: fe 01 (n1), target: 00 <Node n2 ... in_edges: 01 0d | fe 02 (e1)> ...
    if h[66:70] != "fe01" or h[92:96] != "fe02":
        raise ValueError("idl graph bytes changed: %s" % h)
    A, G = "ref", "inv.ref"
    b.add(A, G, "field ref other struct", "an Edge's Node field refers to the Edge itself",
          h[:68] + "02" + h[70:], "ref", ["R-FIELD-9", "R-REF-4"], ref=True, schemas=g["schemas"], tags=g["tags"],
          note="The graph 'two nodes' (same-schema) with the reference of e1.source changed from n1 to e1.")
    b.add(A, G, "element ref other struct", "an element of a list<ref Edge> field refers to a Node",
          h[:94] + "01" + h[96:], "ref", ["R-FIELD-9", "R-FIELD-8"], ref=True, schemas=g["schemas"], tags=g["tags"],
          note="The graph 'two nodes' (same-schema) with the reference in n2.in_edges changed from e1 to n1.")
    p = b.bytes_of("structs/test_polymorphic_list", "corpus root 2")
    h = p["bytes"]
    # 01 ff 1c 00 <TypeDef of AnimalListHolder: animals list<any>> | 02 00 1c 02 <Dog> ...
    if h[46:52] != "02001c":
        raise ValueError("test_polymorphic_list root 2 bytes changed: %s" % h)
    b.add("collection", "inv.collection", "declared any elements", "a list<any> field whose element header has the "
          "declared bit", h[:48] + "04" + h[50:], "type", ["R-FIELD-7", "R-FIELD-6"], compatible=True,
          schemas=p["schemas"], tags=p["tags"], upstream="test_polymorphic_list",
          note="test_polymorphic_list root 2 with the element header 00 changed to 04: `any` has no type to "
               "declare, so the elements have no type meta to read.")


def runtime_form_errors(b):
    """Byte strings the runtimes write that do not follow the spec
    (spec/errata.md E-29, E-32, E-33)."""
    import json
    import os
    from common import FIXTURES
    A, G = "schema_mismatch", "inv.schema"
    b.add(A, G, "empty struct pyfory hash", "a struct without fields with pyfory's schema hash 47",
          "01ff 1b c801 2f000000", "schema", ["R-SHASH-2", "R-STRUCT-3"],
          schemas=["fixtures/schemas/xlang/test_schema_evolution_compatible.reader.fdl"], tags=["schema", "struct"],
          note="EmptyStruct (id 200, no fields) in same-schema mode as pyfory 1.7.7 writes it; the schema hash of "
               "a struct without fields is that of the empty input, 3a a1 e9 0b (spec/errata.md E-32).")
    doc = json.load(open(os.path.join(FIXTURES, "xlang-corpus", "test_skip_name_custom.json"), encoding="utf-8"))
    b.add(A, G, "named ext pyfory compatible", "test_skip_name_custom as pyfory 1.7.7 writes it (compatible mode)",
          doc["pyfory_hex"], "varint", ["R-EXT-2", "R-FIELD-3", "R-TAGGED-3"], compatible=True,
          schemas=[doc["schema"]], tags=["schema", "struct", "compatible", "typedef", "ext", "enum", "named_types",
                                         "meta_string"], upstream="test_skip_name_custom",
          note="pyfory writes the by-name ext my_ext with its default object serializer (spec/errata.md E-29): "
               "the body '01 08 69 64 ff 07 56' is not the one varint32 the schema describes. Read as the schema "
               "says, the ext body is 01, then the non-nullable dynamic field my_struct has type meta 08 "
               "(TAGGED_INT64) and a body whose first byte 69 is an invalid tagged flag.")
    import typed
    prod = typed.corpus_produce("test_named_simple_struct", False)
    if not prod.get("pyfory_hex"):
        raise ValueError("pyfory did not write test_named_simple_struct in same-schema mode: %s" % prod)
    b.add(A, G, "named struct field pyfory", "test_named_simple_struct in same-schema mode as pyfory 1.7.7 writes "
          "it", prod["pyfory_hex"], "schema", ["R-FIELD-3", "R-STRUCT-1", "R-STRUCT-3"],
          schemas=["fixtures/schemas/xlang/test_named_simple_struct.fdl"],
          tags=["schema", "struct", "enum", "named_types", "meta_string"], upstream="test_named_simple_struct",
          note="pyfory writes type meta (1d and the names of demo.item) before the struct field f3, whose struct "
               "is registered by name (spec/errata.md E-33); in same-schema mode the field is its body alone, so "
               "a reader takes the type meta for demo.item's schema hash.")
