package wire

// The per-value path: the same tapes (spec/tape.md), replayed in Go with one
// cgo call per node and accessor (the plain wire.h document API). It gives
// the same bytes and values as wire_encode_tape / wire_decode_tape and
// exists to measure what batching saves (WithPerValueCalls, BenchmarkRatios).

import (
	"encoding/binary"
	"math"
	"strconv"
)

type goReplay struct {
	doc  *Doc
	b    []byte
	p    int
	refs []Node
	ref  bool
}

func (r *goReplay) need(n int) {
	if r.p+n > len(r.b) {
		panic(errTape)
	}
}
func (r *goReplay) u8() byte { r.need(1); v := r.b[r.p]; r.p++; return v }
func (r *goReplay) u16() int {
	r.need(2)
	v := binary.LittleEndian.Uint16(r.b[r.p:])
	r.p += 2
	return int(v)
}
func (r *goReplay) u32() uint32 {
	r.need(4)
	v := binary.LittleEndian.Uint32(r.b[r.p:])
	r.p += 4
	return v
}
func (r *goReplay) u64() uint64 {
	r.need(8)
	v := binary.LittleEndian.Uint64(r.b[r.p:])
	r.p += 8
	return v
}
func (r *goReplay) take(n int) []byte {
	r.need(n)
	v := r.b[r.p : r.p+n]
	r.p += n
	return v
}
func (r *goReplay) bytes() []byte   { return r.take(int(r.u32())) }
func (r *goReplay) bytes16() []byte { return r.take(r.u16()) }

// reserve numbers a referenceable value in pre-order.
func (r *goReplay) reserve() int { r.refs = append(r.refs, Node{}); return len(r.refs) - 1 }

func (r *goReplay) fields(n Node) error {
	nf := int(r.u32())
	for i := 0; i < nf; i++ {
		name := string(r.bytes16())
		v, err := r.node()
		if err != nil {
			return err
		}
		if err := n.SetField(name, v); err != nil {
			return err
		}
	}
	return nil
}

func (r *goReplay) node() (Node, error) {
	d := r.doc
	op := r.u8()
	if op == opRef {
		k := int(r.u32())
		if k >= len(r.refs) || !r.refs[k].Valid() {
			return Node{}, goErr("ref", "REF %d names no earlier value", k)
		}
		n := r.refs[k]
		if r.ref {
			n.SetTracked(true)
		}
		return n, nil
	}
	k := -1
	if isReferenceable(op) {
		k = r.reserve()
	}
	keep := func(n Node) Node {
		if k >= 0 {
			r.refs[k] = n
		}
		return n
	}
	var n Node
	var err error
	switch {
	case op == opNull:
		n, err = d.Null()
	case op == TypeNone:
		n, err = d.None()
	case op == TypeBool:
		n, err = d.Bool(r.u8() != 0)
	case op >= TypeInt8 && op <= TypeTaggedInt64:
		n, err = d.Int(int(op), int64(r.u64()))
	case op >= TypeUint8 && op <= TypeTaggedUint64:
		n, err = d.Uint(int(op), r.u64())
	case op >= TypeFloat16 && op <= TypeFloat64:
		n, err = d.Float(int(op), math.Float64frombits(r.u64()))
	case op == TypeString:
		enc := int(int8(r.u8()))
		if enc == StrUTF8 || enc < 0 {
			n, err = d.String(string(r.bytes()), enc)
		} else { // bytes in a wire encoding: convert for the UTF-8 builder
			dd := &decoder{b: r.b, p: r.p - 1}
			s := dd.text()
			r.p = dd.p
			n, err = d.String(s, enc)
		}
	case op == TypeBinary:
		n, err = d.Binary(r.bytes())
	case op == TypeDate:
		n, err = d.Date(int64(r.u64()))
	case op == TypeTimestamp || op == TypeDuration:
		s := int64(r.u64())
		if op == TypeTimestamp {
			n, err = d.Timestamp(s, r.u32())
		} else {
			n, err = d.Duration(s, r.u32())
		}
	case op == TypeDecimal:
		scale := int32(r.u32())
		neg := r.u8() != 0
		n, err = d.Decimal(neg, r.bytes(), scale)
	case op == TypeEnum:
		ti := r.u32()
		n, err = d.EnumOf(ti, r.u32())
	case op == opEnumID:
		id := r.u32()
		n, err = d.Enum(id, r.u32())
	case op == TypeNamedEnum:
		ns := string(r.bytes16())
		nm := string(r.bytes16())
		n, err = d.NamedEnum(ns, nm, r.u32())
	case op == TypeList || op == TypeSet:
		count := int(r.u32())
		if n, err = d.List(int(op)); err != nil {
			return n, err
		}
		keep(n)
		for i := 0; i < count; i++ {
			c, err := r.node()
			if err != nil {
				return n, err
			}
			if err := n.Append(c); err != nil {
				return n, err
			}
		}
		return n, nil
	case op == opPacked:
		kind, et := r.u8(), r.u8()
		count := int(r.u32())
		if n, err = d.List(int(kind)); err != nil {
			return n, err
		}
		keep(n)
		for i := 0; i < count; i++ {
			u := r.u64()
			var c Node
			switch {
			case et == TypeBool:
				c, err = d.Bool(u != 0)
			case et >= TypeInt8 && et <= TypeTaggedInt64:
				c, err = d.Int(int(et), int64(u))
			case et >= TypeUint8 && et <= TypeTaggedUint64:
				c, err = d.Uint(int(et), u)
			default:
				c, err = d.Float(int(et), math.Float64frombits(u))
			}
			if err != nil {
				return n, err
			}
			if err := n.Append(c); err != nil {
				return n, err
			}
		}
		return n, nil
	case op == TypeMap:
		count := int(r.u32())
		if n, err = d.Map(); err != nil {
			return n, err
		}
		keep(n)
		for i := 0; i < count; i++ {
			kn, err := r.node()
			if err != nil {
				return n, err
			}
			vn, err := r.node()
			if err != nil {
				return n, err
			}
			if err := n.Put(kn, vn); err != nil {
				return n, err
			}
		}
		return n, nil
	case op == tapeStruct || op == opStructTD:
		var td []byte
		if op == opStructTD {
			td = r.bytes()
		}
		ti := r.u32()
		if ti == noType {
			r.u32()
			r.bytes16()
			r.bytes16()
		}
		if td != nil {
			n, err = d.StructTypeDef(td)
		} else {
			n, err = d.Struct(ti)
		}
		if err != nil {
			return n, err
		}
		keep(n)
		return n, r.fields(n)
	case op == tapeUnion:
		ti, cs := r.u32(), r.u32()
		v, err := r.node()
		if err != nil {
			return v, err
		}
		if n, err = d.Union(ti, cs, v); err != nil {
			return n, err
		}
		return keep(n), nil
	case ArrayWidth(int(op)) > 0:
		n, err = d.Array(int(op), r.bytes())
	default:
		return Node{}, goErr("arg", "unknown tape op 0x%02x", op)
	}
	if err != nil {
		return n, err
	}
	return keep(n), nil
}

