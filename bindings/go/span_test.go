package wire

import (
	"bytes"
	"encoding/binary"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// spanRoundTrip decodes v's payload, placed at every offset mod 8, into a
// fresh v and compares after changing the payload.
func spanRoundTrip(t *testing.T, c *Context, v any) {
	t.Helper()
	b, err := c.Marshal(v)
	if err != nil {
		t.Fatalf("%T: %v", v, err)
	}
	for shift := 0; shift < 8; shift++ {
		in := append(make([]byte, shift), b...)[shift:] // payload at every offset mod 8
		out := reflect.New(reflect.TypeOf(v))
		if err := c.Unmarshal(in, out.Interface()); err != nil {
			t.Fatalf("%T at +%d: %v", v, shift, err)
		}
		for i := range in {
			in[i] ^= 0xFF // the payload changes after the call; the values do not
		}
		if got := out.Elem().Interface(); !reflect.DeepEqual(got, v) {
			t.Fatalf("%T at +%d (stream from %d): values differ", v, shift, copyStreamMin)
		}
	}
}

// Binaries and dense arrays come out of the read tape as SPAN records
// (offsets into the payload, WIRE_TAPE_SPANS): the decoded slices are
// copies of the payload's bytes, never views of it, at any alignment of the
// payload, in every place a dense array can sit (root, list, map, struct
// field on the tape path, natural values), and a shared one keeps its
// identity under reference tracking.
func TestSpanDecode(t *testing.T) {
	type holder struct {
		B []byte
		A []float32 `wire:"a,type=float32_array"`
	}
	c, err := NewContext(WithRefTracking(true))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.RegisterStruct("holder", holder{}); err != nil {
		t.Fatal(err)
	}
	big := make([]int64, 5000)
	for i := range big {
		big[i] = int64(i)*0x1E3779B97F4A7C15 - 3
	}
	// from copyStreamMin bytes on (huge, blob) the copy streams past the
	// cache into memory that is not zeroed first (cloneInto)
	huge := make([]int64, copyStreamMin/8+3)
	for i := range huge {
		huge[i] = int64(i)*-0x61C8864680B583EB + 11
	}
	blob := bytes.Repeat([]byte("0123456789abcdefg"), copyStreamMin/17+5)
	shared := []byte("shared bytes")
	values := []any{
		[]byte("root binary"), big, huge, blob, []any{huge[:7], blob[:copyStreamMin+1]},
		[]int16{-1, 2, -3}, []uint32{1 << 31, 7},
		[]float64{1.5, -2.25}, []bool{true, false, true}, []Float16{Float16FromFloat64(0.5)},
		[]any{[]byte{1, 2}, []int32{3, -4}, "x"},
		map[string][]uint64{"k": {1, 2, 3}},
		&holder{B: []byte{9, 8, 7}, A: []float32{0.5, -1}},
		[]any{shared, shared},
	}
	defer func(m int) { copyStreamMin = m }(copyStreamMin)
	for _, streamMin := range []int{copyStreamMin, 1} { // and every copy streamed
		copyStreamMin = streamMin
		for _, v := range values {
			spanRoundTrip(t, c, v)
		}
	}

	// a shared binary (one node twice, written with a reference under
	// reference tracking) is one Go slice again: REF to the SPAN's number
	doc, err := c.NewDoc()
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Free()
	l, _ := doc.List(TypeList)
	bin, _ := doc.Binary(shared)
	arr, _ := doc.Binary([]byte{5})
	if err := l.Append(bin); err != nil {
		t.Fatal(err)
	}
	if err := l.Append(bin); err != nil {
		t.Fatal(err)
	}
	if err := l.Append(arr); err != nil {
		t.Fatal(err)
	}
	if err := doc.AddRoot(l); err != nil {
		t.Fatal(err)
	}
	b, err := doc.Encode()
	if err != nil {
		t.Fatal(err)
	}
	var back []any
	if err := c.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	x, y := back[0].([]byte), back[1].([]byte)
	if !bytes.Equal(x, shared) || &x[0] != &y[0] || !reflect.DeepEqual(back[2], []byte{5}) {
		t.Fatalf("shared binary: %v", back)
	}
	// natural values: typed slices
	all, err := c.Decode(b)
	if err != nil || !reflect.DeepEqual(all[0], []any{shared, shared, []byte{5}}) {
		t.Fatalf("Decode: %v %v", all, err)
	}
	if rt := c.readTape(); !bytes.Contains(rt, []byte{opSpan, TypeBinary}) {
		t.Fatalf("the read tape has no SPAN: %x", rt)
	}
}

// Decoded strings of every length from 0 to 600 (the short ones moved as
// 16- and 32-byte words, the others copied; chunks filled to their end;
// the last string at the end of the tape), in a []string, a map key and a
// []any, equal what was written and stay so after more decodes.
func TestDecodedStrings(t *testing.T) {
	c, err := NewContext(WithUTF8Strings(true))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var ss []string
	for n := 0; n <= 600; n++ {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('a' + (n+i)%26)
		}
		ss = append(ss, string(b))
	}
	ss = append(ss, "é", "ünïcödé 🎉 text of some length, past 32 bytes")
	m := map[string]int64{}
	anys := make([]any, len(ss))
	for i, s := range ss {
		m[s] = int64(i)
		anys[i] = s
	}
	var keep [][]string
	for round := 0; round < 3; round++ {
		for _, v := range []any{ss, m, anys} {
			b, err := c.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			out := reflect.New(reflect.TypeOf(v))
			if err := c.Unmarshal(b, out.Interface()); err != nil {
				t.Fatal(err)
			}
			if got := out.Elem().Interface(); !reflect.DeepEqual(got, v) {
				t.Fatalf("%T: strings differ", v)
			}
			if s, ok := out.Elem().Interface().([]string); ok {
				keep = append(keep, s)
			}
		}
	}
	for _, s := range keep { // later decodes wrote nothing over earlier strings
		if !reflect.DeepEqual(s, ss) {
			t.Fatal("a decoded string changed")
		}
	}
}

