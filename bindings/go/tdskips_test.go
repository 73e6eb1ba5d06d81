package wire

import (
	"reflect"
	"testing"
	"time"
)

// tdBox is a struct whose field V a writer and a reader declare with
// different types (tdBox[W] written, tdBox[R] read, both as type 960);
// N is read by both.
type tdBox[T any] struct {
	V T
	N int32
}

// tdBothPaths reads data into two new values of mk's type, through the
// compiled codecs and through the tape path, and fails unless both give
// the same value and the same error class; it returns the compiled
// path's value and error.
func tdBothPaths(t *testing.T, mode uint8, data []byte, mk func() any, reg func(*Context)) (any, error) {
	t.Helper()
	var vals [2]any
	var errs [2]error
	for i, tape := range []uint8{0, fuzzForceTape} {
		c := fuzzContext(t, mode|tape)
		if reg != nil {
			reg(c)
		}
		vals[i] = mk()
		errs[i] = c.Unmarshal(data, vals[i])
		c.Close()
	}
	if (errs[0] == nil) != (errs[1] == nil) {
		t.Fatalf("compiled: %v, tape: %v", errs[0], errs[1])
	}
	if errs[0] != nil {
		if errs[0].(*WireError).Class != errs[1].(*WireError).Class {
			t.Fatalf("compiled: %v, tape: %v", errs[0], errs[1])
		}
		return vals[0], errs[0]
	}
	if !fuzzEqual(reflect.ValueOf(vals[0]).Elem(), reflect.ValueOf(vals[1]).Elem()) {
		t.Fatalf("compiled: %#v\ntape: %#v", vals[0], vals[1])
	}
	return vals[0], nil
}

// The two FuzzUnmarshalStruct findings: a writer's TypeDef gives a field
// another type than the reader's Go field of that name; both paths now
// read it as absent (the compiled codecs' rule, mem_dec_typedef.c).
func TestTypeDefMismatchFindings(t *testing.T) {
	for _, cs := range []struct {
		name  string
		mode  uint8
		which int
		data  string
		want  any
	}{
		// kids: list<var_uint32> whose one item is a memNode
		{"memNode kids", 1, 2, "\x01\xff\x1c\x00\x110000000Ó\x03@\x050H\x160)\x03\x90J00000\x01\b\x1c\x010\x00\xfd\xfd",
			&memNode{}},
		// f9: an enum (no linked type), varint 0x30 = 48 on the wire
		{"NumericStruct f9", 15, 6, "\x01\xff\x1c\x0050000000\xcc\x01\x84\x0500\x88\x0500 \x88\x0500 \x88\x0500 \x84\x0500\x84\x0500\x84\x0500\x84\x0500\x84\x0500\x84\x0500\x84\x0500\x84\x19\v\xe8000000000000",
			&NumericStruct{}},
	} {
		t.Run(cs.name, func(t *testing.T) {
			c := fuzzContext(t, cs.mode)
			data := fuzzRepairTypeDefs(c, []byte(cs.data))
			c.Close()
			got, err := tdBothPaths(t, cs.mode, data, fuzzStructs[cs.which], nil)
			if err != nil {
				t.Fatal(err)
			}
			if !fuzzEqual(reflect.ValueOf(got).Elem(), reflect.ValueOf(cs.want).Elem()) {
				t.Fatalf("got %#v, want %#v", got, cs.want)
			}
		})
	}
}

