package main

// A minimal JSON value that keeps the order of object keys (the notation
// lists struct fields in wire order) and integers as text.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

type jkind byte

const (
	jNull jkind = iota
	jBool
	jNum
	jStr
	jArr
	jObj
)

type jv struct {
	k    jkind
	b    bool
	s    string // string value or number text
	arr  []*jv
	keys []string
	vals []*jv
}

func (v *jv) get(key string) *jv {
	if v == nil || v.k != jObj {
		return nil
	}
	for i, k := range v.keys {
		if k == key {
			return v.vals[i]
		}
	}
	return nil
}

func (v *jv) set(key string, val *jv) {
	for i, k := range v.keys {
		if k == key {
			v.vals[i] = val
			return
		}
	}
	v.keys = append(v.keys, key)
	v.vals = append(v.vals, val)
}

func (v *jv) isStr() bool { return v != nil && v.k == jStr }

// int reads an integer-valued JSON number.
func (v *jv) int() (int64, bool) {
	if v == nil || v.k != jNum {
		return 0, false
	}
	n, err := strconv.ParseInt(v.s, 10, 64)
	return n, err == nil
}

func jstr(s string) *jv  { return &jv{k: jStr, s: s} }
func jint(n int64) *jv   { return &jv{k: jNum, s: strconv.FormatInt(n, 10)} }
func juint(n uint64) *jv { return &jv{k: jNum, s: strconv.FormatUint(n, 10)} }
func jbool(b bool) *jv   { return &jv{k: jBool, b: b} }
func jnull() *jv         { return &jv{k: jNull} }
func jobj() *jv          { return &jv{k: jObj} }
func jarr(xs ...*jv) *jv { return &jv{k: jArr, arr: xs} }

func parseJSON(data []byte) (*jv, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := readValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("trailing data after the JSON value")
	}
	return v, nil
}

func readValue(dec *json.Decoder) (*jv, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	return fromToken(dec, tok)
}

func fromToken(dec *json.Decoder, tok json.Token) (*jv, error) {
	switch t := tok.(type) {
	case nil:
		return jnull(), nil
	case bool:
		return jbool(t), nil
	case json.Number:
		return &jv{k: jNum, s: t.String()}, nil
	case string:
		return jstr(t), nil
	case json.Delim:
		switch t {
		case '[':
			a := jarr()
			for dec.More() {
				v, err := readValue(dec)
				if err != nil {
					return nil, err
				}
				a.arr = append(a.arr, v)
			}
			_, err := dec.Token()
			return a, err
		case '{':
			o := jobj()
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, fmt.Errorf("object key is not a string")
				}
				if o.get(k) != nil {
					return nil, fmt.Errorf("duplicate key %q", k)
				}
				v, err := readValue(dec)
				if err != nil {
					return nil, err
				}
				o.keys = append(o.keys, k)
				o.vals = append(o.vals, v)
			}
			_, err := dec.Token()
			return o, err
		}
	}
	return nil, fmt.Errorf("unexpected JSON token %v", tok)
}

func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

func (v *jv) write(b *strings.Builder) {
	switch v.k {
	case jNull:
		b.WriteString("null")
	case jBool:
		if v.b {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case jNum:
		b.WriteString(v.s)
	case jStr:
		b.WriteString(quote(v.s))
	case jArr:
		b.WriteByte('[')
		for i, x := range v.arr {
			if i > 0 {
				b.WriteString(", ")
			}
			x.write(b)
		}
		b.WriteByte(']')
	case jObj:
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(quote(k))
			b.WriteString(": ")
			v.vals[i].write(b)
		}
		b.WriteByte('}')
	}
}

func (v *jv) String() string {
	var b strings.Builder
	v.write(&b)
	return b.String()
}
