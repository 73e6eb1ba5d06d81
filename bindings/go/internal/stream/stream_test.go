package stream

import (
	"bytes"
	"testing"
	"unsafe"
)

// Every length around the 64-byte steps and the chunk size, at every
// alignment of source and destination, copies exactly the bytes asked
// for and writes nothing outside the destination.
func TestCopy(t *testing.T) {
	src := make([]byte, goStreams+300)
	for i := range src {
		src[i] = byte(i*131 + i>>8)
	}
	dst := make([]byte, len(src)+64)
	lens := []int{0, 1, 15, 16, 63, 64, 65, 127, 128, 129, 1000, 4096 + 7, chunk - 1, chunk, chunk + 65, goStreams - 1, goStreams}
	for _, n := range lens {
		for so := 0; so < 16; so += 5 {
			for do := 0; do < 16; do++ {
				for i := range dst {
					dst[i] = 0xA5
				}
				Copy(unsafe.Pointer(&dst[do+16]), unsafe.Pointer(&src[so]), n)
				if !bytes.Equal(dst[do+16:do+16+n], src[so:so+n]) {
					t.Fatalf("n=%d src+%d dst+%d: bytes differ", n, so, do)
				}
				for i, b := range dst {
					if (i < do+16 || i >= do+16+n) && b != 0xA5 {
						t.Fatalf("n=%d src+%d dst+%d: byte %d outside written", n, so, do, i)
					}
				}
			}
		}
	}
}
