package main

import (
	"encoding/hex"
	"encoding/json"
	"math"
	"math/big"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/apache/fory/go/fory"
	"github.com/apache/fory/go/fory/bfloat16"
	"github.com/apache/fory/go/fory/float16"
)

// Type keys of spec/notation.md and the annotations a reader accepts.
var typeKeys = map[string]bool{}
var annotationKeys = map[string]bool{
	"anchor": true, "enc": true, "header": true, "chunks": true, "approx": true,
	"iso": true, "tracked": true, "typedef": true, "ns_enc": true, "name_enc": true,
	"ns_hash": true, "name_hash": true, "ns_xref": true, "name_xref": true,
	"ns_again": true, "name_again": true,
}

func init() {
	for _, k := range strings.Fields(`null none bool int8 int16 int32 varint32 int64
		varint64 tagged_int64 uint8 uint16 uint32 var_uint32 uint64 var_uint64
		tagged_uint64 float16 bfloat16 float32 float64 string binary date timestamp
		duration decimal enum named_enum bool_array int8_array int16_array
		int32_array int64_array uint8_array uint16_array uint32_array uint64_array
		float16_array bfloat16_array float32_array float64_array list set map
		struct union ext ref`) {
		typeKeys[k] = true
	}
}

// The integer keys and the Go type the runtime writes with that wire type.
// Keys missing here (int32, int64, tagged_int64, uint32, uint64,
// tagged_uint64) have no Go type that the runtime writes as a root or as an
// element of an untyped collection.
type intKind struct {
	min, max *big.Int
	make     func(*big.Int) any
}

func bigRange(lo, hi string) (*big.Int, *big.Int) {
	a, _ := new(big.Int).SetString(lo, 10)
	b, _ := new(big.Int).SetString(hi, 10)
	return a, b
}

var intKinds = map[string]intKind{}

func init() {
	add := func(key, lo, hi string, mk func(*big.Int) any) {
		a, b := bigRange(lo, hi)
		intKinds[key] = intKind{a, b, mk}
	}
	add("int8", "-128", "127", func(n *big.Int) any { return int8(n.Int64()) })
	add("int16", "-32768", "32767", func(n *big.Int) any { return int16(n.Int64()) })
	add("varint32", "-2147483648", "2147483647", func(n *big.Int) any { return int32(n.Int64()) })
	add("varint64", "-9223372036854775808", "9223372036854775807", func(n *big.Int) any { return n.Int64() })
	add("uint8", "0", "255", func(n *big.Int) any { return uint8(n.Uint64()) })
	add("uint16", "0", "65535", func(n *big.Int) any { return uint16(n.Uint64()) })
	add("var_uint32", "0", "4294967295", func(n *big.Int) any { return uint32(n.Uint64()) })
	add("var_uint64", "0", "18446744073709551615", func(n *big.Int) any { return n.Uint64() })
}

var intRanges = map[string][2]string{
	"int32": {"-2147483648", "2147483647"}, "int64": {"-9223372036854775808", "9223372036854775807"},
	"tagged_int64": {"-9223372036854775808", "9223372036854775807"},
	"uint32":       {"0", "4294967295"}, "uint64": {"0", "18446744073709551615"},
	"tagged_uint64": {"0", "18446744073709551615"},
}

type builder struct {
	anchors        map[string]any
	building       map[string]bool // anchors whose node is still being built
	cyclic         bool
	allowUnordered bool
}

func newBuilder(allowUnordered bool) *builder {
	return &builder{anchors: map[string]any{}, building: map[string]bool{}, allowUnordered: allowUnordered}
}

func (b *builder) enter(anchor string) {
	if anchor != "" {
		b.building[anchor] = true
	}
}

func (b *builder) leave(anchor string) {
	delete(b.building, anchor)
}

