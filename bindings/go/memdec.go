package wire

// Decoding registered structs through the compiled codecs: the image that
// wire_mem_decode wrote into the session's arena (C memory) becomes Go
// values (see mem.go).

/*
#include "wire.h"
#include "shim.h"
*/
import "C"

import (
	"math/big"
	"reflect"
	"time"
	"unsafe"
)

type mdec struct {
	c     *Context
	memo  map[unsafe.Pointer]unsafe.Pointer // struct image -> its Go struct
	depth int
}

func ldPtr(p unsafe.Pointer) unsafe.Pointer { return *(*unsafe.Pointer)(p) }
func ldU64(p unsafe.Pointer) uint64         { return *(*uint64)(p) }

// ldLen32 reads a string's length (strForm: 32 bits; the word's other
// half is not written by libwire).
func ldLen32(p unsafe.Pointer) uint64 { return uint64(*(*uint32)(p)) }

// str copies n bytes of C memory into a Go string.
func (d *mdec) str(p unsafe.Pointer, n uint64) string {
	if n == 0 || p == nil {
		return ""
	}
	return d.c.goString(unsafe.Slice((*byte)(p), n))
}

// structFrom fills the Go struct at g from the image at m.
func (d *mdec) structFrom(t *imgType, m, g unsafe.Pointer) error {
	if len(t.runs) == 1 {
		r := t.runs[0]
		copy(unsafe.Slice((*byte)(unsafe.Add(g, r.off)), r.n), unsafe.Slice((*byte)(unsafe.Add(m, r.off)), r.n))
	} else {
		copyRuns(g, m, t.runs)
	}
	for _, o := range t.ops {
		if o.k == mkString {
			*(*string)(unsafe.Add(g, o.g)) = d.str(ldPtr(unsafe.Add(m, o.m)), ldLen32(unsafe.Add(m, o.aux)))
			continue
		}
		if err := d.op(o, m, g); err != nil {
			return err
		}
	}
	return nil
}

func (d *mdec) enter() error {
	d.depth++
	if d.depth > maxGoDepth {
		return goErr("depth", "value nested deeper than %d", maxGoDepth)
	}
	return nil
}

// structPtr is the Go struct of the struct image at p (one Go struct per
// image when identities are kept: shared and cyclic pointers).
func (d *mdec) structPtr(t *imgType, p unsafe.Pointer) (unsafe.Pointer, error) {
	if d.memo != nil {
		if g, ok := d.memo[p]; ok {
			return g, nil
		}
	}
	g := reflect.New(t.si.typ).UnsafePointer()
	if d.memo != nil {
		d.memo[p] = g
	}
	if err := d.enter(); err != nil {
		return nil, err
	}
	err := d.structFrom(t, p, g)
	d.depth--
	return g, err
}

// newBlock allocates n elements of w bytes of pointer-free Go memory.
func newBlock(n, w uintptr) unsafe.Pointer {
	switch w {
	case 1:
		return unsafe.Pointer(unsafe.SliceData(make([]byte, n)))
	case 2:
		return unsafe.Pointer(unsafe.SliceData(make([]uint16, n)))
	case 4:
		return unsafe.Pointer(unsafe.SliceData(make([]uint32, n)))
	}
	return unsafe.Pointer(unsafe.SliceData(make([]uint64, n)))
}

// null: whether the value of o (declared nullable, with a presence byte)
// was null; a null reads as the Go zero value, as on the tape path.
func (d *mdec) null(o *mop, m unsafe.Pointer) bool {
	return o.pres != noOff && *(*byte)(unsafe.Add(m, o.pres)) == 0
}

