// Package stream copies large blocks into memory that is not in the cache
// with streaming (non-temporal) stores where the host has them (amd64):
// each destination line is written whole, without being read first, and
// stays out of the cache. An ordinary copy into such memory reads every
// destination line before it writes it, so that one pass over the bytes
// costs two. The Go binding uses it for large decoded binaries and dense
// arrays, whose memory the allocator has just handed out (recycled, not in
// the cache). Go's own memmove streams from 1 MiB on (with AVX stores and
// prefetching, on amd64), so Copy leaves copies of that size to it.
//
// It is Go assembly rather than C so that the copy is no cgo call: a cgo
// call of the 50-100 µs that a large copy takes can lose its P to the
// scheduler, and then waits to get one back.
package stream

import "unsafe"

// chunk: the copy is made in pieces of this many bytes, so that the
// goroutine can be preempted between them (the assembly loop cannot be).
const chunk = 256 << 10

// goStreams: from this many bytes on Go's memmove streams itself.
const goStreams = 1 << 20

// Copy copies src[0..n) to dst[0..n) (the two do not overlap).
func Copy(dst, src unsafe.Pointer, n int) {
	d := unsafe.Slice((*byte)(dst), n)
	s := unsafe.Slice((*byte)(src), n)
	if !hasStream || n < 64 || n >= goStreams {
		copy(d, s)
		return
	}
	// the streaming stores want d 16-byte aligned: bytes before that, and
	// the tail under 64 bytes, by copy
	head := int(-uintptr(dst) & 15)
	copy(d[:head], s)
	d, s = d[head:], s[head:]
	for len(d) >= 64 {
		k := min(len(d), chunk) &^ 63
		copyStream(unsafe.Pointer(unsafe.SliceData(d)), unsafe.Pointer(unsafe.SliceData(s)), uintptr(k))
		d, s = d[k:], s[k:]
	}
	copy(d, s)
}
