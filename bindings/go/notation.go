package wire

/*
#include <stdlib.h>
#include "wire.h"
*/
import "C"

import "unsafe"

// Flags of the value notation (spec/notation.md), WIRE_NOTATION_*.
const (
	NotationPretty    = 1 // indent by two spaces
	NotationUntracked = 2 // "tracked": false where tracking would flag 0x00
	NotationPlain     = 4 // plain JSON (lossy)
	NotationRefit     = 8 // parse: recorded wire choices that do not fit are chosen again
)

// Notation prints node n (and what it reaches) as one JSON document of the
// value notation, with libwire's printer (wire_notation_print).
func (d *Doc) Notation(n Node, flags int) ([]byte, error) {
	if n.n == nil {
		return nil, goErr("arg", "invalid node")
	}
	var out *C.uint8_t
	var ln C.size_t
	if st := C.wire_notation_print(d.c.ctx(), d.d, n.n, C.uint32_t(flags), &out, &ln); st != 0 {
		return nil, d.c.lastError(st)
	}
	b := C.GoBytes(unsafe.Pointer(out), C.int(ln))
	C.wire_ctx_free_bytes(d.c.ctx(), out)
	return b, nil
}

// AddNotation parses one JSON document of the value notation with libwire's
// parser (wire_notation_parse) and adds its value as a root.
func (d *Doc) AddNotation(text []byte, flags int) error {
	p := C.CBytes(text)
	defer C.free(p)
	var n *C.wire_node
	var used C.size_t
	if st := C.wire_notation_parse(d.c.ctx(), d.d, (*C.char)(p), C.size_t(len(text)),
		C.uint32_t(flags), &n, &used); st != 0 {
		return d.c.lastError(st)
	}
	return d.check(C.wire_doc_add_root(d.d, n))
}
