package wire

import (
	"bytes"
	"math/rand"
	"testing"
)

// The tape path's own errors (a value that does not fit its Go type, a
// record of another type) carry the input offset of the value at fault
// (taperr.go): found here as the only place of that value's bytes in the
// payload (a value's bytes after its type meta: skip).
func TestTapeErrorOffset(t *testing.T) {
	c, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// 300 as a varint32: zigzag 600 = d8 04; as a varint64 the same
	big := []byte{0xd8, 0x04}
	cases := []struct {
		name   string
		value  any
		target any
		class  string
		at     []byte // the value's bytes (unique in the payload)
		skip   int    // bytes of the found pattern before the value
	}{
		{"packed element", []any{int32(1), int32(2), int32(300), int32(4)}, new([]int8), "value", big, 0},
		{"list element", []any{int32(1), "x", int32(300)}, new([]int8), "type", []byte{0x15, 0x04, 'x'}, 1},
		{"map value in a run", map[string]int32{"a": 1, "bb": 300}, new(map[string]int8), "value", append([]byte{'b', 'b'}, big...), 2},
		{"nested list", []any{[]any{int64(5)}, []any{int64(1), "q", int64(300)}}, new([][]int8), "type", []byte{0x15, 0x04, 'q'}, 1},
		{"map key", map[any]any{"k": int32(1), int64(300): int32(2)}, new(map[string]int32), "type", big, 0},
	}
	for _, cs := range cases {
		data, err := c.Marshal(cs.value)
		if err != nil {
			t.Fatal(cs.name, err)
		}
		i := bytes.Index(data, cs.at)
		if i < 0 || bytes.Index(data[i+1:], cs.at) >= 0 {
			t.Fatalf("%s: %x not once in %x", cs.name, cs.at, data)
		}
		want := uint64(i + cs.skip)
		err = c.Unmarshal(data, cs.target)
		we, ok := err.(*WireError)
		if !ok || we.Offset != want || we.Class != cs.class {
			t.Errorf("%s: %x: got %v, want %s at %d", cs.name, data, err, cs.class, want)
		}
	}
}

// Hostile input: whatever a mutated payload does on the tape path, an
// error's offset is within the payload.
func TestTapeErrorOffsetHostile(t *testing.T) {
	c, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	seeds := []any{
		[]any{int32(1), int32(2), int32(300), "s", []any{int64(7), nil}},
		map[string]int32{"a": 1, "bb": 300, "ccc": -5},
		map[any]any{"k": []any{int32(1)}, int64(3): "v"},
	}
	targets := []func() any{
		func() any { return new([]int8) }, func() any { return new(map[string]int8) },
		func() any { return new([][]int16) }, func() any { return new(map[string][]uint8) },
		func() any { return new(any) },
	}
	r := rand.New(rand.NewSource(13))
	located := 0
	for n := 0; n < 3000; n++ {
		data, err := c.Marshal(seeds[n%len(seeds)])
		if err != nil {
			t.Fatal(err)
		}
		for m := r.Intn(3); m >= 0; m-- {
			data[r.Intn(len(data))] = byte(r.Intn(256))
		}
		err = c.Unmarshal(data, targets[r.Intn(len(targets))]())
		if we, ok := err.(*WireError); ok {
			if we.Offset > uint64(len(data)) || we.Class == "type" && we.Offset >= uint64(len(data)) {
				t.Fatalf("%x: %v: offset past the payload", data, err)
			}
			if we.Offset != 0 && we.Class == "type" {
				located++
			}
		}
	}
	if located == 0 {
		t.Fatal("no type error located")
	}
}
