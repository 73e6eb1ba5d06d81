package wire

/*
#include "wire.h"
#include "shim.h"
*/
import "C"

import (
	"reflect"
	"strings"
	"unsafe"
)

// Errors inside a struct field in the common form of libwire's compiled
// codecs and the other bindings (spec R-FIELD-3): `field <ns.Type>.<field>:
// <what>`, the wire names, given once by the innermost struct.

// inField names the field of struct typ (wire names) in err, unless an
// inner struct has named its own field already.
func inField(err error, typ, field string) error {
	we, ok := err.(*WireError)
	if !ok || strings.HasPrefix(we.Message, "field ") {
		return err
	}
	return &WireError{Class: we.Class, Offset: we.Offset, Message: "field " + typ + "." + field + ": " + we.Message}
}

// fieldErr (decoding, the tape path) names field f of si in err. A value
// of another type where the Go field holds a registered struct (a dynamic
// field in compatible mode, R-FIELD-3) is a schema error, worded as the
// compiled codecs word it; other errors keep the Go names
// (`pfH.F: ...`), as the encoder's do.
func (d *decoder) fieldErr(err error, si *structInfo, f *fieldInfo) error {
	we, ok := err.(*WireError)
	if !ok || strings.HasPrefix(we.Message, "field ") {
		return err
	}
	if we.found != "" {
		t := si.typ.FieldByIndex(f.goIndex).Type
		if t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if fs := d.c.reg.byType[t]; fs != nil && t != typStruct {
			return &WireError{Class: "schema", Offset: we.Offset,
				Message: "field " + d.c.TypeName(si.index) + "." + f.wireName + ": " + article(we.found) +
					" where struct " + d.c.TypeName(fs.index) + " is declared (Go field " + f.goName + ")"}
		}
	}
	return fieldErr(err, si, f)
}

// article: "a x" or "an x".
func article(s string) string {
	if s != "" && strings.ContainsRune("aeiou", rune(s[0])) {
		return "an " + s
	}
	return "a " + s
}

// fitAt gives a tape-path field error (of a root of si) the offset of the
// offending value: the read tape has no input offsets, so the compiled
// codecs read the payload again, into their image only (no Go value is
// written), when si has them; their error is taken only where it names the
// same field. Otherwise the offset stays 0.
func (c *Context) fitAt(err error, si *structInfo, data []byte) error {
	we, ok := err.(*WireError)
	if !ok || we.Class != "schema" || !strings.HasPrefix(we.Message, "field ") || len(data) == 0 {
		return err
	}
	r := c.memRootOf(si)
	if r.err != nil {
		return err
	}
	st := C.wirego_mem_decode(C.uintptr_t(uintptr(unsafe.Pointer(c.s))), C.uint32_t(r.layout), C.uint32_t(r.t.size),
		(*C.uint8_t)(unsafe.Pointer(&data[0])), C.size_t(len(data)))
	if st == 0 {
		return err
	}
	ce := c.lastError(st)
	C.wire_ctx_clear_error(c.ctx())
	if i := strings.Index(we.Message, ": "); ce.Class == we.Class && strings.HasPrefix(ce.Message, we.Message[:i+2]) {
		we.Offset = ce.Offset
	}
	return we
}
