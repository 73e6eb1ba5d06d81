package wire

import (
	"fmt"
	"math/big"
	"reflect"
	"testing"
	"time"
)

// absentOnly is the writer's version of type 960 (tdBox's N alone): a
// TypeDef without the field V that the reader's tdBox[T] has.
type absentOnly struct {
	N int32
}

// absentStamp is a struct held by value whose zeroed memory is not its Go
// zero value (zeroNeedsFlag): a time.Time and a Decimal inside.
type absentStamp struct {
	At time.Time
	D  Decimal
	N  int32
}

// absentWhen holds a time.Time and no extras: it is held inline in a
// struct that holds it by value (mkStruct).
type absentWhen struct {
	At time.Time
	N  int32
}

// absentNBox declares V nullable (the tag) while holding it by value.
type absentNBox[T any] struct {
	V T `wire:"v,nullable"`
	N int32
}

// absentPBox holds V by pointer (nullable); nil is written as null.
type absentPBox[T any] struct {
	V *T `wire:"v,nullable"`
	N int32
}

// absentKinds: a reader's tdBox[T] of every field kind the binding
// reads, with a value to write for it; each row is also a reader type of
// the null-into-value cases (absentNBox[T], absentPBox[T]) when nullable.
func absentKinds() []absentKind {
	var rows []absentKind
	absMk[int8](&rows, "int8")
	absMk[int16](&rows, "int16")
	absMk[int32](&rows, "int32")
	absMk[int64](&rows, "int64")
	absMk[int](&rows, "int")
	absMk[uint8](&rows, "uint8")
	absMk[uint16](&rows, "uint16")
	absMk[uint32](&rows, "uint32")
	absMk[uint64](&rows, "uint64")
	absMk[uint](&rows, "uint")
	absMk[float32](&rows, "float32")
	absMk[float64](&rows, "float64")
	absMk[Float16](&rows, "Float16")
	absMk[BFloat16](&rows, "BFloat16")
	absMk[bool](&rows, "bool")
	absMk[string](&rows, "string")
	absMk[[]byte](&rows, "[]byte")
	absMk[time.Time](&rows, "time.Time")
	absMk[Date](&rows, "Date")
	absMk[time.Duration](&rows, "time.Duration")
	absMk[Decimal](&rows, "Decimal")
	absMk[memLeaf](&rows, "struct")
	absMk[absentStamp](&rows, "struct holding time")
	absMk[absentWhen](&rows, "struct holding time inline")
	absMk[*memLeaf](&rows, "*struct")
	absMk[*int32](&rows, "*int32")
	absMk[*string](&rows, "*string")
	absMk[*time.Time](&rows, "*time.Time")
	absMk[*Decimal](&rows, "*Decimal")
	absMk[[]int32](&rows, "[]int32")
	absMk[[]string](&rows, "[]string")
	absMk[[]time.Time](&rows, "[]time.Time")
	absMk[[]Decimal](&rows, "[]Decimal")
	absMk[[]memLeaf](&rows, "[]struct")
	absMk[[]absentStamp](&rows, "[]struct holding time")
	absMk[[2]int32](&rows, "[2]int32")
	absMk[[1]time.Time](&rows, "[1]time.Time")
	absMk[map[string]int32](&rows, "map[string]int32")
	absMk[map[string]time.Time](&rows, "map[string]time.Time")
	absMk[map[string]absentStamp](&rows, "map[string]struct")
	absMk[Set](&rows, "Set")
	absMk[any](&rows, "any")
	return rows
}

type absentKind struct {
	name string
	mk   func() any // a new *tdBox[T]
	nmk  func() any // a new *absentNBox[T]
	pw   any        // an *absentPBox[T] with V nil (the null's writer)
}

func absMk[T any](rows *[]absentKind, name string) {
	*rows = append(*rows, absentKind{name, func() any { return new(tdBox[T]) },
		func() any { return new(absentNBox[T]) }, &absentPBox[T]{N: 5}})
}

