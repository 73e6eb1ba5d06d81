package main

// The value notation (spec/notation.md) over the binding's Document API.

import (
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	wire "libwire.dev/wire"
)

// ---------------------------------------------------------------------------
// Printing

type printer struct {
	c         *wire.Context
	refs      map[uint32]int
	visited   map[uint32]bool
	untracked bool
	tds       []uintptr
}

func rootJSON(c *wire.Context, d *wire.Doc, i int, untracked bool) *jv {
	return nodeJSON(c, d.Root(i), untracked)
}

func nodeJSON(c *wire.Context, r wire.Node, untracked bool) *jv {
	p := &printer{c: c, refs: map[uint32]int{}, visited: map[uint32]bool{}, untracked: untracked}
	p.count(r)
	return p.node(r)
}

func (p *printer) count(n wire.Node) {
	i := n.Index()
	p.refs[i]++
	if p.refs[i] > 1 {
		return
	}
	t := n.Type()
	switch {
	case t == wire.TypeList || t == wire.TypeSet:
		for k := 0; k < n.Count(); k++ {
			p.count(n.Child(k))
		}
	case t == wire.TypeMap:
		for k := 0; k < n.Count(); k++ {
			p.count(n.MapKey(k))
			p.count(n.MapValue(k))
		}
	case t >= wire.TypeStruct && t <= wire.TypeNamedExt:
		for k := 0; k < n.Count(); k++ {
			if f := n.Field(k); f.Valid() {
				p.count(f)
			}
		}
	case t >= wire.TypeUnion && t <= wire.TypeNamedUnion:
		p.count(n.UnionValue())
	}
}

func (p *printer) typeIdent(n wire.Node, o *jv) {
	if ti, ok := n.UserType(); ok {
		// libwire reports a type index without a name for an untyped
		// UNION (33); like the wire CLI, print no type then.
		if name := p.c.TypeName(ti); name != "" {
			o.set("type", jstr(name))
		}
		return
	}
	if ns, name, ok := n.TypeNames(); ok {
		if ns != "" {
			name = ns + "." + name
		}
		o.set("type", jstr(name))
		return
	}
	if id := n.UserTypeID(); id != 0xFFFFFFFF {
		o.set("type_id", juint(uint64(id)))
	}
}

func floatBitsJSON(t int, bits uint64) *jv {
	switch t {
	case wire.TypeFloat64:
		return jstr(fmt.Sprintf("0x%016x", bits))
	case wire.TypeFloat32:
		return jstr(fmt.Sprintf("0x%08x", bits))
	}
	return jstr(fmt.Sprintf("0x%04x", bits))
}

func floatValue(t int, bits uint64) float64 {
	switch t {
	case wire.TypeFloat16:
		return wire.Float16(bits).Float64()
	case wire.TypeBfloat16:
		return wire.BFloat16(bits).Float64()
	case wire.TypeFloat32:
		return float64(math.Float32frombits(uint32(bits)))
	}
	return math.Float64frombits(bits)
}

func floatApprox(t int, bits uint64) *jv {
	v := floatValue(t, bits)
	switch {
	case math.IsNaN(v):
		return jstr("nan")
	case math.IsInf(v, 1):
		return jstr("inf")
	case math.IsInf(v, -1):
		return jstr("-inf")
	}
	switch t {
	case wire.TypeFloat64:
		return jstr(strconv.FormatFloat(v, 'g', -1, 64))
	case wire.TypeFloat32:
		return jstr(strconv.FormatFloat(v, 'g', -1, 32))
	}
	var s string
	for prec := 1; prec <= 5; prec++ {
		s = strconv.FormatFloat(v, 'g', prec, 64)
		back, _ := strconv.ParseFloat(s, 64)
		var again uint64
		if t == wire.TypeFloat16 {
			again = uint64(wire.Float16FromFloat64(back))
		} else {
			again = uint64(wire.BFloat16FromFloat64(back))
		}
		if again == bits {
			break
		}
	}
	return jstr(s)
}

