/* fdl_parse.c - recursive-descent parser from the token array of one file
 * into its AST: package, options, imports, enums, messages, unions and
 * services, with the nesting bounded by FDL_MAX_NESTING. */
#include "fdl.h"

/* ---- parser ------------------------------------------------------------ */

static fdl_tok *cur(fdl_parser *P) { return &P->f->toks[P->p]; }
static bool check(fdl_parser *P, int t) { return cur(P)->t == t; }
static fdl_tok *advance(fdl_parser *P) {
  fdl_tok *t = cur(P);
  if (t->t != TK_EOF) P->p++;
  return t;
}
static bool accept(fdl_parser *P, int t) {
  if (!check(P, t)) return false;
  advance(P);
  return true;
}

/* How a token is shown in messages. */
static void tok_desc(const fdl_file *f, const fdl_tok *t, char *buf,
                     size_t cap) {
  if (t->t == TK_EOF)
    snprintf(buf, cap, "end of input");
  else
    snprintf(buf, cap, "'%.*s'", (int)(t->len > 32 ? 32 : t->len),
             f->text + t->off);
}

/* Syntax error at the current token: "expected <what>, found <token>". */
static int32_t unexpected(fdl_parser *P, const char *what) {
  char d[48];
  tok_desc(P->f, cur(P), d, sizeof d);
  return syn(P->L, P->f, cur(P)->off, "expected %s, found %s", what, d);
}

static int32_t expect(fdl_parser *P, int t, const char *what,
                      fdl_tok **out) {
  if (!check(P, t)) return unexpected(P, what);
  fdl_tok *k = advance(P);
  if (out) *out = k;
  return WIRE_OK;
}

static int32_t int_value(fdl_parser *P, const fdl_tok *t, int64_t *out) {
  if (t->big)
    return syn(P->L, P->f, t->off, "integer %.*s is out of range",
               (int)t->len, P->f->text + t->off);
  *out = t->ival;
  return WIRE_OK;
}

/* IDENT ('.' IDENT)* as one string. */
static int32_t parse_qname(fdl_parser *P, const char *what, const char **out,
                           size_t *out_len, size_t *off) {
  fdl_tok *t = NULL;
  TRY(expect(P, TK_IDENT, what, &t));
  size_t first = P->p - 1, total = t->len, parts = 1;
  while (check(P, TK_DOT)) {
    advance(P);
    fdl_tok *u = NULL;
    TRY(expect(P, TK_IDENT, "an identifier after '.'", &u));
    total += 1 + u->len;
    parts++;
  }
  if (off) *off = t->off;
  if (parts == 1) {
    *out = P->f->text + t->off;
    *out_len = t->len;
    return WIRE_OK;
  }
  char *b = wire__arena_alloc(&P->L->arena, total + 1);
  if (!b) return nomem(P->L);
  size_t o = 0;
  for (size_t k = 0; k < parts; k++) {
    const fdl_tok *u = &P->f->toks[first + 2 * k];
    if (k) b[o++] = '.';
    memcpy(b + o, P->f->text + u->off, u->len);
    o += u->len;
  }
  b[o] = 0;
  *out = b;
  *out_len = total;
  return WIRE_OK;
}

/* An option value: string, integer, true, false or identifier. */
typedef struct {
  uint8_t t;
  bool big;
  int64_t i;
  const char *s;
  size_t slen;
  size_t off;
} fdl_val;

static int32_t parse_value(fdl_parser *P, fdl_val *v) {
  fdl_tok *t = cur(P);
  memset(v, 0, sizeof *v);
  v->t = t->t;
  v->off = t->off;
  switch (t->t) {
  case TK_STRING: v->s = t->s; v->slen = t->slen; break;
  case TK_IDENT: v->s = P->f->text + t->off; v->slen = t->len; break;
  case TK_INT: v->i = t->ival; v->big = t->big; break;
  case TK_TRUE: case TK_FALSE: break;
  default:
    return unexpected(P, "an option value (string, integer, true, false "
                         "or identifier)");
  }
  advance(P);
  return WIRE_OK;
}

/* Python truthiness, as foryc's bool(value). */
static bool truthy(const fdl_val *v) {
  switch (v->t) {
  case TK_TRUE: return true;
  case TK_FALSE: return false;
  case TK_INT: return v->big || v->i != 0;
  default: return v->slen != 0;
  }
}

