// Command gowriter writes the user models of the exactness harness
// (libwire/tests/exact) as Fory Go 1.6.1 users write them: exported
// structs, every type registered by name in namespace ex.
//
//	gowriter          # NAME.MODE HEX lines
//	gowriter --read   # NAME.MODE HEX on stdin: NAME.MODE ok|differs|error
//	                  # (NAME.MODE.v2: read as v2.fdl's classes, readV2)
package main

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"os"
	"reflect"
	"strings"
	"time"

	"github.com/apache/fory/go/fory"
)

type Status int32

const (
	StatusNew Status = iota
	StatusPaid
	StatusShipped
)

type Address struct {
	Street string
	City   string
}

type Customer struct {
	Name      string
	Email     string
	Addresses []*Address `fory:"ref"`
}

type OrderLine struct {
	Sku      string
	Quantity int32
	Cents    int64
}

type Order struct {
	Id       int64
	Customer *Customer
	Shipping *Address `fory:"ref"`
	Lines    []OrderLine
	Placed   time.Time
	Tags     map[string]string
	Blob     []byte
	Status   Status
	Note     *string
}

type Image struct {
	Uri    string
	Title  string
	Width  int32
	Height int32
}

type Media struct {
	Uri        string
	Title      string
	Width      int32
	Height     int32
	Format     string
	Duration   int64
	Size       int64
	Bitrate    int32
	HasBitrate bool
	Persons    []string
	Copyright  string
}

type MediaContent struct {
	Media  Media
	Images []Image
}

type Sample struct {
	IntValue     int32
	LongValue    int64
	FloatValue   float32
	DoubleValue  float64
	ShortValue   int16
	ByteValue    int8
	BooleanValue bool
	IntArray     []int32
	LongArray    []int64
	DoubleArray  []float64
	String       string
}

type SampleList struct {
	Samples []Sample
}

type Node struct {
	Value    int32
	Children []*Node
}

type Person struct {
	Name string
	Home Address
	Work Address
}

type Inner struct {
	A int32
	B string
}

type Outer struct {
	Inner Inner
	Label string
}

type Empty struct{}

type HasEmpty struct {
	E Empty
	N int32
}

type Optionals struct {
	S  *string
	I  *int32
	L  *int64
	D  *float64
	B  *bool
	A  *Address
	Xs []string          `fory:"nullable"`
	M  map[string]int32 `fory:"nullable"`
}

type Holder struct {
	Name    string
	Payload any
}

type Camel struct {
	FirstName string
	LastName  string
	BirthYear int32
	IsActive  bool
}

type Evo struct {
	Id    int32
	Name  string
	Old   string
	Count int32
}

// Stop is the element of Route's lists.
type Stop struct {
	City string
}

// Route holds lists of a struct not tagged ref, written with reference
// tracking on: one *Stop twice in Stops (and a nil); Fixed holds values.
type Route struct {
	Stops []*Stop
	Fixed []Stop
}

// RefOff has a field tagged ref, written without reference tracking.
type RefOff struct {
	Name  string
	Inner *Inner `fory:"ref"`
}

// Words holds UTF-8 strings that Fory Java 1.6.0 misreads when they stand
// in this order in one payload (errata E-53): the long one, after the
// short non-ASCII one, comes back with its third character replaced.
type Words struct {
	Words []string
}

// EvoV2 is version 2 of Evo (fixtures/schemas/exact/v2.fdl): Count
// widened to int64, Old removed, Added added. The reader checks of camel
// and evo read the v1 payloads with it and with Camel (the same shape in
// both versions), registered under the v1 names.
type EvoV2 struct {
	Id    int32
	Name  string
	Count int64
	Added string
}

