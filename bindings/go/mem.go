package wire

// Registered structs through libwire's compiled codecs (wire_mem_*,
// libwire/LAYOUTS.md).
//
// Per registered Go struct type the binding describes an *image*: a copy
// of the struct's memory in C memory, laid out like the Go struct itself
// (a field's bytes at the field's Go offset) plus a few extra bytes after
// it for what the Go layout cannot hold (the count of a map, presence
// flags, a duration as seconds and nanoseconds, ...). Numbers and bools are
// copied as they are (runs of adjacent fields with one memmove); a string
// or a slice keeps its {pointer, length} shape with the pointer replaced by
// one into C memory (the bytes copied there, or, from 4 KiB on, the Go
// bytes pinned with runtime.Pinner); nested structs, lists and maps get
// images of their own in C memory. One wire_mem_layout_table call tells
// libwire where everything is, once per root type and option set, and a
// message is then one wire_mem_encode call on the image: no tape, no
// document, no Go pointer left in C memory after the call.
//
// Decoding copies the payload into C memory, decodes it with
// wire_mem_decode into an image in the session's arena (strings point into
// that copy) and builds the Go values from the image: numbers with the
// same memmoves, strings copied once into Go memory. C never writes into Go
// memory.
//
// Types whose fields have no memory form (interfaces, wire.Union,
// wire.Enum, wire.Struct, wire.Set, big.Int, arrays, fields that only a
// reflective conversion fits) keep the tape path (plan.go); memCodec
// reports which path a type takes and why.

/*
#include "wire.h"
#include "shim.h"
*/
import "C"

import (
	"fmt"
	"math"
	"math/big"
	"reflect"
	"runtime"
	"time"
	"unsafe"
)

const noOff = ^uintptr(0)

// strForm is the layout form of a string: a pointer and a 32-bit length
// (WIRE_MEM_STR without WIRE_MEM_LEN64). The length is read from the low
// half of the Go header's length word (little-endian hosts only); this is
// the form libwire's inline string readers and writers take (fast_str,
// MX_STR, the string lists' loops), where a 64-bit length goes through
// the general path. Encoding refuses a string over 4 GiB (menc.str), as
// libwire does; decoding reads the 32-bit length (ldLen32).
const strForm = C.WIRE_MEM_STR

// pinMin: strings and slices of at least this many bytes are pinned and
// handed to C in place instead of copied (a pin and unpin cost 40-80 ns,
// about what copying 4 KiB costs: BenchmarkPinVsCopy).
const pinMin = 4096

type mkind uint8

const (
	mkNone      mkind = iota // a number or bool at its Go offset (runs)
	mkString                 // string -> {ptr, len} (strForm)
	mkBlock                  // []byte or a slice of numbers -> {ptr, len64} (BYTES, ARRAY)
	mkList                   // []E -> {items, len64} (LIST)
	mkMap                    // map[K]V -> {entries, len64} (MAP)
	mkStruct                 // a struct held inline, image inline (STRUCT)
	mkBox                    // a struct held inline, image elsewhere (STRUCT_PTR)
	mkPtr                    // *T of a registered struct (STRUCT_PTR)
	mkPtrScalar              // *X of a number or bool: value + presence flag
	mkPtrString              // *string: {ptr, len} (strForm), NULL for nil
	mkTime                   // time.Time -> wire_mem_time
	mkDuration               // time.Duration -> wire_mem_time
	mkDecimal                // Decimal -> wire_mem_decimal
	mkScalar                 // a number or bool in an element slot
	mkPresent                // a nullable-declared field always present (typ: a struct, zeroed when null)
	mkEnum                   // encode only: the Go integer at g, in a run, checked against en
)

// mop is one value in an image: a struct field or an element slot.
type mop struct {
	k     mkind
	form  uint32       // WIRE_MEM_* | flags (the layout row)
	decl  uint32       // field index in declaration order (slot 0/1 in elements)
	g     uintptr      // Go offset of the value (0 in element slots)
	m     uintptr      // image offset of the value or its pointer
	aux   uintptr      // image offset of the length / count (noOff: none)
	pres  uintptr      // image offset of the presence byte (noOff: none)
	gsz   uintptr      // Go size of the value (the Go stride of list items)
	psz   uintptr      // mkPtrScalar: Go size of the value pointed to
	ew    uintptr      // Go size of an element (mkBlock)
	typ   reflect.Type // Go type of the value
	sub   *imgType     // nested struct
	el    *mop         // list element / map key slot op
	val   *mop         // map value slot op
	elay  *elemLay     // LIST / MAP element layout (nil: a list of sub's layout)
	esize uintptr      // image stride of list items / map entries
	en    *enumDecl    // an enum held as a Go integer: what it declares (checked when written)
}

// stride is the image size of a list item or map entry.
func (o *mop) stride() uintptr {
	if o.elay == nil {
		return o.sub.size
	}
	if o.elay.sub != nil {
		return slotHead + o.elay.sub.size
	}
	return o.esize
}

// elemLay is an element layout: list items (slot 0) or map entries.
type elemLay struct {
	size  uintptr
	slots []*mop
	sub   *imgType // items of a struct held by value with a presence byte: size is slotHead + sub.size (read late: a struct may list itself)
}

func (l *elemLay) sizeOf() uintptr {
	if l.sub != nil {
		return slotHead + l.sub.size
	}
	return l.size
}

// slotHead: a struct held by value in an element slot declared nullable
// (and zeroNeedsFlag) is at this offset, after its presence byte (at 0).
const slotHead = 8

