package main

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"unsafe"

	"github.com/apache/fory/go/fory"
	"github.com/apache/fory/go/fory/bfloat16"
	"github.com/apache/fory/go/fory/float16"
)

// User types: a build made by conformance/peers/usertypes (go) adds
// zz_usertypes.go, which fills generatedUnits with the packages foryc 1.7.7
// generated (--go_out) for every schema set the fixtures name, and
// generatedJSON with their descriptions (units.json). A plain `go build` of
// this directory has none, and the peer claims no user types.

type generatedUnit struct {
	key      string
	err      string
	register []func(*fory.Fory) error
	types    []func() map[string]reflect.Type
	cases    []func() map[string]map[uint32]reflect.Type
}

var (
	generatedUnits []generatedUnit
	generatedJSON  []byte
)

type typeDesc struct {
	Kind   string      `json:"kind"`
	Fields []fieldDesc `json:"fields"`
	Cases  []caseDesc  `json:"cases"`
}

type fieldDesc struct {
	Name string `json:"name"`
	Decl string `json:"decl"`
	Type any    `json:"type"`
}

type caseDesc struct {
	ID   uint32 `json:"id"`
	Name string `json:"name"`
	Type any    `json:"type"`
}

type userUnit struct {
	gen   *generatedUnit
	desc  map[string]*typeDesc
	types map[string]reflect.Type
	names map[reflect.Type]string
	cases map[string]map[uint32]reflect.Type
	forys map[config]*fory.Fory
}

type userTypes struct {
	root  string
	units map[string]*userUnit
}

func loadUserTypes(root string) *userTypes {
	if len(generatedUnits) == 0 {
		return nil
	}
	var manifest struct {
		Units []struct {
			Key   string               `json:"key"`
			Types map[string]*typeDesc `json:"types"`
		} `json:"units"`
	}
	if err := json.Unmarshal(generatedJSON, &manifest); err != nil {
		return nil
	}
	u := &userTypes{root: root, units: map[string]*userUnit{}}
	for i := range generatedUnits {
		g := &generatedUnits[i]
		u.units[g.key] = &userUnit{gen: g, desc: map[string]*typeDesc{}}
	}
	for _, m := range manifest.Units {
		if uu := u.units[m.Key]; uu != nil && m.Types != nil {
			uu.desc = m.Types
		}
	}
	return u
}

// unit returns the unit of a request's schemas (paths relative to the
// repository root, or absolute).
func (u *userTypes) unit(schemas []string) (*userUnit, error) {
	keys := make([]string, len(schemas))
	for i, s := range schemas {
		if filepath.IsAbs(s) && u.root != "" {
			if rel, err := filepath.Rel(u.root, filepath.Clean(s)); err == nil {
				s = rel
			}
		}
		keys[i] = filepath.ToSlash(s)
	}
	uu := u.units[strings.Join(keys, "\n")]
	if uu == nil {
		return nil, unsupportedf("no foryc types for the schemas %s (conformance/peers/usertypes compiles the sets the fixtures name)", strings.Join(keys, " "))
	}
	if uu.gen.err != "" {
		return nil, &schemaError{uu.gen.err}
	}
	if uu.types == nil {
		uu.types, uu.names, uu.cases = map[string]reflect.Type{}, map[reflect.Type]string{}, map[string]map[uint32]reflect.Type{}
		for _, f := range uu.gen.types {
			for name, t := range f() {
				uu.types[name] = t
				uu.names[t] = name
			}
		}
		for _, f := range uu.gen.cases {
			for name, c := range f() {
				uu.cases[name] = c
			}
		}
		uu.forys = map[config]*fory.Fory{}
	}
	return uu, nil
}

// schemaError: foryc rejected the schemas (class "idl").
type schemaError struct{ msg string }

func (e *schemaError) Error() string { return e.msg }