var strEncNames = map[int]string{wire.StrLatin1: "latin1", wire.StrUTF16: "utf16", wire.StrUTF8: "utf8"}

// civil converts days since 1970-01-01 to a proleptic Gregorian date.
func civil(z int64) (int64, int, int) {
	z += 719468
	era := z
	if z < 0 {
		era = z - 146096
	}
	era /= 146097
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := doy - (153*mp+2)/5 + 1
	m := mp + 3
	if mp >= 10 {
		m = mp - 9
	}
	if m <= 2 {
		y++
	}
	return y, int(m), int(d)
}

func (p *printer) nameEncodings(n wire.Node, o *jv) {
	a, b, ok := n.NameEncodings()
	if !ok || a < 0 {
		return
	}
	o.set("ns_enc", jstr(wire.MetaEncodingName(a)))
	o.set("name_enc", jstr(wire.MetaEncodingName(b)))
}

func arrayJSON(n wire.Node) *jv {
	t := n.Type()
	raw := n.Bytes()
	w := wire.ArrayWidth(t)
	out := jarr()
	for i := 0; i+w <= len(raw); i += w {
		var u uint64
		for k := 0; k < w; k++ {
			u |= uint64(raw[i+k]) << (8 * k)
		}
		var v *jv
		switch t {
		case wire.TypeBoolArray:
			v = jbool(u != 0)
		case wire.TypeInt8Array:
			v = jstr(strconv.FormatInt(int64(int8(u)), 10))
		case wire.TypeInt16Array:
			v = jstr(strconv.FormatInt(int64(int16(u)), 10))
		case wire.TypeInt32Array:
			v = jstr(strconv.FormatInt(int64(int32(u)), 10))
		case wire.TypeInt64Array:
			v = jstr(strconv.FormatInt(int64(u), 10))
		case wire.TypeFloat16Array:
			v = floatBitsJSON(wire.TypeFloat16, u)
		case wire.TypeBfloat16Array:
			v = floatBitsJSON(wire.TypeBfloat16, u)
		case wire.TypeFloat32Array:
			v = floatBitsJSON(wire.TypeFloat32, u)
		case wire.TypeFloat64Array:
			v = floatBitsJSON(wire.TypeFloat64, u)
		default:
			v = jstr(strconv.FormatUint(u, 10))
		}
		out.arr = append(out.arr, v)
	}
	return out
}