// addTapePerValue adds the roots of a tape to the document with one cgo
// call per node (what wire_doc_add_tape does in one call).
func (d *Doc) addTapePerValue(tp []byte) (err error) {
	r := &goReplay{doc: d, b: tp, ref: d.c.cfg.ref}
	defer func() {
		if x := recover(); x != nil {
			if we, ok := x.(*WireError); ok {
				err = we
				return
			}
			panic(x)
		}
	}()
	if len(tp) < 8 || tp[0] != 'W' || tp[1] != 'T' || tp[2] != 1 {
		return goErr("arg", "not a version 1 tape")
	}
	r.p = 4
	roots := int(r.u32())
	for i := 0; i < roots; i++ {
		n, err := r.node()
		if err != nil {
			return err
		}
		if err := d.AddRoot(n); err != nil {
			return err
		}
	}
	return nil
}

func (c *Context) encodePerValue(tp []byte) ([]byte, error) {
	d, err := c.NewDoc()
	if err != nil {
		return nil, err
	}
	defer d.Free()
	if err := d.addTapePerValue(tp); err != nil {
		return nil, err
	}
	return d.Encode()
}

// decodePerValue decodes with wire_decode and walks the document with one
// cgo call per accessor, writing the tape wire_decode_tape would write.
func (c *Context) decodePerValue(data []byte) ([]byte, error) {
	d, err := c.DecodeDoc(data)
	if err != nil {
		return nil, err
	}
	defer d.Free()
	w := &goEmit{seen: map[uint32]uint32{}}
	nr := d.RootCount()
	w.t.b = []byte{'W', 'T', 1, 0}
	w.t.u32(uint32(nr))
	for i := 0; i < nr; i++ {
		w.emit(d.Root(i))
	}
	return w.t.b, nil
}

type goEmit struct {
	t    tape
	seen map[uint32]uint32 // node index -> tape number + 1
	next uint32
}

func (w *goEmit) fields(n Node) {
	cnt := n.Count()
	at := len(w.t.b)
	w.t.u32(0)
	set := uint32(0)
	for i := 0; i < cnt; i++ {
		f := n.Field(i)
		if !f.Valid() {
			continue
		}
		name, ok := n.FieldName(i)
		if !ok {
			name = "#" + strconv.Itoa(n.FieldTag(i))
		}
		w.t.name16(name)
		w.emit(f)
		set++
	}
	binary.LittleEndian.PutUint32(w.t.b[at:], set)
}

