/* _enums.c - the enum numbers a schema declares, checked when written.
 *
 * An enum value is written only with a number its schema enum declares
 * (wire_schema_enum_values); any other is refused with WireError("value")
 * naming the field, the number and the declared numbers. The check is made
 * once per type where it can be: a registered enum.Enum class has its
 * members split when it is registered (eplan.nw: the members whose wire
 * value is declared come first), so the layouts look only at those and
 * the tape path refuses the others; an EnumValue of a schema enum is
 * checked against a set built once per enum and codec (the hooks call
 * Codec.enum_check). Reading keeps any number, as before. */
#include "_native.h"

/* The numbers enum `ti` declares, in declaration order: a new list, or
 * NULL with a Python error set; *is_enum 0 (and an empty list) when ti is
 * no enum of the schema. */
static PyObject *declared_list(Codec *c, uint32_t ti, int *is_enum) {
  size_t n = 0;
  *is_enum = 1;
  if (wire_schema_enum_values(c->ctx, ti, NULL, 0, &n) == WIRE_E_ARG) {
    wire_ctx_clear_error(c->ctx);
    *is_enum = 0;
    return PyList_New(0);
  }
  uint32_t *v = PyMem_Malloc((n ? n : 1) * sizeof *v);
  if (!v) return PyErr_NoMemory();
  int32_t st = wire_schema_enum_values(c->ctx, ti, v, n, &n);
  if (st) {
    PyMem_Free(v);
    return lw_ctx_fail(c, st);
  }
  PyObject *l = PyList_New((Py_ssize_t)n);
  for (size_t i = 0; l && i < n; i++) {
    PyObject *x = PyLong_FromUnsignedLong(v[i]);
    if (!x) Py_CLEAR(l);
    else PyList_SET_ITEM(l, (Py_ssize_t)i, x);
  }
  PyMem_Free(v);
  return l;
}

PyObject *lw_enum_refuse(Codec *c, uint32_t ti, PyObject *num) {
  int is_enum;
  PyObject *l = declared_list(c, ti, &is_enum);
  if (!l) return NULL;
  if (PyList_Sort(l)) {
    Py_DECREF(l);
    return NULL;
  }
  /* the first eight, then how many */
  Py_ssize_t n = PyList_GET_SIZE(l);
  PyObject *shown = PyList_GetSlice(l, 0, n > 8 ? 8 : n);
  PyObject *sep = PyUnicode_FromString(", ");
  PyObject *strs = shown ? PyObject_CallFunctionObjArgs(
                               (PyObject *)&PyMap_Type, (PyObject *)&PyUnicode_Type,
                               shown, NULL)
                         : NULL;
  PyObject *joined = !n ? PyUnicode_FromString("none")
                     : sep && strs ? PyUnicode_Join(sep, strs) : NULL;
  Py_XDECREF(strs);
  Py_XDECREF(sep);
  Py_XDECREF(shown);
  Py_DECREF(l);
  if (!joined) return NULL;
  PyObject *more = n > 8 ? PyUnicode_FromFormat(", ... (%zd values)", n)
                         : PyUnicode_FromString("");
  const char *tn = wire_schema_type_name(c->ctx, ti);
  if (!more)
    ;
  else if (c->field)
    lw_fail(c, "value", WIRE_E_VALUE, "field %s: enum value %S is not "
            "declared by %s (declared: %U%U)", c->field, num, tn ? tn : "?",
            joined, more);
  else
    lw_fail(c, "value", WIRE_E_VALUE, "enum value %S is not declared by %s "
            "(declared: %U%U)", num, tn ? tn : "?", joined, more);
  Py_XDECREF(more);
  Py_DECREF(joined);
  return NULL;
}