// zeroNeedsFlag: a value of Go type t held by value reads from a zeroed
// image as something else than the Go zero value, which is what a null
// reads as on the tape path: a time.Time (time.Unix(0, 0)), a Decimal (a
// non-nil 0), or a struct holding one by value. Such an element slot
// declared nullable gets a presence byte; numbers, strings, slices, maps
// and pointers read from zeros as their zero value.
func zeroNeedsFlag(t reflect.Type) bool {
	switch {
	case t == typTime || t == typDecimal:
		return true
	case t.Kind() == reflect.Array:
		return t.Len() > 0 && zeroNeedsFlag(t.Elem())
	case t.Kind() == reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if zeroNeedsFlag(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

type span struct{ off, n uintptr }

// imgType is the image of a registered Go struct type.
type imgType struct {
	si     *structInfo
	goSize uintptr
	size   uintptr // image size: goSize rounded up, then the extras
	rows   []*mop  // one per schema field (the layout rows)
	runs   []span  // bytes copied as they are (bound numbers and bools)
	ops    []*mop  // the rest, nested inline structs' included
	checks []*mop  // enum fields held in runs (mkEnum), nested inline structs' included
	prog   []estep // encode: the runs, then the ops, as flat steps
	whole  bool    // one run covers the struct and there are no ops
	extras bool    // bytes after the Go struct's (not nestable inline)
	refs   bool    // a field declared ref
	err    error   // why the type has no image (then: the tape path)
	state  uint8   // 0 new, 1 being built, 2 built
}

// memRoot is a layout of a root type in the C context for one set of the
// options that compiling a plan depends on.
type memRoot struct {
	t      *imgType
	layout uint32
	memo   bool // decoding keeps the identity of struct pointers
	// direct: the image is the Go struct itself (numbers and bools at
	// their Go offsets, nothing else, the same size), so libwire decodes
	// straight into the Go value (memUnmarshal); not under reference
	// tracking, where C notes the root's address for the message
	direct bool
	err    error
}

type memKey struct{ ref, compatible bool }

// ---------------------------------------------------------------------------
// Declared types.

type dtype struct {
	id            int
	nullable, ref bool
	user          uint32
	elem, key, vt *dtype
}

func (c *Context) declType(ft *C.wire_field_type, depth int) *dtype {
	if ft == nil || depth > 64 {
		return nil
	}
	var id, user C.uint32_t
	var nb, rb C.int32_t
	var el, k, v *C.wire_field_type
	if C.wire_schema_field_type_info(ft, &id, &nb, &rb, &user, &el, &k, &v) != 0 {
		return nil
	}
	d := &dtype{id: int(id), nullable: nb != 0, ref: rb != 0, user: uint32(user)}
	d.elem = c.declType(el, depth+1)
	d.key = c.declType(k, depth+1)
	d.vt = c.declType(v, depth+1)
	return d
}

type sfield struct {
	name string
	decl uint32
	dt   *dtype
}

// schemaFields lists the fields of a registered struct in wire order.
func (c *Context) schemaFields(idx uint32) ([]sfield, error) {
	ctx := c.ctx()
	n := int(C.wire_schema_field_count(ctx, C.uint32_t(idx)))
	out := make([]sfield, n)
	if n == 0 {
		return out, nil
	}
	decl := make([]C.uint32_t, n)
	var cnt C.size_t
	if st := C.wire_schema_field_order(ctx, C.uint32_t(idx), &decl[0], C.size_t(n), &cnt); st != 0 || int(cnt) != n {
		return nil, c.lastError(st)
	}
	for i := range out {
		var name *C.char
		var nl C.size_t
		var tag C.int32_t
		var ft *C.wire_field_type
		if st := C.wire_schema_field(ctx, C.uint32_t(idx), C.uint32_t(i), &name, &nl, &tag, &ft); st != 0 {
			return nil, c.lastError(st)
		}
		if name != nil {
			out[i].name = C.GoStringN(name, C.int(nl))
		} else {
			out[i].name = "#" + itoa(int64(tag))
		}
		out[i].decl = uint32(decl[i])
		out[i].dt = c.declType(ft, 0)
		if out[i].dt == nil {
			return nil, goErr("schema", "field %s has no declared type", out[i].name)
		}
	}
	return out, nil
}

// ---------------------------------------------------------------------------
// Building images.

type noImage struct{ why string }

func (e *noImage) Error() string { return e.why }

func noImg(format string, args ...any) error { return &noImage{fmt.Sprintf(format, args...)} }

// imageOf builds (once) the image of a registered struct type, or records
// why it has none.
func (c *Context) imageOf(si *structInfo) *imgType {
	if si.img == nil {
		si.img = &imgType{si: si}
	}
	t := si.img
	if t.state != 0 {
		return t
	}
	t.state = 1
	t.err = c.buildImage(t)
	t.state = 2
	return t
}

func align(n, a uintptr) uintptr { return (n + a - 1) &^ (a - 1) }

// memForm is the layout form of a Go number or bool kind.
func memForm(t reflect.Type) uint32 {
	switch t {
	case typF16, typBF16:
		return C.WIRE_MEM_BITS16
	case typDate:
		return C.WIRE_MEM_DATE
	case typDuration:
		return 0
	}
	switch t.Kind() {
	case reflect.Bool:
		return C.WIRE_MEM_BOOL
	case reflect.Int8:
		return C.WIRE_MEM_I8
	case reflect.Int16:
		return C.WIRE_MEM_I16
	case reflect.Int32:
		return C.WIRE_MEM_I32
	case reflect.Int64, reflect.Int:
		return C.WIRE_MEM_I64
	case reflect.Uint8:
		return C.WIRE_MEM_U8
	case reflect.Uint16:
		return C.WIRE_MEM_U16
	case reflect.Uint32:
		return C.WIRE_MEM_U32
	case reflect.Uint64, reflect.Uint:
		return C.WIRE_MEM_U64
	case reflect.Float32:
		return C.WIRE_MEM_F32
	case reflect.Float64:
		return C.WIRE_MEM_F64
	}
	return 0
}

// numClass: 1 signed, 2 unsigned, 3 float, 4 bool, 5 float16 bits, 6
// bfloat16 bits; for Go types and for wire types (packed elements).
func goNumClass(t reflect.Type) int {
	switch t {
	case typF16:
		return 5
	case typBF16:
		return 6
	case typDate, typDuration:
		return 0
	}
	switch t.Kind() {
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int:
		return 1
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uint:
		return 2
	case reflect.Float32, reflect.Float64:
		return 3
	case reflect.Bool:
		return 4
	}
	return 0
}

// wireNum is the class and the packed width in memory (libwire's natural
// form) of a primitive element type; 0, 0 for others.
func wireNum(id int) (class int, width uintptr) {
	switch id {
	case TypeBool:
		return 4, 1
	case TypeInt8:
		return 1, 1
	case TypeInt16:
		return 1, 2
	case TypeInt32, TypeVarint32:
		return 1, 4
	case TypeInt64, TypeVarint64, TypeTaggedInt64:
		return 1, 8
	case TypeUint8:
		return 2, 1
	case TypeUint16:
		return 2, 2
	case TypeUint32, TypeVarUint32:
		return 2, 4
	case TypeUint64, TypeVarUint64, TypeTaggedUint64:
		return 2, 8
	case TypeFloat16:
		return 5, 2
	case TypeBfloat16:
		return 6, 2
	case TypeFloat32:
		return 3, 4
	case TypeFloat64:
		return 3, 8
	}
	return 0, 0
}

// arrayElemID is the element type of a dense array type id (0: not one).
func arrayElemID(id int) int {
	if ArrayWidth(id) == 0 {
		return 0
	}
	return int(arrayElemKind(byte(id)))
}

// placer hands out image bytes for values that do not stay at their Go
// offset: the extras after a struct's Go bytes, or an element slot.
type placer struct{ next uintptr }

func (p *placer) take(n, a uintptr) uintptr {
	off := align(p.next, a)
	p.next = off + n
	return off
}

func (c *Context) buildImage(t *imgType) error {
	si := t.si
	if len(si.fields) != len(si.byWire) {
		return noImg("two Go fields share a wire name")
	}
	fields, err := c.schemaFields(si.index)
	if err != nil {
		return err
	}
	t.goSize = si.typ.Size()
	ex := &placer{next: align(t.goSize, 8)}
	var scal []span
	for _, sf := range fields {
		i, ok := si.byWire[sf.name]
		if !ok {
			// a schema field the Go type leaves out: written as null,
			// skipped when read; only possible for nullable fields
			if !sf.dt.nullable {
				return noImg("schema field %s has no Go field and is not nullable", sf.name)
			}
			continue
		}
		f := &si.fields[i]
		if len(f.goIndex) != 1 {
			return noImg("field %s is promoted from an embedded struct", f.goName)
		}
		gf := si.typ.Field(f.goIndex[0])
		o, err := c.fieldOp(gf.Type, sf.dt, gf.Offset, ex)
		if err != nil {
			return noImg("field %s: %v", f.goName, err)
		}
		o.decl = sf.decl
		if sf.dt.ref {
			t.refs = true
		}
		t.rows = append(t.rows, o)
		if o.k == mkNone {
			scal = append(scal, span{gf.Offset, gf.Type.Size()})
			if o.en != nil {
				t.checks = append(t.checks, &mop{k: mkEnum, g: o.g, m: o.g, aux: noOff, pres: noOff, typ: o.typ, en: o.en})
			}
			if o.pres != noOff {
				t.ops = append(t.ops, &mop{k: mkPresent, pres: o.pres})
			}
			continue
		}
		if o.k == mkStruct {
			// lift the inline struct's runs and ops (image at the same
			// offsets as the Go bytes)
			for _, r := range o.sub.runs {
				scal = append(scal, span{o.g + r.off, r.n})
			}
			for _, so := range o.sub.ops {
				t.ops = append(t.ops, shifted(so, o.g))
			}
			for _, so := range o.sub.checks {
				t.checks = append(t.checks, shifted(so, o.g))
			}
			if o.pres != noOff {
				// after the lifted ops: a null zeroes the Go struct
				t.ops = append(t.ops, &mop{k: mkPresent, pres: o.pres, g: o.g, typ: o.typ})
			}
			continue
		}
		t.ops = append(t.ops, o)
	}
	t.extras = ex.next > align(t.goSize, 8)
	t.size = align(ex.next, 8)
	if t.size == 0 {
		t.size = 8
	}
	t.runs = mergeRuns(si.typ, scal)
	t.whole = len(t.ops) == 0 && len(t.runs) == 1 && t.runs[0].off == 0 && t.runs[0].n == t.goSize
	if len(t.ops) == 0 && len(t.runs) == 0 {
		t.whole = true
	}
	t.prog = encProg(t.runs, append(t.checks[:len(t.checks):len(t.checks)], t.ops...))
	return nil
}

// Steps of a struct's encode program (imgType.prog).
const (
	esRun  uint8 = iota // n bytes at off copied as they are (Go = image offset)
	esStr               // a string field at off ({ptr, len} at off in the image)
	esList              // a list field (o): menc.list
	esOp                // any other op (o): menc.op
)

// estep is one step of an encode program: a flat array that structTo
// walks instead of the runs and the []*mop (nothing to follow for runs and
// strings, no call for a string that fits the current block).
type estep struct {
	k   uint8
	off uint32 // Go offset of the run or value
	n   uint32 // esRun: its length
	o   *mop   // esStr (for what does not fit the block), esList, esOp
}

func encProg(runs []span, ops []*mop) []estep {
	prog := make([]estep, 0, len(runs)+len(ops))
	for _, r := range runs {
		prog = append(prog, estep{k: esRun, off: uint32(r.off), n: uint32(r.n)})
	}
	for _, o := range ops {
		s := estep{k: esOp, off: uint32(o.g), o: o}
		switch {
		case o.k == mkString && o.m == o.g && o.aux == o.g+8:
			s.k = esStr
		case o.k == mkList && o.m == o.g && o.aux == o.g+8:
			s.k = esList
		}
		prog = append(prog, s)
	}
	return prog
}

// anyRef: some struct the root reaches has a field declared ref.
func anyRef(root *imgType) bool {
	seen := map[*imgType]bool{}
	var walk func(t *imgType) bool
	var walkOp func(o *mop) bool
	walkOp = func(o *mop) bool {
		if o == nil {
			return false
		}
		if o.sub != nil && walk(o.sub) {
			return true
		}
		return walkOp(o.el) || walkOp(o.val)
	}
	walk = func(t *imgType) bool {
		if seen[t] {
			return false
		}
		seen[t] = true
		if t.refs {
			return true
		}
		for _, o := range t.rows {
			if walkOp(o) {
				return true
			}
		}
		return false
	}
	return walk(root)
}

// shifted is a lifted op of an inline struct at offset off.
func shifted(o *mop, off uintptr) *mop {
	s := *o
	s.g += off
	s.m += off
	if s.aux != noOff {
		s.aux += off
	}
	if s.pres != noOff {
		s.pres += off
	}
	return &s
}

// mergeRuns sorts the byte ranges of bound scalars and merges those that
// touch or are separated by padding only (no other Go field in between).
func mergeRuns(t reflect.Type, b []span) []span {
	if len(b) == 0 {
		return nil
	}
	// every Go field's range, nested structs' fields included, to tell
	// padding from fields the image must not overwrite on decode
	var all []span
	var walk func(t reflect.Type, base uintptr)
	walk = func(t reflect.Type, base uintptr) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if f.Type.Kind() == reflect.Struct && !isSpecial(f.Type) && f.Type != typTime {
				walk(f.Type, base+f.Offset)
				continue
			}
			all = append(all, span{base + f.Offset, f.Type.Size()})
		}
	}
	walk(t, 0)
	// insertion sort (few fields)
	for i := 1; i < len(b); i++ {
		for j := i; j > 0 && b[j].off < b[j-1].off; j-- {
			b[j], b[j-1] = b[j-1], b[j]
		}
	}
	var out []span
	cur := span{b[0].off, b[0].n}
	for _, x := range b[1:] {
		end := cur.off + cur.n
		gapFree := true
		for _, a := range all {
			if a.n > 0 && a.off >= end && a.off < x.off {
				gapFree = false
				break
			}
		}
		if x.off >= end && gapFree {
			cur.n = x.off + x.n - cur.off
			continue
		}
		out = append(out, cur)
		cur = span{x.off, x.n}
	}
	return append(out, cur)
}

// fieldOp describes a struct field of Go type gt declared as dt at Go
// offset off; values that do not fit their Go bytes go to the extras.
func (c *Context) fieldOp(gt reflect.Type, dt *dtype, off uintptr, ex *placer) (*mop, error) {
	o := &mop{g: off, m: off, aux: noOff, pres: noOff, typ: gt, gsz: gt.Size()}
	needPres := func() {
		if dt.nullable {
			o.pres = ex.take(1, 1)
		}
	}
	if f := memForm(gt); f != 0 {
		o.form, o.en = f, c.enumHeld(dt)
		needPres()
		return o, nil
	}
	// A time.Time or a Decimal has a presence byte whether declared
	// nullable or not: libwire zeroes a field the writer's TypeDef lacks
	// or sends as null (compatible mode), and a zeroed slot reads as
	// time.Unix(0, 0) / a non-nil 0 where the Go zero value is wanted, as
	// on the tape path (zeroNeedsFlag). A time.Time's sits in its own Go
	// bytes after the 16 of wire_mem_time (no extras for it).
	switch gt {
	case typTime:
		o.k, o.form, o.pres = mkTime, C.WIRE_MEM_TIMESTAMP, off+16
		return o, nil
	case typDuration:
		o.k, o.form = mkDuration, C.WIRE_MEM_DURATION
		o.m = ex.take(16, 8)
		needPres()
		return o, nil
	case typDecimal:
		o.k, o.form = mkDecimal, C.WIRE_MEM_DECIMAL
		o.m = ex.take(24, 8)
		o.pres = ex.take(1, 1)
		return o, nil
	}
	switch gt.Kind() {
	case reflect.String:
		o.k, o.form, o.aux = mkString, strForm, off+8
		return o, nil
	case reflect.Slice:
		if err := c.sliceOp(o, gt, dt); err != nil {
			return nil, err
		}
		o.aux = off + 8
		return o, nil
	case reflect.Map:
		if err := c.mapOp(o, gt, dt); err != nil {
			return nil, err
		}
		o.aux = ex.take(8, 8)
		return o, nil
	case reflect.Struct:
		sub, err := c.structImage(gt, dt)
		if err != nil {
			return nil, err
		}
		o.sub = sub
		if !sub.extras {
			o.k, o.form = mkStruct, C.WIRE_MEM_STRUCT
			needPres()
			return o, nil
		}
		o.k, o.form = mkBox, C.WIRE_MEM_STRUCT_PTR
		o.m = ex.take(8, 8)
		return o, nil
	case reflect.Pointer:
		et := gt.Elem()
		if et.Kind() == reflect.Struct && !isSpecial(et) && et != typTime {
			sub, err := c.structImage(et, dt)
			if err != nil {
				return nil, err
			}
			o.k, o.form, o.sub = mkPtr, C.WIRE_MEM_STRUCT_PTR, sub
			return o, nil
		}
		if f := memForm(et); f != 0 {
			o.k, o.form, o.psz, o.en = mkPtrScalar, f, et.Size(), c.enumHeld(dt)
			o.pres = ex.take(1, 1)
			return o, nil
		}
		if et.Kind() == reflect.String {
			o.k, o.form = mkPtrString, strForm
			o.aux = ex.take(8, 8)
			return o, nil
		}
	}
	return nil, fmt.Errorf("the Go type %s has no memory form", gt)
}

// structImage is the image of a registered struct type used by a field
// declared as dt.
func (c *Context) structImage(gt reflect.Type, dt *dtype) (*imgType, error) {
	si := c.reg.byType[gt]
	if si == nil {
		return nil, fmt.Errorf("struct type %s is not registered", gt)
	}
	if dt.id != TypeStruct || dt.user != si.index {
		return nil, fmt.Errorf("a %s is declared as %s", gt, TypeName(dt.id))
	}
	sub := c.imageOf(si)
	if sub.state == 1 {
		return sub, nil // a cycle through pointers / lists: built by then
	}
	if sub.err != nil {
		return nil, fmt.Errorf("%s: %v", gt, sub.err)
	}
	return sub, nil
}

// sliceOp: []byte, slices of numbers (packed) and lists of other values.
func (c *Context) sliceOp(o *mop, gt reflect.Type, dt *dtype) error {
	et := gt.Elem()
	if et.Kind() == reflect.Uint8 && dt.id == TypeBinary {
		o.k, o.form, o.ew = mkBlock, C.WIRE_MEM_BYTES|C.WIRE_MEM_LEN64, 1
		return nil
	}
	var eid int
	switch {
	case arrayElemID(dt.id) != 0:
		eid = arrayElemID(dt.id)
	case (dt.id == TypeList || dt.id == TypeSet) && dt.elem != nil:
		eid = dt.elem.id
	default:
		return fmt.Errorf("a %s is declared as %s", gt, TypeName(dt.id))
	}
	if gc := goNumClass(et); gc != 0 && memForm(et) != C.WIRE_MEM_DATE && eid != TypeEnum {
		wc, w := wireNum(eid)
		if wc != gc || w != et.Size() {
			return fmt.Errorf("a %s holds elements of another width or kind than %s", gt, TypeName(eid))
		}
		o.k, o.form, o.ew = mkBlock, C.WIRE_MEM_ARRAY|C.WIRE_MEM_LEN64, et.Size()
		return nil
	}
	if arrayElemID(dt.id) != 0 {
		return fmt.Errorf("a %s is declared as %s", gt, TypeName(dt.id))
	}
	o.k, o.form = mkList, C.WIRE_MEM_LIST|C.WIRE_MEM_LEN64
	if et.Kind() == reflect.Struct && !isSpecial(et) && et != typTime {
		// the items are images of the struct's own layout (the stride is
		// its image size, read at run time: a type may list itself)
		sub, err := c.structImage(et, dt.elem)
		if err != nil {
			return err
		}
		o.el = &mop{k: mkStruct, form: C.WIRE_MEM_STRUCT, sub: sub, aux: noOff, pres: noOff, typ: et, gsz: et.Size()}
		o.sub = sub
		if dt.elem.nullable && zeroNeedsFlag(et) {
			// a null item reads as the zero struct (the tape path's
			// value): an element layout with a presence byte
			o.el.m, o.el.pres = slotHead, 0
			o.elay = &elemLay{slots: []*mop{o.el}, sub: sub}
		}
		return nil
	}
	el, size, err := c.slotOp(et, dt.elem)
	if err != nil {
		return err
	}
	el.decl = 0
	o.el = el
	o.elay = &elemLay{size: size, slots: []*mop{el}}
	o.esize = size
	return nil
}

func (c *Context) mapOp(o *mop, gt reflect.Type, dt *dtype) error {
	if dt.id != TypeMap || dt.key == nil || dt.vt == nil {
		return fmt.Errorf("a %s is declared as %s", gt, TypeName(dt.id))
	}
	k, ks, err := c.slotOp(gt.Key(), dt.key)
	if err != nil {
		return err
	}
	v, vs, err := c.slotOp(gt.Elem(), dt.vt)
	if err != nil {
		return err
	}
	// the value slot after the key slot
	va := uintptr(8)
	if vs < 8 {
		va = vs
		if va == 0 {
			va = 1
		}
	}
	voff := align(ks, va)
	shiftSlot(v, voff)
	k.decl, v.decl = 0, 1
	o.k, o.form = mkMap, C.WIRE_MEM_MAP|C.WIRE_MEM_LEN64
	o.el, o.val = k, v
	o.esize = align(voff+vs, 8)
	o.elay = &elemLay{size: o.esize, slots: []*mop{k, v}}
	return nil
}

func shiftSlot(o *mop, off uintptr) {
	o.m += off
	if o.aux != noOff {
		o.aux += off
	}
	if o.pres != noOff {
		o.pres += off
	}
}

// slotOp describes a list item or map key / value of Go type gt declared as
// dt in an element slot of its own; it returns the slot's size.
func (c *Context) slotOp(gt reflect.Type, dt *dtype) (*mop, uintptr, error) {
	if dt == nil {
		return nil, 0, fmt.Errorf("no declared element type")
	}
	o := &mop{aux: noOff, pres: noOff, typ: gt, gsz: gt.Size()}
	p := &placer{}
	if f := memForm(gt); f != 0 {
		o.k, o.form, o.en = mkScalar, f, c.enumHeld(dt)
		o.m = p.take(gt.Size(), gt.Size())
		return o, align(p.next, gt.Size()), nil
	}
	// a null time.Time, Decimal or struct reads as the Go zero value (as
	// on the tape path), not as what libwire's zero slot makes of it
	// (time.Unix(0, 0), a non-nil 0): a presence byte when nullable
	// (numbers, dates and durations: the zero slot is the zero value)
	pres := func() uintptr {
		if dt.nullable {
			o.pres = p.take(1, 1)
		}
		return align(p.next, 8)
	}
	switch gt {
	case typTime:
		o.k, o.form = mkTime, C.WIRE_MEM_TIMESTAMP
		o.m = p.take(16, 8)
		return o, pres(), nil
	case typDuration:
		o.k, o.form = mkDuration, C.WIRE_MEM_DURATION
		o.m = p.take(16, 8)
		return o, 16, nil
	case typDecimal:
		o.k, o.form = mkDecimal, C.WIRE_MEM_DECIMAL
		o.m = p.take(24, 8)
		return o, pres(), nil
	}
	switch gt.Kind() {
	case reflect.String:
		o.k, o.form, o.m, o.aux = mkString, strForm, 0, 8
		return o, 16, nil
	case reflect.Slice:
		if err := c.sliceOp(o, gt, dt); err != nil {
			return nil, 0, err
		}
		o.m, o.aux = 0, 8
		return o, 16, nil
	case reflect.Map:
		if err := c.mapOp(o, gt, dt); err != nil {
			return nil, 0, err
		}
		o.m, o.aux = 0, 8
		return o, 16, nil
	case reflect.Struct:
		sub, err := c.structImage(gt, dt)
		if err != nil {
			return nil, 0, err
		}
		o.sub = sub
		if sub.state != 2 {
			return nil, 0, fmt.Errorf("%s holds itself in a map", gt)
		}
		o.k, o.form, o.m = mkStruct, C.WIRE_MEM_STRUCT, 0
		if dt.nullable && zeroNeedsFlag(gt) {
			o.m, o.pres = slotHead, 0
		}
		return o, o.m + sub.size, nil
	case reflect.Pointer:
		et := gt.Elem()
		if et.Kind() == reflect.Struct && !isSpecial(et) && et != typTime {
			sub, err := c.structImage(et, dt)
			if err != nil {
				return nil, 0, err
			}
			o.k, o.form, o.sub, o.m = mkPtr, C.WIRE_MEM_STRUCT_PTR, sub, 0
			return o, 8, nil
		}
		if f := memForm(et); f != 0 {
			o.k, o.form, o.psz, o.m, o.pres, o.en = mkPtrScalar, f, et.Size(), 0, 8, c.enumHeld(dt)
			return o, 16, nil
		}
		if et.Kind() == reflect.String {
			o.k, o.form, o.m, o.aux = mkPtrString, strForm, 0, 8
			return o, 16, nil
		}
	}
	return nil, 0, fmt.Errorf("the Go type %s has no memory form", gt)
}

// ---------------------------------------------------------------------------
// Layout tables.

func off32(x uintptr) uint32 {
	if x == noOff {
		return C.WIRE_MEM_NONE
	}
	return uint32(x)
}

// memTable writes the layout rows of root t and everything it reaches
// (struct images and element layouts, each once).
func memTable(root *imgType) []uint32 {
	index := map[any]uint32{}
	var blocks [][]uint32
	var visit func(x any) uint32
	row := func(o *mop, field uint32, elem uint32) []uint32 {
		return []uint32{C.WIRE_MEM_ROW_FIELD, field, o.form, off32(o.m), off32(o.aux), off32(o.pres), elem, 0}
	}
	elemOf := func(o *mop) uint32 {
		switch o.k {
		case mkStruct, mkBox, mkPtr:
			return visit(o.sub)
		case mkList:
			if o.elay == nil {
				return visit(o.sub)
			}
			return visit(o.elay)
		case mkMap:
			return visit(o.elay)
		}
		return C.WIRE_MEM_NONE
	}
	visit = func(x any) uint32 {
		if i, ok := index[x]; ok {
			return i
		}
		i := uint32(len(blocks))
		index[x] = i
		blocks = append(blocks, nil)
		var rows []uint32
		switch v := x.(type) {
		case *imgType:
			rows = append(rows, C.WIRE_MEM_ROW_LAYOUT, v.si.index, uint32(v.size), 0, 0, 0, 0, 0)
			for _, o := range v.rows {
				rows = append(rows, row(o, o.decl, elemOf(o))...)
			}
		case *elemLay:
			rows = append(rows, C.WIRE_MEM_ROW_LAYOUT, C.WIRE_MEM_ELEMENT, uint32(v.sizeOf()), 0, 0, 0, 0, 0)
			for k, o := range v.slots {
				rows = append(rows, row(o, uint32(k), elemOf(o))...)
			}
		}
		blocks[i] = rows
		return i
	}
	visit(root)
	var out []uint32
	for _, b := range blocks {
		out = append(out, b...)
	}
	return out
}

// memRegistered forgets the images that could not be built (a field's
// struct type was not registered yet): a new registration may complete
// them. Built images stay (their layouts are in the C context).
func (c *Context) memRegistered() {
	for _, si := range c.reg.byType {
		if si.img != nil && si.img.err != nil {
			si.img = nil
			si.roots = nil
		}
		for k, r := range si.roots {
			if r.err != nil {
				delete(si.roots, k)
			}
		}
	}
	c.mcache = memCache{}
}

// memRootOf is the compiled layout of registered type si for the current
// options, built on first use; nil when the type takes the tape path.
func (c *Context) memRootOf(si *structInfo) *memRoot {
	key := memKey{c.cfg.ref, c.cfg.compatible}
	if r, ok := si.roots[key]; ok {
		return r
	}
	r := &memRoot{}
	if si.roots == nil {
		si.roots = map[memKey]*memRoot{}
	}
	si.roots[key] = r
	if unsafe.Sizeof(uintptr(0)) != 8 {
		// the images describe Go's 64-bit string and slice headers
		r.err = noImg("the compiled codecs need a 64-bit host")
		return r
	}
	t := c.imageOf(si)
	if t.err != nil {
		r.err = t.err
		return r
	}
	rows := memTable(t)
	var first C.uint32_t
	ctx := c.ctx()
	if st := C.wire_mem_layout_table(ctx, (*C.uint32_t)(unsafe.Pointer(&rows[0])), C.size_t(len(rows)/8), &first); st != 0 {
		r.err = c.lastError(st)
		return r
	}
	if st := C.wire_mem_bind(ctx, first); st != 0 {
		r.err = c.lastError(st)
		return r
	}
	r.t, r.layout = t, uint32(first)
	r.memo = c.cfg.ref || anyRef(t)
	r.direct = !c.cfg.ref && t.whole && t.goSize > 0 && t.size == t.goSize && onlyNumbers(t)
	return r
}

// onlyNumbers: every row of t is a number or bool at its Go offset (no
// nested struct, presence byte or pointer).
func onlyNumbers(t *imgType) bool {
	for _, o := range t.rows {
		if o.k != mkNone || o.pres != noOff {
			return false
		}
	}
	return true
}

// memCodec reports how Marshal and Unmarshal convert a registered Go type
// at the root under the context's options: "layout" (the compiled codecs)
// or "tape: <why>".
func (c *Context) memCodec(proto any) string {
	t, err := structType(proto)
	if err != nil {
		return err.Error()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.applyGlobals(); err != nil {
		return err.Error()
	}
	si := c.reg.byType[t]
	if si == nil {
		return "tape: not registered"
	}
	r := c.memRootOf(si)
	if r.err != nil {
		return "tape: " + r.err.Error()
	}
	return "layout"
}

// ---------------------------------------------------------------------------
// C memory for encode images: blocks from C's allocator, never moved,
// reused by every message (reset), freed with the context.

type cblock struct {
	p unsafe.Pointer
	n uintptr
}

type carena struct {
	blocks []cblock
	i      int
	base   unsafe.Pointer
	size   uintptr
	off    uintptr
}

func (a *carena) reset() {
	if len(a.blocks) == 0 {
		return
	}
	a.i = 0
	a.base, a.size, a.off = a.blocks[0].p, a.blocks[0].n, 0
}

// alloc returns n bytes aligned to a (a power of two, at most 16), or nil
// when C's allocator fails.
func (a *carena) alloc(n, al uintptr) unsafe.Pointer {
	off := (a.off + al - 1) &^ (al - 1)
	if off+n <= a.size {
		a.off = off + n
		return unsafe.Add(a.base, off)
	}
	return a.grow(n)
}

func (a *carena) grow(n uintptr) unsafe.Pointer {
	for a.i+1 < len(a.blocks) {
		a.i++
		b := a.blocks[a.i]
		if b.n >= n {
			a.base, a.size, a.off = b.p, b.n, n
			return b.p
		}
	}
	size := uintptr(64 << 10)
	if len(a.blocks) > 0 {
		size = a.blocks[len(a.blocks)-1].n * 2
	}
	for size < n {
		size *= 2
	}
	p := C.wirego_alloc(C.size_t(size))
	if p == nil {
		return nil
	}
	a.blocks = append(a.blocks, cblock{p, size})
	a.i = len(a.blocks) - 1
	a.base, a.size, a.off = p, size, n
	return p
}

// trim frees the blocks after the first when they add up to more than
// 16 MiB (one large message).
func (a *carena) trim() {
	total := uintptr(0)
	for _, b := range a.blocks {
		total += b.n
	}
	if total <= 16<<20 {
		return
	}
	for _, b := range a.blocks[1:] {
		C.wirego_free(b.p)
	}
	if a.blocks[0].n > 16<<20 {
		C.wirego_free(a.blocks[0].p)
		a.blocks = a.blocks[:0]
	} else {
		a.blocks = a.blocks[:1]
	}
	a.i, a.base, a.size, a.off = 0, nil, 0, 0
	a.reset()
}

func (a *carena) free() {
	for _, b := range a.blocks {
		C.wirego_free(b.p)
	}
	a.blocks = nil
	a.base, a.size, a.off, a.i = nil, 0, 0, 0
}

// ---------------------------------------------------------------------------
// Encoding: Go values -> image.

type menc struct {
	c      *Context
	a      *carena
	pin    *runtime.Pinner
	pinned bool
	memo   map[unsafe.Pointer]unsafe.Pointer // ref tracking: Go struct -> its image
	depth  int
}

var errNoCMem = &WireError{Class: "nomem", Message: "out of C memory for the image"}

func putWord(p unsafe.Pointer, v uintptr) { *(*uintptr)(p) = v }
func putU64(p unsafe.Pointer, v uint64)   { *(*uint64)(p) = v }

// emptyC is a C address for empty strings and slices (never read).
var emptyC = uintptr(unsafe.Pointer(&C.wirego_empty[0]))

// bytesTo puts n bytes at p (Go memory) in the image: copied into C
// memory, or pinned from pinMin bytes on; it returns the C-side address.
func (e *menc) bytesTo(p unsafe.Pointer, n uintptr) (uintptr, error) {
	if n == 0 {
		return emptyC, nil
	}
	if n >= pinMin {
		e.pin.Pin(p)
		e.pinned = true
		return uintptr(p), nil
	}
	d := e.a.alloc(n, 1)
	if d == nil {
		return 0, errNoCMem
	}
	copy(unsafe.Slice((*byte)(d), n), unsafe.Slice((*byte)(p), n))
	return uintptr(d), nil
}

func (e *menc) str(m, aux unsafe.Pointer, s string) error {
	if uint64(len(s)) > math.MaxUint32 {
		// (strForm holds 32 bits; what libwire says of such a string)
		return goErr("length", "string longer than 4 GiB")
	}
	a, err := e.bytesTo(unsafe.Pointer(unsafe.StringData(s)), uintptr(len(s)))
	if err != nil {
		return err
	}
	putWord(m, a)
	putU64(aux, uint64(len(s)))
	return nil
}

func copyRuns(dst, src unsafe.Pointer, runs []span) {
	for _, r := range runs {
		copy(unsafe.Slice((*byte)(unsafe.Add(dst, r.off)), r.n), unsafe.Slice((*byte)(unsafe.Add(src, r.off)), r.n))
	}
}

// structTo writes the image of the Go struct at g into m.
func (e *menc) structTo(t *imgType, g, m unsafe.Pointer) error {
	prog, a := t.prog, e.a
	for i := 0; i < len(prog); i++ {
		s := &prog[i]
		switch s.k {
		case esRun:
			moveRun(unsafe.Add(m, s.off), unsafe.Add(g, s.off), uintptr(s.n))
		case esStr:
			// the usual string: its bytes next to the image in the
			// current block (else op: a new block, pinned, refused)
			gs := (*stringHeader)(unsafe.Add(g, s.off))
			n, off := uintptr(gs.len), a.off
			pm := unsafe.Add(m, s.off)
			if n == 0 {
				putWord(pm, emptyC)
				putU64(unsafe.Add(pm, 8), 0)
				continue
			}
			if n < pinMin && off+n <= a.size {
				d := unsafe.Add(a.base, off)
				a.off = off + n
				copy(unsafe.Slice((*byte)(d), n), unsafe.Slice((*byte)(gs.data), n))
				putWord(pm, uintptr(d))
				putU64(unsafe.Add(pm, 8), uint64(n))
				continue
			}
			if err := e.op(s.o, g, m); err != nil {
				return err
			}
		case esList:
			if err := e.list(s.o, (*sliceHeader)(unsafe.Add(g, s.off)), m); err != nil {
				return err
			}
		default:
			if err := e.op(s.o, g, m); err != nil {
				return err
			}
		}
	}
	return nil
}

type stringHeader struct {
	data unsafe.Pointer
	len  int
}

// unalignedOK: the host loads and stores words at any address.
const unalignedOK = runtime.GOARCH == "amd64" || runtime.GOARCH == "arm64"

// moveRun copies a run of n bytes (numbers and bools) from p to d: 4 to
// 16 bytes as two words that may overlap, others with copy (inlined).
func moveRun(d, p unsafe.Pointer, n uintptr) {
	if unalignedOK && n-4 <= 12 {
		if n >= 8 {
			x, y := *(*uint64)(p), *(*uint64)(unsafe.Add(p, n-8))
			*(*uint64)(d), *(*uint64)(unsafe.Add(d, n-8)) = x, y
		} else {
			x, y := *(*uint32)(p), *(*uint32)(unsafe.Add(p, n-4))
			*(*uint32)(d), *(*uint32)(unsafe.Add(d, n-4)) = x, y
		}
		return
	}
	copy(unsafe.Slice((*byte)(d), n), unsafe.Slice((*byte)(p), n))
}

// shortStr puts a string shorter than pinMin into the image (pointer at
// pm, length at pa) when the current block has room; false otherwise.
func (e *menc) shortStr(s string, pm, pa unsafe.Pointer) bool {
	n := uintptr(len(s))
	a := e.a
	if n >= pinMin || a.off+n > a.size {
		return false
	}
	d := unsafe.Add(a.base, a.off)
	a.off += n
	if n == 0 {
		d = unsafe.Pointer(&C.wirego_empty[0])
	} else {
		copy(unsafe.Slice((*byte)(d), n), s)
	}
	putWord(pm, uintptr(d))
	putU64(pa, uint64(n))
	return true
}

func (e *menc) enter() error {
	e.depth++
	if e.depth > maxGoDepth {
		return goErr("depth", "value nested deeper than %d (a cycle without WithRefTracking?)", maxGoDepth)
	}
	return nil
}

// structPtr returns the image of the struct at gp (a Go pointer, not nil).
func (e *menc) structPtr(t *imgType, gp unsafe.Pointer) (unsafe.Pointer, error) {
	if e.memo != nil {
		if m, ok := e.memo[gp]; ok {
			return m, nil
		}
	}
	m := e.a.alloc(t.size, 8)
	if m == nil {
		return nil, errNoCMem
	}
	if e.memo != nil {
		e.memo[gp] = m
	}
	if err := e.enter(); err != nil {
		return nil, err
	}
	err := e.structTo(t, gp, m)
	e.depth--
	return m, err
}

// op writes one value: g is the Go struct (or element), m its image.
func (e *menc) op(o *mop, g, m unsafe.Pointer) error {
	gv := unsafe.Add(g, o.g)
	switch o.k {
	case mkPresent:
		*(*byte)(unsafe.Add(m, o.pres)) = 1
	case mkEnum:
		return enumCheck(o, gv)
	case mkScalar:
		copy(unsafe.Slice((*byte)(unsafe.Add(m, o.m)), o.gsz), unsafe.Slice((*byte)(gv), o.gsz))
		if o.en != nil {
			return enumCheck(o, gv)
		}
	case mkString:
		return e.str(unsafe.Add(m, o.m), unsafe.Add(m, o.aux), *(*string)(gv))
	case mkBlock:
		sh := (*sliceHeader)(gv)
		if sh.data == nil {
			putWord(unsafe.Add(m, o.m), 0)
			putU64(unsafe.Add(m, o.aux), 0)
			return nil
		}
		a, err := e.bytesTo(sh.data, uintptr(sh.len)*o.ew)
		if err != nil {
			return err
		}
		putWord(unsafe.Add(m, o.m), a)
		putU64(unsafe.Add(m, o.aux), uint64(sh.len))
	case mkList:
		return e.list(o, (*sliceHeader)(gv), m)
	case mkMap:
		return e.mapTo(o, gv, m)
	case mkStruct:
		if o.pres != noOff {
			*(*byte)(unsafe.Add(m, o.pres)) = 1
		}
		return e.structTo(o.sub, gv, unsafe.Add(m, o.m))
	case mkBox:
		im, err := e.structPtr(o.sub, gv)
		if err != nil {
			return err
		}
		putWord(unsafe.Add(m, o.m), uintptr(im))
	case mkPtr:
		gp := *(*unsafe.Pointer)(gv)
		if gp == nil {
			putWord(unsafe.Add(m, o.m), 0)
			return nil
		}
		im, err := e.structPtr(o.sub, gp)
		if err != nil {
			return err
		}
		putWord(unsafe.Add(m, o.m), uintptr(im))
	case mkPtrScalar:
		gp := *(*unsafe.Pointer)(gv)
		if gp == nil {
			*(*byte)(unsafe.Add(m, o.pres)) = 0
			return nil
		}
		copy(unsafe.Slice((*byte)(unsafe.Add(m, o.m)), o.psz), unsafe.Slice((*byte)(gp), o.psz))
		*(*byte)(unsafe.Add(m, o.pres)) = 1
		if o.en != nil {
			return enumCheck(o, gp)
		}
	case mkPtrString:
		sp := *(**string)(gv)
		if sp == nil {
			putWord(unsafe.Add(m, o.m), 0)
			putU64(unsafe.Add(m, o.aux), 0)
			return nil
		}
		return e.str(unsafe.Add(m, o.m), unsafe.Add(m, o.aux), *sp)
	case mkTime:
		tm := (*time.Time)(gv)
		*(*int64)(unsafe.Add(m, o.m)) = tm.Unix()
		*(*uint64)(unsafe.Add(m, o.m+8)) = uint64(tm.Nanosecond())
		if o.pres != noOff {
			*(*byte)(unsafe.Add(m, o.pres)) = 1
		}
	case mkDuration:
		d := *(*time.Duration)(gv)
		s, ns := int64(d/time.Second), int64(d%time.Second)
		if ns < 0 {
			s--
			ns += int64(time.Second)
		}
		*(*int64)(unsafe.Add(m, o.m)) = s
		*(*uint64)(unsafe.Add(m, o.m+8)) = uint64(ns)
		if o.pres != noOff {
			*(*byte)(unsafe.Add(m, o.pres)) = 1
		}
	case mkDecimal:
		return e.decimal(o, (*Decimal)(gv), m)
	}
	return nil
}

func (e *menc) decimal(o *mop, d *Decimal, m unsafe.Pointer) error {
	u := d.Unscaled
	neg := uint32(0)
	var mag []byte
	if u != nil {
		if u.Sign() < 0 {
			neg = 1
		}
		be := new(big.Int).Abs(u).Bytes()
		mag = make([]byte, len(be))
		for i := range be {
			mag[len(be)-1-i] = be[i]
		}
	}
	p := e.a.alloc(uintptr(len(mag))+1, 1)
	if p == nil {
		return errNoCMem
	}
	copy(unsafe.Slice((*byte)(p), len(mag)), mag)
	dm := unsafe.Add(m, o.m)
	putWord(dm, uintptr(p))
	*(*uint32)(unsafe.Add(dm, 8)) = uint32(len(mag))
	*(*int32)(unsafe.Add(dm, 12)) = d.Scale
	*(*uint32)(unsafe.Add(dm, 16)) = neg
	*(*uint32)(unsafe.Add(dm, 20)) = 0
	if o.pres != noOff {
		*(*byte)(unsafe.Add(m, o.pres)) = 1
	}
	return nil
}

func (e *menc) list(o *mop, sh *sliceHeader, m unsafe.Pointer) error {
	pm, pa := unsafe.Add(m, o.m), unsafe.Add(m, o.aux)
	if sh.data == nil {
		putWord(pm, 0)
		putU64(pa, 0)
		return nil
	}
	n := uintptr(sh.len)
	if n == 0 {
		putWord(pm, emptyC)
		putU64(pa, 0)
		return nil
	}
	stride := o.stride()
	items := e.a.alloc(n*stride, 8)
	if items == nil {
		return errNoCMem
	}
	putWord(pm, uintptr(items))
	putU64(pa, uint64(n))
	el := o.el
	if el.k == mkStruct && el.sub.whole && len(el.sub.checks) == 0 && stride == el.gsz {
		copy(unsafe.Slice((*byte)(items), n*stride), unsafe.Slice((*byte)(sh.data), n*stride))
		return nil
	}
	if err := e.enter(); err != nil {
		return err
	}
	switch el.k {
	case mkStruct:
		for i := uintptr(0); i < n; i++ {
			it := unsafe.Add(items, i*stride)
			if el.pres != noOff {
				*(*byte)(unsafe.Add(it, el.pres)) = 1
			}
			if err := e.structTo(el.sub, unsafe.Add(sh.data, i*el.gsz), unsafe.Add(it, el.m)); err != nil {
				return err
			}
		}
	case mkString:
		ss := unsafe.Slice((*string)(sh.data), n)
		for i := range ss {
			it := unsafe.Add(items, uintptr(i)*stride)
			if !e.shortStr(ss[i], unsafe.Add(it, el.m), unsafe.Add(it, el.aux)) {
				if err := e.op(el, unsafe.Pointer(&ss[i]), it); err != nil {
					return err
				}
			}
		}
	default:
		for i := uintptr(0); i < n; i++ {
			if err := e.op(el, unsafe.Add(sh.data, i*el.gsz), unsafe.Add(items, i*stride)); err != nil {
				return err
			}
		}
	}
	e.depth--
	return nil
}

func (e *menc) mapTo(o *mop, gv, m unsafe.Pointer) error {
	pm, pa := unsafe.Add(m, o.m), unsafe.Add(m, o.aux)
	mv := reflect.NewAt(o.typ, gv).Elem()
	if mv.IsNil() {
		putWord(pm, 0)
		putU64(pa, 0)
		return nil
	}
	n := uintptr(mv.Len())
	if n == 0 {
		putWord(pm, emptyC)
		putU64(pa, 0)
		return nil
	}
	ents := e.a.alloc(n*o.esize, 8)
	if ents == nil {
		return errNoCMem
	}
	if err := e.enter(); err != nil {
		return err
	}
	kv := reflect.New(o.typ.Key()).Elem()
	vv := reflect.New(o.typ.Elem()).Elem()
	kp, vp := kv.Addr().UnsafePointer(), vv.Addr().UnsafePointer()
	it := mv.MapRange()
	i := uintptr(0)
	for it.Next() && i < n {
		kv.SetIterKey(it)
		vv.SetIterValue(it)
		slot := unsafe.Add(ents, i*o.esize)
		if err := e.op(o.el, kp, slot); err != nil {
			return err
		}
		if err := e.op(o.val, vp, slot); err != nil {
			return err
		}
		i++
	}
	e.depth--
	putWord(pm, uintptr(ents))
	putU64(pa, uint64(i))
	return nil
}

// memMarshal encodes the registered struct at gp (a Go pointer) as the
// root through its layout and appends the payload to dst.
func (c *Context) memMarshal(dst []byte, r *memRoot, gp unsafe.Pointer) ([]byte, error) {
	a := &c.img
	a.reset()
	e := &c.menc
	*e = menc{c: c, a: a, pin: &c.pinner, memo: e.memo}
	if c.cfg.ref {
		// shared pointers: one image each (libwire writes references
		// where the field is tracked); cycles end
		if e.memo == nil {
			e.memo = map[unsafe.Pointer]unsafe.Pointer{}
		}
	} else {
		e.memo = nil
	}
	img := a.alloc(r.t.size, 16)
	if img == nil {
		return nil, errNoCMem
	}
	if e.memo != nil {
		e.memo[gp] = img
	}
	err := e.structTo(r.t, gp, img)
	if err == nil {
		if st := C.wirego_mem_encode(C.uintptr_t(uintptr(unsafe.Pointer(c.s))), C.uint32_t(r.layout), C.uintptr_t(uintptr(img))); st != 0 {
			err = c.lastError(st)
		}
	}
	if e.pinned {
		e.pin.Unpin()
	}
	if c.cfg.ref {
		clear(e.memo)
	}
	if len(a.blocks) > 1 {
		a.trim()
	}
	if err != nil {
		return nil, err
	}
	return append(dst, unsafe.Slice((*byte)(unsafe.Pointer(c.s.out)), int(c.s.out_len))...), nil
}

// ---------------------------------------------------------------------------
// Which values take the compiled codecs.

type eface struct{ typ, data unsafe.Pointer }

// pointerShaped: Go stores a value of t in an interface word directly
// (not boxed), so the word is the value, not a pointer to it.
func pointerShaped(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return true
	case reflect.Struct:
		return t.NumField() == 1 && pointerShaped(t.Field(0).Type)
	case reflect.Array:
		return t.Len() == 1 && pointerShaped(t.Elem())
	}
	return false
}

// memTarget returns the root layout and the Go address of v when v is a
// registered struct (T or *T; for decoding, a non-nil *T) whose type has
// an image; nil otherwise (the tape path).
func (c *Context) memTarget(v any, decoding bool) (*memRoot, unsafe.Pointer) {
	if c.forceTape {
		return nil, nil
	}
	ef := (*eface)(unsafe.Pointer(&v))
	if ef.typ == nil {
		return nil, nil
	}
	key := memKey{c.cfg.ref, c.cfg.compatible}
	mc := &c.mcache
	if ef.typ == mc.typ && mc.key == key {
		if mc.ptr {
			if ef.data == nil {
				return nil, nil
			}
			return mc.root, ef.data
		}
		if !decoding {
			return mc.root, ef.data
		}
		return nil, nil
	}
	t := reflect.TypeOf(v)
	ptr := t.Kind() == reflect.Pointer
	if ptr {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || (decoding && !ptr) {
		return nil, nil
	}
	si := c.reg.byType[t]
	if si == nil {
		return nil, nil
	}
	r := c.memRootOf(si)
	if r.err != nil {
		return nil, nil
	}
	if ptr {
		if ef.data == nil {
			return nil, nil
		}
		*mc = memCache{typ: ef.typ, key: key, root: r, ptr: true}
		return r, ef.data
	}
	if pointerShaped(t) {
		p := reflect.New(t)
		p.Elem().Set(reflect.ValueOf(v))
		return r, p.UnsafePointer()
	}
	*mc = memCache{typ: ef.typ, key: key, root: r}
	return r, ef.data
}
