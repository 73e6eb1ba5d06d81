package wire

/*
#include <stdlib.h>
#include <string.h>
#include "wire.h"
*/
import "C"

import (
	"math"
	"unsafe"
)

// Doc is a document: an arena of nodes holding the root values of one
// payload (wire_doc). Nodes may be shared and may form cycles. A Doc belongs
// to its Context and is not safe for concurrent use, nor for use while the
// Context is used from another goroutine. Free it with Free.
type Doc struct {
	c    *Context
	d    *C.wire_doc
	data unsafe.Pointer // C copy of the decoded input (nodes point into it)
}

// Node is a node of a Doc. The zero Node is invalid (a failed builder).
type Node struct {
	doc *Doc
	n   *C.wire_node
}

// NewDoc makes an empty document.
func (c *Context) NewDoc() (*Doc, error) {
	d := C.wire_doc_new(c.ctx())
	if d == nil {
		return nil, c.lastError(C.WIRE_E_NOMEM)
	}
	return &Doc{c: c, d: d}, nil
}

// DecodeDoc decodes every root value of a payload into a document.
func (c *Context) DecodeDoc(data []byte) (*Doc, error) {
	var p unsafe.Pointer
	if len(data) > 0 {
		p = C.CBytes(data)
	}
	var d *C.wire_doc
	if st := C.wire_decode(c.ctx(), (*C.uint8_t)(p), C.size_t(len(data)), &d); st != 0 {
		C.free(p)
		return nil, c.lastError(st)
	}
	return &Doc{c: c, d: d, data: p}, nil
}

// Free releases the document and its nodes.
func (d *Doc) Free() {
	if d.d != nil {
		C.wire_doc_free(d.d)
		d.d = nil
	}
	if d.data != nil {
		C.free(d.data)
		d.data = nil
	}
}

// Encode encodes every root of the document.
func (d *Doc) Encode() ([]byte, error) {
	var out *C.uint8_t
	var n C.size_t
	if st := C.wire_encode(d.c.ctx(), d.d, &out, &n); st != 0 {
		return nil, d.c.lastError(st)
	}
	b := C.GoBytes(unsafe.Pointer(out), C.int(n))
	C.wire_ctx_free_bytes(d.c.ctx(), out)
	return b, nil
}

// Context is the context the document was made from.
func (d *Doc) Context() *Context { return d.c }

// RootCount is the number of roots.
func (d *Doc) RootCount() int { return int(C.wire_doc_root_count(d.d)) }

// Root is root i.
func (d *Doc) Root(i int) Node { return d.node(C.wire_doc_root(d.d, C.size_t(i))) }

// AddRoot appends a root value.
func (d *Doc) AddRoot(n Node) error {
	if n.n == nil {
		return goErr("arg", "invalid node")
	}
	return d.check(C.wire_doc_add_root(d.d, n.n))
}

// NodeCount is the number of nodes made in the document.
func (d *Doc) NodeCount() int { return int(C.wire_doc_node_count(d.d)) }

func (d *Doc) node(n *C.wire_node) Node { return Node{doc: d, n: n} }

func (d *Doc) check(st C.int32_t) error {
	if st != 0 {
		return d.c.lastError(st)
	}
	return nil
}

// made turns a builder's result into a Node or the context's error.
func (d *Doc) made(n *C.wire_node) (Node, error) {
	if n == nil {
		return Node{}, d.c.lastError(C.WIRE_E_ARG)
	}
	return Node{doc: d, n: n}, nil
}

func bptr(b []byte) *C.uint8_t {
	if len(b) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(&b[0]))
}

func sptr(s string) *C.uint8_t {
	if len(s) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(unsafe.StringData(s)))
}

// Builders. Each returns a node owned by the document. Byte and text
// arguments are copied.

func (d *Doc) Null() (Node, error) { return d.made(C.wire_node_new_null(d.d)) }
func (d *Doc) None() (Node, error) { return d.made(C.wire_node_new_none(d.d)) }
func (d *Doc) Bool(v bool) (Node, error) {
	b := C.int32_t(0)
	if v {
		b = 1
	}
	return d.made(C.wire_node_new_bool(d.d, b))
}

