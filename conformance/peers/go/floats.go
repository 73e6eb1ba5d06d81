package main

import (
	"math"
	"strconv"
	"strings"
)

// floatFormat describes an IEEE binary format by its field widths.
type floatFormat struct {
	name  string
	ebits uint
	mbits uint
}

var (
	formatF16  = floatFormat{"float16", 5, 10}
	formatBF16 = floatFormat{"bfloat16", 8, 7}
	formatF32  = floatFormat{"float32", 8, 23}
	formatF64  = floatFormat{"float64", 11, 52}
)

func (f floatFormat) width() uint { return 1 + f.ebits + f.mbits }

// parseFloatBits turns a notation float string into the bit pattern of the
// format: "0x..." is the exact pattern; otherwise a decimal number, "nan",
// "inf" or "-inf", read as the nearest float64 and rounded to the format with
// round-to-nearest-even (spec/notation.md N-1.2).
func parseFloatBits(text string, f floatFormat) (uint64, error) {
	s := strings.ToLower(strings.TrimSpace(text))
	if strings.HasPrefix(s, "0x") {
		bits, err := strconv.ParseUint(s[2:], 16, 64)
		if err != nil || (f.width() < 64 && bits>>f.width() != 0) {
			return 0, requestErrorf("bad %s bit pattern %q", f.name, text)
		}
		return bits, nil
	}
	negative := strings.HasPrefix(s, "-")
	body := strings.TrimLeft(s, "+-")
	if len(s)-len(body) > 1 {
		return 0, requestErrorf("bad %s value %q", f.name, text)
	}
	var sign uint64
	if negative {
		sign = 1 << (f.ebits + f.mbits)
	}
	expOnes := uint64(1)<<f.ebits - 1
	switch body {
	case "nan":
		return sign | expOnes<<f.mbits | 1<<(f.mbits-1), nil
	case "inf", "infinity":
		return sign | expOnes<<f.mbits, nil
	}
	// Only plain decimal syntax: ParseFloat would also take hex floats,
	// underscores and "NaN"/"Inf" spellings handled above.
	for _, c := range body {
		if !(c >= '0' && c <= '9' || c == '.' || c == 'e' || c == '+' || c == '-') {
			return 0, requestErrorf("bad %s value %q", f.name, text)
		}
	}
	v, err := strconv.ParseFloat(body, 64)
	if err != nil {
		var ne *strconv.NumError
		if !(asNumError(err, &ne) && ne.Err == strconv.ErrRange) {
			return 0, requestErrorf("bad %s value %q", f.name, text)
		}
		// ErrRange: v is ±Inf or ±0, the correctly rounded result.
	}
	if negative {
		v = -v
	}
	return roundFloat64(v, f), nil
}

func asNumError(err error, target **strconv.NumError) bool {
	ne, ok := err.(*strconv.NumError)
	if ok {
		*target = ne
	}
	return ok
}

// roundFloat64 rounds a float64 to the format (round half to even) and
// returns the format's bit pattern.
func roundFloat64(v float64, f floatFormat) uint64 {
	switch f {
	case formatF64:
		return math.Float64bits(v)
	case formatF32:
		return uint64(math.Float32bits(float32(v)))
	}
	var sign uint64
	if math.Signbit(v) {
		sign = 1 << (f.ebits + f.mbits)
		v = -v
	}
	expOnes := uint64(1)<<f.ebits - 1
	if math.IsNaN(v) {
		return sign | expOnes<<f.mbits | 1<<(f.mbits-1)
	}
	if math.IsInf(v, 0) {
		return sign | expOnes<<f.mbits
	}
	if v == 0 {
		return sign
	}
	bias := int(1)<<(f.ebits-1) - 1
	emin := 1 - bias
	_, exp := math.Frexp(v) // v = m * 2^exp, m in [0.5, 1)
	e := exp - 1            // v = 1.xxx * 2^e
	if e < emin {
		// Subnormal: count units of 2^(emin - mbits). Scaling by a power of
		// two is exact, RoundToEven does the rounding.
		n := uint64(math.RoundToEven(math.Ldexp(v, int(f.mbits)-emin)))
		return sign | n // n == 1<<mbits is the smallest normal, as it should be
	}
	n := uint64(math.RoundToEven(math.Ldexp(v, int(f.mbits)-e)))
	if n == 1<<(f.mbits+1) {
		n >>= 1
		e++
	}
	if e > bias {
		return sign | expOnes<<f.mbits
	}
	return sign | uint64(e+bias)<<f.mbits | (n - 1<<f.mbits)
}

// approx renders a float for the "approx" annotation.
func approx(v float64, bitSize int) string {
	switch {
	case math.IsNaN(v):
		return "nan"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return strconv.FormatFloat(v, 'g', -1, bitSize)
}
