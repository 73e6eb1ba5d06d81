package wire

import (
	"testing"
	"time"
)

type zzTimes struct {
	A, B, C time.Time
	N       int32
}

func BenchmarkZZTimes(b *testing.B) {
	for _, compat := range []bool{false, true} {
		c, _ := NewContext(WithCompatible(compat))
		if err := c.RegisterStructID(990, zzTimes{}); err != nil {
			b.Fatal(err)
		}
		now := time.Now().UTC()
		data, err := c.Marshal(&zzTimes{now, now.Add(time.Hour), now.Add(-time.Hour), 5})
		if err != nil {
			b.Fatal(err)
		}
		name := "dec"
		if compat {
			name = "dec-compat"
		}
		b.Run(name, func(b *testing.B) {
			var v zzTimes
			for i := 0; i < b.N; i++ {
				if err := c.Unmarshal(data, &v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name[:3]+"enc"+name[3:], func(b *testing.B) {
			v := zzTimes{now, now, now, 5}
			buf := make([]byte, 0, 256)
			for i := 0; i < b.N; i++ {
				if _, err := c.MarshalAppend(buf[:0], &v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
