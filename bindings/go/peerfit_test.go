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

func pfContext(t *testing.T, tape bool) *Context {
	t.Helper()
	c, err := NewContext(WithCompatible(true))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct {
		id uint32
		v  any
	}{{101, pfA{}}, {102, pfB{}}, {104, pfH{}}, {105, pfHN{}}} {
		if err := c.RegisterStructID(r.id, r.v); err != nil {
			t.Fatal(err)
		}
	}
	c.forceTape = tape
	return c
}

// TestStructFieldOfAnotherValue: Unmarshal refuses each on both paths
// with an error naming the struct and the field (and, on the compiled
// codecs, class schema at the value's type meta), and leaves no value in
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
			if !tape && (we.Class != "schema" || we.Offset != cs.at || !strings.HasPrefix(we.Message, "field ")) {
				t.Errorf("%s: %v: want class schema at byte %d, `field ...`", where, err, cs.at)
			}
		}
	}
}
