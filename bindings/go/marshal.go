package wire

/*
#include "wire.h"
#include "shim.h"
*/
import "C"

import (
	"encoding/binary"
	"math"
	"math/big"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"time"
	"unsafe"
)

// Tape ops of spec/tape.md beyond the wire type ids (STRUCT_IDX, version 2,
// is in plan.go); the binding writes version 2 tapes.
const (
	opNull     = 0x00
	opRef      = 0xF0
	opStructTD = 0xF1
	opEnumID   = 0xF2
	opPacked   = 0xF3
	opSpan     = 0xF5 // read tapes with WIRE_TAPE_SPANS: u8 type, u32 n, u64 offset
	tapeStruct = 0x1B // STRUCT (also ext types)
	tapeUnion  = 0x21
	noType     = 0xFFFFFFFF
)

const maxGoDepth = 2000

// tape is an append-only little-endian byte buffer.
type tape struct{ b []byte }

func (t *tape) u8(v byte)       { t.b = append(t.b, v) }
func (t *tape) u16(v uint16)    { t.b = binary.LittleEndian.AppendUint16(t.b, v) }
func (t *tape) u32(v uint32)    { t.b = binary.LittleEndian.AppendUint32(t.b, v) }
func (t *tape) u64(v uint64)    { t.b = binary.LittleEndian.AppendUint64(t.b, v) }
func (t *tape) bytes(p []byte)  { t.u32(uint32(len(p))); t.b = append(t.b, p...) }
func (t *tape) str(s string)    { t.u32(uint32(len(s))); t.b = append(t.b, s...) }
func (t *tape) f64(v float64)   { t.u64(math.Float64bits(v)) }
func (t *tape) name16(s string) { t.u16(uint16(len(s))); t.b = append(t.b, s...) }

// f32Tape is the f64 bits a tape carries for a float32 (spec/tape.md,
// FLOAT32 NaNs): float64(x), except that a NaN is widened bit for bit,
// its quiet bit as it was (the conversion sets it, so a signaling NaN would
// come back quiet).
func f32Tape(x float32) uint64 {
	b := math.Float32bits(x)
	if b&0x7fffffff > 0x7f800000 {
		return uint64(b>>31)<<63 | 0x7ff<<52 | uint64(b&0x7fffff)<<29
	}
	return math.Float64bits(float64(x))
}

// f32FromTape is the float32 of a tape's f64 bits: float32(f), except that
// a NaN is narrowed bit for bit (its top 23 payload bits, the quiet bit as
// it is; the quiet NaN if those are all zero), so f32FromTape(f32Tape(x))
// has x's bits.
func f32FromTape(u uint64) float32 {
	if u&(1<<63-1) > 0x7ff<<52 {
		m := uint32(u>>29) & 0x7fffff
		if m == 0 {
			m = 0x400000
		}
		return math.Float32frombits(uint32(u>>63)<<31 | 0x7f800000 | m)
	}
	return float32(math.Float64frombits(u))
}

// f32Of is the float32 in v (of a float32 kind) with its bits: v.Float()
// goes through float64, which quiets a signaling NaN.
func f32Of(v reflect.Value) float32 {
	if v.CanAddr() {
		return *(*float32)(v.Addr().UnsafePointer())
	}
	return v.Convert(typFloat32).Interface().(float32) // keeps the bits
}

// setF32 stores x in v (a settable float32 kind) with its bits, where
// v.SetFloat would go through float64.
func setF32(v reflect.Value, x float32) {
	if !v.CanSet() {
		v.SetFloat(float64(x)) // fails as SetFloat does
		return
	}
	*(*float32)(v.Addr().UnsafePointer()) = x
}

// appendStr appends a STRING record (op, encoding, length, bytes).
func appendStr(b []byte, enc byte, s string) []byte {
	b = append(b, TypeString, enc)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(s)))
	return append(b, s...)
}

