package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strconv"

	"github.com/apache/fory/go/fory"
)

// unsupportedError: the request cannot be expressed with Go values the Fory
// Go runtime writes, or the decoded Go value has no notation.
type unsupportedError struct{ msg string }

func (e *unsupportedError) Error() string { return e.msg }

// requestError: the request or its notation is malformed.
type requestError struct{ msg string }

func (e *requestError) Error() string { return e.msg }

func unsupportedf(format string, args ...any) error {
	return &unsupportedError{fmt.Sprintf(format, args...)}
}

func requestErrorf(format string, args ...any) error {
	return &requestError{fmt.Sprintf(format, args...)}
}

// runtimeError wraps an error returned (or a panic raised) by the runtime.
type runtimeError struct {
	err    error
	root   int
	offset int
}

func (e *runtimeError) Error() string {
	if e.offset >= 0 {
		return fmt.Sprintf("%v (root %d at byte %d)", e.err, e.root, e.offset)
	}
	return e.err.Error()
}

type config struct {
	ref        bool
	compatible bool
}

type peer struct {
	opts      options
	cache     map[config]*fory.Fory
	userTypes *userTypes
}

func newPeer(opts options) *peer {
	return &peer{opts: opts, cache: map[config]*fory.Fory{}, userTypes: loadUserTypes(opts.root)}
}

func (p *peer) fory(c config) *fory.Fory {
	f := p.cache[c]
	if f == nil {
		fopts := []fory.Option{
			fory.WithXlang(true),
			fory.WithTrackRef(c.ref),
			fory.WithCompatible(c.compatible),
		}
		if p.opts.maxDepth > 0 {
			fopts = append(fopts, fory.WithMaxDepth(p.opts.maxDepth))
		}
		f = fory.New(fopts...)
		p.cache[c] = f
	}
	return f
}

type request struct {
	ID      json.RawMessage   `json:"id"`
	Op      *string           `json:"op"`
	Config  json.RawMessage   `json:"config"`
	Schemas []string          `json:"schemas"`
	Values  []json.RawMessage `json:"values"`
	Hex     *string           `json:"hex"`
	Project bool              `json:"project"`
}

// handleLine answers one request line; the result is the response object.
func (p *peer) handleLine(line []byte) (resp map[string]any) {
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		return map[string]any{"id": nil, "ok": false, "class": "error",
			"message": "bad request: " + err.Error()}
	}
	var id any
	if len(req.ID) > 0 {
		id = req.ID
	}
	var cfg config
	defer func() {
		if r := recover(); r != nil {
			delete(p.cache, cfg)
			resp = map[string]any{"id": id, "ok": false, "class": "error",
				"message": fmt.Sprintf("panic: %v", r)}
		}
	}()
	body, err := p.handle(&req, line, &cfg)
	if err != nil {
		var rt *runtimeError
		if errors.As(err, &rt) {
			// Do not reuse an instance after a failure.
			delete(p.cache, cfg)
		}
		return map[string]any{"id": id, "ok": false, "class": classify(err), "message": err.Error()}
	}
	resp = map[string]any{"id": id, "ok": true}
	for k, v := range body {
		resp[k] = v
	}
	return resp
}

func (p *peer) handle(req *request, line []byte, cfg *config) (map[string]any, error) {
	if req.Op == nil {
		return nil, requestErrorf("request has no op")
	}
	c, err := parseConfig(req.Config)
	if err != nil {
		return nil, err
	}
	*cfg = c
	if len(req.Schemas) > 0 {
		if p.userTypes == nil {
			return nil, unsupportedf("the Go peer was built without user types (schemas given)")
		}
		if err := checkSurrogates(line); err != nil {
			return nil, err
		}
		return p.typed(req, c)
	}
	switch *req.Op {
	case "encode":
		if err := checkSurrogates(line); err != nil {
			return nil, err
		}
		return p.encode(req, c)
	case "decode":
		return p.decode(req, c)
	default:
		return nil, requestErrorf("unknown op %q", *req.Op)
	}
}

