package wire

/*
#include <stdlib.h>
#include "wire.h"
*/
import "C"

import (
	"math/big"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unsafe"
)

// Values of xlang types that have no Go counterpart.
type (
	// Date is a DATE (39): days since 1970-01-01.
	Date int64
	// Float16 is a FLOAT16 (17) as its IEEE binary16 bits.
	Float16 uint16
	// BFloat16 is a BFLOAT16 (18) as its bits.
	BFloat16 uint16
	// Set is a SET (23) of values (a list in wire order).
	Set []any
	// None is the NONE value (36), distinct from a null reference.
	None struct{}
)

// Decimal is a DECIMAL (40): Unscaled × 10^-Scale.
type Decimal struct {
	Unscaled *big.Int
	Scale    int32
}

// Enum is an ENUM (25) or NAMED_ENUM (26) value. Type names a registered
// enum of the schema ("ns.Name"); otherwise TypeID is the numeric user id.
type Enum struct {
	Type   string
	TypeID uint32
	Value  uint32
}

// Struct is a struct or ext value of a type that has no registered Go type:
// the registered name (or "ns.name" from the payload, or "" with TypeID)
// and the fields in wire order.
type Struct struct {
	Type   string
	TypeID uint32
	Fields []Field
}

// Field is one field of a Struct.
type Field struct {
	Name  string
	Value any
}

// Union is a union value of a registered union type.
type Union struct {
	Type  string
	Case  uint32
	Value any
}

var (
	typTime     = reflect.TypeOf(time.Time{})
	typDuration = reflect.TypeOf(time.Duration(0))
	typDate     = reflect.TypeOf(Date(0))
	typF16      = reflect.TypeOf(Float16(0))
	typBF16     = reflect.TypeOf(BFloat16(0))
	typFloat32  = reflect.TypeOf(float32(0))
	typDecimal  = reflect.TypeOf(Decimal{})
	typEnum     = reflect.TypeOf(Enum{})
	typSet      = reflect.TypeOf(Set(nil))
	typNone     = reflect.TypeOf(None{})
	typStruct   = reflect.TypeOf(Struct{})
	typField    = reflect.TypeOf(Field{})
	typUnion    = reflect.TypeOf(Union{})
	typBigInt   = reflect.TypeOf(big.Int{})
	typAny      = reflect.TypeOf((*any)(nil)).Elem()
	typBytes    = reflect.TypeOf([]byte(nil))
	typStrings  = reflect.TypeOf([]string(nil))
	typString   = reflect.TypeOf("")
	typAnySlice = reflect.TypeOf([]any(nil))
	typAnyMap   = reflect.TypeOf(map[any]any(nil))
)

// structInfo is a Go struct type bound to a registered user type.
type structInfo struct {
	typ     reflect.Type
	index   uint32 // registry index in the context
	name    string // registered full name
	fields  []fieldInfo
	byWire  map[string]int // wire name -> fields index
	fromFDL bool
	plan    *plan               // fields in wire order by offset (plan.go); nil: by name
	img     *imgType            // its image for the compiled codecs (mem.go)
	roots   map[memKey]*memRoot // its layouts as a root, per option set
}

type fieldInfo struct {
	goIndex  []int
	goName   string
	wireName string
	nullable bool
	ref      bool
	wireType int     // type id from the tag's type=..., or -1
	named    bool    // the name comes from the tag
	enum     uint32  // a Go integer bound to a schema enum: its index + 1
	shape    *wshape // wire types below the top level (nil: from the Go types)
}

// wshape gives the wire types of a bound field's nested values where their
// Go types would give others: a slice of numbers (a dense array by its Go
// type) declared as a list in a list or as a map's key or value. The tape
// path writes such a field with it (shaped); the compiled codecs take the
// types from the schema.
type wshape struct {
	id             int    // the type id at this level, or -1: from the Go type
	enum           uint32 // a Go integer written as schema enum enum-1 (0: not)
	empty          bool   // a Go slice or map item declared without optional: nil is written empty
	elem, key, val *wshape
	dyn            *dtype // a Go interface: the declared type its value is shaped by when written
}

