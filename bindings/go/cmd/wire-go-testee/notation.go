package main

// The value notation (spec/notation.md) through libwire's own printer and
// parser (Doc.Notation, Doc.AddNotation: wire_notation_print/parse), so the
// testee checks the binding's codec and not a notation printer of its own.

import (
	"fmt"

	wire "libwire.dev/wire"
)

// notationError is a malformed request (class "notation" or "arg").
type notationError struct{ msg string }

func (e *notationError) Error() string { return e.msg }

func flags(untracked bool) int {
	if untracked {
		return wire.NotationUntracked
	}
	return 0
}

func rootJSON(d *wire.Doc, i int, untracked bool) (*jv, error) {
	return nodeJSON(d, d.Root(i), untracked)
}

func nodeJSON(d *wire.Doc, n wire.Node, untracked bool) (*jv, error) {
	text, err := d.Notation(n, flags(untracked))
	if err != nil {
		return nil, err
	}
	v, err := parseJSON(text)
	if err != nil {
		return nil, &notationError{fmt.Sprintf("libwire printed invalid JSON: %v", err)}
	}
	return v, nil
}

func addRoot(d *wire.Doc, v *jv) error {
	return d.AddNotation([]byte(v.String()), 0)
}