// absentRegister registers the Go types these tests use besides type 960.
func absentRegister(t *testing.T, c *Context) {
	t.Helper()
	if err := c.RegisterStructID(961, absentStamp{}); err != nil {
		t.Fatal(err)
	}
	if err := c.RegisterStructID(962, absentWhen{}); err != nil {
		t.Fatal(err)
	}
}

// absentCtx is a context in mode (fuzzContext, or fuzzSchemaContext's
// plain FDL) with v's type registered as type 960 (by id, or bound to
// the FDL struct ab.B).
type absentCtx func(t *testing.T, mode uint8, v any) *Context

func absentByID(t *testing.T, mode uint8, v any) *Context {
	c := fuzzContext(t, mode)
	absentRegister(t, c)
	if err := c.RegisterStructID(960, reflect.ValueOf(v).Elem().Interface()); err != nil {
		t.Fatal(err)
	}
	return c
}

// absentFDL: a context of FDL text fdl whose struct ab.B (id 960) v binds.
func absentFDL(fdl string) absentCtx {
	return func(t *testing.T, mode uint8, v any) *Context {
		c := schemaContext(t, mode&^fuzzForceTape, "ab.fdl", fdl, "ab.B", reflect.ValueOf(v).Elem().Interface())
		c.forceTape = mode&fuzzForceTape != 0
		return c
	}
}

// absentRead writes w in mode (its context from wc) and reads it into a
// new mk() (its context from rc) through the compiled codecs and through
// the tape path; it fails unless both give V's Go zero value and N 5.
func absentRead(t *testing.T, mode uint8, w any, mk func() any, wc, rc absentCtx) {
	t.Helper()
	c := wc(t, mode, w)
	data, err := c.Marshal(w)
	c.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, filled := range []bool{false, true} {
		absentInto(t, mode, data, mk, rc, filled)
	}
}

// absentInto reads data into a new mk() (with its V and N set first
// when filled) on both struct paths: V must read as its Go zero value,
// N as 5.
func absentInto(t *testing.T, mode uint8, data []byte, mk func() any, rc absentCtx, filled bool) {
	t.Helper()
	var got [2]reflect.Value
	var codec [2]string
	for i, tape := range []uint8{0, fuzzForceTape} {
		v := mk()
		if filled {
			absentFill(reflect.ValueOf(v).Elem(), 0)
		}
		c := rc(t, mode|tape, v)
		codec[i] = c.memCodec(reflect.ValueOf(v).Elem().Interface())
		if tape != 0 {
			codec[i] = "tape (forced)"
		}
		if err := c.Unmarshal(data, v); err != nil {
			t.Fatalf("%s: %v", codec[i], err)
		}
		c.Close()
		got[i] = reflect.ValueOf(v).Elem()
	}
	for i := range got {
		fv := got[i].Field(0)
		if !reflect.DeepEqual(fv.Interface(), reflect.Zero(fv.Type()).Interface()) || got[i].Field(1).Int() != 5 {
			t.Errorf("%s (filled before: %v): V %#v, N %d; want the Go zero value, N 5",
				codec[i], filled, fv.Interface(), got[i].Field(1).Int())
		}
	}
}

// absentFill sets v (settable) to a value other than its zero value:
// what a target holds from an earlier Unmarshal.
func absentFill(v reflect.Value, depth int) {
	switch {
	case v.Type() == typTime:
		v.Set(reflect.ValueOf(time.Unix(7, 0)))
		return
	case v.Type() == typDecimal:
		v.Set(reflect.ValueOf(Decimal{Unscaled: big.NewInt(7), Scale: 1}))
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1.5)
	case reflect.String:
		v.SetString("x")
	case reflect.Interface:
		v.Set(reflect.ValueOf(int32(7)))
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		if depth < 2 {
			absentFill(v.Elem(), depth+1)
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		absentFill(v.Index(0), depth+1)
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			absentFill(v.Index(i), depth+1)
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		absentFill(k, depth+1)
		absentFill(e, depth+1)
		v.SetMapIndex(k, e)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				absentFill(v.Field(i), depth+1)
			}
		}
	}
}