// shapeOf is the shape of Go type t bound to declared type d, or nil when
// every level is written as its Go type says.
func shapeOf(t reflect.Type, d *dtype, depth int) *wshape {
	if d == nil || depth > 64 {
		return nil
	}
	s := &wshape{id: -1}
	if k := t.Kind(); (k == reflect.Slice || k == reflect.Map) && !d.nullable {
		s.empty = true // as the compiled codecs write it (and a field)
	}
	t = derefType(t)
	switch t.Kind() {
	case reflect.Interface:
		s.dyn = d // the value's Go type is known only when it is written
		return s
	case reflect.Slice, reflect.Array:
		if d.id == TypeUint8Array && denseArrayType(t) == TypeBinary {
			s.id = d.id // []byte declared array<uint8>
			return s
		}
		if d.id != TypeList && d.id != TypeSet {
			return s.orNil()
		}
		if denseArrayType(t) >= 0 {
			s.id = d.id
		}
		s.elem = shapeOf(t.Elem(), d.elem, depth+1)
	case reflect.Map:
		if d.id != TypeMap {
			return nil
		}
		s.key = shapeOf(t.Key(), d.key, depth+1)
		s.val = shapeOf(t.Elem(), d.vt, depth+1)
	default:
		if isIntWire(d.id) && isIntKind(t.Kind()) && wireTypeOf(t) != d.id {
			s.id = d.id // an integer declared fixed or tagged
			return s
		}
		if d.id == TypeEnum && isIntKind(t.Kind()) {
			s.enum = d.user + 1 // a list item, map key or value
			return s
		}
		return nil
	}
	return s.orNil()
}

// orNil is s, or nil when s writes nothing differently from the Go type.
func (s *wshape) orNil() *wshape {
	if s.id < 0 && s.elem == nil && s.key == nil && s.val == nil && s.enum == 0 && !s.empty {
		return nil
	}
	return s
}

// isIntWire: an integer type id of any width and encoding.
func isIntWire(id int) bool { return id >= TypeInt8 && id <= TypeTaggedUint64 }

func derefType(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

type registry struct {
	byType  map[reflect.Type]*structInfo
	byIndex map[uint32]*structInfo
	// Go struct types held by bound fields before they are registered,
	// with the schema type each field declares (checkBinding)
	want map[reflect.Type][]bindWant
}

func newRegistry() *registry {
	return &registry{byType: map[reflect.Type]*structInfo{}, byIndex: map[uint32]*structInfo{},
		want: map[reflect.Type][]bindWant{}}
}

// foryName is the field name the Fory Go runtime uses on the wire: every
// upper-case ASCII letter becomes "_" + its lower case ("UserName" ->
// "user_name", "ID" -> "i_d").
func foryName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if 'A' <= r && r <= 'Z' {
			if b.Len() > 0 {
				b.WriteByte('_')
			}
			b.WriteRune(r - 'A' + 'a')
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// snakeCase converts a Go field name the way IDL field names are usually
// written: "UserName" -> "user_name", "ID" -> "id", "HTTPServer" ->
// "http_server". Used as a second guess when binding to a schema type.
func snakeCase(s string) string {
	rs := []rune(s)
	var b strings.Builder
	for i, r := range rs {
		if unicode.IsUpper(r) {
			if i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]) ||
				(i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1]))) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// goFields reads the exported fields of a struct type and their tags.
func goFields(t reflect.Type) ([]fieldInfo, error) {
	var out []fieldInfo
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		fi := fieldInfo{goIndex: f.Index, goName: f.Name, wireName: foryName(f.Name), wireType: -1}
		if tag, ok := f.Tag.Lookup("wire"); ok {
			parts := strings.Split(tag, ",")
			if parts[0] == "-" {
				continue
			}
			if parts[0] != "" {
				fi.wireName = parts[0]
				fi.named = true
			}
			for _, p := range parts[1:] {
				switch {
				case p == "nullable":
					fi.nullable = true
				case p == "ref":
					fi.ref = true
				case strings.HasPrefix(p, "type="):
					id := TypeFromName(strings.TrimPrefix(p, "type="))
					if id < 0 {
						return nil, goErr("arg", "field %s: unknown wire type %q", f.Name, p[5:])
					}
					fi.wireType = id
				case p == "":
				default:
					return nil, goErr("arg", "field %s: unknown tag option %q", f.Name, p)
				}
			}
		}
		if f.Type.Kind() == reflect.Pointer && f.Type != reflect.TypeOf((*big.Int)(nil)) {
			fi.nullable = true
		}

		out = append(out, fi)
	}
	return out, nil
}