func (uu *userUnit) fory(c config, maxDepth int) (*fory.Fory, error) {
	if f := uu.forys[c]; f != nil {
		return f, nil
	}
	opts := []fory.Option{fory.WithXlang(true), fory.WithTrackRef(c.ref), fory.WithCompatible(c.compatible)}
	if maxDepth > 0 {
		opts = append(opts, fory.WithMaxDepth(maxDepth))
	}
	f := fory.New(opts...)
	for _, reg := range uu.gen.register {
		if err := reg(f); err != nil {
			return nil, &runtimeError{err: fmt.Errorf("registering foryc's types: %w", err), offset: -1}
		}
	}
	uu.forys[c] = f
	return f, nil
}

func (uu *userUnit) typeOf(name string) (*typeDesc, reflect.Type, error) {
	d := uu.desc[name]
	if d == nil {
		return nil, nil, requestErrorf("type %q is not in the request's schemas", name)
	}
	t := uu.types[name]
	if t == nil {
		return nil, nil, unsupportedf("foryc generated no Go type for %q", name)
	}
	return d, t, nil
}

func normName(s string) string {
	return strings.ToLower(strings.ReplaceAll(s, "_", ""))
}

func fieldByDecl(t reflect.Type, decl string) (reflect.StructField, bool) {
	want := normName(decl)
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.IsExported() && normName(f.Name) == want {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

func sub(d any, key string) any {
	if m, ok := d.(map[string]any); ok {
		return m[key]
	}
	return nil
}

// ---- notation -> Go values of the generated types ----

type typedBuilder struct {
	unit           *userUnit
	untyped        *builder
	anchors        map[string]reflect.Value
	allowUnordered bool
}

func (b *typedBuilder) root(node any) (any, error) {
	v, err := b.build(node, nil, anyType)
	if err != nil || !v.IsValid() || (v.Kind() == reflect.Interface && v.IsNil()) {
		return nil, err
	}
	return v.Interface(), nil
}

func (b *typedBuilder) remember(obj map[string]any, v reflect.Value) {
	if a, ok := obj["anchor"].(string); ok {
		b.anchors[a] = v
	}
}

// build returns a value of type t for the node; d is the schema's descriptor.
func (b *typedBuilder) build(node any, d any, t reflect.Type) (reflect.Value, error) {
	obj, kind, err := nodeKind(node)
	if err != nil {
		return reflect.Value{}, err
	}
	value := obj[kind]
	if kind == "ref" {
		name, _ := value.(string)
		v, ok := b.anchors[name]
		if !ok {
			return reflect.Value{}, requestErrorf("ref to unknown anchor %q", name)
		}
		return fit(v, t)
	}
	if isOptional(t) {
		o := reflect.New(t).Elem()
		if kind == "null" {
			return o, nil
		}
		inner, err := b.build(node, d, t.Field(0).Type)
		if err != nil {
			return reflect.Value{}, err
		}
		setUnexported(o.Field(0), inner)
		setUnexported(o.Field(1), reflect.ValueOf(true))
		return o, nil
	}
	if kind == "null" {
		switch t.Kind() {
		case reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Map:
			return reflect.Zero(t), nil
		}
		return reflect.Value{}, unsupportedf("null for a Go %s", t)
	}
	if t.Kind() == reflect.Interface {
		v, err := b.dynamic(obj, kind, value)
		if err != nil {
			return reflect.Value{}, err
		}
		if !v.IsValid() {
			return reflect.Zero(t), nil
		}
		return v, nil
	}
	if t.Kind() == reflect.Pointer && kind != "ref" {
		if kind == "struct" {
			p := reflect.New(t.Elem())
			b.remember(obj, p)
			if err := b.fillStruct(value, p.Elem()); err != nil {
				return reflect.Value{}, err
			}
			return p, nil
		}
		v, err := b.build(node, d, t.Elem())
		if err != nil {
			return reflect.Value{}, err
		}
		p := reflect.New(t.Elem())
		p.Elem().Set(v)
		return p, nil
	}
	switch kind {
	case "struct":
		v := reflect.New(t).Elem()
		b.remember(obj, v)
		return v, b.fillStruct(value, v)
	case "enum":
		body, _ := value.(map[string]any)
		n, err := parseSmallInt(body["value"], "enum value")
		if err != nil {
			return reflect.Value{}, err
		}
		v := reflect.New(t).Elem()
		switch t.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			v.SetInt(n)
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			v.SetUint(uint64(n))
		default:
			return reflect.Value{}, unsupportedf("enum for a Go %s", t)
		}
		return v, nil
	case "union":
		return b.union(obj, value, t)
	case "ext":
		return reflect.Value{}, unsupportedf("ext types: foryc generates no Go carrier for them")
	case "list", "set":
		items, ok := value.([]any)
		if !ok {
			return reflect.Value{}, requestErrorf("%s value must be an array", kind)
		}
		if t.Kind() == reflect.Map { // a Go set: map[T]bool / fory.Set
			if len(items) > 1 && !b.allowUnordered {
				return reflect.Value{}, unsupportedf("a set of %d elements in a Go map: its iteration order is random", len(items))
			}
			m := reflect.MakeMap(t)
			for _, it := range items {
				k, err := b.build(it, sub(d, "list"), t.Key())
				if err != nil {
					return reflect.Value{}, err
				}
				m.SetMapIndex(k, reflect.Zero(t.Elem()))
			}
			return m, nil
		}
		if t.Kind() != reflect.Slice {
			return reflect.Value{}, unsupportedf("%s for a Go %s", kind, t)
		}
		s := reflect.MakeSlice(t, len(items), len(items))
		b.remember(obj, s)
		for i, it := range items {
			e, err := b.build(it, sub(d, "list"), t.Elem())
			if err != nil {
				return reflect.Value{}, err
			}
			s.Index(i).Set(e)
		}
		return s, nil
	case "map":
		entries, ok := value.([]any)
		if !ok {
			return reflect.Value{}, requestErrorf("map value must be an array")
		}
		if t.Kind() != reflect.Map {
			return reflect.Value{}, unsupportedf("map for a Go %s", t)
		}
		if len(entries) > 1 && !b.allowUnordered {
			return reflect.Value{}, unsupportedf("a map of %d entries: Go map iteration order is random, so the runtime cannot write the given order", len(entries))
		}
		var kd, vd any
		if md, ok := sub(d, "map").([]any); ok && len(md) == 2 {
			kd, vd = md[0], md[1]
		}
		m := reflect.MakeMapWithSize(t, len(entries))
		b.remember(obj, m)
		for _, e := range entries {
			pair, ok := e.([]any)
			if !ok || len(pair) != 2 {
				return reflect.Value{}, requestErrorf("map entry must be [key, value]")
			}
			k, err := b.build(pair[0], kd, t.Key())
			if err != nil {
				return reflect.Value{}, err
			}
			v, err := b.build(pair[1], vd, t.Elem())
			if err != nil {
				return reflect.Value{}, err
			}
			m.SetMapIndex(k, v)
		}
		return m, nil
	}
	return b.scalar(kind, value, t)
}

var anyType = reflect.TypeOf((*any)(nil)).Elem()

// dynamic builds a node where the Go type is `any` (a root, an `any` field,
// an element of an untyped collection): user types by their names,
// collections with dynamic elements, scalars as the untyped builder does.
func (b *typedBuilder) dynamic(obj map[string]any, kind string, value any) (reflect.Value, error) {
	switch kind {
	case "struct", "enum", "union":
		body, _ := value.(map[string]any)
		name, _ := body["type"].(string)
		_, t, err := b.unit.typeOf(name)
		if err != nil {
			return reflect.Value{}, err
		}
		if kind != "enum" {
			t = reflect.PointerTo(t)
		}
		return b.build(obj, nil, t)
	case "list":
		return b.build(obj, nil, reflect.TypeOf([]any(nil)))
	case "map":
		return b.build(obj, nil, reflect.TypeOf(map[any]any(nil)))
	case "set":
		return b.build(obj, nil, reflect.TypeOf(fory.Set[any](nil)))
	}
	x, err := b.untyped.build(obj, false)
	if err != nil || x == nil {
		return reflect.Value{}, err
	}
	v := reflect.ValueOf(x)
	b.remember(obj, v)
	return v, nil
}

// isOptional: the runtime's optional.Optional[T] (a value and a flag, both
// unexported), which foryc uses for optional scalar fields.
func isOptional(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && t.NumField() == 2 &&
		strings.HasSuffix(t.PkgPath(), "/fory/optional") && strings.HasPrefix(t.Name(), "Optional[")
}

func setUnexported(f reflect.Value, v reflect.Value) {
	reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Set(v)
}

func fit(v reflect.Value, t reflect.Type) (reflect.Value, error) {
	if v.Type().AssignableTo(t) {
		return v, nil
	}
	if v.Kind() == reflect.Pointer && v.Elem().Type().AssignableTo(t) {
		return v.Elem(), nil
	}
	if t.Kind() == reflect.Pointer && v.CanAddr() && v.Addr().Type().AssignableTo(t) {
		return v.Addr(), nil
	}
	return reflect.Value{}, unsupportedf("a shared %s where the Go field is %s", v.Type(), t)
}

func (b *typedBuilder) fillStruct(value any, v reflect.Value) error {
	body, ok := value.(map[string]any)
	if !ok {
		return requestErrorf("struct value must be an object")
	}
	name, _ := body["type"].(string)
	d, _, err := b.unit.typeOf(name)
	if err != nil {
		return err
	}
	fields, _ := body["fields"].(map[string]any)
	used := 0
	// In the schema's wire order, which is the notation's order: an anchor
	// comes before the refs to it (a Go map forgets the JSON order).
	for i := range d.Fields {
		fd := &d.Fields[i]
		fnode, ok := fields[fd.Name]
		if !ok {
			if fnode, ok = fields[fd.Decl]; !ok {
				continue
			}
		}
		used++
		sf, found := fieldByDecl(v.Type(), fd.Decl)
		if !found {
			return requestErrorf("%s (foryc's type) has no field %q", name, fd.Name)
		}
		fv, err := b.build(fnode, fd.Type, sf.Type)
		if err != nil {
			return err
		}
		v.FieldByIndex(sf.Index).Set(fv)
	}
	if used != len(fields) {
		for fname := range fields {
			known := false
			for _, fd := range d.Fields {
				known = known || fd.Name == fname || fd.Decl == fname
			}
			if !known {
				return requestErrorf("%s (foryc's type) has no field %q", name, fname)
			}
		}
	}
	return nil
}

func (b *typedBuilder) union(obj map[string]any, value any, t reflect.Type) (reflect.Value, error) {
	body, _ := value.(map[string]any)
	name, _ := body["type"].(string)
	d, _, err := b.unit.typeOf(name)
	if err != nil {
		return reflect.Value{}, err
	}
	c, err := parseSmallInt(body["case"], "union case")
	if err != nil {
		return reflect.Value{}, err
	}
	var cd *caseDesc
	for i := range d.Cases {
		if int64(d.Cases[i].ID) == c {
			cd = &d.Cases[i]
		}
	}
	ct := b.unit.cases[name][uint32(c)]
	if cd == nil || ct == nil {
		return reflect.Value{}, unsupportedf("%s has no case %d", name, c)
	}
	cv, err := b.build(body["value"], cd.Type, ct)
	if err != nil {
		return reflect.Value{}, err
	}
	p := reflect.New(t)
	set := p.MethodByName("ForyUnionSet")
	if !set.IsValid() {
		return reflect.Value{}, unsupportedf("foryc's %s has no ForyUnionSet", t)
	}
	set.Call([]reflect.Value{reflect.ValueOf(uint32(c)), cv.Convert(reflect.TypeOf((*any)(nil)).Elem())})
	b.remember(obj, p.Elem())
	return p.Elem(), nil
}

func (b *typedBuilder) scalar(kind string, value any, t reflect.Type) (reflect.Value, error) {
	v := reflect.New(t).Elem()
	if _, isInt := intRanges[kind]; isInt || intKinds[kind].make != nil {
		n, err := parseBigInt(value, kind)
		if err != nil {
			return reflect.Value{}, err
		}
		switch t.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			if !n.IsInt64() || v.OverflowInt(n.Int64()) {
				return reflect.Value{}, requestErrorf("%s %s does not fit a Go %s", kind, n, t)
			}
			v.SetInt(n.Int64())
			return v, nil
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			if !n.IsUint64() || v.OverflowUint(n.Uint64()) {
				return reflect.Value{}, requestErrorf("%s %s does not fit a Go %s", kind, n, t)
			}
			v.SetUint(n.Uint64())
			return v, nil
		}
		return reflect.Value{}, unsupportedf("%s for a Go %s", kind, t)
	}
	x, err := b.untyped.leaf(kind, value)
	if err != nil {
		return reflect.Value{}, err
	}
	if x == nil {
		return reflect.Zero(t), nil
	}
	xv := reflect.ValueOf(x)
	if xv.Type().AssignableTo(t) {
		return xv, nil
	}
	if xv.Type().ConvertibleTo(t) && (xv.Kind() == t.Kind()) {
		return xv.Convert(t), nil
	}
	if d, ok := x.(fory.Decimal); ok && reflect.TypeOf(&d).AssignableTo(t) {
		return reflect.ValueOf(&d), nil
	}
	return reflect.Value{}, unsupportedf("%s (Go %T) for a Go %s field", kind, x, t)
}

