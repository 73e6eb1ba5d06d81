package wire

import (
	"reflect"
	"testing"
	"unsafe"
)

// inside reports whether the n-byte block at p lies in b.
func inside(p unsafe.Pointer, n int, b []byte) bool {
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return uintptr(p) >= lo && uintptr(p)+uintptr(n) <= lo+uintptr(len(b))
}

// WithZeroCopy: a binary into a []byte and an aligned dense array into a
// slice of its element type are views of the input (changing the input
// changes them); a dense array not aligned for its element type is a
// copy; values are right at every offset of the payload.
func TestZeroCopy(t *testing.T) {
	c, err := NewContext(WithZeroCopy(true))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	bin := []byte("a binary of some length, viewed in place")
	arr := []int64{-1, 1 << 40, 3, -1 << 62, 5}
	for _, v := range []any{bin, arr, []float32{0.5, -2}, []uint16{1, 65535, 7}} {
		b, err := c.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		w := int(reflect.TypeOf(v).Elem().Size())
		views := 0
		for shift := 0; shift < 8; shift++ {
			in := append(make([]byte, shift), b...)[shift:]
			out := reflect.New(reflect.TypeOf(v))
			if err := c.Unmarshal(in, out.Interface()); err != nil {
				t.Fatalf("%T at +%d: %v", v, shift, err)
			}
			got := out.Elem()
			if !reflect.DeepEqual(got.Interface(), v) {
				t.Fatalf("%T at +%d: got %v", v, shift, got.Interface())
			}
			n := got.Len() * w
			if !inside(got.UnsafePointer(), n, in) {
				continue
			}
			views++
			if got.Cap() != got.Len() {
				t.Fatalf("%T at +%d: a view with room after it (cap %d, len %d)", v, shift, got.Cap(), got.Len())
			}
			if uintptr(got.UnsafePointer())%uintptr(w) != 0 {
				t.Fatalf("%T at +%d: a misaligned view", v, shift)
			}
			in[len(in)-1] ^= 0xFF // the last element's last byte
			if reflect.DeepEqual(got.Interface(), v) {
				t.Fatalf("%T at +%d: the view did not follow the input", v, shift)
			}
		}
		// a view at every offset for bytes, at one offset in w for wider
		// elements (of the eight tried)
		if want := 8 / w; views != want {
			t.Fatalf("%T: %d views among 8 offsets, want %d", v, views, want)
		}
	}
	// Decode's natural values too
	b, _ := c.Marshal(bin)
	vs, err := c.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := vs[0].([]byte); !ok || string(got) != string(bin) || !inside(unsafe.Pointer(unsafe.SliceData(got)), len(got), b) {
		t.Fatalf("Decode: got %T %v, not a view", vs[0], vs[0])
	}
	// off (the default): copies
	d, _ := NewContext()
	defer d.Close()
	var got []byte
	if err := d.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if inside(unsafe.Pointer(unsafe.SliceData(got)), len(got), b) {
		t.Fatal("a view without WithZeroCopy")
	}
}