type refKey struct {
	p uintptr
	t reflect.Type
}

type encoder struct {
	c       *Context
	t       tape
	ref     bool
	strEnc  byte
	anchors map[refKey]uint32
	nref    uint32 // referenceable values written so far (REF numbers)
	depth   int
	roots   uint32
}

func (c *Context) newEncoder() *encoder {
	e := &encoder{c: c, ref: c.cfg.ref, strEnc: 0x82} // UTF-8, the Java runtime's choice
	if c.cfg.utf8 {
		e.strEnc = StrUTF8
	}
	e.t.b = append(c.tape[:0], 'W', 'T', 2, 0, 0, 0, 0, 0)
	return e
}

// finish patches the root count into the tape header.
func (e *encoder) finish() []byte {
	binary.LittleEndian.PutUint32(e.t.b[4:], e.roots)
	return e.t.b
}

// sh starts a scalar record, rec a referenceable one (lists, maps, structs,
// unions, binary, decimals, arrays: numbered for REF in pre-order).
func (e *encoder) sh(op byte)  { e.t.b = append(e.t.b, op) }
func (e *encoder) rec(op byte) { e.t.b = append(e.t.b, op); e.nref++ }

func (e *encoder) root(v any) error {
	e.depth = 0
	e.roots++
	return e.any(v)
}

// any writes a value held in an interface, with fast paths for the common
// concrete types.
func (e *encoder) any(x any) error {
	switch v := x.(type) {
	case nil:
		e.sh(opNull)
	case string:
		e.sh(TypeString)
		e.t.u8(e.strEnc)
		e.t.str(v)
	case int64:
		e.sh(TypeVarint64)
		e.t.u64(uint64(v))
	case int:
		e.sh(TypeVarint64)
		e.t.u64(uint64(v))
	case int32:
		e.sh(TypeVarint32)
		e.t.u64(uint64(int64(v)))
	case bool:
		e.sh(TypeBool)
		if v {
			e.t.u8(1)
		} else {
			e.t.u8(0)
		}
	case float64:
		e.sh(TypeFloat64)
		e.t.f64(v)
	case float32:
		e.sh(TypeFloat32)
		e.t.u64(f32Tape(v))
	case []string:
		if v == nil {
			e.sh(opNull)
			return nil
		}
		e.rec(TypeList)
		e.t.u32(uint32(len(v)))
		b := e.t.b
		for _, s := range v {
			b = appendStr(b, e.strEnc, s)
		}
		e.t.b = b
	case []any:
		if v == nil {
			e.sh(opNull)
			return nil
		}
		if err := e.enter(); err != nil {
			return err
		}
		e.rec(TypeList)
		e.t.u32(uint32(len(v)))
		for _, el := range v {
			if err := e.any(el); err != nil {
				return err
			}
		}
		e.depth--
	case map[string]int64:
		if v == nil {
			e.sh(opNull)
			return nil
		}
		if e.ref {
			return e.value(reflect.ValueOf(x), -1, true)
		}
		e.rec(TypeMap)
		e.t.u32(uint32(len(v)))
		b := e.t.b
		for k, val := range v {
			b = appendStr(b, e.strEnc, k)
			if cap(b)-len(b) < 9 {
				b = slices.Grow(b, 9)
			}
			n := len(b)
			b = b[:n+9]
			b[n] = TypeVarint64
			binary.LittleEndian.PutUint64(b[n+1:], uint64(val))
		}
		e.t.b = b
	default:
		rv := reflect.ValueOf(x)
		if rv.Kind() == reflect.Pointer && !rv.IsNil() && !e.ref {
			if si := e.c.reg.byType[rv.Type().Elem()]; si != nil && si.plan != nil {
				return e.planStruct(si, rv.UnsafePointer())
			}
		}
		return e.value(rv, -1, true)
	}
	return nil
}

