package wire

import (
	"encoding/hex"
	"errors"
	"math"
	"math/big"
	"reflect"
	"testing"
	"time"
)

// roundTrip marshals v with both paths (bulk tape and one call per value),
// checks they agree, and unmarshals into a new value of v's type.
func roundTrip(t *testing.T, v any, opts ...Option) ([]byte, any) {
	t.Helper()
	b, err := Marshal(v, opts...)
	if err != nil {
		t.Fatalf("Marshal(%#v): %v", v, err)
	}
	out := reflect.New(reflect.TypeOf(v))
	if err := Unmarshal(b, out.Interface(), opts...); err != nil {
		t.Fatalf("Unmarshal(%x) into %T: %v", b, v, err)
	}
	return b, out.Elem().Interface()
}

func TestRoundTripTyped(t *testing.T) {
	i64 := int64(7)
	values := []any{
		true, false, int8(-128), int16(-300), int32(-70000), int64(math.MinInt64), int(42),
		uint8(255), uint16(65535), uint32(math.MaxUint32), uint64(math.MaxUint64), uint(9),
		float32(1.5), math.Inf(-1), "", "latin1 text", "ünïcödé 🎉", []byte{0, 1, 2},
		[]bool{true, false}, []int8{-1, 2}, []int16{-3, 4}, []int32{5, -6}, []int64{7, -8}, []int{9},
		[]uint16{1}, []uint32{2}, []uint64{3}, []float32{1.25}, []float64{-2.5},
		[]string{"a", "b", ""}, []any{int64(1), "x", nil, true, 2.5},
		map[string]int64{"a": 1}, map[int32]string{1: "one"}, map[string]any{"k": []any{"v"}},
		map[string][]string{"k": {"a"}},
		time.Unix(1700000000, 123456789).UTC(), 1500 * time.Millisecond, -1500 * time.Millisecond,
		Date(19000), Float16FromFloat64(1.5), BFloat16FromFloat64(-2),
		Decimal{Unscaled: big.NewInt(-12345), Scale: 2},
		Set{"a", int64(1)}, &i64, [][]int32{{1, 2}, {3}}, [3]int16{1, 2, 3},
	}
	for _, v := range values {
		_, got := roundTrip(t, v)
		want := v
		if d, ok := v.(Decimal); ok {
			if g := got.(Decimal); g.Unscaled.Cmp(d.Unscaled) != 0 || g.Scale != d.Scale {
				t.Errorf("decimal: got %v", g)
			}
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("round trip %T: got %#v want %#v", v, got, want)
		}
	}
}

// Values decoded into `any` take their natural Go types.
func TestDecodeNatural(t *testing.T) {
	cases := []struct {
		in   any
		want any
	}{
		{int(3), int64(3)},
		{int32(3), int32(3)},
		{uint(3), uint64(3)},
		{[]string{"a"}, []any{"a"}},
		{map[string]int64{"a": 1}, map[any]any{"a": int64(1)}},
		{[]int{1, 2}, []int64{1, 2}},
		{nil, nil},
		{None{}, None{}},
		{[]byte{}, []byte{}},
	}
	for _, c := range cases {
		b, err := Marshal(c.in)
		if err != nil {
			t.Fatal(err)
		}
		var got any
		if err := Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%#v: got %#v want %#v", c.in, got, c.want)
		}
	}
}

func TestMarshalAll(t *testing.T) {
	b, err := MarshalAll([]any{int32(1), "two", []any{3.0}})
	if err != nil {
		t.Fatal(err)
	}
	var a int32
	var s string
	var l []any
	if err := UnmarshalAll(b, []any{&a, &s, &l}); err != nil {
		t.Fatal(err)
	}
	if a != 1 || s != "two" || !reflect.DeepEqual(l, []any{3.0}) {
		t.Fatalf("got %v %v %v", a, s, l)
	}
	vals, err := Decode(b)
	if err != nil || len(vals) != 3 {
		t.Fatalf("Decode: %v %v", vals, err)
	}
	// Unmarshal wants exactly one root.
	var x any
	err = Unmarshal(b, &x)
	var we *WireError
	if !errors.As(err, &we) || we.Class != "trailing" {
		t.Fatalf("want trailing, got %v", err)
	}
}