// Every kind of writer/reader type mismatch of one field: both struct
// paths read the same (the field converted where the compiled codecs'
// memory form carries the writer's type, else absent: zero), and N, which
// both declare alike, is read.
func TestTypeDefMismatchKinds(t *testing.T) {
	leaf := memLeaf{Name: "x", N: 3}
	rows := []struct {
		name string
		w    any        // the writer's value (a *tdBox[W])
		mk   func() any // the reader's (a *tdBox[R])
		want any        // what V reads as (nil: the error class "value")
	}{
		{"int32 as int64", &tdBox[int32]{-7, 5}, func() any { return new(tdBox[int64]) }, int64(-7)},
		{"int64 as int32", &tdBox[int64]{-7, 5}, func() any { return new(tdBox[int32]) }, int32(-7)},
		{"int64 over int32", &tdBox[int64]{1 << 40, 5}, func() any { return new(tdBox[int32]) }, nil},
		{"int8 as int32", &tdBox[int8]{-7, 5}, func() any { return new(tdBox[int32]) }, int32(-7)},
		{"uint32 as int64", &tdBox[uint32]{7, 5}, func() any { return new(tdBox[int64]) }, int64(7)},
		{"int32 as uint16", &tdBox[int32]{7, 5}, func() any { return new(tdBox[uint16]) }, uint16(7)},
		{"float32 as float64", &tdBox[float32]{1.5, 5}, func() any { return new(tdBox[float64]) }, float64(1.5)},
		{"float64 as float32", &tdBox[float64]{1.5, 5}, func() any { return new(tdBox[float32]) }, float32(1.5)},
		{"int32 as float64", &tdBox[int32]{7, 5}, func() any { return new(tdBox[float64]) }, float64(0)},
		{"float64 as int64", &tdBox[float64]{7, 5}, func() any { return new(tdBox[int64]) }, int64(0)},
		{"bool as int32", &tdBox[bool]{true, 5}, func() any { return new(tdBox[int32]) }, int32(0)},
		{"int32 as bool", &tdBox[int32]{1, 5}, func() any { return new(tdBox[bool]) }, false},
		{"string as []byte", &tdBox[string]{"ab", 5}, func() any { return new(tdBox[[]byte]) }, []byte(nil)},
		{"[]byte as string", &tdBox[[]byte]{[]byte("ab"), 5}, func() any { return new(tdBox[string]) }, ""},
		{"string as int32", &tdBox[string]{"ab", 5}, func() any { return new(tdBox[int32]) }, int32(0)},
		{"struct as int32", &tdBox[memLeaf]{leaf, 5}, func() any { return new(tdBox[int32]) }, int32(0)},
		{"int32 as struct", &tdBox[int32]{7, 5}, func() any { return new(tdBox[memLeaf]) }, memLeaf{}},
		{"struct as *struct", &tdBox[memLeaf]{leaf, 5}, func() any { return new(tdBox[*memLeaf]) }, &leaf},
		{"array int32 as int64", &tdBox[[]int32]{[]int32{1, -2}, 5}, func() any { return new(tdBox[[]int64]) }, []int64{1, -2}},
		{"array int32 as float64", &tdBox[[]int32]{[]int32{1, -2}, 5}, func() any { return new(tdBox[[]float64]) }, []float64(nil)},
		{"list string as array int32", &tdBox[[]string]{[]string{"a"}, 5}, func() any { return new(tdBox[[]int32]) }, []int32(nil)},
		{"array int32 as list string", &tdBox[[]int32]{[]int32{1}, 5}, func() any { return new(tdBox[[]string]) }, []string(nil)},
		{"list struct as list string", &tdBox[[]memLeaf]{[]memLeaf{leaf}, 5}, func() any { return new(tdBox[[]string]) }, []string(nil)},
		{"list struct as array int32", &tdBox[[]memLeaf]{[]memLeaf{leaf}, 5}, func() any { return new(tdBox[[]int32]) }, []int32(nil)},
		{"map value int32 as string", &tdBox[map[string]int32]{map[string]int32{"a": 1}, 5}, func() any { return new(tdBox[map[string]string]) }, map[string]string(nil)},
		{"map as list", &tdBox[map[string]int32]{map[string]int32{"a": 1}, 5}, func() any { return new(tdBox[[]string]) }, []string(nil)},
		{"time as int64", &tdBox[time.Time]{time.Unix(7, 0).UTC(), 5}, func() any { return new(tdBox[int64]) }, int64(0)},
		{"duration as int64", &tdBox[time.Duration]{7, 5}, func() any { return new(tdBox[int64]) }, int64(0)},
		{"date as int32", &tdBox[Date]{7, 5}, func() any { return new(tdBox[int32]) }, int32(0)},
		{"date as time.Time", &tdBox[Date]{7, 5}, func() any { return new(tdBox[time.Time]) }, time.Time{}},
		{"int64 as Decimal", &tdBox[int64]{7, 5}, func() any { return new(tdBox[Decimal]) }, Decimal{}},
	}
	for _, mode := range []uint8{fuzzCompatible, fuzzCompatible | fuzzRef} {
		for _, r := range rows {
			t.Run(r.name, func(t *testing.T) {
				wc := fuzzContext(t, mode)
				defer wc.Close()
				if err := wc.RegisterStructID(960, reflect.ValueOf(r.w).Elem().Interface()); err != nil {
					t.Fatal(err)
				}
				data, err := wc.Marshal(r.w)
				if err != nil {
					t.Fatal(err)
				}
				reg := func(c *Context) {
					if err := c.RegisterStructID(960, reflect.ValueOf(r.mk()).Elem().Interface()); err != nil {
						t.Fatal(err)
					}
				}
				got, err := tdBothPaths(t, mode, data, r.mk, reg)
				if r.want == nil {
					if err == nil || err.(*WireError).Class != "value" {
						t.Fatalf("got %#v, %v; want a value error", got, err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				gv := reflect.ValueOf(got).Elem()
				if !fuzzEqual(gv.Field(0), reflect.ValueOf(r.want)) || gv.Field(1).Int() != 5 {
					t.Fatalf("got %#v, want V %#v, N 5", got, r.want)
				}
			})
		}
	}
}