// Global registrations, applied to every context (pooled ones included).
var global struct {
	mu   sync.Mutex
	regs []globalReg
	n    atomic.Int64 // len(regs), read without the lock
}

type globalReg struct {
	name string
	id   uint32
	byID bool
	typ  reflect.Type
}

func structType(proto any) (reflect.Type, error) {
	t := reflect.TypeOf(proto)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil, goErr("arg", "RegisterStruct needs a struct value, got %T", proto)
	}
	return t, nil
}

// RegisterStruct registers a Go struct type for every context under a full
// name "namespace.Name". In a context whose schema (LoadSchema) has a struct
// of that name, the Go fields are matched to it by wire name; otherwise the
// type is registered by name with fields described by the Go types and
// their `wire:"name,nullable,ref,type=..."` tags.
func RegisterStruct(name string, proto any) error {
	return registerGlobal(globalReg{name: name}, proto)
}

// RegisterStructID registers a Go struct type for every context under a
// numeric user type id, with fields described by the Go types and tags.
func RegisterStructID(id uint32, proto any) error {
	return registerGlobal(globalReg{id: id, byID: true}, proto)
}

func registerGlobal(g globalReg, proto any) error {
	t, err := structType(proto)
	if err != nil {
		return err
	}
	if _, err := goFields(t); err != nil {
		return err
	}
	g.typ = t
	global.mu.Lock()
	global.regs = append(global.regs, g)
	global.n.Store(int64(len(global.regs)))
	global.mu.Unlock()
	return nil
}

// applyGlobals registers the global registrations this context lacks.
// Called with c.mu held.
func (c *Context) applyGlobals() error {
	if int64(c.globVer) == global.n.Load() {
		return nil
	}
	global.mu.Lock()
	regs := global.regs[c.globVer:]
	global.mu.Unlock()
	for _, g := range regs {
		if _, ok := c.reg.byType[g.typ]; !ok {
			name := g.name
			if name == "" {
				name = g.typ.Name()
			}
			if err := c.registerStruct(name, g.id, g.byID, g.typ); err != nil {
				return err
			}
		}
		c.globVer++
	}
	return nil
}

// RegisterStruct binds a Go struct type to the struct `name` of this
// context's schema (fields matched by wire name), or registers it by name
// from the Go type when the schema has no such struct. Each field's Go
// type must hold the type its schema field declares (or its type= tag
// names): a mismatch is a schema error naming the field (bind.go).
func (c *Context) RegisterStruct(name string, proto any) error {
	t, err := structType(proto)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.applyGlobals(); err != nil {
		return err
	}
	return c.registerStruct(name, 0, false, t)
}

// RegisterStructID registers a Go struct type in this context under a
// numeric user type id (fields from the Go type), or binds it to the struct
// of the schema that has that id registered under `name` if name is not "".
func (c *Context) RegisterStructID(id uint32, proto any) error {
	t, err := structType(proto)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.applyGlobals(); err != nil {
		return err
	}
	return c.registerStruct(t.Name(), id, true, t)
}

