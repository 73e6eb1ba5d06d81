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
	"math/bits"
	"reflect"
	"strings"
	"time"
	"unicode/utf16"
	"unsafe"

	"libwire.dev/wire/internal/stream"
)

// decoder reads a read tape (spec/tape.md, from wire_decode_tape_to) into Go
// values.
type decoder struct {
	c     *Context
	b     []byte
	p     int
	in    []byte          // the payload (SPAN records point into it)
	refs  []reflect.Value // referenceable values by tape number
	depth int
	// Go memory made for struct objects so far (charge), and what the
	// context's LimitMemDecode allows for this input (memKnown: read
	// from C at the first charge).
	mem, memMax uint64
	memKnown    bool
	// set where an error is made inside a PACKED or ENTRY_RUN record: the
	// value inside it (atValue, taperr.go); 0 otherwise
	sub int
}

// charge counts n bytes of Go memory about to be made for struct objects
// (a struct made on its own, a slice or map of structs, a Struct's
// fields) against the context's LimitMemDecode budget: the limit per
// input byte + 1 MiB, as for the compiled codecs (spec R-LIMIT-9). In
// compatible mode a writer's struct can take one input byte and the
// reader's be hundreds of bytes long, so the tape path keeps the same
// ceiling. Past it: a limit error at the input offset of the value being
// made (atValue, taperr.go). The
// values held by value inside a struct are in its size, not charged
// again.
func (d *decoder) charge(n uint64) {
	if n > d.memMax-d.mem { // memMax >= mem always
		d.memOver(n)
	}
	d.mem += n
}

// memOver: the first charge reads the limit; later ones fail.
func (d *decoder) memOver(n uint64) {
	if !d.memKnown {
		d.memKnown = true
		per := uint64(C.wire_ctx_get_limit(d.c.ctx(), C.WIRE_LIMIT_MEM_DECODE))
		d.memMax = math.MaxUint64
		if hi, lo := bits.Mul64(per, uint64(len(d.in))); hi == 0 && lo <= math.MaxUint64-memDecodeBase {
			d.memMax = lo + memDecodeBase
		}
		if n <= d.memMax-d.mem {
			return
		}
	}
	per := uint64(C.wire_ctx_get_limit(d.c.ctx(), C.WIRE_LIMIT_MEM_DECODE))
	panic(goErr("limit", "decoding makes more than %d bytes of Go structs for %d input bytes "+
		"(WIRE_LIMIT_MEM_DECODE: %d per input byte + %d)",
		d.memMax, len(d.in), per, memDecodeBase))
}

// structBytes: the bytes a value of t takes in Go memory when it is a
// struct (its fields held by value, slice and string headers included),
// 0 for other types (not charged).
func structBytes(t reflect.Type) uint64 {
	if t.Kind() == reflect.Struct {
		return uint64(t.Size())
	}
	return 0
}

// makeSlice is reflect.MakeSlice(t, n, n), charged first when the
// elements are structs.
func (d *decoder) makeSlice(t reflect.Type, n int) reflect.Value {
	if sz := structBytes(t.Elem()); sz != 0 {
		if hi, lo := bits.Mul64(uint64(n), sz); hi != 0 {
			d.charge(math.MaxUint64)
		} else {
			d.charge(lo)
		}
	}
	return reflect.MakeSlice(t, n, n)
}

// reserve numbers a referenceable record (pre-order) and returns its number.
func (d *decoder) reserve() int {
	d.refs = append(d.refs, reflect.Value{})
	return len(d.refs) - 1
}

var errTape = &WireError{Class: "state", Message: "malformed read tape"}

func (d *decoder) need(n int) {
	if d.p+n > len(d.b) {
		panic(errTape)
	}
}
func (d *decoder) u8() byte { d.need(1); v := d.b[d.p]; d.p++; return v }
func (d *decoder) u32() uint32 {
	d.need(4)
	v := binary.LittleEndian.Uint32(d.b[d.p:])
	d.p += 4
	return v
}
func (d *decoder) u64() uint64 {
	d.need(8)
	v := binary.LittleEndian.Uint64(d.b[d.p:])
	d.p += 8
	return v
}
func (d *decoder) u16() int {
	d.need(2)
	v := binary.LittleEndian.Uint16(d.b[d.p:])
	d.p += 2
	return int(v)
}
func (d *decoder) take(n int) []byte {
	d.need(n)
	v := d.b[d.p : d.p+n : d.p+n]
	d.p += n
	return v
}
func (d *decoder) bytes() []byte   { return d.take(int(d.u32())) }
func (d *decoder) bytes16() []byte { return d.take(d.u16()) }
func (d *decoder) f64() float64    { return math.Float64frombits(d.u64()) }

// text reads a STRING payload (encoding, length, bytes) as Go text. UTF-8
// (what Go and Fory Go write) and ASCII Latin-1 (what the JVM writes for
// ASCII) are the bytes as they are.
func (d *decoder) text() string {
	s, p := d.c.textAt(d.b, d.p)
	d.p = p
	return s
}

// textAt reads the STRING payload at b[p:] and returns its text and the
// offset after it. Hot: the bounds are checked once, by hand.
func (c *Context) textAt(b []byte, p int) (string, int) {
	if p < 0 || len(b)-p < 5 {
		panic(errTape)
	}
	h := (*[5]byte)(b[p:])
	enc := h[0]
	n := int(binary.LittleEndian.Uint32(h[1:]))
	if n > len(b)-p-5 {
		panic(errTape)
	}
	src := unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), p+5)
	if enc == StrUTF8 {
		if uint(n-1) < 32 && len(b)-p-5 >= 32 {
			if s, ok := c.shortString(src, n); ok {
				return s, p + 5 + n
			}
		}
		return c.goStringAt(src, n), p + 5 + n
	}
	return c.otherText(enc, unsafe.Slice((*byte)(src), n)), p + 5 + n
}

// shortString copies a string of 1-32 bytes at src, which has 32 bytes
// readable, into the current chunk as two 16-byte words (one for up to
// 16): the bytes past n land in the chunk's free part, which no string
// uses yet. ok is false when the chunk has less than 32 bytes free.
func (c *Context) shortString(src unsafe.Pointer, n int) (s string, ok bool) {
	off := c.strsAt
	if len(c.strs)-off < 32 {
		return "", false
	}
	dst := unsafe.Add(unsafe.Pointer(unsafe.SliceData(c.strs)), off)
	*(*[2]uint64)(dst) = *(*[2]uint64)(src)
	if n > 16 { // (a [4]uint64 assignment would be a memmove call)
		*(*[2]uint64)(unsafe.Add(dst, 16)) = *(*[2]uint64)(unsafe.Add(src, 16))
	}
	c.strsAt = off + n
	return unsafe.String((*byte)(dst), n), true
}

// The read tape's flags (wire_decode_tape_to): structs by field index,
// binaries, dense arrays and strings as SPAN / STR_SPAN records (offsets
// into the payload, which the decoder keeps while it reads the tape).
const tapeFlags = C.WIRE_TAPE_FIELD_INDEX | C.WIRE_TAPE_SPANS | C.WIRE_TAPE_STRING_SPANS | C.WIRE_TAPE_ENTRY_RUNS

// opStrSpan: a string whose bytes are in the payload (u8 encoding, u32 n,
// u64 offset; n >= 1).
const opStrSpan = C.WIRE_TAPE_STR_SPAN

// opEntryRun: map entries of string keys and varint32 / varint64 values
// that libwire has checked, as their bytes in the payload (u8 value type,
// u32 count, u64 offset, u64 n; spec/tape.md).
const opEntryRun = C.WIRE_TAPE_ENTRY_RUN

// spanText reads a STR_SPAN record (op read): the text of its bytes in
// the payload.
func (d *decoder) spanText() string {
	s, p := d.c.spanTextAt(d.b, d.p, d.in)
	d.p = p
	return s
}

// spanTextAt reads the STR_SPAN record whose encoding byte is b[p] (the
// bytes in the payload in) and returns its text and the offset after it.
func (c *Context) spanTextAt(b []byte, p int, in []byte) (string, int) {
	if p < 0 || len(b)-p < 13 {
		panic(errTape)
	}
	h := (*[13]byte)(b[p:])
	enc := h[0]
	n := uint64(binary.LittleEndian.Uint32(h[1:]))
	off := binary.LittleEndian.Uint64(h[5:])
	if off > uint64(len(in)) || n > uint64(len(in))-off {
		panic(errTape)
	}
	src := unsafe.Add(unsafe.Pointer(unsafe.SliceData(in)), off)
	if enc == StrUTF8 {
		if n-1 < 32 && uint64(len(in))-off >= 32 {
			if s, ok := c.shortString(src, int(n)); ok {
				return s, p + 13
			}
		}
		return c.goStringAt(src, int(n)), p + 13
	}
	return c.otherText(enc, unsafe.Slice((*byte)(src), int(n))), p + 13
}

