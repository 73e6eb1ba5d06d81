package wire

import (
	"fmt"
	"reflect"
)

// Checking a Go field type against the type its schema declares, at
// registration: a Go type binds a declared type when every path (the
// compiled codecs, the tape path by index and by name) writes its values
// as exactly that type and reads that type back into it. The rules:
//
//   - bool, each integer width and signedness, float32 and float64,
//     string: the Go kind of the same width and signedness (a named type
//     of that kind too: type Color int32), in any of the type's encodings
//     (int32 binds varint32 and fixed int32; int64 and int bind varint64,
//     fixed and tagged int64; uint64 and uint their unsigned forms);
//   - float16, bfloat16, date, timestamp, duration, decimal: Float16,
//     BFloat16, Date, time.Time, time.Duration, Decimal;
//   - binary: a slice of bytes; a dense array: a slice of the element's
//     unnamed Go kind (Float16 / BFloat16 for their arrays);
//   - list and set: a slice or Go array whose element binds the declared
//     element; a set also wire.Set; map: a Go map whose key and value
//     bind the declared key and value;
//   - enum: wire.Enum or any Go integer kind (the enumerator's number;
//     a number the enum does not declare is refused when written,
//     enums.go);
//     union: wire.Union; struct or ext: the Go struct registered for that
//     schema type (a struct registered later is checked when it is), or
//     wire.Struct;
//   - any of these through one pointer where the type is declared
//     nullable (optional; nil is null), a registered struct through a
//     pointer always (a nil where no null is declared is refused when
//     written, on every path), and interface{} for every declared type
//     (its dynamic value is checked when written).
//
// bindErr says why gt cannot hold dt, or returns nil. want collects the
// Go struct types not registered yet with the schema type each must be
// bound to; self is the type being registered and its index.

type bindWant struct {
	index uint32
	owner reflect.Type
	field string
}

func (c *Context) bindErr(gt reflect.Type, dt *dtype, self reflect.Type, selfIdx uint32, want *[]bindPending, depth int) error {
	if dt == nil {
		return fmt.Errorf("no declared type")
	}
	if depth > 64 {
		return fmt.Errorf("nested too deeply")
	}
	if gt.Kind() == reflect.Pointer {
		et := gt.Elem()
		if et.Kind() == reflect.Pointer {
			return fmt.Errorf("a pointer to a pointer (%s) cannot hold %s", gt, declName(c, dt))
		}
		if !dt.nullable && !(et.Kind() == reflect.Struct && !isSpecial(et) && et != typTime) {
			// its nil would be a null where the schema has none
			return fmt.Errorf("a Go %s is nullable, %s is declared without optional (hold it by value)", gt, declName(c, dt))
		}
		gt = et
	}
	if gt.Kind() == reflect.Interface {
		if gt.NumMethod() == 0 {
			return nil
		}
		return fmt.Errorf("the interface %s cannot hold %s (use interface{})", gt, declName(c, dt))
	}
	bad := func() error { return fmt.Errorf("a Go %s cannot hold %s", gt, declName(c, dt)) }
	special := gt == typDate || gt == typDuration || gt == typF16 || gt == typBF16
	kind := gt.Kind()
	switch dt.id {
	case TypeUnknown:
		return bad()
	case TypeBool:
		return okIf(kind == reflect.Bool, bad)
	case TypeInt8:
		return okIf(kind == reflect.Int8, bad)
	case TypeInt16:
		return okIf(kind == reflect.Int16, bad)
	case TypeInt32, TypeVarint32:
		return okIf(kind == reflect.Int32, bad)
	case TypeInt64, TypeVarint64, TypeTaggedInt64:
		return okIf(!special && (kind == reflect.Int64 || kind == reflect.Int), bad)
	case TypeUint8:
		return okIf(kind == reflect.Uint8, bad)
	case TypeUint16:
		return okIf(!special && kind == reflect.Uint16, bad)
	case TypeUint32, TypeVarUint32:
		return okIf(kind == reflect.Uint32, bad)
	case TypeUint64, TypeVarUint64, TypeTaggedUint64:
		return okIf(kind == reflect.Uint64 || kind == reflect.Uint, bad)
	case TypeFloat16:
		return okIf(gt == typF16, bad)
	case TypeBfloat16:
		return okIf(gt == typBF16, bad)
	case TypeFloat32:
		return okIf(kind == reflect.Float32, bad)
	case TypeFloat64:
		return okIf(kind == reflect.Float64, bad)
	case TypeString:
		return okIf(kind == reflect.String, bad)
	case TypeBinary:
		return okIf(kind == reflect.Slice && gt.Elem().Kind() == reflect.Uint8, bad)
	case TypeDate:
		return okIf(gt == typDate, bad)
	case TypeTimestamp:
		return okIf(gt == typTime, bad)
	case TypeDuration:
		return okIf(gt == typDuration, bad)
	case TypeDecimal:
		return okIf(gt == typDecimal, bad)
	case TypeEnum:
		return okIf(gt == typEnum || (isIntKind(kind) && !special), bad)
	case TypeUnion:
		return okIf(gt == typUnion, bad)
	case TypeList, TypeSet:
		if dt.id == TypeSet && gt == typSet {
			return nil
		}
		if kind != reflect.Slice && kind != reflect.Array {
			return bad()
		}
		if gt == typSet {
			return bad() // a Set is a set, not a list
		}
		if err := c.bindErr(gt.Elem(), dt.elem, self, selfIdx, want, depth+1); err != nil {
			return fmt.Errorf("%s: element: %v", declName(c, dt), err)
		}
		return nil
	case TypeMap:
		if kind != reflect.Map {
			return bad()
		}
		if err := c.bindErr(gt.Key(), dt.key, self, selfIdx, want, depth+1); err != nil {
			return fmt.Errorf("%s: key: %v", declName(c, dt), err)
		}
		if err := c.bindErr(gt.Elem(), dt.vt, self, selfIdx, want, depth+1); err != nil {
			return fmt.Errorf("%s: value: %v", declName(c, dt), err)
		}
		return nil
	case TypeStruct:
		if gt == typStruct {
			return nil
		}
		if kind != reflect.Struct || isSpecial(gt) || gt == typTime {
			return bad()
		}
		if gt == self {
			return okIf(selfIdx == dt.user, bad)
		}
		if si := c.reg.byType[gt]; si != nil {
			if si.index != dt.user {
				return fmt.Errorf("the Go %s is registered as %s, not as %s", gt, c.TypeName(si.index), declName(c, dt))
			}
			return nil
		}
		*want = append(*want, bindPending{gt, dt.user})
		return nil
	}
	if ArrayWidth(dt.id) > 0 {
		if kind != reflect.Slice && kind != reflect.Array {
			return bad()
		}
		if dt.id == TypeUint8Array && gt.Elem().Kind() == reflect.Uint8 && gt.Elem().PkgPath() == "" {
			return nil // []byte, written as the declared array
		}
		return okIf(denseArrayType(gt) == dt.id, bad)
	}
	return fmt.Errorf("%s has no Go binding", declName(c, dt))
}

