package wire

// #include "shim.h"
import "C"

import "unsafe"

// typedefSkips: which fields of a writer's TypeDef td (a STRUCT_TD record
// of nf fields) the compiled codecs drop when they read a struct of si's
// type with it (wire_mem_typedef_skips): a field whose declared type the
// Go field's form cannot carry is, in Fory's model, another field, so the
// tape path leaves it zero too. nil when every field is read: no TypeDef,
// or a type without compiled codecs (the tape path is its only reader).
func (c *Context) typedefSkips(si *structInfo, td []byte, nf int) ([]bool, error) {
	if td == nil {
		return nil, nil
	}
	r := c.memRootOf(si)
	if r.err != nil {
		return nil, nil
	}
	if s, ok := c.tdSkips[r.layout][string(td)]; ok {
		return s, nil
	}
	out := make([]byte, nf)
	var n C.size_t
	var op *C.uint8_t
	if nf > 0 {
		op = (*C.uint8_t)(unsafe.Pointer(&out[0]))
	}
	if st := C.wire_mem_typedef_skips(c.ctx(), C.uint32_t(r.layout), (*C.uint8_t)(unsafe.Pointer(unsafe.SliceData(td))),
		C.size_t(len(td)), op, C.size_t(nf), &n); st != 0 {
		return nil, c.lastError(st)
	}
	if int(n) != nf {
		return nil, errTape
	}
	s := make([]bool, nf)
	for i, b := range out {
		s[i] = b != 0
	}
	if c.tdSkips == nil {
		c.tdSkips = map[uint32]map[string][]bool{}
	}
	if c.tdSkips[r.layout] == nil {
		c.tdSkips[r.layout] = map[string][]bool{}
	}
	c.tdSkips[r.layout][string(td)] = s
	return s, nil
}
