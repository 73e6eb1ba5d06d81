package wire

// The binding against the Fory Go runtime (v1.6.1, go.mod) on the
// workloads of issue 13. BenchmarkInterleaved times batches of each
// runtime alternately in this one process and prints, per workload and
// direction, `BENCH go <workload> <enc|dec> ratio=<libwire / fory-go>` and
// a table:
//
//	go test -run '^$' -bench Interleaved -benchtime 1x .
//
// Fory Go runs in its fastest documented xlang configuration: xlang,
// no reference tracking, schema-consistent structs (WithCompatible(false)),
// one reused instance whose Serialize returns a view of its own buffer (no
// copy); libwire's side appends to one reused buffer (MarshalAppend).
// (Fory Go drops a buffer that grew past 64 KiB after each call, so on the
// large payloads it allocates twice the payload per message: B/op in the
// INFO lines.) libwire writes UTF-8 strings (WithUTF8Strings), so that both
// write the same bytes; the table says where they differ.
//
// The ratio is of CPU time: the process's CPU time
// (CLOCK_PROCESS_CPUTIME_ID) over a batch, which counts the garbage collector's work and
// the kernel's page faults on whichever core they run. Wall time is
// printed too (INFO lines), with each side's CPU/wall: on an idle core the
// collector runs beside the caller and costs the allocating side no wall
// time, and on a loaded machine a batch longer than the scheduler's slice
// waits in the run queue, so wall ratios move with the load (README,
// "Method"). The `dec zero-copy`
// rows (INFO lines, not BENCH) decode binary_1MiB and i64_array_100000
// with WithZeroCopy, an option Fory Go does not have (it copies).

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"text/tabwriter"
	"time"
	"unsafe"

	"github.com/apache/fory/go/fory"
	"libwire.dev/wire/internal/stream"
)

// The structs of Fory's benchmark suite (fields as in bench/schemas/bench.fdl;
// Player and Size are written as int32 fields here, since neither runtime
// maps a Go named integer to an enum without extra registration).
type NumericStruct struct {
	F1, F2, F3, F4, F5, F6, F7, F8, F9, F10, F11, F12 int32
}

type Sample struct {
	IntValue          int32
	LongValue         int64
	FloatValue        float32
	DoubleValue       float64
	ShortValue        int32
	CharValue         int32
	BooleanValue      bool
	IntValueBoxed     int32
	LongValueBoxed    int64
	FloatValueBoxed   float32
	DoubleValueBoxed  float64
	ShortValueBoxed   int32
	CharValueBoxed    int32
	BooleanValueBoxed bool
	IntArray          []int32
	LongArray         []int64
	FloatArray        []float32
	DoubleArray       []float64
	ShortArray        []int32
	CharArray         []int32
	BooleanArray      []bool
	String            string
}

type Media struct {
	URI        string
	Title      string
	Width      int32
	Height     int32
	Format     string
	Duration   int64
	Size       int64
	Bitrate    int32
	HasBitrate bool
	Persons    []string
	Player     int32
	Copyright  string
}

type Image struct {
	URI    string
	Title  string
	Width  int32
	Height int32
	Size   int32
}

type MediaContent struct {
	Media  Media
	Images []Image
}

