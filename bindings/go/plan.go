package wire

// Per Go struct type, a plan built once when the type is registered: its
// fields in wire order with their offsets and kinds, so that Marshal writes
// a STRUCT_IDX record (spec/tape.md version 2: fields by wire index, no
// names) reading each field through its offset, and Unmarshal (with
// WIRE_TAPE_FIELD_INDEX) stores each field through its offset, without
// reflection or name lookups for the common field kinds. Other fields
// (pointers, maps, interfaces, times, tagged wire types, ...) go through
// the reflective walk for that field only.

import (
	"encoding/binary"
	"math"
	"reflect"
	"slices"
	"unsafe"
)

const opStructIdx = 0xF4

type pkind uint8

const (
	pkGeneric pkind = iota
	pkBool
	pkInt8
	pkInt16
	pkInt32
	pkInt64
	pkInt
	pkUint8
	pkUint16
	pkUint32
	pkUint64
	pkUint
	pkFloat32
	pkFloat64
	pkString
	pkStrings // []string written as a list
	pkStruct  // a registered struct held by value
	pkStructs // []T of a registered struct T, written as a list
	pkPacked  // a slice of an unnamed number or bool kind written as a list (PACKED)
	pkEnum    // a Go integer bound to a schema enum field (ENUM record)
	pkShaped  // a field with nested wire types of its own (fieldInfo.shape)
)

type planField struct {
	off  uintptr
	kind pkind
	op   byte // the tape op of a scalar
	typ  reflect.Type
	fi   *fieldInfo
	sub  *structInfo // pkStruct, pkStructs
}

type plan struct {
	fields []planField // in wire order
}

// buildPlan makes si.plan when every field of the registered type has a Go
// field; otherwise the type is written by field name (STRUCT records).
func (c *Context) buildPlan(si *structInfo) {
	names, err := c.schemaFieldNames(si.index)
	if err != nil || len(names) != len(si.fields) {
		return
	}
	p := &plan{fields: make([]planField, 0, len(names))}
	for _, n := range names {
		i, ok := si.byWire[n]
		if !ok || len(si.fields[i].goIndex) != 1 {
			return
		}
		f := &si.fields[i]
		sf := si.typ.Field(f.goIndex[0])
		pf := planField{off: sf.Offset, typ: sf.Type, fi: f}
		pf.kind, pf.op, pf.sub = c.planKind(sf.Type, f)
		p.fields = append(p.fields, pf)
	}
	si.plan = p
}

func (c *Context) planKind(t reflect.Type, f *fieldInfo) (pkind, byte, *structInfo) {
	natural := wireTypeOf(t)
	if f.enum != 0 && isIntKind(t.Kind()) {
		return pkEnum, TypeEnum, nil
	}
	if f.shape != nil {
		return pkShaped, 0, nil
	}
	if t.Kind() == reflect.Slice && t.PkgPath() == "" && t.Elem().PkgPath() == "" && f.wireType == TypeList {
		switch t.Elem().Kind() {
		case reflect.Bool, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int,
			reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uint,
			reflect.Float32, reflect.Float64:
			return pkPacked, byte(wireTypeOf(t.Elem())), nil
		}
	}
	if f.wireType >= 0 && f.wireType != natural {
		return pkGeneric, 0, nil
	}
	if t.PkgPath() == "" {
		switch t.Kind() {
		case reflect.Bool:
			return pkBool, TypeBool, nil
		case reflect.Int8:
			return pkInt8, byte(natural), nil
		case reflect.Int16:
			return pkInt16, byte(natural), nil
		case reflect.Int32:
			return pkInt32, byte(natural), nil
		case reflect.Int64:
			return pkInt64, byte(natural), nil
		case reflect.Int:
			return pkInt, byte(natural), nil
		case reflect.Uint8:
			return pkUint8, byte(natural), nil
		case reflect.Uint16:
			return pkUint16, byte(natural), nil
		case reflect.Uint32:
			return pkUint32, byte(natural), nil
		case reflect.Uint64:
			return pkUint64, byte(natural), nil
		case reflect.Uint:
			return pkUint, byte(natural), nil
		case reflect.Float32:
			return pkFloat32, TypeFloat32, nil
		case reflect.Float64:
			return pkFloat64, TypeFloat64, nil
		case reflect.String:
			return pkString, TypeString, nil
		case reflect.Slice:
			e := t.Elem()
			if e.Kind() == reflect.String && e.PkgPath() == "" {
				return pkStrings, TypeList, nil
			}
			if e.Kind() == reflect.Struct && !isSpecial(e) {
				if sub := c.reg.byType[e]; sub != nil {
					return pkStructs, TypeList, sub
				}
			}
		}
	}
	if t.Kind() == reflect.Struct && !isSpecial(t) && t != typTime {
		if sub := c.reg.byType[t]; sub != nil && !f.nullable {
			return pkStruct, 0, sub
		}
	}
	return pkGeneric, 0, nil
}

