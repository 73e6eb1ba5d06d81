package wire

// Native Go fuzz targets for every decode entry point of the package
// (README, "Fuzzing"). libwire's C decoders have their own libFuzzer
// targets (libwire/tests/fuzz); these cover what the Go side adds on top:
// the read tape and the compiled codecs' images interpreted in Go (partly
// with unsafe), the conversions into Go types, and the options.
//
// Each target checks, for any input:
//   - no panic, no hang (go test -fuzz's per-input timeout);
//   - an error is a *WireError with a class and an offset inside the input;
//   - a value that decodes re-encodes, and the bytes decode again to an
//     equal value (floats compare NaN = NaN; nil and empty collections are
//     equal, as looseEqual in mem_test.go);
//   - the Go heap allocated by the call, and the C buffers the session
//     keeps, stay within fuzzHeapPerByte / the context's LimitMemDecode
//     times the input plus a constant.
//
//	go test -run '^$' -fuzz '^FuzzDecode$' -fuzztime 600s -parallel 1 .

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"math/rand"
	"os"
	"reflect"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// Mode bits of a fuzz input (its first argument).
const (
	fuzzCompatible = 1 << iota
	fuzzRef
	fuzzZeroCopy
	fuzzUTF8
	fuzzForceTape // registered structs through the tape path (FuzzUnmarshalStruct)
	fuzzModes     = 1 << 5
	fuzzBaseModes = 4 // compatible × reference tracking
)

func fuzzOptions(mode uint8) []Option {
	return []Option{
		WithCompatible(mode&fuzzCompatible != 0),
		WithRefTracking(mode&fuzzRef != 0),
		WithZeroCopy(mode&fuzzZeroCopy != 0),
		WithUTF8Strings(mode&fuzzUTF8 != 0),
	}
}

// fuzzHolder takes the tape path (an any field, a Go array, a Set, a
// list of any: TestMemTapeFallback).
type fuzzHolder struct {
	Name string
	A    any
	Arr  [2]int32
	S    Set
	L    []any
	Leaf *memLeaf
	M    map[string]any
}

// fuzzPacked holds lists of 1- and 2-byte integers: 2-byte blocks in the
// compiled codecs' images, PACKED runs into int16 and uint16 on the tape
// path (plan.go).
type fuzzPacked struct {
	I16s []int16
	U16s []uint16
	I8s  []int8
	U8s  []uint8
}

// fuzzShare's pointers are tracked (tag ref): under reference tracking a
// struct they share is written once, and the compiled codecs read it back
// as one Go struct (the decoder's memo of struct images).
type fuzzShare struct {
	Name  string
	A     *memLeaf   `wire:",ref"`
	B     *memLeaf   `wire:",ref"`
	Again *fuzzShare `wire:",ref"`
}

// The schema types of fuzzContext: an enum held as a Go integer (the
// plan's enum kind) and fields declared nullable but held by value (a
// null read into them: the compiled codecs' presence flags).
const fuzzFDL = `package fz;
enum Level [id=440] { LOW = 0; MID = 1; HIGH = 2; }
message Point [id=441] { int32 x = 1; int32 y = 2; }
message Stamp [id=443] { timestamp at = 1; int32 n = 2; }
message Opt [id=442] {
    string name = 1;
    optional int32 count = 2;
    Level level = 3;
    Point at = 4;
    optional date day = 5;
    optional timestamp when = 6;
    optional decimal price = 7;
    optional duration wait = 8;
    Stamp stamp = 9;
}
`

type fuzzPoint struct{ X, Y int32 }

type fuzzStamp struct {
	At time.Time
	N  int32
}

type fuzzOpt struct {
	Name  string
	Count int32
	Level int32
	At    fuzzPoint
	Day   Date
	When  time.Time
	Price Decimal
	Wait  time.Duration
	Stamp fuzzStamp
}

// fuzzOptNil is fz.Opt as another program holds it, whose nil pointers
// are written as nulls (fuzzWriterContext): the seeds with nulls for
// fuzzOpt's fields held by value.
type fuzzOptNil struct {
	Name  string
	Count *int32
	Level int32
	At    *fuzzPoint
	Day   *Date
	When  *time.Time
	Price *Decimal
	Wait  *time.Duration
	Stamp *fuzzStamp
}

// fuzzContext is a new context in the given mode with the test types
// registered: memAll and its parts (400-403), the benchmark structs (1-5),
// memMany (410), fuzzHolder (420), fuzzPacked (430), fuzzShare (431) and
// fuzzFDL's types
// (fz.Point, fz.Opt). Every input gets a new context, so that a finding
// does not depend on the inputs before it (libwire caches the writers'
// TypeDefs per context, at most 64 per type).
func fuzzContext(tb testing.TB, mode uint8) *Context {
	c := fuzzSchemaContext(tb, mode, fuzzOpt{})
	memRegister(tb, c)
	for _, bt := range benchTypes {
		if err := c.RegisterStructID(bt.id, bt.v); err != nil {
			tb.Fatal(err)
		}
	}
	if err := c.RegisterStructID(410, memMany{}); err != nil {
		tb.Fatal(err)
	}
	if err := c.RegisterStructID(420, fuzzHolder{}); err != nil {
		tb.Fatal(err)
	}
	if err := c.RegisterStructID(430, fuzzPacked{}); err != nil {
		tb.Fatal(err)
	}
	if err := c.RegisterStructID(431, fuzzShare{}); err != nil {
		tb.Fatal(err)
	}
	c.forceTape = mode&fuzzForceTape != 0
	return c
}

// fuzzSchemaContext is a new context in the given mode with fuzzFDL
// loaded and opt (a fuzzOpt or fuzzOptNil) bound to fz.Opt.
func fuzzSchemaContext(tb testing.TB, mode uint8, opt any) *Context {
	return schemaContext(tb, mode, "fz.fdl", fuzzFDL, "fz.Point", fuzzPoint{}, "fz.Stamp", fuzzStamp{}, "fz.Opt", opt)
}

