package wire

import (
	"bytes"
	"fmt"
	"math/big"
	"reflect"
	"strings"
	"testing"
	"time"
)

// Registration checks each Go field type against the FDL field it binds
// (bind.go). For every FDL field type, a one-field message is bound to
// Go structs whose field F has each Go type of a set: the good ones must
// register, write the same bytes on every encode path (Marshal through the
// compiled codecs when the type has them, Marshal forced onto the tape
// path, MarshalAll, and the tape path by field names), the same bytes as
// each other (they hold the same wire value), and read back into an equal
// value on every decode path; the bad ones (the nearest wrong Go types)
// must be refused by RegisterStruct with a schema error naming the field.

type bLeaf struct{ A int32 }
type bOther struct{ A int32 }
type bColor int32
type bIn struct{ A, C int32 } // b.In: a Color held as an int32, numbers only (one run)

const bindFDL = `package b;
enum Color [id=4000] { RED = 0; GREEN = 1; BLUE = 2; }
union U [id=4001] { string s = 1; int32 i = 2; }
message Leaf [id=4002] { int32 a = 1; }
message Other [id=4003] { int32 a = 1; }
enum Sparse [id=4004] { S1 = 1; S5 = 5; S1000 = 1000; }
message In [id=4005] { int32 a = 1; Color c = 2; }
`

func ptr[T any](v T) *T       { return &v }
func ty[T any]() reflect.Type { return reflect.TypeOf((*T)(nil)).Elem() }

type bindCase struct {
	decl string // the field's FDL type and options: "list<int32> f = 1 [wire_set = true]" without name and number
	good []any  // values of Go types that bind it, all holding the same wire value
	bad  []reflect.Type
}