func (p *printer) node(n wire.Node) *jv {
	idx := n.Index()
	anchor := fmt.Sprintf("a%d", idx)
	if p.visited[idx] {
		o := jobj()
		o.set("ref", jstr(anchor))
		return o
	}
	p.visited[idx] = true
	t := n.Type()
	name := wire.TypeName(t)
	o := jobj()
	switch {
	case t == wire.TypeNull:
		o.set("null", jnull())
	case t == wire.TypeNone:
		o.set("none", jnull())
	case t == wire.TypeBool:
		o.set("bool", jbool(n.Int() != 0))
	case t >= wire.TypeFloat16 && t <= wire.TypeFloat64:
		o.set(name, floatBitsJSON(t, n.FloatBits()))
		o.set("approx", floatApprox(t, n.FloatBits()))
	case t == wire.TypeString:
		o.set("string", jstr(n.Text()))
		o.set("enc", jstr(strEncNames[n.StringEncoding()]))
	case t == wire.TypeBinary:
		o.set("binary", jstr(hex.EncodeToString(n.Bytes())))
	case t == wire.TypeDate:
		days := n.Int()
		o.set("date", jstr(strconv.FormatInt(days, 10)))
		if days > -3652059 && days < 2932897 {
			y, m, d := civil(days)
			o.set("iso", jstr(fmt.Sprintf("%04d-%02d-%02d", y, m, d)))
		}
	case t == wire.TypeTimestamp || t == wire.TypeDuration:
		s := n.Int()
		body := jobj()
		body.set("seconds", jstr(strconv.FormatInt(s, 10)))
		body.set("nanos", juint(uint64(n.Nanos())))
		o.set(name, body)
		if t == wire.TypeTimestamp && s > -62135596800 && s < 253402300800 {
			days := s / 86400
			if s < 0 && s%86400 != 0 {
				days--
			}
			sod := s - days*86400
			y, m, d := civil(days)
			o.set("iso", jstr(fmt.Sprintf("%04d-%02d-%02dT%02d:%02d:%02d.%09dZ", y, m, d, sod/3600, sod/60%60, sod%60, n.Nanos())))
		}
	case t == wire.TypeDecimal:
		mag := n.Bytes()
		be := make([]byte, len(mag))
		for i := range mag {
			be[len(mag)-1-i] = mag[i]
		}
		u := new(big.Int).SetBytes(be)
		if n.DecimalNegative() {
			u.Neg(u)
		}
		body := jobj()
		body.set("unscaled", jstr(u.String()))
		body.set("scale", jint(int64(n.DecimalScale())))
		if n.DecimalNegative() && u.Sign() == 0 {
			body.set("unscaled", jstr("-0"))
		}
		o.set("decimal", body)
	case t == wire.TypeEnum || t == wire.TypeNamedEnum:
		p.enumJSON(n, t, o)
	case t >= wire.TypeStruct && t <= wire.TypeNamedExt:
		body := jobj()
		p.typeIdent(n, body)
		fields := jobj()
		for k := 0; k < n.Count(); k++ {
			fname, ok := n.FieldName(k)
			if !ok {
				fname = fmt.Sprintf("#%d", n.FieldTag(k))
			}
			if fv := n.Field(k); fv.Valid() {
				fields.set(fname, p.node(fv))
			}
		}
		body.set("fields", fields)
		if td := n.TypeDef(); td != nil {
			id := n.TypeDefID()
			k := 0
			for k < len(p.tds) && p.tds[k] != id {
				k++
			}
			if k < len(p.tds) {
				body.set("typedef", jint(int64(k)))
			} else {
				body.set("typedef", jstr(hex.EncodeToString(td)))
				p.tds = append(p.tds, id)
			}
		}
		if t >= wire.TypeExt {
			o.set("ext", body)
		} else {
			o.set("struct", body)
		}
		p.nameEncodings(n, o)
	case t >= wire.TypeUnion && t <= wire.TypeNamedUnion:
		body := jobj()
		p.typeIdent(n, body)
		body.set("case", juint(uint64(n.UnionCase())))
		body.set("value", p.node(n.UnionValue()))
		o.set("union", body)
		p.nameEncodings(n, o)
	case t == wire.TypeList || t == wire.TypeSet:
		arr := jarr()
		o.set(name, arr)
		if h := n.ListHeader(); h >= 0 {
			o.set("header", jint(int64(h)))
		}
		for k := 0; k < n.Count(); k++ {
			arr.arr = append(arr.arr, p.node(n.Child(k)))
		}
	case t == wire.TypeMap:
		arr := jarr()
		o.set("map", arr)
		for k := 0; k < n.Count(); k++ {
			kj := p.node(n.MapKey(k))
			vj := p.node(n.MapValue(k))
			arr.arr = append(arr.arr, jarr(kj, vj))
		}
		if ch := n.Chunks(); len(ch) > 0 {
			ca := jarr()
			for _, c := range ch {
				ca.arr = append(ca.arr, jarr(juint(uint64(c[0])), juint(uint64(c[1]))))
			}
			o.set("chunks", ca)
		}
	case t >= wire.TypeInt8 && t <= wire.TypeTaggedInt64:
		o.set(name, jstr(strconv.FormatInt(n.Int(), 10)))
	case t >= wire.TypeUint8 && t <= wire.TypeTaggedUint64:
		o.set(name, jstr(strconv.FormatUint(n.Uint(), 10)))
	case wire.ArrayWidth(t) > 0:
		o.set(name, arrayJSON(n))
	default:
		if name == "" {
			name = "?"
		}
		o.set("unsupported", jstr(name))
	}
	if t != wire.TypeNull {
		switch {
		case p.refs[idx] > 1:
			o.set("anchor", jstr(anchor))
		case n.Tracked() == 1:
			o.set("tracked", jbool(true))
		case n.Tracked() == 0 && p.untracked:
			o.set("tracked", jbool(false))
		}
	}
	return o
}