// schemaContext is a new context in the given mode (fuzzOptions) with
// the FDL text loaded and Go types bound to its structs: binds holds
// (struct name, Go value) pairs, registered in that order.
func schemaContext(tb testing.TB, mode uint8, file, fdl string, binds ...any) *Context {
	c, err := NewContext(fuzzOptions(mode)...)
	if err != nil {
		tb.Fatal(err)
	}
	if err := c.LoadSchemaText(file, fdl); err != nil {
		tb.Fatal(err)
	}
	for i := 0; i+1 < len(binds); i += 2 {
		if err := c.RegisterStruct(binds[i].(string), binds[i+1]); err != nil {
			tb.Fatal(err)
		}
	}
	return c
}

// fuzzSeedValues are the values the seeds are made of: several shapes
// of each kind the decoders read.
func fuzzSeedValues() []any {
	shared := map[string]any{"k": int64(1)}
	leaf := &memLeaf{"shared", 7}
	mixed := list1000()[:24]
	return []any{
		int32(-5), int64(math.MinInt64), uint64(math.MaxUint64), 3.5, float32(math.NaN()), true,
		"latin", "日本語 €", strings.Repeat("long", 40), []byte{0, 1, 2, 250},
		mixed,
		[]any{nil, int8(-1), int16(300), uint8(7), uint16(65535), uint32(1 << 31), Float16FromFloat64(1.5),
			BFloat16FromFloat64(-2), Date(19000), time.Unix(1700000000, 5).UTC(), -3 * time.Second,
			Decimal{Unscaled: big.NewInt(-12345), Scale: 2}, Set{"a", int64(2)}, None{}},
		[]int64{-1, 0, 1 << 40}, []int32{5, -5}, []int8{-1, 2}, []int16{1, -1}, []uint16{9}, []float32{1.5, -0},
		[]float64{math.Inf(1), 2}, []bool{true, false}, []uint64{1 << 63}, []string{"a", "", "ccc"},
		map[string]int64{"a": 1, "b": -2}, map[int32]string{-1: "m", 2: ""}, map[any]any{"x": []any{int64(1)}, int64(2): nil},
		[]any{[]any{[]any{}}, map[string]any{}, []int32{}, []any{int64(1), "s"}},
		[]map[string]int32{{"z": 26}}, [][]int32{{1, 2}, nil},
		[]any{shared, shared}, []any{leaf, leaf},
		memValue(), &memOuter{Z: 1, All: *memValue(), Tag: "outer"}, &memNode{V: 9, Next: &memNode{V: -1}},
		&memNode{V: 1, Kids: []memNode{{V: 2, Kids: []memNode{}}}},
		benchMediaContent(), benchSample(), benchNumeric(),
		&memMany{Items: []memAll{{I32: 1, Dec: Decimal{Unscaled: big.NewInt(2)}}, {S: "two", Dec: Decimal{Unscaled: big.NewInt(0)}}}},
		&fuzzHolder{Name: "h", A: int64(5), Arr: [2]int32{1, -1}, S: Set{"x"}, L: []any{"l", 2.5}, Leaf: leaf,
			M: map[string]any{"n": nil, "s": "v"}},
		&fuzzShare{Name: "s", A: leaf, B: leaf, Again: &fuzzShare{Name: "t", A: leaf}},
		&fuzzPacked{I16s: []int16{math.MinInt16, -1, 0, math.MaxInt16}, U16s: []uint16{0, 1, math.MaxUint16},
			I8s: []int8{math.MinInt8, 5}, U8s: []uint8{255, 0}},
		&fuzzOpt{Name: "opt", Count: -3, Level: 2, At: fuzzPoint{1, -1}, Day: 19000,
			When: time.Unix(1700000000, 9).UTC(), Price: Decimal{Unscaled: big.NewInt(-995), Scale: 2}, Wait: time.Second,
			Stamp: fuzzStamp{At: time.Unix(-5, 0).UTC(), N: 8}},
	}
}

// fuzzNullSeeds are fz.Opt values with every nullable field null, written
// by a context that binds fuzzOptNil to fz.Opt: the payloads that read as
// nulls into fuzzOpt's fields held by value.
func fuzzNullSeeds(tb testing.TB, mode uint8) [][]byte {
	w := fuzzSchemaContext(tb, mode, fuzzOptNil{})
	defer w.Close()
	count := int32(4)
	var out [][]byte
	for _, v := range []*fuzzOptNil{{Name: "nulls", Level: 1}, {Level: 0, Count: &count}} {
		b, err := w.Marshal(v)
		if err != nil {
			tb.Fatalf("null seed in mode %d: %v", mode, err)
		}
		out = append(out, b)
	}
	return out
}

// fuzzSeeds adds the payload of every seed value in every mode.
func fuzzSeeds(f *testing.F, add func(mode uint8, b []byte)) {
	for mode := uint8(0); mode < fuzzBaseModes; mode++ {
		c := fuzzContext(f, mode)
		for _, v := range fuzzSeedValues() {
			b, err := c.Marshal(v)
			if err != nil {
				f.Fatalf("seed %T in mode %d: %v", v, mode, err)
			}
			add(mode, b)
		}
		b, err := c.MarshalAll([]any{int64(1), "two", []any{3.0}})
		if err != nil {
			f.Fatal(err)
		}
		add(mode, b)
		for _, b := range fuzzNewerSeeds(f, mode) {
			add(mode, b)
		}
		c.Close()
	}
}

// fuzzNewerSeeds are fz.Opt values and a root fz.Level written by a newer
// schema whose Level has a fourth enumerator (TOP = 3): they decode, into
// the Go integer or a wire.Enum, and are not written back (enums.go).
func fuzzNewerSeeds(tb testing.TB, mode uint8) [][]byte {
	newer := strings.Replace(fuzzFDL, "HIGH = 2;", "HIGH = 2; TOP = 3;", 1)
	w := schemaContext(tb, mode, "fz.fdl", newer, "fz.Point", fuzzPoint{}, "fz.Stamp", fuzzStamp{}, "fz.Opt", fuzzOpt{})
	defer w.Close()
	var out [][]byte
	for _, v := range []any{&fuzzOpt{Name: "newer", Level: 3}, Enum{Type: "fz.Level", TypeID: noType, Value: 3}} {
		b, err := w.Marshal(v)
		if err != nil {
			tb.Fatalf("newer seed in mode %d: %v", mode, err)
		}
		out = append(out, b)
	}
	return out
}