func (e *encoder) enter() error {
	e.depth++
	if e.depth > maxGoDepth {
		return goErr("depth", "value nested deeper than %d (a cycle without WithRefTracking?)", maxGoDepth)
	}
	return nil
}

// seen writes a REF and returns true if the referent (a pointer to a
// struct, or a map) was written before; otherwise it records the number
// the referent's record is about to get.
func (e *encoder) seen(p uintptr, t reflect.Type) bool {
	if e.anchors == nil {
		e.anchors = map[refKey]uint32{}
	}
	k := refKey{p, t}
	if i, ok := e.anchors[k]; ok {
		e.sh(opRef)
		e.t.u32(i)
		return true
	}
	e.anchors[k] = e.nref
	return false
}

func (e *encoder) intRec(id int, v int64) error {
	if id >= TypeUint8 && id <= TypeTaggedUint64 {
		if v < 0 {
			return goErr("value", "%d does not fit %s", v, TypeName(id))
		}
		e.sh(byte(id))
		e.t.u64(uint64(v))
		return nil
	}
	if id < TypeInt8 || id > TypeTaggedInt64 {
		return goErr("type", "an integer cannot be written as %s", TypeName(id))
	}
	e.sh(byte(id))
	e.t.u64(uint64(v))
	return nil
}

func (e *encoder) uintRec(id int, v uint64) error {
	if id >= TypeInt8 && id <= TypeTaggedInt64 {
		if v > math.MaxInt64 {
			return goErr("value", "%d does not fit %s", v, TypeName(id))
		}
		return e.intRec(id, int64(v))
	}
	if id < TypeUint8 || id > TypeTaggedUint64 {
		return goErr("type", "an unsigned integer cannot be written as %s", TypeName(id))
	}
	e.sh(byte(id))
	e.t.u64(v)
	return nil
}

