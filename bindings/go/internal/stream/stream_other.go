//go:build !amd64

package stream

import "unsafe"

const hasStream = false

func copyStream(dst, src unsafe.Pointer, n uintptr) {
	copy(unsafe.Slice((*byte)(dst), n), unsafe.Slice((*byte)(src), n))
}