func (e *encoder) str(s string) { e.t.b = appendStr(e.t.b, e.strEnc, s) }

// planStruct writes the struct at p through its plan.
func (e *encoder) planStruct(si *structInfo, p unsafe.Pointer) error {
	if err := e.enter(); err != nil {
		return err
	}
	fs := si.plan.fields
	e.rec(opStructIdx)
	e.t.u32(si.index)
	e.t.u32(uint32(len(fs)))
	for i := range fs {
		f := &fs[i]
		fp := unsafe.Add(p, f.off)
		switch f.kind {
		case pkBool:
			b := byte(0)
			if *(*bool)(fp) {
				b = 1
			}
			e.t.b = append(e.t.b, TypeBool, b)
		case pkInt8:
			e.sh(f.op)
			e.t.u64(uint64(int64(*(*int8)(fp))))
		case pkInt16:
			e.sh(f.op)
			e.t.u64(uint64(int64(*(*int16)(fp))))
		case pkInt32:
			e.sh(f.op)
			e.t.u64(uint64(int64(*(*int32)(fp))))
		case pkInt64:
			e.sh(f.op)
			e.t.u64(uint64(*(*int64)(fp)))
		case pkInt:
			e.sh(f.op)
			e.t.u64(uint64(*(*int)(fp)))
		case pkUint8:
			e.sh(f.op)
			e.t.u64(uint64(*(*uint8)(fp)))
		case pkUint16:
			e.sh(f.op)
			e.t.u64(uint64(*(*uint16)(fp)))
		case pkUint32:
			e.sh(f.op)
			e.t.u64(uint64(*(*uint32)(fp)))
		case pkUint64:
			e.sh(f.op)
			e.t.u64(*(*uint64)(fp))
		case pkUint:
			e.sh(f.op)
			e.t.u64(uint64(*(*uint)(fp)))
		case pkFloat32:
			e.sh(TypeFloat32)
			e.t.u64(f32Tape(*(*float32)(fp)))
		case pkFloat64:
			e.sh(TypeFloat64)
			e.t.f64(*(*float64)(fp))
		case pkString:
			e.str(*(*string)(fp))
		case pkEnum:
			if err := e.enumOf(f.fi.enum-1, reflect.NewAt(f.typ, fp).Elem()); err != nil {
				return fieldErr(err, si, f.fi)
			}
		case pkStrings:
			s := *(*[]string)(fp)
			if s == nil && f.fi.nullable {
				e.sh(opNull)
				continue
			}
			e.rec(TypeList)
			e.t.u32(uint32(len(s)))
			for _, x := range s {
				e.str(x)
			}
		case pkPacked:
			sh := (*sliceHeader)(fp)
			if sh.data == nil && f.fi.nullable {
				e.sh(opNull)
				continue
			}
			if sh.len == 0 {
				e.rec(TypeList)
				e.t.u32(0)
				continue
			}
			e.rec(opPacked)
			e.t.b = append(e.t.b, TypeList, f.op)
			e.t.u32(uint32(sh.len))
			e.t.b = appendPacked(e.t.b, sh.data, sh.len, f.typ.Elem().Kind())
		case pkStruct:
			if err := e.structAt(f.sub, fp, f.typ); err != nil {
				return fieldErr(err, si, f.fi)
			}
		case pkStructs:
			sh := (*sliceHeader)(fp)
			if sh.data == nil && f.fi.nullable {
				e.sh(opNull)
				continue
			}
			if err := e.enter(); err != nil {
				return err
			}
			e.rec(TypeList)
			e.t.u32(uint32(sh.len))
			sz := f.sub.typ.Size()
			for j := 0; j < sh.len; j++ {
				if err := e.structAt(f.sub, unsafe.Add(sh.data, uintptr(j)*sz), f.sub.typ); err != nil {
					return fieldErr(err, si, f.fi)
				}
			}
			e.depth--
		case pkShaped:
			if err := e.shaped(reflect.NewAt(f.typ, fp).Elem(), f.fi.shape, f.fi.wireType, f.fi.nullable); err != nil {
				return fieldErr(err, si, f.fi)
			}
		default:
			fv := reflect.NewAt(f.typ, fp).Elem()
			if f.fi.nullable && isNilable(fv.Kind()) && fv.IsNil() {
				e.sh(opNull)
				continue
			}
			if err := e.value(fv, f.fi.wireType, f.fi.nullable); err != nil {
				return fieldErr(err, si, f.fi)
			}
		}
	}
	e.depth--
	return nil
}