// otherText is the Go text of a Latin-1 or UTF-16 string.
func (c *Context) otherText(enc byte, b []byte) string {
	switch enc {
	case StrLatin1:
		ascii := true
		for _, c := range b {
			if c >= 0x80 {
				ascii = false
				break
			}
		}
		if ascii {
			return c.goString(b)
		}
		r := make([]rune, len(b))
		for i, c := range b {
			r[i] = rune(c)
		}
		return string(r)
	case StrUTF16:
		u := make([]uint16, len(b)/2)
		for i := range u {
			u[i] = binary.LittleEndian.Uint16(b[2*i:])
		}
		return string(utf16.Decode(u))
	}
	return c.goString(b)
}

// Decoded strings share chunks of strChunk bytes (one allocation per chunk
// instead of one per string); a string of more than strOwn bytes gets its
// own. Bytes handed out are never written again, so the strings stay
// immutable; a string kept alive keeps at most its chunk alive. 32 KiB,
// Go's largest small size class, decodes the benchmark's 10,000 strings
// and map keys 5-25% faster than 8 KiB did (A/B in one process).
const (
	strChunk = 32768
	strOwn   = 512
)

func (c *Context) goString(b []byte) string {
	return c.goStringAt(unsafe.Pointer(unsafe.SliceData(b)), len(b))
}

// goStringAt is goString of the n bytes at src.
func (c *Context) goStringAt(src unsafe.Pointer, n int) string {
	if n == 0 {
		return ""
	}
	if n > strOwn {
		return string(unsafe.Slice((*byte)(src), n))
	}
	off := c.strsAt
	if len(c.strs)-off < n {
		c.strs = make([]byte, strChunk)
		off = 0
	}
	dst := unsafe.Add(unsafe.Pointer(unsafe.SliceData(c.strs)), off)
	copy(unsafe.Slice((*byte)(dst), n), unsafe.Slice((*byte)(src), n))
	c.strsAt = off + n
	return unsafe.String((*byte)(dst), n)
}

// Unmarshal decodes a payload of exactly one root value into v (a non-nil
// pointer). On an error, v may have been partly written.
func (c *Context) Unmarshal(data []byte, v any) error {
	c.mu.Lock()
	if err := c.applyGlobals(); err != nil {
		c.mu.Unlock()
		return err
	}
	if r, gp := c.memTarget(v, true); r != nil {
		fallback, err := c.memUnmarshal(r, data, gp)
		if !fallback {
			c.mu.Unlock()
			return err
		}
	}
	c.mu.Unlock()
	return c.unmarshal(data, []any{v}, nil)
}

// UnmarshalAll decodes a payload of len(targets) roots into the pointers in
// targets.
func (c *Context) UnmarshalAll(data []byte, targets []any) error {
	return c.unmarshal(data, targets, nil)
}

// Decode decodes every root into natural Go values: bool, int8/16,
// int32 (int32, varint32), int64 (int64, varint64, tagged), uint8..uint64,
// Float16, BFloat16, float32, float64, string, []byte, Date, time.Time,
// time.Duration, Decimal, Enum, []any (list), Set, map[any]any, typed
// slices for dense arrays, *T for structs of registered Go types, *Struct
// for others, Union, None, and nil for null.
func (c *Context) Decode(data []byte) ([]any, error) {
	var out []any
	err := c.unmarshal(data, nil, &out)
	return out, err
}

func (c *Context) unmarshal(data []byte, targets []any, all *[]any) (err error) {
	for _, t := range targets {
		rv := reflect.ValueOf(t)
		if rv.Kind() != reflect.Pointer || rv.IsNil() {
			return goErr("arg", "Unmarshal needs a non-nil pointer, got %T", t)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.applyGlobals(); err != nil {
		return err
	}
	var p *C.uint8_t
	if len(data) > 0 {
		p = (*C.uint8_t)(unsafe.Pointer(&data[0]))
	}
	// Binaries and dense arrays come as SPAN records: offsets into data,
	// whose bytes are copied once, straight into the Go slices.
	if st := C.wirego_decode(c.s, p, C.size_t(len(data)), tapeFlags); st != 0 {
		return c.lastError(st)
	}
	tp := unsafe.Slice((*byte)(unsafe.Pointer(c.s.out)), int(c.s.out_len))
	d := &c.dec // reused: no allocation per message
	*d = decoder{c: c, b: tp, in: data, refs: d.refs[:0]}
	defer func() {
		r := recover()
		if we, ok := r.(*WireError); ok {
			err = d.atValue(we, tp)
		}
		clear(d.refs) // keep no user values alive after the call
		d.b, d.in = nil, nil
		if r != nil && err == nil {
			panic(r)
		}
	}()
	if len(tp) < 8 || tp[0] != 'W' || tp[1] != 'T' || (tp[2] != 1 && tp[2] != 2) {
		return errTape
	}
	d.p = 4
	n := int(d.u32())
	if all != nil {
		*all = make([]any, n)
		for i := 0; i < n; i++ {
			if err := d.anyValue(&(*all)[i]); err != nil {
				return d.atValue(err, tp)
			}
		}
		return nil
	}
	if n != len(targets) {
		class := "trailing"
		if n < len(targets) {
			class = "truncated"
		}
		return &WireError{Class: class, Offset: uint64(len(data)),
			Message: "the payload has " + itoa(int64(n)) + " root values, expected " + itoa(int64(len(targets)))}
	}
	for _, t := range targets {
		rv := reflect.ValueOf(t)
		if d.p < len(tp) && tp[d.p] == opStructIdx { // a struct into *T: straight to its plan
			if si := c.reg.byType[rv.Type().Elem()]; si != nil && si.plan != nil {
				d.p++
				d.refs[d.reserve()] = rv.Elem()
				reg, nf := d.u32(), int(d.u32())
				if reg != si.index {
					return d.atValue(goErr("type", "cannot decode a %s into a Go %s", c.TypeName(reg), si.typ), tp)
				}
				if err := d.planInto(si, nf, rv.UnsafePointer()); err != nil {
					return d.atValue(c.fitAt(err, si, data), tp)
				}
				continue
			}
		}
		if err := d.decode(rv.Elem()); err != nil {
			if si := c.reg.byType[rv.Type().Elem()]; si != nil && len(targets) == 1 {
				err = c.fitAt(err, si, data)
			}
			return d.atValue(err, tp)
		}
	}
	return nil
}

func mismatch(kind byte, t reflect.Type) *WireError {
	return misfit(tapeOpName(kind), t)
}

// misfit: a value (what it is: found) that cannot go into a Go t.
func misfit(found string, t reflect.Type) *WireError {
	e := goErr("type", "cannot decode a %s into a Go %s", found, t)
	e.found = found
	return e
}

// tapeOpName names what a read tape's op holds: a type id's name, or for
// the tape's own ops the kind of value they carry (never empty).
func tapeOpName(kind byte) string {
	switch kind {
	case opNull:
		return "null"
	case opRef:
		return "reference"
	case opStructTD, opStructIdx:
		return "struct"
	case opEnumID:
		return "enum"
	case opPacked:
		return "list"
	case opSpan:
		return "binary or array"
	case opStrSpan:
		return "string"
	case opEntryRun:
		return "map"
	}
	if kind&0x80 != 0 && TypeName(int(kind&^0x80)) == "string" {
		return "string"
	}
	if n := TypeName(int(kind)); n != "" {
		return n
	}
	return "value of an unknown tape op"
}

// anyValue decodes one record into *dst, without reflection for the
// common scalars.
func (d *decoder) anyValue(dst *any) error {
	d.need(1)
	switch d.b[d.p] {
	case opNull:
		d.p++
		*dst = nil
	case TypeString:
		d.p++
		*dst = d.text()
	case opStrSpan:
		d.p++
		*dst = d.spanText()
	case TypeVarint64, TypeInt64, TypeTaggedInt64:
		d.p++
		*dst = int64(d.u64())
	case TypeVarint32, TypeInt32:
		d.p++
		*dst = int32(d.u64())
	case TypeBool:
		d.p++
		*dst = d.u8() != 0
	case TypeFloat64:
		d.p++
		*dst = d.f64()
	default:
		return d.decode(reflect.ValueOf(dst).Elem())
	}
	return nil
}

// decode reads one record into v (settable).
func (d *decoder) decode(v reflect.Value) error {
	op := d.u8()
	if op == opRef {
		return d.assignRef(v, d.u32())
	}
	return d.decodeWith(op, v)
}

func isReferenceable(op byte) bool {
	switch op {
	case TypeList, TypeSet, TypeMap, tapeStruct, opStructTD, opStructIdx, tapeUnion, TypeBinary, TypeDecimal, opPacked, opSpan:
		return true
	}
	return ArrayWidth(int(op)) > 0
}

func (d *decoder) assignRef(v reflect.Value, k uint32) error {
	if int(k) >= len(d.refs) || !d.refs[k].IsValid() {
		return goErr("ref", "reference to tape value %d, which has no Go value yet", k)
	}
	src := d.refs[k]
	switch {
	case src.Type().AssignableTo(v.Type()):
		v.Set(src)
	case v.Kind() == reflect.Pointer && src.Type().AssignableTo(v.Type().Elem()):
		if src.CanAddr() {
			v.Set(src.Addr())
		} else {
			if sz := structBytes(src.Type()); sz != 0 {
				d.charge(sz)
			}
			p := reflect.New(src.Type())
			p.Elem().Set(src)
			v.Set(p)
		}
	case src.Kind() == reflect.Pointer && src.Type().Elem().AssignableTo(v.Type()):
		v.Set(src.Elem())
	default:
		return goErr("type", "shared value of Go type %s cannot be assigned to %s", src.Type(), v.Type())
	}
	return nil
}

func (d *decoder) enter() error {
	d.depth++
	if d.depth > maxGoDepth {
		return goErr("depth", "value nested deeper than %d", maxGoDepth)
	}
	return nil
}

// decodeWith decodes a record whose op was read. The number of a
// referenceable record is taken here, before its children.
func (d *decoder) decodeWith(op byte, v reflect.Value) error {
	k := -1
	if isReferenceable(op) {
		k = d.reserve()
	}
	return d.decodeNum(op, k, v)
}

func (d *decoder) decodeNum(op byte, k int, v reflect.Value) error {
	t := v.Type()
	switch t.Kind() {
	case reflect.Interface:
		if op == opNull {
			v.Set(reflect.Zero(t))
			return nil
		}
		nv, err := d.natural(op, k)
		if err != nil {
			return err
		}
		if !nv.IsValid() {
			v.Set(reflect.Zero(t))
			return nil
		}
		if !nv.Type().AssignableTo(t) {
			return goErr("type", "a decoded %s does not implement %s", nv.Type(), t)
		}
		v.Set(nv)
		return nil
	case reflect.Pointer:
		if op == opNull {
			v.Set(reflect.Zero(t))
			return nil
		}
		if sz := structBytes(t.Elem()); sz != 0 {
			d.charge(sz)
		}
		p := reflect.New(t.Elem())
		v.Set(p)
		if k >= 0 {
			d.refs[k] = p
		}
		if err := d.enter(); err != nil {
			return err
		}
		err := d.body(op, -1, p.Elem())
		d.depth--
		return err
	}
	if op == opNull {
		v.Set(reflect.Zero(t))
		return nil
	}
	return d.body(op, k, v)
}

func setInt(v reflect.Value, x int64, kind byte) error {
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if v.Type() == typDuration || v.Type() == typDate {
			return mismatch(kind, v.Type())
		}
		if v.OverflowInt(x) {
			return goErr("value", "%d overflows a Go %s", x, v.Type())
		}
		v.SetInt(x)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if x < 0 || v.OverflowUint(uint64(x)) || v.Type() == typF16 || v.Type() == typBF16 {
			return goErr("value", "%d overflows a Go %s", x, v.Type())
		}
		v.SetUint(uint64(x))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(x))
	default:
		return mismatch(kind, v.Type())
	}
	return nil
}