// The values of Fory's benchmark suite.
func benchNumeric() *NumericStruct {
	return &NumericStruct{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
}

func benchSample() *Sample {
	return &Sample{
		IntValue: 123, LongValue: 1230000, FloatValue: 12.345, DoubleValue: 1.234567,
		ShortValue: 12345, CharValue: '!', BooleanValue: true,
		IntValueBoxed: 321, LongValueBoxed: 3210000, FloatValueBoxed: 54.321,
		DoubleValueBoxed: 7.654321, ShortValueBoxed: 32100, CharValueBoxed: '$',
		BooleanValueBoxed: false,
		IntArray:          []int32{-1234, -123, -12, -1, 0, 1, 12, 123, 1234},
		LongArray:         []int64{-123400, -12300, -1200, -100, 0, 100, 1200, 12300, 123400},
		FloatArray:        []float32{-12.34, -12.3, -12.0, -1.0, 0.0, 1.0, 12.0, 12.3, 12.34},
		DoubleArray:       []float64{-1.234, -1.23, -12.0, -1.0, 0.0, 1.0, 12.0, 1.23, 1.234},
		ShortArray:        []int32{-1234, -123, -12, -1, 0, 1, 12, 123, 1234},
		CharArray:         []int32{'a', 's', 'd', 'f', 'A', 'S', 'D', 'F'},
		BooleanArray:      []bool{true, false, false, true},
		String:            "Hello, world!",
	}
}

func benchMediaContent() *MediaContent {
	return &MediaContent{
		Media: Media{
			URI: "http://javaone.com/keynote.ogg", Title: "", Width: 641, Height: 481,
			Format: "video/theora\u1234", Duration: 18000001, Size: 58982401, Bitrate: 0,
			HasBitrate: false, Persons: []string{"Bill Gates, Jr.", "Steven Jobs"},
			Player: 1, Copyright: "Copyright (c) 2009, Scooby Dooby Doo",
		},
		Images: []Image{
			{URI: "http://javaone.com/keynote_huge.jpg", Title: "Javaone Keynote\u1234", Width: 32000, Height: 24000, Size: 1},
			{URI: "http://javaone.com/keynote_large.jpg", Title: "", Width: 1024, Height: 768, Size: 1},
			{URI: "http://javaone.com/keynote_small.jpg", Title: "", Width: 320, Height: 240, Size: 0},
		},
	}
}

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

func mapStrI64(n int) map[string]int64 {
	m := make(map[string]int64, n)
	for i := 0; i < n; i++ {
		m["key-"+strconv.Itoa(i)] = int64(i) * 1000003
	}
	return m
}

func strings10000() []string {
	s := make([]string, 10000)
	for i := range s {
		s[i] = "string-value-" + strconv.Itoa(i*31)
	}
	return s
}

func i64Array(n int) []int64 {
	a := make([]int64, n)
	for i := range a {
		a[i] = int64(i)*2654435761 - 1<<40
	}
	return a
}

func binary1MiB() []byte {
	b := make([]byte, 1<<20)
	for i := range b {
		b[i] = byte(i * 131)
	}
	return b
}

// benchTypes registers the structs in both runtimes under the suite's ids.
var benchTypes = []pairType{{1, NumericStruct{}}, {2, Sample{}}, {3, Media{}}, {4, Image{}}, {5, MediaContent{}}}

func benchRuntimes(tb testing.TB, opts ...Option) (*Context, *fory.Fory) {
	return pairRuntimes(tb, false, false, benchTypes, append([]Option{WithUTF8Strings(true)}, opts...)...)
}

type workload struct {
	name   string
	value  any
	target func() any
	// foryWrong: Fory Go's own bytes are wrong for this value (its map
	// writer repeats keys from 1000 entries on, TestForyGoMapDuplicates), so
	// its decoder is timed on libwire's bytes and its encode ratio is only
	// indicative.
	foryWrong bool
}

func workloads() []workload {
	return []workload{
		{"MediaContent", benchMediaContent(), func() any { return new(MediaContent) }, false},
		{"NumericStruct", benchNumeric(), func() any { return new(NumericStruct) }, false},
		{"Sample", benchSample(), func() any { return new(Sample) }, false},
		{"list_mixed_1000", list1000(), func() any { return new([]any) }, false},
		{"map_str_i64_10000", mapStrI64(10000), func() any { return new(map[string]int64) }, true},
		{"i64_array_100000", i64Array(100000), func() any { return new([]int64) }, false},
		{"binary_1MiB", binary1MiB(), func() any { return new([]byte) }, false},
		{"strings_10000", strings10000(), func() any { return new([]string) }, false},
	}
}

// batch is one timed batch: per call, wall time and the CPU time of the
// whole process (every thread: the caller, the garbage collector's
// workers on other cores, the kernel's page faults), and what the
// runtime and the kernel counted meanwhile.
type batch struct {
	wall, cpu       float64 // ns per call
	own             float64 // CPU ns per call on the caller's own thread
	bytes, gcs, flt float64 // bytes allocated, GC cycles, minor page faults per call
}

// cpuNow is the CPU time so far of the process (every thread) and of the
// calling thread: clock_gettime of CLOCK_PROCESS_CPUTIME_ID and
// CLOCK_THREAD_CPUTIME_ID, exact to the scheduler's accounting (getrusage
// splits user and system time from tick samples, which moved single
// batches by up to 20 %). BenchmarkInterleaved locks its goroutine to its
// thread, so the thread's time is the caller's own: its code, cgo calls,
// allocation and GC assists, not the collector's background workers or
// the sweeper on other threads.
func cpuNow() (proc, thread int64) {
	var p, t syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 2, uintptr(unsafe.Pointer(&p)), 0) // CLOCK_PROCESS_CPUTIME_ID
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 3, uintptr(unsafe.Pointer(&t)), 0) // CLOCK_THREAD_CPUTIME_ID
	return p.Nano(), t.Nano()
}