func (p *printer) enumJSON(n wire.Node, t int, o *jv) {
	if ti, ok := n.UserType(); ok {
		body := jobj()
		body.set("type", jstr(p.c.TypeName(ti)))
		body.set("value", juint(uint64(n.EnumValue())))
		o.set("enum", body)
		if t == wire.TypeNamedEnum {
			p.nameEncodings(n, o)
		}
		return
	}
	if t == wire.TypeEnum {
		body := jobj()
		if n.EnumTypeID() != 0xFFFFFFFF {
			body.set("type_id", juint(uint64(n.EnumTypeID())))
		}
		body.set("value", juint(uint64(n.EnumValue())))
		o.set("enum", body)
		return
	}
	body := jobj()
	body.set("namespace", jstr(n.EnumNamespace()))
	body.set("name", jstr(string(n.Bytes())))
	body.set("value", juint(uint64(n.EnumValue())))
	o.set("named_enum", body)
	p.nameEncodings(n, o)
	if a, b := n.NameHashForms(); a != 0 || b != 0 {
		if a != 0 {
			o.set("ns_hash", jstr("raw"))
		}
		if b != 0 {
			o.set("name_hash", jstr("raw"))
		}
	}
	if xs, xn, ok := n.NameRefs(); ok {
		if xs {
			o.set("ns_xref", jbool(true))
		}
		if xn {
			o.set("name_xref", jbool(true))
		}
	}
}

// ---------------------------------------------------------------------------
// Parsing

type notationError struct{ msg string }

func (e *notationError) Error() string { return e.msg }

func nerr(format string, args ...any) error {
	return &notationError{fmt.Sprintf(format, args...)}
}

type parser struct {
	c       *wire.Context
	d       *wire.Doc
	anchors map[string]wire.Node
	tds     []wire.Node
	depth   int
}

var annotations = map[string]bool{
	"anchor": true, "tracked": true, "enc": true, "header": true, "chunks": true,
	"ns_enc": true, "name_enc": true, "ns_hash": true, "name_hash": true,
	"ns_xref": true, "name_xref": true, "approx": true, "iso": true,
}

func addRoot(c *wire.Context, d *wire.Doc, v *jv) error {
	p := &parser{c: c, d: d, anchors: map[string]wire.Node{}}
	n, err := p.node(v)
	if err != nil {
		return err
	}
	return d.AddRoot(n)
}

func (p *parser) remember(j *jv, n wire.Node) error {
	if tr := j.get("tracked"); tr != nil {
		if tr.k != jBool {
			return nerr(`"tracked" must be a boolean`)
		}
		n.SetTracked(tr.b)
	}
	a := j.get("anchor")
	if a == nil {
		return nil
	}
	if !a.isStr() {
		return nerr(`"anchor" must be a string`)
	}
	if _, dup := p.anchors[a.s]; dup {
		return nerr("anchor %q defined twice", a.s)
	}
	p.anchors[a.s] = n
	n.SetTracked(true)
	return nil
}

func parseI64(v *jv) (int64, bool) {
	if !v.isStr() || v.s == "" {
		return 0, false
	}
	x, err := strconv.ParseInt(v.s, 10, 64)
	return x, err == nil
}

func parseU64(v *jv) (uint64, bool) {
	if !v.isStr() || v.s == "" || v.s[0] == '-' {
		return 0, false
	}
	x, err := strconv.ParseUint(v.s, 10, 64)
	return x, err == nil
}