func bindCases() []bindCase {
	red := Enum{Type: "b.Color", TypeID: noType, Value: 1}
	dec := Decimal{Unscaled: big.NewInt(-34999), Scale: 2}
	tm := time.Unix(1700000000, 123456789)
	return []bindCase{
		{"bool", []any{true, asAny{true}}, []reflect.Type{ty[*bool](), ty[int8](), ty[uint8](), ty[string](), ty[Enum](), ty[[]bool]()}},
		{"int8", []any{int8(-7)}, []reflect.Type{ty[*int8](), ty[int16](), ty[uint8](), ty[bool](), ty[int32](), ty[Enum]()}},
		{"int16", []any{int16(-300)}, []reflect.Type{ty[int8](), ty[int32](), ty[uint16](), ty[Float16]()}},
		{"int32", []any{int32(-70000), bColor(-70000), asAny{int32(-70000)}},
			[]reflect.Type{ty[int64](), ty[int](), ty[uint32](), ty[int16](), ty[float32](), ty[Enum](), ty[*int64](), ty[**int32](), ty[fmt.Stringer](), ty[*int32]()}},
		{"fixed int32", []any{int32(-70000)}, []reflect.Type{ty[int64](), ty[uint32]()}},
		{"int64", []any{int64(-1 << 40), int(-1 << 40), asAny{int64(-1 << 40)}},
			[]reflect.Type{ty[int32](), ty[uint64](), ty[time.Duration](), ty[Date](), ty[float64]()}},
		{"fixed int64", []any{int64(-1 << 40), int(-1 << 40)}, []reflect.Type{ty[int32](), ty[uint64]()}},
		{"tagged int64", []any{int64(-1 << 40), int(-1 << 40)}, []reflect.Type{ty[int32](), ty[uint64]()}},
		{"uint8", []any{uint8(200)}, []reflect.Type{ty[int8](), ty[uint16](), ty[bool]()}},
		{"uint16", []any{uint16(60000)}, []reflect.Type{ty[int16](), ty[uint32](), ty[Float16](), ty[BFloat16]()}},
		{"uint32", []any{uint32(4000000000)}, []reflect.Type{ty[int32](), ty[uint64](), ty[int64]()}},
		{"fixed uint32", []any{uint32(4000000000)}, []reflect.Type{ty[int32](), ty[uint64]()}},
		{"uint64", []any{uint64(1<<63 + 5), uint(1<<63 + 5)}, []reflect.Type{ty[int64](), ty[uint32]()}},
		{"fixed uint64", []any{uint64(1<<63 + 5)}, []reflect.Type{ty[int64](), ty[uint32]()}},
		{"tagged uint64", []any{uint64(1<<63 + 5)}, []reflect.Type{ty[int64](), ty[uint32]()}},
		{"float16", []any{Float16(0x3e00)}, []reflect.Type{ty[uint16](), ty[float32](), ty[BFloat16]()}},
		{"bfloat16", []any{BFloat16(0x3fc0)}, []reflect.Type{ty[uint16](), ty[Float16](), ty[float32]()}},
		{"float32", []any{float32(1.5)}, []reflect.Type{ty[float64](), ty[int32](), ty[Float16](), ty[uint32]()}},
		{"float64", []any{float64(2.25)}, []reflect.Type{ty[float32](), ty[int64](), ty[uint64]()}},
		{"string", []any{"héllo"}, []reflect.Type{ty[*string](), ty[[]byte](), ty[[]int32](), ty[int32](), ty[Enum]()}},
		{"optional string", []any{"x", ptr("x")}, []reflect.Type{ty[[]byte](), ty[*[]byte]()}},
		{"bytes", []any{[]byte{1, 2, 255}}, []reflect.Type{ty[string](), ty[[]int8](), ty[[3]byte](), ty[[]uint16](), ty[[]any]()}},
		{"date", []any{Date(19000)}, []reflect.Type{ty[int64](), ty[time.Time](), ty[int32]()}},
		{"timestamp", []any{tm}, []reflect.Type{ty[*time.Time](), ty[Date](), ty[int64](), ty[time.Duration]()}},
		{"optional timestamp", []any{tm, ptr(tm)}, []reflect.Type{ty[*int64]()}},
		{"duration", []any{90*time.Second + 5}, []reflect.Type{ty[int64](), ty[time.Time]()}},
		{"decimal", []any{dec}, []reflect.Type{ty[*Decimal](), ty[float64](), ty[string](), ty[big.Int](), ty[*big.Int]()}},
		{"Color", []any{int32(1), red, bColor(1), uint8(1), int64(1)},
			[]reflect.Type{ty[bool](), ty[string](), ty[float32](), ty[Date](), ty[Float16](), ty[Union](), ty[[]int32]()}},
		{"optional Color", []any{int32(1), ptr(int32(1)), red}, []reflect.Type{ty[string]()}},
		{"Sparse", []any{int32(1000), uint16(1000), Enum{Type: "b.Sparse", TypeID: noType, Value: 1000}, anyHeld{int32(1000), true}}, []reflect.Type{ty[string](), ty[bool]()}},
		{"list<Sparse>", []any{[]int32{5, 1, 1000}, []Enum{{Type: "b.Sparse", TypeID: noType, Value: 5}, {Type: "b.Sparse", TypeID: noType, Value: 1}, {Type: "b.Sparse", TypeID: noType, Value: 1000}}}, []reflect.Type{ty[[]string]()}},
		{"In", []any{bIn{3, 2}, &bIn{3, 2}}, []reflect.Type{ty[bLeaf]()}},
		{"list<In>", []any{[]bIn{{3, 2}, {4, 0}}, []*bIn{{3, 2}, {4, 0}}}, []reflect.Type{ty[[]bLeaf]()}},
		{"U", []any{Union{Type: "b.U", Case: 1, Value: "yes"}}, []reflect.Type{ty[Enum](), ty[string](), ty[bLeaf]()}},
		{"Leaf", []any{bLeaf{3}, &bLeaf{3}}, []reflect.Type{ty[bOther](), ty[*bOther](), ty[int32](), ty[[]bLeaf](), ty[Enum]()}},
		{"Leaf f = 1 [nullable = false]", []any{bLeaf{3}, &bLeaf{3}}, []reflect.Type{ty[bOther]()}},
		{"any", []any{asAny{int64(5)}}, []reflect.Type{ty[int64](), ty[string](), ty[bLeaf]()}},
		{"optional int32", []any{int32(5), ptr(int32(5))}, []reflect.Type{ty[*int64](), ty[int64]()}},
		{"optional bool", []any{true, ptr(true)}, []reflect.Type{ty[*int8]()}},
		{"optional decimal", []any{dec, ptr(dec)}, []reflect.Type{ty[*float64]()}},
		{"optional list<int32>", []any{[]int32{1}, ptr([]int32{1})}, []reflect.Type{ty[*[]int64]()}},
		{"optional map<string, int32>", []any{map[string]int32{"k": 1}, ptr(map[string]int32{"k": 1})}, []reflect.Type{ty[*map[string]int64]()}},
		{"list<fixed int32>", []any{[]int32{1, -2}}, []reflect.Type{ty[[]int64](), ty[[]uint32]()}},
		{"list<tagged int64>", []any{[]int64{1 << 40}}, []reflect.Type{ty[[]int32]()}},
		{"map<fixed uint32, fixed int64>", []any{map[uint32]int64{7: -1 << 40}}, []reflect.Type{ty[map[int32]int64]()}},
		// lists
		{"list<int32>", []any{[]int32{1, -2}, [2]int32{1, -2}, []any{int32(1), int32(-2)}, anyHeld{[]int32{1, -2}, true}},
			[]reflect.Type{ty[[]int64](), ty[[]uint32](), ty[[]int16](), ty[[]Enum](), ty[[]string](), ty[Set](), ty[int32](), ty[map[int32]bool](), ty[[]byte](), ty[*[]int32](), ty[[]*int32]()}},
		{"list<int8>", []any{[]int8{-1, 2}}, []reflect.Type{ty[[]byte](), ty[[]int16]()}},
		{"list<uint8>", []any{[]uint8{1, 200}}, []reflect.Type{ty[[]int8](), ty[string]()}},
		{"list<int16>", []any{[]int16{-300, 2}}, []reflect.Type{ty[[]uint16](), ty[[]int32]()}},
		{"list<uint16>", []any{[]uint16{60000}}, []reflect.Type{ty[[]Float16](), ty[[]int16]()}},
		{"list<int64>", []any{[]int64{1 << 40}, []int{1 << 40}}, []reflect.Type{ty[[]int32](), ty[[]uint64](), ty[[]time.Duration]()}},
		{"list<uint64>", []any{[]uint64{1 << 63}, []uint{1 << 63}}, []reflect.Type{ty[[]int64]()}},
		{"list<bool>", []any{[]bool{true, false}}, []reflect.Type{ty[[]uint8](), ty[[]int8]()}},
		{"list<float32>", []any{[]float32{1.5}}, []reflect.Type{ty[[]float64](), ty[[]int32]()}},
		{"list<float64>", []any{[]float64{0.25}}, []reflect.Type{ty[[]float32](), ty[[]int64]()}},
		{"list<float16>", []any{[]Float16{0x3c00}}, []reflect.Type{ty[[]uint16]()}},
		{"list<string>", []any{[]string{"a", "bc"}, [2]string{"a", "bc"}, []any{"a", "bc"}}, []reflect.Type{ty[[][]byte](), ty[[]int32](), ty[Set](), ty[string]()}},
		{"list<date>", []any{[]Date{1, 2}}, []reflect.Type{ty[[]int64]()}},
		{"list<timestamp>", []any{[]time.Time{tm}}, []reflect.Type{ty[[]int64](), ty[[]Date]()}},
		{"list<optional timestamp>", []any{[]time.Time{tm}, []*time.Time{&tm}}, []reflect.Type{ty[[]*int64]()}},
		{"list<decimal>", []any{[]Decimal{dec}}, []reflect.Type{ty[[]float64]()}},
		{"list<optional int32>", []any{[]int32{4}, []*int32{ptr(int32(4))}}, []reflect.Type{ty[[]*int64]()}},
		// pointers to numbers as list items: the Go stride is a pointer's
		{"list<optional int32>", []any{[]*int32{ptr(int32(4)), nil, ptr(int32(-5))}}, nil},
		{"list<optional bool>", []any{[]*bool{ptr(true), ptr(false), nil, ptr(true)}}, nil},
		{"list<optional Color>", []any{[]*int32{ptr(int32(2)), nil, ptr(int32(0))}, []*uint8{ptr(uint8(2)), nil, ptr(uint8(0))}}, nil},
		{"list<Color>", []any{[]int32{1, 2}, []Enum{red, {Type: "b.Color", TypeID: noType, Value: 2}}, []int64{1, 2}, []bColor{1, 2}, []uint16{1, 2}},
			[]reflect.Type{ty[[]string](), ty[[]bool](), ty[[]float32](), ty[[]Date](), ty[[]Float16](), ty[[]Union]()}},
		{"list<Leaf>", []any{[]bLeaf{{1}, {2}}, []*bLeaf{{1}, {2}}}, []reflect.Type{ty[[]bOther](), ty[[]*bOther](), ty[[]int32](), ty[bLeaf]()}},
		{"list<U>", []any{[]Union{{Type: "b.U", Case: 2, Value: int32(7)}}}, []reflect.Type{ty[[]Enum](), ty[[]int32]()}},
		{"list<list<int32>>", []any{[][]int32{{1}, {2, 3}}, anyHeld{[]any{[]int32{1}, []int32{2, 3}}, false}, anyHeld{[]any{[]any{int32(1)}, []int32{2, 3}}, false}, anyHeld{[][]int32{{1}, {2, 3}}, true}}, []reflect.Type{ty[[][]int64](), ty[[]int32](), ty[[][]uint32]()}},
		{"list<array<int32>>", []any{[][]int32{{1}, {2, 3}}}, []reflect.Type{ty[[][]int64](), ty[[][]float32]()}},
		{"list<map<string, int32>>", []any{[]map[string]int32{{"a": 1}}}, []reflect.Type{ty[[]map[string]int64](), ty[[]map[int32]int32]()}},
		{"list<string> f = 1 [wire_set = true]", []any{[]string{"a", "b"}, Set{"a", "b"}}, []reflect.Type{ty[[]int32](), ty[map[string]bool](), ty[[][]byte]()}},
		{"list<int32> f = 1 [wire_set = true]", []any{[]int32{3, 4}, Set{int32(3), int32(4)}}, []reflect.Type{ty[[]int64](), ty[map[int32]struct{}]()}},
		{"optional list<optional string> f = 1 [wire_set = true]", []any{[]string{"a"}, []*string{ptr("a")}, Set{"a"}}, []reflect.Type{ty[[]int32]()}},
		// maps
		{"map<string, int32>", []any{map[string]int32{"k": -1}, map[string]any{"k": int32(-1)}},
			[]reflect.Type{ty[map[string]*int32](), ty[map[string]int64](), ty[map[int32]int32](), ty[map[string]uint32](), ty[[]int32]()}},
		{"map<string, optional int32>", []any{map[string]int32{"k": -1}, map[string]*int32{"k": ptr(int32(-1))}}, []reflect.Type{ty[map[string]*int64]()}},
		{"map<int32, string>", []any{map[int32]string{7: "v"}}, []reflect.Type{ty[map[int64]string](), ty[map[uint32]string](), ty[map[int32][]byte]()}},
		{"map<string, Color>", []any{map[string]int32{"k": 2}, map[string]Enum{"k": {Type: "b.Color", TypeID: noType, Value: 2}}}, []reflect.Type{ty[map[string]string](), ty[map[string]bool]()}},
		{"map<Color, string>", []any{map[int32]string{2: "v"}, map[Enum]string{{Type: "b.Color", TypeID: noType, Value: 2}: "v"}}, []reflect.Type{ty[map[string]string](), ty[map[float32]string]()}},
		{"map<string, list<int32>>", []any{map[string][]int32{"k": {1, 2}}, anyHeld{map[string]any{"k": []int32{1, 2}}, false}}, []reflect.Type{ty[map[string][]int64](), ty[map[string]int32]()}},
		{"map<string, list<Color>>", []any{map[string][]int32{"k": {1, 2}}, map[string][]Enum{"k": {red, {Type: "b.Color", TypeID: noType, Value: 2}}}}, []reflect.Type{ty[map[string][]string]()}},
		{"map<string, Leaf>", []any{map[string]bLeaf{"k": {5}}, map[string]*bLeaf{"k": {5}}}, []reflect.Type{ty[map[string]bOther](), ty[map[string]int32]()}},
		{"map<string, map<string, int64>>", []any{map[string]map[string]int64{"k": {"j": 9}}}, []reflect.Type{ty[map[string]map[string]int32](), ty[map[string]int64]()}},
		{"map<string, timestamp>", []any{map[string]time.Time{"k": tm}}, []reflect.Type{ty[map[string]int64]()}},
		// a nil slice or map item where no null is declared: empty on
		// every path (a nil item declared optional: null)
		{"list<list<int32>>", []any{[][]int32{nil, {1}}, [][]int32{{}, {1}}, anyHeld{[]any{[]int32(nil), []int32{1}}, false}}, nil},
		{"list<array<int32>>", []any{[][]int32{nil}, [][]int32{{}}}, nil},
		{"list<bytes>", []any{[][]byte{nil}, [][]byte{{}}}, nil},
		{"list<list<string>> f = 1 [wire_set = true]", []any{[][]string{nil}, [][]string{{}}}, nil},
		{"list<map<string, int32>>", []any{[]map[string]int32{nil}, []map[string]int32{{}}}, nil},
		{"map<string, list<string>>", []any{map[string][]string{"a": nil}, map[string][]string{"a": {}}, anyHeld{map[string]any{"a": []string(nil)}, false}}, nil},
		{"map<string, bytes>", []any{map[string][]byte{"a": nil}, map[string][]byte{"a": {}}}, nil},
		{"map<string, map<string, int64>>", []any{map[string]map[string]int64{"k": nil}, map[string]map[string]int64{"k": {}}}, nil},
		{"list<optional list<int32>>", []any{[][]int32{nil}, []*[]int32{nil}}, nil},
		{"map<string, optional list<string>>", []any{map[string][]string{"a": nil}, map[string]*[]string{"a": nil}}, nil},
		// dense arrays
		{"array<int32>", []any{[]int32{1, -2}, [2]int32{1, -2}}, []reflect.Type{ty[[]int64](), ty[[]uint32](), ty[[]float32](), ty[[]bColor](), ty[[]Enum](), ty[int32]()}},
		{"array<int64>", []any{[]int64{1 << 40}, []int{1 << 40}}, []reflect.Type{ty[[]uint64](), ty[[]float64](), ty[[]int32]()}},
		{"array<uint8>", []any{[]byte{1, 200}}, []reflect.Type{ty[[]int8](), ty[string]()}},
		{"array<int8>", []any{[]int8{-1, 2}}, []reflect.Type{ty[[]uint8](), ty[[]bool]()}},
		{"array<bool>", []any{[]bool{true, false}}, []reflect.Type{ty[[]uint8](), ty[[]int8]()}},
		{"array<int16>", []any{[]int16{-2}}, []reflect.Type{ty[[]uint16](), ty[[]Float16]()}},
		{"array<uint16>", []any{[]uint16{60000}}, []reflect.Type{ty[[]int16](), ty[[]Float16](), ty[[]BFloat16]()}},
		{"array<uint32>", []any{[]uint32{4000000000}}, []reflect.Type{ty[[]int32](), ty[[]float32]()}},
		{"array<uint64>", []any{[]uint64{1 << 63}, []uint{1 << 63}}, []reflect.Type{ty[[]int64](), ty[[]float64]()}},
		{"array<float16>", []any{[]Float16{0x3c00}}, []reflect.Type{ty[[]uint16](), ty[[]BFloat16]()}},
		{"array<bfloat16>", []any{[]BFloat16{0x3f80}}, []reflect.Type{ty[[]uint16](), ty[[]Float16]()}},
		{"array<float32>", []any{[]float32{1.5}}, []reflect.Type{ty[[]int32](), ty[[]uint32](), ty[[]float64]()}},
		{"array<float64>", []any{[]float64{0.25}}, []reflect.Type{ty[[]int64](), ty[[]uint64](), ty[[]float32]()}},
	}
}