// Int makes a signed integer of type id INT8..TAGGED_INT64 (range-checked).
func (d *Doc) Int(typeID int, v int64) (Node, error) {
	return d.made(C.wire_node_new_int(d.d, C.uint32_t(typeID), C.int64_t(v)))
}

// Uint makes an unsigned integer of type id UINT8..TAGGED_UINT64.
func (d *Doc) Uint(typeID int, v uint64) (Node, error) {
	return d.made(C.wire_node_new_uint(d.d, C.uint32_t(typeID), C.uint64_t(v)))
}

// FloatBits makes a FLOAT16/BFLOAT16/FLOAT32/FLOAT64 from its bits.
func (d *Doc) FloatBits(typeID int, bits uint64) (Node, error) {
	return d.made(C.wire_node_new_float_bits(d.d, C.uint32_t(typeID), C.uint64_t(bits)))
}

// Float makes a float of the type, rounded to nearest even.
func (d *Doc) Float(typeID int, v float64) (Node, error) {
	return d.made(C.wire_node_new_float(d.d, C.uint32_t(typeID), C.double(v)))
}

// String makes a string from UTF-8 text; encoding StrPolicy (-1) or
// StrLatin1/StrUTF16/StrUTF8.
func (d *Doc) String(s string, encoding int) (Node, error) {
	return d.made(C.wire_node_new_string(d.d, sptr(s), C.size_t(len(s)), C.int32_t(encoding)))
}

func (d *Doc) Binary(b []byte) (Node, error) {
	return d.made(C.wire_node_new_binary(d.d, bptr(b), C.size_t(len(b))))
}

// Array makes a dense array from raw little-endian element bytes.
func (d *Doc) Array(typeID int, raw []byte) (Node, error) {
	return d.made(C.wire_node_new_array(d.d, C.uint32_t(typeID), bptr(raw), C.size_t(len(raw))))
}

func (d *Doc) Date(days int64) (Node, error) {
	return d.made(C.wire_node_new_date(d.d, C.int64_t(days)))
}
func (d *Doc) Timestamp(seconds int64, nanos uint32) (Node, error) {
	return d.made(C.wire_node_new_timestamp(d.d, C.int64_t(seconds), C.uint32_t(nanos)))
}
func (d *Doc) Duration(seconds int64, nanos uint32) (Node, error) {
	return d.made(C.wire_node_new_duration(d.d, C.int64_t(seconds), C.uint32_t(nanos)))
}

// Decimal makes sign × magnitude × 10^-scale (magnitude little-endian).
func (d *Doc) Decimal(negative bool, magnitudeLE []byte, scale int32) (Node, error) {
	n := C.int32_t(0)
	if negative {
		n = 1
	}
	return d.made(C.wire_node_new_decimal(d.d, n, bptr(magnitudeLE), C.size_t(len(magnitudeLE)), C.int32_t(scale)))
}

// Enum makes an ENUM of a numeric user type id (0xFFFFFFFF: unknown type,
// only valid in a declared field).
func (d *Doc) Enum(userTypeID, value uint32) (Node, error) {
	return d.made(C.wire_node_new_enum(d.d, C.uint32_t(userTypeID), C.uint32_t(value)))
}

// EnumOf makes a value of a registered enum (type index).
func (d *Doc) EnumOf(typeIndex, value uint32) (Node, error) {
	return d.made(C.wire_node_new_enum_of(d.d, C.uint32_t(typeIndex), C.uint32_t(value)))
}

func (d *Doc) NamedEnum(ns, name string, value uint32) (Node, error) {
	return d.made(C.wire_node_new_named_enum(d.d, sptr(ns), C.size_t(len(ns)), sptr(name), C.size_t(len(name)), C.uint32_t(value)))
}

// List makes an empty LIST or SET (typeID).
func (d *Doc) List(typeID int) (Node, error) {
	return d.made(C.wire_node_new_list(d.d, C.uint32_t(typeID)))
}

func (d *Doc) Map() (Node, error) { return d.made(C.wire_node_new_map(d.d)) }

// Struct makes a struct (or ext) of a registered type, fields unset.
func (d *Doc) Struct(typeIndex uint32) (Node, error) {
	return d.made(C.wire_node_new_struct(d.d, C.uint32_t(typeIndex)))
}

