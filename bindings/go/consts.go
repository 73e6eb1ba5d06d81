package wire

// The constants come from wire.h through cgo (no hand copies).

/*
#include "wire.h"
*/
import "C"

// Type ids of the xlang format (WIRE_T_*); TypeNull (255) is the node kind
// of a null value, not a wire id.
const (
	TypeUnknown               = C.WIRE_T_UNKNOWN
	TypeBool                  = C.WIRE_T_BOOL
	TypeInt8                  = C.WIRE_T_INT8
	TypeInt16                 = C.WIRE_T_INT16
	TypeInt32                 = C.WIRE_T_INT32
	TypeVarint32              = C.WIRE_T_VARINT32
	TypeInt64                 = C.WIRE_T_INT64
	TypeVarint64              = C.WIRE_T_VARINT64
	TypeTaggedInt64           = C.WIRE_T_TAGGED_INT64
	TypeUint8                 = C.WIRE_T_UINT8
	TypeUint16                = C.WIRE_T_UINT16
	TypeUint32                = C.WIRE_T_UINT32
	TypeVarUint32             = C.WIRE_T_VAR_UINT32
	TypeUint64                = C.WIRE_T_UINT64
	TypeVarUint64             = C.WIRE_T_VAR_UINT64
	TypeTaggedUint64          = C.WIRE_T_TAGGED_UINT64
	TypeFloat8                = C.WIRE_T_FLOAT8
	TypeFloat16               = C.WIRE_T_FLOAT16
	TypeBfloat16              = C.WIRE_T_BFLOAT16
	TypeFloat32               = C.WIRE_T_FLOAT32
	TypeFloat64               = C.WIRE_T_FLOAT64
	TypeString                = C.WIRE_T_STRING
	TypeList                  = C.WIRE_T_LIST
	TypeSet                   = C.WIRE_T_SET
	TypeMap                   = C.WIRE_T_MAP
	TypeEnum                  = C.WIRE_T_ENUM
	TypeNamedEnum             = C.WIRE_T_NAMED_ENUM
	TypeStruct                = C.WIRE_T_STRUCT
	TypeCompatibleStruct      = C.WIRE_T_COMPATIBLE_STRUCT
	TypeNamedStruct           = C.WIRE_T_NAMED_STRUCT
	TypeNamedCompatibleStruct = C.WIRE_T_NAMED_COMPATIBLE_STRUCT
	TypeExt                   = C.WIRE_T_EXT
	TypeNamedExt              = C.WIRE_T_NAMED_EXT
	TypeUnion                 = C.WIRE_T_UNION
	TypeTypedUnion            = C.WIRE_T_TYPED_UNION
	TypeNamedUnion            = C.WIRE_T_NAMED_UNION
	TypeNone                  = C.WIRE_T_NONE
	TypeDuration              = C.WIRE_T_DURATION
	TypeTimestamp             = C.WIRE_T_TIMESTAMP
	TypeDate                  = C.WIRE_T_DATE
	TypeDecimal               = C.WIRE_T_DECIMAL
	TypeBinary                = C.WIRE_T_BINARY
	TypeArray                 = C.WIRE_T_ARRAY
	TypeBoolArray             = C.WIRE_T_BOOL_ARRAY
	TypeInt8Array             = C.WIRE_T_INT8_ARRAY
	TypeInt16Array            = C.WIRE_T_INT16_ARRAY
	TypeInt32Array            = C.WIRE_T_INT32_ARRAY
	TypeInt64Array            = C.WIRE_T_INT64_ARRAY
	TypeUint8Array            = C.WIRE_T_UINT8_ARRAY
	TypeUint16Array           = C.WIRE_T_UINT16_ARRAY
	TypeUint32Array           = C.WIRE_T_UINT32_ARRAY
	TypeUint64Array           = C.WIRE_T_UINT64_ARRAY
	TypeFloat8Array           = C.WIRE_T_FLOAT8_ARRAY
	TypeFloat16Array          = C.WIRE_T_FLOAT16_ARRAY
	TypeBfloat16Array         = C.WIRE_T_BFLOAT16_ARRAY
	TypeFloat32Array          = C.WIRE_T_FLOAT32_ARRAY
	TypeFloat64Array          = C.WIRE_T_FLOAT64_ARRAY
	TypeNull                  = C.WIRE_T_NULL
)

// String encodings (WIRE_STR_*); -1 asks for the writer policy.
const (
	StrLatin1 = C.WIRE_STR_LATIN1
	StrUTF16  = C.WIRE_STR_UTF16
	StrUTF8   = C.WIRE_STR_UTF8
	StrPolicy = -1
)