// fuzzUndeclaredEnum: err refuses an enum number the context's schema does
// not declare, and v holds one (a newer writer's enumerator, read and not
// written back): a wire.Enum of a schema enum, or fz.Opt's Level.
func fuzzUndeclaredEnum(c *Context, err error, v reflect.Value) bool {
	var we *WireError
	if !errors.As(err, &we) || we.Class != "value" || !strings.Contains(we.Message, " is not declared by ") {
		return false
	}
	return fuzzAnyValue(v, map[uintptr]bool{}, func(v reflect.Value) (bool, bool) {
		switch x := v.Interface().(type) {
		case Enum:
			idx, ok := c.findType(x.Type)
			d := (*enumDecl)(nil)
			if ok {
				d = c.enumDeclOf(idx)
			}
			return d != nil && !d.has(x.Value), true
		case fuzzOpt:
			return x.Level < 0 || x.Level > 2, true
		}
		return false, false
	})
}

// fuzzCheckErr: an error is a *WireError with a class and an offset at
// most the input's length.
func fuzzCheckErr(t *testing.T, err error, data []byte) {
	if we := fuzzCheckClass(t, err); we.Offset > uint64(len(data)) {
		t.Fatalf("error offset %d beyond the input of %d bytes: %v", we.Offset, len(data), err)
	}
}

// fuzzCheckClass: an error is a *WireError with a class and a message.
func fuzzCheckClass(t *testing.T, err error) *WireError {
	var we *WireError
	if !errors.As(err, &we) {
		t.Fatalf("error %T is not a *WireError: %v", err, err)
	}
	if we.Class == "" || we.Message == "" {
		t.Fatalf("error without class or message: %#v", we)
	}
	return we
}

// Bounds of the memory a call may take per input byte (plus a constant).
// A Go value per wire element costs up to a few tens of bytes (an
// interface and its boxed value, a slice header, a map entry) and an
// element takes at least one input byte (spec R-SEC-12) or draws on the
// zero-width budget (R-SEC-11). A struct element may take one byte (a
// writer's TypeDef with one field; the reader zeroes the rest) and still
// be a whole struct: its image in C memory is bounded by the context's
// LimitMemDecode per input byte (+ 1 MiB; Unmarshal fails past it), and
// its Go value is about as large as that image. So the C arena stays
// within the limit per byte, and the Go heap within the limit + 512.
var fuzzMemLimit = func() uint64 {
	c, err := NewContext()
	if err != nil {
		panic(err)
	}
	defer c.Close()
	return c.GetLimit(LimitMemDecode)
}()

func fuzzHeapPerByte(limit uint64) uint64 { return 512 + limit }

const (
	fuzzHeapBase = 4 << 20
	// the limit's 1 MiB and the root's image, which the arena holds too
	fuzzArenaBase = memDecodeBase + 64<<10
)

var fuzzAllocSample = []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}

func heapAllocated() uint64 {
	metrics.Read(fuzzAllocSample)
	return fuzzAllocSample[0].Value.Uint64()
}

// fuzzCheckHeap: the Go heap a call on a context with the default limits
// allocated.
func fuzzCheckHeap(t *testing.T, what string, before uint64, data []byte) {
	fuzzCheckHeapAt(t, what, before, data, fuzzMemLimit)
}

func fuzzCheckHeapAt(t *testing.T, what string, before uint64, data []byte, limit uint64) {
	used := heapAllocated() - before
	if used > fuzzHeapBase+fuzzHeapPerByte(limit)*uint64(len(data)) {
		t.Fatalf("%s: %d bytes allocated for an input of %d bytes", what, used, len(data))
	}
}

// fuzzCheckArena: the session's C arena within the context's LimitMemDecode.
func fuzzCheckArena(t *testing.T, c *Context, data []byte) {
	per := c.GetLimit(LimitMemDecode)
	if n := uint64(c.s.arena_cap); n > fuzzArenaBase+per*uint64(len(data)) {
		t.Fatalf("arena of %d bytes for an input of %d bytes (limit %d per byte)", n, len(data), per)
	}
}

// FuzzDecode: Decode (every root as natural Go values) and UnmarshalAll
// into as many *any, in every mode; values re-encode with MarshalAll and
// decode again to equal values.
func FuzzDecode(f *testing.F) {
	fuzzSeeds(f, func(mode uint8, b []byte) { f.Add(mode, b) })
	f.Fuzz(func(t *testing.T, mode uint8, data []byte) {
		mode %= fuzzModes &^ fuzzForceTape
		c := fuzzContext(t, mode)
		defer c.Close()
		h := heapAllocated()
		vals, err := c.Decode(data)
		fuzzCheckHeap(t, "Decode", h, data)
		if err != nil {
			fuzzCheckErr(t, err, data)
			return
		}
		targets := make([]any, len(vals))
		for i := range targets {
			targets[i] = new(any)
		}
		if err := c.UnmarshalAll(data, targets); err != nil {
			t.Fatalf("Decode read %d roots, UnmarshalAll failed: %v", len(vals), err)
		}
		for i, p := range targets {
			if !fuzzEqual(reflect.ValueOf(*p.(*any)), reflect.ValueOf(vals[i])) {
				t.Fatalf("root %d: UnmarshalAll %#v, Decode %#v", i, *p.(*any), vals[i])
			}
		}
		again, err := c.MarshalAll(vals)
		if err != nil {
			var we *WireError
			if errors.As(err, &we) && we.Class == "schema" && fuzzForeignEnum(c, reflect.ValueOf(vals), map[uintptr]bool{}) {
				return // read, not written (README: Type mapping)
			}
			if fuzzUndeclaredEnum(c, err, reflect.ValueOf(vals)) {
				return // read, not written (README: Type mapping)
			}
			t.Fatalf("the decoded values do not encode: %v\n%#v", err, vals)
		}
		back, err := c.Decode(again)
		if err != nil {
			t.Fatalf("the re-encoded values do not decode: %v", err)
		}
		if !fuzzEqual(reflect.ValueOf(back), reflect.ValueOf(vals)) {
			t.Fatalf("decoded again to another value:\n%#v\n%#v", vals, back)
		}
	})
}