func (w *goEmit) emit(n Node) {
	idx := n.Index()
	t := n.Type()
	if t != TypeNull && isReferenceable(byte(t)) || t >= TypeStruct && t <= TypeNamedUnion {
		if k, ok := w.seen[idx]; ok {
			w.t.u8(opRef)
			w.t.u32(k - 1)
			return
		}
		w.next++
		w.seen[idx] = w.next
	}
	switch {
	case t == TypeNull:
		w.t.u8(opNull)
	case t == TypeNone:
		w.t.u8(TypeNone)
	case t == TypeBool:
		w.t.u8(TypeBool)
		w.t.u8(byte(n.Int()))
	case t == TypeString:
		w.t.u8(TypeString)
		w.t.u8(byte(n.StringEncoding()))
		w.t.bytes(n.Bytes())
	case t == TypeBinary:
		w.t.u8(TypeBinary)
		w.t.bytes(n.Bytes())
	case t == TypeList || t == TypeSet:
		cnt := n.Count()
		et := -1
		if cnt >= 2 {
			et = n.Child(0).Type()
		}
		packed := et == TypeBool || et >= TypeInt8 && et <= TypeTaggedUint64 || et >= TypeFloat16 && et <= TypeFloat64
		for i := 1; packed && i < cnt; i++ {
			packed = n.Child(i).Type() == et
		}
		if packed {
			w.t.u8(opPacked)
			w.t.u8(byte(t))
			w.t.u8(byte(et))
			w.t.u32(uint32(cnt))
			for i := 0; i < cnt; i++ {
				c := n.Child(i)
				switch {
				case et == TypeBool || et <= TypeTaggedInt64:
					w.t.u64(uint64(c.Int()))
				case et <= TypeTaggedUint64:
					w.t.u64(c.Uint())
				default:
					w.t.f64(c.Float())
				}
			}
			return
		}
		w.t.u8(byte(t))
		w.t.u32(uint32(cnt))
		for i := 0; i < cnt; i++ {
			w.emit(n.Child(i))
		}
	case t == TypeMap:
		cnt := n.Count()
		w.t.u8(TypeMap)
		w.t.u32(uint32(cnt))
		for i := 0; i < cnt; i++ {
			w.emit(n.MapKey(i))
			w.emit(n.MapValue(i))
		}
	case t == TypeDate:
		w.t.u8(TypeDate)
		w.t.u64(uint64(n.Int()))
	case t == TypeTimestamp || t == TypeDuration:
		w.t.u8(byte(t))
		w.t.u64(uint64(n.Int()))
		w.t.u32(n.Nanos())
	case t == TypeDecimal:
		w.t.u8(TypeDecimal)
		w.t.u32(uint32(n.DecimalScale()))
		if n.DecimalNegative() {
			w.t.u8(1)
		} else {
			w.t.u8(0)
		}
		w.t.bytes(n.Bytes())
	case t == TypeEnum || t == TypeNamedEnum:
		if ti, ok := n.UserType(); ok {
			w.t.u8(TypeEnum)
			w.t.u32(ti)
		} else if t == TypeEnum {
			w.t.u8(opEnumID)
			w.t.u32(n.EnumTypeID())
		} else {
			w.t.u8(TypeNamedEnum)
			w.t.name16(n.EnumNamespace())
			w.t.name16(string(n.Bytes()))
		}
		w.t.u32(n.EnumValue())
	case t >= TypeStruct && t <= TypeNamedExt:
		td := n.TypeDef()
		ti, known := n.UserType()
		if td != nil {
			w.t.u8(opStructTD)
			w.t.bytes(td)
		} else {
			w.t.u8(tapeStruct)
		}
		if known {
			w.t.u32(ti)
		} else {
			w.t.u32(noType)
			ns, nm, _ := n.TypeNames()
			w.t.u32(n.UserTypeID())
			w.t.name16(ns)
			w.t.name16(nm)
		}
		w.fields(n)
	case t >= TypeUnion && t <= TypeNamedUnion:
		ti, ok := n.UserType()
		if !ok {
			ti = noType
		}
		w.t.u8(tapeUnion)
		w.t.u32(ti)
		w.t.u32(n.UnionCase())
		w.emit(n.UnionValue())
	case t >= TypeInt8 && t <= TypeTaggedInt64:
		w.t.u8(byte(t))
		w.t.u64(uint64(n.Int()))
	case t >= TypeUint8 && t <= TypeTaggedUint64:
		w.t.u8(byte(t))
		w.t.u64(n.Uint())
	case t >= TypeFloat16 && t <= TypeFloat64:
		w.t.u8(byte(t))
		w.t.f64(n.Float())
	default:
		w.t.u8(byte(t))
		w.t.bytes(n.Bytes())
	}
}