/* option NAME = VALUE ;  (file level when apply) */
/* Parses the file options of R-FDLX-1, R-FDLX-2, R-FDLX-3. */
static int32_t parse_option(fdl_parser *P, bool apply) {
  advance(P); /* option */
  fdl_tok *name = NULL;
  fdl_val v;
  TRY(expect(P, TK_IDENT, "an option name", &name));
  TRY(expect(P, TK_EQUALS, "'=' after the option name", NULL));
  TRY(parse_value(P, &v));
  TRY(expect(P, TK_SEMI, "';' after the option", NULL));
  if (!apply) return WIRE_OK;
  const char *n = P->f->text + name->off;
  /* foryc: enable_auto_type_id is off only for the literal false. */
  if (eqs(n, name->len, "enable_auto_type_id"))
    P->f->no_auto_id = v.t == TK_FALSE;
  else if (eqs(n, name->len, "evolving"))
    P->f->evolving = truthy(&v);
  /* libwire extension: identify this file's fields by name on the wire
   * (TypeDef names, fingerprints) instead of by their numbers, as types
   * declared without @ForyField ids in the runtimes are. foryc ignores it. */
  else if (eqs(n, name->len, "wire_fields_by_name"))
    P->f->fields_by_name = truthy(&v);
  /* libwire extension: map keys are declared nullable in TypeDefs, as the
   * Java runtime declares them. */
  else if (eqs(n, name->len, "wire_nullable_map_keys"))
    P->f->nullable_map_keys = truthy(&v);
  /* libwire extension: the file is written for libwire (or describes
   * runtime classes): no warnings where foryc reads it otherwise. */
  else if (eqs(n, name->len, "wire_warn_foryc"))
    P->f->quiet_foryc = !truthy(&v);
  /* libwire extension: the namespace of the types this file registers by
   * name, e.g. "" as register(cls, "name") gives in the runtimes, instead
   * of the package (or foryc's "default"). */
  else if (eqs(n, name->len, "wire_namespace") && v.t == TK_STRING) {
    if (memchr(v.s, 0, v.slen) ||
        wire_meta_choose_encoding(WIRE_MSCTX_NAMESPACE, (const uint8_t *)v.s,
                                  v.slen) < 0)
      return syn(P->L, P->f, v.off, "wire_namespace must be a valid name");
    P->f->wire_ns = v.s;
    P->f->wire_ns_len = v.slen;
  }
  /* Other options (java_package, go_package, ...) only steer code
   * generation; unknown ones are ignored, as foryc does. */
  return WIRE_OK;
}

static int32_t parse_package(fdl_parser *P) {
  fdl_tok *kw = advance(P);
  if (P->f->has_pkg)
    return syn(P->L, P->f, kw->off, "duplicate package declaration");
  TRY(parse_qname(P, "a package name", &P->f->pkg, &P->f->pkg_len, NULL));
  P->f->has_pkg = true;
  if (check(P, TK_IDENT) && eqs(P->f->text + cur(P)->off, cur(P)->len,
                                "alias")) {
    advance(P);
    TRY(parse_qname(P, "a package alias", &P->f->pkg_alias,
                    &P->f->pkg_alias_len, NULL));
  }
  return expect(P, TK_SEMI, "';' after the package declaration", NULL);
}

static int32_t parse_import(fdl_parser *P) {
  fdl_tok *kw = advance(P);
  if (check(P, TK_PUBLIC) || check(P, TK_WEAK))
    return syn(P->L, P->f, kw->off, "'import %s' is not supported in FDL; "
               "use import \"path\";",
               check(P, TK_PUBLIC) ? "public" : "weak");
  fdl_tok *path = NULL;
  TRY(expect(P, TK_STRING, "an import path string", &path));
  TRY(expect(P, TK_SEMI, "';' after the import", NULL));
  fdl_import *imp = anew(P->L, sizeof *imp);
  if (!imp) return nomem(P->L);
  imp->path = path->s;
  imp->plen = path->slen;
  imp->off = path->off;
  if (P->f->last_import) P->f->last_import->next = imp;
  else P->f->imports = imp;
  P->f->last_import = imp;
  return WIRE_OK;
}