// value writes v. override is a type id from a field tag (-1 = from the Go
// type); nullable says whether a nil slice or map may be written as null
// (else it is written empty).
func (e *encoder) value(v reflect.Value, override int, nullable bool) error {
	if !v.IsValid() {
		e.sh(opNull)
		return nil
	}
	t := v.Type()
	switch t {
	case typTime:
		tm := v.Interface().(time.Time)
		e.sh(TypeTimestamp)
		e.t.u64(uint64(tm.Unix()))
		e.t.u32(uint32(tm.Nanosecond()))
		return nil
	case typDuration:
		d := time.Duration(v.Int())
		s, ns := int64(d/time.Second), int64(d%time.Second)
		if ns < 0 {
			s--
			ns += int64(time.Second)
		}
		e.sh(TypeDuration)
		e.t.u64(uint64(s))
		e.t.u32(uint32(ns))
		return nil
	case typDate:
		e.sh(TypeDate)
		e.t.u64(uint64(v.Int()))
		return nil
	case typF16:
		e.sh(TypeFloat16)
		e.t.f64(Float16(v.Uint()).Float64())
		return nil
	case typBF16:
		e.sh(TypeBfloat16)
		e.t.f64(BFloat16(v.Uint()).Float64())
		return nil
	case typDecimal:
		d := v.Interface().(Decimal)
		e.rec(TypeDecimal)
		u := d.Unscaled
		if u == nil {
			u = new(big.Int)
		}
		e.t.u32(uint32(d.Scale))
		if u.Sign() < 0 {
			e.t.u8(1)
		} else {
			e.t.u8(0)
		}
		be := new(big.Int).Abs(u).Bytes()
		for i, j := 0, len(be)-1; i < j; i, j = i+1, j-1 {
			be[i], be[j] = be[j], be[i]
		}
		e.t.bytes(be)
		return nil
	case typNone:
		e.sh(TypeNone)
		return nil
	case typEnum:
		en := v.Interface().(Enum)
		if en.Type != "" {
			idx, ok := e.c.findType(en.Type)
			if !ok {
				return goErr("schema", "enum type %q is not in the schema", en.Type)
			}
			if d := e.c.enumDeclOf(idx); d != nil && !d.has(en.Value) {
				return e.c.notDeclared(d, en.Value)
			}
			e.sh(TypeEnum)
			e.t.u32(idx)
		} else if en.TypeID == noType {
			// a named enum the schema lacks, as decoded with an empty name
			return goErr("schema", "an enum with neither a type name nor a type id cannot be written")
		} else {
			if idx, ok := e.c.enumByID(en.TypeID); ok {
				if d := e.c.enumDeclOf(idx); d != nil && !d.has(en.Value) {
					return e.c.notDeclared(d, en.Value)
				}
			}
			e.sh(opEnumID)
			e.t.u32(en.TypeID)
		}
		e.t.u32(en.Value)
		return nil
	case typStruct:
		s := v.Interface().(Struct)
		return e.genericStruct(&s)
	case typUnion:
		u := v.Interface().(Union)
		idx := uint32(noType)
		if u.Type != "" {
			var ok bool
			if idx, ok = e.c.findType(u.Type); !ok {
				return goErr("schema", "union type %q is not in the schema", u.Type)
			}
		}
		e.rec(tapeUnion)
		e.t.u32(idx)
		e.t.u32(u.Case)
		if err := e.enter(); err != nil {
			return err
		}
		err := e.any(u.Value)
		e.depth--
		return err
	}
	switch t.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			e.sh(opNull)
			return nil
		}
		return e.value(v.Elem(), override, true)
	case reflect.Pointer:
		if v.IsNil() {
			e.sh(opNull)
			return nil
		}
		if e.ref && t.Elem().Kind() == reflect.Struct && !isSpecial(t.Elem()) && e.seen(v.Pointer(), t) {
			return nil
		}
		if err := e.enter(); err != nil {
			return err
		}
		err := e.value(v.Elem(), override, true)
		e.depth--
		return err
	case reflect.Bool:
		if override >= 0 && override != TypeBool {
			return goErr("type", "a bool cannot be written as %s", TypeName(override))
		}
		e.sh(TypeBool)
		if v.Bool() {
			e.t.u8(1)
		} else {
			e.t.u8(0)
		}
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		id := override
		if id < 0 {
			id = wireTypeOf(t)
		}
		return e.intRec(id, v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		id := override
		if id < 0 {
			id = wireTypeOf(t)
		}
		return e.uintRec(id, v.Uint())
	case reflect.Float32, reflect.Float64:
		id := override
		if id < 0 {
			id = wireTypeOf(t)
		}
		if id < TypeFloat16 || id > TypeFloat64 {
			return goErr("type", "a float cannot be written as %s", TypeName(id))
		}
		e.sh(byte(id))
		if v.Kind() == reflect.Float32 {
			e.t.u64(f32Tape(f32Of(v)))
		} else {
			e.t.f64(v.Float())
		}
		return nil
	case reflect.String:
		e.sh(TypeString)
		e.t.u8(e.strEnc)
		e.t.str(v.String())
		return nil
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice && v.IsNil() && nullable {
			e.sh(opNull)
			return nil
		}
		id := override
		if id < 0 {
			id = wireTypeOf(t)
		}
		if w := ArrayWidth(id); w > 0 || id == TypeBinary {
			return e.dense(v, byte(id))
		}
		if id != TypeList && id != TypeSet {
			return goErr("type", "a %s cannot be written as %s", t, TypeName(id))
		}
		if e.packed(v, byte(id)) {
			return nil
		}
		return e.listOf(v, byte(id), nil)
	case reflect.Map:
		return e.mapOf(v, nil, nil, nullable)
	case reflect.Struct:
		si := e.c.reg.byType[t]
		if si == nil {
			return goErr("type", "struct type %s is not registered (RegisterStruct)", t)
		}
		if si.plan != nil {
			if !v.CanAddr() {
				p := reflect.New(t)
				p.Elem().Set(v)
				v = p.Elem()
			}
			return e.planStruct(si, v.Addr().UnsafePointer())
		}
		if err := e.enter(); err != nil {
			return err
		}
		e.rec(tapeStruct)
		e.t.u32(si.index)
		at := len(e.t.b)
		e.t.u32(0)
		n := uint32(0)
		for i := range si.fields {
			f := &si.fields[i]
			fv := v.FieldByIndex(f.goIndex)
			if f.nullable && (fv.Kind() == reflect.Pointer || fv.Kind() == reflect.Interface ||
				fv.Kind() == reflect.Map || fv.Kind() == reflect.Slice) && fv.IsNil() {
				continue // unset nullable fields are written as null
			}
			e.t.name16(f.wireName)
			if f.enum != 0 && isIntKind(fv.Kind()) {
				if err := e.enumOf(f.enum-1, fv); err != nil {
					return fieldErr(err, si, f)
				}
				n++
				continue
			}
			var err error
			if f.shape != nil {
				err = e.shaped(fv, f.shape, f.wireType, f.nullable)
			} else {
				err = e.value(fv, f.wireType, f.nullable)
			}
			if err != nil {
				return fieldErr(err, si, f)
			}
			n++
		}
		binary.LittleEndian.PutUint32(e.t.b[at:], n)
		e.depth--
		return nil
	}
	return goErr("type", "Go type %s has no xlang type", t)
}

