package wire

import (
	"bytes"
	"errors"
	"math"
	"math/big"
	"reflect"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// Types covering every memory form of the compiled-codec path (mem.go).
type memLeaf struct {
	Name string
	N    int32
}

type memAll struct {
	B       bool
	I8      int8
	I16     int16
	I32     int32
	I64     int64
	I       int
	U8      uint8
	U16     uint16
	U32     uint32
	U64     uint64
	U       uint
	F32     float32
	F64     float64
	H       Float16
	BH      BFloat16
	D       Date
	S       string
	Big     string
	Bin     []byte `wire:",type=binary"`
	Bytes   []byte
	I32s    []int32
	I64a    []int64 `wire:",type=int64_array"`
	Bools   []bool
	F64s    []float64
	Strs    []string
	Leaf    memLeaf
	Leaves  []memLeaf
	LPtrs   []*memLeaf
	LPtr    *memLeaf
	PI      *int32
	PS      *string
	PB      *bool
	M       map[string]int64
	MS      map[string]string
	MI      map[int32]string
	ML      map[string]memLeaf
	MP      map[string]*memLeaf
	Nested  [][]int32
	LMaps   []map[string]int32
	When    time.Time
	Dur     time.Duration
	Dec     Decimal
	Times   []time.Time
	Fixed   int32 `wire:",type=int32"`
	Tagged  int64 `wire:",type=tagged_int64"`
	private int
}

// memOuter holds memAll inline; memAll's image has extras (the map
// counts, the duration), so it is boxed (STRUCT_PTR) in memOuter's image.
type memOuter struct {
	Z   int32
	All memAll
	Tag string
}

// memNode lists and points to itself.
type memNode struct {
	V    int32
	Kids []memNode
	Next *memNode
}

func memRegister(t testing.TB, c *Context) {
	t.Helper()
	for i, v := range []any{memLeaf{}, memAll{}, memOuter{}, memNode{}} {
		if err := c.RegisterStructID(uint32(400+i), v); err != nil {
			t.Fatal(err)
		}
	}
}

func memValue() *memAll {
	pi, ps, pb := int32(-7), "pointed", true
	return &memAll{
		B: true, I8: -8, I16: -1600, I32: math.MinInt32, I64: math.MaxInt64, I: -42,
		U8: 255, U16: 65535, U32: math.MaxUint32, U64: math.MaxUint64, U: 7,
		F32: -1.25, F64: math.Pi, H: Float16FromFloat64(1.5), BH: BFloat16FromFloat64(-2), D: 19000,
		S: "héllo wörld 日本語", Big: strings.Repeat("x", 5000) + "€", // pinned, not copied
		Bin: []byte{0, 1, 2, 255}, Bytes: []byte{9, 8},
		I32s: []int32{-1, 0, 1 << 30}, I64a: []int64{math.MinInt64, 5}, Bools: []bool{true, false, true},
		F64s: []float64{0.5, -0}, Strs: []string{"a", "", "ccc", "日本"},
		Leaf: memLeaf{"leaf", 3}, Leaves: []memLeaf{{"x", 1}, {"", -2}},
		LPtrs: []*memLeaf{{"p", 1}, nil}, LPtr: &memLeaf{"lp", 9},
		PI: &pi, PS: &ps, PB: &pb,
		M: map[string]int64{"k": -1}, MS: map[string]string{"a": "b"}, MI: map[int32]string{-3: "m"},
		ML: map[string]memLeaf{"l": {"v", 2}}, MP: map[string]*memLeaf{"p": {"q", 4}},
		Nested: [][]int32{{1, 2}, {}, nil}, LMaps: []map[string]int32{{"z": 26}},
		When: time.Unix(1700000000, 123456789).UTC(), Dur: -1500 * time.Millisecond,
		Dec:   Decimal{Unscaled: big.NewInt(-123456789), Scale: 4},
		Times: []time.Time{time.Unix(0, 0).UTC(), time.Unix(-1, 999999999).UTC()},
		Fixed: -5, Tagged: 1 << 40,
	}
}

// memZero: the zero value after a round trip (nil and empty collections
// as the decoder gives them).
func memValues() []any {
	large := memValue()
	large.Bin = bytes.Repeat([]byte{7}, 5000) // pinned, not copied
	large.I32s = make([]int32, 2000)          // pinned
	for i := range large.I32s {
		large.I32s[i] = int32(i * 1000003)
	}
	none := []memNode{}
	chain := &memNode{V: 1, Kids: []memNode{{V: 2, Kids: none}, {V: 3, Kids: []memNode{{V: 4, Kids: none}}}},
		Next: &memNode{V: 5, Kids: none}}
	return []any{
		memValue(),
		large,
		&memAll{Dec: Decimal{Unscaled: new(big.Int)}},
		&memAll{Strs: []string{}, I32s: []int32{}, M: map[string]int64{}, Leaves: []memLeaf{}, Dec: Decimal{Unscaled: new(big.Int)}},
		&memOuter{Z: 1, All: *memValue(), Tag: "outer"},
		memOuter{Z: 2, Tag: "by value", All: memAll{Dec: Decimal{Unscaled: new(big.Int)}}},
		chain,
		&memLeaf{"", 0},
		memLeaf{"by value", 1},
	}
}

func TestMemCodecChoice(t *testing.T) {
	c, _ := NewContext()
	defer c.Close()
	memRegister(t, c)
	for _, v := range []any{memLeaf{}, memAll{}, memOuter{}, memNode{}} {
		if got := c.memCodec(v); got != "layout" {
			t.Errorf("%T: %s", v, got)
		}
	}
	if got := c.memCodec(memAll{}); got != "layout" {
		t.Fatal(got)
	}
	// unexported fields are not part of the image: decoding leaves them
	b, err := c.Marshal(memValue())
	if err != nil {
		t.Fatal(err)
	}
	back := memAll{private: 7}
	if err := c.Unmarshal(b, &back); err != nil || back.private != 7 || back.I32 != math.MinInt32 {
		t.Fatalf("private %d, I32 %d, %v", back.private, back.I32, err)
	}
	bc, _ := benchRuntimes(t)
	defer bc.Close()
	for _, bt := range benchTypes {
		if got := bc.memCodec(bt.v); got != "layout" {
			t.Errorf("%T: %s", bt.v, got)
		}
	}
}

// Types the layouts cannot express take the tape path, named here one by
// one (README: "Which structs take the compiled codecs").
func TestMemTapeFallback(t *testing.T) {
	type withAny struct{ A any }
	type withArray struct{ A [3]int32 }
	type withSet struct{ S Set }
	type withAnyList struct{ L []any }
	type withPtrTime struct{ T *time.Time }
	cases := []struct {
		v    any
		want string
	}{
		{withAny{}, "the Go type interface {} has no memory form"},
		{withArray{}, "has no memory form"},
		{withSet{}, "has no memory form"},
		{withAnyList{}, "has no memory form"},
		{withPtrTime{}, "has no memory form"},
	}
	for i, tc := range cases {
		c, _ := NewContext()
		if err := c.RegisterStructID(uint32(600+i), tc.v); err != nil {
			t.Fatalf("%T: %v", tc.v, err)
		}
		got := c.memCodec(tc.v)
		if !strings.HasPrefix(got, "tape: ") || !strings.Contains(got, tc.want) {
			t.Errorf("%T: %q, want tape: ...%s", tc.v, got, tc.want)
		}
		c.Close()
	}
	c, _ := NewContext()
	defer c.Close()
	// union and enum fields of an FDL schema held as wire.Union / wire.Enum
	if err := c.LoadSchemaText("u.fdl", `package u;
enum Color [id=950] { RED = 0; GREEN = 1; }
union Answer [id=951] { string text = 1; int32 choice = 2; }
message Reply [id=952] { string who = 1; Answer answer = 2; }
message Paint [id=953] { string who = 1; Color color = 2; }
`); err != nil {
		t.Fatal(err)
	}
	type Reply struct {
		Who    string
		Answer Union
	}
	type Paint struct {
		Who   string
		Color Enum
	}
	type PaintInt struct {
		Who   string
		Color int32
	}
	if err := c.RegisterStruct("u.Reply", Reply{}); err != nil {
		t.Fatal(err)
	}
	if got := c.memCodec(Reply{}); !strings.HasPrefix(got, "tape: ") {
		t.Errorf("union field: %s", got)
	}
	rb, err := c.Marshal(&Reply{"r", Union{Type: "u.Answer", Case: 1, Value: "yes"}})
	if err != nil {
		t.Fatal(err)
	}
	var rback Reply
	if err := c.Unmarshal(rb, &rback); err != nil || rback.Answer.Value != "yes" {
		t.Fatalf("%+v %v", rback, err)
	}
	if err := c.RegisterStruct("u.Paint", Paint{}); err != nil {
		t.Fatal(err)
	}
	if got := c.memCodec(Paint{}); !strings.HasPrefix(got, "tape: ") {
		t.Errorf("wire.Enum field: %s", got)
	}
	// an enum field held as an integer has a memory form
	e2, _ := NewContext()
	defer e2.Close()
	e2.LoadSchemaText("u.fdl", "package u;\nenum Color [id=950] { RED = 0; GREEN = 1; }\nmessage Paint [id=953] { string who = 1; Color color = 2; }\n")
	if err := e2.RegisterStruct("u.Paint", PaintInt{}); err != nil {
		t.Fatal(err)
	}
	if got := e2.memCodec(PaintInt{}); got != "layout" {
		t.Errorf("int32 enum field: %s", got)
	}
	memRoundTrip(t, e2, &PaintInt{"p", 1}, "PaintInt")
	// the tape path still encodes and decodes them
	type holder struct {
		Name string
		A    any
	}
	c.RegisterStructID(702, holder{})
	b, err := c.Marshal(&holder{"h", int64(5)})
	if err != nil {
		t.Fatal(err)
	}
	var back holder
	if err := c.Unmarshal(b, &back); err != nil || back.Name != "h" || back.A != int64(5) {
		t.Fatalf("%+v %v", back, err)
	}
}

// looseEqual is reflect.DeepEqual except that a nil slice or map equals an
// empty one (a non-nullable field written from nil reads back empty).
func looseEqual(a, b reflect.Value) bool {
	if a.Kind() != b.Kind() || a.Type() != b.Type() {
		return false
	}
	switch a.Kind() {
	case reflect.Slice:
		if a.Len() != b.Len() {
			return false
		}
		for i := 0; i < a.Len(); i++ {
			if !looseEqual(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		for _, k := range a.MapKeys() {
			bv := b.MapIndex(k)
			if !bv.IsValid() || !looseEqual(a.MapIndex(k), bv) {
				return false
			}
		}
		return true
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return looseEqual(a.Elem(), b.Elem())
	case reflect.Struct:
		if a.Type() == typTime || a.Type() == typDecimal {
			return reflect.DeepEqual(a.Interface(), b.Interface())
		}
		for i := 0; i < a.NumField(); i++ {
			if a.Type().Field(i).IsExported() && !looseEqual(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}

func deref(v any) any {
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer {
		return rv.Elem().Interface()
	}
	return v
}

// hasMaps: values with maps of more than one entry are compared by value
// only (Go's map order is random).
func memRoundTrip(t *testing.T, c *Context, v any, name string) []byte {
	t.Helper()
	mine, err := c.Marshal(v)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	c.forceTape = true
	tape, err := c.Marshal(v)
	c.forceTape = false
	if err != nil {
		t.Fatalf("%s: tape: %v", name, err)
	}
	if !bytes.Equal(mine, tape) {
		t.Errorf("%s: compiled codec and tape path disagree\nmem  %x\ntape %x", name, mine, tape)
	}
	typ := reflect.TypeOf(deref(v))
	for _, in := range [][]byte{mine, tape} {
		back := reflect.New(typ)
		if err := c.Unmarshal(in, back.Interface()); err != nil {
			t.Fatalf("%s: Unmarshal: %v", name, err)
		}
		if !looseEqual(back.Elem(), reflect.ValueOf(deref(v))) {
			t.Errorf("%s: round trip\n got %+v\nwant %+v", name, back.Elem().Interface(), deref(v))
		}
		c.forceTape = true
		tb := reflect.New(typ)
		err := c.Unmarshal(in, tb.Interface())
		c.forceTape = false
		if err != nil {
			t.Fatalf("%s: tape Unmarshal: %v", name, err)
		}
		if !reflect.DeepEqual(tb.Elem().Interface(), back.Elem().Interface()) {
			t.Errorf("%s: the paths decode differently\nmem  %+v\ntape %+v", name, back.Elem().Interface(), tb.Elem().Interface())
		}
	}
	return mine
}

// The compiled codecs write the tape path's bytes and both read them back
// to the value, in every mode.
func TestMemSameAsTape(t *testing.T) {
	for _, compatible := range []bool{false, true} {
		for _, utf8 := range []bool{false, true} {
			for _, ref := range []bool{false, true} {
				c, _ := NewContext(WithCompatible(compatible), WithUTF8Strings(utf8), WithRefTracking(ref))
				memRegister(t, c)
				for i, v := range memValues() {
					name := reflect.TypeOf(v).String() + "#" + itoa(int64(i))
					if compatible {
						name += " compatible"
					}
					if utf8 {
						name += " utf8"
					}
					if ref {
						name += " ref"
					}
					memRoundTrip(t, c, v, name)
				}
				c.Close()
			}
		}
	}
}

// Reference tracking through the compiled codecs: a pointer field
// declared ref keeps identities (cycles included), as the tape path does,
// with the same bytes; a cycle through an untracked field is an error.
type refNode struct {
	Name string
	Next *refNode `wire:",ref"`
	Peer *refNode
}

func TestMemRefTracking(t *testing.T) {
	c, _ := NewContext(WithRefTracking(true))
	defer c.Close()
	if err := c.RegisterStructID(800, refNode{}); err != nil {
		t.Fatal(err)
	}
	if got := c.memCodec(refNode{}); got != "layout" {
		t.Fatal(got)
	}
	a := &refNode{Name: "a"}
	cyc := &refNode{Name: "c", Peer: a}
	cyc.Next = cyc
	loop := &refNode{Name: "l"}
	loop.Next = &refNode{Name: "m", Next: loop}
	for _, v := range []*refNode{{Name: "r", Next: a, Peer: a}, cyc, loop} {
		mine, err := c.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		c.forceTape = true
		tape, err := c.Marshal(v)
		c.forceTape = false
		if err != nil || !bytes.Equal(mine, tape) {
			t.Fatalf("%s: mem %x, tape %x (%v)", v.Name, mine, tape, err)
		}
		var back refNode
		if err := c.Unmarshal(mine, &back); err != nil {
			t.Fatal(err)
		}
		switch v {
		case cyc:
			if back.Next != &back || back.Peer == nil || back.Peer.Name != "a" {
				t.Errorf("cycle: %+v", back)
			}
		case loop:
			if back.Next == nil || back.Next.Name != "m" || back.Next.Next != &back {
				t.Errorf("loop: %+v", back)
			}
		default:
			if back.Next == nil || back.Next.Name != "a" || back.Peer == nil || back.Peer.Name != "a" {
				t.Errorf("shared: %+v", back)
			}
		}
	}
	// a cycle through the untracked field: an error, not a hang
	bad := &refNode{Name: "b"}
	bad.Peer = bad
	if _, err := c.Marshal(bad); err == nil {
		t.Fatal("a cycle through an untracked field encoded")
	}
	c.SetRefTracking(false)
	if _, err := c.Marshal(cyc); err == nil {
		t.Fatal("a cycle without reference tracking encoded")
	}
	if b, err := c.Marshal(&refNode{Name: "plain", Next: a}); err != nil {
		t.Fatal(err)
	} else {
		var back refNode
		if err := c.Unmarshal(b, &back); err != nil || back.Next.Name != "a" {
			t.Fatalf("%+v %v", back, err)
		}
	}
}

// Mutated and truncated payloads of every memory form, in both modes:
// an error or a value, never a crash; the context keeps working.
func TestMemHostileInput(t *testing.T) {
	for _, compatible := range []bool{false, true} {
		c, _ := NewContext(WithCompatible(compatible))
		memRegister(t, c)
		good, err := c.Marshal(memValue())
		if err != nil {
			t.Fatal(err)
		}
		errs := 0
		seed := uint32(12345)
		for i := 0; i < len(good); i++ {
			if c.Unmarshal(good[:i], new(memAll)) == nil {
				t.Errorf("a payload cut at %d of %d bytes decoded", i, len(good))
			}
			for k := 0; k < 4; k++ {
				b := bytes.Clone(good)
				seed = seed*1664525 + 1013904223
				b[i] = byte(seed >> 24)
				if k == 0 {
					b[i] ^= 0x80
				}
				if c.Unmarshal(b, new(memAll)) != nil {
					errs++
				}
			}
		}
		if errs == 0 {
			t.Error("no mutation was rejected")
		}
		var back memAll
		if err := c.Unmarshal(good, &back); err != nil || !looseEqual(reflect.ValueOf(back), reflect.ValueOf(*memValue())) {
			t.Fatalf("after the mutations: %v", err)
		}
		c.Close()
	}
}

// A payload whose image needs far more memory than its bytes (many small
// list items with a large image each): the session's arena grows.
type memMany struct {
	Items []memAll
}

func TestMemArenaGrows(t *testing.T) {
	c, _ := NewContext(WithCompatible(true))
	defer c.Close()
	memRegister(t, c)
	if err := c.RegisterStructID(410, memMany{}); err != nil {
		t.Fatal(err)
	}
	v := &memMany{Items: make([]memAll, 3000)}
	for i := range v.Items {
		v.Items[i].I32 = int32(i)
		v.Items[i].Dec = Decimal{Unscaled: big.NewInt(int64(i))}
	}
	b, err := c.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var back memMany
	if err := c.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !looseEqual(reflect.ValueOf(back), reflect.ValueOf(*v)) {
		t.Fatal("items differ")
	}
	if uintptr(c.s.arena_cap) < uintptr(len(v.Items))*c.reg.byType[reflect.TypeOf(memAll{})].img.size {
		t.Fatalf("arena of %d bytes", c.s.arena_cap)
	}
}

// Issue 11 item 10: a compatible reader maps a writer's TypeDef that
// differs only in nullable / ref flags onto the registered type. Here the
// reader's schema declares list<Image> and list<string> (elements not
// nullable) and Media not nullable, where Fory Go's TypeDefs say
// list<optional Image> and list<optional string> (`wire schema` on both
// payloads shows those two differences and no other); each side reads what
// the other wrote into a value equal to the original.
const mediaNonNull = `package bench;
option wire_fields_by_name = true;
message Image [id=4] {
    string u_r_i = 1;  // Fory Go's name of the Go field URI
    string title = 2;
    int32 width = 3;
    int32 height = 4;
    int32 size = 5;
}
message Media [id=3] {
    string u_r_i = 1;  // Fory Go's name of the Go field URI
    string title = 2;
    int32 width = 3;
    int32 height = 4;
    string format = 5;
    int64 duration = 6;
    int64 size = 7;
    int32 bitrate = 8;
    bool has_bitrate = 9;
    list<string> persons = 10;
    int32 player = 11;
    string copyright = 12;
}
message MediaContent [id=5] {
    Media media = 1 [nullable = false];
    list<Image> images = 2;
}
`

func TestMemTypeDefMapping(t *testing.T) {
	c, err := NewContext(WithCompatible(true), WithUTF8Strings(true))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.LoadSchemaText("media.fdl", mediaNonNull); err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct {
		name string
		v    any
	}{{"bench.Image", Image{}}, {"bench.Media", Media{}}, {"bench.MediaContent", MediaContent{}}} {
		if err := c.RegisterStruct(r.name, r.v); err != nil {
			t.Fatal(err)
		}
		if got := c.memCodec(r.v); got != "layout" {
			t.Fatalf("%s: %s", r.name, got)
		}
	}
	f := foryRuntime(t, false, true, benchTypes)
	want := benchMediaContent()
	theirs, err := f.Serialize(want)
	if err != nil {
		t.Fatal(err)
	}
	mine, err := c.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(mine, theirs) {
		t.Fatal("the TypeDefs are expected to differ in their nullable flags")
	}
	for round := 0; round < 2; round++ { // the second read uses the cached mapping
		var back MediaContent
		if err := c.Unmarshal(theirs, &back); err != nil {
			t.Fatalf("libwire reads Fory Go's %x: %v", theirs, err)
		}
		if !reflect.DeepEqual(&back, want) {
			t.Fatalf("libwire read\n%+v\nwant\n%+v", back, *want)
		}
	}
	var fback MediaContent
	if err := f.Deserialize(mine, &fback); err != nil {
		t.Fatalf("Fory Go reads libwire's %x: %v", mine, err)
	}
	if !reflect.DeepEqual(&fback, want) {
		t.Fatalf("Fory Go read\n%+v\nwant\n%+v", fback, *want)
	}
}

// A schema type whose nested struct's Go type is registered after it
// takes the layouts once the nested type is there.
func TestMemLateRegistration(t *testing.T) {
	c, _ := NewContext()
	defer c.Close()
	if err := c.LoadSchemaText("late.fdl", `package late;
message Leaf [id=901] { string name = 1; int32 n = 2; }
message Top [id=902] { Leaf leaf = 1 [nullable = false]; int32 k = 2; }
`); err != nil {
		t.Fatal(err)
	}
	type Top struct {
		Leaf memLeaf
		K    int32
	}
	if err := c.RegisterStruct("late.Top", Top{}); err != nil {
		t.Fatal(err)
	}
	if got := c.memCodec(Top{}); !strings.HasPrefix(got, "tape: ") {
		t.Fatalf("before: %s", got)
	}
	if err := c.RegisterStruct("late.Leaf", memLeaf{}); err != nil {
		t.Fatal(err)
	}
	if got := c.memCodec(Top{}); got != "layout" {
		t.Fatalf("after: %s", got)
	}
	b, err := c.Marshal(&Top{memLeaf{"x", 2}, 3})
	if err != nil {
		t.Fatal(err)
	}
	var back Top
	if err := c.Unmarshal(b, &back); err != nil || back != (Top{memLeaf{"x", 2}, 3}) {
		t.Fatalf("%+v %v", back, err)
	}
}

// With a peer set (WIRE_OPT_PEER), registered structs keep the compiled
// codecs, which apply the peer's choices (libwire compiles a layout per
// peer): under PeerGo a struct with pointer fields interoperates with Fory
// Go in schema-consistent mode (its hash leaves pointer fields'
// nullability out, E-41; without the peer Fory Go rejects the hash), and
// the tape path writes the same bytes.
func TestMemPeer(t *testing.T) {
	c, _ := NewContext(WithPeer(PeerGo), WithUTF8Strings(true))
	defer c.Close()
	f := newFory(false, false)
	registerOrders(t, c, f)
	if got := c.memCodec(OrderWithNote{}); got != "layout" {
		t.Fatal(got)
	}
	note := "n"
	v := &OrderWithNote{Note: &note, Lines: []*Line{{"b", 2}}}
	mine, err := c.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var back OrderWithNote
	if err := f.Deserialize(mine, &back); err != nil {
		t.Fatalf("Fory Go reads libwire's %x: %v", mine, err)
	}
	if back.Note == nil || *back.Note != "n" || len(back.Lines) != 1 || *back.Lines[0] != (Line{"b", 2}) {
		t.Fatalf("Fory Go read %+v", back)
	}
	theirs, err := f.Serialize(v)
	if err != nil {
		t.Fatal(err)
	}
	var ours OrderWithNote
	if err := c.Unmarshal(theirs, &ours); err != nil {
		t.Fatalf("libwire reads Fory Go's %x: %v", theirs, err)
	}
	if ours.Note == nil || *ours.Note != "n" || len(ours.Lines) != 1 {
		t.Fatalf("libwire read %+v", ours)
	}
	c.forceTape = true
	tape, err := c.Marshal(v)
	c.forceTape = false
	if err != nil || !bytes.Equal(tape, mine) {
		t.Fatalf("tape path %x (%v), compiled codec %x", tape, err, mine)
	}
}

// Unmarshal of a null root into a registered struct sets the zero value,
// as before the compiled codecs; a payload of another type is an error.
func TestMemNullAndOtherRoots(t *testing.T) {
	c, _ := benchRuntimes(t)
	defer c.Close()
	null, _ := c.Marshal(nil)
	n := *benchNumeric()
	if err := c.Unmarshal(null, &n); err != nil || n != (NumericStruct{}) {
		t.Fatalf("%+v %v", n, err)
	}
	nb, _ := c.Marshal(benchNumeric())
	var s Sample
	if err := c.Unmarshal(nb, &s); err == nil {
		t.Fatal("a NumericStruct decoded into a Sample")
	}
	lst, _ := c.Marshal([]any{int64(1)})
	if err := c.Unmarshal(lst, &n); err == nil {
		t.Fatal("a list decoded into a NumericStruct")
	}
	if err := c.Unmarshal(nb, &n); err != nil || n != *benchNumeric() {
		t.Fatalf("%+v %v", n, err)
	}
}

// Fory Go with reference tracking (compatible mode): a struct pointer
// shared by two fields is written once and referenced; libwire's compiled
// codec reads it back as one Go object, and Fory Go reads libwire's bytes
// (libwire declares the pointer fields untracked unless tagged ref or
// WithPeer(PeerGo) is set, so it writes the pointee twice, as the tape path
// does).
type refShare struct {
	A []string
	P *Line
	Q *Line
}

func TestMemRefInteropForyGo(t *testing.T) {
	c, f := pairRuntimes(t, true, true, []pairType{{992, Line{}}, {991, refShare{}}})
	defer c.Close()
	if got := c.memCodec(refShare{}); got != "layout" {
		t.Fatal(got)
	}
	ln := &Line{"s", 1}
	v := &refShare{A: []string{"x"}, P: ln, Q: ln}
	theirs, err := f.Serialize(v)
	if err != nil {
		t.Fatal(err)
	}
	var back refShare
	if err := c.Unmarshal(theirs, &back); err != nil {
		t.Fatalf("libwire reads Fory Go's %x: %v", theirs, err)
	}
	if back.P == nil || back.P != back.Q || *back.P != *ln || len(back.A) != 1 {
		t.Fatalf("libwire read %+v", back)
	}
	mine, err := c.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var fback refShare
	if err := f.Deserialize(mine, &fback); err != nil {
		t.Fatalf("Fory Go reads libwire's %x: %v", mine, err)
	}
	if fback.P == nil || *fback.P != *ln || fback.Q == nil || *fback.Q != *ln {
		t.Fatalf("Fory Go read %+v", fback)
	}
}

// Strings cross in a 32-bit length form (strForm: the low half of the Go
// header's length word), which libwire's inline string readers and
// writers take. Decoding reads those 32 bits only: libwire does not write
// the word's other half, so the arena filled with other bytes beforehand
// must not change a decoded string. Encoding refuses a string over 4 GiB
// (whose length the form cannot hold) instead of sending its low 32 bits.
func TestMemStringLength32(t *testing.T) {
	for _, utf8 := range []bool{false, true} {
		c, _ := NewContext(WithUTF8Strings(utf8))
		memRegister(t, c)
		for i, v := range memValues() {
			data, err := c.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			typ := reflect.TypeOf(deref(v))
			for pass := 0; pass < 2; pass++ {
				if pass == 1 {
					// what the first decode left, and 0xA5 elsewhere
					arena := unsafe.Slice((*byte)(unsafe.Pointer(c.s.arena)), int(c.s.arena_cap))
					for j := int(c.s.arena_used); j < len(arena); j++ {
						arena[j] = 0xA5
					}
					for j := 0; j < int(c.s.arena_used); j++ {
						arena[j] |= 0xA0
					}
				}
				back := reflect.New(typ)
				if err := c.Unmarshal(data, back.Interface()); err != nil {
					t.Fatalf("#%d utf8=%v pass %d: %v", i, utf8, pass, err)
				}
				if !looseEqual(back.Elem(), reflect.ValueOf(deref(v))) {
					t.Errorf("#%d utf8=%v pass %d:\n got %+v\nwant %+v", i, utf8, pass, back.Elem().Interface(), deref(v))
				}
			}
		}
		c.Close()
	}

	c, _ := NewContext(WithUTF8Strings(true))
	defer c.Close()
	memRegister(t, c)
	// never read (refused first); over read-only data, which the race
	// detector's pointer checks do not take for a heap allocation
	huge := unsafe.String(unsafe.StringData("abcd"), 1<<32+3)
	for name, v := range map[string]any{
		"field":     &memLeaf{Name: huge},
		"list":      &memAll{Strs: []string{"a", huge}},
		"pointer":   &memAll{PS: &huge},
		"map value": &memAll{MS: map[string]string{"k": huge}},
	} {
		if memCodec := c.memCodec(v); memCodec != "layout" {
			t.Fatalf("%s: %s", name, memCodec)
		}
		_, err := c.Marshal(v)
		var we *WireError
		if !errors.As(err, &we) || we.Class != "length" {
			t.Errorf("%s: a string of 4 GiB + 3 bytes: got %v, want a length error", name, err)
		}
	}
	if _, err := c.Marshal(&memLeaf{Name: "after"}); err != nil {
		t.Errorf("after the refusals: %v", err)
	}
}

// Encode images copy a run of numbers and bools of 4 to 16 bytes as two
// words that may overlap (structTo's esRun), other runs with copy, and
// the strings next to each other in the current block (esStr): structs
// with runs of 1 to 18 bytes between two strings, each byte its own
// value, through memRoundTrip (the tape path's bytes, both decoders).
type memRun1 struct {
	S  string
	B0 uint8
	T  string
}
type memRun2 struct {
	S  string
	B0 uint8
	B1 uint8
	T  string
}
type memRun3 struct {
	S  string
	B0 uint8
	B1 uint8
	B2 uint8
	T  string
}
type memRun4 struct {
	S  string
	B0 uint8
	B1 uint8
	B2 uint8
	B3 uint8
	T  string
}
type memRun5 struct {
	S  string
	B0 uint8
	B1 uint8
	B2 uint8
	B3 uint8
	B4 uint8
	T  string
}
type memRun6 struct {
	S  string
	B0 uint8
	B1 uint8
	B2 uint8
	B3 uint8
	B4 uint8
	B5 uint8
	T  string
}
type memRun7 struct {
	S  string
	B0 uint8
	B1 uint8
	B2 uint8
	B3 uint8
	B4 uint8
	B5 uint8
	B6 uint8
	T  string
}
type memRun8 struct {
	S  string
	B0 uint8
	B1 uint8
	B2 uint8
	B3 uint8
	B4 uint8
	B5 uint8
	B6 uint8
	B7 uint8
	T  string
}
type memRun9 struct {
	S  string
	B0 uint8
	B1 uint8
	B2 uint8
	B3 uint8
	B4 uint8
	B5 uint8
	B6 uint8
	B7 uint8
	B8 uint8
	T  string
}
type memRun10 struct {
	S  string
	B0 uint8
	B1 uint8
	B2 uint8
	B3 uint8
	B4 uint8
	B5 uint8
	B6 uint8
	B7 uint8
	B8 uint8
	B9 uint8
	T  string
}
type memRun11 struct {
	S   string
	B0  uint8
	B1  uint8
	B2  uint8
	B3  uint8
	B4  uint8
	B5  uint8
	B6  uint8
	B7  uint8
	B8  uint8
	B9  uint8
	B10 uint8
	T   string
}
type memRun12 struct {
	S   string
	B0  uint8
	B1  uint8
	B2  uint8
	B3  uint8
	B4  uint8
	B5  uint8
	B6  uint8
	B7  uint8
	B8  uint8
	B9  uint8
	B10 uint8
	B11 uint8
	T   string
}
type memRun13 struct {
	S   string
	B0  uint8
	B1  uint8
	B2  uint8
	B3  uint8
	B4  uint8
	B5  uint8
	B6  uint8
	B7  uint8
	B8  uint8
	B9  uint8
	B10 uint8
	B11 uint8
	B12 uint8
	T   string
}
type memRun14 struct {
	S   string
	B0  uint8
	B1  uint8
	B2  uint8
	B3  uint8
	B4  uint8
	B5  uint8
	B6  uint8
	B7  uint8
	B8  uint8
	B9  uint8
	B10 uint8
	B11 uint8
	B12 uint8
	B13 uint8
	T   string
}
type memRun15 struct {
	S   string
	B0  uint8
	B1  uint8
	B2  uint8
	B3  uint8
	B4  uint8
	B5  uint8
	B6  uint8
	B7  uint8
	B8  uint8
	B9  uint8
	B10 uint8
	B11 uint8
	B12 uint8
	B13 uint8
	B14 uint8
	T   string
}
type memRun16 struct {
	S   string
	B0  uint8
	B1  uint8
	B2  uint8
	B3  uint8
	B4  uint8
	B5  uint8
	B6  uint8
	B7  uint8
	B8  uint8
	B9  uint8
	B10 uint8
	B11 uint8
	B12 uint8
	B13 uint8
	B14 uint8
	B15 uint8
	T   string
}
type memRun17 struct {
	S   string
	B0  uint8
	B1  uint8
	B2  uint8
	B3  uint8
	B4  uint8
	B5  uint8
	B6  uint8
	B7  uint8
	B8  uint8
	B9  uint8
	B10 uint8
	B11 uint8
	B12 uint8
	B13 uint8
	B14 uint8
	B15 uint8
	B16 uint8
	T   string
}
type memRun18 struct {
	S   string
	B0  uint8
	B1  uint8
	B2  uint8
	B3  uint8
	B4  uint8
	B5  uint8
	B6  uint8
	B7  uint8
	B8  uint8
	B9  uint8
	B10 uint8
	B11 uint8
	B12 uint8
	B13 uint8
	B14 uint8
	B15 uint8
	B16 uint8
	B17 uint8
	T   string
}

func TestMemRunLengths(t *testing.T) {
	protos := []any{memRun1{}, memRun2{}, memRun3{}, memRun4{}, memRun5{}, memRun6{}, memRun7{}, memRun8{}, memRun9{}, memRun10{}, memRun11{}, memRun12{}, memRun13{}, memRun14{}, memRun15{}, memRun16{}, memRun17{}, memRun18{}}
	for _, utf8 := range []bool{false, true} {
		c, _ := NewContext(WithUTF8Strings(utf8))
		for i, proto := range protos {
			if err := c.RegisterStructID(uint32(900+i), proto); err != nil {
				t.Fatal(err)
			}
			v := reflect.New(reflect.TypeOf(proto))
			k := v.Elem().NumField() - 2
			v.Elem().Field(0).SetString("first string " + itoa(int64(k)))
			for j := 0; j < k; j++ {
				v.Elem().Field(1 + j).SetUint(uint64(0x11*(j+1) + k)) // (not the last type's)
			}
			v.Elem().Field(k + 1).SetString("second, " + strings.Repeat("é", k))
			if got := c.memCodec(v.Interface()); got != "layout" {
				t.Fatalf("run of %d: %s", k, got)
			}
			memRoundTrip(t, c, v.Interface(), "run of "+itoa(int64(k)))
		}
		c.Close()
	}
}

// A null read into a field declared nullable but held by value (a Go
// time.Time, Decimal, number or struct: fuzzOpt, from fuzzNullSeeds) is
// the field's Go zero value, through the compiled codecs as through the
// tape path: not time.Unix(0, 0) for a timestamp, nor a non-nil 0 for a
// decimal, nor those inside a by-value struct read as null.
func TestMemNullIntoValueFields(t *testing.T) {
	for mode := uint8(0); mode < fuzzBaseModes; mode++ {
		seeds := fuzzNullSeeds(t, mode)
		for _, path := range []uint8{0, fuzzForceTape} {
			c := fuzzContext(t, mode|path)
			if got := c.memCodec(fuzzOpt{}); got != "layout" {
				t.Fatalf("fuzzOpt: %s", got)
			}
			for i, want := range []fuzzOpt{{Name: "nulls", Level: 1}, {Count: 4}} {
				back := fuzzOpt{Count: 99, When: time.Now(), Price: Decimal{Unscaled: big.NewInt(5)},
					At: fuzzPoint{1, 2}, Stamp: fuzzStamp{At: time.Now(), N: 3}, Wait: time.Hour, Day: 3}
				if i == 1 {
					back.Count = 0
				}
				if err := c.Unmarshal(seeds[i], &back); err != nil {
					t.Fatalf("mode %d path %d seed %d: %v", mode, path, i, err)
				}
				if !reflect.DeepEqual(back, want) {
					t.Errorf("mode %d path %d seed %d:\n got %#v\nwant %#v", mode, path, i, back, want)
				}
			}
			c.Close()
		}
	}
}

// The schema of TestMemNullElements: lists and map values declared
// optional, read into Go elements held by value.
const nullElemFDL = `package ne;
message Stamp [id=451] { timestamp at = 1; decimal d = 2; int32 n = 3; }
message P [id=452] { int32 x = 1; string s = 2; list<string> xs = 3; }
message L [id=450] {
    list<optional timestamp> ts = 1;
    list<optional date> days = 2;
    list<optional duration> waits = 3;
    list<optional decimal> ds = 4;
    list<optional Stamp> stamps = 5;
    map<string, optional timestamp> tm = 6;
    map<string, optional decimal> dm = 7;
    map<string, optional Stamp> sm = 8;
    list<optional string> strs = 9;
    list<optional bytes> bins = 10;
    list<optional P> ps = 11;
    map<string, optional P> pm = 12;
}
`

// nullElemP reads from a zeroed image as its zero value: no presence
// byte for it (zeroNeedsFlag).
type nullElemP struct {
	X  int32
	S  string
	Xs []string
}

type nullElemStamp struct {
	At time.Time
	D  Decimal
	N  int32
}

// nullElemVal holds ne.L's elements by value; nullElemPtr by pointer
// (its nils are written as nulls).
type nullElemVal struct {
	Ts     []time.Time
	Days   []Date
	Waits  []time.Duration
	Ds     []Decimal
	Stamps []nullElemStamp
	Tm     map[string]time.Time
	Dm     map[string]Decimal
	Sm     map[string]nullElemStamp
	Strs   []string
	Bins   [][]byte
	Ps     []nullElemP
	Pm     map[string]nullElemP
}

type nullElemPtr struct {
	Ts     []*time.Time
	Days   []*Date
	Waits  []*time.Duration
	Ds     []*Decimal
	Stamps []*nullElemStamp
	Tm     map[string]*time.Time
	Dm     map[string]*Decimal
	Sm     map[string]*nullElemStamp
	Strs   []*string
	Bins   [][]byte
	Ps     []*nullElemP
	Pm     map[string]*nullElemP
}

func nullElemContext(t *testing.T, mode uint8, l any) *Context {
	c := schemaContext(t, mode, "ne.fdl", nullElemFDL, "ne.Stamp", nullElemStamp{}, "ne.P", nullElemP{}, "ne.L", l)
	c.forceTape = mode&fuzzForceTape != 0
	return c
}

// TestMemNullElements: a null list item or map value read into a Go
// element held by value is the Go zero value through the compiled codecs
// as through the tape path (time.Time{}, not time.Unix(0, 0); a Decimal
// with a nil Unscaled; a zero struct), in the 4 modes; and what each path
// writes of those values reads back the same through both.
func TestMemNullElements(t *testing.T) {
	tm := time.Unix(1700000000, 7).UTC()
	dec := Decimal{Unscaled: big.NewInt(-31), Scale: 1}
	day, wait, s := Date(19000), time.Minute, "s"
	st := &nullElemStamp{At: tm, D: dec, N: 5}
	src := &nullElemPtr{
		Ts: []*time.Time{nil, &tm}, Days: []*Date{nil, &day}, Waits: []*time.Duration{nil, &wait},
		Ds: []*Decimal{nil, &dec}, Stamps: []*nullElemStamp{nil, st},
		Tm: map[string]*time.Time{"n": nil, "t": &tm}, Dm: map[string]*Decimal{"n": nil, "d": &dec},
		Sm: map[string]*nullElemStamp{"n": nil, "s": {At: tm, D: dec, N: 5}}, Strs: []*string{nil, &s}, Bins: [][]byte{nil, {1}},
		Ps: []*nullElemP{nil, {X: 1, S: "p", Xs: []string{"x"}}}, Pm: map[string]*nullElemP{"n": nil, "p": {X: 3}},
	}
	want := nullElemVal{
		Ts: []time.Time{{}, tm}, Days: []Date{0, day}, Waits: []time.Duration{0, wait},
		Ds: []Decimal{{}, dec}, Stamps: []nullElemStamp{{}, *st},
		Tm: map[string]time.Time{"n": {}, "t": tm}, Dm: map[string]Decimal{"n": {}, "d": dec},
		Sm: map[string]nullElemStamp{"n": {}, "s": *st}, Strs: []string{"", s}, Bins: [][]byte{nil, {1}},
		Ps: []nullElemP{{}, {X: 1, S: "p", Xs: []string{"x"}}}, Pm: map[string]nullElemP{"n": {}, "p": {X: 3, Xs: []string{}}},
	}
	for mode := uint8(0); mode < fuzzBaseModes; mode++ {
		w := nullElemContext(t, mode, nullElemPtr{})
		b, err := w.Marshal(src)
		w.Close()
		if err != nil {
			t.Fatalf("mode %d: %v", mode, err)
		}
		var got [2]nullElemVal
		var again [2][]byte
		for i, path := range []uint8{0, fuzzForceTape} {
			c := nullElemContext(t, mode|path, nullElemVal{})
			if codec := c.memCodec(nullElemVal{}); codec != "layout" {
				t.Fatalf("nullElemVal: %s", codec)
			}
			if err := c.Unmarshal(b, &got[i]); err != nil {
				t.Fatalf("mode %d path %d: %v", mode, path, err)
			}
			if again[i], err = c.Marshal(&got[i]); err != nil {
				t.Fatalf("mode %d path %d: %v", mode, path, err)
			}
			c.Close()
		}
		if !reflect.DeepEqual(got[0], got[1]) {
			t.Errorf("mode %d: the paths differ:\nlayout %#v\n  tape %#v", mode, got[0], got[1])
		}
		if !reflect.DeepEqual(got[1], want) {
			t.Errorf("mode %d: tape path\n got %#v\nwant %#v", mode, got[1], want)
		}
		for i := range again {
			var back [2]nullElemVal
			for j, path := range []uint8{0, fuzzForceTape} {
				c := nullElemContext(t, mode|path, nullElemVal{})
				if err := c.Unmarshal(again[i], &back[j]); err != nil {
					t.Fatalf("mode %d path %d: re-read: %v", mode, path, err)
				}
				c.Close()
			}
			if !reflect.DeepEqual(back[0], back[1]) {
				t.Errorf("mode %d: the paths differ on the bytes of path %d:\nlayout %#v\n  tape %#v", mode, i, back[0], back[1])
			}
			// the values that were not null stay (a presence byte the
			// encoder left 0 would write them as nulls)
			v := back[0]
			kept := []any{v.Ts[1], v.Ds[1], v.Stamps[1], v.Tm["t"], v.Dm["d"], v.Sm["s"]}
			if wantKept := []any{tm, dec, *st, tm, dec, *st}; !reflect.DeepEqual(kept, wantKept) {
				t.Errorf("mode %d: the bytes of path %d read back\n got %#v\nwant %#v", mode, i, kept, wantKept)
			}
		}
	}
}

// memFlat's image is the Go struct itself (numbers and bools at their Go
// offsets, padding between them, the same size): memRoot.direct.
type memFlat struct {
	A int32
	B int64
	C bool
	D uint8
	E int16
	F float32
	G float64
}

// memFlatHeld: a memFlat with bytes after it that no decode may write.
type memFlatHeld struct {
	F     memFlat
	After [32]byte
}

// A root whose image is the Go struct itself is decoded straight into the
// Go value (memUnmarshal, wirego_mem_decode_direct): the value, the
// status and message of every cut and changed payload and the bytes after
// the struct are those of the arena path (memRoot.direct off).
func TestMemDirect(t *testing.T) {
	for _, compatible := range []bool{false, true} {
		c, _ := NewContext(WithCompatible(compatible))
		memRegister(t, c)
		if err := c.RegisterStructID(410, memFlat{}); err != nil {
			t.Fatal(err)
		}
		for _, v := range []any{new(memFlat), new(memLeaf), new(memAll)} {
			r, _ := c.memTarget(v, true)
			if r == nil || r.direct != (reflect.TypeOf(v).Elem() == reflect.TypeOf(memFlat{})) {
				t.Fatalf("%T: direct %v", v, r != nil && r.direct)
			}
		}
		want := memFlat{A: math.MinInt32, B: math.MaxInt64, C: true, D: 200, E: -300, F: -1.5, G: math.Pi}
		good := memRoundTrip(t, c, &want, "memFlat")
		r, _ := c.memTarget(new(memFlat), true)
		decode := func(in []byte, direct bool) (memFlatHeld, error) {
			var h memFlatHeld
			for i := range h.After {
				h.After[i] = 0xA5
			}
			r.direct = direct
			err := c.Unmarshal(in, &h.F)
			r.direct = true
			for i, b := range h.After {
				if b != 0xA5 {
					t.Fatalf("direct %v: byte %d after the struct written (% x)", direct, i, in)
				}
			}
			return h, err
		}
		check := func(in []byte) {
			t.Helper()
			d, derr := decode(in, true)
			a, aerr := decode(in, false)
			if (derr == nil) != (aerr == nil) || (derr != nil && derr.Error() != aerr.Error()) {
				t.Fatalf("% x: direct %v, arena %v", in, derr, aerr)
			}
			// (the floats' bits: NaN != NaN; not the padding, which the
			// arena path fills from the image)
			x, y := d.F, a.F
			same := x.A == y.A && x.B == y.B && x.C == y.C && x.D == y.D && x.E == y.E &&
				math.Float32bits(x.F) == math.Float32bits(y.F) && math.Float64bits(x.G) == math.Float64bits(y.G)
			if derr == nil && !same {
				t.Fatalf("% x: direct %+v, arena %+v", in, d.F, a.F)
			}
		}
		if h, err := decode(good, true); err != nil || h.F != want {
			t.Fatalf("%+v, %v", h.F, err)
		}
		for i := 0; i <= len(good); i++ {
			check(good[:i])
			if i < len(good) {
				for _, x := range []byte{0x00, 0xFF, 0x80, 0x01, 0x7F, 0xFD} {
					b := bytes.Clone(good)
					b[i] = x
					check(b)
				}
			}
		}
		check(append(bytes.Clone(good), 0))
		c.Close()
	}
	// not under reference tracking (C notes the root's address there)
	c, _ := NewContext(WithRefTracking(true))
	defer c.Close()
	if err := c.RegisterStructID(410, memFlat{}); err != nil {
		t.Fatal(err)
	}
	if r, _ := c.memTarget(new(memFlat), true); r == nil || r.direct {
		t.Fatalf("direct under reference tracking")
	}
	bc, _ := benchRuntimes(t)
	defer bc.Close()
	if r, _ := bc.memTarget(new(NumericStruct), true); r == nil || !r.direct {
		t.Fatal("NumericStruct is not decoded directly")
	}
}