func setUint(v reflect.Value, x uint64, kind byte) error {
	switch v.Kind() {
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if v.Type() == typF16 || v.Type() == typBF16 {
			return mismatch(kind, v.Type())
		}
		if v.OverflowUint(x) {
			return goErr("value", "%d overflows a Go %s", x, v.Type())
		}
		v.SetUint(x)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if x > math.MaxInt64 {
			return goErr("value", "%d overflows a Go %s", x, v.Type())
		}
		return setInt(v, int64(x), kind)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(x))
	default:
		return mismatch(kind, v.Type())
	}
	return nil
}

func floatValue(kind byte, bits uint64) float64 {
	switch kind {
	case TypeFloat16:
		return Float16(bits).Float64()
	case TypeBfloat16:
		return BFloat16(bits).Float64()
	case TypeFloat32:
		return float64(math.Float32frombits(uint32(bits)))
	}
	return math.Float64frombits(bits)
}

// body decodes a non-null record (op read, number k for a referenceable
// one, -1 otherwise or when already taken by a pointer) into a
// non-pointer, non-interface v.
func (d *decoder) body(op byte, k int, v reflect.Value) error {
	t := v.Type()
	switch {
	case op == TypeBool:
		b := d.u8()
		if t.Kind() != reflect.Bool {
			return mismatch(op, t)
		}
		v.SetBool(b != 0)
	case op >= TypeInt8 && op <= TypeTaggedInt64:
		return setInt(v, int64(d.u64()), op)
	case op >= TypeUint8 && op <= TypeTaggedUint64:
		return setUint(v, d.u64(), op)
	case op >= TypeFloat16 && op <= TypeFloat64:
		return setFloat(v, op, d.u64())
	case op == TypeString || op == opStrSpan:
		var s string
		if op == TypeString {
			s = d.text()
		} else {
			s = d.spanText()
		}
		if t.Kind() != reflect.String {
			return mismatch(op, t)
		}
		v.SetString(s)
	case op == TypeBinary || ArrayWidth(int(op)) > 0 || op == opSpan:
		kind, raw := d.denseBytes(op)
		err := d.dense(kind, raw, v, op == opSpan && d.c.cfg.zeroCopy)
		d.keep(k, v)
		return err
	case op == TypeDate:
		x := int64(d.u64())
		if t != typDate {
			return mismatch(op, t)
		}
		v.SetInt(x)
	case op == TypeTimestamp:
		s, ns := int64(d.u64()), d.u32()
		if t != typTime {
			return mismatch(op, t)
		}
		v.Set(reflect.ValueOf(time.Unix(s, int64(ns)).UTC()))
	case op == TypeDuration:
		s, ns := int64(d.u64()), d.u32()
		if t != typDuration {
			return mismatch(op, t)
		}
		dur, ok := durationOf(s, ns)
		if !ok {
			return goErr("value", "duration of %d s overflows time.Duration", s)
		}
		v.SetInt(int64(dur))
	case op == TypeDecimal:
		dec := d.decimal()
		if t != typDecimal {
			return mismatch(op, t)
		}
		v.Set(reflect.ValueOf(dec))
		d.keep(k, v)
	case op == TypeEnum || op == opEnumID || op == TypeNamedEnum:
		en := d.enum(op)
		switch {
		case t == typEnum:
			v.Set(reflect.ValueOf(en))
		case t.Kind() >= reflect.Int && t.Kind() <= reflect.Uint64:
			return setUint(v, uint64(en.Value), op)
		default:
			return mismatch(op, t)
		}
	case op == TypeNone:
		if t != typNone {
			return mismatch(op, t)
		}
	case op == TypeList || op == TypeSet:
		return d.list(op, k, v)
	case op == opPacked:
		return d.packedInto(k, v)
	case op == TypeMap:
		return d.mapInto(k, v)
	case op == tapeStruct || op == opStructTD:
		return d.structInto(op, k, v)
	case op == opStructIdx:
		return d.structIdxInto(k, v)
	case op == tapeUnion:
		if t != typUnion {
			return mismatch(op, t)
		}
		d.keep(k, v)
		u, err := d.union()
		v.Set(reflect.ValueOf(u))
		return err
	default:
		return goErr("type", "unexpected op 0x%02x in the read tape", op)
	}
	return nil
}