// fuzzTargets are the Go types FuzzUnmarshal decodes into.
var fuzzTargets = []func() any{
	func() any { return new(any) },
	func() any { return new([]any) },
	func() any { return new(map[any]any) },
	func() any { return new(map[string]int64) },
	func() any { return new(map[string]any) },
	func() any { return new(string) },
	func() any { return new([]byte) },
	func() any { return new([]int64) },
	func() any { return new([]int32) },
	func() any { return new([]int8) },
	func() any { return new([]string) },
	func() any { return new([]float64) },
	func() any { return new([]bool) },
	func() any { return new(int64) },
	func() any { return new(float32) },
	func() any { return new(time.Time) },
	func() any { return new(Decimal) },
	func() any { return new(Set) },
	func() any { return new([][]int32) },
	func() any { return new(map[int32][]string) },
	func() any { return new([]*memLeaf) },
	func() any { return new([]map[string]any) },
	func() any { return new(time.Duration) },
	func() any { return new(Float16) },
	func() any { return new(uint64) },
	func() any { return new([]uint16) },
	func() any { return new([3]int32) },
	func() any { return new(bool) },
	func() any { return new([]float32) },
	func() any { return new(*memNode) },
	func() any { return new(map[string]memLeaf) },
	func() any { return new([]time.Time) },
}

// FuzzUnmarshal: Unmarshal into one of fuzzTargets (picked by which);
// a value that decodes re-encodes (Marshal) and decodes again into an
// equal value of the same Go type.
func FuzzUnmarshal(f *testing.F) {
	probers := map[uint8]*Context{} // one context per mode to pick the seeds
	fuzzSeeds(f, func(mode uint8, b []byte) {
		c := probers[mode]
		if c == nil {
			c = fuzzContext(f, mode)
			probers[mode] = c
		}
		// each payload with the targets it fits and a few it does not
		for which := range fuzzTargets {
			if c.Unmarshal(b, fuzzTargets[which]()) == nil || which < 3 {
				f.Add(mode, uint8(which), b)
			}
		}
	})
	for _, c := range probers {
		c.Close()
	}
	f.Fuzz(func(t *testing.T, mode, which uint8, data []byte) {
		mode %= fuzzModes &^ fuzzForceTape
		mk := fuzzTargets[int(which)%len(fuzzTargets)]
		c := fuzzContext(t, mode)
		defer c.Close()
		target := mk()
		h := heapAllocated()
		err := c.Unmarshal(data, target)
		fuzzCheckHeap(t, "Unmarshal", h, data)
		if err != nil {
			fuzzCheckErr(t, err, data)
			return
		}
		fuzzCheckArena(t, c, data)
		fuzzReread(t, c, target, mk)
	})
}

// fuzzReread: target (a pointer to a decoded value) re-encodes and
// decodes into an equal value.
func fuzzReread(t *testing.T, c *Context, target any, mk func() any) {
	v := reflect.ValueOf(target).Elem().Interface()
	if fuzzBadText(reflect.ValueOf(v), map[uintptr]bool{}) {
		// a binary read into a Go string: not valid UTF-8, which Marshal
		// refuses, or with WithUTF8Strings writes as it is and the
		// decoder then refuses (README: WithUTF8Strings)
		return
	}
	again, err := c.Marshal(v)
	if err != nil {
		var we *WireError
		if errors.As(err, &we) && we.Class == "schema" && fuzzForeignEnum(c, reflect.ValueOf(v), map[uintptr]bool{}) {
			// a named enum the schema lacks decodes (Type from the
			// payload) but is not written (README: Type mapping)
			return
		}
		if fuzzUndeclaredEnum(c, err, reflect.ValueOf(v)) {
			return // so does a number its enum does not declare
		}
		t.Fatalf("the decoded %T does not encode: %v\n%#v", target, err, v)
	}
	back := mk()
	if err := c.Unmarshal(again, back); err != nil {
		t.Fatalf("the re-encoded %T does not decode: %v", target, err)
	}
	if !fuzzEqual(reflect.ValueOf(back).Elem(), reflect.ValueOf(target).Elem()) {
		t.Fatalf("%T decoded again to another value:\n%#v\n%#v", target, v, reflect.ValueOf(back).Elem().Interface())
	}
}

// fuzzBadText reports whether v holds a string that is not valid UTF-8
// (a binary decodes into a Go string as its bytes).
func fuzzBadText(v reflect.Value, seen map[uintptr]bool) bool {
	return fuzzAnyValue(v, seen, func(v reflect.Value) (bool, bool) {
		if v.Kind() == reflect.String {
			return !utf8.ValidString(v.String()), true
		}
		return false, false
	})
}

// fuzzForeignEnum: whether v holds an Enum that names no type of c's
// schema (a NAMED_ENUM the schema lacks, decoded by its payload names).
func fuzzForeignEnum(c *Context, v reflect.Value, seen map[uintptr]bool) bool {
	return fuzzAnyValue(v, seen, func(v reflect.Value) (bool, bool) {
		en, ok := v.Interface().(Enum)
		if !ok || v.Kind() != reflect.Struct {
			return false, false
		}
		if en.TypeID != noType {
			return false, true
		}
		_, found := c.findType(en.Type)
		return !found, true
	})
}

// fuzzAnyValue: whether leaf holds for a value reachable from v (through
// interfaces, pointers, each pointer once, slices, arrays, maps and
// exported struct fields); leaf answers (result, true) where it decides
// and (_, false) to look inside.
func fuzzAnyValue(v reflect.Value, seen map[uintptr]bool, leaf func(reflect.Value) (bool, bool)) bool {
	if v.CanInterface() {
		if r, ok := leaf(v); ok {
			return r
		}
	}
	switch v.Kind() {
	case reflect.Interface:
		return !v.IsNil() && fuzzAnyValue(v.Elem(), seen, leaf)
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return false
		}
		seen[v.Pointer()] = true
		return fuzzAnyValue(v.Elem(), seen, leaf)
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if fuzzAnyValue(v.Index(i), seen, leaf) {
				return true
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if fuzzAnyValue(it.Key(), seen, leaf) || fuzzAnyValue(it.Value(), seen, leaf) {
				return true
			}
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() && fuzzAnyValue(v.Field(i), seen, leaf) {
				return true
			}
		}
	}
	return false
}

// fuzzStructs are the registered structs FuzzUnmarshalStruct decodes
// into: the compiled codecs (all but fuzzHolder) unless the mode says
// fuzzForceTape.
var fuzzStructs = []func() any{
	func() any { return new(memAll) },
	func() any { return new(memOuter) },
	func() any { return new(memNode) },
	func() any { return new(memLeaf) },
	func() any { return new(MediaContent) },
	func() any { return new(Sample) },
	func() any { return new(NumericStruct) },
	func() any { return new(Media) },
	func() any { return new(fuzzHolder) },
	func() any { return new(memMany) },
	func() any { return new(fuzzPacked) },
	func() any { return new(fuzzOpt) },
	func() any { return new(fuzzShare) },
}