func (c *Context) registerStruct(name string, id uint32, byID bool, t reflect.Type) error {
	fields, err := goFields(t)
	if err != nil {
		return err
	}
	if old, ok := c.reg.byType[t]; ok && (old.name == name || byID) {
		return nil
	}
	si := &structInfo{typ: t, fields: fields, byWire: map[string]int{}}
	ctx := c.ctx()
	if idx, ok := c.findType(name); ok && !byID && (c.TypeKind(idx) == 1 || c.TypeKind(idx) == 4) {
		// Bind to the schema's type: check every Go field has a schema field.
		names, err := c.schemaFieldNames(idx)
		if err != nil {
			return err
		}
		have := map[string]bool{}
		for _, n := range names {
			have[n] = true
		}
		for i := range fields {
			f := &fields[i]
			if !have[f.wireName] && !f.named && have[snakeCase(f.goName)] {
				f.wireName = snakeCase(f.goName)
			}
			if !have[f.wireName] {
				return goErr("schema", "field %s of %s has no field %q in schema type %s (fields %v)",
					f.goName, t, f.wireName, name, names)
			}
		}
		// and every Go field's type must hold what its schema field declares
		if err := c.checkBinding(t, idx, fields); err != nil {
			return err
		}
		si.index = idx
		si.fromFDL = true
		// Go integers bound to enum fields are written as the enum, and a
		// slice of numbers (a dense array by its Go type) bound to a list or
		// set field as that list: the tape path writes the field's value
		// with this type (the compiled codecs take it from the schema),
		if sfs, err := c.schemaFields(idx); err == nil {
			for i := range fields {
				f := &fields[i]
				for _, sf := range sfs {
					if sf.name != f.wireName {
						continue
					}
					if sf.dt.id == TypeEnum {
						f.enum = sf.dt.user + 1
					}
					// a nil slice or map is null where the schema says
					// optional, as the compiled codecs write it
					if sf.dt.nullable {
						f.nullable = true
					}
					gt := t.FieldByIndex(f.goIndex).Type
					// a slice bound to a set field is written as the set
					if gk := derefType(gt).Kind(); f.wireType < 0 && sf.dt.id == TypeSet && derefType(gt) != typSet &&
						(gk == reflect.Slice || gk == reflect.Array) {
						f.wireType = TypeSet
					}
					if f.wireType < 0 && (sf.dt.id == TypeList || sf.dt.id == TypeSet) &&
						denseArrayType(derefType(gt)) >= 0 {
						f.wireType = sf.dt.id
					}
					if f.wireType < 0 && sf.dt.id == TypeUint8Array && denseArrayType(derefType(gt)) == TypeBinary {
						f.wireType = sf.dt.id
					}
					// an integer declared fixed or tagged (int32 = 4, tagged
					// int64, ...) is written in that encoding
					if f.wireType < 0 && isIntWire(sf.dt.id) && isIntKind(derefType(gt).Kind()) {
						f.wireType = sf.dt.id
					}
					// and so are nested ones, level by level
					// (an enum held through a pointer too: nil is null)
					if sh := shapeOf(gt, sf.dt, 0); sh != nil && (sh.elem != nil || sh.key != nil || sh.val != nil || sh.dyn != nil ||
						(sh.enum != 0 && gt.Kind() == reflect.Pointer)) {
						f.shape = sh
					}
				}
			}
		}
	} else {
		// Like the Fory Go runtime, a slice of numbers (bytes too) in a
		// struct field is a list; type=<t>_array or type=binary overrides.
		for i := range fields {
			f := &fields[i]
			if f.wireType < 0 && denseArrayType(derefType(t.FieldByIndex(f.goIndex).Type)) >= 0 {
				f.wireType = C.WIRE_T_LIST
			}
		}
		ns, nm := "", name
		if k := strings.LastIndexByte(name, '.'); k >= 0 {
			ns, nm = name[:k], name[k+1:]
		}
		uid := C.uint32_t(C.WIRE_BY_NAME)
		if byID {
			uid = C.uint32_t(id)
		}
		cns, cnm := C.CString(ns), C.CString(nm)
		defer C.free(unsafe.Pointer(cns))
		defer C.free(unsafe.Pointer(cnm))
		var ti C.uint32_t
		if st := C.wire_schema_add_type(ctx, C.WIRE_KIND_STRUCT, uid, cns, C.size_t(len(ns)), cnm, C.size_t(len(nm)), 1, &ti); st != 0 {
			return c.lastError(st)
		}
		si.index = uint32(ti)
		// Register early so that self-referencing fields resolve.
		c.reg.byType[t] = si
		c.reg.byIndex[si.index] = si
		for _, f := range fields {
			ft, err := c.fieldType(t.FieldByIndex(f.goIndex).Type, f.wireType, f.nullable, f.ref, 0)
			if err != nil {
				delete(c.reg.byType, t)
				delete(c.reg.byIndex, si.index)
				return goErr("arg", "field %s of %s: %s", f.goName, t, err.(*WireError).Message)
			}
			cf := C.CString(f.wireName)
			st := C.wire_schema_add_field(ctx, ti, cf, C.size_t(len(f.wireName)), -1, ft)
			C.free(unsafe.Pointer(cf))
			if st != 0 {
				return c.lastError(st)
			}
		}
		// a type= tag the Go type cannot hold is refused here, not when
		// a value is written
		if err := c.checkBinding(t, si.index, fields); err != nil {
			delete(c.reg.byType, t)
			delete(c.reg.byIndex, si.index)
			return err
		}
	}
	si.name = c.TypeName(si.index)
	for i, f := range fields {
		si.byWire[f.wireName] = i
	}
	c.reg.byType[t] = si
	c.reg.byIndex[si.index] = si
	c.buildPlan(si)
	c.memRegistered()
	return nil
}