// op reads one value: m is the image of the struct (or the element slot),
// g the Go struct (or element).
func (d *mdec) op(o *mop, m, g unsafe.Pointer) error {
	gv := unsafe.Add(g, o.g)
	switch o.k {
	case mkPresent:
		// a null number: libwire wrote 0, the Go zero value; a null
		// struct: its lifted ops made time.Unix(0, 0) of a timestamp
		if o.typ != nil && d.null(o, m) {
			reflect.NewAt(o.typ, gv).Elem().SetZero()
		}
	case mkScalar:
		copy(unsafe.Slice((*byte)(gv), o.gsz), unsafe.Slice((*byte)(unsafe.Add(m, o.m)), o.gsz))
	case mkString:
		*(*string)(gv) = d.str(ldPtr(unsafe.Add(m, o.m)), ldLen32(unsafe.Add(m, o.aux)))
	case mkBlock:
		p, n := ldPtr(unsafe.Add(m, o.m)), uintptr(ldU64(unsafe.Add(m, o.aux)))
		if p == nil {
			*(*sliceHeader)(gv) = sliceHeader{}
			return nil
		}
		b := newBlock(n, o.ew)
		if n > 0 {
			copy(unsafe.Slice((*byte)(b), n*o.ew), unsafe.Slice((*byte)(p), n*o.ew))
		}
		*(*sliceHeader)(gv) = sliceHeader{b, int(n), int(n)}
	case mkList:
		return d.list(o, m, gv)
	case mkMap:
		return d.mapFrom(o, m, gv)
	case mkStruct:
		if d.null(o, m) {
			reflect.NewAt(o.typ, gv).Elem().SetZero()
			return nil
		}
		return d.structFrom(o.sub, unsafe.Add(m, o.m), gv)
	case mkBox:
		p := ldPtr(unsafe.Add(m, o.m))
		if p == nil {
			reflect.NewAt(o.typ, gv).Elem().SetZero()
			return nil
		}
		if err := d.enter(); err != nil {
			return err
		}
		err := d.structFrom(o.sub, p, gv)
		d.depth--
		return err
	case mkPtr:
		p := ldPtr(unsafe.Add(m, o.m))
		if p == nil {
			*(*unsafe.Pointer)(gv) = nil
			return nil
		}
		gp, err := d.structPtr(o.sub, p)
		if err != nil {
			return err
		}
		*(*unsafe.Pointer)(gv) = gp
	case mkPtrScalar:
		if *(*byte)(unsafe.Add(m, o.pres)) == 0 {
			*(*unsafe.Pointer)(gv) = nil
			return nil
		}
		np := reflect.New(o.typ.Elem()).UnsafePointer()
		copy(unsafe.Slice((*byte)(np), o.psz), unsafe.Slice((*byte)(unsafe.Add(m, o.m)), o.psz))
		*(*unsafe.Pointer)(gv) = np
	case mkPtrString:
		p := ldPtr(unsafe.Add(m, o.m))
		if p == nil {
			*(*unsafe.Pointer)(gv) = nil
			return nil
		}
		s := new(string)
		*s = d.str(p, ldLen32(unsafe.Add(m, o.aux)))
		*(*unsafe.Pointer)(gv) = unsafe.Pointer(s)
	case mkTime:
		if d.null(o, m) {
			*(*time.Time)(gv) = time.Time{} // the Go zero value, not time.Unix(0, 0)
			return nil
		}
		s, ns := *(*int64)(unsafe.Add(m, o.m)), *(*uint32)(unsafe.Add(m, o.m+8))
		*(*time.Time)(gv) = time.Unix(s, int64(ns)).UTC()
	case mkDuration:
		s, ns := *(*int64)(unsafe.Add(m, o.m)), *(*uint32)(unsafe.Add(m, o.m+8))
		dur, ok := durationOf(s, ns)
		if !ok {
			return goErr("value", "duration of %d s overflows time.Duration", s)
		}
		*(*time.Duration)(gv) = dur
	case mkDecimal:
		if d.null(o, m) {
			*(*Decimal)(gv) = Decimal{} // the Go zero value: a nil Unscaled
			return nil
		}
		dm := unsafe.Add(m, o.m)
		p, n := ldPtr(dm), *(*uint32)(unsafe.Add(dm, 8))
		be := make([]byte, n)
		if n > 0 {
			le := unsafe.Slice((*byte)(p), n)
			for i := range le {
				be[int(n)-1-i] = le[i]
			}
		}
		u := new(big.Int).SetBytes(be)
		if *(*uint32)(unsafe.Add(dm, 16)) != 0 {
			u.Neg(u)
		}
		*(*Decimal)(gv) = Decimal{Unscaled: u, Scale: *(*int32)(unsafe.Add(dm, 12))}
	}
	return nil
}

func (d *mdec) list(o *mop, m, gv unsafe.Pointer) error {
	p, n := ldPtr(unsafe.Add(m, o.m)), uintptr(ldU64(unsafe.Add(m, o.aux)))
	if p == nil {
		*(*sliceHeader)(gv) = sliceHeader{}
		return nil
	}
	el := o.el
	var items unsafe.Pointer
	if el.k == mkString && el.typ == typString {
		items = unsafe.Pointer(unsafe.SliceData(make([]string, n)))
	} else {
		items = reflect.MakeSlice(o.typ, int(n), int(n)).UnsafePointer()
	}
	if n == 0 {
		*(*sliceHeader)(gv) = sliceHeader{items, 0, 0}
		return nil
	}
	stride := o.stride()
	if el.k == mkStruct && el.sub.whole && stride == el.gsz {
		copy(unsafe.Slice((*byte)(items), n*stride), unsafe.Slice((*byte)(p), n*stride))
	} else if el.k == mkString {
		ss := unsafe.Slice((*string)(items), n)
		for i := range ss {
			it := unsafe.Add(p, uintptr(i)*stride)
			ss[i] = d.str(ldPtr(unsafe.Add(it, el.m)), ldLen32(unsafe.Add(it, el.aux)))
		}
	} else if el.k == mkStruct {
		if err := d.enter(); err != nil {
			return err
		}
		for i := uintptr(0); i < n; i++ {
			it := unsafe.Add(p, i*stride)
			if d.null(el, it) {
				continue // a null item: the zero struct MakeSlice made
			}
			if err := d.structFrom(el.sub, unsafe.Add(it, el.m), unsafe.Add(items, i*el.gsz)); err != nil {
				return err
			}
		}
		d.depth--
	} else {
		if err := d.enter(); err != nil {
			return err
		}
		for i := uintptr(0); i < n; i++ {
			if err := d.op(el, unsafe.Add(p, i*stride), unsafe.Add(items, i*el.gsz)); err != nil {
				return err
			}
		}
		d.depth--
	}
	*(*sliceHeader)(gv) = sliceHeader{items, int(n), int(n)}
	return nil
}

