package wire

/*
#include "wire.h"
*/
import "C"

import (
	"encoding/binary"
	"unsafe"
)

// Input offsets of the tape path's own errors. A read tape carries no
// input offsets, so an error the binding finds while it builds Go values
// (a value that does not fit its Go type, a record of another type than
// the target, an unknown enum ordinal, a memory limit...) is first made
// at offset 0. On that cold path only, atValue numbers the record at
// fault as spec/tape.md's "Input offsets" does (walking the tape up to
// it) and asks libwire, which decodes the payload again, for that value's
// input offset (wire_decode_tape_offset). Success costs nothing.

// failAt: the tape record at fault of an error being returned is the last
// one starting before d.p; sub > 0 (set where the error is made) picks the
// (sub-1)-th value inside it: a PACKED element (sub = 2 + i), an
// ENTRY_RUN key or value (sub = 1 + j).
func (d *decoder) atValue(err error, tape []byte) error {
	we, ok := err.(*WireError)
	if !ok || we.Offset != 0 || we == errTape || len(d.in) == 0 {
		return err
	}
	k, ok := tapeValueNumber(tape, d.p, d.sub)
	if !ok {
		return err
	}
	var off C.uint64_t
	ctx := d.c.ctx()
	st := C.wire_decode_tape_offset(ctx, (*C.uint8_t)(unsafe.Pointer(&d.in[0])), C.size_t(len(d.in)),
		tapeFlags, C.uint64_t(k), &off)
	C.wire_ctx_clear_error(ctx)
	if st != 0 || uint64(off) >= uint64(len(d.in)) {
		return err
	}
	e := *we
	e.Offset = uint64(off)
	return &e
}

// tapeValueNumber numbers (spec/tape.md, "Input offsets") the value of
// read tape b whose record is the last to start before pos, plus sub-1
// when sub > 0; false for a malformed tape or no such record.
func tapeValueNumber(b []byte, pos, sub int) (uint64, bool) {
	w := tapeWalker{b: b, p: 8, pos: pos}
	if len(b) < 8 {
		return 0, false
	}
	roots := binary.LittleEndian.Uint32(b[4:])
	for i := uint32(0); i < roots && w.ok(); i++ {
		w.value()
	}
	if w.bad || !w.found {
		return 0, false
	}
	if sub > 0 {
		return w.hit + uint64(sub-1), true
	}
	return w.hit, true
}

type tapeWalker struct {
	b          []byte
	p, pos     int
	n, hit     uint64 // values numbered so far; the one found
	found, bad bool
	depth      int
}

func (w *tapeWalker) ok() bool { return !w.bad && w.p < w.pos }

func (w *tapeWalker) take(n int) int {
	if n < 0 || len(w.b)-w.p < n {
		w.bad = true
		return w.p
	}
	p := w.p
	w.p += n
	return p
}

func (w *tapeWalker) u32() int {
	p := w.take(4)
	if w.bad {
		return 0
	}
	return int(binary.LittleEndian.Uint32(w.b[p:]))
}

func (w *tapeWalker) u16() int {
	p := w.take(2)
	if w.bad {
		return 0
	}
	return int(binary.LittleEndian.Uint16(w.b[p:]))
}

// note numbers a value whose record starts at p.
func (w *tapeWalker) note(p int) {
	if p < w.pos {
		w.hit, w.found = w.n, true
	}
	w.n++
}

// value walks one record and its children, stopping once past pos.
func (w *tapeWalker) value() {
	if !w.ok() {
		return
	}
	if w.depth++; w.depth > maxGoDepth+2 {
		w.bad = true
		return
	}
	defer func() { w.depth-- }()
	start := w.take(1)
	if w.bad {
		return
	}
	op := w.b[start]
	if op == opEntryRun { // not a value: its keys and values are
		h := w.take(21)
		if w.bad {
			return
		}
		if start < w.pos {
			w.hit, w.found = w.n, true
		}
		w.n += 2 * uint64(binary.LittleEndian.Uint32(w.b[h+1:]))
		return
	}
	w.note(start)
	switch {
	case op == opNull || op == TypeNone:
	case op == TypeBool:
		w.take(1)
	case op >= TypeInt8 && op <= TypeTaggedUint64, op >= TypeFloat16 && op <= TypeFloat64, op == TypeDate:
		w.take(8)
	case op == TypeString || op&0x80 != 0 && op < 0x83:
		w.take(1)
		w.take(w.u32())
	case op == TypeList || op == TypeSet:
		for n := w.u32(); n > 0 && w.ok(); n-- {
			w.value()
		}
	case op == TypeMap:
		for n := w.u32(); n > 0 && w.ok(); n-- {
			if w.p < len(w.b) && w.b[w.p] == opEntryRun {
				c := int(binary.LittleEndian.Uint32(w.b[min(w.p+2, len(w.b)-4):]))
				w.value()
				n -= c - 1
				continue
			}
			w.value()
			w.value()
		}
	case op == TypeEnum, op == opEnumID, op == opRef:
		w.take(8 - 4*btoi(op == opRef))
	case op == TypeNamedEnum:
		w.take(w.u16())
		w.take(w.u16())
		w.take(4)
	case op == tapeStruct || op == opStructTD:
		if op == opStructTD {
			w.take(w.u32())
		}
		if w.u32() == int(noType) {
			w.take(4)
			w.take(w.u16())
			w.take(w.u16())
		}
		for n := w.u32(); n > 0 && w.ok(); n-- {
			w.take(w.u16())
			w.value()
		}
	case op == opStructIdx:
		w.take(4)
		for n := w.u32(); n > 0 && w.ok(); n-- {
			w.value()
		}
	case op == tapeUnion:
		w.take(8)
		w.value()
	case op == TypeDuration || op == TypeTimestamp:
		w.take(12)
	case op == TypeDecimal:
		w.take(5)
		w.take(w.u32())
	case op == TypeBinary || ArrayWidth(int(op)) > 0:
		w.take(w.u32())
	case op == opPacked:
		w.take(2)
		n := w.u32()
		p := w.take(8 * n)
		for i := 0; i < n && !w.bad; i++ {
			w.note(p + 8*i)
		}
	case op == opSpan || op == opStrSpan:
		w.take(13)
	default:
		w.bad = true
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
