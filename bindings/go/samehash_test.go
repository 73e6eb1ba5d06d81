package wire

import (
	"reflect"
	"testing"
)

// Go types of one field layout: registered as structs whose schema hashes
// are equal (the fingerprint holds no type name, spec 5.6).
type shA struct {
	N int32
	S string
}
type shB struct {
	N int32
	S string
}
type shC struct {
	N int32
	S string
}
type shD struct {
	N int32
	S string
}
type shE struct {
	N int32
	S string
}

// An untyped decode (Decode, Unmarshal into *any) and a typed one give each
// root back as its own Go type when several registered structs share the
// schema hash: by id, by name, and one type name in two namespaces, in both
// modes, with and without reference tracking, on the compiled codecs and
// the tape path; the hash of another struct is not the root's type.
func TestSameHashStructsDecodeAsThemselves(t *testing.T) {
	for _, compatible := range []bool{false, true} {
		for _, ref := range []bool{false, true} {
			c, err := NewContext(WithCompatible(compatible), WithRefTracking(ref))
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range []struct {
				id   uint32
				name string
				v    any
			}{{801, "", shA{}}, {802, "", shB{}}, {0, "sh.C", shC{}}, {0, "shx.C", shD{}}, {0, "shy.C", shE{}}} {
				if r.id != 0 {
					err = c.RegisterStructID(r.id, r.v)
				} else {
					err = c.RegisterStruct(r.name, r.v)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			values := []any{&shA{1, "a"}, &shB{2, "b"}, &shC{3, "c"}, &shD{4, "d"}, &shE{5, "e"}}
			for round := 0; round < 2; round++ {
				for _, tape := range []bool{false, true} {
					c.forceTape = tape
					for _, v := range values {
						mode := func() string {
							return reflect.TypeOf(v).Elem().Name() + " compatible=" + itoa(b2i(compatible)) +
								" ref=" + itoa(b2i(ref)) + " tape=" + itoa(b2i(tape))
						}
						b, err := c.Marshal(v)
						if err != nil {
							t.Fatalf("%s: %v", mode(), err)
						}
						all, err := c.Decode(b)
						if err != nil || len(all) != 1 || !reflect.DeepEqual(all[0], v) {
							t.Errorf("%s: Decode gave %#v, %v", mode(), all, err)
						}
						var a any
						if err := c.Unmarshal(b, &a); err != nil || !reflect.DeepEqual(a, v) {
							t.Errorf("%s: Unmarshal into any gave %#v, %v", mode(), a, err)
						}
						typed := reflect.New(reflect.TypeOf(v).Elem())
						if err := c.Unmarshal(b, typed.Interface()); err != nil || !reflect.DeepEqual(typed.Interface(), v) {
							t.Errorf("%s: Unmarshal into its type gave %#v, %v", mode(), typed.Interface(), err)
						}
						// into another type of the same hash: an error, never a value
						other := reflect.New(reflect.TypeOf(values[0]).Elem())
						if reflect.TypeOf(v) == reflect.TypeOf(values[0]) {
							other = reflect.New(reflect.TypeOf(values[1]).Elem())
						}
						if err := c.Unmarshal(b, other.Interface()); err == nil {
							t.Errorf("%s: Unmarshal into %s gave %#v", mode(), other.Type().Elem().Name(), other.Interface())
						}
					}
					c.forceTape = false
				}
			}
			c.Close()
		}
	}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