// schemaFieldNames lists the wire names of a registered struct's fields.
func (c *Context) schemaFieldNames(idx uint32) ([]string, error) {
	ctx := c.ctx()
	doc := C.wire_doc_new(ctx)
	if doc == nil {
		return nil, c.lastError(C.WIRE_E_NOMEM)
	}
	defer C.wire_doc_free(doc)
	n := C.wire_node_new_struct(doc, C.uint32_t(idx))
	if n == nil {
		return nil, c.lastError(C.WIRE_E_SCHEMA)
	}
	cnt := int(C.wire_node_count(n))
	names := make([]string, 0, cnt)
	for i := 0; i < cnt; i++ {
		var l C.size_t
		p := C.wire_node_field_name(n, C.size_t(i), &l)
		if p != nil {
			names = append(names, C.GoStringN(p, C.int(l)))
		} else {
			names = append(names, "#"+itoa(int64(C.wire_node_field_tag(n, C.size_t(i)))))
		}
	}
	return names, nil
}

func itoa(v int64) string { return big.NewInt(v).String() }

// wireTypeOf is the type id the Fory Go runtime writes for a Go type, or
// -1 for types with no fixed id (interfaces, pointers to be looked through).
func wireTypeOf(t reflect.Type) int {
	switch t {
	case typTime:
		return C.WIRE_T_TIMESTAMP
	case typDuration:
		return C.WIRE_T_DURATION
	case typDate:
		return C.WIRE_T_DATE
	case typF16:
		return C.WIRE_T_FLOAT16
	case typBF16:
		return C.WIRE_T_BFLOAT16
	case typDecimal:
		return C.WIRE_T_DECIMAL
	case typSet:
		return C.WIRE_T_SET
	case typNone:
		return C.WIRE_T_NONE
	}
	switch t.Kind() {
	case reflect.Bool:
		return C.WIRE_T_BOOL
	case reflect.Int8:
		return C.WIRE_T_INT8
	case reflect.Int16:
		return C.WIRE_T_INT16
	case reflect.Int32:
		return C.WIRE_T_VARINT32
	case reflect.Int64, reflect.Int:
		return C.WIRE_T_VARINT64
	case reflect.Uint8:
		return C.WIRE_T_UINT8
	case reflect.Uint16:
		return C.WIRE_T_UINT16
	case reflect.Uint32:
		return C.WIRE_T_VAR_UINT32
	case reflect.Uint64, reflect.Uint, reflect.Uintptr:
		return C.WIRE_T_VAR_UINT64
	case reflect.Float32:
		return C.WIRE_T_FLOAT32
	case reflect.Float64:
		return C.WIRE_T_FLOAT64
	case reflect.String:
		return C.WIRE_T_STRING
	case reflect.Slice, reflect.Array:
		if a := denseArrayType(t); a >= 0 {
			return a
		}
		return C.WIRE_T_LIST
	case reflect.Map:
		return C.WIRE_T_MAP
	}
	return -1
}

// denseArrayType is the array type id of a Go slice (as the Fory Go runtime
// writes it: []byte is binary, []int16 an int16 array, ...), or -1.
func denseArrayType(t reflect.Type) int {
	if t.Kind() != reflect.Slice && t.Kind() != reflect.Array {
		return -1
	}
	e := t.Elem()
	switch e {
	case typF16:
		return C.WIRE_T_FLOAT16_ARRAY
	case typBF16:
		return C.WIRE_T_BFLOAT16_ARRAY
	}
	if e.PkgPath() != "" && e.Kind() != reflect.Uint8 {
		return -1 // named element types other than bytes are lists
	}
	switch e.Kind() {
	case reflect.Uint8:
		return C.WIRE_T_BINARY
	case reflect.Bool:
		return C.WIRE_T_BOOL_ARRAY
	case reflect.Int8:
		return C.WIRE_T_INT8_ARRAY
	case reflect.Int16:
		return C.WIRE_T_INT16_ARRAY
	case reflect.Int32:
		return C.WIRE_T_INT32_ARRAY
	case reflect.Int64, reflect.Int:
		return C.WIRE_T_INT64_ARRAY
	case reflect.Uint16:
		return C.WIRE_T_UINT16_ARRAY
	case reflect.Uint32:
		return C.WIRE_T_UINT32_ARRAY
	case reflect.Uint64, reflect.Uint:
		return C.WIRE_T_UINT64_ARRAY
	case reflect.Float32:
		return C.WIRE_T_FLOAT32_ARRAY
	case reflect.Float64:
		return C.WIRE_T_FLOAT64_ARRAY
	}
	return -1
}