// fuzzStructIndex is the index in fuzzStructs of v's type (a pointer to
// a struct), or -1.
func fuzzStructIndex(v any) int {
	for i, mk := range fuzzStructs {
		if reflect.TypeOf(mk()) == reflect.TypeOf(v) {
			return i
		}
	}
	return -1
}

// fuzzRepairTypeDefs rewrites the hash of every TypeDef header in data
// that the decoder rejects for its hash, so that mutations inside TypeDef
// bodies reach the code behind the hash check (as fuzz_schema.c does).
// The hash: murmur3 x64 128 (seed 47) of the body and the header's low 12
// bits, shifted left by 12, negated when negative (spec/01-primitives.md).
func fuzzRepairTypeDefs(c *Context, data []byte) []byte {
	out := data
	for i := 0; i < 32; i++ {
		d, err := c.DecodeDoc(out)
		if err == nil {
			d.Free()
			return out
		}
		var we *WireError
		if !errors.As(err, &we) || we.Class != StatusName(21) { // WIRE_E_TYPEDEF
			return out
		}
		off := int(we.Offset)
		fixed, ok := typedefHeaderHash(out, off)
		if !ok || binary.LittleEndian.Uint64(out[off:]) == fixed {
			return out
		}
		if &out[0] == &data[0] {
			out = bytes.Clone(data)
		}
		binary.LittleEndian.PutUint64(out[off:], fixed)
	}
	return out
}

func typedefHeaderHash(data []byte, off int) (uint64, bool) {
	if off < 0 || off > len(data) || len(data)-off < 8 {
		return 0, false
	}
	header := binary.LittleEndian.Uint64(data[off:])
	if header&0xF00 != 0 {
		return 0, false
	}
	at := off + 8
	body := int(header & 0xFF)
	if body == 0xFF {
		extra, shift := 0, 0
		for {
			if at >= len(data) || shift > 28 {
				return 0, false
			}
			b := data[at]
			at++
			extra |= int(b&0x7F) << shift
			if b&0x80 == 0 {
				break
			}
			shift += 7
		}
		body += extra
	}
	if body > len(data)-at || body > 4096 {
		return 0, false
	}
	buf := make([]byte, body+2)
	copy(buf, data[at:at+body])
	buf[body] = byte(header)
	buf[body+1] = byte(header>>8) & 0x0F
	h, _ := murmur3x64(buf, 47)
	h <<= 12
	if int64(h) < 0 && h != 1<<63 {
		h = -h
	}
	h &= 0xFFFFFFFFFFFFF000
	return h | header&0xFFF, true
}

// murmur3x64 is MurmurHash3_x64_128.
func murmur3x64(data []byte, seed uint64) (uint64, uint64) {
	const c1, c2 = 0x87c37b91114253d5, 0x4cf5ad432745937f
	h1, h2 := seed, seed
	n := len(data) / 16
	for i := 0; i < n; i++ {
		k1 := binary.LittleEndian.Uint64(data[16*i:])
		k2 := binary.LittleEndian.Uint64(data[16*i+8:])
		k1 *= c1
		k1 = bits.RotateLeft64(k1, 31)
		k1 *= c2
		h1 ^= k1
		h1 = bits.RotateLeft64(h1, 27)
		h1 += h2
		h1 = h1*5 + 0x52dce729
		k2 *= c2
		k2 = bits.RotateLeft64(k2, 33)
		k2 *= c1
		h2 ^= k2
		h2 = bits.RotateLeft64(h2, 31)
		h2 += h1
		h2 = h2*5 + 0x38495ab5
	}
	tail := data[16*n:]
	var k1, k2 uint64
	for i := len(tail) - 1; i >= 8; i-- {
		k2 ^= uint64(tail[i]) << (8 * (i - 8))
	}
	if len(tail) > 8 {
		k2 *= c2
		k2 = bits.RotateLeft64(k2, 33)
		k2 *= c1
		h2 ^= k2
	}
	for i := min(len(tail), 8) - 1; i >= 0; i-- {
		k1 ^= uint64(tail[i]) << (8 * i)
	}
	if len(tail) > 0 {
		k1 *= c1
		k1 = bits.RotateLeft64(k1, 31)
		k1 *= c2
		h1 ^= k1
	}
	h1 ^= uint64(len(data))
	h2 ^= uint64(len(data))
	h1 += h2
	h2 += h1
	h1, h2 = fmix64(h1), fmix64(h2)
	h1 += h2
	h2 += h1
	return h1, h2
}

func fmix64(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}

// FuzzUnmarshalStruct: Unmarshal into one of fuzzStructs (picked by
// which), in schema-consistent and compatible mode, with and without
// reference tracking, through the compiled codecs or (fuzzForceTape) the
// tape path. In compatible mode the TypeDef hashes are repaired first.
// A value that decodes reads the same through the other path (when that
// path accepts the input), and re-encodes and decodes again into an
// equal value.
func FuzzUnmarshalStruct(f *testing.F) {
	for mode := uint8(0); mode < fuzzBaseModes; mode++ {
		c := fuzzContext(f, mode)
		for _, v := range fuzzSeedValues() {
			which := fuzzStructIndex(v)
			if which < 0 {
				continue
			}
			b, err := c.Marshal(v)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(mode, uint8(which), b)
			f.Add(mode|fuzzForceTape, uint8(which), b)
		}
		c.Close()
		which := uint8(fuzzStructIndex(&fuzzOpt{}))
		for _, b := range append(fuzzNullSeeds(f, mode), fuzzNewerSeeds(f, mode)...) {
			f.Add(mode, which, b)
			f.Add(mode|fuzzForceTape, which, b)
		}
	}
	f.Fuzz(fuzzUnmarshalStruct)
}

