package wire

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"
)

// float32 bit patterns that a conversion through float64 changes or could
// change: signaling NaNs (float64(x) sets the quiet bit), NaN payloads,
// signed zeros, subnormals.
var f32Patterns = []uint32{
	0x7f800001, 0xff800001, 0x7fa00000, 0x7fbfffff, 0xffbfffff, 0x7f812345, // signaling
	0x7fc00000, 0xffc00000, 0x7fc00001, 0xffd23456, 0x7fffffff, // quiet, payloads
	0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, // zeros, subnormals
	0x3f800000, 0x7f7fffff, 0x7f800000, 0xff800000,
}

// f32Root is a payload of one float32 root as Fory writes it.
func f32Root(x uint32) []byte {
	return binary.LittleEndian.AppendUint32([]byte{0x01, 0xff, TypeFloat32}, x)
}

// f32List is a payload of one list of float32 (same declared type).
func f32List(xs []uint32) []byte {
	b := []byte{0x01, 0xff, TypeList, byte(len(xs)), 0x08, TypeFloat32}
	for _, x := range xs {
		b = binary.LittleEndian.AppendUint32(b, x)
	}
	return b
}

// A float32 read from Fory bytes into any, *float32 or *any and written
// again gives the same bytes, every pattern.
func TestFloat32BitsThroughTape(t *testing.T) {
	for _, x := range f32Patterns {
		p := f32Root(x)
		vs, err := Decode(p)
		if err != nil {
			t.Fatal(err)
		}
		f, ok := vs[0].(float32)
		if !ok || math.Float32bits(f) != x {
			t.Errorf("0x%08x: Decode gave %T 0x%08x", x, vs[0], math.Float32bits(f))
		}
		if b, err := Marshal(vs[0]); err != nil || !bytes.Equal(b, p) {
			t.Errorf("0x%08x: Marshal(any) gave %x (%v), want %x", x, b, err, p)
		}
		var g float32
		if err := Unmarshal(p, &g); err != nil || math.Float32bits(g) != x {
			t.Errorf("0x%08x: Unmarshal(*float32) gave 0x%08x (%v)", x, math.Float32bits(g), err)
		}
		if b, err := Marshal(&g); err != nil || !bytes.Equal(b, p) {
			t.Errorf("0x%08x: Marshal(*float32) gave %x (%v), want %x", x, b, err, p)
		}
		type myF32 float32 // not float32 itself: the reflect path
		var h myF32
		if err := Unmarshal(p, &h); err != nil || math.Float32bits(float32(h)) != x {
			t.Errorf("0x%08x: Unmarshal(*myF32) gave 0x%08x (%v)", x, math.Float32bits(float32(h)), err)
		}
		if b, err := Marshal(h); err != nil || !bytes.Equal(b, p) {
			t.Errorf("0x%08x: Marshal(myF32) gave %x (%v), want %x", x, b, err, p)
		}
	}
}

type f32Holder struct {
	F    float32
	L    []float32 `wire:"l,type=list"`
	A    []float32 `wire:"a,type=float32_array"`
	Arr  [2]float32
	Anys []any
}

// The same in struct fields (the plan's float32 field, PACKED lists from
// and into []float32, dense arrays into arrays), in []any lists, and
// through a list payload decoded into []any and []float32.
func TestFloat32BitsInContainers(t *testing.T) {
	c, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.RegisterStruct("f32.Holder", f32Holder{}); err != nil {
		t.Fatal(err)
	}
	for _, x := range f32Patterns {
		f := math.Float32frombits(x)
		in := f32Holder{F: f, L: []float32{f, 1, f}, A: []float32{f}, Arr: [2]float32{f, f}, Anys: []any{f, f}}
		b, err := c.Marshal(&in)
		if err != nil {
			t.Fatal(err)
		}
		var out f32Holder
		if err := c.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
		same := func(what string, g any) {
			t.Helper()
			if v, ok := g.(float32); !ok || math.Float32bits(v) != x {
				t.Errorf("0x%08x: %s came back as %T 0x%08x", x, what, g, math.Float32bits(v))
			}
		}
		same("field", out.F)
		same("list[0]", out.L[0])
		same("list[2]", out.L[2])
		same("array", out.A[0])
		same("Go array", out.Arr[1])
		same("[]any", out.Anys[0])
		if b2, err := c.Marshal(&out); err != nil || !bytes.Equal(b2, b) {
			t.Errorf("0x%08x: the struct written again differs", x)
		}
		// [2]float32 by value (not addressable) as a dense array
		arr := [2]float32{f, f}
		ab, err := c.Marshal(arr)
		if err != nil {
			t.Fatal(err)
		}
		if got := binary.LittleEndian.Uint32(ab[len(ab)-4:]); got != x {
			t.Errorf("0x%08x: [2]float32 written as 0x%08x", x, got)
		}
	}
	p := f32List(f32Patterns)
	vs, err := c.Decode(p)
	if err != nil {
		t.Fatal(err)
	}
	l := vs[0].([]any)
	for i, x := range f32Patterns {
		if v, ok := l[i].(float32); !ok || math.Float32bits(v) != x {
			t.Errorf("list as []any: 0x%08x came back as %T %v", x, l[i], l[i])
		}
	}
	if b, err := c.Marshal(l); err != nil || !bytes.Equal(b, p) {
		t.Errorf("list: []any written again as %x (%v), want %x", b, err, p)
	}
	var fl []float32
	if err := c.Unmarshal(p, &fl); err != nil {
		t.Fatal(err)
	}
	for i, x := range f32Patterns {
		if math.Float32bits(fl[i]) != x {
			t.Errorf("list as []float32: 0x%08x came back as 0x%08x", x, math.Float32bits(fl[i]))
		}
	}
}

// The conversions themselves over every NaN (both signs) and a stride of
// the other patterns: f32FromTape(f32Tape(x)) has x's bits, and f32Tape is
// float64(x) for every non-NaN.
func TestFloat32TapeConversions(t *testing.T) {
	check := func(x uint32) {
		f := math.Float32frombits(x)
		u := f32Tape(f)
		if g := math.Float32bits(f32FromTape(u)); g != x {
			t.Fatalf("0x%08x came back as 0x%08x", x, g)
		}
		if f == f && u != math.Float64bits(float64(f)) {
			t.Fatalf("0x%08x widened to 0x%016x", x, u)
		}
	}
	for m := uint32(1); m < 1<<23; m++ {
		check(0x7f800000 | m)
		check(0xff800000 | m)
	}
	for x := uint64(0); x < 1<<32; x += 65521 {
		check(uint32(x))
	}
}