// fieldType builds the declared type of a struct field from its Go type.
func (c *Context) fieldType(t reflect.Type, override int, nullable, ref bool, depth int) (*C.wire_field_type, error) {
	if depth > 32 {
		return nil, goErr("arg", "field type nested too deeply")
	}
	ctx := c.ctx()
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	nb := C.int32_t(0)
	if nullable {
		nb = 1
	}
	rb := C.int32_t(0)
	if ref {
		rb = 1
	}
	if t.Kind() == reflect.Struct && !isSpecial(t) {
		si, ok := c.reg.byType[t]
		if !ok {
			return nil, goErr("arg", "struct type %s is not registered yet", t)
		}
		return C.wire_schema_field_user_type(ctx, C.uint32_t(si.index), nb, rb), nil
	}
	id := override
	if id < 0 {
		id = wireTypeOf(t)
	}
	if t.Kind() == reflect.Interface {
		id = C.WIRE_T_UNKNOWN
		nb = 1
	}
	if id < 0 {
		return nil, goErr("arg", "Go type %s has no xlang type", t)
	}
	ft := C.wire_schema_field_type(ctx, C.uint32_t(id), nb, rb)
	if ft == nil {
		return nil, c.lastError(C.WIRE_E_ARG)
	}
	switch id {
	case C.WIRE_T_LIST, C.WIRE_T_SET:
		et := typAny
		if t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			et = t.Elem()
		}
		el, err := c.fieldType(et, -1, nestedNullable(et), false, depth+1)
		if err != nil {
			return nil, err
		}
		C.wire_schema_field_type_set_element(ft, el)
	case C.WIRE_T_MAP:
		if t.Kind() != reflect.Map {
			return nil, goErr("arg", "a Go %s cannot hold a map", t)
		}
		k, err := c.fieldType(t.Key(), -1, nestedNullable(t.Key()), false, depth+1)
		if err != nil {
			return nil, err
		}
		v, err := c.fieldType(t.Elem(), -1, nestedNullable(t.Elem()), false, depth+1)
		if err != nil {
			return nil, err
		}
		C.wire_schema_field_type_set_key_value(ft, k, v)
	}
	return ft, nil
}

// nestedNullable: list elements, map keys and values are declared
// nullable, as the Fory Go runtime declares them in its TypeDefs.
func nestedNullable(t reflect.Type) bool { return true }

func isSpecial(t reflect.Type) bool {
	switch t {
	case typTime, typDecimal, typEnum, typNone, typStruct, typUnion, typBigInt:
		return true
	}
	return false
}

// TypeName is the spec name of a type id ("var_uint32"), "null" for 255.
func TypeName(id int) string {
	p := C.wire_type_name(C.uint32_t(id))
	if p == nil {
		return ""
	}
	return C.GoString(p)
}

// TypeFromName is the type id of a spec type name, or -1.
func TypeFromName(name string) int {
	if name == "" {
		return -1
	}
	if name == "null" {
		return TypeNull
	}
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	return int(C.wire_type_from_name(cs, C.size_t(len(name))))
}

// ArrayWidth is the element width of a dense array type id, else 0
// (wire_type_array_width, without a cgo call).
func ArrayWidth(id int) int {
	if id < 0 || id >= len(arrayWidths) {
		return 0
	}
	return int(arrayWidths[id])
}

var arrayWidths = [...]uint8{
	TypeBoolArray: 1, TypeInt8Array: 1, TypeInt16Array: 2, TypeInt32Array: 4, TypeInt64Array: 8,
	TypeUint8Array: 1, TypeUint16Array: 2, TypeUint32Array: 4, TypeUint64Array: 8,
	TypeFloat16Array: 2, TypeBfloat16Array: 2, TypeFloat32Array: 4, TypeFloat64Array: 8,
}
