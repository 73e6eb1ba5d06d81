// Package wire is the Go binding of libwire, a C implementation of the
// Apache Fory xlang binary format.
//
// Marshal and Unmarshal convert Go values to and from xlang payloads using
// the Go type mapping of the Fory Go runtime (int32 is a varint32, int64 and
// int are varint64, []int32 is an int32 array, []string and []any are lists,
// map[K]V is a map, time.Time is a timestamp, ...). Structs are registered
// with RegisterStruct, described by `wire:"name,nullable,ref"` tags or
// matched by name to types loaded from a Fory IDL (FDL) schema
// (Context.LoadSchema). A whole message is converted with one cgo call in
// each direction: registered structs through libwire's compiled codecs
// (wire_mem_*) over an image of the Go struct in C memory (mem.go), other
// values through libwire's direct tape codec (plan.go, marshal.go,
// unmarshal.go); README.md says which path a type takes. The Document API
// (Doc, Node) gives node-level access with explicit type ids and wire
// choices.
package wire

/*
#cgo CFLAGS: -I${SRCDIR}/csrc -O2 -std=c11 -D_DEFAULT_SOURCE -fvisibility=hidden
#cgo LDFLAGS: -lm
#include <stdlib.h>
#include "wire.h"
#include "shim.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"unsafe"
)

// cgoNoop is one trivial cgo call (for measuring the call overhead).
func cgoNoop() { C.wire_version_number() }

// Version is the version string of the loaded libwire.
func Version() string { return C.GoString(C.wire_version_string()) }

// WireError is the error of a failed operation: the error class of
// spec/04-errors-and-limits.md ("truncated", "varint", "type", ...), the byte
// offset in the input (decode) or output (encode) where it happened, and a
// message. Errors found on the Go side (an unsupported Go type, a value that
// does not fit the target) have class "arg", "type" or "value".
type WireError struct {
	Class   string
	Offset  uint64
	Message string
	found   string // a tape record of another type than a Go struct target: what it holds (fitErr)
}

func (e *WireError) Error() string {
	return fmt.Sprintf("wire: %s at byte %d: %s", e.Class, e.Offset, e.Message)
}

// Is reports whether target is a *WireError of the same class, so that
// errors.Is(err, &wire.WireError{Class: "truncated"}) works.
func (e *WireError) Is(target error) bool {
	var t *WireError
	if !errors.As(target, &t) {
		return false
	}
	return t.Class == e.Class && (t.Message == "" || t.Message == e.Message)
}

func goErr(class, format string, args ...any) *WireError {
	return &WireError{Class: class, Message: fmt.Sprintf(format, args...)}
}

// StatusName is the error class name of a libwire status code.
func StatusName(status int) string { return C.GoString(C.wire_status_name(C.int32_t(status))) }

// Limit names a decoder limit (wire_ctx_set_limit).
type Limit int32

const (
	LimitDepth         Limit = C.WIRE_LIMIT_DEPTH          // nesting depth of values (64)
	LimitBinary        Limit = C.WIRE_LIMIT_BINARY         // bytes of one string/binary/array (1 GiB)
	LimitCollection    Limit = C.WIRE_LIMIT_COLLECTION     // elements of one list/set/map (16 Mi)
	LimitNodes         Limit = C.WIRE_LIMIT_NODES          // nodes in one decoded document (64 Mi)
	LimitDecimalDigits Limit = C.WIRE_LIMIT_DECIMAL_DIGITS // magnitude bytes of a big decimal (10000)
	LimitRoots         Limit = C.WIRE_LIMIT_ROOTS          // root values in one payload (1 Mi)
	LimitTypeDefBytes  Limit = C.WIRE_LIMIT_TYPEDEF_BYTES  // body bytes of one TypeDef (4096)
	LimitTypeDefFields Limit = C.WIRE_LIMIT_TYPEDEF_FIELDS // fields of one TypeDef (512)
	LimitTypeDefCache  Limit = C.WIRE_LIMIT_TYPEDEF_CACHE  // incoming TypeDefs a context keeps (256)
	// LimitMemDecode: bytes of C memory a struct decode (Unmarshal into a
	// registered struct) may take per input byte, beyond 1 MiB (512). A
	// compatible-mode writer can send a struct as one byte that becomes a
	// whole struct here; past the limit Unmarshal fails with a *WireError
	// of class "limit".
	LimitMemDecode Limit = C.WIRE_LIMIT_MEM_DECODE
	// LimitTypeDefCacheBytes: heap bytes those cached TypeDefs may take
	// together (1 MiB); a TypeDef past it is read per message.
	LimitTypeDefCacheBytes Limit = C.WIRE_LIMIT_TYPEDEF_CACHE_BYTES
	numLimits                    = C.WIRE_LIMIT_TYPEDEF_CACHE_BYTES + 1
)

// memDecodeBase: the C memory a struct decode may take beside
// LimitMemDecode per input byte (WIRE_MEM_DECODE_BASE).
const memDecodeBase = C.WIRE_MEM_DECODE_BASE

// Option configures Marshal, Unmarshal and NewContext.
type Option func(*config)

type config struct {
	ref, compatible bool
	utf8            bool // write all strings as UTF-8 (the Fory Go runtime's choice)
	zeroCopy        bool // binaries and dense arrays decoded as views of the input
	peer            Peer
	limitSet        [numLimits]bool
	limits          [numLimits]uint64
}

// WithRefTracking writes reference flags as a ref-tracking runtime does and
// writes shared pointers and maps once (cycles allowed).
func WithRefTracking(on bool) Option { return func(c *config) { c.ref = on } }

// WithCompatible selects the compatible (schema evolution) mode.
func WithCompatible(on bool) Option { return func(c *config) { c.compatible = on } }

// WithLimit sets a decoder limit.
func WithLimit(l Limit, v uint64) Option {
	return func(c *config) {
		if l > 0 && int(l) < numLimits {
			c.limitSet[l] = true
			c.limits[l] = v
		}
	}
}

// WithUTF8Strings writes every string in the UTF-8 encoding, as the Fory Go
// runtime does. By default strings follow the writer policy of the Fory Java
// runtime (Latin-1 when the text allows it), which pyfory shares. As in Fory
// Go, the bytes of a Go string are then written as they are: libwire does not
// check them again (WIRE_OPT_TRUSTED_TEXT), so a string holding invalid
// UTF-8 gives a payload with that invalid text (never a crash). Decoding
// always checks.
func WithUTF8Strings(on bool) Option { return func(c *config) { c.utf8 = on } }

// WithZeroCopy makes Unmarshal, UnmarshalAll and Decode return a binary
// decoded into a []byte, and a dense array decoded into a slice of its own
// element type ([]int64 for an int64 array, ...) whose bytes are aligned
// for that type in the input, as a view of the input data instead of a
// copy: no allocation and no copy, whatever the size. The views share
// data: the caller must not change data while it uses them, and one view
// kept alive keeps all of data alive. Off by default (every value owns
// its memory, as with Fory Go, which copies). Registered structs decoded
// by the compiled codecs (RegisterStruct) still copy their fields, since
// those codecs read a copy of the payload in C memory.
func WithZeroCopy(on bool) Option { return func(c *config) { c.zeroCopy = on } }

// Peer names the runtime whose choices libwire reads and writes where the
// runtimes' same-schema bytes differ (WIRE_OPT_PEER: the schema hash, the
// type meta of named struct fields; spec R-PEER-1..4).
type Peer int32

const (
	PeerNone   Peer = C.WIRE_PEER_NONE   // libwire's own choices (the default)
	PeerJava   Peer = C.WIRE_PEER_JAVA   // Fory Java 1.6.0
	PeerPyfory Peer = C.WIRE_PEER_PYFORY // pyfory 1.7.7
	PeerGo     Peer = C.WIRE_PEER_GO     // Fory Go 1.6.1
)

// WithPeer selects the peer runtime (see Peer).
func WithPeer(p Peer) Option { return func(c *config) { c.peer = p } }

func makeConfig(opts []Option) config {
	var c config
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}

// Context holds options, limits, the schema (user types) and the Go types
// registered for them. It is safe for concurrent use; calls are serialized.
type Context struct {
	mu      sync.Mutex
	s       *C.wirego_sess
	cfg     config
	reg     *registry
	globVer int
	tape    []byte              // reused build tape
	dec     decoder             // reused read-tape decoder
	strs    []byte              // the current chunk of decoded strings (goString)
	strsAt  int                 // its bytes in use (an offset: no pointer store per string)
	names   map[uint32][]string // field names of schema types by index (wire order)
	enums   []*enumDecl         // declared values of schema enums by index (enums.go)
	enumIDs map[uint32]uint32   // schema enum index by numeric user id, noType if none (enums.go)
	enumIDn uint32              // the schema's type count when enumIDs was filled
	// compiled codecs (mem.go)
	img       carena                       // C memory for encode images
	menc      menc                         // reused encode state
	mdec      mdec                         // reused decode state
	pinner    runtime.Pinner               // large strings and slices handed to C in place
	mcache    memCache                     // the last root type marshaled or unmarshaled
	forceTape bool                         // tests: registered structs through the tape path
	tdSkips   map[uint32]map[string][]bool // by layout and writer's TypeDef: the fields the compiled codecs skip (tdskips.go)
}

// memCache remembers the root layout of the last Go type seen (by its type
// word), so that a run of messages of one type skips the registry lookup.
type memCache struct {
	typ  unsafe.Pointer
	key  memKey
	root *memRoot
	ptr  bool // the type is *T (else T, by value)
}

// NewContext makes a context with the given options.
func NewContext(opts ...Option) (*Context, error) {
	return newContext(makeConfig(opts))
}

func newContext(cfg config) (*Context, error) {
	s := C.wirego_sess_new()
	if s == nil {
		return nil, goErr("nomem", "cannot allocate a context")
	}
	c := &Context{s: s, cfg: cfg, reg: newRegistry()}
	C.wire_ctx_set_option(s.ctx, C.WIRE_OPT_REF_TRACKING, b2i64(cfg.ref))
	C.wire_ctx_set_option(s.ctx, C.WIRE_OPT_COMPATIBLE, b2i64(cfg.compatible))
	setStringOptions(s.ctx, cfg.utf8)
	if cfg.peer != PeerNone {
		if st := C.wire_ctx_set_option(s.ctx, C.WIRE_OPT_PEER, C.int64_t(cfg.peer)); st != 0 {
			C.wirego_sess_free(s)
			return nil, goErr("arg", "unknown peer %d", cfg.peer)
		}
	}
	for l := 1; l < numLimits; l++ {
		if cfg.limitSet[l] {
			C.wire_ctx_set_limit(s.ctx, C.int32_t(l), C.uint64_t(cfg.limits[l]))
		}
	}
	runtime.SetFinalizer(c, (*Context).Close)
	return c, nil
}

// setStringOptions: with UTF-8 strings, text is written as given (UTF-8)
// and not checked again; otherwise in the Java runtime's choice, checked.
// (Tapes carry the same choice in their string ops.)
func setStringOptions(ctx *C.wire_ctx, utf8 bool) {
	C.wire_ctx_set_option(ctx, C.WIRE_OPT_TRUSTED_TEXT, b2i64(utf8))
	policy := C.int64_t(C.WIRE_STRING_JAVA)
	if utf8 {
		policy = C.WIRE_STRING_AS_GIVEN
	}
	C.wire_ctx_set_option(ctx, C.WIRE_OPT_STRING_POLICY, policy)
}

func b2i64(b bool) C.int64_t {
	if b {
		return 1
	}
	return 0
}

// Close frees the context. Documents made from it must be freed before.
func (c *Context) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.s != nil {
		C.wirego_sess_free(c.s)
		c.s = nil
	}
	c.img.free()
	c.mcache = memCache{}
	runtime.SetFinalizer(c, nil)
}

func (c *Context) ctx() *C.wire_ctx {
	if c.s == nil {
		panic("wire: use of a closed Context")
	}
	return c.s.ctx
}

// lastError converts the context's recorded error (after status st).
func (c *Context) lastError(st C.int32_t) *WireError {
	ctx := c.ctx()
	code := C.wire_ctx_error_code(ctx)
	if code == 0 {
		code = st
	}
	e := &WireError{
		Class:   C.GoString(C.wire_status_name(code)),
		Offset:  uint64(C.wire_ctx_error_offset(ctx)),
		Message: C.GoString(C.wire_ctx_error_message(ctx)),
	}
	if e.Message == "" {
		e.Message = C.GoString(C.wire_status_message(code))
	}
	C.wire_ctx_clear_error(ctx)
	return e
}

// RefTracking reports the reference tracking option.
func (c *Context) RefTracking() bool { return c.cfg.ref }

// Compatible reports the compatible mode option.
func (c *Context) Compatible() bool { return c.cfg.compatible }

// SetRefTracking changes the reference tracking option.
func (c *Context) SetRefTracking(on bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cfg.ref = on
	C.wire_ctx_set_option(c.ctx(), C.WIRE_OPT_REF_TRACKING, b2i64(on))
}

// SetCompatible changes the compatible mode option.
func (c *Context) SetCompatible(on bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cfg.compatible = on
	C.wire_ctx_set_option(c.ctx(), C.WIRE_OPT_COMPATIBLE, b2i64(on))
}

// SetUTF8Strings changes the string encoding choice (see WithUTF8Strings).
func (c *Context) SetUTF8Strings(on bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cfg.utf8 = on
	setStringOptions(c.ctx(), on)
}

// SetPeer changes the peer runtime (see Peer). Layouts compiled for the
// compiled codecs follow the option at their next use.
func (c *Context) SetPeer(p Peer) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if st := C.wire_ctx_set_option(c.ctx(), C.WIRE_OPT_PEER, C.int64_t(p)); st != 0 {
		return c.lastError(st)
	}
	c.cfg.peer = p
	return nil
}

// SetLimit sets a decoder limit.
func (c *Context) SetLimit(l Limit, v uint64) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if st := C.wire_ctx_set_limit(c.ctx(), C.int32_t(l), C.uint64_t(v)); st != 0 {
		return c.lastError(st)
	}
	return nil
}

// GetLimit returns a decoder limit.
func (c *Context) GetLimit(l Limit) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return uint64(C.wire_ctx_get_limit(c.ctx(), C.int32_t(l)))
}

// LoadSchema reads a Fory IDL (FDL) file and the files it imports and
// registers their types (wire_schema_load_fdl_file).
func (c *Context) LoadSchema(path string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	cp := C.CString(path)
	defer C.free(unsafe.Pointer(cp))
	if st := C.wire_schema_load_fdl_file(c.ctx(), cp); st != 0 {
		return c.lastError(st)
	}
	if st := C.wire_schema_finish(c.ctx()); st != 0 {
		return c.lastError(st)
	}
	return nil
}

// LoadSchemaText parses FDL source (name is used in error messages and to
// resolve imports).
func (c *Context) LoadSchemaText(name, text string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	cn := C.CString(name)
	defer C.free(unsafe.Pointer(cn))
	ct := C.CString(text)
	defer C.free(unsafe.Pointer(ct))
	if st := C.wire_schema_load_fdl(c.ctx(), ct, C.size_t(len(text)), cn); st != 0 {
		return c.lastError(st)
	}
	if st := C.wire_schema_finish(c.ctx()); st != 0 {
		return c.lastError(st)
	}
	return nil
}

// TypeIndex finds a registered user type by full name ("ns.Name") or by a
// name that is unique without its namespace.
func (c *Context) TypeIndex(name string) (uint32, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.findType(name)
}

func (c *Context) findType(name string) (uint32, bool) {
	if name == "" {
		return 0, false
	}
	cn := C.CString(name)
	defer C.free(unsafe.Pointer(cn))
	var ti C.uint32_t
	if C.wire_schema_find_type(c.ctx(), cn, C.size_t(len(name)), &ti) != 0 {
		C.wire_ctx_clear_error(c.ctx())
		return 0, false
	}
	return uint32(ti), true
}

// TypeName is the registered full name of a user type index.
func (c *Context) TypeName(index uint32) string {
	p := C.wire_schema_type_name(c.ctx(), C.uint32_t(index))
	if p == nil {
		return ""
	}
	return C.GoString(p)
}

// TypeKind is 1 struct, 2 enum, 3 union, 4 ext, -1 unknown.
func (c *Context) TypeKind(index uint32) int {
	return int(C.wire_schema_type_kind(c.ctx(), C.uint32_t(index)))
}

// ---------------------------------------------------------------------------
// Package-level API: pooled contexts per configuration.

var (
	poolMu sync.Mutex
	pools  = map[config]*sync.Pool{}
)

func acquire(cfg config) (*Context, error) {
	poolMu.Lock()
	p := pools[cfg]
	if p == nil {
		p = &sync.Pool{}
		pools[cfg] = p
	}
	poolMu.Unlock()
	if c, ok := p.Get().(*Context); ok {
		return c, nil
	}
	return newContext(cfg)
}

func release(c *Context) {
	poolMu.Lock()
	p := pools[c.cfg]
	poolMu.Unlock()
	if p != nil {
		p.Put(c)
	}
}

// Marshal encodes v as one root value.
func Marshal(v any, opts ...Option) ([]byte, error) {
	c, err := acquire(makeConfig(opts))
	if err != nil {
		return nil, err
	}
	defer release(c)
	return c.Marshal(v)
}

// MarshalAll encodes each value as a root, concatenated in one payload.
func MarshalAll(values []any, opts ...Option) ([]byte, error) {
	c, err := acquire(makeConfig(opts))
	if err != nil {
		return nil, err
	}
	defer release(c)
	return c.MarshalAll(values)
}

// Unmarshal decodes a payload of exactly one root value into v, which must
// be a non-nil pointer.
func Unmarshal(data []byte, v any, opts ...Option) error {
	c, err := acquire(makeConfig(opts))
	if err != nil {
		return err
	}
	defer release(c)
	return c.Unmarshal(data, v)
}

// UnmarshalAll decodes a payload of len(targets) roots into the pointers in
// targets.
func UnmarshalAll(data []byte, targets []any, opts ...Option) error {
	c, err := acquire(makeConfig(opts))
	if err != nil {
		return err
	}
	defer release(c)
	return c.UnmarshalAll(data, targets)
}

// Decode decodes every root of a payload into natural Go values (see
// Context.Decode).
func Decode(data []byte, opts ...Option) ([]any, error) {
	c, err := acquire(makeConfig(opts))
	if err != nil {
		return nil, err
	}
	defer release(c)
	return c.Decode(data)
}

func arrayWidthC(id int) int { return int(C.wire_type_array_width(C.uint32_t(id))) }