/* reserved 2, 9 to 11, 40 to max, "NAME";  - parsed and ignored. */
static int32_t parse_reserved(fdl_parser *P) {
  advance(P);
  for (;;) {
    if (check(P, TK_STRING)) {
      advance(P);
    } else if (check(P, TK_INT)) {
      advance(P);
      if (accept(P, TK_TO) && !accept(P, TK_MAX) && !accept(P, TK_INT))
        return unexpected(P, "an integer or 'max' after 'to'");
    } else {
      return unexpected(P, "a reserved number or name");
    }
    if (accept(P, TK_COMMA)) continue;
    return expect(P, TK_SEMI, "',' or ';' in the reserved statement", NULL);
  }
}

/* [name=value, ...] after a type name. */
/* Parses R-FDLX-7. */
static int32_t parse_type_options(fdl_parser *P, fdl_type *t) {
  advance(P); /* [ */
  for (;;) {
    fdl_tok *name = NULL;
    fdl_val v;
    TRY(expect(P, TK_IDENT, "a type option name", &name));
    TRY(expect(P, TK_EQUALS, "'=' after the option name", NULL));
    TRY(parse_value(P, &v));
    const char *n = P->f->text + name->off;
    if (eqs(n, name->len, "id")) {
      if (v.t != TK_INT)
        return syn(P->L, P->f, v.off, "type option 'id' must be an integer");
      if (v.big || v.i < 0 || (v.i == 0 && t->kind != WIRE_KIND_UNION))
        return syn(P->L, P->f, v.off, "type option 'id' must be a %s "
                   "integer", t->kind == WIRE_KIND_UNION ? "non-negative"
                                                         : "positive");
      t->has_id = true;
      t->id = v.i;
    } else if (eqs(n, name->len, "alias")) {
      if (v.t == TK_STRING || v.t == TK_IDENT) {
        t->alias = v.s;
        t->alias_len = v.slen;
      }
    } else if (eqs(n, name->len, "evolving")) {
      t->evolving = truthy(&v);
    } else if (eqs(n, name->len, "wire_ext")) {
      /* libwire extension: the message stands for an ext type (a custom
       * body the schema does not describe). */
      t->wire_ext = truthy(&v);
    } /* deprecated, namespace, use_record_for_java, ...: ignored */
    if (accept(P, TK_COMMA)) continue;
    return expect(P, TK_RBRACKET, "',' or ']' in the type options", NULL);
  }
}

/* ref(weak=true, thread_safe=false): code generation only; ignored. */
static int32_t parse_ref_options(fdl_parser *P) {
  if (!accept(P, TK_LPAREN)) return WIRE_OK;
  for (;;) {
    if (!check(P, TK_IDENT) && !check(P, TK_WEAK))
      return unexpected(P, "a ref option name");
    advance(P);
    fdl_val v;
    TRY(expect(P, TK_EQUALS, "'=' after the ref option name", NULL));
    TRY(parse_value(P, &v));
    if (accept(P, TK_COMMA)) continue;
    return expect(P, TK_RPAREN, "',' or ')' in the ref options", NULL);
  }
}

static fdl_texpr *new_texpr(fdl_parser *P, uint8_t form, size_t off) {
  fdl_texpr *x = anew(P->L, sizeof *x);
  if (x) {
    x->form = form;
    x->off = off;
  }
  return x;
}

static int32_t parse_type(fdl_parser *P, fdl_texpr **out);

/* Modifiers in front of a list element or a map value. */
static int32_t parse_elem_mods(fdl_parser *P, bool *optional, bool *ref) {
  for (;;) {
    if (accept(P, TK_OPTIONAL)) {
      *optional = true;
    } else if (accept(P, TK_REF)) {
      *ref = true;
      TRY(parse_ref_options(P));
    } else {
      return WIRE_OK;
    }
  }
}