// readV2 reads the v1 payload b of model name (camel or evo) as a user
// whose classes are v2.fdl's: "ok" when it gets v2's object.
func readV2(name string, compatible bool, b []byte) string {
	var want any
	switch name {
	case "evo":
		want = &EvoV2{7, "seven", 42, ""}
	case "camel":
		want = &Camel{"Grace", "Hopper", 1906, true}
	default:
		return "error: no v2 of " + name
	}
	f := fory.New(fory.WithXlang(true), fory.WithCompatible(compatible))
	if err := f.RegisterStructByName(reflect.TypeOf(want).Elem(),
		"ex."+strings.ToUpper(name[:1])+name[1:]); err != nil {
		return "error: " + err.Error()
	}
	got := reflect.New(reflect.TypeOf(want).Elem())
	if err := f.Deserialize(b, got.Interface()); err != nil {
		return "error: " + err.Error()
	}
	if !reflect.DeepEqual(got.Interface(), want) {
		return fmt.Sprintf("differs: %+v", got.Elem().Interface())
	}
	return "ok"
}

// Nulls holds a list of interface values that are all nil: Go writes it
// with no same-type bit and no element type (`02 fd fd`, errata E-57), the
// form libwire writes for an all-null list with no element type to write.
type Nulls struct {
	Anys []any
}

// LongNamedStructForTheLongNamesCheck is registered with a namespace and a
// type name over 16 bytes (meta string hashes).
type LongNamedStructForTheLongNamesCheck struct {
	V int32
}

func newFory(compatible, ref bool) *fory.Fory {
	f := fory.New(fory.WithXlang(true), fory.WithCompatible(compatible), fory.WithTrackRef(ref))
	if err := f.RegisterEnumByName(Status(0), "ex.Status"); err != nil {
		panic(err)
	}
	for _, r := range []struct {
		v    any
		name string
	}{{Address{}, "Address"}, {Customer{}, "Customer"}, {OrderLine{}, "OrderLine"},
		{Order{}, "Order"}, {Image{}, "Image"}, {Media{}, "Media"}, {MediaContent{}, "MediaContent"},
		{Sample{}, "Sample"}, {SampleList{}, "SampleList"}, {Node{}, "Node"}, {Person{}, "Person"},
		{Inner{}, "Inner"}, {Outer{}, "Outer"}, {Empty{}, "Empty"}, {HasEmpty{}, "HasEmpty"},
		{Optionals{}, "Optionals"}, {Holder{}, "Holder"}, {Camel{}, "Camel"}, {Evo{}, "Evo"},
		{RefOff{}, "RefOff"}, {Stop{}, "Stop"}, {Route{}, "Route"}, {Words{}, "Words"}, {Nulls{}, "Nulls"}} {
		if err := f.RegisterStructByName(r.v, "ex."+r.name); err != nil {
			panic(err)
		}
	}
	if err := f.RegisterStructByName(LongNamedStructForTheLongNamesCheck{},
		"longnamespace.forthemetastrings.LongNamedStructForTheLongNamesCheck"); err != nil {
		panic(err)
	}
	return f
}

func sample(k int32) Sample {
	return Sample{123 + k, 1 << 40, 1.5, -2.25, -7, 5, true, []int32{1, 2, 3}, []int64{-1, 1 << 33},
		[]float64{0.5}, fmt.Sprintf("sample %d", k)}
}

type model struct {
	name string
	v    any
	ref  bool
}