// fuzzUnmarshalStruct is FuzzUnmarshalStruct's check of one input.
func fuzzUnmarshalStruct(t *testing.T, mode, which uint8, data []byte) {
	mode %= fuzzModes
	mk := fuzzStructs[int(which)%len(fuzzStructs)]
	c := fuzzContext(t, mode)
	defer c.Close()
	if mode&fuzzCompatible != 0 {
		data = fuzzRepairTypeDefs(c, data)
	}
	target := mk()
	h := heapAllocated()
	err := c.Unmarshal(data, target)
	fuzzCheckHeap(t, "Unmarshal", h, data)
	fuzzCheckArena(t, c, data)
	if err != nil {
		fuzzCheckErr(t, err, data)
		return
	}
	fuzzOtherPath(t, mode, data, target, mk)
	fuzzReread(t, c, target, mk)
}

// TestMutantsOfTheBenchStructs runs FuzzUnmarshalStruct's checks on
// seeded mutants of the benchmark's structs (MediaContent, Sample,
// NumericStruct) in all four modes, through the compiled codecs and the
// tape path: go test runs a fuzz target's seeds only, so without this the
// mutants reach CI only through a -fuzz run. WIRE_MUTANTS=n sets the
// mutants per struct, mode and path.
func TestMutantsOfTheBenchStructs(t *testing.T) {
	n := 400
	if s := os.Getenv("WIRE_MUTANTS"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	edges := []byte{0x00, 0x01, 0x7f, 0x80, 0xff, 0xfe, 0xfd, 0xfc}
	r := rand.New(rand.NewSource(1))
	for mode := uint8(0); mode < fuzzBaseModes; mode++ {
		c := fuzzContext(t, mode)
		for _, v := range []any{benchMediaContent(), benchSample(), benchNumeric()} {
			good, err := c.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			which := uint8(fuzzStructIndex(v))
			for k := 0; k < 2*n; k++ {
				m := bytes.Clone(good)
				for j := 1 + r.Intn(3); j > 0; j-- {
					at := r.Intn(len(m))
					switch r.Intn(6) {
					case 0:
						m[at] = byte(r.Intn(256))
					case 1:
						m[at] = edges[r.Intn(len(edges))]
					case 2:
						m = m[:at]
					case 3:
						m = append(m[:at:at], m[min(len(m), at+1+r.Intn(4)):]...)
					case 4:
						ins := make([]byte, 1+r.Intn(4))
						r.Read(ins)
						m = append(m[:at:at], append(ins, m[at:]...)...)
					default:
						rep := m[at:min(len(m), at+1+r.Intn(16))]
						m = append(m[:at:at], append(bytes.Clone(rep), m[at:]...)...)
					}
					if len(m) == 0 {
						m = []byte{edges[r.Intn(len(edges))]}
					}
				}
				fuzzUnmarshalStruct(t, mode|uint8(k%2)*fuzzForceTape, which, m)
			}
		}
		c.Close()
	}
}

// fuzzOtherPath: what one struct path (compiled codecs or tape) read
// from data, the other path reads too when it accepts data (a null read
// into an element held by value included: TestMemNullElements). The
// paths may refuse different inputs (the tape path's limits and offsets);
// fuzzEqual's leniences (nil and empty slices, a nil Decimal and 0,
// NaNs) apply.
func fuzzOtherPath(t *testing.T, mode uint8, data []byte, target any, mk func() any) {
	o := fuzzContext(t, mode^fuzzForceTape)
	defer o.Close()
	other := mk()
	if o.Unmarshal(data, other) != nil {
		return
	}
	if !fuzzEqual(reflect.ValueOf(other).Elem(), reflect.ValueOf(target).Elem()) {
		t.Fatalf("%T reads otherwise through the other struct path (mode %d):\n%#v\n%#v", target, mode,
			reflect.ValueOf(target).Elem().Interface(), reflect.ValueOf(other).Elem().Interface())
	}
}

// FuzzDecodeDoc: the document API (DecodeDoc) and every accessor of every
// node reachable from the roots; a document that decodes encodes back to
// the input byte for byte (README: decode then encode reproduces it).
func FuzzDecodeDoc(f *testing.F) {
	fuzzSeeds(f, func(mode uint8, b []byte) { f.Add(mode, b) })
	f.Fuzz(func(t *testing.T, mode uint8, data []byte) {
		mode %= fuzzBaseModes
		c := fuzzContext(t, mode)
		defer c.Close()
		d, err := c.DecodeDoc(data)
		if err != nil {
			fuzzCheckErr(t, err, data)
			return
		}
		defer d.Free()
		seen := map[Node]bool{}
		for i := 0; i < d.RootCount(); i++ {
			fuzzWalk(t, d, d.Root(i), seen, 0)
		}
		out, err := d.Encode()
		if err != nil {
			t.Fatalf("a decoded document does not encode: %v", err)
		}
		if !bytes.Equal(out, data) {
			t.Fatalf("re-encoded to other bytes:\n%x\n%x", data, out)
		}
	})
}

// FuzzDocAdd: the document API's other readers of caller bytes, a tape
// (Doc.AddTape, kind bit 0 clear) and the value notation (Doc.AddNotation;
// kind bit 1: NotationRefit). A document they build either fails to
// encode with a *WireError or encodes to bytes that decode (DecodeDoc)
// and encode again to the same bytes.
func FuzzDocAdd(f *testing.F) {
	for mode := uint8(0); mode < fuzzBaseModes; mode++ {
		c := fuzzContext(f, mode)
		for _, v := range fuzzSeedValues() {
			tape, err := c.Tape(v)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(mode, uint8(0), tape)
			b, err := c.Marshal(v)
			if err != nil {
				f.Fatal(err)
			}
			d, err := c.DecodeDoc(b)
			if err != nil {
				f.Fatal(err)
			}
			text, err := d.Notation(d.Root(0), 0)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(mode, uint8(1), text)
			d.Free()
		}
		c.Close()
	}
	f.Fuzz(func(t *testing.T, mode, kind uint8, data []byte) {
		mode %= fuzzBaseModes
		c := fuzzContext(t, mode)
		defer c.Close()
		d, err := c.NewDoc()
		if err != nil {
			t.Fatal(err)
		}
		defer d.Free()
		if kind&1 == 0 {
			err = d.AddTape(data)
		} else {
			err = d.AddNotation(data, int(kind&2)<<2) // NotationRefit
		}
		if err != nil {
			fuzzCheckErr(t, err, data)
			return
		}
		out, err := d.Encode()
		if err != nil {
			fuzzCheckClass(t, err)
			return
		}
		back, err := c.DecodeDoc(out)
		if err != nil {
			t.Fatalf("the encoded document does not decode: %v", err)
		}
		defer back.Free()
		again, err := back.Encode()
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("decoded and encoded again to other bytes (%v)", err)
		}
	})
}

