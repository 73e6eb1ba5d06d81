package wire

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// An enum number the writer's schema does not declare (enums.go) is
// refused on every encode path (Marshal through the compiled codecs when
// the type has them, Marshal on the tape path, MarshalAll by plan and by
// field names), in every mode, with one `value` error that names the field
// and the number, whatever Go type holds it: a Go integer of any kind, a
// pointer to one, a wire.Enum, an interface{}, as a field, a list item, a
// map key or value, in a struct nested inline or in a list of structs.
// The declared numbers of the same holders round-trip (bindCases: Color,
// Sparse, In, list<In>).

type enumBad struct {
	decl string // the field's FDL type (bindSchema)
	v    any    // a value holding the number (asAny: in an interface{} field)
	num  string // the number, as the message prints it
}

func enumBadCases() []enumBad {
	en := func(typ string, v uint32) Enum { return Enum{Type: typ, TypeID: noType, Value: v} }
	byID := func(id, v uint32) Enum { return Enum{TypeID: id, Value: v} } // (bindFDL: Color 4000, Sparse 4004)
	return []enumBad{
		// in range, not declared
		{"Color", int32(3), "3"},
		{"Color", int32(7), "7"},
		{"Color", bColor(3), "3"},
		{"Color", uint8(200), "200"},
		{"Color", uint32(1 << 31), "2147483648"},
		{"Color", int64(4294967295), "4294967295"},
		{"Color", en("b.Color", 3), "3"},
		{"Color", asAny{int32(5)}, "5"},
		{"Color", asAny{en("b.Color", 5)}, "5"},
		{"Color", byID(4000, 3), "3"},
		{"Color", asAny{byID(4000, 6)}, "6"},
		// negative, over 32 bits
		{"Color", int32(-1), "-1"},
		{"Color", int8(-128), "-128"},
		{"Color", int(-1 << 40), "-1099511627776"},
		{"Color", int64(1 << 32), "4294967296"},
		{"Color", uint64(1 << 40), "1099511627776"},
		{"Color", uint(1<<64 - 1), "18446744073709551615"},
		// the values of a sparse enum, 1 5 1000: around them
		{"Sparse", int32(0), "0"},
		{"Sparse", int32(2), "2"},
		{"Sparse", int32(999), "999"},
		{"Sparse", uint16(1001), "1001"},
		{"Sparse", en("b.Sparse", 4), "4"},
		{"Sparse", byID(4004, 1001), "1001"},
		// optional: through a pointer, by value
		{"optional Color", ptr(int32(3)), "3"},
		{"optional Color", ptr(int32(-2)), "-2"},
		{"optional Color", int32(9), "9"},
		{"optional Sparse", ptr(uint32(6)), "6"},
		// list items, map keys and values, nested
		{"list<Color>", []int32{1, 3}, "3"},
		{"list<Color>", []int32{-1}, "-1"},
		{"list<Color>", []uint16{0, 2, 60000}, "60000"},
		{"list<Color>", []int64{1 << 33}, "8589934592"},
		{"list<Color>", [2]int32{1, 9}, "9"},
		{"list<Color>", []Enum{en("b.Color", 1), en("b.Color", 4)}, "4"},
		{"list<Color>", []Enum{byID(4000, 2), byID(4000, 5)}, "5"},
		{"list<Color>", anyHeld{[]any{int32(1), int32(6)}, false}, "6"},
		{"list<optional Color>", []*int32{nil, ptr(int32(8))}, "8"},
		{"list<Sparse>", []int32{1, 5, 6}, "6"},
		{"map<string, Color>", map[string]int32{"k": 3}, "3"},
		{"map<string, Color>", map[string]uint64{"k": 1 << 40}, "1099511627776"},
		{"map<string, Color>", map[string]Enum{"k": en("b.Color", 3)}, "3"},
		{"map<string, Color>", map[string]Enum{"k": byID(4000, 3)}, "3"},
		{"map<Color, string>", map[int32]string{3: "v"}, "3"},
		{"map<Color, string>", map[int64]string{-2: "v"}, "-2"},
		{"map<Sparse, int32>", map[int32]int32{2: 1}, "2"},
		{"map<string, list<Color>>", map[string][]int32{"k": {0, 8}}, "8"},
		{"list<list<Color>>", [][]int32{{1}, {2, 5}}, "5"},
		{"In", bIn{1, 5}, "5"},
		{"In", &bIn{1, -3}, "-3"},
		{"list<In>", []bIn{{1, 0}, {2, 6}}, "6"},
		{"list<In>", []*bIn{{1, 7}}, "7"},
		{"map<string, In>", map[string]bIn{"k": {1, 3}}, "3"},
	}
}

