package wire

import (
	"encoding/hex"
	"errors"
	"strings"
	"testing"
)

// A compatible-mode struct field declared as struct A (type 101) holding a
// value of another kind or type, as pyfory 1.7.7 writes it (spec
// errata E-STRUCTFIT-1): an int, a string, a list, a struct B (type 102),
// an enum (type 103), and None in a field not declared nullable (NONE
// type meta). pfH (104) holds A by value, pfHN (105) by pointer.
type pfA struct{ X int32 }
type pfB struct{ Y int32 }
type pfH struct{ F pfA }
type pfHN struct {
	F *pfA `wire:"f,nullable"`
}

// pyfory 1.7.7's bytes: H(f=...) and HN(f=...), registered by id.
var pfCases = []struct {
	name, hex string
	nullable  bool
	found     string // what the refusal names in the field (compiled|tape)
	at        uint64 // offset of the value's type meta (of its TypeDef: struct B)
}{
	{"int", "01ff1c000570adb6905aba49c168401c14070a", false, "varint64", 17},
	{"string", "01ff1c000570adb6905aba49c168401c1415086869", false, "string", 17},
	{"list", "01ff1c000570adb6905aba49c168401c14160208070204", false, "list", 17},
	{"struct B", "01ff1c000570adb6905aba49c168401c141c02052019cb91382d7cc16640056012", false, "102|pfb", 19},
	{"enum", "01ff1c000570adb6905aba49c168401c14196701", false, "enum", 17},
	{"none", "01ff1c000570adb6905aba49c168401c1424", false, "none", 17},
	{"int", "01ff1c00054099c7d5efb577c169421c14ff070a", true, "varint64", 18},
	{"string", "01ff1c00054099c7d5efb577c169421c14ff15086869", true, "string", 18},
	{"list", "01ff1c00054099c7d5efb577c169421c14ff160208070204", true, "list", 18},
	{"struct B", "01ff1c00054099c7d5efb577c169421c14ff1c02052019cb91382d7cc16640056012", true, "102|pfb", 20},
	{"enum", "01ff1c00054099c7d5efb577c169421c14ff196701", true, "enum", 18},
}

func pfContext(t *testing.T, tape bool) *Context { return pfNamedContext(t, false, tape) }