func parseFloat(t int, v *jv) (uint64, bool) {
	if !v.isStr() {
		return 0, false
	}
	s := v.s
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		x, err := strconv.ParseUint(s[2:], 16, 64)
		if err != nil || s[2:] == "" {
			return 0, false
		}
		max := uint64(math.MaxUint16)
		switch t {
		case wire.TypeFloat64:
			max = math.MaxUint64
		case wire.TypeFloat32:
			max = math.MaxUint32
		}
		return x, x <= max
	}
	var d float64
	switch s {
	case "nan":
		d = math.NaN()
	case "inf":
		d = math.Inf(1)
	case "-inf":
		d = math.Inf(-1)
	default:
		var err error
		d, err = strconv.ParseFloat(s, 64)
		if err != nil && !strings.Contains(err.Error(), "range") {
			return 0, false
		}
	}
	switch t {
	case wire.TypeFloat16:
		return uint64(wire.Float16FromFloat64(d)), true
	case wire.TypeBfloat16:
		return uint64(wire.BFloat16FromFloat64(d)), true
	case wire.TypeFloat32:
		return uint64(math.Float32bits(float32(d))), true
	}
	return math.Float64bits(d), true
}

func (p *parser) arrayNode(t int, v *jv) (wire.Node, error) {
	if v.k != jArr {
		return wire.Node{}, nerr("%s takes an array", wire.TypeName(t))
	}
	w := wire.ArrayWidth(t)
	buf := make([]byte, 0, len(v.arr)*w)
	for i, e := range v.arr {
		var u uint64
		good := true
		switch t {
		case wire.TypeBoolArray:
			good = e.k == jBool
			if e.b {
				u = 1
			}
		case wire.TypeFloat16Array, wire.TypeBfloat16Array, wire.TypeFloat32Array, wire.TypeFloat64Array:
			ft := map[int]int{wire.TypeFloat16Array: wire.TypeFloat16, wire.TypeBfloat16Array: wire.TypeBfloat16,
				wire.TypeFloat32Array: wire.TypeFloat32, wire.TypeFloat64Array: wire.TypeFloat64}[t]
			u, good = parseFloat(ft, e)
		case wire.TypeInt8Array, wire.TypeInt16Array, wire.TypeInt32Array, wire.TypeInt64Array:
			var x int64
			x, good = parseI64(e)
			if bits := w * 8; good && bits < 64 {
				lo, hi := -(int64(1) << (bits - 1)), (int64(1)<<(bits-1))-1
				good = x >= lo && x <= hi
			}
			u = uint64(x)
		default:
			u, good = parseU64(e)
			if good && w < 8 {
				good = u < uint64(1)<<(8*w)
			}
		}
		if !good {
			return wire.Node{}, nerr("element %d of %s is invalid", i, wire.TypeName(t))
		}
		for k := 0; k < w; k++ {
			buf = append(buf, byte(u>>(8*k)))
		}
	}
	return p.d.Array(t, buf)
}

var msEncodings = []string{"utf8", "lower_special", "luds", "first_to_lower_special", "all_to_lower_special"}

func msenc(j *jv, key string) (int, error) {
	v := j.get(key)
	if v == nil {
		return -1, nil
	}
	for e := 0; e < 5; e++ {
		if v.isStr() && (v.s == wire.MetaEncodingName(e) || v.s == msEncodings[e]) {
			return e, nil
		}
	}
	return -1, nerr("unknown meta string encoding in %q", key)
}

func applyNameEncodings(j *jv, n wire.Node) error {
	a, err := msenc(j, "ns_enc")
	if err != nil {
		return err
	}
	b, err := msenc(j, "name_enc")
	if err != nil {
		return err
	}
	if (a >= 0) != (b >= 0) {
		return nerr("give both ns_enc and name_enc or neither")
	}
	if a >= 0 {
		if err := n.SetNameEncodings(a, b); err != nil {
			return nerr("ns_enc/name_enc on a value without names")
		}
	}
	return nil
}