static int32_t parse_type_inner(fdl_parser *P, fdl_texpr **out) {
  fdl_tok *t = cur(P);
  fdl_texpr *x;
  if (t->t == TK_LIST) {
    advance(P);
    bool opt = false, ref = false;
    TRY(expect(P, TK_LANGLE, "'<' after 'list'", NULL));
    TRY(parse_elem_mods(P, &opt, &ref));
    if (!(x = new_texpr(P, X_LIST, t->off))) return nomem(P->L);
    TRY(parse_type(P, &x->elem));
    x->elem->optional = opt;
    x->elem->ref = ref;
    TRY(expect(P, TK_RANGLE, "'>' after the list element type", NULL));
  } else if (t->t == TK_ARRAY) {
    advance(P);
    TRY(expect(P, TK_LANGLE, "'<' after 'array'", NULL));
    if (check(P, TK_OPTIONAL) || check(P, TK_REF))
      return syn(P->L, P->f, cur(P)->off,
                 "array elements cannot be optional or ref");
    if (!(x = new_texpr(P, X_ARRAY, t->off))) return nomem(P->L);
    TRY(parse_type(P, &x->elem));
    TRY(expect(P, TK_RANGLE, "'>' after the array element type", NULL));
  } else if (t->t == TK_MAP) {
    advance(P);
    bool opt = false, ref = false;
    TRY(expect(P, TK_LANGLE, "'<' after 'map'", NULL));
    if (check(P, TK_REF))
      return syn(P->L, P->f, cur(P)->off, "map keys cannot be ref");
    if (!(x = new_texpr(P, X_MAP, t->off))) return nomem(P->L);
    TRY(parse_type(P, &x->key));
    TRY(expect(P, TK_COMMA, "',' between the map key and value types",
               NULL));
    TRY(parse_elem_mods(P, &opt, &ref));
    TRY(parse_type(P, &x->value));
    x->value->optional = opt;
    x->value->ref = ref;
    TRY(expect(P, TK_RANGLE, "'>' after the map value type", NULL));
  } else if (t->t == TK_IDENT) {
    const char *s = P->f->text + t->off;
    uint8_t enc = eqs(s, t->len, "varint") ? ENC_VARINT
                  : eqs(s, t->len, "fixed") ? ENC_FIXED
                  : eqs(s, t->len, "tagged") ? ENC_TAGGED : ENC_NONE;
    if (enc != ENC_NONE) {
      advance(P);
      if (!check(P, TK_IDENT)) {
        char what[48];
        snprintf(what, sizeof what, "an integer type after '%.*s'",
                 (int)t->len, s);
        return unexpected(P, what);
      }
      fdl_tok *ty = advance(P);
      int k = find_prim(P->f->text + ty->off, ty->len);
      if (k < 0 || !prims[k].fixed_id ||
          (enc == ENC_TAGGED && !prims[k].tagged_id))
        return syn(P->L, P->f, ty->off, "'%.*s' encoding is only valid for "
                   "%s", (int)t->len, s,
                   enc == ENC_TAGGED ? "int64 and uint64"
                                     : "int32, int64, uint32 and uint64");
      if (!(x = new_texpr(P, X_PRIM, t->off))) return nomem(P->L);
      x->prim = (uint8_t)k;
      x->enc = enc;
    } else {
      int k = find_prim(s, t->len);
      if (k >= 0) {
        advance(P);
        if (!(x = new_texpr(P, X_PRIM, t->off))) return nomem(P->L);
        x->prim = (uint8_t)k;
      } else {
        if (!(x = new_texpr(P, X_NAMED, t->off))) return nomem(P->L);
        TRY(parse_qname(P, "a type name", &x->name, &x->nlen, NULL));
      }
    }
  } else {
    return unexpected(P, "a type");
  }
  *out = x;
  return WIRE_OK;
}

static int32_t parse_type(fdl_parser *P, fdl_texpr **out) {
  if (++P->depth > FDL_MAX_NESTING)
    return syn(P->L, P->f, cur(P)->off, "types nested too deeply");
  int32_t st = parse_type_inner(P, out);
  P->depth--;
  return st;
}

static bool tok_is(fdl_parser *P, const fdl_tok *t, const char *s) {
  return eqs(P->f->text + t->off, t->len, s);
}

/* [name=value, ...] after a field or union case; ref=true and
 * nullable=true act on message fields (fld != NULL). */
