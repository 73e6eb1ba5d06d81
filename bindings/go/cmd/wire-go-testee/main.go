// Command wire-go-testee serves the conformance runner's testee protocol
// (conformance/PROTOCOL.md) with the Go binding's Document API: requests
// and responses are JSON lines on stdin/stdout, values in the value
// notation (spec/notation.md).
//
//	wire-go-testee [-root DIR]
//
// Schema paths in requests are resolved against -root (default: the
// current directory, or the first parent that has fixtures/).
package main

import (
	"bufio"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	wire "libwire.dev/wire"
)

type server struct {
	root string
	ctxs map[string]*wireCtx
}

func findRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return "."
	}
	for d := dir; ; d = filepath.Dir(d) {
		if st, err := os.Stat(filepath.Join(d, "fixtures")); err == nil && st.IsDir() {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}

func main() {
	root := flag.String("root", "", "directory that relative schema paths are resolved against")
	flag.Parse()
	s := &server{root: *root, ctxs: map[string]*wireCtx{}}
	if s.root == "" {
		s.root = findRoot()
	}
	out := bufio.NewWriter(os.Stdout)
	hello := jobj()
	h := jobj()
	h.set("name", jstr("libwire-go"))
	h.set("version", jstr(wire.Version()))
	h.set("runtime", jstr("libwire"))
	h.set("capabilities", jarr(jstr("ref_tracking"), jstr("compatible"), jstr("schema"),
		jstr("bfloat16"), jstr("decimal"), jstr("dense_array"), jstr("enum"), jstr("ext"),
		jstr("float16"), jstr("meta_string"), jstr("named_types"), jstr("struct"),
		jstr("temporal"), jstr("typedef"), jstr("union"), jstr("unsigned"),
		jstr("evolution"), jstr("peer")))
	hello.set("hello", h)
	fmt.Fprintln(out, hello.String())
	out.Flush()

	in := bufio.NewReader(os.Stdin)
	for {
		line, err := in.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) > 0 {
			fmt.Fprintln(out, s.handle(line).String())
			out.Flush()
		}
		if err != nil {
			break
		}
	}
	for _, c := range s.ctxs {
		c.Close()
	}
}

func failure(id *jv, class, msg string) *jv {
	r := jobj()
	r.set("id", id)
	r.set("ok", jbool(false))
	r.set("class", jstr(class))
	r.set("message", jstr(msg))
	return r
}

func errorClass(err error) (string, string) {
	var we *wire.WireError
	if errors.As(err, &we) {
		return we.Class, fmt.Sprintf("%s at byte %d: %s", we.Class, we.Offset, we.Message)
	}
	var ne *notationError
	if errors.As(err, &ne) {
		return "notation", ne.msg
	}
	return "arg", err.Error()
}

// context returns a cached context for a config and schema list.
func (s *server) context(cfg *jv, schemas *jv) (*wire.Context, error) {
	ref, compatible := false, false
	if r := cfg.get("ref"); r != nil && r.k == jBool {
		ref = r.b
	}
	if c := cfg.get("compatible"); c != nil && c.k == jBool {
		compatible = c.b
	}
	peer, peerName := wire.PeerNone, ""
	if p := cfg.get("peer"); p != nil && p.k != jNull {
		peers := map[string]wire.Peer{"java": wire.PeerJava, "pyfory": wire.PeerPyfory, "go": wire.PeerGo}
		var ok bool
		if p.isStr() {
			peer, ok = peers[p.s]
			peerName = p.s
		}
		if !ok {
			return nil, &notationError{"config.peer must be java, pyfory or go"}
		}
	}
	var paths []string
	if schemas != nil && schemas.k != jNull {
		if schemas.k != jArr {
			return nil, &notationError{`"schemas" must be an array of paths`}
		}
		for _, p := range schemas.arr {
			if !p.isStr() {
				return nil, &notationError{`"schemas" must be an array of paths`}
			}
			path := p.s
			if !filepath.IsAbs(path) {
				path = filepath.Join(s.root, path)
			}
			paths = append(paths, path)
		}
	}
	key := fmt.Sprintf("%v/%v/%s/%s", ref, compatible, peerName, strings.Join(paths, "\x00"))
	if c, ok := s.ctxs[key]; ok {
		return c, nil
	}
	c, err := wire.NewContext(wire.WithRefTracking(ref), wire.WithCompatible(compatible), wire.WithPeer(peer))
	if err != nil {
		return nil, err
	}
	for _, p := range paths {
		if err := c.LoadSchema(p); err != nil {
			c.Close()
			return nil, err
		}
	}
	s.ctxs[key] = c
	return c, nil
}