// fuzzWalk calls every read accessor of n and of the nodes below it.
func fuzzWalk(t *testing.T, d *Doc, n Node, seen map[Node]bool, depth int) {
	if !n.Valid() || seen[n] || depth > 10000 {
		return
	}
	seen[n] = true
	_ = n.Type()
	_, _, _, _, _ = n.Int(), n.Uint(), n.FloatBits(), n.Float(), n.Nanos()
	_, _, _ = n.Bytes(), n.StringEncoding(), n.Text()
	_, _ = n.DecimalNegative(), n.DecimalScale()
	_, _, _ = n.EnumTypeID(), n.EnumValue(), n.EnumNamespace()
	_, _ = n.Tracked(), n.ListHeader()
	_ = n.Chunks()
	_, _, _ = n.NameEncodings()
	_, _ = n.NameHashForms()
	_, _, _ = n.NameRefs()
	_, _ = n.UserType()
	_, _, _ = n.TypeNames()
	_, _, _ = n.UserTypeID(), n.TypeDef(), n.TypeDefID()
	_, _ = n.UnionCase(), n.Index()
	if _, err := d.Notation(n, 0); err != nil {
		fuzzCheckErr(t, err, nil)
	}
	count := n.Count()
	for i := 0; i < count; i++ {
		fuzzWalk(t, d, n.Child(i), seen, depth+1)
		fuzzWalk(t, d, n.MapKey(i), seen, depth+1)
		fuzzWalk(t, d, n.MapValue(i), seen, depth+1)
		fuzzWalk(t, d, n.Field(i), seen, depth+1)
		_, _ = n.FieldName(i)
		_ = n.FieldTag(i)
	}
	fuzzWalk(t, d, n.UnionValue(), seen, depth+1)
}

// fuzzEqual is looseEqual for fuzzed values: floats compare NaN = NaN,
// big.Int by value (nil = 0), interfaces by their dynamic values, map keys by
// value when they are pointers, and shared or cyclic values terminate.
func fuzzEqual(a, b reflect.Value) bool {
	return fuzzEq(a, b, map[[3]uintptr]bool{})
}

