package wire

// The values a schema enum declares, checked when a value of it is
// written (issue 13). An enum field, list item or map key or value may be
// held as a Go integer (bind.go) or a wire.Enum; the writer's schema says
// which numbers the enum has, and a number it does not have (a negative or
// over-32-bit Go integer included) is refused with a `value` error naming
// the field and the number, on every path: the tape path checks in
// enumOf and in the wire.Enum case of value (marshal.go), the compiled
// codecs check while they build the image (menc.op, mkEnum) and leave the
// error's wording to the tape path (marshal); a wire.Enum by TypeID
// alone is checked when the schema has an enum of that id (enumByID).
// Reading keeps any number (a newer writer's enumerator decodes into the
// Go integer or the wire.Enum); such a value is read, not written back. pyfory 1.7.7 writes
// only members of its Enum classes (and refuses an unknown number when it
// reads), the Fory spec makes the enumerator's ID the wire value; Fory Go
// v1.6.1 writes any Go integer, cut to 32 bits (README: Structs).

/*
#include "wire.h"
*/
import "C"

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unsafe"
)

// enumDecl is what one schema enum declares, built once per context from
// wire_schema_enum_values.
type enumDecl struct {
	index  uint32   // the enum's type index
	dense  uint32   // the values are exactly 0 .. dense-1 (the usual ordinals)
	sorted []uint32 // otherwise: the values, sorted
}

// has reports whether the enum declares x.
func (d *enumDecl) has(x uint32) bool {
	if x < d.dense {
		return true
	}
	_, ok := slices.BinarySearch(d.sorted, x)
	return ok
}

// enumDeclOf is the declaration of schema type index, nil when the type is
// no enum of the schema. Cached per context (the values of a registered
// enum never change).
func (c *Context) enumDeclOf(index uint32) *enumDecl {
	if int(index) < len(c.enums) && c.enums[index] != nil {
		return c.enums[index]
	}
	var n C.size_t
	if C.wire_schema_enum_values(c.ctx(), C.uint32_t(index), nil, 0, &n) == C.WIRE_E_ARG {
		C.wire_ctx_clear_error(c.ctx())
		return nil
	}
	vals := make([]uint32, int(n)+1) // (+1: never a nil pointer)
	if C.wire_schema_enum_values(c.ctx(), C.uint32_t(index), (*C.uint32_t)(unsafe.Pointer(&vals[0])), n, &n) != 0 {
		C.wire_ctx_clear_error(c.ctx())
		return nil
	}
	vals = vals[:n]
	slices.Sort(vals)
	d := &enumDecl{index: index}
	if len(vals) > 0 && vals[len(vals)-1] == uint32(len(vals)-1) {
		d.dense = uint32(len(vals)) // sorted and distinct: 0 .. n-1
	} else {
		d.sorted = vals
	}
	for int(index) >= len(c.enums) {
		c.enums = append(c.enums, nil)
	}
	c.enums[index] = d
	return d
}

// enumByID is the schema enum registered with numeric user id id, if the
// schema has one (a wire.Enum given by TypeID alone names it so). wire.h
// maps an id to a type index only for a node, so a node of a scratch
// document is asked (wire_node_user_type), once per id; ids the schema
// lacks are asked again after the schema has gained types.
func (c *Context) enumByID(id uint32) (uint32, bool) {
	n := uint32(C.wire_schema_type_count(c.ctx()))
	if c.enumIDs == nil || c.enumIDn != n {
		c.enumIDs, c.enumIDn = map[uint32]uint32{}, n
	}
	if idx, ok := c.enumIDs[id]; ok {
		return idx, idx != noType
	}
	idx := uint32(noType)
	if doc := C.wire_doc_new(c.ctx()); doc != nil {
		var t C.uint32_t
		if nd := C.wire_node_new_enum(doc, C.uint32_t(id), 0); nd != nil &&
			C.wire_node_user_type(doc, nd, &t) == 0 { // (an enum node: found among enums only)
			idx = uint32(t)
		}
		C.wire_doc_free(doc)
	}
	C.wire_ctx_clear_error(c.ctx())
	c.enumIDs[id] = idx
	return idx, idx != noType
}

// enumValue is the Go integer at p of kind k as an enum number: ok is
// false for a negative one or one over 32 bits.
func enumValue(p unsafe.Pointer, k reflect.Kind) (x uint32, ok bool) {
	var u uint64 // (a negative number: 2^63 and more)
	switch k {
	case reflect.Int8:
		u = uint64(*(*int8)(p))
	case reflect.Int16:
		u = uint64(*(*int16)(p))
	case reflect.Int32:
		u = uint64(*(*int32)(p))
	case reflect.Int64:
		u = uint64(*(*int64)(p))
	case reflect.Int:
		u = uint64(*(*int)(p))
	case reflect.Uint8:
		u = uint64(*(*uint8)(p))
	case reflect.Uint16:
		u = uint64(*(*uint16)(p))
	case reflect.Uint32:
		u = uint64(*(*uint32)(p))
	case reflect.Uint64:
		u = *(*uint64)(p)
	default: // Uint
		u = uint64(*(*uint)(p))
	}
	return uint32(u), u <= 0xFFFFFFFF
}

// notDeclared is the error for v (a Go integer, or a wire.Enum's number)
// that enum d does not declare.
func (c *Context) notDeclared(d *enumDecl, v any) error {
	vals := d.sorted
	if d.dense > 0 {
		vals = make([]uint32, d.dense)
		for i := range vals {
			vals[i] = uint32(i)
		}
	}
	var b strings.Builder
	for i, x := range vals {
		if i == 8 {
			fmt.Fprintf(&b, ", ... (%d values)", len(vals))
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(&b, x)
	}
	if len(vals) == 0 {
		b.WriteString("none")
	}
	return goErr("value", "enum value %v is not declared by %s (declared: %s)", v, c.TypeName(d.index), b.String())
}

// enumHeld is the declaration of dt when it is a schema enum (a Go integer
// bound to it is checked when written), else nil.
func (c *Context) enumHeld(dt *dtype) *enumDecl {
	if dt == nil || dt.id != TypeEnum {
		return nil
	}
	return c.enumDeclOf(dt.user)
}

// errEnumRefused: the compiled codecs met an enum number its enum does
// not declare; marshal then writes the value on the tape path, whose
// error names the field and the number (one wording on every path).
var errEnumRefused = goErr("value", "an enum value its enum does not declare")

// enumCheck checks the Go integer at p, held for o's enum.
func enumCheck(o *mop, p unsafe.Pointer) error {
	if x, ok := enumValue(p, derefType(o.typ).Kind()); !ok || !o.en.has(x) {
		return errEnumRefused
	}
	return nil
}
