package wire

// The set-up the tests against Fory Go share: a libwire context and a Fory
// Go runtime in the same struct mode, with the same struct types
// registered under the same ids in both.

import (
	"testing"

	"github.com/apache/fory/go/fory"
)

// pairType is a struct type registered under id in both runtimes.
type pairType struct {
	id uint32
	v  any
}

// pairRuntimes is a new context with WithRefTracking(ref),
// WithCompatible(compatible) and opts, and a Fory Go runtime (xlang) with
// the same two settings; types are registered in both, in their order
// (a type before the types whose fields hold it).
func pairRuntimes(tb testing.TB, ref, compatible bool, types []pairType, opts ...Option) (*Context, *fory.Fory) {
	tb.Helper()
	c, err := NewContext(append([]Option{WithRefTracking(ref), WithCompatible(compatible)}, opts...)...)
	if err != nil {
		tb.Fatal(err)
	}
	for _, ty := range types {
		if err := c.RegisterStructID(ty.id, ty.v); err != nil {
			tb.Fatal(err)
		}
	}
	return c, foryRuntime(tb, ref, compatible, types)
}

// foryRuntime is a Fory Go runtime (xlang) with types registered.
func foryRuntime(tb testing.TB, ref, compatible bool, types []pairType) *fory.Fory {
	tb.Helper()
	f := newFory(ref, compatible)
	for _, ty := range types {
		if err := f.RegisterStruct(ty.v, ty.id); err != nil {
			tb.Fatal(err)
		}
	}
	return f
}