// Strings come out of the read tape as STR_SPAN records
// (WIRE_TAPE_STRING_SPANS): the decoded strings are copies, never views of
// the payload, in every encoding a writer picks (UTF-8, Latin-1 and UTF-16
// under the Java policy), in lists (a []string takes views of segments
// copied at once), map keys, struct fields, []any and at the root, shared
// ones under reference tracking too; a payload holding more after a list
// of strings decodes the rest as well.
func TestStringSpans(t *testing.T) {
	type rec struct {
		Name  string
		Names []string
	}
	ss := []string{"a", "é", "ünïcödé 🎉", strings.Repeat("x", 40), strings.Repeat("ÿ", 300), strings.Repeat("z", 700), ""}
	for i := 0; i < 3000; i++ { // past one 32 KiB segment
		ss = append(ss, "string-value-"+strconv.Itoa(i*31))
	}
	m := map[string]int64{}
	for i, s := range ss {
		m[s] = int64(i)
	}
	for _, utf8 := range []bool{true, false} {
		for _, ref := range []bool{false, true} {
			c, err := NewContext(WithUTF8Strings(utf8), WithRefTracking(ref))
			if err != nil {
				t.Fatal(err)
			}
			if err := c.RegisterStruct("rec", rec{}); err != nil {
				t.Fatal(err)
			}
			r := &rec{Name: "the name", Names: ss[:10]}
			for _, v := range []any{ss, m, []any{"x", ss[2], int64(1)}, r, ss[4], []any{ss[5], ss[5]}} {
				b, err := c.Marshal(v)
				if err != nil {
					t.Fatal(err)
				}
				out := reflect.New(reflect.TypeOf(v))
				if err := c.Unmarshal(b, out.Interface()); err != nil {
					t.Fatalf("%T: %v", v, err)
				}
				// A map's keys come as STR_SPANs or, where a chunk of entries
				// qualifies, inside an ENTRY_RUN (which names payload bytes
				// too); which chunks qualify depends on Go's random map order.
				if tp := c.readTape(); reflect.TypeOf(v) != reflect.TypeOf(r) && !bytes.Contains(tp, []byte{opStrSpan}) &&
					!(reflect.TypeOf(v).Kind() == reflect.Map && bytes.Contains(tp, []byte{opEntryRun})) {
					t.Errorf("%T: no STR_SPAN in the read tape", v)
				}
				clear(b) // the decoded strings are not views of the payload
				if got := out.Elem().Interface(); !reflect.DeepEqual(got, v) {
					t.Fatalf("utf8=%v ref=%v %T: strings differ", utf8, ref, v)
				}
			}
			// more after the list: two roots
			b, err := c.MarshalAll([]any{ss[:50], []byte("tail")})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			var tail []byte
			if err := c.UnmarshalAll(b, []any{&got, &tail}); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, ss[:50]) || string(tail) != "tail" {
				t.Fatalf("two roots: %q %q", got[:3], tail)
			}
			c.Close()
		}
	}
}