// ---- Go values of the generated types -> notation ----

type typedPrinter struct {
	unit           *userUnit
	counts         map[uintptr]int
	names          map[uintptr]string
	allowUnordered bool
}

func newTypedPrinter(unit *userUnit, allowUnordered bool) *typedPrinter {
	return &typedPrinter{unit: unit, counts: map[uintptr]int{}, names: map[uintptr]string{}, allowUnordered: allowUnordered}
}

// identity of a shareable value: a struct pointer, or a slice's or map's data.
func valueIdentity(v reflect.Value) uintptr {
	switch v.Kind() {
	case reflect.Pointer, reflect.Map:
		if !v.IsNil() {
			return v.Pointer()
		}
	case reflect.Slice:
		if !v.IsNil() && v.Len() > 0 {
			return v.Pointer()
		}
	}
	return 0
}

func (p *typedPrinter) count(v reflect.Value) {
	for v.IsValid() && v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	if !v.IsValid() {
		return
	}
	if id := valueIdentity(v); id != 0 {
		p.counts[id]++
		if p.counts[id] > 1 {
			return
		}
	}
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			p.count(v.Elem())
		}
	case reflect.Struct:
		if get := v.MethodByName("ForyUnionGet"); get.IsValid() {
			out := get.Call(nil)
			p.count(out[1])
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				p.count(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() != reflect.Uint8 {
			for i := 0; i < v.Len(); i++ {
				p.count(v.Index(i))
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			p.count(it.Key())
			p.count(it.Value())
		}
	}
}

func (p *typedPrinter) root(v any) (map[string]any, error) {
	rv := reflect.ValueOf(v)
	p.count(rv)
	return p.node(rv, nil)
}

func (p *typedPrinter) node(v reflect.Value, d any) (map[string]any, error) {
	for v.IsValid() && v.Kind() == reflect.Interface {
		if v.IsNil() {
			return map[string]any{"null": nil}, nil
		}
		v = v.Elem()
	}
	if !v.IsValid() {
		return map[string]any{"null": nil}, nil
	}
	id := valueIdentity(v)
	if id != 0 && p.counts[id] > 1 {
		if name, ok := p.names[id]; ok {
			return map[string]any{"ref": name}, nil
		}
		name := fmt.Sprintf("a%d", len(p.names)+1)
		p.names[id] = name
		n, err := p.value(v, d)
		if err != nil {
			return nil, err
		}
		n["anchor"] = name
		return n, nil
	}
	return p.value(v, d)
}

func (p *typedPrinter) value(v reflect.Value, d any) (map[string]any, error) {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return map[string]any{"null": nil}, nil
		}
		if _, user := p.unit.names[v.Elem().Type()]; user || v.Elem().Kind() != reflect.Struct {
			return p.value(v.Elem(), d)
		}
	}
	if name, ok := p.unit.names[v.Type()]; ok {
		return p.user(v, name)
	}
	if isOptional(v.Type()) {
		if !v.MethodByName("IsSome").Call(nil)[0].Bool() {
			return map[string]any{"null": nil}, nil
		}
		return p.node(v.MethodByName("ValueOrZero").Call(nil)[0], d)
	}
	if key, ok := d.(string); ok {
		if n, ok := typedScalar(key, v); ok {
			return n, nil
		}
	}
	if v.Kind() == reflect.Slice && v.IsNil() {
		return map[string]any{"null": nil}, nil // the runtime reads a null list (or bytes) as nil
	}
	if ak, ok := sub(d, "array").(string); ok && (v.Kind() == reflect.Slice || v.Kind() == reflect.Array) {
		elem := strings.TrimSuffix(ak, "_array")
		items := make([]any, v.Len())
		for i := range items {
			n, ok := typedScalar(elem, v.Index(i))
			if !ok {
				return nil, unsupportedf("%s element of Go type %s", ak, v.Type().Elem())
			}
			items[i] = n[elem]
		}
		return map[string]any{ak: items}, nil
	}
	switch v.Kind() {
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 && d == "binary" {
			return map[string]any{"binary": hex.EncodeToString(v.Bytes())}, nil
		}
		ed := sub(d, "list")
		switch v.Type().Elem().Kind() {
		case reflect.Interface, reflect.Pointer, reflect.Struct, reflect.Slice, reflect.Map, reflect.String:
		default:
			if d == nil {
				// a slice of numbers or bools outside the schema: the plain
				// printer prints it as the dense array the runtime wrote
				return newPrinter(v.Interface(), p.allowUnordered).value(v.Interface())
			}
		}
		items := make([]any, v.Len())
		for i := range items {
			n, err := p.node(v.Index(i), ed)
			if err != nil {
				return nil, err
			}
			items[i] = n
		}
		return map[string]any{"list": items}, nil
	case reflect.Map:
		if v.IsNil() {
			return map[string]any{"null": nil}, nil
		}
		if v.Len() > 1 && !p.allowUnordered {
			return nil, unsupportedf("decoded a map of %d entries into a Go map, which does not keep the wire order", v.Len())
		}
		var kd, vd any
		if md, ok := sub(d, "map").([]any); ok && len(md) == 2 {
			kd, vd = md[0], md[1]
		}
		isSet := v.Type().Elem().Kind() == reflect.Bool || v.Type().Elem() == reflect.TypeOf(struct{}{})
		if isSet && sub(d, "map") == nil {
			items := []any{}
			it := v.MapRange()
			for it.Next() {
				n, err := p.node(it.Key(), sub(d, "list"))
				if err != nil {
					return nil, err
				}
				items = append(items, n)
			}
			return map[string]any{"set": items}, nil
		}
		entries := [][2]any{}
		it := v.MapRange()
		for it.Next() {
			kn, err := p.node(it.Key(), kd)
			if err != nil {
				return nil, err
			}
			vn, err := p.node(it.Value(), vd)
			if err != nil {
				return nil, err
			}
			entries = append(entries, [2]any{kn, vn})
		}
		sortedByJSON(entries)
		out := make([]any, len(entries))
		for i, e := range entries {
			out[i] = []any{e[0], e[1]}
		}
		return map[string]any{"map": out}, nil
	}
	return newPrinter(v.Interface(), p.allowUnordered).value(v.Interface())
}