// keep records the Go value of referenceable record k.
func (d *decoder) keep(k int, v reflect.Value) {
	if k >= 0 {
		d.refs[k] = v
	}
}

// setFloat stores a float op's f64 (bits u) in v.
func setFloat(v reflect.Value, op byte, u uint64) error {
	t := v.Type()
	f := math.Float64frombits(u)
	switch {
	case t == typF16 && op == TypeFloat16:
		v.SetUint(uint64(Float16FromFloat64(f)))
	case t == typBF16 && op == TypeBfloat16:
		v.SetUint(uint64(BFloat16FromFloat64(f)))
	case t.Kind() == reflect.Float32:
		setF32(v, f32FromTape(u))
	case t.Kind() == reflect.Float64:
		v.SetFloat(f)
	default:
		return mismatch(op, t)
	}
	return nil
}

func (d *decoder) decimal() Decimal {
	scale := int32(d.u32())
	neg := d.u8()
	mag := d.bytes()
	be := make([]byte, len(mag))
	for i := range mag {
		be[len(mag)-1-i] = mag[i]
	}
	u := new(big.Int).SetBytes(be)
	if neg != 0 {
		u.Neg(u)
	}
	return Decimal{Unscaled: u, Scale: scale}
}

func (d *decoder) enum(op byte) Enum {
	switch op {
	case TypeEnum:
		reg, val := d.u32(), d.u32()
		return Enum{Type: d.c.TypeName(reg), TypeID: noType, Value: val}
	case opEnumID:
		id, val := d.u32(), d.u32()
		return Enum{TypeID: id, Value: val}
	}
	ns, nm := d.bytes16(), d.bytes16()
	en := Enum{Type: string(nm), TypeID: noType, Value: d.u32()}
	if len(ns) > 0 {
		en.Type = string(ns) + "." + string(nm)
	}
	return en
}

func (d *decoder) union() (Union, error) {
	reg, cs := d.u32(), d.u32()
	u := Union{Case: cs}
	if reg != noType {
		u.Type = d.c.TypeName(reg)
	}
	if err := d.enter(); err != nil {
		return u, err
	}
	err := d.decode(reflect.ValueOf(&u.Value).Elem())
	d.depth--
	return u, err
}

// denseBytes reads the payload of a binary or dense array record (op
// read): its type and bytes, in the tape or, for a SPAN, in the payload.
func (d *decoder) denseBytes(op byte) (byte, []byte) {
	if op != opSpan {
		return op, d.bytes()
	}
	kind := d.u8()
	n := uint64(d.u32())
	off := d.u64()
	if (kind != TypeBinary && ArrayWidth(int(kind)) <= 0) || off > uint64(len(d.in)) || n > uint64(len(d.in))-off {
		panic(errTape)
	}
	return kind, d.in[off : off+n : off+n]
}