// StructTypeDef makes a struct whose layout comes from TypeDef bytes.
func (d *Doc) StructTypeDef(typedef []byte) (Node, error) {
	return d.made(C.wire_node_new_struct_typedef(d.d, bptr(typedef), C.size_t(len(typedef))))
}

// StructLike makes a struct with the type and layout of other.
func (d *Doc) StructLike(other Node) (Node, error) {
	return d.made(C.wire_node_new_struct_like(d.d, other.n))
}

// ByName is the type index of an untyped UNION for Union.
const ByName = 0xFFFFFFFF

// Union makes a union value of a registered union (or ByName).
func (d *Doc) Union(typeIndex, caseID uint32, value Node) (Node, error) {
	return d.made(C.wire_node_new_union(d.d, C.uint32_t(typeIndex), C.uint32_t(caseID), value.n))
}

// Mutators and wire choices.

func (n Node) Valid() bool { return n.n != nil }

// Append adds an element to a list or set.
func (n Node) Append(el Node) error { return n.doc.check(C.wire_list_append(n.doc.d, n.n, el.n)) }

// Put adds an entry to a map.
func (n Node) Put(k, v Node) error { return n.doc.check(C.wire_map_put(n.doc.d, n.n, k.n, v.n)) }

// SetField sets a struct field by wire name, declared name or "#<tag>".
func (n Node) SetField(name string, v Node) error {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	return n.doc.check(C.wire_struct_set_field(n.doc.d, n.n, cs, C.size_t(len(name)), v.n))
}

func i32b(b bool) C.int32_t {
	if b {
		return 1
	}
	return 0
}

// SetTracked marks the node as written with (or without) the REF_VALUE flag.
func (n Node) SetTracked(on bool) error { return n.doc.check(C.wire_node_set_tracked(n.n, i32b(on))) }

// Tracked is 1 tracked, 0 not, -1 writer policy.
func (n Node) Tracked() int { return int(C.wire_node_tracked(n.n)) }

// SetListHeader sets the element header byte of a list/set (-1 = policy).
func (n Node) SetListHeader(h int) error {
	return n.doc.check(C.wire_list_set_header(n.n, C.int32_t(h)))
}
func (n Node) ListHeader() int { return int(C.wire_list_header(n.n)) }

// AddChunk appends a map chunk (header byte, entry count).
func (n Node) AddChunk(header, count uint32) error {
	return n.doc.check(C.wire_map_add_chunk(n.doc.d, n.n, C.uint32_t(header), C.uint32_t(count)))
}

// Chunks lists the recorded map chunks as (header, count) pairs.
func (n Node) Chunks() [][2]uint32 {
	k := int(C.wire_map_chunk_count(n.n))
	out := make([][2]uint32, k)
	for i := 0; i < k; i++ {
		var h, c C.uint32_t
		C.wire_map_chunk(n.n, C.size_t(i), &h, &c)
		out[i] = [2]uint32{uint32(h), uint32(c)}
	}
	return out
}

func (n Node) SetNameEncodings(ns, name int) error {
	return n.doc.check(C.wire_node_set_name_encodings(n.n, C.int32_t(ns), C.int32_t(name)))
}

// NameEncodings: meta string encodings of the namespace and name (-1, -1 =
// policy); ok is false for a node without names.
func (n Node) NameEncodings() (ns, name int, ok bool) {
	var a, b C.int32_t
	if C.wire_node_name_encodings(n.n, &a, &b) != 0 {
		C.wire_ctx_clear_error(n.doc.c.ctx())
		return -1, -1, false
	}
	return int(a), int(b), true
}

func (n Node) SetNameHashForms(ns, name int) error {
	return n.doc.check(C.wire_node_set_name_hash_forms(n.n, C.int32_t(ns), C.int32_t(name)))
}

func (n Node) NameHashForms() (ns, name int) {
	var a, b C.int32_t
	if C.wire_node_name_hash_forms(n.n, &a, &b) != 0 {
		C.wire_ctx_clear_error(n.doc.c.ctx())
	}
	return int(a), int(b)
}

func (n Node) SetNameRefs(ns, name bool) error {
	return n.doc.check(C.wire_node_set_name_refs(n.n, i32b(ns), i32b(name)))
}

