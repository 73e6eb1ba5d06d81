package wire

// Per-message cost of the binding against the Fory Go runtime on the same
// payloads. `go test -bench . -run '^$'` runs every variant;
// BenchmarkRatios prints the table of ratios (libwire / Fory Go).

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"text/tabwriter"
)

// A list of 1000 mixed scalars and strings.
func list1000() []any {
	l := make([]any, 1000)
	for i := range l {
		switch i % 4 {
		case 0:
			l[i] = int64(i * 7919)
		case 1:
			l[i] = "item-" + strconv.Itoa(i)
		case 2:
			l[i] = float64(i) / 3
		default:
			l[i] = i%8 == 3
		}
	}
	return l
}

// A map[string]int64 of 10000 entries.
func map10000() map[string]int64 {
	m := make(map[string]int64, 10000)
	for i := 0; i < 10000; i++ {
		m["key-"+strconv.Itoa(i)] = int64(i) * 1000003
	}
	return m
}

type payload struct {
	name   string
	value  any
	target func() any
}

var payloads = []payload{
	{"list1000", list1000(), func() any { return new([]any) }},
	{"map10000", map10000(), func() any { return new(map[string]int64) }},
}

type variant struct {
	name      string
	marshal   func(v any) ([]byte, error)
	unmarshal func(b []byte, target any) error
}

func variants(b testing.TB) []variant {
	bulk, _ := NewContext()
	per, _ := NewContext(WithPerValueCalls(true))
	f := newFory(false, false)
	return []variant{
		{"fory-go", f.Serialize, f.Deserialize},
		{"libwire-bulk", bulk.Marshal, bulk.Unmarshal},
		{"libwire-per-value", per.Marshal, per.Unmarshal},
	}
}

func benchMarshal(b *testing.B, v variant, p payload) {
	b.ReportAllocs()
	data, err := v.marshal(p.value)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := v.marshal(p.value); err != nil {
			b.Fatal(err)
		}
	}
}

func benchUnmarshal(b *testing.B, v variant, p payload) {
	b.ReportAllocs()
	data, err := v.marshal(p.value)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := v.unmarshal(data, p.target()); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMarshal(b *testing.B) {
	for _, p := range payloads {
		for _, v := range variants(b) {
			b.Run(p.name+"/"+v.name, func(b *testing.B) { benchMarshal(b, v, p) })
		}
	}
}

func BenchmarkUnmarshal(b *testing.B) {
	for _, p := range payloads {
		for _, v := range variants(b) {
			b.Run(p.name+"/"+v.name, func(b *testing.B) { benchUnmarshal(b, v, p) })
		}
	}
}

// BenchmarkCgoCall is the cost of one trivial cgo call (wire_version_number).
func BenchmarkCgoCall(b *testing.B) {
	for i := 0; i < b.N; i++ {
		cgoNoop()
	}
}

func cgoCalls() int64 { return runtime.NumCgoCall() }

type result struct {
	ns, allocs, calls float64
}

// BenchmarkRatios runs every payload × direction × variant as a
// sub-benchmark (Fory Go first), reports each libwire variant's ratio to
// Fory Go as the metric x_fory-go, and prints the table at the end.
func BenchmarkRatios(b *testing.B) {
	results := map[string]result{}
	var order []string
	for _, p := range payloads {
		for _, op := range []string{"marshal", "unmarshal"} {
			key := p.name + "/" + op
			for _, v := range variants(b) {
				name := key + "/" + v.name
				b.Run(name, func(b *testing.B) {
					var ms runtime.MemStats
					runtime.ReadMemStats(&ms)
					mallocs := ms.Mallocs
					before := cgoCalls()
					if op == "marshal" {
						benchMarshal(b, v, p)
					} else {
						benchUnmarshal(b, v, p)
					}
					b.StopTimer()
					runtime.ReadMemStats(&ms)
					r := result{
						ns:     float64(b.Elapsed().Nanoseconds()) / float64(b.N),
						allocs: float64(ms.Mallocs-mallocs) / float64(b.N+1),
						calls:  float64(cgoCalls()-before) / float64(b.N+1),
					}
					if _, ok := results[name]; !ok {
						order = append(order, name)
					}
					results[name] = r
					if f, ok := results[key+"/fory-go"]; ok && v.name != "fory-go" {
						b.ReportMetric(r.ns/f.ns, "x_fory-go")
					}
				})
			}
		}
	}
	var one result
	b.Run("cgo-call", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			cgoNoop()
		}
		one.ns = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	})
	ratiosOnce.Do(func() {
		w := tabwriter.NewWriter(os.Stdout, 2, 4, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(w, "payload/op/variant	ns/op	allocs/op	cgo calls/op	x fory-go	")
		for _, name := range order {
			r := results[name]
			key := name[:strings.LastIndexByte(name, '/')]
			f := results[key+"/fory-go"]
			fmt.Fprintf(w, "%s\t%.0f\t%.0f\t%.1f\t%.2f\t\n", name, r.ns, r.allocs, r.calls, r.ns/f.ns)
		}
		fmt.Fprintf(w, "one cgo call\t%.1f\t\t\t\t\n", one.ns)
		w.Flush()
	})
}

var ratiosOnce sync.Once

// BenchmarkStages splits the bulk marshal path: building the tape in Go,
// replaying it into a document in C, and encoding the document in C.
func BenchmarkStages(b *testing.B) {
	c, _ := NewContext()
	defer c.Close()
	for _, p := range payloads {
		b.Run(p.name+"/go-tape", func(b *testing.B) {
			for i := 0; i < b.N; i++ { // as Marshal does: the tape buffer is reused
				e := c.newEncoder()
				if err := e.root(p.value); err != nil {
					b.Fatal(err)
				}
				c.tape = e.finish()
			}
		})
		tp, _ := c.Tape(p.value)
		b.Run(p.name+"/c-doc-add-tape", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				d, _ := c.NewDoc()
				if err := d.AddTape(tp); err != nil {
					b.Fatal(err)
				}
				d.Free()
			}
		})
		d, _ := c.NewDoc()
		d.AddTape(tp)
		b.Run(p.name+"/c-encode-doc", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := d.Encode(); err != nil {
					b.Fatal(err)
				}
			}
		})
		d.Free()
		data, _ := c.Marshal(p.value)
		b.Run(p.name+"/c-decode-tape", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				c.mu.Lock()
				c.decodeTapeOnly(data)
				c.mu.Unlock()
			}
		})
	}
}