func models() []model {
	home := &Address{"1 Engine Lane", "Cambridge"}
	order := &Order{
		Id:       1001,
		Customer: &Customer{"Ada Lovelace", "ada@example.com", []*Address{home, {"12 Analytical Row", "London"}}},
		Shipping: home,
		Lines:    []OrderLine{{"BAB-1", 1, 34999}, {"CARD-80", 80, 5}},
		Placed:   time.Date(2024, 2, 29, 12, 34, 56, 789000000, time.UTC),
		Tags:     map[string]string{"channel": "web"}, // one entry: Go maps have no order
		Blob:     []byte{0, 1, 2, 0xff},
		Status:   StatusPaid,
	}
	media := &MediaContent{
		Media{"http://javaone.com/keynote.mpg", "Javaone Keynote", 640, 480, "video/mpg4", 18000000,
			58982400, 262144, true, []string{"Bill Gates", "Steve Jobs"}, "none"},
		[]Image{{"http://javaone.com/keynote_large.jpg", "Javaone Keynote", 1024, 768},
			{"http://javaone.com/keynote_small.jpg", "small", 320, 240}},
	}
	sample0 := sample(0)
	x := &Stop{"X"}
	long := strings.Repeat("a", 70) + "日"
	return []model{
		{"order", order, true},
		{"media", media, false},
		{"sample", &sample0, false},
		{"samples", &SampleList{[]Sample{sample(0), sample(1), sample(2)}}, false},
		{"tree", &Node{1, []*Node{{2, []*Node{{4, []*Node{}}}}, {3, []*Node{}}}}, false},
		{"person", &Person{"ann", Address{"1 Home St", "Oslo"}, Address{"2 Work Rd", "Bergen"}}, false},
		{"nested", &Outer{Inner{7, "seven"}, "outer"}, false},
		// the same under reference tracking: a flag before the by-value
		// field in same-schema mode (errata E-52, R-PEER-3)
		{"nestedref", &Outer{Inner{7, "seven"}, "outer"}, true},
		{"empty", &HasEmpty{Empty{}, 3}, false},
		{"optionals", &Optionals{}, false},
		{"any", &Holder{"h", "a string in an Any field"}, false},
		{"camel", &Camel{"Grace", "Hopper", 1906, true}, false},
		{"evo", &Evo{7, "seven", "gone in v2", 42}, false},
		{"refoff", &RefOff{"r", &Inner{1, "one"}}, false},
		{"reflist", &Route{[]*Stop{x, nil, x, {"Y"}}, []Stop{{"Q"}, {"Q"}, {"Z"}}}, true},
		{"longname", &LongNamedStructForTheLongNamesCheck{5}, false},
		{"words", &Words{[]string{long, "aé日", long}}, false},
		{"nulls", &Nulls{[]any{nil, nil}}, false},
	}
}

// equal is reflect.DeepEqual, with times compared as instants.
func equal(a, b any) bool {
	if x, ok := a.(*Order); ok {
		y := b.(*Order)
		xc, yc := *x, *y
		if !xc.Placed.Equal(yc.Placed) {
			return false
		}
		xc.Placed, yc.Placed = time.Time{}, time.Time{}
		return reflect.DeepEqual(&xc, &yc)
	}
	return reflect.DeepEqual(a, b)
}

func main() {
	ms := models()
	if len(os.Args) > 1 && os.Args[1] == "--read" {
		byName := map[string]model{}
		for _, m := range ms {
			byName[m.name] = m
		}
		sc := bufio.NewScanner(os.Stdin)
		sc.Buffer(make([]byte, 1<<20), 1<<26)
		for sc.Scan() {
			kv := strings.Fields(sc.Text())
			if len(kv) != 2 {
				continue
			}
			name, mode, _ := strings.Cut(kv[0], ".")
			mode, suffix, _ := strings.Cut(mode, ".")
			identity := suffix != "plain" // plain JSON carries none
			m := byName[name]
			b, err := hex.DecodeString(kv[1])
			verdict := "ok"
			if err != nil {
				verdict = "error: " + err.Error()
			} else if suffix == "v2" {
				verdict = readV2(name, mode == "compat", b)
			} else {
				got := reflect.New(reflect.TypeOf(m.v).Elem())
				if err := newFory(mode == "compat", m.ref).Deserialize(b, got.Interface()); err != nil {
					verdict = "error: " + err.Error()
				} else if !equal(got.Interface(), m.v) {
					verdict = fmt.Sprintf("differs: %+v", got.Elem().Interface())
				} else if o, ok := got.Interface().(*Order); ok && identity && o.Shipping != o.Customer.Addresses[0] {
					verdict = "differs: the shipping address is not shared"
				} else if r, ok := got.Interface().(*Route); ok && identity && r.Stops[0] != r.Stops[2] {
					verdict = "differs: the repeated stop is not shared"
				}
			}
			fmt.Println(kv[0], verdict)
		}
		return
	}
	for _, m := range ms {
		for _, mode := range []string{"compat", "same"} {
			b, err := newFory(mode == "compat", m.ref).Serialize(m.v)
			if err != nil {
				fmt.Fprintln(os.Stderr, m.name, mode, err)
				os.Exit(1)
			}
			fmt.Println(m.name+"."+mode, hex.EncodeToString(b))
		}
	}
}
