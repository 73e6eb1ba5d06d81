"""Hand-written findings, appended to the automatic notes of each case.
Offsets are byte offsets into the case's buffers."""

NOTES = {
    "test_consistent_named": (
        "The only difference is the encoding byte of every dynamic meta string (F-MS-6): each root announces its "
        "names again (namespace 00 = empty; type name: 08 = length 4 << 1 for 'color' and 'my_ext', 0c = length 6 "
        "for 'my_struct'), each followed by one encoding byte: Java writes 04 ALL_TO_LOWER_SPECIAL, "
        "pyfory writes 01 LOWER_SPECIAL. The packed bits are identical (all-lowercase names encode the same way in "
        "both), and both runtimes read either form. Root 1 from Java: 01 ff | 1a NAMED_ENUM | 00 ns | 08 04 "
        "89cb7440 'color' | 03 White. Root 4: 01 ff | 1d NAMED_STRUCT | 00 | 0c 04 331b94e3414c 'my_struct' | "
        "dd161ba8 schema hash of 'id,5,0,0;' | 54 id=42. Root 7: 01 ff | 20 NAMED_EXT | 00 | 08 04 331b25e6 "
        "'my_ext' | 56 (custom body, zigzag varint32 43)."),
    "test_skip_name_custom": (
        "pyfory 1.7.7 bug (writer): in compatible mode an ext type registered by name with a custom serializer "
        "(register_type(MyExt, name='my_ext', serializer=...)) is written with pyfory's default object serializer "
        "instead (type_resolver.get_serializer(MyExt) returns _DefaultPolicyObjectSerializer; by id, or in "
        "schema-consistent mode, the custom serializer is used). The NAMED_EXT type meta and its TypeDef (kind 3, "
        "'my_ext') are the same in both buffers; the body is not: Java writes 56 (varint32 43), pyfory writes "
        "01 08 6964 ff 07 56 (one entry: the name 'id', then a null flag, VARINT64 and 43). So each runtime reads "
        "only its own bytes: Java reads pyfory's wrapper with the first byte 01 as the ext body and then fails on the "
        "leftover bytes, pyfory reads Java's 56 as the start of its object body and fails. java_hex is the reference "
        "for this case."),
    "test_reduced_precision_float_struct_compatible_skip": (
        "TypeDefs are identical; the difference is the element header of the two list fields (java_hex offsets 72 "
        "and 81, pyfory_hex 72 and 80): pyfory writes 0c (declared element type, same type) and no element type, Java writes 08 (same type, "
        "not declared) followed by the element type id (12 BFLOAT16, 11 FLOAT16), for Float16List/BFloat16List in "
        "compatible mode only. In schema-consistent mode (test_reduced_precision_float_struct) both write 0c. Both "
        "forms are legal and each runtime reads the other's."),
    "test_collection_element_ref_override": (
        "Both runtimes write one element object 701 in every position without tracking (the element positions are "
        "not ref-tracked) and agree on the root (01 00: ref mode marks the root REF_VALUE). They disagree on the "
        "collection headers. list_field (offset 10, after the root's 1b be05 and schema hash): Java 02 0c (declared element type), pyfory 02 08 1b bd05 "
        "(same type, not declared, element type STRUCT 701 written once). set_field: Java 01 0c, pyfory 01 08 1b bd05. "
        "map_field: Java 02 04 02 1b bd05 (key declared, value type written once in the chunk), pyfory 02 24 02 "
        "(key and value declared). Each runtime reads the other's. The runtimes are handed one shared element object "
        "(runtime_roots in cases.py); the roots here show every occurrence in full because no position is tracked."),
    "test_list_array_compatible_nullable_list_to_array_error": (
        "Java 1.6.0 bug (reader): in compatible mode it cannot read a list<optional int32> field that contains a "
        "null, not even its own bytes (root 2: ... 16 16 = field LIST of VARINT32 nullable, value 03 0e ff 02 fd ff 06 "
        "= 3 elements, header HAS_NULL|DECL|SAME_TYPE, 1, null, 3); it fails with IndexOutOfBoundsException inside "
        "DeserializationException. Root 1 (no null) reads fine, the same struct in schema-consistent mode and "
        "list<optional string> in compatible mode read fine. pyfory reads both roots with the writer schema, and "
        "with the array<int32> reader schema it reads root 1 and rejects root 2 (TypeNotCompatibleError), which is "
        "what the upstream case expects; Java's rejection of root 2 is the bug, not the intended check."),
    "test_schema_evolution_compatible_reverse": (
        "Reader schema: f2 is missing from the writer's TypeDef. pyfory fills the default '' and Java leaves null "
        "(f2 is a non-nullable string in the reader schema)."),
    "test_enum_schema_evolution_compatible_reverse": (
        "Reader schema: f2 is missing from the writer's TypeDef. pyfory fills VALUE_A (0) and Java leaves null."),
    "test_integer": (
        "The six root ints are VARINT32 (05) as Java writes Integer; pyfory writes a plain Python int as VARINT64, "
        "so the generator hands pyfory an int subclass mapped to VARINT32 to write the same values."),
    "test_union_xlang": (
        "The union field has no null flag (the field is not nullable): case id, then an Any-style value: 00 ff 15 14 "
        "'hello' (case 0, not-null, STRING, string) and 01 ff 07 54 (case 1, not-null, VARINT64, 42). TypeDef field: "
        "4c 21 d1a87340 = name 'union', type UNION (33). Java carries the field as Union2<String, Long>; pyfory needs "
        "a registered union class (register_union, id 300, which never reaches the wire). The upstream Python peer "
        "has no union case."),
    "test_struct_evolving_override": (
        "evolving_off (evolution disabled) is written as NAMED_STRUCT (1d) but still with a shared TypeDef (marker 00) "
        "whose first body byte a1 has the COMPATIBLE bit clear; evolving_yes is NAMED_COMPATIBLE_STRUCT (1e), first "
        "body byte e1. Neither carries a schema hash."),
    "test_circular_ref_compatible": (
        "The self reference is fe 00 (REF to object 0, the root) with no type meta."),
    "test_ref_schema_consistent": (
        "01 00 | 1b f603 (STRUCT 502) | 8f9d3096 schema hash | inner1: 00 (REF_VALUE) d4341dcb (hash of 501) 54 "
        "'shared_inner' | inner2: fe 01 (REF to object 1)."),
}
