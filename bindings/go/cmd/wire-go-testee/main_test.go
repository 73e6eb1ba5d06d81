package main

// The testee against the xlang corpus (fixtures/xlang-corpus): the same
// checks as libwire/tests/py/test_xlang_corpus.py, through the protocol.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

var root = func() string { r, _ := filepath.Abs("../../../.."); return r }()

// Bytes a runtime writes that do not follow the case's schema.
var broken = map[[2]string]string{
	{"test_skip_name_custom", "pyfory"}: "varint",
}

var stripKeys = map[string]bool{"enc": true, "header": true, "chunks": true, "tracked": true, "approx": true,
	"iso": true, "typedef": true, "ns_enc": true, "name_enc": true, "ns_hash": true, "name_hash": true,
	"ns_xref": true, "name_xref": true}

func strip(v any, anchors map[string]string) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = strip(x[i], anchors)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		// anchors are renamed by first use in document order; JSON objects
		// from encoding/json lose key order, so visit keys sorted with the
		// type key's nested values first.
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if stripKeys[k] {
				continue
			}
			if k == "anchor" || k == "ref" {
				s := x[k].(string)
				if _, ok := anchors[s]; !ok {
					anchors[s] = fmt.Sprintf("a%d", len(anchors))
				}
				out[k] = anchors[s]
				continue
			}
			out[k] = strip(x[k], anchors)
		}
		return out
	}
	return v
}

type corpusCase struct {
	Case   string            `json:"case"`
	Mode   string            `json:"mode"`
	Ref    bool              `json:"ref"`
	Schema string            `json:"schema"`
	Roots  []json.RawMessage `json:"roots"`
	Hex    map[string]string `json:"-"`
	Py     string            `json:"pyfory_hex"`
	Java   string            `json:"java_hex"`
}

func cases(t *testing.T) []corpusCase {
	paths, _ := filepath.Glob(filepath.Join(root, "fixtures/xlang-corpus/*.json"))
	if len(paths) == 0 {
		t.Fatal("no corpus")
	}
	var out []corpusCase
	for _, p := range paths {
		b, _ := os.ReadFile(p)
		var c corpusCase
		if err := json.Unmarshal(b, &c); err != nil {
			t.Fatal(p, err)
		}
		c.Hex = map[string]string{"pyfory": c.Py, "java": c.Java}
		out = append(out, c)
	}
	return out
}

type reply struct {
	ID     any               `json:"id"`
	OK     bool              `json:"ok"`
	Hex    string            `json:"hex"`
	Values []json.RawMessage `json:"values"`
	Class  string            `json:"class"`
	Msg    string            `json:"message"`
}

func call(t *testing.T, s *server, req map[string]any) reply {
	t.Helper()
	b, _ := json.Marshal(req)
	out := s.handle(b).String()
	var r reply
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("bad reply %s: %v", out, err)
	}
	return r
}

func config(c corpusCase) map[string]any {
	return map[string]any{"ref": c.Ref, "compatible": c.Mode == "compatible"}
}

func normalize(t *testing.T, raws []json.RawMessage) any {
	var vals []any
	for _, r := range raws {
		var v any
		if err := json.Unmarshal(r, &v); err != nil {
			t.Fatal(err)
		}
		vals = append(vals, strip(v, map[string]string{}))
	}
	return vals
}

func TestCorpusReadsAndRewrites(t *testing.T) {
	s := &server{root: root, ctxs: map[string]*wireCtx{}}
	for _, c := range cases(t) {
		for _, rt := range []string{"pyfory", "java"} {
			hx := c.Hex[rt]
			if hx == "" {
				continue
			}
			r := call(t, s, map[string]any{"id": 1, "op": "decode", "config": config(c), "schemas": []string{c.Schema}, "hex": hx})
			if cl, ok := broken[[2]string{c.Case, rt}]; ok {
				if r.OK || r.Class != cl {
					t.Errorf("%s/%s: want class %s, got %+v", c.Case, rt, cl, r)
				}
				continue
			}
			if !r.OK {
				t.Errorf("%s/%s: decode failed: %s %s", c.Case, rt, r.Class, r.Msg)
				continue
			}
			if got, want := normalize(t, r.Values), normalize(t, c.Roots); !reflect.DeepEqual(got, want) {
				t.Errorf("%s/%s: decoded values differ:\n got %s\nwant %s", c.Case, rt, r.Values, c.Roots)
			}
			again := call(t, s, map[string]any{"id": 2, "op": "encode", "config": config(c), "schemas": []string{c.Schema}, "values": r.Values})
			if !again.OK || again.Hex != hx {
				t.Errorf("%s/%s: decode|encode not lossless: %+v", c.Case, rt, again)
			}
		}
	}
}

func TestCorpusWritesJavaBytes(t *testing.T) {
	s := &server{root: root, ctxs: map[string]*wireCtx{}}
	for _, c := range cases(t) {
		r := call(t, s, map[string]any{"id": 3, "op": "encode", "config": config(c), "schemas": []string{c.Schema}, "values": c.Roots})
		want := c.Java
		if want == "" {
			want = c.Py
		}
		if !r.OK || r.Hex != want {
			t.Errorf("%s: encode gave %+v, want %s", c.Case, r, want)
		}
	}
}