// bindStruct makes a struct type with one exported field F of type ft.
func bindStruct(ft reflect.Type) reflect.Type {
	return reflect.StructOf([]reflect.StructField{{Name: "F", Type: ft}})
}

func bindSchema(decl string) string {
	if !strings.Contains(decl, " f = 1") {
		decl += " f = 1"
	}
	return bindFDL + "message M [id=4010] { " + decl + "; }\n"
}

func bindContext(t *testing.T, decl string, compat, ref bool) *Context {
	t.Helper()
	c, err := NewContext(WithCompatible(compat), WithRefTracking(ref))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.LoadSchemaText("b.fdl", bindSchema(decl)); err != nil {
		t.Fatalf("%s: %v", decl, err)
	}
	if err := c.RegisterStruct("b.Leaf", bLeaf{}); err != nil {
		t.Fatal(err)
	}
	if err := c.RegisterStruct("b.Other", bOther{}); err != nil {
		t.Fatal(err)
	}
	if err := c.RegisterStruct("b.In", bIn{}); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestBindFDLFieldTypes(t *testing.T) {
	for _, tc := range bindCases() {
		for _, bt := range tc.bad {
			c := bindContext(t, tc.decl, false, false)
			err := c.RegisterStruct("b.M", reflect.New(bindStruct(bt)).Elem().Interface())
			we, ok := err.(*WireError)
			if !ok || we.Class != "schema" || !strings.Contains(we.Message, "field F ") {
				t.Errorf("%s bound to a Go %s: %v, want a schema error naming field F", tc.decl, bt, err)
			}
			c.Close()
		}
		for _, compat := range []bool{false, true} {
			for _, ref := range []bool{false, true} {
				bindRoundTrip(t, tc, compat, ref)
			}
		}
	}
}

// bindRoundTrip checks the good Go types of tc in one mode.
func bindRoundTrip(t *testing.T, tc bindCase, compat, ref bool) {
	t.Helper()
	var first []byte
	var firstType reflect.Type
	for _, g := range tc.good {
		gt := reflect.TypeOf(g)
		if a, ok := g.(asAny); ok {
			g, gt = a.v, typAny
		}
		h, held := g.(anyHeld)
		if held {
			g, gt = h.v, reflect.TypeOf(h.v)
			if h.field {
				gt = typAny
			}
		}
		st := bindStruct(gt)
		name := fmt.Sprintf("%s as %s (compatible=%v ref=%v)", tc.decl, gt, compat, ref)
		c := bindContext(t, tc.decl, compat, ref)
		if err := c.RegisterStruct("b.M", reflect.New(st).Elem().Interface()); err != nil {
			t.Errorf("%s: %v", name, err)
			c.Close()
			continue
		}
		v := reflect.New(st)
		v.Elem().Field(0).Set(reflect.ValueOf(g).Convert(gt))
		outs := bindEncodes(t, c, v.Interface(), st, name)
		if outs == nil {
			c.Close()
			continue
		}
		if first == nil {
			first, firstType = outs[0], gt
		} else if !bytes.Equal(first, outs[0]) {
			t.Errorf("%s writes %x, as %s %x", name, outs[0], firstType, first)
		}
		if !held { // (read back, values in interfaces take their wire types' Go forms)
			bindDecodes(t, c, outs[0], v.Elem(), st, name)
		}
		// the Go zero value: the same bytes on every path too, or
		// refused on every path (a nil where no null is declared)
		bindEncodes(t, c, reflect.New(st).Interface(), st, name+" zero value")
		c.Close()
	}
}

// asAny stands for a good value held in an interface{} field.
type asAny struct{ v any }

// anyHeld stands for a good value whose lists or maps hold interface{}
// values (or, field: that is held in an interface{} field): written as
// the declared type on every path, the same bytes as the case's typed
// values.
type anyHeld struct {
	v     any
	field bool
}

// bindEncodes writes v on every encode path and returns the payloads: all
// equal, or all refused (nil then).
func bindEncodes(t *testing.T, c *Context, v any, st reflect.Type, name string) [][]byte {
	t.Helper()
	si := c.reg.byType[st]
	var outs [][]byte
	var errs []error
	add := func(b []byte, err error) {
		outs, errs = append(outs, b), append(errs, err)
	}
	add(c.Marshal(v))
	c.forceTape = true
	add(c.Marshal(v))
	c.forceTape = false
	add(c.MarshalAll([]any{v}))
	p := si.plan
	si.plan = nil
	add(c.MarshalAll([]any{v}))
	si.plan = p
	paths := []string{"Marshal (" + c.memCodec(v) + ")", "Marshal on the tape path", "MarshalAll", "MarshalAll by field names"}
	failed := 0
	for _, err := range errs {
		if err != nil {
			failed++
		}
	}
	if failed == len(errs) {
		if !strings.HasSuffix(name, "zero value") {
			t.Errorf("%s: %s: %v", name, paths[0], errs[0])
		}
		return nil
	}
	ok := 0
	for errs[ok] != nil {
		ok++
	}
	for i := range outs {
		if errs[i] != nil {
			t.Errorf("%s: %s: %v, while %s writes %x", name, paths[i], errs[i], paths[ok], outs[ok])
			return nil
		}
	}
	for i, o := range outs[1:] {
		if !bytes.Equal(o, outs[0]) {
			t.Errorf("%s: %s writes %x, %s %x", name, paths[i+1], o, paths[0], outs[0])
		}
	}
	return outs
}

// bindDecodes reads data on every decode path and compares with want.
func bindDecodes(t *testing.T, c *Context, data []byte, want reflect.Value, st reflect.Type, name string) {
	t.Helper()
	si := c.reg.byType[st]
	check := func(path string, got reflect.Value, err error) {
		if err != nil {
			t.Errorf("%s: %s: %v", name, path, err)
			return
		}
		if !fuzzEqual(got, want) { // (times by instant, decimals by value)
			t.Errorf("%s: %s read %#v, want %#v", name, path, got.Interface(), want.Interface())
		}
	}
	back := reflect.New(st)
	check("Unmarshal", back.Elem(), c.Unmarshal(data, back.Interface()))
	c.forceTape = true
	back = reflect.New(st)
	check("Unmarshal on the tape path", back.Elem(), c.Unmarshal(data, back.Interface()))
	c.forceTape = false
	back = reflect.New(st)
	check("UnmarshalAll", back.Elem(), c.UnmarshalAll(data, []any{back.Interface()}))
	p := si.plan
	si.plan = nil
	back = reflect.New(st)
	check("UnmarshalAll by field names", back.Elem(), c.UnmarshalAll(data, []any{back.Interface()}))
	si.plan = p
}

// A Go struct held by a bound field may be registered after the struct
// holding it (types that hold each other cannot all come first): the
// field's schema type is checked when it is, and a Go struct registered as
// another schema type is refused, naming the field that declared it.
func TestBindFDLStructRegisteredLater(t *testing.T) {
	type lateLeaf struct{ A int32 }
	type lateHolder struct{ F *lateLeaf }
	type node struct {
		V    int32
		Next *node
		Kids []node
	}
	const fdl = bindFDL + `message M [id=4010] { Leaf f = 1; }
message Node [id=4011] { int32 v = 1; Node next = 2; list<Node> kids = 3; }
`
	c, _ := NewContext()
	defer c.Close()
	if err := c.LoadSchemaText("b.fdl", fdl); err != nil {
		t.Fatal(err)
	}
	if err := c.RegisterStruct("b.M", lateHolder{}); err != nil {
		t.Fatal(err)
	}
	err := c.RegisterStruct("b.Other", lateLeaf{})
	if err == nil || !strings.Contains(err.Error(), "field F of") || !strings.Contains(err.Error(), "b.Leaf") {
		t.Fatalf("a Go struct a field declares b.Leaf registered as b.Other: %v", err)
	}
	if err := c.RegisterStruct("b.Leaf", lateLeaf{}); err != nil {
		t.Fatal(err)
	}
	v := &lateHolder{&lateLeaf{9}}
	outs := bindEncodes(t, c, v, reflect.TypeOf(lateHolder{}), "late")
	if outs != nil {
		bindDecodes(t, c, outs[0], reflect.ValueOf(v).Elem(), reflect.TypeOf(lateHolder{}), "late")
	}
	// a type that holds itself
	if err := c.RegisterStruct("b.Node", node{}); err != nil {
		t.Fatal(err)
	}
	n := &node{1, &node{2, nil, []node{}}, []node{{3, nil, []node{}}}}
	if outs := bindEncodes(t, c, n, reflect.TypeOf(node{}), "node"); outs != nil {
		bindDecodes(t, c, outs[0], reflect.ValueOf(n).Elem(), reflect.TypeOf(node{}), "node")
	}
	// the Go struct registered first as another schema type
	c2, _ := NewContext()
	defer c2.Close()
	c2.LoadSchemaText("b.fdl", fdl)
	if err := c2.RegisterStruct("b.Other", lateLeaf{}); err != nil {
		t.Fatal(err)
	}
	if err := c2.RegisterStruct("b.M", lateHolder{}); err == nil || !strings.Contains(err.Error(), "registered as b.Other") {
		t.Fatalf("a field of b.Leaf held as a Go struct registered as b.Other: %v", err)
	}
}

// Structs registered from their Go types (no schema): a type= tag the Go
// type cannot hold is refused at registration (before, []int64 tagged
// int32_array registered and failed when written, and []float32 tagged
// int32_array wrote the floats' bits as integers); the tags it can hold
// round-trip on every path.
func TestBindTagTypes(t *testing.T) {
	bad := []reflect.StructField{
		{Name: "F", Type: ty[[]int64](), Tag: `wire:",type=int32_array"`},
		{Name: "F", Type: ty[[]float32](), Tag: `wire:",type=int32_array"`},
		{Name: "F", Type: ty[[]int32](), Tag: `wire:",type=float32_array"`},
		{Name: "F", Type: ty[[]uint32](), Tag: `wire:",type=int32_array"`},
		{Name: "F", Type: ty[int64](), Tag: `wire:",type=int32"`},
		{Name: "F", Type: ty[int32](), Tag: `wire:",type=int64"`},
		{Name: "F", Type: ty[uint32](), Tag: `wire:",type=int32"`},
		{Name: "F", Type: ty[int32](), Tag: `wire:",type=string"`},
		{Name: "F", Type: ty[int32](), Tag: `wire:",type=float32"`},
		{Name: "F", Type: ty[string](), Tag: `wire:",type=binary"`},
		{Name: "F", Type: ty[[]byte](), Tag: `wire:",type=string"`},
		{Name: "F", Type: ty[int64](), Tag: `wire:",type=date"`},
		{Name: "F", Type: ty[uint16](), Tag: `wire:",type=float16"`},
		{Name: "F", Type: ty[[]string](), Tag: `wire:",type=map"`},
	}
	for i, f := range bad {
		c, _ := NewContext()
		st := reflect.StructOf([]reflect.StructField{f})
		err := c.RegisterStruct(fmt.Sprintf("t.Bad%d", i), reflect.New(st).Elem().Interface())
		if err == nil || !strings.Contains(err.Error(), "field F ") {
			t.Errorf("a Go %s tagged %s: %v, want an error naming field F", f.Type, f.Tag, err)
		}
		c.Close()
	}
	good := []struct {
		tag string
		v   any
	}{
		{`wire:",type=int32"`, int32(-5)},
		{`wire:",type=tagged_int64"`, int64(-1 << 40)},
		{`wire:",type=uint64"`, uint64(1 << 63)},
		{`wire:",type=int32_array"`, []int32{1, -2}},
		{`wire:",type=float32_array"`, []float32{1.5}},
		{`wire:",type=uint8_array"`, []byte{1, 2}},
		{`wire:",type=binary"`, []byte{1, 2}},
		{`wire:",type=list"`, []int32{1, -2}},
		{`wire:",type=list"`, []byte{1, 2}},
		{`wire:",type=set"`, []string{"a", "b"}},
		{`wire:",type=set"`, []int32{3}},
		{``, Set{"a", int32(3)}},
		{`wire:",nullable"`, Set{"a"}},
		{``, []any{"a", int64(3)}},
	}
	for i, g := range good {
		for _, compat := range []bool{false, true} {
			for _, ref := range []bool{false, true} {
				c, _ := NewContext(WithCompatible(compat), WithRefTracking(ref))
				st := reflect.StructOf([]reflect.StructField{{Name: "F", Type: reflect.TypeOf(g.v), Tag: reflect.StructTag(g.tag)}})
				name := fmt.Sprintf("%s tagged %s (compatible=%v ref=%v)", st.Field(0).Type, g.tag, compat, ref)
				if err := c.RegisterStruct(fmt.Sprintf("t.Good%d", i), reflect.New(st).Elem().Interface()); err != nil {
					t.Errorf("%s: %v", name, err)
					c.Close()
					continue
				}
				v := reflect.New(st)
				v.Elem().Field(0).Set(reflect.ValueOf(g.v))
				if outs := bindEncodes(t, c, v.Interface(), st, name); outs != nil {
					bindDecodes(t, c, outs[0], v.Elem(), st, name)
				}
				bindEncodes(t, c, reflect.New(st).Interface(), st, name+" zero value")
				c.Close()
			}
		}
	}
}

// A list or map of an enum held as Go integers has a memory form (the
// compiled codecs write each item as the enum), as an enum field held as
// a Go integer has.
func TestBindEnumListCompiled(t *testing.T) {
	type ints struct {
		Cs []int32
		Mc map[string]int64
	}
	c, _ := NewContext()
	defer c.Close()
	if err := c.LoadSchemaText("b.fdl", bindFDL+"message M [id=4010] { list<Color> cs = 1; map<string, Color> mc = 2; }\n"); err != nil {
		t.Fatal(err)
	}
	if err := c.RegisterStruct("b.M", ints{}); err != nil {
		t.Fatal(err)
	}
	if got := c.memCodec(ints{}); got != "layout" {
		t.Errorf("list<Color> as []int32, map<string, Color> as map[string]int64: %s", got)
	}
	v := &ints{[]int32{2, 0, 1}, map[string]int64{"k": 2}}
	if outs := bindEncodes(t, c, v, reflect.TypeOf(ints{}), "enums"); outs != nil {
		bindDecodes(t, c, outs[0], reflect.ValueOf(v).Elem(), reflect.TypeOf(ints{}), "enums")
	}
}