func (n Node) NameRefs() (ns, name bool, ok bool) {
	var a, b C.int32_t
	if C.wire_node_name_refs(n.n, &a, &b) != 0 {
		C.wire_ctx_clear_error(n.doc.c.ctx())
		return false, false, false
	}
	return a != 0, b != 0, true
}

// Accessors.

// Type is the node kind: a type id, or TypeNull.
func (n Node) Type() int         { return int(C.wire_node_type(n.n)) }
func (n Node) Int() int64        { return int64(C.wire_node_int(n.n)) }
func (n Node) Uint() uint64      { return uint64(C.wire_node_uint(n.n)) }
func (n Node) FloatBits() uint64 { return uint64(C.wire_node_float_bits(n.n)) }
func (n Node) Float() float64    { return float64(C.wire_node_float(n.n)) }
func (n Node) Nanos() uint32     { return uint32(C.wire_node_nanos(n.n)) }

// Bytes: string bytes in wire encoding, binary/array payload, decimal
// magnitude, named enum type name. The slice is a copy.
func (n Node) Bytes() []byte {
	var l C.size_t
	p := C.wire_node_bytes(n.n, &l)
	if p == nil || l == 0 {
		return []byte{}
	}
	return C.GoBytes(unsafe.Pointer(p), C.int(l))
}

func (n Node) StringEncoding() int { return int(C.wire_node_string_encoding(n.n)) }

// Text is the text of a string node.
func (n Node) Text() string {
	var need C.size_t
	C.wire_node_string_utf8(n.n, nil, 0, &need)
	buf := make([]byte, int(need)+1)
	C.wire_node_string_utf8(n.n, (*C.uint8_t)(unsafe.Pointer(&buf[0])), C.size_t(len(buf)), &need)
	return string(buf[:need])
}

func (n Node) DecimalNegative() bool { return C.wire_node_decimal_negative(n.n) != 0 }
func (n Node) DecimalScale() int32   { return int32(C.wire_node_decimal_scale(n.n)) }
func (n Node) EnumTypeID() uint32    { return uint32(C.wire_node_enum_type_id(n.n)) }
func (n Node) EnumValue() uint32     { return uint32(C.wire_node_enum_value(n.n)) }
func (n Node) EnumNamespace() string {
	var l C.size_t
	p := C.wire_node_enum_namespace(n.n, &l)
	if p == nil {
		return ""
	}
	return C.GoStringN((*C.char)(unsafe.Pointer(p)), C.int(l))
}

// Count: elements of a list/set/array, entries of a map, fields of a struct.
func (n Node) Count() int          { return int(C.wire_node_count(n.n)) }
func (n Node) Child(i int) Node    { return n.doc.node(C.wire_node_child(n.n, C.size_t(i))) }
func (n Node) MapKey(i int) Node   { return n.doc.node(C.wire_node_map_key(n.n, C.size_t(i))) }
func (n Node) MapValue(i int) Node { return n.doc.node(C.wire_node_map_value(n.n, C.size_t(i))) }

// Field is struct field i in wire order (invalid Node if unset).
func (n Node) Field(i int) Node { return n.doc.node(C.wire_node_field(n.n, C.size_t(i))) }

// FieldName is the wire name of field i; ok is false for a field known
// only by its tag id (FieldTag).
func (n Node) FieldName(i int) (string, bool) {
	var l C.size_t
	p := C.wire_node_field_name(n.n, C.size_t(i), &l)
	if p == nil {
		return "", false
	}
	return C.GoStringN(p, C.int(l)), true
}

func (n Node) FieldTag(i int) int { return int(C.wire_node_field_tag(n.n, C.size_t(i))) }

// Project reads struct n as the schema's version typ of its type
// (wire_struct_project): fields matched by tag id or name, unknown ones
// dropped, missing ones defaulted, values converted where allowed.
func (d *Doc) Project(n Node, typ uint32) (Node, error) {
	var out *C.wire_node
	if st := C.wire_struct_project(d.d, n.n, C.uint32_t(typ), &out); st != 0 {
		return Node{}, d.check(st)
	}
	return d.node(out), nil
}

// UserType is the registry index of a struct/ext/enum/union node's type.
func (n Node) UserType() (uint32, bool) {
	var t C.uint32_t
	if C.wire_node_user_type(n.doc.d, n.n, &t) != 0 {
		C.wire_ctx_clear_error(n.doc.c.ctx())
		return 0, false
	}
	return uint32(t), true
}