func (d *mdec) mapFrom(o *mop, m, gv unsafe.Pointer) error {
	p, n := ldPtr(unsafe.Add(m, o.m)), uintptr(ldU64(unsafe.Add(m, o.aux)))
	dst := reflect.NewAt(o.typ, gv).Elem()
	if p == nil {
		dst.SetZero()
		return nil
	}
	mv := reflect.MakeMapWithSize(o.typ, int(n))
	if n > 0 {
		if err := d.enter(); err != nil {
			return err
		}
		kv := reflect.New(o.typ.Key()).Elem()
		vv := reflect.New(o.typ.Elem()).Elem()
		kp, vp := kv.Addr().UnsafePointer(), vv.Addr().UnsafePointer()
		for i := uintptr(0); i < n; i++ {
			slot := unsafe.Add(p, i*o.esize)
			kv.SetZero()
			vv.SetZero()
			if err := d.op(o.el, slot, kp); err != nil {
				return err
			}
			if err := d.op(o.val, slot, vp); err != nil {
				return err
			}
			mv.SetMapIndex(kv, vv)
		}
		d.depth--
	}
	dst.Set(mv)
	return nil
}

// memFailed: what memUnmarshal returns for a compiled decode's status st.
func (c *Context) memFailed(st C.int32_t, data []byte) (fallback bool, err error) {
	if st == C.WIRE_E_UNSUPPORTED || (len(data) >= 2 && data[1] == 0xFD) {
		// a shared list or string under reference tracking, or a null
		// root (Unmarshal sets the zero value): the tape path reads it
		C.wire_ctx_clear_error(c.ctx())
		return true, nil
	}
	return false, c.lastError(st)
}

// memUnmarshal decodes data (one root of the registered struct of r) into
// the Go struct at gp. fallback is true when the compiled codec cannot hold
// what the payload says (a shared list or string under reference
// tracking: WIRE_E_UNSUPPORTED; a null root), and the tape path should
// read it.
func (c *Context) memUnmarshal(r *memRoot, data []byte, gp unsafe.Pointer) (fallback bool, err error) {
	var p *C.uint8_t
	if len(data) > 0 {
		p = (*C.uint8_t)(unsafe.Pointer(&data[0]))
	}
	if r.direct {
		// straight into the Go struct (no pointer in it: cgo lets C
		// write it during the call), from the input in Go memory (the
		// image holds no pointer into it); the arena path below only when
		// the decode needs an arena
		st := C.wirego_mem_decode_direct(C.uintptr_t(uintptr(unsafe.Pointer(c.s))), C.uint32_t(r.layout), p, C.size_t(len(data)), (*C.uint8_t)(gp))
		if st == 0 {
			return false, nil
		}
		if st != C.WIRE_E_BUFFER_FULL {
			return c.memFailed(st, data)
		}
	}
	if st := C.wirego_mem_decode(C.uintptr_t(uintptr(unsafe.Pointer(c.s))), C.uint32_t(r.layout), C.uint32_t(r.t.size), p, C.size_t(len(data))); st != 0 {
		return c.memFailed(st, data)
	}
	d := &c.mdec
	d.c, d.depth = c, 0
	img := unsafe.Pointer(c.s.arena)
	if r.memo {
		if d.memo == nil {
			d.memo = map[unsafe.Pointer]unsafe.Pointer{}
		}
		d.memo[img] = gp // a reference to the root
	} else {
		d.memo = nil
	}
	err = d.structFrom(r.t, img, gp)
	if d.memo != nil {
		clear(d.memo)
	}
	if c.s.arena_cap > C.WIREGO_KEEP_MAX || c.s.in_cap > C.WIREGO_KEEP_MAX {
		C.wirego_mem_trim(c.s)
	}
	return false, err
}