// nodeKind validates a node object and returns its type key.
func nodeKind(node any) (map[string]any, string, error) {
	obj, ok := node.(map[string]any)
	if !ok {
		return nil, "", requestErrorf("node must be a JSON object, got %s", jsonText(node))
	}
	kind := ""
	for k := range obj {
		switch {
		case typeKeys[k]:
			if kind != "" {
				return nil, "", requestErrorf("node has two type keys (%s, %s)", kind, k)
			}
			kind = k
		case annotationKeys[k]:
		default:
			return nil, "", requestErrorf("unknown key %q in node", k)
		}
	}
	if kind == "" {
		return nil, "", requestErrorf("node has no type key")
	}
	if kind == "ref" && len(obj) != 1 {
		return nil, "", requestErrorf("a ref node takes no other keys")
	}
	return obj, kind, nil
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// build turns a notation node into the Go value the runtime writes with the
// node's wire type. hashable: the value is a map key or set element.
func (b *builder) build(node any, hashable bool) (any, error) {
	obj, kind, err := nodeKind(node)
	if err != nil {
		return nil, err
	}
	value := obj[kind]
	if kind == "ref" {
		name, ok := value.(string)
		if !ok {
			return nil, requestErrorf("ref must name an anchor")
		}
		v, ok := b.anchors[name]
		if !ok {
			return nil, requestErrorf("ref to unknown anchor %q", name)
		}
		if b.building[name] {
			b.cyclic = true
		}
		if hashable && !isHashable(v) {
			return nil, unsupportedf("a shared %T cannot be a Go map key or set element", v)
		}
		return v, nil
	}
	anchor := ""
	if a, ok := obj["anchor"]; ok {
		s, ok := a.(string)
		if !ok {
			return nil, requestErrorf("anchor must be a string")
		}
		if _, dup := b.anchors[s]; dup {
			return nil, requestErrorf("duplicate anchor %q", s)
		}
		anchor = s
	}
	register := func(v any) {
		if anchor != "" {
			b.anchors[anchor] = v
		}
	}
	switch kind {
	case "list":
		items, ok := value.([]any)
		if !ok {
			return nil, requestErrorf("list value must be an array")
		}
		if hashable {
			return nil, unsupportedf("a list (Go slice) cannot be a Go map key or set element")
		}
		// Allocate first so that refs inside the list (cycles) see the same
		// backing array.
		s := make([]any, len(items))
		register(s)
		b.enter(anchor)
		for i, item := range items {
			if s[i], err = b.build(item, false); err != nil {
				return nil, err
			}
		}
		b.leave(anchor)
		return s, nil
	case "set":
		items, ok := value.([]any)
		if !ok {
			return nil, requestErrorf("set value must be an array")
		}
		if hashable {
			return nil, unsupportedf("a set (Go map) cannot be a Go map key or set element")
		}
		if len(items) > 1 && !b.allowUnordered {
			return nil, unsupportedf("a set of %d elements: Go map iteration order is random, so the runtime cannot write the given order", len(items))
		}
		s := fory.Set[any]{}
		register(s)
		b.enter(anchor)
		for _, item := range items {
			e, err := b.build(item, true)
			if err != nil {
				return nil, err
			}
			if _, dup := s[e]; dup {
				return nil, unsupportedf("set elements collide as Go values: %v", e)
			}
			s[e] = struct{}{}
		}
		b.leave(anchor)
		return s, nil
	case "map":
		entries, ok := value.([]any)
		if !ok {
			return nil, requestErrorf("map value must be an array of [key, value]")
		}
		if hashable {
			return nil, unsupportedf("a map cannot be a Go map key or set element")
		}
		if len(entries) > 1 && !b.allowUnordered {
			return nil, unsupportedf("a map of %d entries: Go map iteration order is random, so the runtime cannot write the given order", len(entries))
		}
		m := map[any]any{}
		register(m)
		b.enter(anchor)
		for _, entry := range entries {
			pair, ok := entry.([]any)
			if !ok || len(pair) != 2 {
				return nil, requestErrorf("map entry must be [key, value]")
			}
			k, err := b.build(pair[0], true)
			if err != nil {
				return nil, err
			}
			v, err := b.build(pair[1], false)
			if err != nil {
				return nil, err
			}
			if _, dup := m[k]; dup {
				return nil, unsupportedf("map keys collide as Go values: %v", k)
			}
			m[k] = v
		}
		b.leave(anchor)
		return m, nil
	}
	v, err := b.leaf(kind, value)
	if err != nil {
		return nil, err
	}
	if hashable && !isHashable(v) {
		return nil, unsupportedf("a %s (Go %T) cannot be a Go map key or set element", kind, v)
	}
	register(v)
	return v, nil
}

func isHashable(v any) bool {
	return v == nil || reflect.TypeOf(v).Comparable()
}

func parseBigInt(value any, key string) (*big.Int, error) {
	s, ok := value.(string)
	if !ok {
		return nil, requestErrorf("%s value must be a decimal string", key)
	}
	n, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return nil, requestErrorf("bad %s value %q", key, s)
	}
	return n, nil
}