func (p *typedPrinter) user(v reflect.Value, name string) (map[string]any, error) {
	d := p.unit.desc[name]
	if d == nil {
		return nil, requestErrorf("no description of %q", name)
	}
	switch d.Kind {
	case "enum":
		var n int64
		switch v.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			n = v.Int()
		default:
			n = int64(v.Uint())
		}
		return map[string]any{"enum": map[string]any{"type": name, "value": n}}, nil
	case "union":
		get := v.MethodByName("ForyUnionGet")
		if !get.IsValid() {
			return nil, unsupportedf("foryc's %s has no ForyUnionGet", v.Type())
		}
		out := get.Call(nil)
		c := uint32(out[0].Uint())
		var cd any
		for _, k := range d.Cases {
			if k.ID == c {
				cd = k.Type
			}
		}
		inner, err := p.node(out[1], cd)
		if err != nil {
			return nil, err
		}
		return map[string]any{"union": map[string]any{"type": name, "case": c, "value": inner}}, nil
	}
	fields := orderedFields{}
	for _, fd := range d.Fields {
		sf, ok := fieldByDecl(v.Type(), fd.Decl)
		if !ok {
			continue // foryc's type lacks the field: the runtime neither reads nor writes it
		}
		n, err := p.node(v.FieldByIndex(sf.Index), fd.Type)
		if err != nil {
			return nil, err
		}
		fields = append(fields, orderedField{fd.Name, n})
	}
	return map[string]any{"struct": map[string]any{"type": name, "fields": fields}}, nil
}