// structAt writes a registered struct at p: through its plan, or by names.
func (e *encoder) structAt(si *structInfo, p unsafe.Pointer, t reflect.Type) error {
	if si.plan != nil {
		return e.planStruct(si, p)
	}
	return e.value(reflect.NewAt(t, p).Elem(), -1, false)
}

type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

func isNilable(k reflect.Kind) bool {
	return k == reflect.Pointer || k == reflect.Interface || k == reflect.Map || k == reflect.Slice
}

// ---------------------------------------------------------------------------
// Decoding STRUCT_IDX records.

// structIdxInto decodes a STRUCT_IDX record (op read) into v.
func (d *decoder) structIdxInto(k int, v reflect.Value) error {
	reg := d.u32()
	nf := int(d.u32())
	t := v.Type()
	d.keep(k, v)
	if t == typStruct {
		return d.structIdxGeneric(reg, nf, v.Addr().Interface().(*Struct))
	}
	if t.Kind() != reflect.Struct {
		return mismatch(TypeStruct, t)
	}
	si := d.c.reg.byType[t]
	if si == nil {
		return goErr("type", "struct type %s is not registered (RegisterStruct)", t)
	}
	if si.index != reg {
		return misfit(d.c.TypeName(reg), t)
	}
	if si.plan == nil {
		return d.structIdxByName(si, reg, nf, v)
	}
	if !v.CanAddr() {
		return goErr("state", "struct value not addressable")
	}
	return d.planInto(si, nf, v.Addr().UnsafePointer())
}

// structIdxByName decodes the fields of a STRUCT_IDX record into a Go type
// without a plan (one that lacks some of the schema's fields): by the
// schema's field names, skipping those the Go type does not have.
func (d *decoder) structIdxByName(si *structInfo, reg uint32, nf int, v reflect.Value) error {
	names, err := d.c.fieldNamesCached(reg)
	if err != nil {
		return err
	}
	if len(names) != nf {
		return errTape
	}
	if err := d.enter(); err != nil {
		return err
	}
	for _, name := range names {
		fi, ok := si.byWire[name]
		if !ok {
			if err := d.skip(); err != nil {
				return err
			}
			continue
		}
		f := &si.fields[fi]
		if err := d.decode(v.FieldByIndex(f.goIndex)); err != nil {
			return d.fieldErr(err, si, f)
		}
	}
	d.depth--
	return nil
}

func (d *decoder) planInto(si *structInfo, nf int, p unsafe.Pointer) error {
	if si.plan == nil {
		return d.structIdxByName(si, si.index, nf, reflect.NewAt(si.typ, p).Elem())
	}
	if nf != len(si.plan.fields) {
		return errTape
	}
	if err := d.enter(); err != nil {
		return err
	}
	for i := range si.plan.fields {
		f := &si.plan.fields[i]
		fp := unsafe.Add(p, f.off)
		if err := d.planField(f, fp); err != nil {
			return d.fieldErr(err, si, f.fi)
		}
	}
	d.depth--
	return nil
}