// runBatch times n calls of fn. It does not collect the garbage first:
// a forced collection lowers the heap goal and lets the runtime's
// scavenger return the pages to the OS, so the next batch would fault
// them in again (4-9 times the page faults per call of a steady run).
func runBatch(n int, fn func()) batch {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	var r0, r1 syscall.Rusage // minor page faults
	syscall.Getrusage(syscall.RUSAGE_SELF, &r0)
	p0, th0 := cpuNow()
	t0 := time.Now()
	for i := 0; i < n; i++ {
		fn()
	}
	wall := time.Since(t0).Nanoseconds()
	p1, th1 := cpuNow()
	syscall.Getrusage(syscall.RUSAGE_SELF, &r1)
	runtime.ReadMemStats(&m1)
	f := float64(n)
	return batch{
		wall:  float64(wall) / f,
		cpu:   float64(p1-p0) / f,
		own:   float64(th1-th0) / f,
		bytes: float64(m1.TotalAlloc-m0.TotalAlloc) / f,
		gcs:   float64(m1.NumGC-m0.NumGC) / f,
		flt:   float64(r1.Minflt-r0.Minflt) / f,
	}
}

// pair is what interleaveN measured: the medians of each side's batches
// and of the per-round ratios a/b, in wall and in CPU time.
type pair struct {
	a, b             batch // medians, field by field
	ratio, wallRatio float64
	ownRatio         float64 // of the callers' own thread CPU
}

// interleave times rounds batches of a and b alternately (a b, then b a:
// each goes first half of the time), batches of about 10 ms of CPU time
// of the slower side. Short batches and many rounds keep both sides under the same load
// on a shared machine.
func interleave(rounds int, a, b func()) pair {
	return interleaveN(rounds, batchFor(batchNs, a, b), a, b)
}

// batchNs: the CPU time of a batch of the slower side, 10 ms unless
// WIRE_BENCH_BATCH_MS says otherwise (ROUNDS.md, round 7: how much of one
// side's garbage the other side's next batch sweeps).
var batchNs = func() float64 {
	if ms, err := strconv.ParseFloat(os.Getenv("WIRE_BENCH_BATCH_MS"), 64); err == nil && ms > 0 {
		return ms * 1e6
	}
	return 10e6
}()

// batchFor is the number of calls of the slowest of fns that take about
// target ns of CPU time (not wall time: on a loaded machine a batch timed
// while the process waited for a core came out a few calls long, too
// short to hold a collection, so that the median batch of an allocating
// side had none and the ratio of the int64 array encode read 0.49-0.65
// in such runs instead of 0.12-0.27).
func batchFor(target float64, fns ...func()) int {
	n := 1
	for n <= 1<<20 {
		for _, f := range fns {
			if runBatch(n, f).cpu*float64(n) > target {
				return n
			}
		}
		n *= 2
	}
	return n
}

// interleaveN: the ratio is that of CPU time (the collector's work
// counted wherever it runs), wallRatio that of wall time (README,
// "Method").
func interleaveN(rounds, n int, a, b func()) pair {
	var as, bs []batch
	var rs, ws, ows []float64
	runtime.GC() // start each workload from the same heap
	for r := -1; r < rounds; r++ {
		var x, y batch
		if r%2 == 0 {
			x = runBatch(n, a)
			y = runBatch(n, b)
		} else {
			y = runBatch(n, b)
			x = runBatch(n, a)
		}
		if r < 0 {
			continue // a warm-up round: the heap reaches its steady size
		}
		as, bs = append(as, x), append(bs, y)
		rs, ws = append(rs, x.cpu/y.cpu), append(ws, x.wall/y.wall)
		ows = append(ows, x.own/y.own)
	}
	return pair{a: medianBatch(as), b: medianBatch(bs), ratio: median(rs), wallRatio: median(ws), ownRatio: median(ows)}
}