// A field the writer's TypeDef lacks (compatible mode) reads as the Go
// zero value of its type on both struct paths, for every field kind
// (bindings/go/README.md, Structs).
func TestAbsentFieldZero(t *testing.T) {
	for _, mode := range []uint8{fuzzCompatible, fuzzCompatible | fuzzRef} {
		for _, r := range absentKinds() {
			t.Run(fmt.Sprintf("%d/%s", mode, r.name), func(t *testing.T) {
				absentRead(t, mode, &absentOnly{N: 5}, r.mk, absentByID, absentByID)
			})
		}
	}
}

// A null read into a field held by value gives the field's Go zero value
// on both struct paths, for every kind: declared nullable by the reader
// too (absentNBox, every mode), or only by the writer (tdBox read, the
// compatible modes).
func TestNullIntoValueZero(t *testing.T) {
	for mode := uint8(0); mode < fuzzBaseModes; mode++ {
		for _, r := range absentKinds() {
			if r.name[0] == '*' || r.name == "any" {
				continue // held by pointer or interface: nil, not a value
			}
			t.Run(fmt.Sprintf("%d/%s", mode, r.name), func(t *testing.T) {
				absentRead(t, mode, r.pw, r.nmk, absentByID, absentByID)
				if mode&fuzzCompatible != 0 {
					absentRead(t, mode, r.pw, r.mk, absentByID, absentByID)
				}
			})
		}
	}
}

// The kinds only a schema declares (an enum held as a Go integer or as a
// wire.Enum, a union): absent from the writer's ab.B, and null into a
// value where the reader's field is declared optional.
func TestAbsentFieldZeroFDL(t *testing.T) {
	const decls = "enum Color [id=961] { RED = 0; GREEN = 1; }\n" +
		"union U [id=962] { string s = 1; int32 i = 2; }\n"
	older := absentFDL("package ab;\n" + decls + "message B [id=960] { int32 n = 2; }\n")
	rows := []struct {
		decl string
		mk   func() any
		pw   any // the writer of a null V (nil: a nil pointer, slice or map)
	}{
		{"Color", func() any { return new(tdBox[int32]) }, &absentPBox[int32]{N: 5}},
		{"Color", func() any { return new(tdBox[uint8]) }, &absentPBox[uint8]{N: 5}},
		{"Color", func() any { return new(tdBox[Enum]) }, &absentPBox[Enum]{N: 5}},
		{"U", func() any { return new(tdBox[Union]) }, &absentPBox[Union]{N: 5}},
		{"timestamp", func() any { return new(tdBox[time.Time]) }, &absentPBox[time.Time]{N: 5}},
		{"decimal", func() any { return new(tdBox[Decimal]) }, &absentPBox[Decimal]{N: 5}},
		{"list<Color>", func() any { return new(tdBox[[]int32]) }, &tdBox[[]int32]{N: 5}},
		{"map<string, Color>", func() any { return new(tdBox[map[string]int32]) }, &tdBox[map[string]int32]{N: 5}},
	}
	for mode := uint8(0); mode < fuzzBaseModes; mode++ {
		for _, r := range rows {
			name := fmt.Sprintf("%d/%s as %s", mode, r.decl, reflect.TypeOf(r.mk()).Elem().Field(0).Type)
			t.Run(name, func(t *testing.T) {
				if mode&fuzzCompatible != 0 {
					newer := absentFDL("package ab;\n" + decls + "message B [id=960] { " + r.decl + " v = 1; int32 n = 2; }\n")
					absentRead(t, mode, &absentOnly{N: 5}, r.mk, older, newer)
				}
				opt := absentFDL("package ab;\n" + decls + "message B [id=960] { optional " + r.decl + " v = 1; int32 n = 2; }\n")
				absentRead(t, mode, r.pw, r.mk, opt, opt)
			})
		}
	}
}