// shaped writes v like value, with override at this level and the wire
// types of s below it (a field bound to a schema, wshape).
func (e *encoder) shaped(v reflect.Value, s *wshape, override int, nullable bool) error {
	if s.dyn != nil {
		// an any under a declared type: its value's Go type bound to that
		// type (a nil any, or a value written as its Go type says, as before)
		if v.Kind() == reflect.Interface && !v.IsNil() {
			if ds := shapeOf(v.Elem().Type(), s.dyn, 0); ds != nil {
				return e.shaped(v.Elem(), ds, ds.id, !ds.empty)
			}
		}
		return e.value(v, override, nullable)
	}
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			e.sh(opNull)
			return nil
		}
		v, nullable = v.Elem(), true
	}
	if s.enum != 0 && isIntKind(v.Kind()) {
		return e.enumOf(s.enum-1, v)
	}
	t := v.Type()
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		id := override
		if id < 0 {
			id = wireTypeOf(t)
		}
		if s.elem == nil || (id != TypeList && id != TypeSet) {
			break
		}
		if t.Kind() == reflect.Slice && v.IsNil() && nullable {
			e.sh(opNull)
			return nil
		}
		return e.listOf(v, byte(id), s.elem)
	case reflect.Map:
		return e.mapOf(v, s.key, s.val, nullable)
	}
	return e.value(v, override, nullable)
}

// listOf writes slice or array v as a list or set (id), its elements of
// shape es (nil: from the Go type).
func (e *encoder) listOf(v reflect.Value, id byte, es *wshape) error {
	if err := e.enter(); err != nil {
		return err
	}
	e.rec(id)
	n := v.Len()
	e.t.u32(uint32(n))
	for i := 0; i < n; i++ {
		if err := e.shapedPart(v.Index(i), es); err != nil {
			return err
		}
	}
	e.depth--
	return nil
}

// mapOf writes map v, its keys of shape ks and its values of shape vs (nil:
// from the Go types).
func (e *encoder) mapOf(v reflect.Value, ks, vs *wshape, nullable bool) error {
	if v.IsNil() && nullable {
		e.sh(opNull)
		return nil
	}
	t := v.Type()
	if e.ref && !v.IsNil() && e.seen(v.Pointer(), t) {
		return nil
	}
	if err := e.enter(); err != nil {
		return err
	}
	e.rec(TypeMap)
	e.t.u32(uint32(v.Len()))
	it := v.MapRange()
	k := reflect.New(t.Key()).Elem()
	val := reflect.New(t.Elem()).Elem()
	for it.Next() {
		k.SetIterKey(it)
		val.SetIterValue(it)
		if err := e.shapedPart(k, ks); err != nil {
			return err
		}
		if err := e.shapedPart(val, vs); err != nil {
			return err
		}
	}
	e.depth--
	return nil
}