func (d *decoder) planField(f *planField, fp unsafe.Pointer) error {
	d.need(1)
	op := d.b[d.p]
	switch f.kind {
	case pkBool:
		if op == TypeBool {
			d.p++
			*(*bool)(fp) = d.u8() != 0
			return nil
		}
	case pkInt8, pkInt16, pkInt32, pkInt64, pkInt:
		if op >= TypeInt8 && op <= TypeTaggedInt64 {
			d.p++
			x := int64(d.u64())
			switch f.kind {
			case pkInt8:
				if x < math.MinInt8 || x > math.MaxInt8 {
					return goErr("value", "%d overflows a Go int8", x)
				}
				*(*int8)(fp) = int8(x)
			case pkInt16:
				if x < math.MinInt16 || x > math.MaxInt16 {
					return goErr("value", "%d overflows a Go int16", x)
				}
				*(*int16)(fp) = int16(x)
			case pkInt32:
				if x < math.MinInt32 || x > math.MaxInt32 {
					return goErr("value", "%d overflows a Go int32", x)
				}
				*(*int32)(fp) = int32(x)
			case pkInt64:
				*(*int64)(fp) = x
			default:
				*(*int)(fp) = int(x)
			}
			return nil
		}
	case pkFloat32:
		if op == TypeFloat32 {
			d.p++
			*(*float32)(fp) = f32FromTape(d.u64())
			return nil
		}
	case pkFloat64:
		if op >= TypeFloat16 && op <= TypeFloat64 {
			d.p++
			*(*float64)(fp) = d.f64()
			return nil
		}
	case pkString:
		if op == TypeString {
			d.p++
			*(*string)(fp) = d.text()
			return nil
		}
		if op == opStrSpan {
			d.p++
			*(*string)(fp) = d.spanText()
			return nil
		}
	case pkStrings:
		if op == TypeList {
			d.p++
			k := d.reserve()
			n := int(d.u32())
			if n > len(d.b)-d.p {
				panic(errTape)
			}
			s := make([]string, n)
			d.refs[k] = reflect.NewAt(f.typ, fp).Elem()
			for i := range s {
				d.need(1)
				switch d.b[d.p] {
				case TypeString:
					d.p++
					s[i] = d.text()
				case opStrSpan:
					d.p++
					s[i] = d.spanText()
				default:
					if err := d.decode(reflect.ValueOf(&s[i]).Elem()); err != nil {
						return err
					}
				}
			}
			*(*[]string)(fp) = s
			return nil
		}
	case pkPacked:
		if op == opPacked {
			d.p++
			k := d.reserve()
			d.need(6)
			et := d.b[d.p+1]
			d.p += 2
			n := int(d.u32())
			raw := d.take(8 * n)
			s := reflect.MakeSlice(f.typ, n, n)
			fv := reflect.NewAt(f.typ, fp).Elem()
			if n > 0 {
				ok, err := unpackInto(s.UnsafePointer(), n, f.typ.Elem().Kind(), et, raw)
				if !ok {
					d.p -= 8*n + 7
					d.refs = d.refs[:k]
					break
				}
				if err != nil {
					return err
				}
			}
			fv.Set(s)
			d.refs[k] = fv
			return nil
		}
	case pkStruct:
		if op == opStructIdx {
			d.p++
			k := d.reserve()
			d.refs[k] = reflect.NewAt(f.typ, fp).Elem()
			reg, nf := d.u32(), int(d.u32())
			if reg != f.sub.index {
				return misfit(d.c.TypeName(reg), f.typ)
			}
			return d.planInto(f.sub, nf, fp)
		}
	case pkStructs:
		if op == TypeList {
			d.p++
			k := d.reserve()
			n := int(d.u32())
			if n > len(d.b)-d.p {
				panic(errTape)
			}
			if err := d.enter(); err != nil {
				return err
			}
			sv := d.makeSlice(f.typ, n)
			base := sv.UnsafePointer()
			sz := f.sub.typ.Size()
			fv := reflect.NewAt(f.typ, fp).Elem()
			fv.Set(sv)
			d.refs[k] = fv
			for j := 0; j < n; j++ {
				ep := unsafe.Add(base, uintptr(j)*sz)
				d.need(1)
				if d.b[d.p] == opStructIdx {
					d.p++
					d.refs[d.reserve()] = reflect.NewAt(f.sub.typ, ep).Elem()
					reg, nf := d.u32(), int(d.u32())
					if reg != f.sub.index {
						return misfit(d.c.TypeName(reg), f.sub.typ)
					}
					if err := d.planInto(f.sub, nf, ep); err != nil {
						return err
					}
					continue
				}
				if err := d.decode(reflect.NewAt(f.sub.typ, ep).Elem()); err != nil {
					return err
				}
			}
			d.depth--
			return nil
		}
	}
	return d.decode(reflect.NewAt(f.typ, fp).Elem())
}

