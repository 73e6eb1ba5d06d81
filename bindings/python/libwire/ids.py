"""Wire type ids (WIRE_T_* of wire.h), option and limit numbers, status codes."""

# Type ids of the xlang format (wire.h WIRE_T_*); NULL is the node kind of a null value.
UNKNOWN = 0
BOOL = 1
INT8 = 2
INT16 = 3
INT32 = 4
VARINT32 = 5
INT64 = 6
VARINT64 = 7
TAGGED_INT64 = 8
UINT8 = 9
UINT16 = 10
UINT32 = 11
VAR_UINT32 = 12
UINT64 = 13
VAR_UINT64 = 14
TAGGED_UINT64 = 15
FLOAT8 = 16
FLOAT16 = 17
BFLOAT16 = 18
FLOAT32 = 19
FLOAT64 = 20
STRING = 21
LIST = 22
SET = 23
MAP = 24
ENUM = 25
NAMED_ENUM = 26
STRUCT = 27
COMPATIBLE_STRUCT = 28
NAMED_STRUCT = 29
NAMED_COMPATIBLE_STRUCT = 30
EXT = 31
NAMED_EXT = 32
UNION = 33
TYPED_UNION = 34
NAMED_UNION = 35
NONE = 36
DURATION = 37
TIMESTAMP = 38
DATE = 39
DECIMAL = 40
BINARY = 41
ARRAY = 42
BOOL_ARRAY = 43
INT8_ARRAY = 44
INT16_ARRAY = 45
INT32_ARRAY = 46
INT64_ARRAY = 47
UINT8_ARRAY = 48
UINT16_ARRAY = 49
UINT32_ARRAY = 50
UINT64_ARRAY = 51
FLOAT8_ARRAY = 52
FLOAT16_ARRAY = 53
BFLOAT16_ARRAY = 54
FLOAT32_ARRAY = 55
FLOAT64_ARRAY = 56
NULL = 255

# Node kinds that hold signed / unsigned integers and floats.
SIGNED_INTS = (INT8, INT16, INT32, VARINT32, INT64, VARINT64, TAGGED_INT64)
UNSIGNED_INTS = (UINT8, UINT16, UINT32, VAR_UINT32, UINT64, VAR_UINT64,
                 TAGGED_UINT64)
FLOATS = (FLOAT16, BFLOAT16, FLOAT32, FLOAT64)
STRUCTS = (STRUCT, COMPATIBLE_STRUCT, NAMED_STRUCT, NAMED_COMPATIBLE_STRUCT,
           EXT, NAMED_EXT)
UNIONS = (UNION, TYPED_UNION, NAMED_UNION)
ARRAYS = tuple(range(BOOL_ARRAY, FLOAT64_ARRAY + 1))

# Options (wire_ctx_set_option).
OPT_REF_TRACKING = 1
OPT_COMPATIBLE = 2
OPT_PEER = 5
# WIRE_PEER_*: the runtime whose dialect is read and written (spec 3.10)
PEERS = {None: 0, "java": 1, "pyfory": 2, "go": 3}

# Limits (wire_ctx_set_limit), by the names Context accepts.
LIMITS = {
    "depth": 1,
    "binary": 2,
    "collection": 3,
    "nodes": 4,
    "decimal_digits": 5,
    "roots": 6,
    "typedef_bytes": 7,
    "typedef_fields": 8,
}

# String encodings.
STR_LATIN1, STR_UTF16, STR_UTF8 = 0, 1, 2

# User type kinds (wire_schema_type_kind).
KIND_STRUCT, KIND_ENUM, KIND_UNION, KIND_EXT = 1, 2, 3, 4

BY_NAME = 0xFFFFFFFF

# Status codes; the names are the error classes (wire_status_name).
OK = 0
E_TRUNCATED = 1
E_VARINT = 2
E_HEADER = 3
E_REF = 4
E_TYPE = 5
E_STRING = 6
E_LENGTH = 7
E_DEPTH = 8
E_LIMIT = 9
E_NOMEM = 10
E_ARG = 11
E_META_STRING = 12
E_DECIMAL = 13
E_VALUE = 14
E_UNSUPPORTED = 15
E_COLLECTION = 16
E_NOTATION = 17
E_BUFFER_FULL = 18
E_STATE = 19
E_TRAILING = 20
E_TYPEDEF = 21
E_SCHEMA = 22
E_IDL = 23
E_ENCODE = 24