// shapedPart writes a list element, map key or map value of shape s: a
// nil slice or map as null, or empty where s says it is declared without
// optional.
func (e *encoder) shapedPart(v reflect.Value, s *wshape) error {
	if s == nil {
		return e.value(v, -1, true)
	}
	return e.shaped(v, s, s.id, !s.empty)
}

func fieldErr(err error, si *structInfo, f *fieldInfo) error {
	if we, ok := err.(*WireError); ok && !strings.HasPrefix(we.Message, "field ") { // else named by an inner struct
		return &WireError{Class: we.Class, Offset: we.Offset, Message: si.typ.Name() + "." + f.goName + ": " + we.Message}
	}
	return err
}

// packed writes a list of Go numbers or bools (a slice field declared as a
// list) as one PACKED record: 8 bytes per element.
func (e *encoder) packed(v reflect.Value, kind byte) bool {
	et := v.Type().Elem()
	if et.PkgPath() != "" || v.Len() == 0 {
		return false
	}
	var id int
	switch et.Kind() {
	case reflect.Bool, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int,
		reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uint,
		reflect.Float32, reflect.Float64:
		id = wireTypeOf(et)
	default:
		return false
	}
	n := v.Len()
	e.rec(opPacked)
	e.t.u8(kind)
	e.t.u8(byte(id))
	e.t.u32(uint32(n))
	if v.Kind() == reflect.Slice {
		e.t.b = appendPacked(e.t.b, v.UnsafePointer(), n, et.Kind())
		return true
	}
	for i := 0; i < n; i++ {
		el := v.Index(i)
		switch et.Kind() {
		case reflect.Bool:
			if el.Bool() {
				e.t.u64(1)
			} else {
				e.t.u64(0)
			}
		case reflect.Float32:
			e.t.u64(f32Tape(f32Of(el)))
		case reflect.Float64:
			e.t.f64(el.Float())
		case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int:
			e.t.u64(uint64(el.Int()))
		default:
			e.t.u64(el.Uint())
		}
	}
	return true
}

// dense writes a binary or dense array record from a Go slice or array.
func (e *encoder) dense(v reflect.Value, id byte) error {
	et := v.Type().Elem()
	w := int(et.Size())
	if want := ArrayWidth(int(id)); id != TypeBinary && want != w {
		return goErr("type", "a %s cannot be written as %s", v.Type(), TypeName(int(id)))
	}
	if id == TypeBinary && w != 1 {
		return goErr("type", "a %s cannot be written as binary", v.Type())
	}
	n := v.Len()
	e.rec(id)
	e.t.u32(uint32(n * w))
	if n == 0 {
		return nil
	}
	if v.Kind() == reflect.Slice {
		raw := unsafe.Slice((*byte)(v.UnsafePointer()), n*w)
		e.t.b = append(e.t.b, raw...)
		return nil
	}
	for i := 0; i < n; i++ { // an array value (not addressable)
		el := v.Index(i)
		var u uint64
		switch el.Kind() {
		case reflect.Bool:
			if el.Bool() {
				u = 1
			}
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			u = uint64(el.Int())
		case reflect.Float32:
			u = uint64(math.Float32bits(f32Of(el)))
		case reflect.Float64:
			u = math.Float64bits(el.Float())
		default:
			u = el.Uint()
		}
		for k := 0; k < w; k++ {
			e.t.b = append(e.t.b, byte(u>>(8*k)))
		}
	}
	return nil
}