// A malformed STR_SPAN record (offset or length past the payload, a
// record cut short) is the tape error, not a crash, in every reader of it.
func TestStringSpansMalformed(t *testing.T) {
	c, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	in := []byte("0123456789abcdef0123456789abcdef0123456789")
	rec := func(n uint32, off uint64) []byte {
		r := []byte{opStrSpan, StrUTF8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
		binary.LittleEndian.PutUint32(r[2:], n)
		binary.LittleEndian.PutUint64(r[6:], off)
		return r
	}
	bad := [][]byte{rec(5, uint64(len(in))), rec(uint32(len(in)+1), 0), rec(1, 1<<63),
		rec(8, uint64(len(in)-7)), rec(3, 0)[:10]}
	readers := map[string]func(d *decoder){
		"[]string": func(d *decoder) { d.spanStrings(make([]string, 2)) },
		"any":      func(d *decoder) { var x any; d.anyValue(&x) },
		"map": func(d *decoder) {
			d.mapInto(-1, reflect.New(reflect.TypeOf(map[string]int64{})).Elem())
		},
	}
	for i, r := range bad {
		for name, read := range readers {
			var tape []byte
			if name == "map" {
				tape = []byte{2, 0, 0, 0}
			}
			tape = append(append(tape, r...), r...)
			d := &decoder{c: c, b: tape, in: in}
			func() {
				defer func() {
					if e := recover(); e != errTape {
						t.Errorf("record %d, %s: got %v, want the tape error", i, name, e)
					}
				}()
				read(d)
			}()
		}
	}
}

// Maps of string keys and varint values come as ENTRY_RUN records (their
// entries' payload bytes, checked by libwire) and decode as before into
// every map type: keys of every length (a key of 4096 bytes or more ends a
// run, the next entry starts another) and encoding (Latin-1 and UTF-16
// under the Java policy), the extreme values of varint64 (a nine-byte
// varint) and varint32, into map[string]int64 (the fast path),
// map[string]int32, map[string]any and any (the general readers).
func TestEntryRuns(t *testing.T) {
	keys := []string{"", "a", "é", "ünïcödé 🎉", "日本", strings.Repeat("k", 31), strings.Repeat("k", 33),
		strings.Repeat("ÿ", 300), strings.Repeat("z", 700), strings.Repeat("q", 5000)}
	for i := 0; i < 3000; i++ { // keys past one 32 KiB chunk
		keys = append(keys, "key-"+strconv.Itoa(i))
	}
	m64 := map[string]int64{}
	m32 := map[string]int32{}
	for i, k := range keys {
		v := int64(i) * 1000003
		switch i % 5 {
		case 1:
			v = math.MaxInt64 - int64(i)
		case 2:
			v = math.MinInt64 + int64(i)
		case 3:
			v = -v
		}
		m64[k] = v
		m32[k] = int32(v)
	}
	m32["max"], m32["min"] = math.MaxInt32, math.MinInt32
	for _, utf8 := range []bool{true, false} {
		c, err := NewContext(WithUTF8Strings(utf8))
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range []any{m64, m32, map[string]int64{"one": 1}} {
			b, err := c.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			out := reflect.New(reflect.TypeOf(v))
			if err := c.Unmarshal(b, out.Interface()); err != nil {
				t.Fatalf("%T: %v", v, err)
			}
			if !bytes.Contains(c.readTape(), []byte{opEntryRun}) {
				t.Errorf("%T: no ENTRY_RUN in the read tape", v)
			}
			if got := out.Elem().Interface(); !reflect.DeepEqual(got, v) {
				t.Fatalf("utf8=%v %T: maps differ", utf8, v)
			}
			// the general readers: map[string]any and any
			var ma map[string]any
			if err := c.Unmarshal(b, &ma); err != nil {
				t.Fatal(err)
			}
			var x any
			if err := c.Unmarshal(b, &x); err != nil {
				t.Fatal(err)
			}
			mx, _ := x.(map[any]any)
			rv := reflect.ValueOf(v)
			if len(ma) != rv.Len() || len(mx) != rv.Len() {
				t.Fatalf("%T: %d / %d entries, want %d", v, len(ma), len(mx), rv.Len())
			}
			for it := rv.MapRange(); it.Next(); {
				k, want := it.Key().String(), it.Value().Interface()
				if ma[k] != want || mx[k] != want {
					t.Fatalf("%T[%q]: %v / %v, want %v", v, k, ma[k], mx[k], want)
				}
			}
		}
		// a map field of a struct on the tape path (an any field keeps
		// it off the compiled codecs)
		type withMap struct {
			M map[string]int64
			X any
		}
		if err := c.RegisterStruct("withMap", withMap{}); err != nil {
			t.Fatal(err)
		}
		b, err := c.Marshal(&withMap{M: m64, X: "x"})
		if err != nil {
			t.Fatal(err)
		}
		var wm withMap
		if err := c.Unmarshal(b, &wm); err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(c.readTape(), []byte{opEntryRun}) || !reflect.DeepEqual(wm.M, m64) || wm.X != "x" {
			t.Fatalf("utf8=%v: the struct's map differs", utf8)
		}
		// a value out of the Go type's range is the type error, as
		// without runs
		b, _ = c.Marshal(map[string]int64{"big": 1 << 40})
		var small map[string]int8
		if err := c.Unmarshal(b, &small); err == nil {
			t.Error("map[string]int8 took 1<<40")
		}
		c.Close()
	}
}

// A malformed ENTRY_RUN record (its bytes past the payload, a count past
// the map's, entries that do not fill its bytes, a record cut short, an
// unknown value type) is the tape error, not a crash, in both readers.
func TestEntryRunsMalformed(t *testing.T) {
	c, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// two entries: "ab" -> 1, "c" -> -1
	in := []byte{2<<2 | StrUTF8, 'a', 'b', 2, 1<<2 | StrUTF8, 'c', 1}
	rec := func(vty byte, cnt uint32, off, n uint64) []byte {
		r := make([]byte, 22)
		r[0], r[1] = opEntryRun, vty
		binary.LittleEndian.PutUint32(r[2:], cnt)
		binary.LittleEndian.PutUint64(r[6:], off)
		binary.LittleEndian.PutUint64(r[14:], n)
		return r
	}
	good := rec(TypeVarint64, 2, 0, uint64(len(in)))
	bad := [][]byte{rec(TypeVarint64, 2, 1, uint64(len(in))), rec(TypeVarint64, 3, 0, uint64(len(in))),
		rec(TypeVarint64, 2, 0, 6), rec(TypeVarint64, 1, 0, uint64(len(in))), rec(TypeVarint64, 2, 1<<63, 2),
		rec(TypeInt64, 2, 0, uint64(len(in))), rec(TypeVarint64, 0, 0, 0), good[:21]}
	readers := map[string]reflect.Type{"map[string]int64": reflect.TypeOf(map[string]int64{}),
		"map[any]any": reflect.TypeOf(map[any]any{})}
	for name, typ := range readers {
		for i, r := range append([][]byte{good}, bad...) {
			tape := append([]byte{2, 0, 0, 0}, r...)
			d := &decoder{c: c, b: tape, in: in}
			v := reflect.New(typ).Elem()
			func() {
				defer func() {
					e := recover()
					if i == 0 && e != nil {
						t.Errorf("%s: the good record: %v", name, e)
					}
					if i > 0 && e != errTape {
						t.Errorf("record %d, %s: got %v, want the tape error", i, name, e)
					}
				}()
				d.mapInto(-1, v)
			}()
			if i == 0 && v.Len() != 2 {
				t.Errorf("%s: %d entries from the good record", name, v.Len())
			}
		}
	}
}