// structIdxGeneric decodes a STRUCT_IDX record of a type with no Go type
// into a Struct, with the field names of the schema.
func (d *decoder) structIdxGeneric(reg uint32, nf int, s *Struct) error {
	names, err := d.c.fieldNamesCached(reg)
	if err != nil {
		return err
	}
	if len(names) != nf {
		return errTape
	}
	if err := d.enter(); err != nil {
		return err
	}
	s.Type = d.c.TypeName(reg)
	s.TypeID = noType
	d.charge(uint64(nf) * uint64(typField.Size()))
	s.Fields = make([]Field, nf)
	for i := range s.Fields {
		s.Fields[i].Name = names[i]
		if err := d.anyValue(&s.Fields[i].Value); err != nil {
			return err
		}
	}
	d.depth--
	return nil
}

func (c *Context) fieldNamesCached(reg uint32) ([]string, error) {
	if n, ok := c.names[reg]; ok {
		return n, nil
	}
	n, err := c.schemaFieldNames(reg)
	if err != nil {
		return nil, err
	}
	if c.names == nil {
		c.names = map[uint32][]string{}
	}
	c.names[reg] = n
	return n, nil
}

// appendPacked appends the n elements of a Go slice of an unnamed numeric
// or bool kind at p as PACKED payload: 8 bytes each (i64, u64 or f64).
func appendPacked(b []byte, p unsafe.Pointer, n int, k reflect.Kind) []byte {
	b = slices.Grow(b, 8*n)
	switch k {
	case reflect.Bool:
		for _, x := range unsafe.Slice((*bool)(p), n) {
			u := uint64(0)
			if x {
				u = 1
			}
			b = binary.LittleEndian.AppendUint64(b, u)
		}
	case reflect.Int8:
		for _, x := range unsafe.Slice((*int8)(p), n) {
			b = binary.LittleEndian.AppendUint64(b, uint64(int64(x)))
		}
	case reflect.Int16:
		for _, x := range unsafe.Slice((*int16)(p), n) {
			b = binary.LittleEndian.AppendUint64(b, uint64(int64(x)))
		}
	case reflect.Int32:
		for _, x := range unsafe.Slice((*int32)(p), n) {
			b = binary.LittleEndian.AppendUint64(b, uint64(int64(x)))
		}
	case reflect.Int64:
		for _, x := range unsafe.Slice((*int64)(p), n) {
			b = binary.LittleEndian.AppendUint64(b, uint64(x))
		}
	case reflect.Int:
		for _, x := range unsafe.Slice((*int)(p), n) {
			b = binary.LittleEndian.AppendUint64(b, uint64(x))
		}
	case reflect.Uint8:
		for _, x := range unsafe.Slice((*uint8)(p), n) {
			b = binary.LittleEndian.AppendUint64(b, uint64(x))
		}
	case reflect.Uint16:
		for _, x := range unsafe.Slice((*uint16)(p), n) {
			b = binary.LittleEndian.AppendUint64(b, uint64(x))
		}
	case reflect.Uint32:
		for _, x := range unsafe.Slice((*uint32)(p), n) {
			b = binary.LittleEndian.AppendUint64(b, uint64(x))
		}
	case reflect.Uint64:
		for _, x := range unsafe.Slice((*uint64)(p), n) {
			b = binary.LittleEndian.AppendUint64(b, x)
		}
	case reflect.Uint:
		for _, x := range unsafe.Slice((*uint)(p), n) {
			b = binary.LittleEndian.AppendUint64(b, uint64(x))
		}
	case reflect.Float32:
		for _, x := range unsafe.Slice((*float32)(p), n) {
			b = binary.LittleEndian.AppendUint64(b, f32Tape(x))
		}
	case reflect.Float64:
		for _, x := range unsafe.Slice((*float64)(p), n) {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
		}
	}
	return b
}