func (p *parser) node(j *jv) (wire.Node, error) {
	if j == nil || j.k != jObj {
		return wire.Node{}, nerr("a node must be a JSON object")
	}
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > 10000 {
		return wire.Node{}, nerr("nesting too deep")
	}
	if ref := j.get("ref"); ref != nil {
		if len(j.keys) != 1 || !ref.isStr() {
			return wire.Node{}, nerr(`a ref node is {"ref": "name"} alone`)
		}
		n, ok := p.anchors[ref.s]
		if !ok {
			return wire.Node{}, nerr("unknown anchor %q", ref.s)
		}
		return n, nil
	}
	key := ""
	var v *jv
	for i, k := range j.keys {
		if annotations[k] {
			continue
		}
		if key != "" {
			return wire.Node{}, nerr("two type keys: %q and %q", key, k)
		}
		key, v = k, j.vals[i]
	}
	if key == "" {
		return wire.Node{}, nerr("no type key")
	}
	t := wire.TypeFromName(key)
	if key == "null" {
		t = wire.TypeNull
	}
	if t < 0 {
		return wire.Node{}, nerr("unknown type key %q", key)
	}
	d := p.d
	var n wire.Node
	var err error
	switch {
	case t == wire.TypeNull:
		n, err = d.Null()
	case t == wire.TypeNone:
		n, err = d.None()
	case t == wire.TypeBool:
		if v.k != jBool {
			return n, nerr("bool takes true or false")
		}
		n, err = d.Bool(v.b)
	case t == wire.TypeString:
		if !v.isStr() {
			return n, nerr("string takes a JSON string")
		}
		enc := wire.StrPolicy
		if e := j.get("enc"); e != nil {
			switch {
			case !e.isStr():
				return n, nerr(`"enc" must be a string`)
			case e.s == "latin1":
				enc = wire.StrLatin1
			case e.s == "utf16":
				enc = wire.StrUTF16
			case e.s == "utf8":
				enc = wire.StrUTF8
			default:
				return n, nerr("unknown string encoding %q", e.s)
			}
		}
		n, err = d.String(v.s, enc)
	case t == wire.TypeBinary:
		if !v.isStr() {
			return n, nerr("binary takes a hex string")
		}
		b, herr := hex.DecodeString(v.s)
		if herr != nil {
			return n, nerr("binary hex is invalid")
		}
		n, err = d.Binary(b)
	case t == wire.TypeDate:
		days, ok := parseI64(v)
		if !ok {
			return n, nerr("date takes days as a decimal string")
		}
		n, err = d.Date(days)
	case t == wire.TypeTimestamp || t == wire.TypeDuration:
		s, ok := parseI64(v.get("seconds"))
		ns, ok2 := v.get("nanos").int()
		if v.k != jObj || !ok || !ok2 || ns < 0 || ns > 999999999 || len(v.keys) != 2 {
			return n, nerr(`%s takes {"seconds": "…", "nanos": N}`, key)
		}
		if t == wire.TypeTimestamp {
			n, err = d.Timestamp(s, uint32(ns))
		} else {
			n, err = d.Duration(s, uint32(ns))
		}
	case t == wire.TypeDecimal:
		us := v.get("unscaled")
		sc, ok := v.get("scale").int()
		if v.k != jObj || !us.isStr() || !ok || sc < math.MinInt32 || sc > math.MaxInt32 {
			return n, nerr(`decimal takes {"unscaled": "…", "scale": N}`)
		}
		s := us.s
		neg := strings.HasPrefix(s, "-")
		digits := strings.TrimLeft(s, "+-")
		if len(s)-len(digits) > 1 || digits == "" || strings.Trim(digits, "0123456789") != "" {
			return n, nerr("decimal unscaled has a bad digit")
		}
		u, _ := new(big.Int).SetString(digits, 10)
		be := u.Bytes()
		le := make([]byte, len(be))
		for i := range be {
			le[len(be)-1-i] = be[i]
		}
		n, err = d.Decimal(neg, le, int32(sc))
	case t == wire.TypeEnum:
		ev, evok := v.get("value").int()
		if tn := v.get("type"); tn != nil {
			idx, ok := uint32(0), false
			if tn.isStr() {
				idx, ok = p.c.TypeIndex(tn.s)
			}
			if !ok || !evok || p.c.TypeKind(idx) != 2 {
				return n, nerr("enum type %q is not an enum of the schema", tn.s)
			}
			if n, err = d.EnumOf(idx, uint32(ev)); err == nil {
				err = applyNameEncodings(j, n)
			}
			break
		}
		ti := v.get("type_id")
		if ti == nil && evok && len(v.keys) == 1 {
			n, err = d.Enum(0xFFFFFFFF, uint32(ev))
			break
		}
		tid, tok := ti.int()
		if !tok || !evok || tid < 0 || tid > math.MaxUint32 || ev < 0 || ev > math.MaxUint32 {
			return n, nerr(`enum takes {"type_id": N, "value": N}`)
		}
		n, err = d.Enum(uint32(tid), uint32(ev))
	case t == wire.TypeNamedEnum:
		ns, nm := v.get("namespace"), v.get("name")
		ev, ok := v.get("value").int()
		if !ns.isStr() || !nm.isStr() || !ok || ev < 0 || ev > math.MaxUint32 {
			return n, nerr(`named_enum takes {"namespace", "name", "value"}`)
		}
		if n, err = d.NamedEnum(ns.s, nm.s, uint32(ev)); err != nil {
			break
		}
		if err = applyNameEncodings(j, n); err != nil {
			return n, err
		}
		hs, hn := j.get("ns_hash"), j.get("name_hash")
		if (hs != nil && !hs.isStr()) || (hn != nil && !hn.isStr()) {
			return n, nerr(`ns_hash/name_hash must be "raw" or "abs"`)
		}
		raw := func(x *jv) int {
			if x != nil && x.s == "raw" {
				return 1
			}
			return 0
		}
		n.SetNameHashForms(raw(hs), raw(hn))
		xs, xn := j.get("ns_xref"), j.get("name_xref")
		n.SetNameRefs(xs != nil && xs.k == jBool && xs.b, xn != nil && xn.k == jBool && xn.b)
	case t == wire.TypeStruct || t == wire.TypeExt:
		return p.structNode(j, key, t, v)
	case t == wire.TypeUnion:
		c, ok := v.get("case").int()
		uv := v.get("value")
		if v.k != jObj || !ok || uv == nil {
			return n, nerr(`union takes {"type", "case": N, "value": node}`)
		}
		idx := uint32(wire.ByName)
		if tn := v.get("type"); tn != nil {
			var found bool
			if tn.isStr() {
				idx, found = p.c.TypeIndex(tn.s)
			}
			if !found {
				return n, nerr("union type is not in the schema")
			}
		}
		un, err := p.node(uv)
		if err != nil {
			return n, err
		}
		if n, err = d.Union(idx, uint32(c), un); err == nil {
			err = applyNameEncodings(j, n)
		}
	case t == wire.TypeList || t == wire.TypeSet:
		if v.k != jArr {
			return n, nerr("%s takes an array", key)
		}
		if n, err = d.List(t); err != nil {
			break
		}
		if h := j.get("header"); h != nil {
			hv, ok := h.int()
			if !ok || hv < 0 || hv > 15 {
				return n, nerr(`"header" must be 0..15`)
			}
			n.SetListHeader(int(hv))
		}
		if err := p.remember(j, n); err != nil {
			return n, err
		}
		for _, e := range v.arr {
			c, err := p.node(e)
			if err != nil {
				return n, err
			}
			if err := n.Append(c); err != nil {
				return n, err
			}
		}
		return n, nil
	case t == wire.TypeMap:
		if v.k != jArr {
			return n, nerr("map takes an array of pairs")
		}
		if n, err = d.Map(); err != nil {
			break
		}
		if err := p.remember(j, n); err != nil {
			return n, err
		}
		for i, e := range v.arr {
			if e.k != jArr || len(e.arr) != 2 {
				return n, nerr("map entry %d is not a [key, value] pair", i)
			}
			kn, err := p.node(e.arr[0])
			if err != nil {
				return n, err
			}
			vn, err := p.node(e.arr[1])
			if err != nil {
				return n, err
			}
			if err := n.Put(kn, vn); err != nil {
				return n, err
			}
		}
		if ch := j.get("chunks"); ch != nil {
			if ch.k != jArr {
				return n, nerr(`"chunks" must be an array`)
			}
			for i, e := range ch.arr {
				var h, c int64
				ok := e.k == jArr && len(e.arr) == 2
				if ok {
					var ok1, ok2 bool
					h, ok1 = e.arr[0].int()
					c, ok2 = e.arr[1].int()
					ok = ok1 && ok2 && h >= 0 && c >= 0 && h <= math.MaxUint32 && c <= math.MaxUint32
				}
				if !ok || n.AddChunk(uint32(h), uint32(c)) != nil {
					return n, nerr("chunk %d must be [header 0..63, count 1..255]", i)
				}
			}
		}
		return n, nil
	case t >= wire.TypeInt8 && t <= wire.TypeTaggedInt64:
		x, ok := parseI64(v)
		if !ok {
			return n, nerr("%s takes a decimal string", key)
		}
		n, err = d.Int(t, x)
	case t >= wire.TypeUint8 && t <= wire.TypeTaggedUint64:
		x, ok := parseU64(v)
		if !ok {
			return n, nerr("%s takes a decimal string", key)
		}
		n, err = d.Uint(t, x)
	case t >= wire.TypeFloat16 && t <= wire.TypeFloat64:
		bits, ok := parseFloat(t, v)
		if !ok {
			return n, nerr(`%s takes "0x<bits>" or a decimal string`, key)
		}
		n, err = d.FloatBits(t, bits)
	case wire.ArrayWidth(t) > 0:
		n, err = p.arrayNode(t, v)
	default:
		return n, nerr("type %q cannot be written from the notation yet", key)
	}
	if err != nil {
		return n, err
	}
	if !n.Valid() {
		return n, nerr("value of %q is out of range or invalid", key)
	}
	return n, p.remember(j, n)
}