int lw_enum_split(Codec *c, eplan *p) {
  int is_enum;
  PyObject *l = declared_list(c, p->type, &is_enum);
  if (!l) return -1;
  PyObject *set = PyFrozenSet_New(l);
  Py_DECREF(l);
  if (!set) return -1;
  /* a stable split: declared members first (their order kept) */
  Py_ssize_t n = p->n, nw = 0;
  PyObject **m = PyMem_Malloc((n ? n : 1) * sizeof *m);
  uint32_t *v = PyMem_Malloc((n ? n : 1) * sizeof *v);
  uint8_t *ok = PyMem_Malloc(n ? n : 1);
  int rc = -1;
  if (!m || !v || !ok) {
    PyErr_NoMemory();
    goto done;
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *x = PyLong_FromUnsignedLong(p->value[i]);
    int r = x ? PySet_Contains(set, x) : -1;
    Py_XDECREF(x);
    if (r < 0) goto done;
    ok[i] = (uint8_t)r;
    nw += r;
  }
  Py_ssize_t a = 0, b = nw;
  for (Py_ssize_t i = 0; i < n; i++) {
    Py_ssize_t k = ok[i] ? a++ : b++;
    m[k] = p->member[i];
    v[k] = p->value[i];
  }
  memcpy(p->member, m, (size_t)n * sizeof *m);
  memcpy(p->value, v, (size_t)n * sizeof *v);
  p->nw = nw;
  rc = 0;
done:
  PyMem_Free(m);
  PyMem_Free(v);
  PyMem_Free(ok);
  Py_DECREF(set);
  return rc;
}

/* Codec.enum_check(type index, number): None when enum `ti` declares the
 * number, else WireError("value") naming the field being written. */
PyObject *lw_Codec_enum_check(Codec *c, PyObject *args) {
  unsigned int ti;
  PyObject *num;
  if (!PyArg_ParseTuple(args, "IO!", &ti, &PyLong_Type, &num)) return NULL;
  PyObject *key = PyLong_FromUnsignedLong(ti);
  if (!key) return NULL;
  PyObject *set = PyDict_GetItemWithError(c->enum_decl, key);
  if (!set) {
    int is_enum;
    PyObject *l = PyErr_Occurred() ? NULL : declared_list(c, ti, &is_enum);
    set = l ? (is_enum ? PyFrozenSet_New(l) : Py_NewRef(Py_None)) : NULL;
    Py_XDECREF(l);
    if (!set || PyDict_SetItem(c->enum_decl, key, set)) {
      Py_XDECREF(set);
      Py_DECREF(key);
      return NULL;
    }
    Py_DECREF(set);      /* the dict holds it */
  }
  Py_DECREF(key);
  if (set == Py_None) Py_RETURN_NONE;       /* not an enum: not ours */
  int r = PySet_Contains(set, num);
  if (r < 0) return NULL;
  if (r) Py_RETURN_NONE;
  return lw_enum_refuse(c, ti, num);
}

/* The schema enum registered with numeric user id `id`: its type index, or
 * WIRE_BY_NAME when the schema has none. wire.h maps an id to a type index
 * for a node only, so a node of a scratch document is asked
 * (wire_node_user_type; an enum node is looked up among enums), once per id
 * (clear_plans forgets them when the schema changes). -1 with a Python
 * error. */
static int64_t enum_by_id(Codec *c, uint32_t id) {
  PyObject *key = PyLong_FromUnsignedLong(id);
  if (!key) return -1;
  PyObject *v = PyDict_GetItemWithError(c->enum_ids, key);
  if (v) {
    Py_DECREF(key);
    return (int64_t)PyLong_AsUnsignedLong(v);
  }
  uint32_t ti = WIRE_BY_NAME;
  wire_doc *doc = PyErr_Occurred() ? NULL : wire_doc_new(c->ctx);
  if (doc) {
    wire_node *nd = wire_node_new_enum(doc, id, 0);
    uint32_t t;
    if (nd && wire_node_user_type(doc, nd, &t) == 0) ti = t;
    wire_doc_free(doc);
  }
  wire_ctx_clear_error(c->ctx);
  v = PyErr_Occurred() ? NULL : PyLong_FromUnsignedLong(ti);
  int r = v ? PyDict_SetItem(c->enum_ids, key, v) : -1;
  Py_XDECREF(v);
  Py_DECREF(key);
  return r ? -1 : (int64_t)ti;
}

PyObject *lw_Codec_enum_check_id(Codec *c, PyObject *args) {
  unsigned int id;
  PyObject *num;
  if (!PyArg_ParseTuple(args, "IO!", &id, &PyLong_Type, &num)) return NULL;
  int64_t ti = enum_by_id(c, id);
  if (ti < 0) return NULL;
  if (ti == WIRE_BY_NAME) Py_RETURN_NONE;    /* nothing says what it has */
  PyObject *a = Py_BuildValue("(IO)", (unsigned int)ti, num);
  if (!a) return NULL;
  PyObject *r = lw_Codec_enum_check(c, a);
  Py_DECREF(a);
  return r;
}