func parseInt64(value any, key string) (int64, error) {
	n, err := parseBigInt(value, key)
	if err != nil {
		return 0, err
	}
	if !n.IsInt64() {
		return 0, requestErrorf("%s value %s out of range", key, n)
	}
	return n.Int64(), nil
}

// parseSmallInt reads a JSON number (or decimal string) that must fit an int64.
func parseSmallInt(value any, key string) (int64, error) {
	switch v := value.(type) {
	case json.Number:
		n, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil {
			return 0, requestErrorf("%s must be an integer, got %s", key, v)
		}
		return n, nil
	case string:
		return parseInt64(v, key)
	}
	return 0, requestErrorf("%s must be an integer", key)
}

func secondsNanos(value any, key string) (int64, int64, error) {
	obj, ok := value.(map[string]any)
	if !ok || len(obj) != 2 || obj["seconds"] == nil || obj["nanos"] == nil {
		return 0, 0, requestErrorf("%s value must be {seconds, nanos}", key)
	}
	sec, err := parseInt64(obj["seconds"], key+".seconds")
	if err != nil {
		return 0, 0, err
	}
	nanos, err := parseSmallInt(obj["nanos"], key+".nanos")
	if err != nil {
		return 0, 0, err
	}
	if nanos < 0 || nanos > 999999999 {
		return 0, 0, requestErrorf("%s nanos must be in 0..999999999", key)
	}
	return sec, nanos, nil
}