/* Parses the field options of R-FDLX-4, R-FDLX-5, R-FDLX-6. */
static int32_t parse_field_options(fdl_parser *P, fdl_field *fld) {
  advance(P); /* [ */
  for (;;) {
    fdl_tok *name = cur(P);
    if (name->t != TK_IDENT && name->t != TK_REF && name->t != TK_OPTIONAL &&
        name->t != TK_REPEATED && name->t != TK_LIST && name->t != TK_WEAK)
      return unexpected(P, "a field option name");
    advance(P);
    fdl_val v;
    TRY(expect(P, TK_EQUALS, "'=' after the option name", NULL));
    TRY(parse_value(P, &v));
    if (fld && v.t == TK_TRUE) {
      if (tok_is(P, name, "ref")) {
        if (fld->type->form == X_LIST) fld->type->elem->ref = true;
        else if (fld->type->form == X_MAP) fld->type->value->ref = true;
        else fld->ref = true;
      } else if (tok_is(P, name, "nullable")) {
        fld->optional = true;
      } else if (tok_is(P, name, "wire_set")) {
        fld->wire_set = true;
      } else if (tok_is(P, name, "wire_ref")) {
        fld->wire_ref = true;
      }
    }
    if (fld && v.t == TK_FALSE && tok_is(P, name, "nullable")) {
      fld->not_nullable = true; /* libwire extension */
      fld->not_nullable_off = name->off;
    }
    if (fld && tok_is(P, name, "wire_name") && v.t == TK_STRING) {
      if (v.slen == 0 || memchr(v.s, 0, v.slen) ||
          wire_meta_choose_encoding(WIRE_MSCTX_FIELD_NAME,
                                    (const uint8_t *)v.s, v.slen) < 0)
        return syn(P->L, P->f, v.off, "wire_name must be a valid field name");
      fld->wire_name = v.s;
      fld->wire_name_len = v.slen;
    }
    if (accept(P, TK_COMMA)) continue;
    return expect(P, TK_RBRACKET, "',' or ']' in the field options", NULL);
  }
}

static void link_field(fdl_type *t, fdl_field *fld) {
  if (t->last_field) t->last_field->next = fld;
  else t->fields = fld;
  t->last_field = fld;
}

/* [optional] [ref] [repeated] type name = N [options] ; */
static int32_t parse_field(fdl_parser *P, fdl_type *msg) {
  fdl_field *fld = anew(P->L, sizeof *fld);
  if (!fld) return nomem(P->L);
  fld->off = cur(P)->off;
  bool repeated = false, elem_opt = false, elem_ref = false;
  for (;;) {
    if (accept(P, TK_OPTIONAL)) {
      if (repeated) elem_opt = true;
      else fld->optional = true;
    } else if (accept(P, TK_REF)) {
      TRY(parse_ref_options(P));
      if (repeated) elem_ref = true;
      else fld->ref = true;
    } else if (check(P, TK_REPEATED)) {
      if (repeated)
        return syn(P->L, P->f, cur(P)->off, "'repeated' given twice");
      advance(P);
      repeated = true;
    } else {
      break;
    }
  }
  size_t type_off = cur(P)->off;
  TRY(parse_type(P, &fld->type));
  if (repeated) { /* repeated T = list<T> */
    fdl_texpr *l = new_texpr(P, X_LIST, type_off);
    if (!l) return nomem(P->L);
    l->elem = fld->type;
    l->elem->optional = elem_opt;
    l->elem->ref = elem_ref;
    fld->type = l;
  }
  if (!check(P, TK_IDENT) && !check(P, TK_TO))
    return unexpected(P, "a field name");
  fdl_tok *name = advance(P);
  fld->name = P->f->text + name->off;
  fld->nlen = name->len;
  fld->name_off = name->off;
  fdl_tok *num = NULL;
  TRY(expect(P, TK_EQUALS, "'=' after the field name", NULL));
  TRY(expect(P, TK_INT, "a field number", &num));
  TRY(int_value(P, num, &fld->number));
  fld->num_off = num->off;
  if (check(P, TK_LBRACKET)) TRY(parse_field_options(P, fld));
  TRY(expect(P, TK_SEMI, "';' after the field", NULL));
  link_field(msg, fld);
  return WIRE_OK;
}