func TestEnumUndeclaredRefused(t *testing.T) {
	for _, bc := range enumBadCases() {
		for _, compat := range []bool{false, true} {
			for _, ref := range []bool{false, true} {
				enumRefused(t, bc, compat, ref)
			}
		}
	}
}

// enumRefused writes bc's value on every encode path and wants one error
// everywhere.
func enumRefused(t *testing.T, bc enumBad, compat, ref bool) {
	t.Helper()
	g := bc.v
	gt := reflect.TypeOf(g)
	if a, ok := g.(asAny); ok {
		g, gt = a.v, typAny
	}
	if h, ok := g.(anyHeld); ok {
		g, gt = h.v, reflect.TypeOf(h.v)
	}
	st := bindStruct(gt)
	name := fmt.Sprintf("%s as %s %v (compatible=%v ref=%v)", bc.decl, gt, g, compat, ref)
	c := bindContext(t, bc.decl, compat, ref)
	defer c.Close()
	if err := c.RegisterStruct("b.M", reflect.New(st).Elem().Interface()); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	v := reflect.New(st)
	v.Elem().Field(0).Set(reflect.ValueOf(g).Convert(gt))
	si := c.reg.byType[st]
	paths := []string{"Marshal (" + c.memCodec(v.Interface()) + ")", "Marshal on the tape path", "MarshalAll", "MarshalAll by field names"}
	var errs []error
	_, err := c.Marshal(v.Interface())
	errs = append(errs, err)
	c.forceTape = true
	_, err = c.Marshal(v.Interface())
	errs = append(errs, err)
	c.forceTape = false
	_, err = c.MarshalAll([]any{v.Interface()})
	errs = append(errs, err)
	p := si.plan
	si.plan = nil
	_, err = c.MarshalAll([]any{v.Interface()})
	errs = append(errs, err)
	si.plan = p
	enum := "Color"
	if strings.Contains(bc.decl, "Sparse") {
		enum = "Sparse"
	}
	want := fmt.Sprintf("enum value %s is not declared by b.%s (declared: ", bc.num, enum)
	for i, err := range errs {
		var we *WireError
		if !errors.As(err, &we) || we.Class != "value" || !strings.Contains(we.Message, want) ||
			!strings.Contains(we.Message, ".F: ") {
			t.Errorf("%s: %s: %v, want a value error naming field F and %q", name, paths[i], err, want)
			continue
		}
		if i > 0 && errs[0] != nil && err.Error() != errs[0].Error() {
			t.Errorf("%s: %s says %q, %s %q", name, paths[i], err, paths[0], errs[0])
		}
	}
}

// The memory forms the compiled codecs have for the holders above, so
// that the refusals are checked on the compiled codecs and not only on
// the tape path.
func TestEnumUndeclaredOnCompiledCodecs(t *testing.T) {
	layouts := map[string]bool{}
	for _, bc := range enumBadCases() {
		g := bc.v
		if _, ok := g.(asAny); ok {
			continue
		}
		if h, ok := g.(anyHeld); ok {
			g = h.v
		}
		c := bindContext(t, bc.decl, false, false)
		st := bindStruct(reflect.TypeOf(g))
		if err := c.RegisterStruct("b.M", reflect.New(st).Elem().Interface()); err != nil {
			t.Fatal(err)
		}
		if c.memCodec(reflect.New(st).Interface()) == "layout" {
			layouts[fmt.Sprintf("%s %T", bc.decl, g)] = true
		}
		c.Close()
	}
	for _, want := range []string{"Color int32", "Color uint", "optional Color *int32", "optional Color int32",
		"list<Color> []int32", "list<optional Color> []*int32", "map<string, Color> map[string]int32",
		"map<Color, string> map[int32]string", "map<string, list<Color>> map[string][]int32",
		"In wire.bIn", "In *wire.bIn", "list<In> []wire.bIn", "list<In> []*wire.bIn", "map<string, In> map[string]wire.bIn"} {
		if !layouts[want] {
			t.Errorf("%s has no compiled codec (have %v)", want, layouts)
		}
	}
}

