package stream

import "unsafe"

const hasStream = true

// copyStream copies n bytes (a multiple of 64) from src to dst (16-byte
// aligned) with streaming stores, then fences them (stream_amd64.s).
//
//go:noescape
func copyStream(dst, src unsafe.Pointer, n uintptr)
