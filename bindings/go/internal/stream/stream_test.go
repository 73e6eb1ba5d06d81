package stream

import (
	"bytes"
	"testing"
	"unsafe"
)

// Every length around the 64-byte steps, the chunk size and the size Go
// streams itself, at every alignment of the destination (a few for the
// large lengths) and several of the source, copies exactly the bytes asked
// for and writes nothing just before or after the destination.
func TestCopy(t *testing.T) {
	src := make([]byte, goStreams+300)
	for i := range src {
		src[i] = byte(i*131 + i>>8)
	}
	dst := make([]byte, len(src)+128)
	lens := []int{0, 1, 15, 16, 63, 64, 65, 127, 128, 129, 1000, 4096 + 7, chunk - 1, chunk, chunk + 65, goStreams - 1, goStreams}
	for _, n := range lens {
		dos, sos := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, []int{0, 5, 10, 15}
		if n > 4096 {
			dos, sos = []int{0, 7, 8}, []int{0, 5}
		}
		for _, so := range sos {
			for _, do := range dos {
				at := 64 + do
				for i := range dst[:at+n+64] {
					dst[i] = 0xA5
				}
				Copy(unsafe.Pointer(&dst[at]), unsafe.Pointer(&src[so]), n)
				if !bytes.Equal(dst[at:at+n], src[so:so+n]) {
					t.Fatalf("n=%d src+%d dst+%d: bytes differ", n, so, do)
				}
				for i := at - 64; i < at+n+64; i++ {
					if (i < at || i >= at+n) && dst[i] != 0xA5 {
						t.Fatalf("n=%d src+%d dst+%d: byte %d outside written", n, so, do, i-at)
					}
				}
			}
		}
	}
}