func medianBatch(bs []batch) batch {
	pick := func(f func(batch) float64) float64 {
		x := make([]float64, len(bs))
		for i, b := range bs {
			x[i] = f(b)
		}
		return median(x)
	}
	return batch{
		wall:  pick(func(b batch) float64 { return b.wall }),
		cpu:   pick(func(b batch) float64 { return b.cpu }),
		own:   pick(func(b batch) float64 { return b.own }),
		bytes: pick(func(b batch) float64 { return b.bytes }),
		gcs:   pick(func(b batch) float64 { return b.gcs }),
		flt:   pick(func(b batch) float64 { return b.flt }),
	}
}

func median(x []float64) float64 {
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func BenchmarkInterleaved(b *testing.B) {
	runtime.LockOSThread() // the callers' own CPU time: CLOCK_THREAD_CPUTIME_ID
	defer runtime.UnlockOSThread()
	c, f := benchRuntimes(b)
	defer c.Close()
	cz, _ := benchRuntimes(b, WithZeroCopy(true))
	defer cz.Close()
	rounds := 41
	if s := os.Getenv("WIRE_BENCH_ROUNDS"); s != "" {
		rounds, _ = strconv.Atoi(s)
	}
	w := tabwriter.NewWriter(os.Stdout, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "workload\top\tlibwire cpu ns\tfory-go cpu ns\tratio\twall ratio\tlibwire B/op\tfory-go B/op\tlibwire B\tfory-go B\tsame bytes\t")
	var lines []string
	row := func(name, op string, p pair, extra string) {
		fmt.Fprintf(w, "%s\t%s\t%.0f\t%.0f\t%.2f\t%.2f\t%.0f\t%.0f\t%s\t\n", name, op, p.a.cpu, p.b.cpu,
			p.ratio, p.wallRatio, p.a.bytes, p.b.bytes, extra)
		side := func(x batch) string {
			return fmt.Sprintf("cpu/wall=%.2f other-threads=%.0f%% B/op=%.0f gc/op=%.3f faults/op=%.1f",
				x.cpu/x.wall, 100*(1-x.own/x.cpu), x.bytes, x.gcs, x.flt)
		}
		lines = append(lines, fmt.Sprintf("INFO go %s %s wall ratio=%.2f own-thread ratio=%.2f; libwire %s; fory-go %s",
			name, op, p.wallRatio, p.ownRatio, side(p.a), side(p.b)))
	}
	var bench []string
	var only *regexp.Regexp // WIRE_BENCH_ONLY: the workloads to run (a regexp)
	if s := os.Getenv("WIRE_BENCH_ONLY"); s != "" {
		only = regexp.MustCompile(s)
	}
	for _, wl := range workloads() {
		if only != nil && !only.MatchString(wl.name) {
			continue
		}
		mine, err := c.Marshal(wl.value)
		if err != nil {
			b.Fatalf("%s: %v", wl.name, err)
		}
		theirs, err := f.Serialize(wl.value)
		if err != nil {
			b.Fatalf("%s: fory: %v", wl.name, err)
		}
		theirs = bytes.Clone(theirs)
		same := fmt.Sprint(bytes.Equal(mine, theirs))
		note := ""
		if wl.foryWrong {
			same = "fory-go wrong"
			note = " (fory-go output incorrect: duplicate keys)"
		}
		forIn := theirs
		if wl.foryWrong {
			forIn = mine
		}
		// both decoders must succeed on what they are timed on
		if err := c.Unmarshal(mine, wl.target()); err != nil {
			b.Fatalf("%s: libwire decode: %v", wl.name, err)
		}
		if err := f.Deserialize(forIn, wl.target()); err != nil {
			b.Fatalf("%s: fory decode: %v", wl.name, err)
		}
		var buf []byte
		p := interleave(rounds,
			func() { buf, _ = c.MarshalAppend(buf[:0], wl.value) },
			func() { f.Serialize(wl.value) })
		row(wl.name, "enc", p, fmt.Sprintf("%d\t%d\t%s", len(mine), len(theirs), same))
		bench = append(bench, fmt.Sprintf("BENCH go %s enc ratio=%.2f%s", wl.name, p.ratio, note))
		p = interleave(rounds,
			func() { c.Unmarshal(mine, wl.target()) },
			func() { f.Deserialize(forIn, wl.target()) })
		row(wl.name, "dec", p, "\t\t")
		bench = append(bench, fmt.Sprintf("BENCH go %s dec ratio=%.2f", wl.name, p.ratio))
		if wl.name == "binary_1MiB" || wl.name == "i64_array_100000" {
			// the WithZeroCopy option (views of the input where aligned;
			// Fory Go has no such option and copies): not the BENCH row
			view, _ := c.viewOf(mine, wl.target())
			p = interleave(rounds,
				func() { cz.Unmarshal(mine, wl.target()) },
				func() { f.Deserialize(forIn, wl.target()) })
			row(wl.name, "dec zero-copy", p, "\t\t")
			lines = append(lines, fmt.Sprintf("INFO go %s dec WithZeroCopy (view: %v) ratio=%.2f", wl.name, view, p.ratio))
		}
	}
	// What one empty cgo call costs next to Fory Go's whole NumericStruct
	// encode, under the same load (every libwire message pays one call).
	var nb []byte
	numeric := benchNumeric()
	p := interleave(rounds, cgoNoop, func() { nb, _ = f.Serialize(numeric) })
	row("cgo call", "(empty)", p, "\t\t")
	_ = nb
	w.Flush()
	for _, l := range append(lines, bench...) {
		fmt.Println(l)
	}
	fmt.Printf("INFO go empty cgo call / fory-go NumericStruct enc ratio=%.2f (%.0f ns / %.0f ns CPU)\n", p.ratio, p.a.cpu, p.b.cpu)
}

// viewOf reports whether a WithZeroCopy decode of data into target (a
// pointer to a slice) gives a view of data.
func (c *Context) viewOf(data []byte, target any) (bool, error) {
	z, err := NewContext(WithUTF8Strings(true), WithZeroCopy(true))
	if err != nil {
		return false, err
	}
	defer z.Close()
	if err := z.Unmarshal(data, target); err != nil {
		return false, err
	}
	s := reflect.ValueOf(target).Elem()
	return s.Len() > 0 && inside(s.UnsafePointer(), s.Len()*int(s.Type().Elem().Size()), data), nil
}

// BenchmarkMarshal and BenchmarkUnmarshal time libwire alone per workload
// (for pprof: -cpuprofile).
func BenchmarkMarshal(b *testing.B) {
	c, _ := benchRuntimes(b)
	defer c.Close()
	for _, wl := range workloads() {
		b.Run(wl.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := c.Marshal(wl.value); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkUnmarshal(b *testing.B) {
	c, _ := benchRuntimes(b)
	defer c.Close()
	for _, wl := range workloads() {
		data, _ := c.Marshal(wl.value)
		b.Run(wl.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if err := c.Unmarshal(data, wl.target()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCgoCall is the cost of one trivial cgo call (wire_version_number).
func BenchmarkCgoCall(b *testing.B) {
	for i := 0; i < b.N; i++ {
		cgoNoop()
	}
}

// BenchmarkStructs and BenchmarkDynamic time each workload alone the way
// the interleaved benchmark does (MarshalAppend into a reused buffer;
// decode into a fresh value), Fory Go's sides too, for profiling:
// -run '^$' -bench 'Structs/MediaContent/^enc$' -cpuprofile, perf record
// or valgrind --tool=callgrind.
func BenchmarkStructs(b *testing.B) { benchAlone(b, workloads()[:3]) }

func BenchmarkDynamic(b *testing.B) { benchAlone(b, workloads()[3:]) }

func benchAlone(b *testing.B, wls []workload) {
	c, f := benchRuntimes(b)
	defer c.Close()
	for _, wl := range wls {
		data, _ := c.Marshal(wl.value)
		theirs, _ := f.Serialize(wl.value)
		theirs = bytes.Clone(theirs)
		if wl.foryWrong {
			theirs = data
		}
		b.Run(wl.name+"/fory-enc", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				f.Serialize(wl.value)
			}
		})
		b.Run(wl.name+"/fory-dec", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				f.Deserialize(theirs, wl.target())
			}
		})
		b.Run(wl.name+"/enc", func(b *testing.B) {
			var buf []byte
			for i := 0; i < b.N; i++ {
				buf, _ = c.MarshalAppend(buf[:0], wl.value)
			}
		})
		b.Run(wl.name+"/dec", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if err := c.Unmarshal(data, wl.target()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPinVsCopy: handing a Go string of n bytes to C by pinning it
// (runtime.Pinner, pin and unpin) against copying it into C memory, the
// two ways the compiled-codec path has (mem.go, pinMin).
func BenchmarkPinVsCopy(b *testing.B) {
	var a carena
	defer a.free()
	for _, n := range []int{16, 256, 1024, 4096} {
		s := strings.Repeat("x", n)
		b.Run(fmt.Sprintf("pin/%d", n), func(b *testing.B) {
			var p runtime.Pinner
			for i := 0; i < b.N; i++ {
				p.Pin(unsafe.StringData(s))
				p.Unpin()
			}
		})
		b.Run(fmt.Sprintf("copy/%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				a.reset()
				d := a.alloc(uintptr(n), 1)
				copy(unsafe.Slice((*byte)(d), n), s)
			}
		})
	}
}

// BenchmarkDenseDecodeAB times, in one process with interleaved batches,
// the i64_array_100000 and binary_1MiB decodes with the copy of round 5
// (from copyStreamMin bytes on: memory not zeroed first, streaming
// stores) against the append of a nil slice (copyStreamMin out of reach),
// and prints `INFO go <workload> dec stream/append ratio=...`:
//
//	go test -run '^$' -bench DenseDecodeAB -benchtime 1x .
func BenchmarkDenseDecodeAB(b *testing.B) {
	c, _ := benchRuntimes(b)
	defer c.Close()
	defer func(m int) { copyStreamMin = m }(copyStreamMin)
	streamMin := copyStreamMin
	for _, wl := range workloads()[5:7] {
		data, err := c.Marshal(wl.value)
		if err != nil {
			b.Fatal(err)
		}
		p := interleave(201,
			func() { copyStreamMin = streamMin; c.Unmarshal(data, wl.target()) },
			func() { copyStreamMin = 1 << 62; c.Unmarshal(data, wl.target()) })
		fmt.Printf("INFO go %s dec stream/append ratio=%.2f (%.0f ns / %.0f ns CPU), wall ratio=%.2f\n",
			wl.name, p.ratio, p.a.cpu, p.b.cpu, p.wallRatio)
	}
}

// BenchmarkEncodeDirectAB times, interleaved in one process (CPU time),
// MarshalAppend into a reused buffer with the payload encoded straight
// into the buffer's spare capacity (directMin) against through the
// session's writer and a copy out, and prints `INFO go <workload> enc
// direct/copy ratio=...`:
//
//	go test -run '^$' -bench EncodeDirectAB -benchtime 1x .
func BenchmarkEncodeDirectAB(b *testing.B) {
	c, _ := benchRuntimes(b)
	defer c.Close()
	defer func(m int) { directMin = m }(directMin)
	min := directMin
	for _, wl := range workloads()[3:] {
		var b1, b2 []byte
		p := interleave(41,
			func() { directMin = min; b1, _ = c.MarshalAppend(b1[:0], wl.value) },
			func() { directMin = 1 << 62; b2, _ = c.MarshalAppend(b2[:0], wl.value) })
		fmt.Printf("INFO go %s enc direct/copy ratio=%.2f (%.0f ns / %.0f ns CPU), wall ratio=%.2f\n",
			wl.name, p.ratio, p.a.cpu, p.b.cpu, p.wallRatio)
	}
}

// BenchmarkLargeAllocs: an 800 KB allocation and copy per call alone, and
// with one small allocation per call besides (what the decoder did for
// every dense array until round 5: a slice header on the heap). With the
// small one the heap fragments, the runtime returns pages to the OS and
// faults them in again: count with
// `perf stat -e page-faults,syscalls:sys_enter_madvise` per sub-benchmark.
func BenchmarkLargeAllocs(b *testing.B) {
	src := i64Array(100000)
	var keep []int64
	var small *[]int64
	b.Run("large", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			keep = append([]int64(nil), src...)
		}
	})
	b.Run("large+small", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			small = new([]int64)
			keep = append([]int64(nil), src...)
		}
	})
	_, _ = keep, small
}

// BenchmarkAllocCopyAB: the floor of a decode that returns a new 1 MiB
// slice, in pure Go, timed interleaved (CPU time): memory not zeroed
// first (noZero, as the decoder) and copied, with and without an empty
// cgo call per message, and append to a nil slice, each against make
// (zeroed) and copy, as Fory Go does. Prints `INFO go alloc+copy 1MiB
// <a>/make ratio=...` with each side's share of CPU time on other
// threads (the collector's workers, the sweeper):
//
//	go test -run '^$' -bench AllocCopyAB -benchtime 1x .
func BenchmarkAllocCopyAB(b *testing.B) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	src := binary1MiB()
	var keep []byte
	nz := func() {
		p, c := noZero(len(src))
		s := unsafe.Slice((*byte)(p), c)[:len(src)]
		copy(s, src)
		keep = s
	}
	mk := func() {
		s := make([]byte, len(src))
		copy(s, src)
		keep = s
	}
	for _, c := range []struct {
		name string
		a    func()
	}{
		{"noZero", nz},
		{"cgo+noZero", func() { cgoNoop(); nz() }},
		{"append", func() { keep = append([]byte(nil), src...) }},
	} {
		p := interleave(41, c.a, mk)
		fmt.Printf("INFO go alloc+copy 1MiB %s/make ratio=%.2f own-thread ratio=%.2f other-threads %.0f%% / %.0f%%\n",
			c.name, p.ratio, p.ownRatio, 100*(1-p.a.own/p.a.cpu), 100*(1-p.b.own/p.b.cpu))
	}
	_ = keep
}

// BenchmarkCgoLongCallAB tests whether a long cgo call costs the decoders
// scheduler work beyond its own time (the runtime's sysmon retakes a P
// whose goroutine has been in a cgo call for over 20 µs and hands it to
// another thread), and what the one cgo call per message costs the 1 MiB
// binary decode, in CPU time of the process, interleaved (ROUNDS.md, round
// 7). Prints `INFO go cgo ...` lines:
//
//	go test -run '^$' -bench CgoLongCallAB -benchtime 1x .
func BenchmarkCgoLongCallAB(b *testing.B) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c, _ := benchRuntimes(b)
	defer c.Close()
	// the map's C pass: one call over 10,000 entries (~100 µs) against
	// five calls over 2,000 entries each, with and without a 512 KiB
	// allocation per message (a collection every few messages, as in the
	// decode)
	all := mapStrI64(10000)
	big, _ := c.Marshal(all)
	parts := make([]map[string]int64, 5)
	for i := range parts {
		parts[i] = map[string]int64{}
	}
	i := 0
	for k, v := range all {
		parts[i%5][k] = v
		i++
	}
	var small [][]byte
	for _, m := range parts {
		p, _ := c.Marshal(m)
		small = append(small, p)
	}
	var keep []byte
	for _, alloc := range []bool{false, true} {
		one := func() {
			c.decodeTapeOnly(big)
			if alloc {
				keep = make([]byte, 512<<10)
			}
		}
		five := func() {
			for _, p := range small {
				c.decodeTapeOnly(p)
			}
			if alloc {
				keep = make([]byte, 512<<10)
			}
		}
		p := interleave(41, one, five)
		fmt.Printf("INFO go cgo one 10000-entry tape call / five 2000-entry calls (512 KiB alloc: %v) ratio=%.2f own-thread ratio=%.2f (%.0f / %.0f ns) other-threads %.0f%% / %.0f%%\n",
			alloc, p.ratio, p.ownRatio, p.a.cpu, p.b.cpu, 100*(1-p.a.own/p.a.cpu), 100*(1-p.b.own/p.b.cpu))
	}
	// the binary decode against its floor in pure Go (the same allocation
	// and streaming copy, no cgo call), and that floor with an empty cgo
	// call added
	src := binary1MiB()
	payload, _ := c.Marshal(src)
	goOnly := func() {
		p, n := noZero(len(src))
		stream.Copy(p, unsafe.Pointer(unsafe.SliceData(src)), len(src))
		keep = unsafe.Slice((*byte)(p), n)[:len(src)]
	}
	var out []byte
	for _, x := range []struct {
		name string
		a, b func()
	}{
		{"Unmarshal binary_1MiB / alloc+copy in Go", func() { c.Unmarshal(payload, &out) }, goOnly},
		{"alloc+copy 1MiB with / without an empty cgo call", func() { cgoNoop(); goOnly() }, goOnly},
	} {
		p := interleave(41, x.a, x.b)
		fmt.Printf("INFO go cgo %s ratio=%.2f own-thread ratio=%.2f (%.0f / %.0f ns) other-threads %.0f%% / %.0f%%\n",
			x.name, p.ratio, p.ownRatio, p.a.cpu, p.b.cpu, 100*(1-p.a.own/p.a.cpu), 100*(1-p.b.own/p.b.cpu))
	}
	_, _ = keep, out
}
