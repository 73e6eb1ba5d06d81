package wire

import (
	"bytes"
	"reflect"
	"testing"
)

// Binaries and dense arrays come out of the read tape as SPAN records
// (offsets into the payload, WIRE_TAPE_SPANS): the decoded slices are
// copies of the payload's bytes, never views of it, at any alignment of the
// payload, in every place a dense array can sit (root, list, map, struct
// field on the tape path, natural values), and a shared one keeps its
// identity under reference tracking.
func TestSpanDecode(t *testing.T) {
	type holder struct {
		B []byte
		A []float32 `wire:"a,type=float32_array"`
	}
	c, err := NewContext(WithRefTracking(true))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.RegisterStruct("holder", holder{}); err != nil {
		t.Fatal(err)
	}
	big := make([]int64, 5000)
	for i := range big {
		big[i] = int64(i)*0x1E3779B97F4A7C15 - 3
	}
	shared := []byte("shared bytes")
	values := []any{
		[]byte("root binary"), big, []int16{-1, 2, -3}, []uint32{1 << 31, 7},
		[]float64{1.5, -2.25}, []bool{true, false, true}, []Float16{Float16FromFloat64(0.5)},
		[]any{[]byte{1, 2}, []int32{3, -4}, "x"},
		map[string][]uint64{"k": {1, 2, 3}},
		&holder{B: []byte{9, 8, 7}, A: []float32{0.5, -1}},
		[]any{shared, shared},
	}
	for _, v := range values {
		b, err := c.Marshal(v)
		if err != nil {
			t.Fatalf("%T: %v", v, err)
		}
		for shift := 0; shift < 8; shift++ {
			in := append(make([]byte, shift), b...)[shift:] // payload at every offset mod 8
			out := reflect.New(reflect.TypeOf(v))
			if err := c.Unmarshal(in, out.Interface()); err != nil {
				t.Fatalf("%T at +%d: %v", v, shift, err)
			}
			for i := range in {
				in[i] ^= 0xFF // the payload changes after the call; the values do not
			}
			if got := out.Elem().Interface(); !reflect.DeepEqual(got, v) {
				t.Fatalf("%T at +%d: got %v", v, shift, got)
			}
		}
	}
	// a shared binary (one node twice, written with a reference under
	// reference tracking) is one Go slice again: REF to the SPAN's number
	doc, err := c.NewDoc()
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Free()
	l, _ := doc.List(TypeList)
	bin, _ := doc.Binary(shared)
	arr, _ := doc.Binary([]byte{5})
	if err := l.Append(bin); err != nil {
		t.Fatal(err)
	}
	if err := l.Append(bin); err != nil {
		t.Fatal(err)
	}
	if err := l.Append(arr); err != nil {
		t.Fatal(err)
	}
	if err := doc.AddRoot(l); err != nil {
		t.Fatal(err)
	}
	b, err := doc.Encode()
	if err != nil {
		t.Fatal(err)
	}
	var back []any
	if err := c.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	x, y := back[0].([]byte), back[1].([]byte)
	if !bytes.Equal(x, shared) || &x[0] != &y[0] || !reflect.DeepEqual(back[2], []byte{5}) {
		t.Fatalf("shared binary: %v", back)
	}
	// natural values: typed slices
	all, err := c.Decode(b)
	if err != nil || !reflect.DeepEqual(all[0], []any{shared, shared, []byte{5}}) {
		t.Fatalf("Decode: %v %v", all, err)
	}
	if rt := c.readTape(); !bytes.Contains(rt, []byte{opSpan, TypeBinary}) {
		t.Fatalf("the read tape has no SPAN: %x", rt)
	}
}

// Decoded strings of every length from 0 to 600 (the short ones moved as
// 16- and 32-byte words, the others copied; chunks filled to their end;
// the last string at the end of the tape), in a []string, a map key and a
// []any, equal what was written and stay so after more decodes.
func TestDecodedStrings(t *testing.T) {
	c, err := NewContext(WithUTF8Strings(true))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var ss []string
	for n := 0; n <= 600; n++ {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('a' + (n+i)%26)
		}
		ss = append(ss, string(b))
	}
	ss = append(ss, "é", "ünïcödé 🎉 text of some length, past 32 bytes")
	m := map[string]int64{}
	anys := make([]any, len(ss))
	for i, s := range ss {
		m[s] = int64(i)
		anys[i] = s
	}
	var keep [][]string
	for round := 0; round < 3; round++ {
		for _, v := range []any{ss, m, anys} {
			b, err := c.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			out := reflect.New(reflect.TypeOf(v))
			if err := c.Unmarshal(b, out.Interface()); err != nil {
				t.Fatal(err)
			}
			if got := out.Elem().Interface(); !reflect.DeepEqual(got, v) {
				t.Fatalf("%T: strings differ", v)
			}
			if s, ok := out.Elem().Interface().([]string); ok {
				keep = append(keep, s)
			}
		}
	}
	for _, s := range keep { // later decodes wrote nothing over earlier strings
		if !reflect.DeepEqual(s, ss) {
			t.Fatal("a decoded string changed")
		}
	}
}
