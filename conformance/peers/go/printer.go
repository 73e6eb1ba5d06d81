package main

import (
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/apache/fory/go/fory"
	"github.com/apache/fory/go/fory/bfloat16"
	"github.com/apache/fory/go/fory/float16"
)

// Wire types that the runtime decodes into a Go type it also uses for another
// wire type. For a root value the peer reads the type id from the payload
// (the byte after the root's ref flag) and names the wire type it saw; nested
// values are named after their Go type only.
var rootWireNames = map[reflect.Kind]map[int]string{
	reflect.Int32:  {4: "int32", 5: "varint32"},
	reflect.Int64:  {6: "int64", 7: "varint64", 8: "tagged_int64"},
	reflect.Uint32: {11: "uint32", 12: "var_uint32"},
	reflect.Uint64: {13: "uint64", 14: "var_uint64", 15: "tagged_uint64"},
}

type identity struct {
	typ reflect.Type
	ptr uintptr
	len int
}

// identityOf returns the identity of a shareable value (a map, a set or a
// non-empty slice): with ref tracking the runtime hands back the same Go
// value for every reference to one wire object.
func identityOf(v any) (identity, bool) {
	if v == nil {
		return identity{}, false
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Map:
		if rv.IsNil() {
			return identity{}, false
		}
		return identity{rv.Type(), rv.Pointer(), -1}, true
	case reflect.Slice:
		if rv.Len() == 0 {
			return identity{}, false
		}
		return identity{rv.Type(), rv.Pointer(), rv.Len()}, true
	}
	return identity{}, false
}

type printer struct {
	counts         map[identity]int
	names          map[identity]string
	allowUnordered bool
}

func newPrinter(root any, allowUnordered bool) *printer {
	p := &printer{counts: map[identity]int{}, names: map[identity]string{}, allowUnordered: allowUnordered}
	p.count(root)
	return p
}

func (p *printer) count(v any) {
	if id, ok := identityOf(v); ok {
		p.counts[id]++
		if p.counts[id] > 1 {
			return
		}
	}
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			p.count(e)
		}
	case map[any]any:
		for k, e := range x {
			p.count(k)
			p.count(e)
		}
	case fory.Set[any]:
		for k := range x {
			p.count(k)
		}
	}
}

// root prints a root value; typeID is the wire type id of the root (or -1).
func (p *printer) root(v any, typeID int) (map[string]any, error) {
	if v != nil && typeID >= 0 {
		rv := reflect.ValueOf(v)
		if names, ok := rootWireNames[rv.Kind()]; ok {
			if name, ok := names[typeID]; ok {
				if rv.CanInt() {
					return map[string]any{name: strconv.FormatInt(rv.Int(), 10)}, nil
				}
				return map[string]any{name: strconv.FormatUint(rv.Uint(), 10)}, nil
			}
		}
		if b, ok := v.([]byte); ok && typeID == 48 {
			items := make([]any, len(b))
			for i, x := range b {
				items[i] = strconv.Itoa(int(x))
			}
			return map[string]any{"uint8_array": items}, nil
		}
	}
	return p.node(v)
}

func (p *printer) node(v any) (map[string]any, error) {
	id, shareable := identityOf(v)
	shared := shareable && p.counts[id] > 1
	if shared {
		if name, ok := p.names[id]; ok {
			return map[string]any{"ref": name}, nil
		}
		p.names[id] = fmt.Sprintf("a%d", len(p.names)+1)
	}
	out, err := p.value(v)
	if err != nil {
		return nil, err
	}
	if shared {
		out["anchor"] = p.names[id]
	}
	return out, nil
}

func f64node(v float64) map[string]any {
	return map[string]any{"float64": fmt.Sprintf("0x%016x", math.Float64bits(v)), "approx": approx(v, 64)}
}

func f32node(v float32) map[string]any {
	return map[string]any{"float32": fmt.Sprintf("0x%08x", math.Float32bits(v)), "approx": approx(float64(v), 32)}
}

