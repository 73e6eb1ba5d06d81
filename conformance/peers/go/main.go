// Command go-peer is the conformance testee that drives the Apache Fory Go
// runtime (github.com/apache/fory/go/fory) over the JSON-lines protocol of
// conformance/PROTOCOL.md. See README.md in this directory.
//
// Process layout: by default the process started by the runner is a small
// supervisor. It starts a copy of itself with -worker, hands every request
// line to it and copies the answer back. The Fory Go runtime can kill the
// process (a cyclic value written without reference tracking overflows the
// goroutine stack, which Go cannot recover from); the supervisor then answers
// that request with an error and starts a new worker. -no-isolate serves the
// requests in the first process instead.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"time"
)

const runtimeModule = "github.com/apache/fory/go/fory"

type options struct {
	worker         bool
	noIsolate      bool
	timeout        time.Duration
	maxDepth       int
	allowUnordered bool
	root           string
}

func main() {
	var opts options
	var timeoutSec float64
	flag.BoolVar(&opts.worker, "worker", false, "serve requests in this process (used by the supervisor)")
	flag.BoolVar(&opts.noIsolate, "no-isolate", false, "serve requests in this process instead of a worker child")
	flag.Float64Var(&timeoutSec, "timeout", 60, "per-request time limit in seconds (isolated mode)")
	flag.IntVar(&opts.maxDepth, "max-depth", 0, "fory.WithMaxDepth value (0: the runtime's default)")
	flag.BoolVar(&opts.allowUnordered, "allow-unordered", false,
		"encode/decode maps and sets of 2+ entries although Go maps do not keep the entry order")
	flag.StringVar(&opts.root, "root", "", "the repository root (request schema paths are relative to it)")
	flag.Parse()
	opts.timeout = time.Duration(timeoutSec * float64(time.Second))

	if opts.worker || opts.noIsolate {
		os.Exit(serve(os.Stdin, os.Stdout, opts, !opts.worker))
	}
	os.Exit(supervise(opts))
}

func runtimeVersion() string {
	info, ok := debug.ReadBuildInfo()
	if ok {
		for _, dep := range info.Deps {
			if dep.Path == runtimeModule {
				if dep.Replace != nil {
					return dep.Replace.Version
				}
				return dep.Version
			}
		}
	}
	return "unknown"
}

func helloLine() []byte {
	hello := map[string]any{"hello": map[string]any{
		"name":         "go",
		"runtime":      runtimeModule,
		"version":      runtimeVersion(),
		"capabilities": capabilities(),
	}}
	return marshalLine(hello)
}

// capabilities: the built-in types the peer maps, and the user types when
// the build has them (zz_usertypes.go).
func capabilities() []string {
	caps := []string{"ref_tracking", "compatible", "decimal", "temporal", "dense_array", "unsigned",
		"float16", "bfloat16", "meta_string"}
	if len(generatedUnits) > 0 {
		caps = append(caps, "schema", "struct", "enum", "union", "named_types", "typedef", "evolution", "peer")
	}
	return caps
}

// marshalLine renders v as one JSON line (no HTML escaping, trailing newline).
func marshalLine(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		buf.Reset()
		fallback := map[string]any{"id": nil, "ok": false, "class": "error",
			"message": "cannot render response: " + err.Error()}
		enc.Encode(fallback)
	}
	return buf.Bytes()
}

func newLineReader(r io.Reader) *bufio.Reader {
	return bufio.NewReaderSize(r, 1<<20)
}

// readLine returns the next line without its newline; io.EOF at the end.
func readLine(r *bufio.Reader) ([]byte, error) {
	line, err := r.ReadBytes('\n')
	if err == io.EOF && len(line) > 0 {
		return bytes.TrimRight(line, "\r\n"), nil
	}
	if err != nil {
		return nil, err
	}
	return bytes.TrimRight(line, "\r\n"), nil
}

// serve answers requests read from in until EOF. printHello says whether it
// prints the hello line itself (not in worker mode: the supervisor does).
func serve(in io.Reader, out io.Writer, opts options, printHello bool) int {
	w := bufio.NewWriter(out)
	if printHello {
		w.Write(helloLine())
		w.Flush()
	}
	r := newLineReader(in)
	p := newPeer(opts)
	for {
		line, err := readLine(r)
		if err != nil {
			if err != io.EOF {
				fmt.Fprintln(os.Stderr, "go-peer: read:", err)
				return 1
			}
			return 0
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		w.Write(marshalLine(p.handleLine(line)))
		w.Flush()
	}
}

// ---------------------------------------------------------------------------
// Supervisor.
// ---------------------------------------------------------------------------

type worker struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte // answer lines; closed when the worker's stdout ends
	stderr *tailBuffer
}