func fuzzEq(a, b reflect.Value, seen map[[3]uintptr]bool) bool {
	if !a.IsValid() || !b.IsValid() {
		return a.IsValid() == b.IsValid()
	}
	if a.Type() != b.Type() {
		return false
	}
	switch a.Kind() {
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return fuzzEq(a.Elem(), b.Elem(), seen)
	case reflect.Pointer:
		if a.Type() == reflect.TypeOf((*big.Int)(nil)) {
			// a Decimal's nil Unscaled is 0 (the zero Decimal of a
			// struct read as null is written back as 0)
			x, y := a.Interface().(*big.Int), b.Interface().(*big.Int)
			return (x == nil && (y == nil || y.Sign() == 0)) || (y == nil && x.Sign() == 0) ||
				(x != nil && y != nil && x.Cmp(y) == 0)
		}
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		k := [3]uintptr{a.Pointer(), b.Pointer(), 1}
		if seen[k] {
			return true
		}
		seen[k] = true
		return fuzzEq(a.Elem(), b.Elem(), seen)
	case reflect.Slice:
		if a.Len() != b.Len() {
			return false
		}
		if a.Len() == 0 {
			return true
		}
		k := [3]uintptr{a.Pointer(), b.Pointer(), uintptr(a.Len())}
		if seen[k] {
			return true
		}
		seen[k] = true
		fallthrough
	case reflect.Array:
		for i := 0; i < a.Len(); i++ {
			if !fuzzEq(a.Index(i), b.Index(i), seen) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		if a.Len() == 0 {
			return true
		}
		k := [3]uintptr{a.Pointer(), b.Pointer(), 2}
		if seen[k] {
			return true
		}
		seen[k] = true
		var rest []reflect.Value // keys of a not found by lookup in b
		for _, key := range a.MapKeys() {
			bv := b.MapIndex(key)
			if !bv.IsValid() {
				rest = append(rest, key)
				continue
			}
			if !fuzzEq(a.MapIndex(key), bv, seen) {
				return false
			}
		}
		if len(rest) == 0 {
			return true
		}
		// keys held by pointer, NaN keys: match them by value
		used := map[int]bool{}
		bkeys := b.MapKeys()
	next:
		for _, key := range rest {
			for j, bk := range bkeys {
				if !used[j] && !a.MapIndex(bk).IsValid() && fuzzEq(key, bk, seen) &&
					fuzzEq(a.MapIndex(key), b.MapIndex(bk), seen) {
					used[j] = true
					continue next
				}
			}
			return false
		}
		return true
	case reflect.Struct:
		if a.Type() == typTime {
			return a.Interface().(time.Time).Equal(b.Interface().(time.Time))
		}
		for i := 0; i < a.NumField(); i++ {
			if a.Type().Field(i).IsExported() && !fuzzEq(a.Field(i), b.Field(i), seen) {
				return false
			}
		}
		return true
	case reflect.Float32, reflect.Float64:
		x, y := a.Float(), b.Float()
		return x == y || (math.IsNaN(x) && math.IsNaN(y))
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.String:
		return a.String() == b.String()
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}

// The hash repair of the fuzz targets gives back a valid payload whose
// TypeDef hash was damaged (so murmur3x64 and the header rules are right).
func TestFuzzRepairTypeDefs(t *testing.T) {
	c := fuzzContext(t, fuzzCompatible)
	defer c.Close()
	good, err := c.Marshal(memValue())
	if err != nil {
		t.Fatal(err)
	}
	repaired := 0
	for i := 0; i+8 <= len(good); i++ {
		b := bytes.Clone(good)
		b[i+3] ^= 0x10 // hash bits only (bits 12-63 of the header)
		_, err := c.DecodeDoc(b)
		var we *WireError
		if !errors.As(err, &we) || we.Class != StatusName(21) || we.Offset != uint64(i) {
			continue
		}
		if fixed := fuzzRepairTypeDefs(c, b); !bytes.Equal(fixed, good) {
			t.Fatalf("TypeDef at %d: not repaired", i)
		}
		repaired++
	}
	if repaired == 0 {
		t.Fatal("no TypeDef hash was found to repair")
	}
}

// fuzzSmallItems is a memMany of n items as a compatible writer whose
// version of memAll has one bool field writes it (one byte or so per item).
func fuzzSmallItems(tb testing.TB, n int) []byte {
	type memAllSmall struct{ B bool }
	type memManySmall struct{ Items []memAllSmall }
	w, err := NewContext(WithCompatible(true))
	if err != nil {
		tb.Fatal(err)
	}
	defer w.Close()
	if err := w.RegisterStructID(401, memAllSmall{}); err != nil {
		tb.Fatal(err)
	}
	if err := w.RegisterStructID(410, memManySmall{}); err != nil {
		tb.Fatal(err)
	}
	data, err := w.Marshal(&memManySmall{Items: make([]memAllSmall, n)})
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// The worst case the heap bound allows for: in compatible mode a writer
// whose version of memAll has one bool field sends a list of them, two
// bytes or so each; the reader makes a whole memAll per element (and its
// image in C memory). Both stay within the fuzz targets' bounds.
func TestFuzzStructAmplification(t *testing.T) {
	data := fuzzSmallItems(t, 20000)
	// the default limit refuses it: a limit error inside the input, and
	// the arena grown no further than the limit allows
	c := fuzzContext(t, fuzzCompatible)
	defer c.Close()
	var back memMany
	err := c.Unmarshal(data, &back)
	var we *WireError
	if !errors.As(err, &we) || we.Class != "limit" || we.Offset > uint64(len(data)) {
		t.Fatalf("default limit: %v", err)
	}
	if !strings.Contains(we.Message, "WIRE_LIMIT_MEM_DECODE") {
		t.Fatalf("message: %q", we.Message)
	}
	fuzzCheckArena(t, c, data)
	// raised, it decodes
	const raised = 2048
	if err := c.SetLimit(LimitMemDecode, raised); err != nil {
		t.Fatal(err)
	}
	if err := c.Unmarshal(data, &back); err != nil || len(back.Items) != 20000 {
		t.Fatalf("%d items, %v", len(back.Items), err)
	}
	h := heapAllocated()
	if err := c.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	used := heapAllocated() - h
	perByte := float64(used) / float64(len(data))
	arena := float64(c.s.arena_cap) / float64(len(data))
	arenaUsed := float64(c.s.arena_used) / float64(len(data))
	t.Logf("%d bytes: Go heap %.0f B/B, arena %.0f B/B (%.0f used; sizeof memAll %d; limit %d B/B + constants)",
		len(data), perByte, arena, arenaUsed, reflect.TypeOf(memAll{}).Size(), raised)
	if arenaUsed <= float64(fuzzMemLimit) {
		t.Fatalf("the payload takes %.0f B/B, within the default limit %d: no amplification to test", arenaUsed, fuzzMemLimit)
	}
	fuzzCheckHeapAt(t, "Unmarshal", h, data, raised)
	fuzzCheckArena(t, c, data)
	// and back at the default, refused again
	if err := c.SetLimit(LimitMemDecode, fuzzMemLimit); err != nil {
		t.Fatal(err)
	}
	if err := c.Unmarshal(data, &back); !errors.As(err, &we) || we.Class != "limit" {
		t.Fatalf("limit restored: %v", err)
	}
}

// TestTapeStructAmplification: TestFuzzStructAmplification's payload (a
// compatible writer's one-bool struct, one byte per list item) read
// through the tape path (the forced tape path of FuzzUnmarshalStruct, and
// Decode's natural values): the reader's structs are charged against the
// same LimitMemDecode budget as the compiled codecs' arena, so the default
// refuses it with a limit error at offset 0 and a raised limit reads it.
func TestTapeStructAmplification(t *testing.T) {
	const items = 40000
	data := fuzzSmallItems(t, items)
	size := uint64(reflect.TypeOf(memAll{}).Size())
	if budget := fuzzMemLimit*uint64(len(data)) + memDecodeBase; size*items <= budget {
		t.Fatalf("%d structs of %d bytes fit the default budget %d: no amplification to test", items, size, budget)
	}
	ways := []struct {
		name string
		read func(c *Context) (int, error)
	}{
		{"Unmarshal forced tape", func(c *Context) (int, error) {
			var back memMany
			err := c.Unmarshal(data, &back)
			return len(back.Items), err
		}},
		{"Decode", func(c *Context) (int, error) {
			vals, err := c.Decode(data)
			if err != nil {
				return 0, err
			}
			m, ok := vals[0].(*memMany)
			if !ok {
				return 0, fmt.Errorf("decoded %T", vals[0])
			}
			for _, it := range m.Items {
				if it.B || it.I64 != 0 {
					return 0, fmt.Errorf("item %+v", it)
				}
			}
			return len(m.Items), nil
		}},
	}
	// a struct made on its own per item: charged one by one
	type memManyPtrs struct{ Items []*memAll }
	ways = append(ways, struct {
		name string
		read func(c *Context) (int, error)
	}{"Unmarshal []*T", func(c *Context) (int, error) {
		var back memManyPtrs
		err := c.Unmarshal(data, &back)
		return len(back.Items), err
	}})
	for i, way := range ways {
		c := fuzzContext(t, fuzzCompatible|fuzzForceTape)
		if i == 2 {
			c.Close()
			c, _ = NewContext(WithCompatible(true))
			c.forceTape = true
			memRegister(t, c)
			if err := c.RegisterStructID(410, memManyPtrs{}); err != nil {
				t.Fatal(err)
			}
		}
		h := heapAllocated()
		_, err := way.read(c)
		var we *WireError
		if !errors.As(err, &we) || we.Class != "limit" || we.Offset == 0 || we.Offset >= uint64(len(data)) ||
			!strings.Contains(we.Message, "WIRE_LIMIT_MEM_DECODE") {
			t.Fatalf("%s, default limit: %v", way.name, err)
		}
		fuzzCheckHeap(t, way.name, h, data)
		const raised = 2048
		if err := c.SetLimit(LimitMemDecode, raised); err != nil {
			t.Fatal(err)
		}
		if n, err := way.read(c); err != nil || n != items {
			t.Fatalf("%s, limit %d: %d items, %v", way.name, raised, n, err)
		}
		c.Close()
	}
}