func (p *printer) value(v any) (map[string]any, error) {
	switch x := v.(type) {
	case nil:
		return map[string]any{"null": nil}, nil
	case bool:
		return map[string]any{"bool": x}, nil
	case int8:
		return map[string]any{"int8": strconv.FormatInt(int64(x), 10)}, nil
	case int16:
		return map[string]any{"int16": strconv.FormatInt(int64(x), 10)}, nil
	case int32:
		return map[string]any{"varint32": strconv.FormatInt(int64(x), 10)}, nil
	case int64:
		return map[string]any{"varint64": strconv.FormatInt(x, 10)}, nil
	case int:
		return map[string]any{"varint64": strconv.FormatInt(int64(x), 10)}, nil
	case uint8:
		return map[string]any{"uint8": strconv.FormatUint(uint64(x), 10)}, nil
	case uint16:
		return map[string]any{"uint16": strconv.FormatUint(uint64(x), 10)}, nil
	case uint32:
		return map[string]any{"var_uint32": strconv.FormatUint(uint64(x), 10)}, nil
	case uint64:
		return map[string]any{"var_uint64": strconv.FormatUint(x, 10)}, nil
	case uint:
		return map[string]any{"var_uint64": strconv.FormatUint(uint64(x), 10)}, nil
	case float64:
		return f64node(x), nil
	case float32:
		return f32node(x), nil
	case float16.Float16:
		return map[string]any{"float16": fmt.Sprintf("0x%04x", x.Bits()), "approx": approx(float64(x.Float32()), 32)}, nil
	case bfloat16.BFloat16:
		return map[string]any{"bfloat16": fmt.Sprintf("0x%04x", x.Bits()), "approx": approx(float64(x.Float32()), 32)}, nil
	case string:
		if !utf8.ValidString(x) {
			return nil, unsupportedf("decoded string is not valid UTF-8 (%q)", x)
		}
		return map[string]any{"string": x}, nil
	case []byte:
		return map[string]any{"binary": hex.EncodeToString(x)}, nil
	case fory.Date:
		days, err := fory.DateToEpochDay(x)
		if err != nil {
			return nil, unsupportedf("decoded date: %v", err)
		}
		return map[string]any{"date": strconv.FormatInt(days, 10),
			"iso": fmt.Sprintf("%04d-%02d-%02d", x.Year, int(x.Month), x.Day)}, nil
	case time.Time:
		u := x.UTC()
		return map[string]any{"timestamp": map[string]any{
			"seconds": strconv.FormatInt(u.Unix(), 10), "nanos": u.Nanosecond()},
			"iso": u.Format(time.RFC3339Nano)}, nil
	case time.Duration:
		sec, nanos := int64(x)/1e9, int64(x)%1e9
		if nanos < 0 {
			sec--
			nanos += 1e9
		}
		return map[string]any{"duration": map[string]any{
			"seconds": strconv.FormatInt(sec, 10), "nanos": nanos}}, nil
	case fory.Decimal:
		u := new(big.Int).Set(&x.Unscaled)
		return map[string]any{"decimal": map[string]any{"unscaled": u.String(), "scale": x.Scale}}, nil
	case *fory.Decimal:
		return p.value(*x)
	case []any:
		items := make([]any, len(x))
		for i, e := range x {
			n, err := p.node(e)
			if err != nil {
				return nil, err
			}
			items[i] = n
		}
		return map[string]any{"list": items}, nil
	case fory.Set[any]:
		if len(x) > 1 && !p.allowUnordered {
			return nil, unsupportedf("decoded a set of %d elements into a Go map, which does not keep the wire order", len(x))
		}
		pairs := make([][2]any, 0, len(x))
		for k := range x {
			n, err := p.node(k)
			if err != nil {
				return nil, err
			}
			pairs = append(pairs, [2]any{n, nil})
		}
		sortedByJSON(pairs)
		items := make([]any, len(pairs))
		for i, pr := range pairs {
			items[i] = pr[0]
		}
		return map[string]any{"set": items}, nil
	case map[any]any:
		if len(x) > 1 && !p.allowUnordered {
			return nil, unsupportedf("decoded a map of %d entries into a Go map, which does not keep the wire order", len(x))
		}
		pairs := make([][2]any, 0, len(x))
		for k, e := range x {
			kn, err := p.node(k)
			if err != nil {
				return nil, err
			}
			vn, err := p.node(e)
			if err != nil {
				return nil, err
			}
			pairs = append(pairs, [2]any{kn, vn})
		}
		sortedByJSON(pairs)
		entries := make([]any, len(pairs))
		for i, pr := range pairs {
			entries[i] = []any{pr[0], pr[1]}
		}
		return map[string]any{"map": entries}, nil
	case []bool:
		items := make([]any, len(x))
		for i, e := range x {
			items[i] = e
		}
		return map[string]any{"bool_array": items}, nil
	case []int8:
		return intArray("int8_array", len(x), func(i int) int64 { return int64(x[i]) }), nil
	case []int16:
		return intArray("int16_array", len(x), func(i int) int64 { return int64(x[i]) }), nil
	case []int32:
		return intArray("int32_array", len(x), func(i int) int64 { return int64(x[i]) }), nil
	case []int64:
		return intArray("int64_array", len(x), func(i int) int64 { return x[i] }), nil
	case []int:
		return intArray("int64_array", len(x), func(i int) int64 { return int64(x[i]) }), nil
	case []uint16:
		return uintArray("uint16_array", len(x), func(i int) uint64 { return uint64(x[i]) }), nil
	case []uint32:
		return uintArray("uint32_array", len(x), func(i int) uint64 { return uint64(x[i]) }), nil
	case []uint64:
		return uintArray("uint64_array", len(x), func(i int) uint64 { return x[i] }), nil
	case []uint:
		return uintArray("uint64_array", len(x), func(i int) uint64 { return uint64(x[i]) }), nil
	case []float16.Float16:
		bits, ap := make([]any, len(x)), make([]any, len(x))
		for i, e := range x {
			bits[i], ap[i] = fmt.Sprintf("0x%04x", e.Bits()), approx(float64(e.Float32()), 32)
		}
		return map[string]any{"float16_array": bits, "approx": ap}, nil
	case []bfloat16.BFloat16:
		bits, ap := make([]any, len(x)), make([]any, len(x))
		for i, e := range x {
			bits[i], ap[i] = fmt.Sprintf("0x%04x", e.Bits()), approx(float64(e.Float32()), 32)
		}
		return map[string]any{"bfloat16_array": bits, "approx": ap}, nil
	case []float32:
		bits, ap := make([]any, len(x)), make([]any, len(x))
		for i, e := range x {
			bits[i], ap[i] = fmt.Sprintf("0x%08x", math.Float32bits(e)), approx(float64(e), 32)
		}
		return map[string]any{"float32_array": bits, "approx": ap}, nil
	case []float64:
		bits, ap := make([]any, len(x)), make([]any, len(x))
		for i, e := range x {
			bits[i], ap[i] = fmt.Sprintf("0x%016x", math.Float64bits(e)), approx(e, 64)
		}
		return map[string]any{"float64_array": bits, "approx": ap}, nil
	}
	return nil, unsupportedf("no notation for the decoded Go type %T", v)
}

func intArray(key string, n int, at func(int) int64) map[string]any {
	items := make([]any, n)
	for i := range items {
		items[i] = strconv.FormatInt(at(i), 10)
	}
	return map[string]any{key: items}
}

func uintArray(key string, n int, at func(int) uint64) map[string]any {
	items := make([]any, n)
	for i := range items {
		items[i] = strconv.FormatUint(at(i), 10)
	}
	return map[string]any{key: items}
}