func parseConfig(raw json.RawMessage) (config, error) {
	var c config
	if len(raw) == 0 || string(raw) == "null" {
		return c, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return c, requestErrorf("config must be an object")
	}
	for key, dst := range map[string]*bool{"ref": &c.ref, "compatible": &c.compatible} {
		v, ok := m[key]
		if !ok || string(v) == "null" {
			continue
		}
		if err := json.Unmarshal(v, dst); err != nil {
			return c, requestErrorf("config.%s must be a boolean", key)
		}
	}
	return c, nil
}

func (p *peer) encode(req *request, c config) (map[string]any, error) {
	if req.Values == nil {
		return nil, requestErrorf("encode needs a values array")
	}
	roots := make([]any, len(req.Values))
	for i, raw := range req.Values {
		node, err := decodeJSON(raw)
		if err != nil {
			return nil, err
		}
		b := newBuilder(p.opts.allowUnordered)
		v, err := b.build(node, false)
		if err != nil {
			return nil, err
		}
		if b.cyclic && !c.ref {
			return nil, requestErrorf("cyclic value with ref=false (the Fory Go runtime would overflow the goroutine stack)")
		}
		roots[i] = rootValue(v)
	}
	f := p.fory(c)
	var out bytes.Buffer
	for i, v := range roots {
		data, err := f.Serialize(v)
		if err != nil {
			return nil, &runtimeError{err: err, root: i, offset: -1}
		}
		out.Write(data) // data is a view of the runtime's buffer: copy now
	}
	return map[string]any{"hex": hex.EncodeToString(out.Bytes())}, nil
}

// rootValue adapts a value for Fory.Serialize, which refuses struct values at
// the root except fory.Date and time.Time.
func rootValue(v any) any {
	if d, ok := v.(fory.Decimal); ok {
		return &d
	}
	return v
}

func (p *peer) decode(req *request, c config) (map[string]any, error) {
	if req.Hex == nil {
		return nil, requestErrorf("decode needs a hex string")
	}
	data, err := hex.DecodeString(*req.Hex)
	if err != nil {
		return nil, requestErrorf("bad hex input: %v", err)
	}
	f := p.fory(c)
	buf := fory.NewByteBuffer(data)
	values := []any{}
	for buf.ReaderIndex() < len(data) {
		start := buf.ReaderIndex()
		var obj any
		if err := f.DeserializeFrom(buf, &obj); err != nil {
			return nil, &runtimeError{err: err, root: len(values), offset: start}
		}
		if buf.ReaderIndex() <= start {
			return nil, requestErrorf("the runtime made no progress at byte %d", start)
		}
		node, err := newPrinter(obj, p.opts.allowUnordered).root(obj, rootTypeID(data, start))
		if err != nil {
			return nil, err
		}
		values = append(values, node)
	}
	return map[string]any{"values": values}, nil
}

// rootTypeID returns the type id byte of the root that starts at start, or
// -1 when the root is a null or a reference.
func rootTypeID(data []byte, start int) int {
	if start+2 >= len(data) {
		return -1
	}
	flag := data[start+1]
	if flag != 0xff && flag != 0x00 {
		return -1
	}
	return int(data[start+2])
}

