package wire

import (
	"errors"
	"math"
	"testing"
	"time"
)

type durHolder struct{ D time.Duration }

// Every time.Duration crosses, the ends of int64 included (a Duration
// splits into floor seconds and 0 <= ns < 1e9, so MinInt64 is
// -9223372037 s + 145224192 ns): at the root, in a struct through the
// compiled codecs and through the tape path. One nanosecond past either
// end is refused with a value error.
func TestDurationRange(t *testing.T) {
	c, _ := NewContext()
	defer c.Close()
	if err := c.RegisterStructID(720, durHolder{}); err != nil {
		t.Fatal(err)
	}
	for _, d := range []time.Duration{math.MinInt64, math.MinInt64 + 1, math.MaxInt64, math.MaxInt64 - 1,
		-9223372036 * time.Second, 9223372036 * time.Second, -1, 0, 1} {
		b, err := c.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		var back time.Duration
		if err := c.Unmarshal(b, &back); err != nil || back != d {
			t.Errorf("root %d: read %d, %v", d, back, err)
		}
		for _, tape := range []bool{false, true} {
			c.forceTape = tape
			b, err := c.Marshal(&durHolder{d})
			if err != nil {
				t.Fatal(err)
			}
			var h durHolder
			err = c.Unmarshal(b, &h)
			c.forceTape = false
			if err != nil || h.D != d {
				t.Errorf("field %d (tape %v): read %d, %v", d, tape, h.D, err)
			}
		}
	}
	// past the ends: seconds and nanoseconds whose sum leaves int64
	for _, sn := range []struct {
		s  int64
		ns uint32
	}{{9223372036, 854775808}, {-9223372037, 145224191}, {9223372037, 0}, {-9223372038, 999999999}, {math.MaxInt64, 0}, {math.MinInt64, 0}} {
		if d, ok := durationOf(sn.s, sn.ns); ok {
			t.Errorf("%d s %d ns: accepted as %d", sn.s, sn.ns, d)
		}
		if sn.s == math.MaxInt64 || sn.s == math.MinInt64 {
			continue // a varint64 has at most 9 bytes (E-4): no payload holds these
		}
		b, _ := c.Marshal(time.Duration(0))
		b = b[:len(b)-5] // the root's seconds (one-byte varint 0) and nanos replaced
		b = appendZigzag(b, sn.s)
		b = append(b, byte(sn.ns), byte(sn.ns>>8), byte(sn.ns>>16), byte(sn.ns>>24))
		var back time.Duration
		if err := c.Unmarshal(b, &back); !errors.Is(err, &WireError{Class: "value"}) {
			t.Errorf("%d s %d ns (%x): read %d, %v", sn.s, sn.ns, b, back, err)
		}
	}
}

func appendZigzag(b []byte, v int64) []byte {
	u := uint64(v<<1) ^ uint64(v>>63)
	for u >= 0x80 {
		b = append(b, byte(u)|0x80)
		u >>= 7
	}
	return append(b, byte(u))
}