// pfNamed: the 28 payloads of Kotlin's StructFieldFitTest (pyfory 1.7.7,
// compatible): by id (101 A, 102 B, 103 E, 104 H, 105 HN) and by name
// (g.A, g.B, g.E, g.H, g.HN); in H (a field not declared nullable) and HN;
// a struct B, an A (decodes), an enum, an int, a list, None / null (HN:
// decodes to nil), a string. at: the offset of the value's type meta (of
// struct B's TypeDef), 0 where the payload decodes.
var pfAll = []struct {
	key, hex string
	at       uint64
}{
	{"id/H/B", "01ff1c000570adb6905aba49c168401c141c02052019cb91382d7cc16640056012", 19},
	{"id/H/a", "01ff1c000570adb6905aba49c168401c141c0205b041dfe88ea318c16540055c0e", 0},
	{"id/H/enum", "01ff1c000570adb6905aba49c168401c14196701", 17},
	{"id/H/i32", "01ff1c000570adb6905aba49c168401c14070a", 17},
	{"id/H/list", "01ff1c000570adb6905aba49c168401c14160208070204", 17},
	{"id/H/null", "01ff1c000570adb6905aba49c168401c1424", 17},
	{"id/H/str", "01ff1c000570adb6905aba49c168401c1415086869", 17},
	{"id/HN/B", "01ff1c00054099c7d5efb577c169421c14ff1c02052019cb91382d7cc16640056012", 20},
	{"id/HN/a", "01ff1c00054099c7d5efb577c169421c14ff1c0205b041dfe88ea318c16540055c0e", 0},
	{"id/HN/enum", "01ff1c00054099c7d5efb577c169421c14ff196701", 18},
	{"id/HN/i32", "01ff1c00054099c7d5efb577c169421c14ff070a", 18},
	{"id/HN/list", "01ff1c00054099c7d5efb577c169421c14ff160208070204", 18},
	{"id/HN/null", "01ff1c00054099c7d5efb577c169421c14fd", 0},
	{"id/HN/str", "01ff1c00054099c7d5efb577c169421c14ff15086869", 18},
	{"name/H/B", "01ff1e0008a00ec837b13d02e10518071c401e141e0208203cbb04227017e10518070440056012", 22},
	{"name/H/a", "01ff1e0008a00ec837b13d02e10518071c401e141e020850bec0e29d021de10518070040055c0e", 0},
	{"name/H/enum", "01ff1e0008a00ec837b13d02e10518071c401e141a020580e7c96c3d732d010518071001", 20},
	{"name/H/i32", "01ff1e0008a00ec837b13d02e10518071c401e14070a", 20},
	{"name/H/list", "01ff1e0008a00ec837b13d02e10518071c401e14160208070204", 20},
	{"name/H/null", "01ff1e0008a00ec837b13d02e10518071c401e1424", 20},
	{"name/H/str", "01ff1e0008a00ec837b13d02e10518071c401e1415086869", 20},
	{"name/HN/B", "01ff1e00092053a82d307b76e105180a4338421e14ff1e0208203cbb04227017e10518070440056012", 24},
	{"name/HN/a", "01ff1e00092053a82d307b76e105180a4338421e14ff1e020850bec0e29d021de10518070040055c0e", 0},
	{"name/HN/enum", "01ff1e00092053a82d307b76e105180a4338421e14ff1a020580e7c96c3d732d010518071001", 22},
	{"name/HN/i32", "01ff1e00092053a82d307b76e105180a4338421e14ff070a", 22},
	{"name/HN/list", "01ff1e00092053a82d307b76e105180a4338421e14ff160208070204", 22},
	{"name/HN/null", "01ff1e00092053a82d307b76e105180a4338421e14fd", 0},
	{"name/HN/str", "01ff1e00092053a82d307b76e105180a4338421e14ff15086869", 22},
}