func (e *encoder) genericStruct(s *Struct) error {
	idx, ok := e.c.findType(s.Type)
	if !ok {
		return goErr("schema", "struct type %q is not in the schema", s.Type)
	}
	if err := e.enter(); err != nil {
		return err
	}
	e.rec(tapeStruct)
	e.t.u32(idx)
	e.t.u32(uint32(len(s.Fields)))
	for _, f := range s.Fields {
		e.t.name16(f.Name)
		if err := e.any(f.Value); err != nil {
			return inField(err, e.c.TypeName(idx), f.Name)
		}
	}
	e.depth--
	return nil
}

// Marshal encodes v as one root value.
func (c *Context) Marshal(v any) ([]byte, error) {
	return c.MarshalAppend(nil, v)
}

// MarshalAll encodes each value as a root, concatenated in one payload.
func (c *Context) MarshalAll(values []any) ([]byte, error) {
	return c.marshal(nil, nil, values, true)
}

// MarshalAppend encodes v as one root value and appends the payload to dst
// (reuse a buffer across calls: no allocation per message once it is large
// enough).
func (c *Context) MarshalAppend(dst []byte, v any) ([]byte, error) {
	return c.marshal(dst, v, nil, false)
}

// marshal encodes one root (v) or, with all, the roots in values.
func (c *Context) marshal(dst []byte, v any, values []any, all bool) ([]byte, error) {
	c.mu.Lock()
	if err := c.applyGlobals(); err != nil {
		c.mu.Unlock()
		return nil, err
	}
	refused := false
	if !all {
		if r, gp := c.memTarget(v, false); r != nil {
			out, err := c.memMarshal(dst, r, gp)
			if err != error(errEnumRefused) {
				c.mu.Unlock()
				runtime.KeepAlive(v)
				return out, err
			}
			// an enum number its enum does not declare: the tape path
			// refuses it too, in words that name the field (enums.go)
			refused = true
		}
	}
	defer c.mu.Unlock()
	e := c.newEncoder()
	if !all {
		if err := e.root(v); err != nil {
			return nil, err
		}
		if refused {
			return nil, errEnumRefused // (the paths check the same numbers)
		}
	}
	for _, v := range values {
		if err := e.root(v); err != nil {
			return nil, err
		}
	}
	tp := e.finish()
	c.tape = tp
	if spare := cap(dst) - len(dst); len(tp) >= directMin && spare >= len(tp)+64 {
		// A large payload straight into the caller's spare capacity: one
		// copy less (the payload of a binary or dense array is at most a
		// few bytes longer than its tape; when it does not fit, the usual
		// way below).
		out := dst[len(dst):cap(dst)]
		st := C.wirego_encode_into(c.s, (*C.uint8_t)(unsafe.Pointer(&tp[0])), C.size_t(len(tp)),
			(*C.uint8_t)(unsafe.Pointer(&out[0])), C.size_t(len(out)))
		if st == 0 {
			return dst[:len(dst)+int(c.s.out_len)], nil
		}
		if st != C.WIRE_E_BUFFER_FULL {
			return nil, c.lastError(st)
		}
	}
	if st := C.wirego_encode(c.s, (*C.uint8_t)(unsafe.Pointer(&tp[0])), C.size_t(len(tp))); st != 0 {
		return nil, c.lastError(st)
	}
	return append(dst, unsafe.Slice((*byte)(unsafe.Pointer(c.s.out)), int(c.s.out_len))...), nil
}

// directMin: from this many tape bytes on, MarshalAppend encodes into the
// spare capacity of its dst when the payload fits there (a writer over dst
// for the call, instead of the session's writer and a copy out: saves one
// copy of the payload, which from here on costs more than the writer's
// set-up).
var directMin = 16 << 10 // a variable for BenchmarkEncodeDirectAB

func init() {
	var x uint16 = 1
	if *(*byte)(unsafe.Pointer(&x)) != 1 {
		panic("wire: the Go binding needs a little-endian host")
	}
}