// A newer writer's enumerator (CYAN = 7 in its Color) decodes into the
// older reader's Go integer or wire.Enum on every decode path, as before;
// written back, it is refused (read, not written).
func TestEnumNewerWriterRead(t *testing.T) {
	for _, tc := range []struct {
		decl string
		v    any
	}{
		{"Color", int32(7)},
		{"Color", Enum{Type: "b.Color", TypeID: noType, Value: 7}},
		{"list<Color>", []int32{1, 7}},
		{"map<Color, string>", map[uint32]string{7: "c"}},
		{"In", bIn{1, 7}},
	} {
		for _, compat := range []bool{false, true} {
			gt := reflect.TypeOf(tc.v)
			st := bindStruct(gt)
			name := fmt.Sprintf("%s as %s (compatible=%v)", tc.decl, gt, compat)
			w, err := NewContext(WithCompatible(compat))
			if err != nil {
				t.Fatal(err)
			}
			newer := strings.Replace(bindSchema(tc.decl), "BLUE = 2;", "BLUE = 2; CYAN = 7;", 1)
			if err := w.LoadSchemaText("b.fdl", newer); err != nil {
				t.Fatal(err)
			}
			w.RegisterStruct("b.In", bIn{})
			if err := w.RegisterStruct("b.M", reflect.New(st).Elem().Interface()); err != nil {
				t.Fatal(err)
			}
			v := reflect.New(st)
			v.Elem().Field(0).Set(reflect.ValueOf(tc.v))
			outs := bindEncodes(t, w, v.Interface(), st, name+" (newer writer)")
			w.Close()
			if outs == nil {
				continue
			}
			c := bindContext(t, tc.decl, compat, false)
			if err := c.RegisterStruct("b.M", reflect.New(st).Elem().Interface()); err != nil {
				t.Fatal(err)
			}
			bindDecodes(t, c, outs[0], v.Elem(), st, name)
			back := reflect.New(st)
			if err := c.Unmarshal(outs[0], back.Interface()); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if _, err := c.Marshal(back.Interface()); err == nil || !strings.Contains(err.Error(), "enum value 7 is not declared by b.Color") {
				t.Errorf("%s: the newer value written back: %v", name, err)
			}
			c.Close()
		}
	}
}

// An enum's declared numbers, as wire_schema_enum_values gives them: the
// ordinals 0..n-1 as a bound, others sorted; a struct is no enum.
func TestEnumDeclOf(t *testing.T) {
	c := bindContext(t, "Color", false, false)
	defer c.Close()
	for _, tc := range []struct {
		name string
		in   []uint32
		out  []uint32
	}{
		{"b.Color", []uint32{0, 1, 2}, []uint32{3, 4, 1 << 31, 0xFFFFFFFF}},
		{"b.Sparse", []uint32{1, 5, 1000}, []uint32{0, 2, 4, 6, 999, 1001, 0xFFFFFFFF}},
	} {
		idx, ok := c.findType(tc.name)
		if !ok {
			t.Fatal(tc.name)
		}
		d := c.enumDeclOf(idx)
		if d == nil || c.enumDeclOf(idx) != d {
			t.Fatalf("%s: %v, not cached", tc.name, d)
		}
		for _, x := range tc.in {
			if !d.has(x) {
				t.Errorf("%s does not have %d", tc.name, x)
			}
		}
		for _, x := range tc.out {
			if d.has(x) {
				t.Errorf("%s has %d", tc.name, x)
			}
		}
	}
	if idx, _ := c.findType("b.Leaf"); c.enumDeclOf(idx) != nil {
		t.Error("b.Leaf is an enum")
	}
	if c.enumDeclOf(9999) != nil {
		t.Error("type 9999 is an enum")
	}
}

// A wire.Enum by TypeID alone names the schema enum registered with that
// id: enumByID finds it (not a struct's id, not an id the schema lacks,
// until a schema that has it is loaded), and its numbers are checked; an
// id the schema lacks is written as it is.
func TestEnumByID(t *testing.T) {
	c := bindContext(t, "Color", false, false)
	defer c.Close()
	color, _ := c.findType("b.Color")
	sparse, _ := c.findType("b.Sparse")
	for _, tc := range []struct {
		id   uint32
		idx  uint32
		want bool
	}{{4000, color, true}, {4004, sparse, true}, {4010, 0, false}, {4321, 0, false}, {noType, 0, false}} {
		for range 2 { // (the second time from the cache)
			if idx, ok := c.enumByID(tc.id); ok != tc.want || (ok && idx != tc.idx) {
				t.Errorf("enumByID(%d) = %d %v, want %d %v", tc.id, idx, ok, tc.idx, tc.want)
			}
		}
	}
	if _, err := c.Marshal(Enum{TypeID: 4321, Value: 77}); err != nil {
		t.Errorf("an enum of an id the schema lacks: %v", err)
	}
	if _, err := c.Marshal(Enum{TypeID: 4000, Value: 2}); err != nil {
		t.Errorf("a declared number by id: %v", err)
	}
	if err := c.LoadSchemaText("later.fdl", "package later;\nenum Late [id=4321] { A = 0; }\n"); err != nil {
		t.Fatal(err)
	}
	late, _ := c.findType("later.Late")
	if idx, ok := c.enumByID(4321); !ok || idx != late {
		t.Errorf("enumByID(4321) after the schema gained it = %d %v", idx, ok)
	}
	if _, err := c.Marshal(Enum{TypeID: 4321, Value: 77}); err == nil ||
		!strings.Contains(err.Error(), "enum value 77 is not declared by later.Late (declared: 0)") {
		t.Errorf("an undeclared number by id: %v", err)
	}
}