// pfNamedContext registers A, B, H and HN by id (101, 102, 104, 105) or
// by name (g.A, ...); tape: registered structs through the tape path.
func pfNamedContext(t *testing.T, byName, tape bool) *Context {
	t.Helper()
	c, err := NewContext(WithCompatible(true))
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range []any{pfA{}, pfB{}, pfH{}, pfHN{}} {
		if byName {
			err = c.RegisterStruct("g."+[]string{"A", "B", "H", "HN"}[i], v)
		} else {
			err = c.RegisterStructID([]uint32{101, 102, 104, 105}[i], v)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	c.forceTape = tape
	return c
}

// TestStructFieldFitBothPaths: the compiled codecs and the tape path give
// the same class (schema), offset (the value's type meta) and field
// (`field <H>.f: `, once) for each of the 28 payloads, and the same value
// for those that decode.
func TestStructFieldFitBothPaths(t *testing.T) {
	for _, cs := range pfAll {
		parts := strings.Split(cs.key, "/")
		data, _ := hex.DecodeString(cs.hex)
		var errs [2]*WireError
		var vals [2]*pfA
		for i, tape := range []bool{false, true} {
			c := pfNamedContext(t, parts[0] == "name", tape)
			var err error
			if parts[1] == "HN" {
				var v pfHN
				err = c.Unmarshal(data, &v)
				vals[i] = v.F
			} else {
				var v pfH
				err = c.Unmarshal(data, &v)
				vals[i] = &v.F
			}
			c.Close()
			if err != nil && !errors.As(err, &errs[i]) {
				t.Fatalf("%s: %T %v", cs.key, err, err)
			}
		}
		if cs.at == 0 {
			if errs[0] != nil || errs[1] != nil || (vals[0] == nil) != (vals[1] == nil) ||
				vals[0] != nil && (*vals[0] != *vals[1] || vals[0].X != 7) {
				t.Errorf("%s: %v / %v, values %v / %v", cs.key, errs[0], errs[1], vals[0], vals[1])
			}
			continue
		}
		h := map[string]string{"id/H": "pfH", "id/HN": "pfHN", "name/H": "g.H", "name/HN": "g.HN"}[parts[0]+"/"+parts[1]]
		for i, e := range errs {
			if e == nil {
				t.Errorf("%s (path %d): no error", cs.key, i)
				continue
			}
			if e.Class != "schema" || e.Offset != cs.at || !strings.HasPrefix(e.Message, "field "+h+".f: ") ||
				strings.Count(e.Message, ": ") != 1 || !strings.Contains(e.Message, " is declared") {
				t.Errorf("%s (path %d): %v: want schema at byte %d, `field %s.f: ...`", cs.key, i, e, cs.at, h)
			}
			if i == 1 && !strings.HasSuffix(e.Message, "(Go field F)") {
				t.Errorf("%s (tape): %v: the Go field", cs.key, e)
			}
			if !errors.Is(e, &WireError{Class: "schema"}) || StatusName(22) != "schema" /* WIRE_E_SCHEMA, pinned */ {
				t.Errorf("%s: errors.Is / status", cs.key)
			}
		}
	}
}

// TestStructFieldOfAnotherValue: Unmarshal refuses each on both paths
// with an error naming the struct and the field, class schema at the
// value's type meta, and leaves no value in
// the field (Fory Go v1.6.1 reads an int into a *A as A{X: 5}).
func TestStructFieldOfAnotherValue(t *testing.T) {
	for _, cs := range pfCases {
		data, _ := hex.DecodeString(cs.hex)
		for _, tape := range []bool{false, true} {
			c := pfContext(t, tape)
			var err error
			var got *pfA
			if cs.nullable {
				var v pfHN
				err = c.Unmarshal(data, &v)
				got = v.F
			} else {
				var v pfH
				err = c.Unmarshal(data, &v)
				got = &v.F
			}
			c.Close()
			where := cs.name
			if cs.nullable {
				where += " (nullable)"
			}
			if tape {
				where += ", tape"
			}
			var we *WireError
			if !errors.As(err, &we) {
				t.Fatalf("%s: %v (%+v), want an error", where, err, got)
			}
			if got != nil && got.X != 0 {
				t.Errorf("%s: the field got %+v", where, *got)
			}
			msg := strings.ToLower(we.Message)
			st := "pfh.f:"
			if cs.nullable {
				st = "pfhn.f:"
			}
			found := cs.found
			if i := strings.IndexByte(found, '|'); i >= 0 {
				found = map[bool]string{false: found[:i], true: found[i+1:]}[tape]
			}
			if !strings.Contains(msg, st) || !strings.Contains(msg, "pfa") || !strings.Contains(msg, found) {
				t.Errorf("%s: %v: does not name the field, the declared type and %q", where, err, found)
			}
			if we.Class != "schema" || we.Offset != cs.at || !strings.HasPrefix(we.Message, "field ") {
				t.Errorf("%s: %v: want class schema at byte %d, `field ...`", where, err, cs.at)
			}
		}
	}
}

// TestStructFieldEncodeNamesField: a wire.Struct holding a Go value the
// binding cannot write in a field: the error names the field once, in the
// wire form, inside a nested Struct too (innermost).
func TestStructFieldEncodeNamesField(t *testing.T) {
	c := pfNamedContext(t, true, false)
	defer c.Close()
	bad := Struct{Type: "g.A", Fields: []Field{{Name: "x", Value: make(chan int)}}}
	for _, v := range []any{bad, Struct{Type: "g.H", Fields: []Field{{Name: "f", Value: bad}}}} {
		_, err := c.Marshal(v)
		var we *WireError
		if !errors.As(err, &we) || !strings.HasPrefix(we.Message, "field g.A.x: ") || strings.Count(we.Message, "field ") != 1 {
			t.Errorf("%v", err)
		}
	}
}
