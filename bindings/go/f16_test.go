package wire

import (
	"bytes"
	"math"
	"testing"
)

// Every float16 and bfloat16 pattern read from Fory bytes (into any, into
// *Float16 / *BFloat16, into a []Float16 from a list) and written again
// gives the same bytes: a NaN keeps its sign, quiet bit and payload through
// the tape's f64 (spec/tape.md, FLOAT16 and BFLOAT16 NaNs).
func TestFloat16BitsThroughTape(t *testing.T) {
	for _, tid := range []byte{TypeFloat16, TypeBfloat16} {
		list := []byte{0x01, 0xff, TypeList, 0x80, 0x80, 0x04, 0x08, tid}
		bad := 0
		for x := 0; x < 1<<16; x++ {
			p := []byte{0x01, 0xff, tid, byte(x), byte(x >> 8)}
			list = append(list, byte(x), byte(x>>8))
			vs, err := Decode(p)
			if err != nil {
				t.Fatal(err)
			}
			var got uint16
			switch v := vs[0].(type) {
			case Float16:
				got = uint16(v)
			case BFloat16:
				got = uint16(v)
			default:
				t.Fatalf("type %d: Decode gave %T", tid, vs[0])
			}
			if got != uint16(x) {
				bad++
				t.Errorf("type %d 0x%04x: Decode gave 0x%04x", tid, x, got)
			}
			if b, err := Marshal(vs[0]); err != nil || !bytes.Equal(b, p) {
				bad++
				t.Errorf("type %d 0x%04x: Marshal(any) gave %x (%v)", tid, x, b, err)
			}
			var b []byte
			if tid == TypeFloat16 {
				var h Float16
				err = Unmarshal(p, &h)
				got = uint16(h)
				if err == nil {
					b, err = Marshal(h)
				}
			} else {
				var h BFloat16
				err = Unmarshal(p, &h)
				got = uint16(h)
				if err == nil {
					b, err = Marshal(h)
				}
			}
			if err != nil || got != uint16(x) || !bytes.Equal(b, p) {
				bad++
				t.Errorf("type %d 0x%04x: Unmarshal 0x%04x, Marshal %x (%v)", tid, x, got, b, err)
			}
			if bad > 10 {
				t.FailNow()
			}
		}
		var got []uint16
		if tid == TypeFloat16 {
			var s []Float16
			if err := Unmarshal(list, &s); err != nil {
				t.Fatal(err)
			}
			for _, v := range s {
				got = append(got, uint16(v))
			}
		} else {
			var s []BFloat16
			if err := Unmarshal(list, &s); err != nil {
				t.Fatal(err)
			}
			for _, v := range s {
				got = append(got, uint16(v))
			}
		}
		for x := range got {
			if got[x] != uint16(x) {
				t.Fatalf("type %d: list item 0x%04x read as 0x%04x", tid, x, got[x])
			}
		}
		if len(got) != 1<<16 {
			t.Fatalf("type %d: %d list items", tid, len(got))
		}
	}
}

// Float64 and back is the identity on every pattern; a NaN's payload is the
// top of the float64's, quiet bit as it was.
func TestFloat16Float64Bits(t *testing.T) {
	for x := 0; x < 1<<16; x++ {
		h, b := Float16(x), BFloat16(x)
		if g := Float16FromFloat64(h.Float64()); g != h {
			t.Fatalf("Float16 0x%04x came back 0x%04x", x, uint16(g))
		}
		if g := BFloat16FromFloat64(b.Float64()); g != b {
			t.Fatalf("BFloat16 0x%04x came back 0x%04x", x, uint16(g))
		}
		if x&0x7fff > 0x7f80 {
			want := uint64(x>>15)<<63 | 0x7ff<<52 | uint64(x&0x7f)<<45
			if u := math.Float64bits(b.Float64()); u != want {
				t.Fatalf("BFloat16 0x%04x widened to 0x%016x", x, u)
			}
		}
		if x&0x7fff > 0x7c00 {
			want := uint64(x>>15)<<63 | 0x7ff<<52 | uint64(x&0x3ff)<<42
			if u := math.Float64bits(h.Float64()); u != want {
				t.Fatalf("Float16 0x%04x widened to 0x%016x", x, u)
			}
		}
	}
}