func (b *builder) leaf(kind string, value any) (any, error) {
	if ik, ok := intKinds[kind]; ok {
		n, err := parseBigInt(value, kind)
		if err != nil {
			return nil, err
		}
		if n.Cmp(ik.min) < 0 || n.Cmp(ik.max) > 0 {
			return nil, requestErrorf("%s value %s out of range", kind, n)
		}
		return ik.make(n), nil
	}
	if r, ok := intRanges[kind]; ok {
		n, err := parseBigInt(value, kind)
		if err != nil {
			return nil, err
		}
		lo, hi := bigRange(r[0], r[1])
		if n.Cmp(lo) < 0 || n.Cmp(hi) > 0 {
			return nil, requestErrorf("%s value %s out of range", kind, n)
		}
		return nil, unsupportedf("the Fory Go runtime writes no Go value as %s (int32/int64 are varints, uint32/uint64 var_uint; fixed and tagged encodings only via struct field tags)", kind)
	}
	switch kind {
	case "null":
		if value != nil {
			return nil, unsupportedf("typed null (%s): a Go nil interface has no type", jsonText(value))
		}
		return nil, nil
	case "none":
		if value != nil {
			return nil, requestErrorf("none value must be null")
		}
		return nil, unsupportedf("the Fory Go runtime has no Go value it writes as NONE (36)")
	case "bool":
		v, ok := value.(bool)
		if !ok {
			return nil, requestErrorf("bool value must be true/false")
		}
		return v, nil
	case "float64", "float32", "float16", "bfloat16":
		s, ok := value.(string)
		if !ok {
			return nil, requestErrorf("%s value must be a string", kind)
		}
		return makeFloat(kind, s)
	case "string":
		s, ok := value.(string)
		if !ok {
			return nil, requestErrorf("string value must be a JSON string")
		}
		return s, nil
	case "binary":
		s, ok := value.(string)
		if !ok {
			return nil, requestErrorf("binary value must be a hex string")
		}
		data, err := hex.DecodeString(s)
		if err != nil {
			return nil, requestErrorf("bad binary hex %q", s)
		}
		return data, nil
	case "date":
		days, err := parseInt64(value, "date")
		if err != nil {
			return nil, err
		}
		d, err := fory.DateFromEpochDay(days)
		if err != nil {
			return nil, unsupportedf("date %d: %v", days, err)
		}
		return d, nil
	case "timestamp":
		sec, nanos, err := secondsNanos(value, "timestamp")
		if err != nil {
			return nil, err
		}
		t := time.Unix(sec, nanos).UTC()
		if t.Unix() != sec {
			return nil, unsupportedf("timestamp %d s is outside Go's time.Time range", sec)
		}
		return t, nil
	case "duration":
		sec, nanos, err := secondsNanos(value, "duration")
		if err != nil {
			return nil, err
		}
		total := new(big.Int).Mul(big.NewInt(sec), big.NewInt(1e9))
		total.Add(total, big.NewInt(nanos))
		if !total.IsInt64() {
			return nil, unsupportedf("duration %d s %d ns does not fit Go's time.Duration (int64 nanoseconds)", sec, nanos)
		}
		return time.Duration(total.Int64()), nil
	case "decimal":
		obj, ok := value.(map[string]any)
		if !ok || len(obj) != 2 || obj["unscaled"] == nil || obj["scale"] == nil {
			return nil, requestErrorf("decimal value must be {unscaled, scale}")
		}
		unscaled, err := parseBigInt(obj["unscaled"], "decimal.unscaled")
		if err != nil {
			return nil, err
		}
		scale, err := parseSmallInt(obj["scale"], "decimal.scale")
		if err != nil {
			return nil, err
		}
		if scale < math.MinInt32 || scale > math.MaxInt32 {
			return nil, requestErrorf("decimal scale %d is not an int32", scale)
		}
		if scale < -10000 || scale > 10000 {
			return nil, unsupportedf("the Fory Go runtime limits decimal scale to [-10000, 10000]; got %d", scale)
		}
		if unscaled.BitLen() > 10000*8 {
			return nil, unsupportedf("the Fory Go runtime limits the decimal magnitude to 10000 bytes")
		}
		return fory.NewDecimal(unscaled, int32(scale)), nil
	case "enum", "named_enum":
		return nil, unsupportedf("%s values need a registered Go enum type; the Go peer registers none", kind)
	case "struct", "union", "ext":
		return nil, unsupportedf("%s values need registered Go types; the Go peer registers none", kind)
	}
	if strings.HasSuffix(kind, "_array") {
		return makeArray(kind, value)
	}
	return nil, requestErrorf("unhandled type key %s", kind)
}

func makeFloat(kind, s string) (any, error) {
	switch kind {
	case "float64":
		bits, err := parseFloatBits(s, formatF64)
		if err != nil {
			return nil, err
		}
		return math.Float64frombits(bits), nil
	case "float32":
		bits, err := parseFloatBits(s, formatF32)
		if err != nil {
			return nil, err
		}
		return math.Float32frombits(uint32(bits)), nil
	case "float16":
		bits, err := parseFloatBits(s, formatF16)
		if err != nil {
			return nil, err
		}
		return float16.Float16FromBits(uint16(bits)), nil
	default:
		bits, err := parseFloatBits(s, formatBF16)
		if err != nil {
			return nil, err
		}
		return bfloat16.BFloat16FromBits(uint16(bits)), nil
	}
}