// dense decodes the bytes of a binary or dense array into v; view: raw is
// part of the caller's input and may be handed out as it is (WithZeroCopy).
func (d *decoder) dense(kind byte, raw []byte, v reflect.Value, view bool) error {
	t := v.Type()
	if kind == TypeBinary {
		switch {
		case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8:
			if view {
				v.SetBytes(raw) // its capacity ends with it
				return nil
			}
			if len(raw) >= copyStreamMin {
				cloneInto(v, raw, len(raw), 1)
				return nil
			}
			v.SetBytes(append([]byte{}, raw...)) // no zeroing before the copy
			return nil
		case t.Kind() == reflect.Array && t.Elem().Kind() == reflect.Uint8 && t.Len() == len(raw):
			reflect.Copy(v, reflect.ValueOf(raw))
			return nil
		case t.Kind() == reflect.String:
			v.SetString(string(raw))
			return nil
		}
		return mismatch(kind, t)
	}
	w := ArrayWidth(int(kind))
	n := len(raw) / w
	if t.Kind() != reflect.Slice && t.Kind() != reflect.Array {
		return mismatch(kind, t)
	}
	et := t.Elem()
	if denseArrayType(t) == int(kind) && int(et.Size()) == w && t.Kind() == reflect.Slice && n > 0 {
		if view && uintptr(unsafe.Pointer(unsafe.SliceData(raw)))%uintptr(et.Align()) == 0 {
			// the elements in place (little-endian, as the wire is)
			setSlice(v, unsafe.Pointer(unsafe.SliceData(raw)), n, n)
			return nil
		}
		cloneInto(v, raw, n, w)
		return nil
	}
	if t.Kind() == reflect.Slice {
		v.Set(d.makeSlice(t, n))
	} else if t.Len() != n {
		return goErr("value", "a %s of %d elements does not fit a Go %s", TypeName(int(kind)), n, t)
	}
	elKind := arrayElemKind(kind)
	for i := 0; i < n; i++ {
		var u uint64
		for k := 0; k < w; k++ {
			u |= uint64(raw[i*w+k]) << (8 * k)
		}
		el := v.Index(i)
		if el.Kind() == reflect.Interface {
			el.Set(naturalScalar(elKind, u))
			continue
		}
		var err error
		switch {
		case elKind == TypeBool:
			if el.Kind() != reflect.Bool {
				return mismatch(kind, t)
			}
			el.SetBool(u != 0)
		case elKind >= TypeFloat16:
			switch {
			case el.Type() == typF16 && elKind == TypeFloat16, el.Type() == typBF16 && elKind == TypeBfloat16:
				el.SetUint(u)
			case el.Kind() == reflect.Float32 && elKind == TypeFloat32:
				setF32(el, math.Float32frombits(uint32(u)))
			case el.Kind() == reflect.Float32 || el.Kind() == reflect.Float64:
				el.SetFloat(floatValue(elKind, u))
			default:
				return mismatch(kind, t)
			}
		case elKind <= TypeTaggedInt64:
			err = setInt(el, signExtend(u, w), kind)
		default:
			err = setUint(el, u, kind)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// cloneInto sets v (a slice whose elements are w bytes without pointers)
// to a new slice holding the n elements in raw: one allocation that is not
// zeroed first, one copy. raw need not be aligned: it is only copied from.
//
// Up to copyStreamMin bytes the allocation and copy are an append to a nil
// slice. From copyStreamMin on the destination is, as a rule, memory the
// allocator recycles and that is no longer in the cache, where an ordinary
// copy reads every destination line before it writes it (so one pass
// costs two): such slices are allocated without zeroing (noZero) and
// filled with streaming stores that write the lines without reading them
// (internal/stream; from 1 MiB Go's memmove streams by itself). Fory Go
// zeroes and then copies (two passes).
func cloneInto(v reflect.Value, raw []byte, n, w int) {
	src := unsafe.Pointer(unsafe.SliceData(raw))
	var p unsafe.Pointer
	var c int
	switch {
	case len(raw) >= copyStreamMin:
		p, c = noZero(len(raw))
		stream.Copy(p, src, len(raw))
		c /= w
	case w == 1:
		s := append([]byte(nil), raw...)
		p, c = unsafe.Pointer(unsafe.SliceData(s)), cap(s)
	case w == 2:
		s := append([]uint16(nil), unsafe.Slice((*uint16)(src), n)...)
		p, c = unsafe.Pointer(unsafe.SliceData(s)), cap(s)
	case w == 4:
		s := append([]uint32(nil), unsafe.Slice((*uint32)(src), n)...)
		p, c = unsafe.Pointer(unsafe.SliceData(s)), cap(s)
	default:
		s := append([]uint64(nil), unsafe.Slice((*uint64)(src), n)...)
		p, c = unsafe.Pointer(unsafe.SliceData(s)), cap(s)
	}
	setSlice(v, p, n, c)
}

// copyStreamMin: decoded binaries and dense arrays of at least this many
// bytes take cloneInto's streaming path (a variable for the tests and
// BenchmarkDenseDecodeAB, which run both paths).
var copyStreamMin = 256 << 10

// noZero allocates n > 0 bytes of Go memory without pointers that is not
// zeroed first, and returns it and its capacity (at least n, the size
// rounded up to the allocator's class, so the block is 8-byte aligned at
// least, page aligned from 32 KiB). The standard library offers such an
// allocation only through strings.Builder.Grow (which allocates with the
// runtime's MakeNoZero); the builder is dropped at once and the memory is
// written before any Go code reads it.
func noZero(n int) (unsafe.Pointer, int) {
	var b strings.Builder
	b.Grow(n)
	b.WriteByte(0)
	return unsafe.Pointer(unsafe.StringData(b.String())), b.Cap()
}

// setSlice sets v, a slice whose elements hold no pointers, to the slice
// of n elements (capacity c) at p. A settable v is written in place, so
// that no slice header is allocated on the heap (a small allocation per
// message between large ones fragments the heap: the runtime then returns
// pages to the OS and faults them in again, BenchmarkLargeAllocs).
func setSlice(v reflect.Value, p unsafe.Pointer, n, c int) {
	if v.CanSet() {
		*(*sliceHeader)(v.Addr().UnsafePointer()) = sliceHeader{p, n, c}
		return
	}
	s := sliceHeader{p, n, c}
	v.Set(reflect.NewAt(v.Type(), unsafe.Pointer(&s)).Elem())
}

func signExtend(u uint64, w int) int64 {
	s := uint(64 - 8*w)
	return int64(u<<s) >> s
}

// arrayElemKind is the scalar type id of a dense array's elements.
func arrayElemKind(kind byte) byte {
	switch kind {
	case TypeBoolArray:
		return TypeBool
	case TypeInt8Array:
		return TypeInt8
	case TypeInt16Array:
		return TypeInt16
	case TypeInt32Array:
		return TypeInt32
	case TypeInt64Array:
		return TypeInt64
	case TypeUint8Array:
		return TypeUint8
	case TypeUint16Array:
		return TypeUint16
	case TypeUint32Array:
		return TypeUint32
	case TypeUint64Array:
		return TypeUint64
	case TypeFloat16Array:
		return TypeFloat16
	case TypeBfloat16Array:
		return TypeBfloat16
	case TypeFloat32Array:
		return TypeFloat32
	case TypeFloat64Array:
		return TypeFloat64
	}
	return TypeFloat8
}

// naturalScalar is the Go value of a scalar of type id kind with raw bits u.
func naturalScalar(kind byte, u uint64) reflect.Value {
	var x any
	switch kind {
	case TypeBool:
		x = u != 0
	case TypeInt8:
		x = int8(u)
	case TypeInt16:
		x = int16(u)
	case TypeInt32, TypeVarint32:
		x = int32(u)
	case TypeInt64, TypeVarint64, TypeTaggedInt64:
		x = int64(u)
	case TypeUint8:
		x = uint8(u)
	case TypeUint16:
		x = uint16(u)
	case TypeUint32, TypeVarUint32:
		x = uint32(u)
	case TypeUint64, TypeVarUint64, TypeTaggedUint64:
		x = u
	case TypeFloat16:
		x = Float16(u)
	case TypeBfloat16:
		x = BFloat16(u)
	case TypeFloat32:
		x = math.Float32frombits(uint32(u))
	case TypeFloat64:
		x = math.Float64frombits(u)
	}
	return reflect.ValueOf(x)
}

// naturalArrayType is the Go slice type of a dense array.
func naturalArrayType(kind byte) reflect.Type {
	switch kind {
	case TypeBoolArray:
		return reflect.TypeOf([]bool(nil))
	case TypeInt8Array:
		return reflect.TypeOf([]int8(nil))
	case TypeInt16Array:
		return reflect.TypeOf([]int16(nil))
	case TypeInt32Array:
		return reflect.TypeOf([]int32(nil))
	case TypeInt64Array:
		return reflect.TypeOf([]int64(nil))
	case TypeUint8Array:
		return reflect.TypeOf([]uint8(nil))
	case TypeUint16Array:
		return reflect.TypeOf([]uint16(nil))
	case TypeUint32Array:
		return reflect.TypeOf([]uint32(nil))
	case TypeUint64Array:
		return reflect.TypeOf([]uint64(nil))
	case TypeFloat16Array:
		return reflect.TypeOf([]Float16(nil))
	case TypeBfloat16Array:
		return reflect.TypeOf([]BFloat16(nil))
	case TypeFloat32Array:
		return reflect.TypeOf([]float32(nil))
	case TypeFloat64Array:
		return reflect.TypeOf([]float64(nil))
	}
	return typBytes
}

// natural decodes a record (op read, number k) into its natural Go value.
func (d *decoder) natural(op byte, k int) (reflect.Value, error) {
	switch {
	case op == opNull:
		return reflect.Value{}, nil
	case op == TypeNone:
		return reflect.ValueOf(None{}), nil
	case op == TypeBool:
		return reflect.ValueOf(d.u8() != 0), nil
	case op >= TypeInt8 && op <= TypeTaggedUint64:
		return naturalScalar(op, d.u64()), nil
	case op >= TypeFloat16 && op <= TypeFloat64:
		return naturalFloat(op, d.u64()), nil
	case op == TypeString:
		return reflect.ValueOf(d.text()), nil
	case op == opStrSpan:
		return reflect.ValueOf(d.spanText()), nil
	case op == TypeDate:
		return reflect.ValueOf(Date(int64(d.u64()))), nil
	case op == TypeTimestamp:
		s, ns := int64(d.u64()), d.u32()
		return reflect.ValueOf(time.Unix(s, int64(ns)).UTC()), nil
	case op == TypeEnum || op == opEnumID || op == TypeNamedEnum:
		return reflect.ValueOf(d.enum(op)), nil
	case op == tapeUnion:
		p := reflect.New(typUnion)
		d.keep(k, p.Elem())
		u, err := d.union()
		p.Elem().Set(reflect.ValueOf(u))
		return p.Elem(), err
	case op == tapeStruct || op == opStructTD:
		// Peek at the registry index: a registered Go type gives *T.
		at := d.p
		if op == opStructTD {
			at += 4 + int(binary.LittleEndian.Uint32(d.b[d.p:]))
		}
		d.need(at - d.p + 4)
		reg := binary.LittleEndian.Uint32(d.b[at:])
		typ := typStruct
		if si := d.c.reg.byIndex[reg]; si != nil && reg != noType {
			typ = si.typ
		}
		d.charge(uint64(typ.Size()))
		p := reflect.New(typ)
		d.keep(k, p)
		return p, d.structInto(op, -1, p.Elem())
	case op == opStructIdx:
		d.need(4)
		typ := typStruct
		if si := d.c.reg.byIndex[binary.LittleEndian.Uint32(d.b[d.p:])]; si != nil {
			typ = si.typ
		}
		d.charge(uint64(typ.Size()))
		p := reflect.New(typ)
		d.keep(k, p)
		return p, d.structIdxInto(-1, p.Elem())
	}
	var nv reflect.Value
	switch {
	case op == TypeDuration:
		nv = reflect.New(typDuration).Elem()
	case op == TypeDecimal:
		nv = reflect.New(typDecimal).Elem()
	case op == TypeBinary || ArrayWidth(int(op)) > 0:
		nv = reflect.New(naturalArrayType(op)).Elem()
	case op == opSpan:
		d.need(1)
		nv = reflect.New(naturalArrayType(d.b[d.p])).Elem()
	case op == TypeList || op == opPacked && d.b[d.p] == TypeList:
		nv = reflect.New(typAnySlice).Elem()
	case op == TypeSet || op == opPacked:
		nv = reflect.New(typSet).Elem()
	case op == TypeMap:
		nv = reflect.New(typAnyMap).Elem()
	default:
		return reflect.Value{}, goErr("type", "unexpected op 0x%02x in the read tape", op)
	}
	if err := d.body(op, k, nv); err != nil {
		return reflect.Value{}, err
	}
	return nv, nil
}

// naturalFloat is the Go value of a float op's f64 (bits u).
func naturalFloat(op byte, u uint64) reflect.Value {
	f := math.Float64frombits(u)
	switch op {
	case TypeFloat16:
		return reflect.ValueOf(Float16FromFloat64(f))
	case TypeBfloat16:
		return reflect.ValueOf(BFloat16FromFloat64(f))
	case TypeFloat32:
		return reflect.ValueOf(f32FromTape(u))
	}
	return reflect.ValueOf(f)
}

func (d *decoder) list(op byte, k int, v reflect.Value) error {
	n := int(d.u32())
	t := v.Type()
	if err := d.enter(); err != nil {
		return err
	}
	defer func() { d.depth-- }()
	if n > len(d.b)-d.p { // every element takes at least a byte
		panic(errTape)
	}
	switch t.Kind() {
	case reflect.Slice:
		v.Set(d.makeSlice(t, n))
		d.keep(k, v)
		if t == typStrings {
			s, b, c := *(*[]string)(v.Addr().UnsafePointer()), d.b, d.c
			if len(b)-d.p >= 14 && b[d.p] == opStrSpan {
				return d.spanStrings(s)
			}
			base := unsafe.Pointer(unsafe.SliceData(b))
			for i := range s {
				// the usual string (UTF-8, 1-32 bytes, 32 more bytes of tape
				// after it) without the general readers
				if p := d.p; len(b)-p >= 6+32 && b[p] == TypeString && b[p+1] == StrUTF8 {
					kn := int(binary.LittleEndian.Uint32(b[p+2 : p+6]))
					if uint(kn-1) < 32 && kn <= len(b)-p-6-32 {
						if str, ok := c.shortString(unsafe.Add(base, p+6), kn); ok {
							s[i] = str
							d.p = p + 6 + kn
							continue
						}
					}
				}
				if p := d.p; p < len(b) && b[p] == TypeString {
					s[i], d.p = c.textAt(b, p+1)
				} else if p < len(b) && b[p] == opStrSpan {
					s[i], d.p = c.spanTextAt(b, p+1, d.in)
				} else if err := d.decode(v.Index(i)); err != nil {
					return err
				}
			}
			return nil
		}
		if t == typAnySlice || t == typSet {
			s := *(*[]any)(v.Addr().UnsafePointer())
			for i := range s {
				if err := d.anyValue(&s[i]); err != nil {
					return err
				}
			}
			return nil
		}
		for i := 0; i < n; i++ {
			if err := d.decode(v.Index(i)); err != nil {
				return err
			}
		}
	case reflect.Array:
		if n != t.Len() {
			return goErr("value", "a %s of %d elements does not fit a Go %s", TypeName(int(op)), n, t)
		}
		d.keep(k, v)
		for i := 0; i < n; i++ {
			if err := d.decode(v.Index(i)); err != nil {
				return err
			}
		}
	default:
		return mismatch(op, t)
	}
	return nil
}

// spanStrings reads the elements of a list into s when they come as
// STR_SPAN records (WIRE_TAPE_STRING_SPANS): the payload bytes of a run of
// them are copied into Go memory at once, a segment of at most strChunk
// bytes (the strings' varint headers between them included: one byte per
// string under 64 bytes), and each string of up to strOwn bytes is a view
// of its segment; no string is copied on its own. A segment ends with the
// list's last string (its record tells where, when it is a STR_SPAN), so a
// short list copies only its own bytes. Other records (and longer strings)
// are read the general way.
func (d *decoder) spanStrings(s []string) error {
	b, in, c := d.b, d.in, d.c
	inBase := unsafe.Pointer(unsafe.SliceData(in))
	var seg unsafe.Pointer // a copy of in[segOff:segEnd)
	var segOff, segEnd uint64
	for i := range s {
		p := d.p
		if len(b)-p >= 14 && b[p] == opStrSpan && b[p+1] == StrUTF8 {
			h := (*[14]byte)(b[p:])
			n := uint64(binary.LittleEndian.Uint32(h[2:]))
			off := binary.LittleEndian.Uint64(h[6:])
			if n-1 < strOwn {
				if off >= segOff && off <= segEnd && n <= segEnd-off {
					s[i] = unsafe.String((*byte)(unsafe.Add(seg, off-segOff)), int(n))
					d.p = p + 14
					continue
				}
				if off <= uint64(len(in)) && n <= uint64(len(in))-off {
					end := min(off+strChunk, uint64(len(in)))
					// the list's last record, if it is a STR_SPAN
					if last := p + 14*(len(s)-1-i); last <= len(b)-14 && b[last] == opStrSpan {
						le := binary.LittleEndian.Uint64(b[last+6:]) + uint64(binary.LittleEndian.Uint32(b[last+2:]))
						if le >= off+n && le < end {
							end = le
						}
					}
					// one allocation, not zeroed (append), one copy
					cp := append([]byte(nil), unsafe.Slice((*byte)(unsafe.Add(inBase, off)), int(end-off))...)
					seg, segOff, segEnd = unsafe.Pointer(unsafe.SliceData(cp)), off, end
					s[i] = unsafe.String((*byte)(seg), int(n))
					d.p = p + 14
					continue
				}
			}
		}
		switch {
		case p < len(b) && b[p] == opStrSpan:
			s[i], d.p = c.spanTextAt(b, p+1, in)
		case p < len(b) && b[p] == TypeString:
			s[i], d.p = c.textAt(b, p+1)
		default:
			if err := d.decode(reflect.ValueOf(&s[i]).Elem()); err != nil {
				return err
			}
		}
	}
	return nil
}

// packedInto decodes a PACKED list/set: u8 kind, u8 element type, u32
// count, 8 bytes per element.
func (d *decoder) packedInto(k int, v reflect.Value) error {
	rec := d.p // just past the op: the record itself at fault (atValue)
	kind, et := d.u8(), d.u8()
	n := int(d.u32())
	raw := d.take(8 * n)
	t := v.Type()
	var el reflect.Type
	switch t.Kind() {
	case reflect.Slice:
		v.Set(d.makeSlice(t, n))
		el = t.Elem()
	case reflect.Array:
		if t.Len() != n {
			return goErr("value", "a %s of %d elements does not fit a Go %s", TypeName(int(kind)), n, t)
		}
		el = t.Elem()
	default:
		return mismatch(kind, t)
	}
	d.keep(k, v)
	if t.Kind() == reflect.Slice && el.PkgPath() == "" && n > 0 {
		// (an error: the loop below finds the element at fault)
		if ok, err := unpackInto(v.UnsafePointer(), n, el.Kind(), et, raw); ok && err == nil {
			return nil
		}
	}
	// fast paths for the natural element types
	switch el.Kind() {
	case reflect.Int64, reflect.Int:
		if et >= TypeInt8 && et <= TypeTaggedInt64 && el.PkgPath() == "" && t.Kind() == reflect.Slice {
			dst := unsafe.Slice((*int64)(v.UnsafePointer()), n)
			for i := range dst {
				dst[i] = int64(binary.LittleEndian.Uint64(raw[8*i:]))
			}
			return nil
		}
	case reflect.Float64:
		if et >= TypeFloat16 && et <= TypeFloat64 && el.PkgPath() == "" && t.Kind() == reflect.Slice {
			dst := unsafe.Slice((*float64)(v.UnsafePointer()), n)
			for i := range dst {
				dst[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
			}
			return nil
		}
	}
	for i := 0; i < n; i++ {
		u := binary.LittleEndian.Uint64(raw[8*i:])
		e := v.Index(i)
		var err error
		switch {
		case e.Kind() == reflect.Interface:
			var x reflect.Value
			if et >= TypeFloat16 && et <= TypeFloat64 {
				x = naturalFloat(et, u)
			} else {
				x = naturalScalar(et, u)
			}
			e.Set(x)
		case et == TypeBool:
			if e.Kind() != reflect.Bool {
				err = mismatch(et, e.Type())
				break
			}
			e.SetBool(u != 0)
		case et >= TypeInt8 && et <= TypeTaggedInt64:
			err = setInt(e, int64(u), et)
		case et >= TypeUint8 && et <= TypeTaggedUint64:
			err = setUint(e, u, et)
		default:
			err = setFloat(e, et, u)
		}
		if err != nil {
			d.p, d.sub = rec, 2+i // element i (atValue)
			return err
		}
	}
	return nil
}

func (d *decoder) mapInto(k int, v reflect.Value) error {
	n := int(d.u32())
	t := v.Type()
	if t.Kind() != reflect.Map {
		return mismatch(TypeMap, t)
	}
	if err := d.enter(); err != nil {
		return err
	}
	defer func() { d.depth-- }()
	// an entry takes two tape bytes at least, or (in an ENTRY_RUN) two
	// payload bytes
	if n > (len(d.b)-d.p)/2+len(d.in)/2 {
		panic(errTape)
	}
	if ms, ok := v.Addr().Interface().(*map[string]int64); ok {
		// fast path for a common shape
		*ms = make(map[string]int64, n)
		d.keep(k, v)
		m, b, c, in := *ms, d.b, d.c, d.in
		base := unsafe.Pointer(unsafe.SliceData(b))
		inBase := unsafe.Pointer(unsafe.SliceData(in))
		for i := 0; i < n; i++ {
			p := d.p
			if p < len(b) && b[p] == opEntryRun {
				// the usual case: the entries' payload bytes, read here
				cnt := d.runStrI64(m, n-i)
				i += cnt - 1
				continue
			}
			if p < len(b) && b[p] == opStrSpan {
				// The usual entry (a UTF-8 key of 1-32 bytes with 32 bytes
				// of payload from its start, an integer value) without the
				// general readers; anything else through spanTextAt.
				if len(b)-p >= 14+9 && b[p+1] == StrUTF8 {
					h := (*[14]byte)(b[p:])
					kn := uint64(binary.LittleEndian.Uint32(h[2:]))
					off := binary.LittleEndian.Uint64(h[6:])
					if q := p + 14; kn-1 < 32 && off <= uint64(len(in))-32 && uint64(len(in)) >= 32 && b[q] >= TypeInt8 && b[q] <= TypeTaggedInt64 {
						if key, ok := c.shortString(unsafe.Add(inBase, off), int(kn)); ok {
							m[key] = int64(binary.LittleEndian.Uint64(b[q+1 : q+9]))
							d.p = q + 9
							continue
						}
					}
				}
				key, p := c.spanTextAt(b, p+1, in)
				if err := d.putI64(m, key, p); err != nil {
					return err
				}
				continue
			}
			if p >= len(b) || b[p] != TypeString {
				return d.mapSlow(n-i, v)
			}
			// The usual entry (a UTF-8 key of 1-32 bytes, 32 more bytes of
			// tape after it, an integer value) without the general
			// readers; anything else through textAt.
			if len(b)-p >= 6+32+9 {
				h := (*[6]byte)(b[p:])
				kn := int(binary.LittleEndian.Uint32(h[2:]))
				if h[1] == StrUTF8 && uint(kn-1) < 32 && kn <= len(b)-p-6-32-9 {
					if q := p + 6 + kn; b[q] >= TypeInt8 && b[q] <= TypeTaggedInt64 {
						if key, ok := c.shortString(unsafe.Add(base, p+6), kn); ok {
							m[key] = int64(binary.LittleEndian.Uint64(b[q+1 : q+9]))
							d.p = q + 9
							continue
						}
					}
				}
			}
			key, p := c.textAt(b, p+1)
			if err := d.putI64(m, key, p); err != nil {
				return err
			}
		}
		return nil
	}
	v.Set(reflect.MakeMapWithSize(t, n))
	d.keep(k, v)
	return d.mapSlow(n, v)
}

// run reads the ENTRY_RUN record at d.b[d.p] (op not read) of a map with
// left entries still to read: the value type, the entry count and the
// entries' payload bytes in[at:end].
func (d *decoder) run(left int) (vty byte, cnt, at, end int) {
	b, p := d.b, d.p
	if p < 0 || len(b)-p < 22 {
		panic(errTape)
	}
	h := (*[22]byte)(b[p:])
	vty = h[1]
	c := binary.LittleEndian.Uint32(h[2:])
	off := binary.LittleEndian.Uint64(h[6:])
	n := binary.LittleEndian.Uint64(h[14:])
	if c == 0 || uint64(c) > uint64(left) || off > uint64(len(d.in)) || n > uint64(len(d.in))-off ||
		(vty != TypeVarint64 && vty != TypeVarint32) {
		panic(errTape)
	}
	d.p = p + 22
	return vty, int(c), int(off), int(off + n)
}

// runStrI64 reads the ENTRY_RUN record at d.p into m and returns its
// entry count. Each entry is a string header of one or two bytes (length
// << 2 | encoding), the key's bytes and a zigzag varint: libwire has
// checked them (text, varints, limits), so this only takes them apart,
// with bounds checks; bytes that do not add up are a malformed tape.
func (d *decoder) runStrI64(m map[string]int64, left int) int {
	vty, cnt, q, end := d.run(left)
	for j := 0; j < cnt; j++ {
		if vty == TypeVarint64 {
			var n int
			n, q = d.c.runFastI64(m, d.in, cnt-j, q, end)
			if j += n; j == cnt {
				break
			}
		}
		var key string
		var x int64
		key, x, q = d.runEntry(vty, q, end)
		m[key] = x
	}
	if q != end {
		panic(errTape)
	}
	return cnt
}

// strHeader is a string's header, to make a string of bytes in a chunk
// without unsafe.String's length test (the bytes are there: a chunk).
type strHeader struct {
	p unsafe.Pointer
	n int
}

// runFastI64 reads up to cnt entries of an ENTRY_RUN of varint64 values
// from in[q:end] into m the usual way (a one-byte header of a UTF-8 key of
// 1-32 bytes and a varint of 1-8 bytes, with 41 payload bytes from the
// entry's start: the key's 32-byte move, the varint's 8-byte load), up to
// one that is not so, and returns the count read and the offset after
// them. The key is copied into the current string chunk (shortString, its
// state in locals).
func (c *Context) runFastI64(m map[string]int64, in []byte, cnt, q, end int) (int, int) {
	inBase := unsafe.Pointer(unsafe.SliceData(in))
	lim := min(end-1, len(in)-41) // an entry starts at q <= lim
	strs, at := c.strs, c.strsAt
	sBase := unsafe.Pointer(unsafe.SliceData(strs))
	sLim := len(strs) - 32 // a key is copied to at <= sLim
	j := 0
	for ; j < cnt && q <= lim; j++ {
		if at > sLim {
			// a new chunk (the rest of this one stays unused, < 32 bytes)
			strs = make([]byte, strChunk)
			c.strs = strs
			sBase, at, sLim = unsafe.Pointer(unsafe.SliceData(strs)), 0, len(strs)-32
		}
		h := uint(*(*byte)(unsafe.Add(inBase, q)))
		kn := int(h >> 2)
		if h&0x83 != StrUTF8 || uint(kn-1) >= 32 {
			break
		}
		src := unsafe.Add(inBase, q+1)
		w := *(*uint64)(unsafe.Add(src, kn))
		stop := ^w & 0x8080808080808080
		if stop == 0 {
			break
		}
		k := bits.TrailingZeros64(stop)>>3 + 1
		e := q + 1 + kn + k
		if e > end {
			break
		}
		u := unspread(w & (1<<(8*k) - 1))
		dst := unsafe.Add(sBase, at)
		*(*[2]uint64)(dst) = *(*[2]uint64)(src)
		if kn > 16 {
			*(*[2]uint64)(unsafe.Add(dst, 16)) = *(*[2]uint64)(unsafe.Add(src, 16))
		}
		at += kn
		q = e
		m[*(*string)(unsafe.Pointer(&strHeader{dst, kn}))] = int64(u>>1) ^ -int64(u&1)
	}
	c.strsAt = at
	return j, q
}

// runEntry reads the ENTRY_RUN entry at d.in[q:end] of value type vty:
// its key, its value and the offset after it.
func (d *decoder) runEntry(vty byte, q, end int) (string, int64, int) {
	in := d.in
	u, w := varintAt(in, q, end)
	kn := int(u >> 2)
	q += w
	if w > 2 || kn > end-q {
		panic(errTape)
	}
	var key string
	if u&3 == StrUTF8 {
		src := unsafe.Add(unsafe.Pointer(unsafe.SliceData(in)), q)
		ok := false
		if uint(kn-1) < 32 && len(in)-q >= 32 {
			key, ok = d.c.shortString(src, kn)
		}
		if !ok {
			key = d.c.goStringAt(src, kn)
		}
	} else {
		key = d.c.otherText(byte(u&3), in[q:q+kn])
	}
	q += kn
	u, w = varintAt(in, q, end)
	x := int64(u>>1) ^ -int64(u&1)
	if vty == TypeVarint32 {
		x = int64(int32(uint32(u>>1) ^ -uint32(u&1)))
	}
	return key, x, q + w
}

// varintAt is the varint (LEB128, a ninth byte of 8 bits) at in[q:end]
// and its length; libwire has checked it, so it ends before end.
func varintAt(in []byte, q, end int) (uint64, int) {
	if q < 0 || q >= end || end > len(in) {
		panic(errTape)
	}
	if len(in)-q >= 8 {
		w := binary.LittleEndian.Uint64(in[q:])
		if stop := ^w & 0x8080808080808080; stop != 0 {
			k := bits.TrailingZeros64(stop)>>3 + 1
			if k > end-q {
				panic(errTape)
			}
			return unspread(w & (1<<(8*k) - 1)), k
		}
	}
	var x uint64
	for i := 0; q+i < end; i++ {
		c := in[q+i]
		if i == 8 {
			return x | uint64(c)<<56, 9
		}
		x |= uint64(c&0x7F) << (7 * i)
		if c < 0x80 {
			return x, i + 1
		}
	}
	panic(errTape)
}

// unspread puts the 7-bit groups of a varint's bytes (the low bytes of x)
// together.
func unspread(x uint64) uint64 {
	x &= 0x7F7F7F7F7F7F7F7F
	x = x&0x007F007F007F007F | (x&0x7F007F007F007F00)>>1
	x = x&0x00003FFF00003FFF | (x&0x3FFF00003FFF0000)>>2
	return x&0x0FFFFFFF | (x&0x0FFFFFFF00000000)>>4
}

// runRecords makes the ENTRY_RUN record at d.p (of a map with left
// entries still to read) the STRING and number records it stands for, for
// the general readers, and returns them and its entry count.
func (d *decoder) runRecords(left int) ([]byte, int) {
	vty, cnt, q, end := d.run(left)
	in := d.in
	var out []byte
	for j := 0; j < cnt; j++ {
		u, w := varintAt(in, q, end)
		q += w
		kn := int(u >> 2)
		if w > 2 || kn > end-q {
			panic(errTape)
		}
		out = append(out, TypeString, byte(u&3))
		out = binary.LittleEndian.AppendUint32(out, uint32(kn))
		out = append(out, in[q:q+kn]...)
		q += kn
		u, w = varintAt(in, q, end)
		q += w
		x := int64(u>>1) ^ -int64(u&1)
		if vty == TypeVarint32 {
			x = int64(int32(uint32(u>>1) ^ -uint32(u&1)))
		}
		out = append(out, vty)
		out = binary.LittleEndian.AppendUint64(out, uint64(x))
	}
	if q != end {
		panic(errTape)
	}
	return out, cnt
}

// putI64 reads the value record at d.b[p:] of a map[string]int64 entry
// (an integer the short way, anything else through decode) into m[key].
func (d *decoder) putI64(m map[string]int64, key string, p int) error {
	b := d.b
	if len(b)-p >= 9 && b[p] >= TypeInt8 && b[p] <= TypeTaggedInt64 {
		m[key] = int64(binary.LittleEndian.Uint64(b[p+1 : p+9]))
		d.p = p + 9
		return nil
	}
	d.p = p
	var x int64
	if err := d.decode(reflect.ValueOf(&x).Elem()); err != nil {
		return err
	}
	m[key] = x
	return nil
}

func (d *decoder) mapSlow(n int, m reflect.Value) error {
	t := m.Type()
	k := reflect.New(t.Key()).Elem()
	e := reflect.New(t.Elem()).Elem()
	// struct keys and values: their bytes charged per entry
	entry := structBytes(t.Key()) + structBytes(t.Elem())
	var saved []byte // the read tape while an ENTRY_RUN's records are read
	savedP, runLeft := 0, 0
	defer func() {
		if saved != nil { // an error inside a run: its value at fault
			d.sub = 1 + recordsBefore(d.b, d.p)
			d.b, d.p = saved, savedP-21
		}
	}()
	for i := 0; i < n; i++ {
		if runLeft == 0 && saved != nil {
			if d.p != len(d.b) {
				panic(errTape)
			}
			d.b, d.p, saved = saved, savedP, nil
		}
		if saved == nil && d.p < len(d.b) && d.b[d.p] == opEntryRun {
			recs, cnt := d.runRecords(n - i)
			saved, savedP, runLeft = d.b, d.p, cnt
			d.b, d.p = recs, 0
		}
		if saved != nil {
			runLeft--
		}
		k.SetZero()
		e.SetZero()
		if err := d.decode(k); err != nil {
			return err
		}
		if err := d.decode(e); err != nil {
			return err
		}
		if k.Kind() == reflect.Interface && !k.IsNil() && !k.Elem().Type().Comparable() {
			return goErr("type", "a map key of Go type %s is not comparable", k.Elem().Type())
		}
		if entry != 0 {
			d.charge(entry)
		}
		m.SetMapIndex(k, e)
	}
	if saved != nil {
		if d.p != len(d.b) {
			panic(errTape)
		}
		d.b, d.p, saved = saved, savedP, nil
	}
	return nil
}

// structInto decodes a STRUCT or STRUCT_TD record (op read) into v: a
// registered Go struct (fields matched by wire name) or a Struct.
func (d *decoder) structInto(op byte, k int, v reflect.Value) error {
	var td []byte
	if op == opStructTD {
		td = d.bytes() // the writer's TypeDef: libwire has already read with it
	}
	reg := d.u32()
	var uid uint32 = noType
	var ns, nm []byte
	if reg == noType {
		uid = d.u32()
		ns, nm = d.bytes16(), d.bytes16()
	}
	nf := int(d.u32())
	t := v.Type()
	if err := d.enter(); err != nil {
		return err
	}
	defer func() { d.depth-- }()
	d.keep(k, v)
	if t == typStruct {
		s := v.Addr().Interface().(*Struct)
		s.TypeID = uid
		switch {
		case reg != noType:
			s.Type = d.c.TypeName(reg)
		case len(ns) > 0:
			s.Type = string(ns) + "." + string(nm)
		default:
			s.Type = string(nm)
		}
		d.charge(uint64(nf) * uint64(typField.Size()))
		s.Fields = make([]Field, nf)
		for i := range s.Fields {
			s.Fields[i].Name = string(d.bytes16())
			if err := d.anyValue(&s.Fields[i].Value); err != nil {
				return err
			}
		}
		return nil
	}
	if t.Kind() != reflect.Struct {
		return mismatch(op, t)
	}
	si := d.c.reg.byType[t]
	if si == nil {
		return goErr("type", "struct type %s is not registered (RegisterStruct)", t)
	}
	skips, err := d.c.typedefSkips(si, td, nf)
	if err != nil {
		return err
	}
	// a field the writer did not send (or that is dropped) reads as its
	// Go zero value, whatever v held, as on the compiled codecs (which
	// write the whole struct)
	v.SetZero()
	for i := 0; i < nf; i++ {
		name := d.bytes16()
		fi, ok := si.byWire[string(name)]
		if !ok || skips != nil && skips[i] {
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
	return nil
}

// skip reads and discards one record.
func (d *decoder) skip() error {
	var sink any
	return d.decode(reflect.ValueOf(&sink).Elem())
}

// decodeTapeOnly is the C half of Unmarshal, with its flags (to time the
// C pass alone from a test; round 3 of ROUNDS.md measured it so).
func (c *Context) decodeTapeOnly(data []byte) int32 {
	return int32(C.wirego_decode(c.s, (*C.uint8_t)(unsafe.Pointer(&data[0])), C.size_t(len(data)), tapeFlags))
}

// readTape is the read tape of the last Unmarshal (in C memory, valid
// until the next call; for tests).
func (c *Context) readTape() []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(c.s.out)), int(c.s.out_len))
}

// durationOf is s seconds and ns nanoseconds as a time.Duration, and false
// when that is outside int64 nanoseconds. Every Duration fits: the
// writers split it into floor seconds and 0 <= ns < 1e9, so MinInt64 is
// -9223372037 s + 145224192 ns and MaxInt64 9223372036 s + 854775807 ns.
func durationOf(s int64, ns uint32) (time.Duration, bool) {
	const sec = int64(time.Second)
	if s > math.MaxInt64/sec || s < math.MinInt64/sec-1 {
		return 0, false
	}
	s += int64(ns) / sec // a reader may get ns of a second or more
	r := int64(ns) % sec
	if s > math.MaxInt64/sec || s < math.MinInt64/sec-1 {
		return 0, false
	}
	if s >= 0 {
		t := s * sec
		if t > math.MaxInt64-r {
			return 0, false
		}
		return time.Duration(t + r), true
	}
	t, d := (s+1)*sec, r-sec // d in [-sec, 0): no step overflows
	if t < math.MinInt64-d {
		return 0, false
	}
	return time.Duration(t + d), true
}

// recordsBefore counts the records of recs (an ENTRY_RUN's, runRecords:
// STRING and VARINT ops) that start before p, less one: the index of the
// one at fault.
func recordsBefore(recs []byte, p int) int {
	n := -1
	for q := 0; q < p && q < len(recs); n++ {
		if recs[q] == TypeString && q+6 <= len(recs) {
			q += 6 + int(binary.LittleEndian.Uint32(recs[q+2:]))
		} else {
			q += 9
		}
	}
	return max(n, 0)
}