// tailBuffer keeps the first bytes the worker wrote to stderr (where the Go
// runtime puts the reason of a fatal error) and copies everything to our own
// stderr.
type tailBuffer struct {
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	os.Stderr.Write(p)
	if room := 4096 - len(t.buf); room > 0 {
		if len(p) < room {
			room = len(p)
		}
		t.buf = append(t.buf, p[:room]...)
	}
	return len(p), nil
}

func (t *tailBuffer) firstLine() string {
	s := strings.TrimSpace(string(t.buf))
	// The Go runtime's fatal errors start with "fatal error: ..." or
	// "runtime: ..."; report the most telling line.
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "fatal error:") || strings.HasPrefix(l, "panic:") {
			return strings.TrimSpace(l)
		}
	}
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

func startWorker(opts options) (*worker, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	args := []string{"-worker", fmt.Sprintf("-max-depth=%d", opts.maxDepth), "-root=" + opts.root}
	if opts.allowUnordered {
		args = append(args, "-allow-unordered")
	}
	cmd := exec.Command(exe, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	wk := &worker{cmd: cmd, stdin: stdin, lines: make(chan []byte), stderr: &tailBuffer{}}
	cmd.Stderr = wk.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		r := newLineReader(stdout)
		for {
			line, err := readLine(r)
			if err != nil {
				close(wk.lines)
				return
			}
			wk.lines <- append([]byte(nil), line...)
		}
	}()
	return wk, nil
}

func (wk *worker) stop(kill bool) {
	wk.stdin.Close()
	if kill {
		wk.cmd.Process.Kill()
	}
	for range wk.lines {
	}
	wk.cmd.Wait()
}

func supervise(opts options) int {
	out := bufio.NewWriter(os.Stdout)
	out.Write(helloLine())
	out.Flush()
	r := newLineReader(os.Stdin)
	var wk *worker
	defer func() {
		if wk != nil {
			wk.stop(false)
		}
	}()
	for {
		line, err := readLine(r)
		if err != nil {
			if err != io.EOF {
				fmt.Fprintln(os.Stderr, "go-peer: read:", err)
				return 1
			}
			return 0
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if wk == nil {
			wk, err = startWorker(opts)
			if err != nil {
				fmt.Fprintln(os.Stderr, "go-peer: cannot start worker:", err)
				return 1
			}
		}
		resp, crashed := forward(wk, line, opts.timeout)
		if crashed {
			wk = nil
		}
		if resp == nil {
			// The worker had died before this request: retry once with a new one.
			if wk, err = startWorker(opts); err != nil {
				fmt.Fprintln(os.Stderr, "go-peer: cannot start worker:", err)
				return 1
			}
			if resp, crashed = forward(wk, line, opts.timeout); crashed {
				wk = nil
			}
			if resp == nil {
				resp = marshalLine(map[string]any{"id": requestID(line), "ok": false, "class": "error",
					"message": "cannot hand the request to a worker process"})
			}
		}
		out.Write(resp)
		out.Flush()
	}
}

// forward sends one request line to the worker and returns the answer line.
// crashed reports that the worker is gone (it died or was killed); a nil
// answer means the request could not be handed over at all.
func forward(wk *worker, line []byte, timeout time.Duration) ([]byte, bool) {
	id := requestID(line)
	fail := func(msg string) []byte {
		return marshalLine(map[string]any{"id": id, "ok": false, "class": "error", "message": msg})
	}
	if _, err := wk.stdin.Write(append(append([]byte(nil), line...), '\n')); err != nil {
		wk.stop(true)
		return nil, true
	}
	var timer <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		timer = t.C
	}
	select {
	case ans, ok := <-wk.lines:
		if ok {
			return append(ans, '\n'), false
		}
		wk.stop(false)
		msg := "the Fory Go runtime killed the process"
		if tail := wk.stderr.firstLine(); tail != "" {
			msg += ": " + tail
		}
		if st := wk.cmd.ProcessState; st != nil {
			msg += fmt.Sprintf(" (%s)", st.String())
		}
		return fail(msg), true
	case <-timer:
		wk.stop(true)
		return fail(fmt.Sprintf("timeout after %s", timeout)), true
	}
}

// requestID extracts the "id" member of a request line (nil if unreadable).
func requestID(line []byte) any {
	var req struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &req) != nil || len(req.ID) == 0 {
		return nil
	}
	return req.ID
}