func TestCorpusOtherSchemaVersionAndSchemaLess(t *testing.T) {
	s := &server{root: root, ctxs: map[string]*wireCtx{}}
	for _, c := range cases(t) {
		if c.Mode != "compatible" {
			continue
		}
		hx := c.Java
		if hx == "" {
			hx = c.Py
		}
		reader := strings.TrimSuffix(c.Schema, ".fdl") + ".reader.fdl"
		var schemaSets [][]string
		if _, err := os.Stat(filepath.Join(root, reader)); err == nil {
			schemaSets = append(schemaSets, []string{reader})
		}
		schemaSets = append(schemaSets, nil)
		for _, schemas := range schemaSets {
			r := call(t, s, map[string]any{"id": 4, "op": "decode", "config": config(c), "schemas": schemas, "hex": hx})
			if !r.OK {
				if schemas == nil && r.Class == "unsupported" && strings.Contains(string(mustJSON(c.Roots)), `"ext"`) {
					continue // an ext body needs the schema
				}
				t.Errorf("%s %v: decode failed: %+v", c.Case, schemas, r)
				continue
			}
			again := call(t, s, map[string]any{"id": 5, "op": "encode", "config": config(c), "schemas": schemas, "values": r.Values})
			if !again.OK || again.Hex != hx {
				t.Errorf("%s %v: not lossless: %+v", c.Case, schemas, again)
			}
		}
	}
}

func mustJSON(v any) []byte { b, _ := json.Marshal(v); return b }

func TestProtocolErrors(t *testing.T) {
	s := &server{root: root, ctxs: map[string]*wireCtx{}}
	cfg := map[string]any{"ref": false, "compatible": false}
	for _, tc := range []struct {
		req   map[string]any
		class string
	}{
		{map[string]any{"id": 1, "op": "decode", "config": cfg, "hex": "01ff15"}, "truncated"},
		{map[string]any{"id": 2, "op": "decode", "config": cfg, "hex": "02ff0101"}, "header"},
		{map[string]any{"id": 3, "op": "encode", "config": cfg, "values": []any{map[string]any{"int8": "300"}}}, "notation"}, // libwire's parser: a value the notation cannot write
		{map[string]any{"id": 4, "op": "encode", "config": cfg, "values": []any{map[string]any{"bogus": 1}}}, "notation"},
		{map[string]any{"id": 5, "op": "frobnicate", "config": cfg}, "unsupported"},
		{map[string]any{"id": 6, "op": "decode", "config": cfg, "schemas": []string{"fixtures/schemas/fdl-tests/broken/nope.fdl"}, "hex": ""}, ""},
	} {
		r := call(t, s, tc.req)
		if r.OK || (tc.class != "" && r.Class != tc.class) {
			t.Errorf("%v: got %+v, want class %q", tc.req, r, tc.class)
		}
	}
	// libwire treats an empty payload as truncated (no header).
	r := call(t, s, map[string]any{"id": 7, "op": "decode", "config": cfg, "hex": ""})
	if r.OK || r.Class != "truncated" {
		t.Errorf("empty payload: %+v", r)
	}
	r = call(t, s, map[string]any{"id": 8, "op": "encode", "config": cfg, "values": []any{
		map[string]any{"list": []any{map[string]any{"varint64": "1"}, map[string]any{"string": "a"}, map[string]any{"null": nil}}}}})
	if !r.OK || r.Hex != "01ff160302ff0702ff150461fd" {
		t.Errorf("encode: %+v", r)
	}
}

// The binary speaks the protocol over stdin/stdout.
func TestBinaryHelloAndEOF(t *testing.T) {
	exe := filepath.Join(t.TempDir(), "wire-go-testee")
	if out, err := exec.Command("go", "build", "-o", exe, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	cmd := exec.Command(exe)
	cmd.Dir = root
	cmd.Stdin = strings.NewReader(`{"id": 1, "op": "decode", "config": {"ref": false, "compatible": false}, "hex": "01ff0101"}` + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(lines) != 2 || !strings.Contains(lines[0], `"hello"`) || !strings.Contains(lines[0], `"capabilities"`) {
		t.Fatalf("output %q", out)
	}
	var r reply
	json.Unmarshal([]byte(lines[1]), &r)
	if !r.OK || string(r.Values[0]) != `{"bool":true}` && !strings.Contains(string(r.Values[0]), `"bool": true`) {
		t.Fatalf("reply %s", lines[1])
	}
}

// The notation printed here is the wire CLI's, annotations included (when
// the CLI has been built: make all).
func TestSameNotationAsCLI(t *testing.T) {
	cli := filepath.Join(root, "build/bin/wire")
	if _, err := os.Stat(cli); err != nil {
		t.Skip("build/bin/wire not built")
	}
	s := &server{root: root, ctxs: map[string]*wireCtx{}}
	n := 0
	for _, c := range cases(t) {
		for _, rt := range []string{"pyfory", "java"} {
			hx := c.Hex[rt]
			if hx == "" || broken[[2]string{c.Case, rt}] != "" {
				continue
			}
			args := []string{"decode", "--hex", "--schema", filepath.Join(root, c.Schema)}
			if c.Mode == "compatible" {
				args = append(args, "--compatible")
			}
			if c.Ref {
				args = append(args, "--ref")
			}
			cmd := exec.Command(cli, args...)
			cmd.Stdin = strings.NewReader(hx)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s: wire decode: %v", c.Case, err)
			}
			var want []any
			for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				var v any
				json.Unmarshal([]byte(line), &v)
				want = append(want, v)
			}
			r := call(t, s, map[string]any{"id": 1, "op": "decode", "config": config(c), "schemas": []string{c.Schema}, "hex": hx})
			var got []any
			for _, raw := range r.Values {
				var v any
				json.Unmarshal(raw, &v)
				got = append(got, v)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s/%s:\n go  %s\n cli %s", c.Case, rt, mustJSON(got), mustJSON(want))
			}
			n++
		}
	}
	t.Logf("%d payloads printed identically", n)
}