// typed serves a request with schemas through foryc's generated types.
func (p *peer) typed(req *request, c config) (map[string]any, error) {
	unit, err := p.userTypes.unit(req.Schemas)
	if err != nil {
		return nil, err
	}
	f, err := unit.fory(c, p.opts.maxDepth)
	if err != nil {
		return nil, err
	}
	switch *req.Op {
	case "encode":
		if req.Values == nil {
			return nil, requestErrorf("encode needs a values array")
		}
		roots := make([]any, len(req.Values))
		for i, raw := range req.Values {
			node, err := decodeJSON(raw)
			if err != nil {
				return nil, err
			}
			b := &typedBuilder{unit: unit, untyped: newBuilder(p.opts.allowUnordered),
				anchors: map[string]reflect.Value{}, allowUnordered: p.opts.allowUnordered}
			if roots[i], err = b.root(node); err != nil {
				return nil, err
			}
		}
		var out bytes.Buffer
		for i, v := range roots {
			data, err := f.Serialize(rootValue(v))
			if err != nil {
				delete(unit.forys, c)
				return nil, &runtimeError{err: err, root: i, offset: -1}
			}
			out.Write(data)
		}
		return map[string]any{"hex": hex.EncodeToString(out.Bytes())}, nil
	case "decode":
		if req.Hex == nil {
			return nil, requestErrorf("decode needs a hex string")
		}
		data, err := hex.DecodeString(*req.Hex)
		if err != nil {
			return nil, requestErrorf("bad hex input: %v", err)
		}
		buf := fory.NewByteBuffer(data)
		values := []any{}
		for buf.ReaderIndex() < len(data) {
			start := buf.ReaderIndex()
			var obj any
			if err := f.DeserializeFrom(buf, &obj); err != nil {
				delete(unit.forys, c)
				return nil, &runtimeError{err: err, root: len(values), offset: start}
			}
			if buf.ReaderIndex() <= start {
				return nil, requestErrorf("the runtime made no progress at byte %d", start)
			}
			if req.Project && !isUserValue(unit, obj) {
				continue // projection: the root structs of the reader's types only
			}
			node, err := newTypedPrinter(unit, p.opts.allowUnordered).root(obj)
			if err != nil {
				return nil, err
			}
			values = append(values, node)
		}
		return map[string]any{"values": values}, nil
	}
	return nil, requestErrorf("unknown op %q", *req.Op)
}

func isUserValue(unit *userUnit, v any) bool {
	if v == nil {
		return false
	}
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	_, ok := unit.names[t]
	return ok
}

var unknownTypeRE = regexp.MustCompile(`unknown type id: (\d+)`)

func classify(err error) string {
	var u *unsupportedError
	if errors.As(err, &u) {
		return "unsupported"
	}
	var r *requestError
	if errors.As(err, &r) {
		return "error"
	}
	var se *schemaError
	if errors.As(err, &se) {
		return "idl"
	}
	// Enum, struct, ext, union and NONE payloads: the Go runtime reads them
	// only for registered Go types, and the peer registers none.
	if m := unknownTypeRE.FindStringSubmatch(err.Error()); m != nil {
		if n, _ := strconv.Atoi(m[1]); n >= 25 && n <= 36 {
			return "unsupported"
		}
	}
	return "error"
}

// decodeJSON parses one notation document, keeping numbers as json.Number.
func decodeJSON(raw json.RawMessage) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, requestErrorf("bad notation: %v", err)
	}
	return v, nil
}

// checkSurrogates rejects a request whose JSON text has a \u escape for a
// surrogate that is not part of a pair: encoding/json would silently turn it
// into U+FFFD, but the notation only carries Unicode scalar values.
func checkSurrogates(line []byte) error {
	inString := false
	for i := 0; i < len(line); i++ {
		ch := line[i]
		if !inString {
			if ch == '"' {
				inString = true
			}
			continue
		}
		switch ch {
		case '"':
			inString = false
		case '\\':
			if i+1 >= len(line) {
				return nil
			}
			if line[i+1] != 'u' {
				i++
				continue
			}
			u, ok := hex4(line, i+2)
			if !ok {
				return nil // encoding/json reports the syntax error
			}
			if u >= 0xdc00 && u <= 0xdfff {
				return requestErrorf("string contains a lone surrogate \\u%04x (not a Unicode scalar value)", u)
			}
			if u >= 0xd800 && u <= 0xdbff {
				lo, ok := -1, false
				if i+7 < len(line) && line[i+6] == '\\' && line[i+7] == 'u' {
					var v int
					v, ok = hex4(line, i+8)
					lo = v
				}
				if !ok || lo < 0xdc00 || lo > 0xdfff {
					return requestErrorf("string contains a lone surrogate \\u%04x (not a Unicode scalar value)", u)
				}
				i += 11
				continue
			}
			i += 5
		}
	}
	return nil
}

func hex4(b []byte, at int) (int, bool) {
	if at+4 > len(b) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(b[at:at+4]), 16, 16)
	if err != nil {
		return 0, false
	}
	return int(v), true
}