// asArray converts the items read for an array (the result of makeArray's
// ints or floats) to the array's Go element type, as in
// asArray(conv)(ints(lo, hi)).
func asArray[V, T any](conv func(V) T) func([]V, error) (any, error) {
	return func(vs []V, err error) (any, error) {
		if err != nil {
			return nil, err
		}
		out := make([]T, len(vs))
		for i, v := range vs {
			out[i] = conv(v)
		}
		return out, nil
	}
}

func makeArray(kind string, value any) (any, error) {
	items, ok := value.([]any)
	if !ok {
		return nil, requestErrorf("%s value must be an array", kind)
	}
	n := len(items)
	ints := func(lo, hi string) ([]*big.Int, error) {
		min, max := bigRange(lo, hi)
		out := make([]*big.Int, n)
		for i, it := range items {
			v, err := parseBigInt(it, kind)
			if err != nil {
				return nil, err
			}
			if v.Cmp(min) < 0 || v.Cmp(max) > 0 {
				return nil, requestErrorf("%s element %s out of range", kind, v)
			}
			out[i] = v
		}
		return out, nil
	}
	floats := func(f floatFormat) ([]uint64, error) {
		out := make([]uint64, n)
		for i, it := range items {
			s, ok := it.(string)
			if !ok {
				return nil, requestErrorf("%s elements must be strings", kind)
			}
			bits, err := parseFloatBits(s, f)
			if err != nil {
				return nil, err
			}
			out[i] = bits
		}
		return out, nil
	}
	switch kind {
	case "bool_array":
		out := make([]bool, n)
		for i, it := range items {
			v, ok := it.(bool)
			if !ok {
				return nil, requestErrorf("bool_array elements must be booleans")
			}
			out[i] = v
		}
		return out, nil
	case "int8_array":
		return asArray(func(v *big.Int) int8 { return int8(v.Int64()) })(ints("-128", "127"))
	case "int16_array":
		return asArray(func(v *big.Int) int16 { return int16(v.Int64()) })(ints("-32768", "32767"))
	case "int32_array":
		return asArray(func(v *big.Int) int32 { return int32(v.Int64()) })(ints("-2147483648", "2147483647"))
	case "int64_array":
		return asArray(func(v *big.Int) int64 { return v.Int64() })(ints("-9223372036854775808", "9223372036854775807"))
	case "uint8_array":
		if _, err := ints("0", "255"); err != nil {
			return nil, err
		}
		return nil, unsupportedf("the Fory Go runtime writes []byte/[]uint8 as binary (41), never as uint8_array")
	case "uint16_array":
		return asArray(func(v *big.Int) uint16 { return uint16(v.Uint64()) })(ints("0", "65535"))
	case "uint32_array":
		return asArray(func(v *big.Int) uint32 { return uint32(v.Uint64()) })(ints("0", "4294967295"))
	case "uint64_array":
		return asArray(func(v *big.Int) uint64 { return v.Uint64() })(ints("0", "18446744073709551615"))
	case "float16_array":
		return asArray(func(b uint64) float16.Float16 { return float16.Float16FromBits(uint16(b)) })(floats(formatF16))
	case "bfloat16_array":
		return asArray(func(b uint64) bfloat16.BFloat16 { return bfloat16.BFloat16FromBits(uint16(b)) })(floats(formatBF16))
	case "float32_array":
		return asArray(func(b uint64) float32 { return math.Float32frombits(uint32(b)) })(floats(formatF32))
	case "float64_array":
		return asArray(func(b uint64) float64 { return math.Float64frombits(b) })(floats(formatF64))
	}
	return nil, requestErrorf("unknown type key %s", kind)
}

// sortedByJSON orders notation nodes by their JSON text (used only with
// -allow-unordered, to print Go maps and sets deterministically).
func sortedByJSON(nodes [][2]any) {
	keys := make([]string, len(nodes))
	for i, n := range nodes {
		keys[i] = jsonText(n[0])
	}
	idx := make([]int, len(nodes))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return keys[idx[a]] < keys[idx[b]] })
	out := make([][2]any, len(nodes))
	for i, j := range idx {
		out[i] = nodes[j]
	}
	copy(nodes, out)
}