/* [repeated] type name = N [options] ; */
static int32_t parse_union_case(fdl_parser *P, fdl_type *u) {
  if (check(P, TK_OPTIONAL) || check(P, TK_REF))
    return syn(P->L, P->f, cur(P)->off,
               "union cases cannot be optional or ref");
  fdl_field *fld = anew(P->L, sizeof *fld);
  if (!fld) return nomem(P->L);
  fld->off = cur(P)->off;
  bool repeated = accept(P, TK_REPEATED);
  size_t type_off = cur(P)->off;
  TRY(parse_type(P, &fld->type));
  if (repeated) {
    fdl_texpr *l = new_texpr(P, X_LIST, type_off);
    if (!l) return nomem(P->L);
    l->elem = fld->type;
    fld->type = l;
  }
  fdl_tok *name = NULL, *num = NULL;
  TRY(expect(P, TK_IDENT, "a union case name", &name));
  fld->name = P->f->text + name->off;
  fld->nlen = name->len;
  fld->name_off = name->off;
  TRY(expect(P, TK_EQUALS, "'=' after the union case name", NULL));
  TRY(expect(P, TK_INT, "a union case id", &num));
  TRY(int_value(P, num, &fld->number));
  fld->num_off = num->off;
  if (check(P, TK_LBRACKET)) TRY(parse_field_options(P, NULL));
  TRY(expect(P, TK_SEMI, "';' after the union case", NULL));
  link_field(u, fld);
  return WIRE_OK;
}

/* `kind Name [options] {` - the common head of enum, message, union. */
static int32_t parse_type_head(fdl_parser *P, fdl_type *parent, uint8_t kind,
                               fdl_type **out) {
  advance(P); /* enum / message / union */
  if (++P->depth > FDL_MAX_NESTING)
    return syn(P->L, P->f, cur(P)->off, "types nested too deeply");
  fdl_type *t = anew(P->L, sizeof *t);
  if (!t) return nomem(P->L);
  t->kind = kind;
  t->file = P->f;
  t->parent = parent;
  t->evolving = -1;
  fdl_tok *name = NULL;
  TRY(expect(P, TK_IDENT, kind == WIRE_KIND_ENUM ? "an enum name"
                          : kind == WIRE_KIND_UNION ? "a union name"
                                                    : "a message name",
             &name));
  t->name = P->f->text + name->off;
  t->nlen = name->len;
  t->off = name->off;
  if (check(P, TK_LBRACKET)) TRY(parse_type_options(P, t));
  char what[48];
  snprintf(what, sizeof what, "'{' after the %s name",
           kind == WIRE_KIND_ENUM ? "enum"
           : kind == WIRE_KIND_UNION ? "union" : "message");
  TRY(expect(P, TK_LBRACE, what, NULL));
  /* link */
  if (parent) {
    if (parent->last_child) parent->last_child->next = t;
    else parent->children = t;
    parent->last_child = t;
  } else {
    if (P->f->last_type) P->f->last_type->next = t;
    else P->f->types = t;
    P->f->last_type = t;
  }
  *out = t;
  return WIRE_OK;
}

static int32_t body_end(fdl_parser *P, const fdl_type *t, bool *done) {
  *done = false;
  if (accept(P, TK_RBRACE)) {
    *done = true;
    P->depth--;
  } else if (check(P, TK_EOF)) {
    return syn(P->L, P->f, cur(P)->off, "expected '}' to close %s %.*s, "
               "found end of input",
               t->kind == WIRE_KIND_ENUM ? "enum"
               : t->kind == WIRE_KIND_UNION ? "union" : "message",
               (int)t->nlen, t->name);
  }
  return WIRE_OK;
}

static int32_t parse_enum(fdl_parser *P, fdl_type *parent) {
  fdl_type *t;
  TRY(parse_type_head(P, parent, WIRE_KIND_ENUM, &t));
  for (;;) {
    bool done;
    TRY(body_end(P, t, &done));
    if (done) return WIRE_OK;
    if (check(P, TK_OPTION))
      return syn(P->L, P->f, cur(P)->off,
                 "option statements inside an enum are not supported");
    if (check(P, TK_RESERVED)) {
      TRY(parse_reserved(P));
      continue;
    }
    fdl_value *v = anew(P->L, sizeof *v);
    if (!v) return nomem(P->L);
    fdl_tok *name = NULL, *num = NULL;
    TRY(expect(P, TK_IDENT, "an enum value name", &name));
    v->name = P->f->text + name->off;
    v->nlen = name->len;
    v->off = name->off;
    TRY(expect(P, TK_EQUALS, "'=' after the enum value name", NULL));
    TRY(expect(P, TK_INT, "an integer enum value", &num));
    TRY(int_value(P, num, &v->value));
    v->num_off = num->off;
    TRY(expect(P, TK_SEMI, "';' after the enum value", NULL));
    if (t->last_value) t->last_value->next = v;
    else t->values = v;
    t->last_value = v;
  }
}