// TypeNames: namespace and name of a named struct, enum or union.
func (n Node) TypeNames() (ns, name string, ok bool) {
	var a, b *C.uint8_t
	var al, bl C.size_t
	if C.wire_node_type_names(n.n, &a, &al, &b, &bl) != 0 {
		C.wire_ctx_clear_error(n.doc.c.ctx())
		return "", "", false
	}
	return C.GoStringN((*C.char)(unsafe.Pointer(a)), C.int(al)), C.GoStringN((*C.char)(unsafe.Pointer(b)), C.int(bl)), true
}

// UserTypeID is the numeric user type id, 0xFFFFFFFF if none.
func (n Node) UserTypeID() uint32 { return uint32(C.wire_node_user_type_id(n.n)) }

// TypeDef is the TypeDef a struct was read with when the schema would not
// write the same bytes (nil otherwise).
func (n Node) TypeDef() []byte {
	var l C.size_t
	p := C.wire_node_typedef(n.n, &l)
	if p == nil {
		return nil
	}
	return C.GoBytes(unsafe.Pointer(p), C.int(l))
}

// TypeDefID identifies the TypeDef storage (equal for nodes sharing one).
func (n Node) TypeDefID() uintptr {
	var l C.size_t
	return uintptr(unsafe.Pointer(C.wire_node_typedef(n.n, &l)))
}

func (n Node) UnionCase() uint32 { return uint32(C.wire_node_union_case(n.n)) }
func (n Node) UnionValue() Node  { return n.doc.node(C.wire_node_union_value(n.n)) }

// Index is the creation order of the node in its document.
func (n Node) Index() uint32 { return uint32(C.wire_node_index(n.n)) }

// MetaEncodingName is the name of a meta string encoding id.
func MetaEncodingName(e int) string {
	p := C.wire_meta_encoding_name(C.int32_t(e))
	if p == nil {
		return ""
	}
	return C.GoString(p)
}

// Float16FromFloat64 rounds to a float16 (nearest even); a NaN keeps its
// sign, quiet bit and top 10 payload bits (the quiet NaN if those are all
// zero), so Float16FromFloat64(f.Float64()) == f for every f.
func Float16FromFloat64(v float64) Float16 { return Float16(C.wire_float16_from_double(C.double(v))) }

// Float64 is the exact value of a float16; a NaN's payload becomes the top
// bits of the float64's, its quiet bit as it was (spec/tape.md).
func (f Float16) Float64() float64 { return float64(C.wire_float16_to_double(C.uint16_t(f))) }

// BFloat16FromFloat64 rounds to a bfloat16 (nearest even); a NaN keeps its
// sign, quiet bit and top 7 payload bits (the quiet NaN if those are all
// zero), so BFloat16FromFloat64(f.Float64()) == f for every f.
func BFloat16FromFloat64(v float64) BFloat16 {
	return BFloat16(C.wire_bfloat16_from_double(C.double(v)))
}

// Float64 is the exact value of a bfloat16, widened as a float32 of its
// bits is (f32Tape: float64() would set a signaling NaN's quiet bit).
func (f BFloat16) Float64() float64 {
	return math.Float64frombits(f32Tape(math.Float32frombits(uint32(f) << 16)))
}

// AddTape adds the roots of a tape (spec/tape.md) to the document in one
// call (wire_doc_add_tape).
func (d *Doc) AddTape(tape []byte) error {
	if len(tape) == 0 {
		return goErr("arg", "empty tape")
	}
	return d.check(C.wire_doc_add_tape(d.c.ctx(), d.d, (*C.uint8_t)(unsafe.Pointer(&tape[0])), C.size_t(len(tape))))
}

// Tape builds the tape Marshal would hand to libwire for the values (for
// the document API and for measuring).
func (c *Context) Tape(values ...any) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.applyGlobals(); err != nil {
		return nil, err
	}
	e := c.newEncoder()
	e.t.b = append([]byte(nil), e.t.b...)
	for _, v := range values {
		if err := e.root(v); err != nil {
			return nil, err
		}
	}
	return e.finish(), nil
}