// bindPending: a Go struct type not registered yet, to be bound to schema
// type index.
type bindPending struct {
	typ   reflect.Type
	index uint32
}

func okIf(ok bool, bad func() error) error {
	if ok {
		return nil
	}
	return bad()
}

// declName spells a declared type: "int32", "list<x.Color>", "x.Leaf".
func declName(c *Context, dt *dtype) string {
	if dt == nil {
		return "?"
	}
	switch dt.id {
	case TypeStruct, TypeEnum, TypeUnion:
		return c.TypeName(dt.user)
	case TypeList, TypeSet:
		return TypeName(dt.id) + "<" + declName(c, dt.elem) + ">"
	case TypeMap:
		return "map<" + declName(c, dt.key) + ", " + declName(c, dt.vt) + ">"
	}
	return TypeName(dt.id)
}

// checkBinding checks every field of Go struct type t (fields) against
// the schema type idx; it records the Go struct types the fields hold
// that are not registered yet (c.reg.want) and checks the earlier
// records against t itself.
func (c *Context) checkBinding(t reflect.Type, idx uint32, fields []fieldInfo) error {
	sfs, err := c.schemaFields(idx)
	if err != nil {
		return err
	}
	var pend []bindPending
	var owners []bindWant
	for i := range fields {
		f := &fields[i]
		for _, sf := range sfs {
			if sf.name != f.wireName {
				continue
			}
			gt := t.FieldByIndex(f.goIndex).Type
			n := len(pend)
			if err := c.bindErr(gt, sf.dt, t, idx, &pend, 0); err != nil {
				return goErr("schema", "field %s of %s (%q, declared %s): %v", f.goName, t, f.wireName, declName(c, sf.dt), err)
			}
			for range pend[n:] {
				owners = append(owners, bindWant{owner: t, field: f.goName})
			}
		}
	}
	for _, w := range c.reg.want[t] {
		if w.index != idx {
			return goErr("schema", "%s is bound to %s, but field %s of %s declares %s", t, c.TypeName(idx), w.field, w.owner, c.TypeName(w.index))
		}
	}
	for i, p := range pend {
		w := owners[i]
		w.index = p.index
		c.reg.want[p.typ] = append(c.reg.want[p.typ], w)
	}
	return nil
}