static int32_t parse_message(fdl_parser *P, fdl_type *parent);

static int32_t parse_union(fdl_parser *P, fdl_type *parent) {
  fdl_type *t;
  TRY(parse_type_head(P, parent, WIRE_KIND_UNION, &t));
  for (;;) {
    bool done;
    TRY(body_end(P, t, &done));
    if (done) return WIRE_OK;
    if (check(P, TK_RESERVED)) TRY(parse_reserved(P));
    else TRY(parse_union_case(P, t));
  }
}

static int32_t parse_message(fdl_parser *P, fdl_type *parent) {
  fdl_type *t;
  TRY(parse_type_head(P, parent, WIRE_KIND_STRUCT, &t));
  for (;;) {
    bool done;
    TRY(body_end(P, t, &done));
    if (done) return WIRE_OK;
    switch (cur(P)->t) {
    case TK_RESERVED: TRY(parse_reserved(P)); break;
    case TK_OPTION:
      return syn(P->L, P->f, cur(P)->off,
                 "option statements inside a message are not supported");
    case TK_MESSAGE: TRY(parse_message(P, t)); break;
    case TK_ENUM: TRY(parse_enum(P, t)); break;
    case TK_UNION: TRY(parse_union(P, t)); break;
    default: TRY(parse_field(P, t)); break;
    }
  }
}

/* rpc Name ( [stream] Type ) returns ( [stream] Type ) ( ; | { options } ) */
static int32_t parse_rpc_type(fdl_parser *P) {
  TRY(expect(P, TK_LPAREN, "'(' before the rpc type", NULL));
  accept(P, TK_STREAM);
  fdl_texpr *x = new_texpr(P, X_NAMED, cur(P)->off);
  fdl_rpc *r = anew(P->L, sizeof *r);
  if (!x || !r) return nomem(P->L);
  TRY(parse_qname(P, "a message or union type", &x->name, &x->nlen, NULL));
  TRY(expect(P, TK_RPAREN, "')' after the rpc type", NULL));
  r->type = x;
  if (P->f->last_rpc) P->f->last_rpc->next = r;
  else P->f->rpcs = r;
  P->f->last_rpc = r;
  return WIRE_OK;
}

static int32_t parse_service(fdl_parser *P) {
  advance(P);
  TRY(expect(P, TK_IDENT, "a service name", NULL));
  TRY(expect(P, TK_LBRACE, "'{' after the service name", NULL));
  while (!accept(P, TK_RBRACE)) {
    if (check(P, TK_OPTION)) {
      TRY(parse_option(P, false));
    } else if (accept(P, TK_RPC)) {
      TRY(expect(P, TK_IDENT, "a method name", NULL));
      TRY(parse_rpc_type(P));
      TRY(expect(P, TK_RETURNS, "'returns'", NULL));
      TRY(parse_rpc_type(P));
      if (accept(P, TK_LBRACE)) {
        while (!accept(P, TK_RBRACE)) {
          if (check(P, TK_OPTION)) TRY(parse_option(P, false));
          else if (!accept(P, TK_SEMI))
            return unexpected(P, "'option' or '}' in the method block");
        }
      } else {
        TRY(expect(P, TK_SEMI, "';' after the method", NULL));
      }
    } else {
      return unexpected(P, "'rpc', 'option' or '}' in the service");
    }
  }
  return WIRE_OK;
}

/* Implements R-FDL-1. */
int32_t parse_file(fdl_parser *P) {
  while (!check(P, TK_EOF)) {
    switch (cur(P)->t) {
    case TK_PACKAGE: TRY(parse_package(P)); break;
    case TK_IMPORT: TRY(parse_import(P)); break;
    case TK_OPTION: TRY(parse_option(P, true)); break;
    case TK_ENUM: TRY(parse_enum(P, NULL)); break;
    case TK_UNION: TRY(parse_union(P, NULL)); break;
    case TK_MESSAGE: TRY(parse_message(P, NULL)); break;
    case TK_SERVICE: TRY(parse_service(P)); break;
    default:
      return unexpected(P, "a declaration (package, option, import, "
                           "message, enum, union or service)");
    }
  }
  return WIRE_OK;
}