// unpackInto stores a PACKED run of element type et (raw: 8 bytes each)
// into the n elements at p of an unnamed Go kind k. ok is false when the
// pair needs the general path (e.g. floats into integers: a type error
// reported there).
func unpackInto(p unsafe.Pointer, n int, k reflect.Kind, et byte, raw []byte) (ok bool, err error) {
	signed := et >= TypeInt8 && et <= TypeTaggedInt64
	unsigned := et >= TypeUint8 && et <= TypeTaggedUint64
	float := et >= TypeFloat16 && et <= TypeFloat64
	at := func(i int) uint64 { return binary.LittleEndian.Uint64(raw[8*i:]) }
	switch {
	case k == reflect.Bool && et == TypeBool:
		for i, s := 0, unsafe.Slice((*bool)(p), n); i < n; i++ {
			s[i] = at(i) != 0
		}
	case k == reflect.Int64 && signed:
		return true, unpackInts[int64](p, n, raw, true)
	case k == reflect.Int && signed:
		return true, unpackInts[int](p, n, raw, true)
	case k == reflect.Int32 && signed:
		return true, unpackInts[int32](p, n, raw, true)
	case k == reflect.Int16 && signed:
		return true, unpackInts[int16](p, n, raw, true)
	case k == reflect.Int8 && signed:
		return true, unpackInts[int8](p, n, raw, true)
	case k == reflect.Uint64 && unsigned:
		return true, unpackInts[uint64](p, n, raw, false)
	case k == reflect.Uint32 && unsigned:
		return true, unpackInts[uint32](p, n, raw, false)
	case k == reflect.Float64 && float:
		for i, s := 0, unsafe.Slice((*float64)(p), n); i < n; i++ {
			s[i] = math.Float64frombits(at(i))
		}
	case k == reflect.Float32 && float:
		for i, s := 0, unsafe.Slice((*float32)(p), n); i < n; i++ {
			s[i] = f32FromTape(at(i))
		}
	default:
		return false, nil
	}
	return true, nil
}

// unpackInts stores the n 8-byte values of raw (signed or not) into the
// T elements at p; a value that T cannot hold is an error naming it.
func unpackInts[T int | int8 | int16 | int32 | int64 | uint32 | uint64](p unsafe.Pointer, n int, raw []byte, signed bool) error {
	for i, s := 0, unsafe.Slice((*T)(p), n); i < n; i++ {
		u := binary.LittleEndian.Uint64(raw[8*i:])
		x := T(u)
		if signed && int64(x) != int64(u) {
			return goErr("value", "%d overflows a Go %T", int64(u), x)
		}
		if !signed && uint64(x) != u {
			return goErr("value", "%d overflows a Go %T", u, x)
		}
		s[i] = x
	}
	return nil
}

func isIntKind(k reflect.Kind) bool {
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}

// enumOf writes a Go integer as a value of schema enum `index` (an ENUM
// record: the value is the enumerator's number, not a zigzag integer); a
// number the enum does not declare is refused (enums.go).
func (e *encoder) enumOf(index uint32, v reflect.Value) error {
	d := e.c.enumDeclOf(index)
	if d == nil {
		return goErr("schema", "type %d is not an enum of the schema", index)
	}
	var x uint64 // (a negative number: 2^63 and more)
	if v.CanInt() {
		x = uint64(v.Int())
	} else {
		x = v.Uint()
	}
	if x > math.MaxUint32 || !d.has(uint32(x)) {
		return e.c.notDeclared(d, v.Interface())
	}
	e.sh(TypeEnum)
	e.t.u32(index)
	e.t.u32(uint32(x))
	return nil
}