func TestErrors(t *testing.T) {
	good, _ := Marshal([]any{"abc", int64(1)})
	cases := []struct {
		name  string
		data  []byte
		class string
	}{
		{"truncated", good[:len(good)-1], "truncated"},
		{"header", []byte{0x02, 0xff, 0x01, 0x01}, "header"},
		{"empty string body", []byte{0x01, 0xff, 0x15}, "truncated"},
		{"bad bool", []byte{0x01, 0xff, 0x01, 0x02}, "value"},
		{"bad type", []byte{0x01, 0xff, 0x39}, "type"},
		{"overlong varint", []byte{0x01, 0xff, 0x05, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, "varint"},
	}
	for _, c := range cases {
		{
			var v any
			err := Unmarshal(c.data, &v)
			var we *WireError
			if !errors.As(err, &we) {
				t.Fatalf("%s: want *WireError, got %v", c.name, err)
			}
			if we.Class != c.class {
				t.Errorf("%s: class %q (%v), want %q", c.name, we.Class, we, c.class)
			}
			if !errors.Is(err, &WireError{Class: c.class}) {
				t.Errorf("%s: errors.Is by class failed", c.name)
			}
		}
	}
	// The offset points into the input.
	var v any
	err := Unmarshal(good[:len(good)-1], &v)
	if we := err.(*WireError); we.Offset == 0 || we.Offset > uint64(len(good)) {
		t.Errorf("offset %d out of range: %v", we.Offset, we)
	}
	// Limits.
	deep := []any{[]any{[]any{[]any{int64(1)}}}}
	b, err := Marshal(deep)
	if err != nil {
		t.Fatal(err)
	}
	if err := Unmarshal(b, &v, WithLimit(LimitDepth, 2)); !errors.Is(err, &WireError{Class: "depth"}) {
		t.Errorf("depth limit: %v", err)
	}
	big := make([]string, 100)
	b, _ = Marshal(big)
	if err := Unmarshal(b, &v, WithLimit(LimitCollection, 10)); !errors.Is(err, &WireError{Class: "limit"}) {
		t.Errorf("collection limit: %v", err)
	}
	// Go-side errors.
	var n int8
	b, _ = Marshal(int64(1000))
	if err := Unmarshal(b, &n); !errors.Is(err, &WireError{Class: "value"}) {
		t.Errorf("overflow: %v", err)
	}
	b, _ = Marshal("s")
	if err := Unmarshal(b, &n); !errors.Is(err, &WireError{Class: "type"}) {
		t.Errorf("mismatch: %v", err)
	}
	if err := Unmarshal(b, n); !errors.Is(err, &WireError{Class: "arg"}) {
		t.Errorf("non-pointer: %v", err)
	}
	type unregistered struct{ A int }
	if _, err := Marshal(unregistered{1}); !errors.Is(err, &WireError{Class: "type"}) {
		t.Errorf("unregistered struct: %v", err)
	}
	if _, err := Marshal(make(chan int)); !errors.Is(err, &WireError{Class: "type"}) {
		t.Errorf("chan: %v", err)
	}
	// A cycle without reference tracking is refused, not looped on.
	type node struct {
		Next *node `wire:"next"`
	}
	c, _ := NewContext()
	defer c.Close()
	if err := c.RegisterStruct("test.Node", node{}); err != nil {
		t.Fatal(err)
	}
	cyc := &node{}
	cyc.Next = cyc
	if _, err := c.Marshal(cyc); !errors.Is(err, &WireError{Class: "depth"}) {
		t.Errorf("cycle: %v", err)
	}
}

type person struct {
	Name    string           `wire:"name"`
	Age     int32            `wire:"age"`
	Email   *string          `wire:"email"`
	Tags    []string         `wire:"tags"`
	Scores  map[string]int64 `wire:"scores"`
	Born    time.Time        `wire:"born"`
	Friend  *person          `wire:"friend,nullable,ref"`
	Fixed   int32            `wire:"fixed,type=int32"`
	Extra   any              `wire:"extra"`
	skipped int
}

func TestStructTags(t *testing.T) {
	c, err := NewContext(WithRefTracking(true))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.RegisterStruct("demo.Person", person{}); err != nil {
		t.Fatal(err)
	}
	mail := "a@b.c"
	p := &person{Name: "Ann", Age: 30, Email: &mail, Tags: []string{"x"}, Scores: map[string]int64{"go": 9},
		Born: time.Unix(1e9, 0).UTC(), Fixed: -5, Extra: "any"}
	p.Friend = p // a cycle, written with a back reference
	b, err := c.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var got *person
	if err := c.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.Friend != got {
		t.Fatalf("cycle not restored")
	}
	got.Friend, p.Friend = nil, nil
	if !reflect.DeepEqual(got, p) {
		t.Fatalf("got %+v want %+v", got, p)
	}
	// Decoded into any: the registered Go type comes back as *person.
	p.Friend = p
	b, _ = c.Marshal([]any{p, p})
	var anyv any
	if err := c.Unmarshal(b, &anyv); err != nil {
		t.Fatal(err)
	}
	l := anyv.([]any)
	if l[0].(*person) != l[1].(*person) || l[0].(*person).Friend != l[0].(*person) {
		t.Fatalf("shared pointers not restored: %#v", l)
	}
}

func TestGlobalRegistration(t *testing.T) {
	type point struct {
		X, Y int32
	}
	if err := RegisterStructID(4242, point{}); err != nil {
		t.Fatal(err)
	}
	_, got := roundTrip(t, point{1, 2})
	if got.(point) != (point{1, 2}) {
		t.Fatal(got)
	}
	b, _ := Marshal(&point{3, 4}, WithCompatible(true))
	var p *point
	if err := Unmarshal(b, &p, WithCompatible(true)); err != nil || *p != (point{3, 4}) {
		t.Fatal(p, err)
	}
}

func TestDocumentAPI(t *testing.T) {
	c, _ := NewContext()
	defer c.Close()
	d, err := c.NewDoc()
	if err != nil {
		t.Fatal(err)
	}
	defer d.Free()
	l, _ := d.List(TypeList)
	l.SetListHeader(-1)
	i, _ := d.Int(TypeVarint64, 1)
	s, _ := d.String("a", StrUTF8)
	n, _ := d.Null()
	l.Append(i)
	l.Append(s)
	l.Append(n)
	d.AddRoot(l)
	b, err := d.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if hex.EncodeToString(b) != "01ff160302ff0702ff150661fd" {
		t.Fatalf("got %x", b)
	}
	d2, err := c.DecodeDoc(b)
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Free()
	r := d2.Root(0)
	if r.Type() != TypeList || r.Count() != 3 || r.Child(1).Text() != "a" || r.Child(1).StringEncoding() != StrUTF8 || r.Child(2).Type() != TypeNull {
		t.Fatal("decoded document differs")
	}
	if _, err := d.Int(TypeInt8, 1000); err == nil {
		t.Fatal("range check")
	}
}

func TestArrayWidthTable(t *testing.T) {
	for id := 0; id < 300; id++ {
		if got, want := ArrayWidth(id), arrayWidthC(id); got != want {
			t.Errorf("type %d: width %d, libwire says %d", id, got, want)
		}
	}
}

// TestMarshalAppendDirect: from directMin tape bytes on, MarshalAppend
// encodes into dst's spare capacity when the payload fits, and the usual
// way when it does not (a Java-choice UTF-16 payload is longer than its
// tape); the bytes are Marshal's either way and dst's own bytes stay.
func TestMarshalAppendDirect(t *testing.T) {
	bin := make([]byte, 100000)
	for i := range bin {
		bin[i] = byte(i * 7)
	}
	arr := make([]int64, 5000)
	for i := range arr {
		arr[i] = int64(i) * -977
	}
	wide := make([]string, 2000) // mostly ASCII, one CJK character each
	for i := range wide {
		wide[i] = "abcdefghijklmnopqrstuvwxyz\u4e2d" + itoa(int64(i))
	}
	m := map[string]int64{}
	for i := 0; i < 3000; i++ {
		m["k"+itoa(int64(i))] = int64(i)
	}
	fallback := false
	for _, utf8 := range []bool{false, true} {
		c, err := NewContext(WithUTF8Strings(utf8))
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range []any{bin, arr, wide, m, []byte{1, 2, 3}} {
			want, err := c.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			tp, err := c.Tape(v)
			if err != nil {
				t.Fatal(err)
			}
			for _, spare := range []int{0, len(tp) + 64, len(want) + len(tp) + 64} {
				dst := make([]byte, 3, 3+spare)
				copy(dst, "abc")
				got, err := c.MarshalAppend(dst, v)
				if err != nil {
					t.Fatalf("%T utf8=%v spare=%d: %v", v, utf8, spare, err)
				}
				if string(got[:3]) != "abc" {
					t.Fatalf("%T utf8=%v spare=%d: dst's bytes changed", v, utf8, spare)
				}
				if _, isMap := v.(map[string]int64); isMap { // entry order varies
					var back map[string]int64
					if len(got)-3 != len(want) || c.Unmarshal(got[3:], &back) != nil || !reflect.DeepEqual(back, m) {
						t.Fatalf("map utf8=%v spare=%d: does not read back", utf8, spare)
					}
				} else if string(got[3:]) != string(want) {
					t.Fatalf("%T utf8=%v spare=%d: bytes differ from Marshal's", v, utf8, spare)
				}
				if len(tp) >= directMin && spare == len(tp)+64 && len(want) > spare {
					fallback = true // tried the spare capacity, did not fit
				}
			}
		}
		c.Close()
	}
	if !fallback {
		t.Fatal("no case took the fallback (a payload longer than its tape + 64)")
	}
}

// A NAMED_ENUM the schema lacks decodes to an Enum named from the payload
// (here with an empty namespace and name: Type "" and no TypeID), and
// Marshal refuses it with a "schema" error instead of writing an enum of
// no type (a Go fuzz finding: it used to reach C as an id-less enum).
func TestForeignNamedEnumIsNotWritten(t *testing.T) {
	c, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var v any
	if err := c.Unmarshal([]byte{0x01, 0x00, 0x1a, 0x00, 0x00, 0x30}, &v); err != nil {
		t.Fatal(err)
	}
	if v != (Enum{Type: "", TypeID: noType, Value: 48}) {
		t.Fatalf("decoded %#v", v)
	}
	_, err = c.Marshal(v)
	var we *WireError
	if !errors.As(err, &we) || we.Class != "schema" {
		t.Fatalf("Marshal: %v", err)
	}
	if _, err := c.Marshal(Enum{TypeID: 7, Value: 1}); err != nil {
		t.Fatalf("an enum by type id: %v", err)
	}
}
