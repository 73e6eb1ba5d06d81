package wire

// Type ids of the xlang format (WIRE_T_*); TypeNull (255) is the node kind
// of a null value, not a wire id.
const (
	TypeUnknown               = 0
	TypeBool                  = 1
	TypeInt8                  = 2
	TypeInt16                 = 3
	TypeInt32                 = 4
	TypeVarint32              = 5
	TypeInt64                 = 6
	TypeVarint64              = 7
	TypeTaggedInt64           = 8
	TypeUint8                 = 9
	TypeUint16                = 10
	TypeUint32                = 11
	TypeVarUint32             = 12
	TypeUint64                = 13
	TypeVarUint64             = 14
	TypeTaggedUint64          = 15
	TypeFloat8                = 16
	TypeFloat16               = 17
	TypeBfloat16              = 18
	TypeFloat32               = 19
	TypeFloat64               = 20
	TypeString                = 21
	TypeList                  = 22
	TypeSet                   = 23
	TypeMap                   = 24
	TypeEnum                  = 25
	TypeNamedEnum             = 26
	TypeStruct                = 27
	TypeCompatibleStruct      = 28
	TypeNamedStruct           = 29
	TypeNamedCompatibleStruct = 30
	TypeExt                   = 31
	TypeNamedExt              = 32
	TypeUnion                 = 33
	TypeTypedUnion            = 34
	TypeNamedUnion            = 35
	TypeNone                  = 36
	TypeDuration              = 37
	TypeTimestamp             = 38
	TypeDate                  = 39
	TypeDecimal               = 40
	TypeBinary                = 41
	TypeArray                 = 42
	TypeBoolArray             = 43
	TypeInt8Array             = 44
	TypeInt16Array            = 45
	TypeInt32Array            = 46
	TypeInt64Array            = 47
	TypeUint8Array            = 48
	TypeUint16Array           = 49
	TypeUint32Array           = 50
	TypeUint64Array           = 51
	TypeFloat8Array           = 52
	TypeFloat16Array          = 53
	TypeBfloat16Array         = 54
	TypeFloat32Array          = 55
	TypeFloat64Array          = 56
	TypeNull                  = 255
)

// String encodings (WIRE_STR_*); -1 asks for the writer policy.
const (
	StrLatin1 = 0
	StrUTF16  = 1
	StrUTF8   = 2
	StrPolicy = -1
)