func (p *parser) structNode(j *jv, key string, t int, v *jv) (wire.Node, error) {
	var n wire.Node
	var err error
	tn, fs, td := v.get("type"), v.get("fields"), v.get("typedef")
	if v.k != jObj || (fs != nil && fs.k != jObj) {
		return n, nerr(`struct takes {"type": "ns.Name", "fields": {…}}`)
	}
	tname := "?"
	if tn.isStr() {
		tname = tn.s
	}
	switch {
	case td != nil && td.k == jNum:
		k, _ := td.int()
		if k < 0 || int(k) >= len(p.tds) {
			return n, nerr(`"typedef": %d names no earlier TypeDef`, k)
		}
		n, err = p.d.StructLike(p.tds[k])
	case td.isStr():
		b, herr := hex.DecodeString(td.s)
		if herr != nil {
			return n, nerr(`"typedef" must be hex`)
		}
		if n, err = p.d.StructTypeDef(b); err == nil {
			p.tds = append(p.tds, n)
		}
	default:
		idx, ok := uint32(0), false
		if tn.isStr() {
			idx, ok = p.c.TypeIndex(tn.s)
		}
		want := 1
		if t == wire.TypeExt {
			want = 4
		}
		if !ok || p.c.TypeKind(idx) != want {
			return n, nerr("%s type %q is not in the schema (--schema)", key, tname)
		}
		n, err = p.d.Struct(idx)
	}
	if err != nil {
		return n, err
	}
	if err := p.remember(j, n); err != nil {
		return n, err
	}
	if err := applyNameEncodings(j, n); err != nil {
		return n, err
	}
	if fs != nil {
		for i, fk := range fs.keys {
			c, err := p.node(fs.vals[i])
			if err != nil {
				return n, err
			}
			if err := n.SetField(fk, c); err != nil {
				return n, nerr("struct %s has no field %q", tname, fk)
			}
		}
	}
	return n, nil
}