// orderedFields marshals as a JSON object with its keys in slice order
// (struct fields are listed in wire order).
type orderedField struct {
	name string
	node map[string]any
}

type orderedFields []orderedField

func (o orderedFields) MarshalJSON() ([]byte, error) {
	var sb strings.Builder
	sb.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			sb.WriteByte(',')
		}
		k, _ := json.Marshal(f.name)
		sb.Write(k)
		sb.WriteByte(':')
		v, err := json.Marshal(f.node)
		if err != nil {
			return nil, err
		}
		sb.Write(v)
	}
	sb.WriteByte('}')
	return []byte(sb.String()), nil
}

// typedScalar prints v with the schema's scalar key (an int32 field as
// varint32 or int32, as the schema declares it).
func typedScalar(key string, v reflect.Value) (map[string]any, bool) {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return map[string]any{"null": nil}, true
		}
		v = v.Elem()
	}
	switch key {
	case "int8", "int16", "int32", "varint32", "int64", "varint64", "tagged_int64":
		switch v.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			return map[string]any{key: strconv.FormatInt(v.Int(), 10)}, true
		}
	case "uint8", "uint16", "uint32", "var_uint32", "uint64", "var_uint64", "tagged_uint64":
		switch v.Kind() {
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			return map[string]any{key: strconv.FormatUint(v.Uint(), 10)}, true
		}
	case "float32":
		if v.Kind() == reflect.Float32 || v.Kind() == reflect.Float64 {
			return f32node(float32(v.Float())), true
		}
	case "float64":
		if v.Kind() == reflect.Float64 || v.Kind() == reflect.Float32 {
			return f64node(v.Float()), true
		}
	case "float16":
		if x, ok := v.Interface().(float16.Float16); ok {
			return map[string]any{"float16": fmt.Sprintf("0x%04x", x.Bits())}, true
		}
	case "bfloat16":
		if x, ok := v.Interface().(bfloat16.BFloat16); ok {
			return map[string]any{"bfloat16": fmt.Sprintf("0x%04x", x.Bits())}, true
		}
	case "binary":
		if b, ok := v.Interface().([]byte); ok {
			return map[string]any{"binary": hex.EncodeToString(b)}, true
		}
	case "bool", "string", "date", "timestamp", "duration", "decimal":
		n, err := newPrinter(nil, false).value(v.Interface())
		if err == nil {
			if _, ok := n[key]; ok {
				return n, true
			}
		}
	}
	return nil, false
}