func (s *server) handle(line []byte) (resp *jv) {
	req, err := parseJSON(line)
	if err != nil || req.k != jObj {
		return failure(jnull(), "arg", "the request is not a JSON object")
	}
	id := req.get("id")
	if id == nil {
		id = jnull()
	}
	defer func() {
		if r := recover(); r != nil {
			resp = failure(id, "unsupported", fmt.Sprint("internal error: ", r))
		}
	}()
	cfg := req.get("config")
	if cfg == nil {
		cfg = jobj()
	}
	c, err := s.context(cfg, req.get("schemas"))
	if err != nil {
		cl, msg := errorClass(err)
		return failure(id, cl, msg)
	}
	op := req.get("op")
	switch {
	case op.isStr() && op.s == "decode":
		h := req.get("hex")
		if !h.isStr() {
			return failure(id, "arg", `decode needs "hex"`)
		}
		data, err := hex.DecodeString(h.s)
		if err != nil {
			return failure(id, "arg", "bad hex: "+err.Error())
		}
		doc, err := c.DecodeDoc(data)
		if err != nil {
			cl, msg := errorClass(err)
			return failure(id, cl, msg)
		}
		defer doc.Free()
		vals := jarr()
		project := req.get("project")
		if project != nil && project.k == jBool && project.b {
			// Each root struct read as the reader schema's version of its
			// type (conformance/PROTOCOL.md, capability "evolution").
			for i := 0; i < doc.RootCount(); i++ {
				r := doc.Root(i)
				if r.Type() < 27 || r.Type() > 30 {
					continue
				}
				ti, ok := r.UserType()
				if !ok {
					continue
				}
				p, err := doc.Project(r, ti)
				if err != nil {
					cl, msg := errorClass(err)
					return failure(id, cl, msg)
				}
				v, err := nodeJSON(doc, p, c.RefTracking())
				if err != nil {
					cl, msg := errorClass(err)
					return failure(id, cl, msg)
				}
				vals.arr = append(vals.arr, v)
			}
		} else {
			for i := 0; i < doc.RootCount(); i++ {
				v, err := rootJSON(doc, i, c.RefTracking())
				if err != nil {
					cl, msg := errorClass(err)
					return failure(id, cl, msg)
				}
				vals.arr = append(vals.arr, v)
			}
		}
		r := jobj()
		r.set("id", id)
		r.set("ok", jbool(true))
		r.set("values", vals)
		return r
	case op.isStr() && op.s == "encode":
		vals := req.get("values")
		if vals == nil || vals.k != jArr {
			return failure(id, "arg", `encode needs "values"`)
		}
		doc, err := c.NewDoc()
		if err != nil {
			cl, msg := errorClass(err)
			return failure(id, cl, msg)
		}
		defer doc.Free()
		for _, v := range vals.arr {
			if err := addRoot(doc, v); err != nil {
				cl, msg := errorClass(err)
				return failure(id, cl, msg)
			}
		}
		out, err := doc.Encode()
		if err != nil {
			cl, msg := errorClass(err)
			return failure(id, cl, msg)
		}
		r := jobj()
		r.set("id", id)
		r.set("ok", jbool(true))
		r.set("hex", jstr(hex.EncodeToString(out)))
		return r
	}
	return failure(id, "unsupported", "unknown op")
}

type wireCtx = wire.Context
