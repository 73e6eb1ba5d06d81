/* test_fdl.c - the Fory IDL (FDL) loader: schemas parsed at run time into
 * the type registry (libwire/src/fdl.c).
 *
 * The reference is fory-compiler 1.7.7 (`pip install fory-compiler==1.7.7`,
 * the `foryc` command). Every fixture schema under
 * fixtures/schemas/fdl-tests/ except imports/app/trip.fdl (a diamond import,
 * which foryc 1.7.7 rejects as duplicate type names) compiles with foryc, and
 * the registrations and field metadata checked here are the ones in the
 * code foryc generates for it:
 *   foryc SCHEMA --python_out OUT   ->  fory.register_type(X, type_id=N) /
 *                                       name="ns.Name", and per field
 *                                       pyfory.field(id=TAG, nullable=...,
 *                                       ref=...)
 *   foryc SCHEMA --java_out OUT     ->  resolver.register(X.class, N) /
 *                                       (X.class, "ns", "Name"),
 *                                       @ForyField(id = TAG)
 * Generated type ids were computed with
 *   fory_compiler.ir.type_id.compute_registered_type_id("<hash source>").
 *
 * Tests run from the repository root (as `make test` does); set
 * WIRE_FDL_FIXTURES to the fixture directory to run them from elsewhere. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema.h"


static wire_ctx *ctx;

static void setup(void) {
  ctx = wire_ctx_new();
  cr_assert_not_null(ctx);
}
static void teardown(void) { wire_ctx_free(ctx); }

TestSuite(fdl_schema, .init = setup, .fini = teardown);
TestSuite(fdl_types, .init = setup, .fini = teardown);
TestSuite(fdl_names, .init = setup, .fini = teardown);
TestSuite(fdl_imports, .init = setup, .fini = teardown);
TestSuite(fdl_errors, .init = setup, .fini = teardown);
TestSuite(fdl_api, .init = setup, .fini = teardown);

/* ---- helpers ------------------------------------------------------------ */

static const char *fixture(const char *rel) {
  static char path[1024];
  const char *dir = getenv("WIRE_FDL_FIXTURES");
  if (!dir || !*dir) dir = "fixtures/schemas/fdl-tests";
  snprintf(path, sizeof path, "%s/%s", dir, rel);
  return path;
}

static void load_file_ok(const char *rel) {
  const char *path = fixture(rel);
  int32_t st = wire_schema_load_fdl_file(ctx, path);
  cr_assert_eq(st, WIRE_OK, "%s: %d %s", path, st,
               wire_ctx_error_message(ctx));
}

static void load_text_ok(const char *text) {
  int32_t st = wire_schema_load_fdl(ctx, text, strlen(text), "t.fdl");
  cr_assert_eq(st, WIRE_OK, "%d %s", st, wire_ctx_error_message(ctx));
}

static uint32_t ntypes(void) { return ctx->reg ? ctx->reg->ntypes : 0; }

static wire_utype *ut(const char *full) {
  wire_registry *r = ctx->reg;
  cr_assert_not_null(r, "no registry");
  for (uint32_t i = 0; i < r->ntypes; i++)
    if (strcmp(r->types[i].full_name, full) == 0) return &r->types[i];
  cr_assert_fail("type %s is not registered", full);
  return NULL;
}

static bool has_type(const char *full) {
  wire_registry *r = ctx->reg;
  for (uint32_t i = 0; r && i < r->ntypes; i++)
    if (strcmp(r->types[i].full_name, full) == 0) return true;
  return false;
}

static wire_utype *user_of(const wire_ftype *f) {
  cr_assert_neq(f->user, WIRE_NO_TYPE, "not a user type");
  cr_assert_lt(f->user, ctx->reg->ntypes);
  return &ctx->reg->types[f->user];
}

static void by_id(const wire_utype *t, uint8_t kind, uint32_t id) {
  cr_assert_eq(t->kind, kind, "%s: kind %d", t->full_name, t->kind);
  cr_assert(!t->by_name, "%s is registered by name", t->full_name);
  cr_assert_eq(t->user_id, id, "%s: id %u, want %u", t->full_name,
               t->user_id, id);
}

static void by_name(const wire_utype *t, uint8_t kind, const char *ns,
                    const char *name) {
  cr_assert_eq(t->kind, kind, "%s: kind %d", t->full_name, t->kind);
  cr_assert(t->by_name, "%s is registered by id", t->full_name);
  cr_assert_str_eq(t->ns, ns);
  cr_assert_str_eq(t->name, name);
}

static wire_field *fld(const wire_utype *t, const char *name) {
  for (uint32_t i = 0; i < t->nfields; i++)
    if (strcmp(t->fields[i].name, name) == 0) return &t->fields[i];
  cr_assert_fail("%s has no field %s", t->full_name, name);
  return NULL;
}

/* A field's tag, type id and its nullable / ref flags. */
static wire_field *field_is(const wire_utype *t, const char *name,
                            int32_t tag, uint8_t type_id, bool nullable,
                            bool ref) {
  wire_field *f = fld(t, name);
  cr_assert_eq(f->tag, tag, "%s.%s: tag %d, want %d", t->full_name, name,
               f->tag, tag);
  cr_assert_eq(f->type->type_id, type_id, "%s.%s: type %s, want %s",
               t->full_name, name, wire_type_name(f->type->type_id),
               wire_type_name(type_id));
  cr_assert_eq(f->type->nullable, nullable, "%s.%s: nullable %d",
               t->full_name, name, f->type->nullable);
  cr_assert_eq(f->type->ref, ref, "%s.%s: ref %d", t->full_name, name,
               f->type->ref);
  cr_assert_null(f->type->unresolved);
  return f;
}

static void enum_value(const wire_utype *t, uint32_t i, const char *name,
                       uint32_t value) {
  cr_assert_lt(i, t->nvalues);
  cr_assert_str_eq(t->values[i].name, name);
  cr_assert_eq(t->values[i].value, value, "%s.%s = %u", t->full_name, name,
               t->values[i].value);
}

static wire_union_case *case_is(const wire_utype *t, uint32_t i,
                                uint32_t id, const char *name,
                                uint8_t type_id) {
  cr_assert_lt(i, t->ncases);
  wire_union_case *c = &t->cases[i];
  cr_assert_eq(c->case_id, id);
  cr_assert_str_eq(c->name, name);
  cr_assert_eq(c->type->type_id, type_id, "%s.%s: %s", t->full_name, name,
               wire_type_name(c->type->type_id));
  return c;
}

/* The element / key / value node and its flags. */
static void node_is(const wire_ftype *f, uint8_t type_id, bool nullable,
                    bool ref) {
  cr_assert_not_null(f);
  cr_assert_eq(f->type_id, type_id, "type %s, want %s",
               wire_type_name(f->type_id), wire_type_name(type_id));
  cr_assert_eq(f->nullable, nullable);
  cr_assert_eq(f->ref, ref);
}

/* ---- fixture schemas ---------------------------------------------------- */

Test(fdl_schema, nested_types_register_by_explicit_id_with_parent_namespace) {
  load_file_ok("library.fdl");
  cr_assert_eq(ntypes(), 6);
  wire_utype *book = ut("library.catalog.Book");
  by_id(book, WIRE_KIND_STRUCT, 400);
  cr_assert_str_eq(book->ns, "library.catalog");
  cr_assert_str_eq(book->name, "Book");
  wire_utype *genre = ut("library.catalog.Book.Genre");
  by_id(genre, WIRE_KIND_ENUM, 401);
  cr_assert_str_eq(genre->ns, "library.catalog.Book");
  cr_assert_str_eq(genre->name, "Genre");
  by_id(ut("library.catalog.Book.Chapter"), WIRE_KIND_STRUCT, 402);
  by_id(ut("library.catalog.Film"), WIRE_KIND_STRUCT, 403);
  by_id(ut("library.catalog.Media"), WIRE_KIND_UNION, 404);
  by_id(ut("library.catalog.Shelf"), WIRE_KIND_STRUCT, 405);
}

Test(fdl_schema, field_numbers_are_tag_ids_and_types_follow_foryc) {
  load_file_ok("library.fdl");
  wire_utype *book = ut("library.catalog.Book");
  cr_assert_eq(book->nfields, 7);
  cr_assert_str_eq(book->fields[0].name, "title"); /* declaration order */
  field_is(book, "title", 1, WIRE_T_STRING, false, false);
  field_is(book, "isbn", 2, WIRE_T_VARINT64, false, false);
  wire_field *f = field_is(book, "authors", 3, WIRE_T_LIST, false, false);
  node_is(f->type->elem, WIRE_T_STRING, false, false);
  f = field_is(book, "ratings", 4, WIRE_T_MAP, false, false);
  node_is(f->type->key, WIRE_T_STRING, false, false);
  node_is(f->type->value, WIRE_T_VARINT32, false, false);
  f = field_is(book, "chapters", 5, WIRE_T_LIST, false, false);
  node_is(f->type->elem, WIRE_T_STRUCT, false, false);
  cr_assert_eq(user_of(f->type->elem), ut("library.catalog.Book.Chapter"));
  /* a union field is not implicitly nullable; the forward reference to
   * Media resolves */
  f = field_is(book, "adaptation", 6, WIRE_T_UNION, false, false);
  cr_assert_eq(user_of(f->type), ut("library.catalog.Media"));
  field_is(book, "price", 7, WIRE_T_FLOAT32, false, false);

  wire_utype *ch = ut("library.catalog.Book.Chapter");
  field_is(ch, "pages", 2, WIRE_T_VAR_UINT32, false, false);
  f = field_is(ch, "genre", 3, WIRE_T_ENUM, false, false);
  cr_assert_eq(user_of(f->type), ut("library.catalog.Book.Genre"));

  wire_utype *shelf = ut("library.catalog.Shelf");
  f = field_is(shelf, "by_title", 2, WIRE_T_MAP, false, false);
  cr_assert_eq(user_of(f->type->value), ut("library.catalog.Book"));
  /* qualified nested names; message fields are nullable */
  f = field_is(shelf, "bookmark", 3, WIRE_T_STRUCT, true, false);
  cr_assert_eq(user_of(f->type), ut("library.catalog.Book.Chapter"));
  f = field_is(shelf, "theme", 4, WIRE_T_ENUM, false, false);
  cr_assert_eq(user_of(f->type), ut("library.catalog.Book.Genre"));
}

Test(fdl_schema, enum_values_are_the_declared_numbers) {
  load_file_ok("library.fdl");
  wire_utype *g = ut("library.catalog.Book.Genre");
  cr_assert_eq(g->nvalues, 3);
  /* names as written: prefix stripping is a code generation matter */
  enum_value(g, 0, "GENRE_UNKNOWN", 0);
  enum_value(g, 1, "GENRE_FICTION", 1);
  enum_value(g, 2, "GENRE_HISTORY", 7);
}

Test(fdl_schema, union_cases_carry_case_ids_and_types) {
  load_file_ok("library.fdl");
  wire_utype *m = ut("library.catalog.Media");
  cr_assert_eq(m->ncases, 3);
  wire_union_case *c = case_is(m, 0, 1, "book", WIRE_T_STRUCT);
  cr_assert_eq(user_of(c->type), ut("library.catalog.Book"));
  c = case_is(m, 1, 2, "film", WIRE_T_STRUCT);
  cr_assert_eq(user_of(c->type), ut("library.catalog.Film"));
  case_is(m, 2, 3, "note", WIRE_T_STRING);
}

Test(fdl_schema, lists_and_dense_arrays_of_numbers) {
  load_file_ok("measurements.fdl");
  wire_utype *s = ut("lab.measurements.Series");
  static const struct { const char *name; uint8_t elem; } lists[] = {
      {"i8", WIRE_T_INT8}, {"i16", WIRE_T_INT16}, {"i32", WIRE_T_VARINT32},
      {"i64", WIRE_T_VARINT64}, {"u8", WIRE_T_UINT8}, {"u16", WIRE_T_UINT16},
      {"u32", WIRE_T_VAR_UINT32}, {"u64", WIRE_T_VAR_UINT64},
      {"f32", WIRE_T_FLOAT32}, {"f64", WIRE_T_FLOAT64}, {"flags", WIRE_T_BOOL}};
  for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
    wire_field *f = field_is(s, lists[i].name, (int32_t)i + 1, WIRE_T_LIST,
                             false, false);
    node_is(f->type->elem, lists[i].elem, false, false);
  }
  wire_utype *a = ut("lab.measurements.Samples");
  static const struct { const char *name; uint8_t id, elem; } arrays[] = {
      {"flags", WIRE_T_BOOL_ARRAY, WIRE_T_BOOL},
      {"i8", WIRE_T_INT8_ARRAY, WIRE_T_INT8},
      {"i16", WIRE_T_INT16_ARRAY, WIRE_T_INT16},
      {"i32", WIRE_T_INT32_ARRAY, WIRE_T_INT32},
      {"i64", WIRE_T_INT64_ARRAY, WIRE_T_INT64},
      {"u8", WIRE_T_UINT8_ARRAY, WIRE_T_UINT8},
      {"u16", WIRE_T_UINT16_ARRAY, WIRE_T_UINT16},
      {"u32", WIRE_T_UINT32_ARRAY, WIRE_T_UINT32},
      {"u64", WIRE_T_UINT64_ARRAY, WIRE_T_UINT64},
      {"f16", WIRE_T_FLOAT16_ARRAY, WIRE_T_FLOAT16},
      {"bf16", WIRE_T_BFLOAT16_ARRAY, WIRE_T_BFLOAT16},
      {"f32", WIRE_T_FLOAT32_ARRAY, WIRE_T_FLOAT32},
      {"f64", WIRE_T_FLOAT64_ARRAY, WIRE_T_FLOAT64}};
  for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) {
    wire_field *f = field_is(a, arrays[i].name, (int32_t)i + 1, arrays[i].id,
                             false, false);
    /* the element node is the fixed-width scalar */
    node_is(f->type->elem, arrays[i].elem, false, false);
  }
  wire_utype *r = ut("lab.measurements.Reading");
  wire_union_case *c = case_is(r, 0, 1, "counts", WIRE_T_LIST);
  node_is(c->type->elem, WIRE_T_VARINT32, false, false);
  case_is(r, 1, 2, "values", WIRE_T_FLOAT64_ARRAY);
  c = case_is(r, 2, 3, "labels", WIRE_T_LIST); /* repeated string */
  node_is(c->type->elem, WIRE_T_STRING, false, false);
  c = case_is(r, 3, 4, "named", WIRE_T_MAP);
  node_is(c->type->value, WIRE_T_FLOAT32, false, false);
}

Test(fdl_schema, optional_and_implicit_nullability) {
  load_file_ok("nullable.fdl");
  wire_utype *t = ut("forms.Form");
  field_is(t, "agreed", 1, WIRE_T_BOOL, true, false);
  field_is(t, "age", 2, WIRE_T_VARINT32, true, false);
  field_is(t, "serial", 3, WIRE_T_INT64, true, false);
  field_is(t, "token", 4, WIRE_T_TAGGED_UINT64, true, false);
  field_is(t, "email", 5, WIRE_T_STRING, true, false);
  field_is(t, "avatar", 6, WIRE_T_BINARY, true, false);
  field_is(t, "born", 7, WIRE_T_DATE, true, false);
  field_is(t, "submitted", 8, WIRE_T_TIMESTAMP, true, false);
  /* optional before list<...> applies to the field, not the elements */
  wire_field *f = field_is(t, "tags", 9, WIRE_T_LIST, true, false);
  node_is(f->type->elem, WIRE_T_STRING, false, false);
  f = field_is(t, "counters", 10, WIRE_T_MAP, true, false);
  node_is(f->type->value, WIRE_T_VARINT64, false, false);
  f = field_is(t, "aliases", 11, WIRE_T_LIST, false, false);
  node_is(f->type->elem, WIRE_T_STRING, true, false);
  f = field_is(t, "scores", 12, WIRE_T_MAP, false, false);
  node_is(f->type->key, WIRE_T_STRING, false, false);
  node_is(f->type->value, WIRE_T_FLOAT64, true, false);
  field_is(t, "name", 13, WIRE_T_STRING, true, false); /* [nullable=true] */
  field_is(t, "answer", 14, WIRE_T_UNION, true, false);
  /* message fields are always nullable; any always carries a null flag */
  field_is(t, "attachment", 15, WIRE_T_STRUCT, true, false);
  field_is(t, "extra", 16, WIRE_T_UNKNOWN, true, false);
}

Test(fdl_schema, every_scalar_and_encoding_in_one_message) {
  load_file_ok("scalars.fdl");
  wire_utype *t = ut("scalars.Everything");
  static const struct { const char *name; uint8_t id; } k[] = {
      {"b", WIRE_T_BOOL}, {"i8", WIRE_T_INT8}, {"i16", WIRE_T_INT16},
      {"i32", WIRE_T_VARINT32}, {"vi32", WIRE_T_VARINT32},
      {"fi32", WIRE_T_INT32}, {"i64", WIRE_T_VARINT64},
      {"vi64", WIRE_T_VARINT64}, {"fi64", WIRE_T_INT64},
      {"ti64", WIRE_T_TAGGED_INT64}, {"u8", WIRE_T_UINT8},
      {"u16", WIRE_T_UINT16}, {"u32", WIRE_T_VAR_UINT32},
      {"vu32", WIRE_T_VAR_UINT32}, {"fu32", WIRE_T_UINT32},
      {"u64", WIRE_T_VAR_UINT64}, {"vu64", WIRE_T_VAR_UINT64},
      {"fu64", WIRE_T_UINT64}, {"tu64", WIRE_T_TAGGED_UINT64},
      {"f16", WIRE_T_FLOAT16}, {"bf16", WIRE_T_BFLOAT16},
      {"f32", WIRE_T_FLOAT32}, {"f64", WIRE_T_FLOAT64},
      {"s", WIRE_T_STRING}, {"raw", WIRE_T_BINARY}, {"day", WIRE_T_DATE},
      {"at", WIRE_T_TIMESTAMP}, {"took", WIRE_T_DURATION},
      {"amount", WIRE_T_DECIMAL}};
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
    field_is(t, k[i].name, (int32_t)i + 1, k[i].id, false, false);
  field_is(t, "whatever", 30, WIRE_T_UNKNOWN, true, false);
  field_is(t, "level", 31, WIRE_T_ENUM, false, false);
  wire_field *f = field_is(t, "fixed_list", 32, WIRE_T_LIST, false, false);
  node_is(f->type->elem, WIRE_T_INT32, false, false);
  f = field_is(t, "tagged_list", 33, WIRE_T_LIST, false, false);
  node_is(f->type->elem, WIRE_T_TAGGED_INT64, true, false);
  f = field_is(t, "rows", 34, WIRE_T_LIST, false, false);
  node_is(f->type->elem, WIRE_T_INT32_ARRAY, false, false);
}

Test(fdl_schema, map_key_types) {
  load_file_ok("scalars.fdl");
  wire_utype *t = ut("scalars.Keys");
  static const struct { const char *name; uint8_t key; } k[] = {
      {"by_bool", WIRE_T_BOOL}, {"by_i8", WIRE_T_INT8},
      {"by_fi32", WIRE_T_INT32}, {"by_tu64", WIRE_T_TAGGED_UINT64},
      {"by_string", WIRE_T_STRING}, {"by_date", WIRE_T_DATE},
      {"by_ts", WIRE_T_TIMESTAMP}, {"by_duration", WIRE_T_DURATION},
      {"by_level", WIRE_T_ENUM}};
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
    wire_field *f = field_is(t, k[i].name, (int32_t)i + 1, WIRE_T_MAP,
                             false, false);
    node_is(f->type->key, k[i].key, false, false);
    node_is(f->type->value, WIRE_T_STRING, false, false);
  }
  cr_assert_eq(user_of(fld(t, "by_level")->type->key), ut("scalars.Level"));
  wire_field *f = field_is(t, "blobs", 10, WIRE_T_MAP, false, false);
  node_is(f->type->value, WIRE_T_UINT8_ARRAY, false, false);
}

Test(fdl_schema, evolving_file_option_and_message_override) {
  load_file_ok("scalars.fdl");
  cr_assert(ut("scalars.Everything")->evolving); /* [evolving=true] */
  cr_assert(!ut("scalars.Keys")->evolving);       /* option evolving=false */
  cr_assert(!ut("scalars.Frozen")->evolving);
  wire_ctx_free(ctx);
  ctx = wire_ctx_new();
  load_file_ok("library.fdl");
  cr_assert(ut("library.catalog.Book")->evolving); /* the default */
}

Test(fdl_schema, ref_modifiers_and_options) {
  load_file_ok("network.fdl");
  wire_utype *h = ut("network.Host");
  wire_field *f = field_is(h, "links", 2, WIRE_T_LIST, false, false);
  node_is(f->type->elem, WIRE_T_STRUCT, false, true);
  cr_assert_eq(user_of(f->type->elem), ut("network.Link"));
  /* ref(weak=true): weak is a code generation choice; on the wire a ref */
  f = field_is(h, "gateway", 3, WIRE_T_STRUCT, true, true);
  cr_assert_eq(user_of(f->type), h);
  f = field_is(h, "peers", 4, WIRE_T_MAP, false, false);
  node_is(f->type->value, WIRE_T_STRUCT, false, true);
  f = field_is(h, "backups", 5, WIRE_T_LIST, false, false); /* repeated ref */
  node_is(f->type->elem, WIRE_T_STRUCT, false, true);
  field_is(h, "mirror", 6, WIRE_T_STRUCT, true, true);      /* [ref=true] */
  f = field_is(h, "replicas", 7, WIRE_T_LIST, false, false); /* on a list:
                                                                the element */
  node_is(f->type->elem, WIRE_T_STRUCT, false, true);
  wire_utype *l = ut("network.Link");
  field_is(l, "from", 3, WIRE_T_STRUCT, true, true);
  field_is(l, "to", 4, WIRE_T_STRUCT, true, true);
  wire_utype *t = ut("network.Topology");
  f = field_is(t, "best", 3, WIRE_T_UNION, false, true);
  cr_assert_eq(user_of(f->type), ut("network.Route"));
}

Test(fdl_schema, types_without_id_get_foryc_generated_ids) {
  load_file_ok("autoid.fdl");
  /* MurmurHash3_x86_32("<package>.<path>") */
  by_id(ut("shop.orders.Status"), WIRE_KIND_ENUM, 1981501891u);
  by_id(ut("shop.orders.Order"), WIRE_KIND_STRUCT, 2990994925u);
  by_id(ut("shop.orders.Order.Line"), WIRE_KIND_STRUCT, 2116919368u);
  by_id(ut("shop.orders.Order.Payment"), WIRE_KIND_UNION, 3439434243u);
  by_id(ut("shop.orders.Fixed"), WIRE_KIND_STRUCT, 77);
  enum_value(ut("shop.orders.Status"), 1, "SHIPPED", 200);
  wire_utype *o = ut("shop.orders.Order");
  wire_field *f = field_is(o, "payment", 3, WIRE_T_UNION, false, false);
  cr_assert_eq(user_of(f->type), ut("shop.orders.Order.Payment"));
  wire_utype *p = ut("shop.orders.Order.Payment");
  wire_union_case *c = case_is(p, 1, 2, "refund_of", WIRE_T_STRUCT);
  cr_assert_eq(user_of(c->type), ut("shop.orders.Order.Line"));
}

Test(fdl_schema, alias_option_changes_the_hash_source) {
  load_file_ok("autoid.fdl");
  /* [alias="Bill"] hashes "shop.orders.Bill" (not "...Invoice") */
  by_id(ut("shop.orders.Invoice"), WIRE_KIND_STRUCT, 1810470953u);
  /* a dotted alias is used as is: "legacy.Receipt" */
  by_id(ut("shop.orders.Receipt"), WIRE_KIND_STRUCT, 2302417730u);
}

Test(fdl_schema, package_alias_changes_hash_but_not_namespace) {
  load_file_ok("aliased.fdl");
  wire_utype *o = ut("shop.orders.v2.Order");
  cr_assert_str_eq(o->ns, "shop.orders.v2");
  by_id(o, WIRE_KIND_STRUCT, 2990994925u); /* hash of "shop.orders.Order" */
}

Test(fdl_schema, generated_id_collision_is_an_error) {
  load_file_ok("autoid.fdl");
  uint32_t n = ntypes();
  const char *path = fixture("aliased.fdl");
  cr_assert_eq(wire_schema_load_fdl_file(ctx, path), WIRE_E_IDL);
  const char *msg = wire_ctx_error_message(ctx);
  cr_assert(strstr(msg, "aliased.fdl:5:9: the generated type id 2990994925 "
                        "of Order (hash of \"shop.orders.Order\") is already "
                        "used by shop.orders.Order"), "%s", msg);
  cr_assert_eq(ntypes(), n);
}

Test(fdl_schema, auto_ids_off_registers_by_package_and_parent_path) {
  load_file_ok("byname.fdl");
  /* as foryc's Java registration: ("registry.names.Envelope", "Node");
   * Python: name="registry.names.Envelope.Node", split at the last dot */
  by_name(ut("registry.names.Envelope"), WIRE_KIND_STRUCT, "registry.names",
          "Envelope");
  by_name(ut("registry.names.Envelope.Node"), WIRE_KIND_STRUCT,
          "registry.names.Envelope", "Node");
  by_name(ut("registry.names.Envelope.Kind"), WIRE_KIND_ENUM,
          "registry.names.Envelope", "Kind");
  by_name(ut("registry.names.Envelope.Choice"), WIRE_KIND_UNION,
          "registry.names.Envelope", "Choice");
  by_id(ut("registry.names.Numbered"), WIRE_KIND_STRUCT, 900);
  wire_utype *e = ut("registry.names.Envelope");
  wire_field *f = field_is(e, "root", 1, WIRE_T_STRUCT, true, true);
  cr_assert_eq(user_of(f->type), ut("registry.names.Envelope.Node"));
  field_is(e, "kind", 2, WIRE_T_ENUM, false, false);
  field_is(e, "choice", 3, WIRE_T_UNION, false, false);
  wire_utype *node = ut("registry.names.Envelope.Node");
  f = field_is(node, "children", 3, WIRE_T_LIST, false, false);
  node_is(f->type->elem, WIRE_T_STRUCT, false, true);
  cr_assert_eq(user_of(f->type->elem), node);
  f = field_is(ut("registry.names.Numbered"), "node", 1, WIRE_T_STRUCT, true,
               false);
  cr_assert_eq(user_of(f->type), node);
}

Test(fdl_schema, no_package_registers_by_name_in_default_namespace) {
  load_file_ok("no_package.fdl");
  by_name(ut("default.Point"), WIRE_KIND_STRUCT, "default", "Point");
  wire_utype *t = ut("Tagged"); /* by id: no namespace */
  by_id(t, WIRE_KIND_STRUCT, 1100);
  cr_assert_str_eq(t->ns, "");
  cr_assert_eq(user_of(fld(t, "at")->type), ut("default.Point"));
}

Test(fdl_schema, services_and_reserved_statements_register_nothing) {
  load_file_ok("service.fdl");
  /* the imported library.fdl (single-quoted path) plus Query and Mode */
  cr_assert_eq(ntypes(), 8);
  wire_utype *q = ut("catalog.api.Query");
  cr_assert_eq(q->nfields, 1);
  field_is(q, "text", 1, WIRE_T_STRING, false, false);
  wire_utype *m = ut("catalog.api.Mode");
  cr_assert_eq(m->nvalues, 2);
  enum_value(m, 1, "SLOW", 1);
}

/* ---- the scalar mapping, one type at a time ------------------------------ */

static uint8_t field_type_of(const char *type) {
  char text[256];
  wire_ctx_free(ctx);
  ctx = wire_ctx_new();
  snprintf(text, sizeof text, "package t;\nenum E [id=2] { A = 0; }\n"
           "message M [id=1] {\n  %s v = 1;\n}\n", type);
  load_text_ok(text);
  return ut("t.M")->fields[0].type->type_id;
}

/* The FDL type expression -> wire type id table of fory-compiler 1.7.7
 * (generators/go.py and generators/java.py: get_type_id_expr,
 * get_scalar_type_id_expr; ir/types.py: PRIMITIVE_TYPES). */
Test(fdl_types, fdl_type_names_map_to_wire_type_ids) {
  static const struct { const char *fdl; uint8_t id; } k[] = {
      {"bool", WIRE_T_BOOL},
      {"int8", WIRE_T_INT8},
      {"int16", WIRE_T_INT16},
      {"int32", WIRE_T_VARINT32},
      {"varint int32", WIRE_T_VARINT32},
      {"fixed int32", WIRE_T_INT32},
      {"int64", WIRE_T_VARINT64},
      {"varint int64", WIRE_T_VARINT64},
      {"fixed int64", WIRE_T_INT64},
      {"tagged int64", WIRE_T_TAGGED_INT64},
      {"uint8", WIRE_T_UINT8},
      {"uint16", WIRE_T_UINT16},
      {"uint32", WIRE_T_VAR_UINT32},
      {"varint uint32", WIRE_T_VAR_UINT32},
      {"fixed uint32", WIRE_T_UINT32},
      {"uint64", WIRE_T_VAR_UINT64},
      {"varint uint64", WIRE_T_VAR_UINT64},
      {"fixed uint64", WIRE_T_UINT64},
      {"tagged uint64", WIRE_T_TAGGED_UINT64},
      {"float16", WIRE_T_FLOAT16},
      {"bfloat16", WIRE_T_BFLOAT16},
      {"float32", WIRE_T_FLOAT32},
      {"float64", WIRE_T_FLOAT64},
      {"string", WIRE_T_STRING},
      {"bytes", WIRE_T_BINARY},
      {"date", WIRE_T_DATE},
      {"timestamp", WIRE_T_TIMESTAMP},
      {"duration", WIRE_T_DURATION},
      {"decimal", WIRE_T_DECIMAL},
      {"any", WIRE_T_UNKNOWN},
      {"E", WIRE_T_ENUM},
      {"M", WIRE_T_STRUCT},
      {"list<int32>", WIRE_T_LIST},
      {"repeated int32", WIRE_T_LIST},
      {"map<string, int32>", WIRE_T_MAP},
      {"array<bool>", WIRE_T_BOOL_ARRAY},
      {"array<int8>", WIRE_T_INT8_ARRAY},
      {"array<int16>", WIRE_T_INT16_ARRAY},
      {"array<int32>", WIRE_T_INT32_ARRAY},
      {"array<int64>", WIRE_T_INT64_ARRAY},
      {"array<uint8>", WIRE_T_UINT8_ARRAY},
      {"array<uint16>", WIRE_T_UINT16_ARRAY},
      {"array<uint32>", WIRE_T_UINT32_ARRAY},
      {"array<uint64>", WIRE_T_UINT64_ARRAY},
      {"array<float16>", WIRE_T_FLOAT16_ARRAY},
      {"array<bfloat16>", WIRE_T_BFLOAT16_ARRAY},
      {"array<float32>", WIRE_T_FLOAT32_ARRAY},
      {"array<float64>", WIRE_T_FLOAT64_ARRAY},
  };
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
    uint8_t got = field_type_of(k[i].fdl);
    cr_expect_eq(got, k[i].id, "%s -> %s, want %s", k[i].fdl,
                 wire_type_name(got), wire_type_name(k[i].id));
  }
}

Test(fdl_types, underscore_spellings_are_not_type_names) {
  /* "Underscore spellings for integer encoding are not FDL type names":
   * fixed_int32 is an (unknown) named type */
  const char *s = "package t;\nmessage M [id=1] { fixed_int32 v = 1; }\n";
  cr_assert_eq(wire_schema_load_fdl(ctx, s, strlen(s), "t.fdl"), WIRE_E_IDL);
  cr_assert_str_eq(wire_ctx_error_message(ctx),
                   "t.fdl:2:20: unknown type fixed_int32");
}

Test(fdl_types, nested_collections_are_accepted) {
  /* foryc accepts these only when generating C++ alone; the registry can
   * describe them, so libwire takes them */
  load_text_ok("package t;\nmessage M [id=1] {\n"
               "  list<list<int32>> grid = 1;\n"
               "  map<string, list<optional string>> groups = 2;\n"
               "  list<map<string, fixed uint32>> rows = 3;\n}\n");
  wire_utype *m = ut("t.M");
  wire_field *f = field_is(m, "grid", 1, WIRE_T_LIST, false, false);
  node_is(f->type->elem, WIRE_T_LIST, false, false);
  node_is(f->type->elem->elem, WIRE_T_VARINT32, false, false);
  f = field_is(m, "groups", 2, WIRE_T_MAP, false, false);
  node_is(f->type->value, WIRE_T_LIST, false, false);
  node_is(f->type->value->elem, WIRE_T_STRING, true, false);
  f = field_is(m, "rows", 3, WIRE_T_LIST, false, false);
  node_is(f->type->elem->value, WIRE_T_UINT32, false, false);
}

Test(fdl_types, field_option_forms) {
  load_text_ok("package t;\nmessage N [id=2] { string s = 1; }\n"
               "message M [id=1] {\n"
               "  int32 a = 1 [deprecated=true, json_name=\"A\"];\n"
               "  N b = 2 [ref=true];\n"
               "  map<string, N> c = 3 [ref=true];\n"
               "  string d = 4 [nullable=false, ref=false];\n"
               "  optional repeated string e = 5;\n"
               "  repeated optional string f = 6;\n"
               "  ref(thread_safe=false) N g = 7 [weak_ref=true];\n"
               "  int32 to = 8;\n"
               "}\n");
  wire_utype *m = ut("t.M");
  field_is(m, "a", 1, WIRE_T_VARINT32, false, false);
  field_is(m, "b", 2, WIRE_T_STRUCT, true, true);
  wire_field *f = field_is(m, "c", 3, WIRE_T_MAP, false, false);
  node_is(f->type->value, WIRE_T_STRUCT, false, true);
  field_is(m, "d", 4, WIRE_T_STRING, false, false);
  f = field_is(m, "e", 5, WIRE_T_LIST, true, false);
  node_is(f->type->elem, WIRE_T_STRING, false, false);
  f = field_is(m, "f", 6, WIRE_T_LIST, false, false);
  node_is(f->type->elem, WIRE_T_STRING, true, false);
  field_is(m, "g", 7, WIRE_T_STRUCT, true, true);
  field_is(m, "to", 8, WIRE_T_VARINT32, false, false); /* keyword as a name */
}

Test(fdl_types, field_number_zero_and_max_tag) {
  load_text_ok("package t;\nmessage M [id=1] {\n  string a = 0;\n"
               "  string b = 536870911;\n}\n");
  field_is(ut("t.M"), "a", 0, WIRE_T_STRING, false, false);
  field_is(ut("t.M"), "b", 536870911, WIRE_T_STRING, false, false);
}

/* ---- name resolution ----------------------------------------------------- */

Test(fdl_names, simple_names_resolve_innermost_scope_first) {
  load_text_ok("package t;\n"
               "message Item [id=1] { string s = 1; }\n"
               "message Outer [id=2] {\n"
               "  message Item [id=3] { int32 n = 1; }\n"
               "  message Middle [id=4] {\n"
               "    Item inner = 1;\n"        /* Outer.Item */
               "    Outer.Item same = 2;\n"
               "    t.Item top = 3;\n"        /* package-qualified */
               "  }\n"
               "  Item a = 1;\n"
               "}\n"
               "message User [id=5] { Item x = 1; Outer.Middle m = 2; }\n");
  wire_utype *mid = ut("t.Outer.Middle");
  cr_assert_eq(user_of(fld(mid, "inner")->type), ut("t.Outer.Item"));
  cr_assert_eq(user_of(fld(mid, "same")->type), ut("t.Outer.Item"));
  cr_assert_eq(user_of(fld(mid, "top")->type), ut("t.Item"));
  cr_assert_eq(user_of(fld(ut("t.Outer"), "a")->type), ut("t.Outer.Item"));
  wire_utype *u = ut("t.User");
  cr_assert_eq(user_of(fld(u, "x")->type), ut("t.Item"));
  cr_assert_eq(user_of(fld(u, "m")->type), mid);
}

Test(fdl_names, dotted_names_may_be_relative_to_an_enclosing_message) {
  /* beyond foryc (which looks dotted names up from the top level only);
   * a top-level match wins, so foryc-valid schemas resolve the same */
  load_text_ok("package t;\n"
               "message A [id=1] {\n"
               "  message B [id=2] { enum C [id=3] { X = 0; } }\n"
               "  message D [id=4] { B.C c = 1; }\n"
               "}\n");
  cr_assert_eq(user_of(fld(ut("t.A.D"), "c")->type), ut("t.A.B.C"));
}

Test(fdl_names, nested_union_cases_see_the_enclosing_message) {
  load_text_ok("package t;\n"
               "message Env [id=1] {\n"
               "  message Payload [id=2] { int32 v = 1; }\n"
               "  union Detail [id=3] { Payload p = 1; string n = 2; }\n"
               "  Detail d = 1;\n"
               "}\n");
  wire_utype *d = ut("t.Env.Detail");
  cr_assert_eq(user_of(d->cases[0].type), ut("t.Env.Payload"));
}

Test(fdl_names, names_resolve_across_imports) {
  load_file_ok("imports/app/trip.fdl");
  wire_utype *leg = ut("app.trip.Leg");
  wire_utype *place = ut("geo.Place");
  /* simple name of an imported type, package-qualified name, nested path
   * from an imported type, and a type imported twice (diamond) */
  cr_assert_eq(user_of(field_is(leg, "from", 1, WIRE_T_STRUCT, true,
                                false)->type), place);
  cr_assert_eq(user_of(field_is(leg, "to", 2, WIRE_T_STRUCT, true,
                                false)->type), place);
  cr_assert_eq(user_of(field_is(leg, "waypoint", 3, WIRE_T_STRUCT, true,
                                false)->type),
               ut("geo.Place.Coordinates"));
  cr_assert_eq(user_of(field_is(leg, "distance", 4, WIRE_T_STRUCT, true,
                                false)->type),
               ut("common.units.Length"));
  cr_assert_eq(user_of(field_is(leg, "display_unit", 5, WIRE_T_ENUM, false,
                                false)->type),
               ut("common.units.Unit"));
  wire_field *f = field_is(leg, "splits", 6, WIRE_T_LIST, false, false);
  cr_assert_eq(user_of(f->type->elem), ut("common.units.Length"));
}

Test(fdl_names, ambiguous_imported_name_needs_its_package) {
  const char *bad = "package t;\nimport \"alpha.fdl\";\nimport \"beta.fdl\";\n"
                    "message Box [id=1] { Item item = 1; }\n";
  char name[1100];
  snprintf(name, sizeof name, "%s", fixture("imports/box.fdl"));
  cr_assert_eq(wire_schema_load_fdl(ctx, bad, strlen(bad), name), WIRE_E_IDL);
  const char *msg = wire_ctx_error_message(ctx);
  cr_assert(strstr(msg, "box.fdl:4:22: type name Item is ambiguous"), "%s",
            msg);
  cr_assert_eq(ntypes(), 0);
  const char *good = "package t;\nimport \"alpha.fdl\";\nimport \"beta.fdl\";\n"
                     "message Box [id=1] { alpha.Item a = 1; beta.Item b = 2; "
                     "}\n";
  cr_assert_eq(wire_schema_load_fdl(ctx, good, strlen(good), name), WIRE_OK,
               "%s", wire_ctx_error_message(ctx));
  wire_utype *box = ut("t.Box");
  cr_assert_eq(user_of(fld(box, "a")->type), ut("alpha.Item"));
  cr_assert_eq(user_of(fld(box, "b")->type), ut("beta.Item"));
}

Test(fdl_names, registry_full_names_find_nested_types) {
  load_file_ok("library.fdl");
  uint32_t i;
  const char *n = "library.catalog.Book.Chapter";
  cr_assert_eq(wire__reg_find(ctx, n, strlen(n), &i), WIRE_OK);
  cr_assert_eq(&ctx->reg->types[i], ut(n));
  cr_assert_eq(wire__reg_finish(ctx), WIRE_OK); /* already resolved */
}

/* ---- imports --------------------------------------------------------------- */

Test(fdl_imports, diamond_import_loads_the_shared_file_once) {
  load_file_ok("imports/app/trip.fdl");
  /* units (2) + geo (2) + trip (1) */
  cr_assert_eq(ntypes(), 5);
  /* dependencies are registered first */
  cr_assert_str_eq(ctx->reg->types[0].full_name, "common.units.Unit");
  cr_assert_str_eq(ctx->reg->types[4].full_name, "app.trip.Leg");
}

Test(fdl_imports, import_cycle_is_reported_with_the_chain) {
  const char *path = fixture("cycle/one.fdl");
  cr_assert_eq(wire_schema_load_fdl_file(ctx, path), WIRE_E_IDL);
  const char *msg = wire_ctx_error_message(ctx);
  cr_assert(strstr(msg, "cycle/three.fdl:3:8: import cycle: "), "%s", msg);
  cr_assert(strstr(msg, "cycle/one.fdl -> "), "%s", msg);
  cr_assert(strstr(msg, "cycle/two.fdl -> "), "%s", msg);
  cr_assert(strstr(msg, "cycle/three.fdl -> "), "%s", msg);
  cr_assert_eq(ntypes(), 0);
}

Test(fdl_imports, missing_import_points_at_the_import_statement) {
  const char *path = fixture("broken/missing_import.fdl");
  cr_assert_eq(wire_schema_load_fdl_file(ctx, path), WIRE_E_IDL);
  const char *msg = wire_ctx_error_message(ctx);
  cr_assert(strstr(msg, "broken/missing_import.fdl:3:8: cannot read import "
                        "\"nowhere.fdl\""), "%s", msg);
  cr_assert_eq(wire_ctx_error_offset(ctx), 24);
}

Test(fdl_imports, error_in_imported_file_names_that_file) {
  const char *path = fixture("broken/imports_bad_child.fdl");
  cr_assert_eq(wire_schema_load_fdl_file(ctx, path), WIRE_E_IDL);
  const char *msg = wire_ctx_error_message(ctx);
  cr_assert(strstr(msg, "broken/bad_child.fdl:6:1: expected ';' after the "
                        "field, found '}'"), "%s", msg);
  cr_assert_eq(ntypes(), 0);
}

Test(fdl_imports, unknown_type_next_to_imported_ones) {
  const char *path = fixture("broken/unknown_in_import.fdl");
  cr_assert_eq(wire_schema_load_fdl_file(ctx, path), WIRE_E_IDL);
  const char *msg = wire_ctx_error_message(ctx);
  cr_assert(strstr(msg, "broken/unknown_in_import.fdl:7:5: unknown type "
                        "Magazine"), "%s", msg);
  cr_assert_eq(ntypes(), 0); /* library.fdl's types were rolled back too */
}

Test(fdl_imports, missing_top_level_file) {
  const char *path = fixture("no/such/file.fdl");
  cr_assert_eq(wire_schema_load_fdl_file(ctx, path), WIRE_E_ARG);
  cr_assert(strstr(wire_ctx_error_message(ctx), "cannot read the file"));
}

Test(fdl_imports, loading_the_same_file_again_changes_nothing) {
  load_file_ok("library.fdl");
  uint32_t n = ntypes();
  load_file_ok("library.fdl");
  cr_assert_eq(ntypes(), n);
}

Test(fdl_imports, a_file_imported_by_two_loads_is_registered_once) {
  load_file_ok("imports/geo.fdl");
  cr_assert_eq(ntypes(), 4);
  load_file_ok("imports/app/trip.fdl");
  cr_assert_eq(ntypes(), 5);
  /* the new type refers to the types of the first load */
  wire_utype *leg = ut("app.trip.Leg");
  cr_assert_eq(user_of(fld(leg, "from")->type), ut("geo.Place"));
}

Test(fdl_imports, text_source_resolves_imports_next_to_its_name) {
  const char *s = "package t;\nimport \"common/units.fdl\";\n"
                  "message Run [id=1] { Length distance = 1; }\n";
  char name[1100];
  snprintf(name, sizeof name, "%s", fixture("imports/run.fdl"));
  cr_assert_eq(wire_schema_load_fdl(ctx, s, strlen(s), name), WIRE_OK, "%s",
               wire_ctx_error_message(ctx));
  cr_assert_eq(user_of(fld(ut("t.Run"), "distance")->type),
               ut("common.units.Length"));
}

Test(fdl_imports, protobuf_imports_are_unsupported) {
  const char *s = "package t;\n\nimport \"other.proto\";\n";
  cr_assert_eq(wire_schema_load_fdl(ctx, s, strlen(s), "t.fdl"),
               WIRE_E_UNSUPPORTED);
  cr_assert(strstr(wire_ctx_error_message(ctx), "t.fdl:3:8: import "
                                                "\"other.proto\""));
}

Test(fdl_imports, same_name_in_an_import_is_a_duplicate) {
  const char *s = "package t;\nimport \"alpha.fdl\";\n"
                  "message Item [id=9] { string s = 1; }\n";
  char name[1100];
  snprintf(name, sizeof name, "%s", fixture("imports/dup.fdl"));
  cr_assert_eq(wire_schema_load_fdl(ctx, s, strlen(s), name), WIRE_E_IDL);
  cr_assert(strstr(wire_ctx_error_message(ctx),
                   "dup.fdl:3:9: type Item is already declared in "),
            "%s", wire_ctx_error_message(ctx));
}

/* ---- malformed schemas ------------------------------------------------------ */

typedef struct {
  const char *what;
  const char *text;
  int32_t code;
  const char *msg; /* the whole message: "t.fdl:LINE:COL: what" */
} bad_case;

/* Line and column of a byte offset, counted as the loader does. */
static void pos_of(const char *text, uint64_t off, unsigned *line,
                   unsigned *col) {
  *line = 1;
  *col = 1;
  for (uint64_t i = 0; i < off && text[i]; i++) {
    if (text[i] == '\n') {
      ++*line;
      *col = 1;
    } else if (((unsigned char)text[i] & 0xc0) != 0x80) {
      ++*col;
    }
  }
}

static void check_bad(const bad_case *k, size_t n) {
  for (size_t i = 0; i < n; i++) {
    wire_ctx_free(ctx);
    ctx = wire_ctx_new();
    int32_t st = wire_schema_load_fdl(ctx, k[i].text, strlen(k[i].text),
                                      "t.fdl");
    const char *msg = wire_ctx_error_message(ctx);
    cr_expect_eq(st, k[i].code, "%s: status %d (%s), want %d", k[i].what, st,
                 msg, k[i].code);
    cr_expect_str_eq(msg, k[i].msg, "%s: got \"%s\"", k[i].what, msg);
    /* the offset is the position named in the message */
    unsigned line, col;
    char prefix[64];
    pos_of(k[i].text, wire_ctx_error_offset(ctx), &line, &col);
    snprintf(prefix, sizeof prefix, "t.fdl:%u:%u: ", line, col);
    cr_expect(strncmp(msg, prefix, strlen(prefix)) == 0,
              "%s: offset %llu is %s, message %s", k[i].what,
              (unsigned long long)wire_ctx_error_offset(ctx), prefix, msg);
    cr_expect_eq(ntypes(), 0, "%s: registry changed", k[i].what);
  }
}

/* Syntax and consistency errors share WIRE_E_IDL; kept apart here to
 * document which foryc stage rejects each input (parser or validator). */
#define SYN WIRE_E_IDL
#define SEM WIRE_E_IDL

Test(fdl_errors, syntax_errors_report_line_and_column) {
  static const bad_case k[] = {
      {"missing semicolon",
       "package p;\nmessage M {\n    string a = 1\n    int32 b = 2;\n}\n",
       SYN, "t.fdl:4:5: expected ';' after the field, found 'int32'"},
      {"unterminated block comment",
       "package p;\n/* never closed\nmessage M { string a = 1; }\n", SYN,
       "t.fdl:2:1: unterminated block comment"},
      {"unterminated string", "package p;\nimport \"a.fdl", SYN,
       "t.fdl:2:8: unterminated string"},
      {"newline in string", "package p;\noption x = \"abc\n\";\n", SYN,
       "t.fdl:2:12: newline in string"},
      {"unexpected character",
       "package p;\nmessage M { string a = 1; } @\n", SYN,
       "t.fdl:2:29: unexpected character '@'"},
      {"column counts characters, not bytes",
       "// caf\xc3\xa9\nmessage M { string \xc3\xa9 = 1; }\n", SYN,
       "t.fdl:2:20: unexpected byte 0xc3"},
      {"missing closing brace", "package p;\nmessage M { string a = 1;\n",
       SYN, "t.fdl:3:1: expected '}' to close message M, found end of input"},
      {"type id zero", "package p;\nmessage M [id=0] { string a = 1; }\n",
       SYN, "t.fdl:2:15: type option 'id' must be a positive integer"},
      {"type id not an integer",
       "package p;\nenum E [id=\"x\"] { A = 0; }\n", SYN,
       "t.fdl:2:12: type option 'id' must be an integer"},
      {"negative union id",
       "package p;\nunion U [id=-1] { string a = 1; }\n", SYN,
       "t.fdl:2:13: type option 'id' must be a non-negative integer"},
      {"integer too large",
       "package p;\nmessage M { string a = 99999999999999999999; }\n", SYN,
       "t.fdl:2:24: integer 99999999999999999999 is out of range"},
      {"duplicate package", "package p;\npackage q;\n", SYN,
       "t.fdl:2:1: duplicate package declaration"},
      {"option inside a message",
       "package p;\nmessage M { option x = 1; string a = 1; }\n", SYN,
       "t.fdl:2:13: option statements inside a message are not supported"},
      {"import public", "package p;\nimport public \"x.fdl\";\n", SYN,
       "t.fdl:2:1: 'import public' is not supported in FDL; use import "
       "\"path\";"},
      {"encoding on int8",
       "package p;\nmessage M { fixed int8 a = 1; }\n", SYN,
       "t.fdl:2:19: 'fixed' encoding is only valid for int32, int64, uint32 "
       "and uint64"},
      {"tagged int32",
       "package p;\nmessage M { tagged int32 a = 1; }\n", SYN,
       "t.fdl:2:20: 'tagged' encoding is only valid for int64 and uint64"},
      {"optional array element",
       "package p;\nmessage M { array<optional int32> a = 1; }\n", SYN,
       "t.fdl:2:19: array elements cannot be optional or ref"},
      {"ref map key", "package p;\nmessage M { map<ref string, int32> a = 1; "
       "}\n", SYN, "t.fdl:2:17: map keys cannot be ref"},
      {"optional union case", "package p;\nunion U { optional string a = 1; "
       "}\n", SYN, "t.fdl:2:11: union cases cannot be optional or ref"},
      {"keyword as a type name", "package p;\nmessage map { string a = 1; }\n",
       SYN, "t.fdl:2:9: expected a message name, found 'map'"},
      {"missing field number", "package p;\nmessage M { string a = ; }\n",
       SYN, "t.fdl:2:24: expected a field number, found ';'"},
      {"stray top-level token", "package p;\nstring a = 1;\n", SYN,
       "t.fdl:2:1: expected a declaration (package, option, import, message, "
       "enum, union or service), found 'string'"},
      {"repeated twice",
       "package p;\nmessage M { repeated repeated string a = 1; }\n", SYN,
       "t.fdl:2:22: 'repeated' given twice"},
      {"unclosed reserved range",
       "package p;\nmessage M { reserved 1 to ; }\n", SYN,
       "t.fdl:2:27: expected an integer or 'max' after 'to', found ';'"},
      {"types nested too deeply",
       "package p;\nmessage M { "
       "list<list<list<list<list<list<list<list<list<list<"
       "list<list<list<list<list<list<list<list<list<list<"
       "list<list<list<list<list<list<list<list<list<list<"
       "list<list<list<list<list<list<list<list<list<list<"
       "list<list<list<list<list<list<list<list<list<list<"
       "list<list<list<list<list<list<list<list<list<list<"
       "list<list<list<list<list<list<"
       "int32>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>"
       " a = 1; }\n", SYN, "t.fdl:2:328: types nested too deeply"},
  };
  check_bad(k, sizeof k / sizeof k[0]);
}

Test(fdl_errors, semantic_errors_report_line_and_column) {
  static const bad_case k[] = {
      {"unknown type", "package p;\nmessage M {\n    Missing a = 1;\n}\n",
       SEM, "t.fdl:3:5: unknown type Missing"},
      {"unknown nested type",
       "package p;\nmessage M { message N [id=2] {} M.X a = 1; }\n", SEM,
       "t.fdl:2:33: unknown type M.X"},
      {"duplicate field number",
       "package p;\nmessage M {\n    string a = 1;\n    string b = 1;\n}\n",
       SEM, "t.fdl:4:16: field number 1 is used twice in M (a and b)"},
      {"duplicate field name",
       "package p;\nmessage M { string a = 1; int32 a = 2; }\n", SEM,
       "t.fdl:2:33: field a is declared twice in M"},
      {"field number out of range",
       "package p;\nmessage M { string a = 536870912; }\n", SEM,
       "t.fdl:2:24: field number 536870912 of M.a is out of range "
       "(0..536870911)"},
      {"negative field number",
       "package p;\nmessage M { string a = -1; }\n", SEM,
       "t.fdl:2:24: field number -1 of M.a is out of range (0..536870911)"},
      {"duplicate enum value",
       "package p;\nenum E { A = 0; B = 0; }\n", SEM,
       "t.fdl:2:21: enum value 0 is used twice in E (A and B)"},
      {"duplicate enum value name",
       "package p;\nenum E { A = 0; A = 1; }\n", SEM,
       "t.fdl:2:17: enum value A is declared twice in E"},
      {"negative enum value", "package p;\nenum E { A = -1; }\n", SEM,
       "t.fdl:2:14: enum value -1 of E.A is out of range (0..4294967295)"},
      {"duplicate union case id",
       "package p;\nunion U { string a = 1; int32 b = 1; }\n", SEM,
       "t.fdl:2:35: union case id 1 is used twice in U (a and b)"},
      {"union without cases", "package p;\nunion U { }\n", SEM,
       "t.fdl:2:7: union U needs at least one case"},
      {"duplicate type name",
       "package p;\nmessage M { string a = 1; }\nenum M { A = 0; }\n", SEM,
       "t.fdl:3:6: type M is declared twice"},
      {"duplicate nested type name",
       "package p;\nmessage M { message I {} enum I { A = 0; } }\n", SEM,
       "t.fdl:2:31: type I is declared twice in M"},
      {"duplicate type id",
       "package p;\nmessage A [id=5] {}\nmessage B [id=5] {}\n", SEM,
       "t.fdl:3:9: type id 5 of B is already used by p.A"},
      {"type id out of range",
       "package p;\nmessage A [id=4294967295] {}\n", SEM,
       "t.fdl:2:9: type id 4294967295 of A is out of range (0..4294967294)"},
      {"optional message field",
       "package p;\nmessage A {}\nmessage B { optional A a = 1; }\n", SEM,
       "t.fdl:3:13: message fields are always nullable; remove the optional "
       "modifier"},
      {"nullable message field",
       "package p;\nmessage A {}\nmessage B { A a = 1 [nullable=true]; }\n",
       SEM, "t.fdl:3:13: message fields are always nullable; remove the "
       "optional modifier"},
      {"ref on a scalar", "package p;\nmessage M { ref string a = 1; }\n",
       SEM, "t.fdl:2:13: ref is only valid for message and union types"},
      {"ref on an enum element",
       "package p;\nenum E { A = 0; }\nmessage M { list<ref E> a = 1; }\n",
       SEM, "t.fdl:3:22: ref is only valid for message and union types, not "
       "for enum E"},
      {"ref on a list field",
       "package p;\nmessage N {}\nmessage M { ref list<N> a = 1; }\n", SEM,
       "t.fdl:3:13: ref is not allowed on list/map fields; use list<ref T> "
       "or map<K, ref V>"},
      {"ref on any", "package p;\nmessage M { ref any a = 1; }\n", SEM,
       "t.fdl:2:13: ref is not allowed on any"},
      {"optional any", "package p;\nmessage M { optional any a = 1; }\n",
       SEM, "t.fdl:2:13: optional or nullable any is not supported; use any"},
      {"optional any element",
       "package p;\nmessage M { list<optional any> a = 1; }\n", SEM,
       "t.fdl:2:27: optional any is not supported; use any"},
      {"float map key",
       "package p;\nmessage M { map<float32, string> a = 1; }\n", SEM,
       "t.fdl:2:17: map keys cannot be any, bytes, floating-point, decimal, "
       "message, union, list, array or map types"},
      {"message map key",
       "package p;\nmessage K {}\nmessage M { map<K, string> a = 1; }\n",
       SEM, "t.fdl:3:17: map keys cannot be any, bytes, floating-point, "
       "decimal, message, union, list, array or map types"},
      {"array of strings",
       "package p;\nmessage M { array<string> a = 1; }\n", SEM,
       "t.fdl:2:19: array<T> elements must be bool, integer or "
       "floating-point types; use list<T>"},
      {"array with an encoding",
       "package p;\nmessage M { array<fixed int32> a = 1; }\n", SEM,
       "t.fdl:2:19: array<T> elements take no encoding modifier: array "
       "elements are always fixed-width"},
      {"rpc on an enum",
       "package p;\nenum E { A = 0; }\nservice S { rpc Get (E) returns (E); "
       "}\n", SEM,
       "t.fdl:3:22: rpc type E must be a message or a union, not an enum"},
      {"import cycle through itself",
       "package p;\nimport \"t.fdl\";\n", SEM,
       "t.fdl:2:8: import cycle: t.fdl -> t.fdl"},
  };
  check_bad(k, sizeof k / sizeof k[0]);
}

Test(fdl_errors, failed_load_leaves_the_registry_unchanged) {
  load_file_ok("library.fdl");
  uint32_t n = ntypes();
  const char *s = "package more;\nmessage Ok [id=9000] { string a = 1; }\n"
                  "message Bad [id=9001] { Nope x = 1; }\n";
  cr_assert_eq(wire_schema_load_fdl(ctx, s, strlen(s), "more.fdl"),
               WIRE_E_IDL);
  cr_assert_eq(ntypes(), n);
  cr_assert(!has_type("more.Ok"));
  /* and the context still works */
  const char *good = "package more;\nmessage Ok [id=9000] { Book b = 1; }\n";
  cr_assert_eq(wire_schema_load_fdl(ctx, good, strlen(good), "more.fdl"),
               WIRE_E_IDL); /* Book is not visible: no import */
  const char *qual = "package more;\nmessage Ok [id=9000] { string a = 1; }\n";
  cr_assert_eq(wire_schema_load_fdl(ctx, qual, strlen(qual), "more.fdl"),
               WIRE_OK);
  cr_assert_eq(ntypes(), n + 1);
}

Test(fdl_errors, type_registered_twice_across_loads) {
  load_text_ok("package p;\nmessage A [id=1] { string s = 1; }\n"
               "message B [id=2] { string s = 1; }\n");
  const char *s = "package p;\n\nmessage B [id=3] { string s = 1; }\n";
  cr_assert_eq(wire_schema_load_fdl(ctx, s, strlen(s), "u.fdl"), WIRE_E_IDL);
  cr_assert_str_eq(wire_ctx_error_message(ctx),
                   "u.fdl:3:9: type p.B registered twice");
}

/* ---- API contract ------------------------------------------------------------ */

Test(fdl_api, null_arguments) {
  cr_assert_eq(wire_schema_load_fdl(NULL, "", 0, "x"), WIRE_E_ARG);
  cr_assert_eq(wire_schema_load_fdl_file(NULL, "x"), WIRE_E_ARG);
  cr_assert_eq(wire_schema_load_fdl(ctx, NULL, 3, "x"), WIRE_E_ARG);
  cr_assert_eq(wire_schema_load_fdl_file(ctx, NULL), WIRE_E_ARG);
  cr_assert_eq(wire_schema_load_fdl(ctx, NULL, 0, "x"), WIRE_OK);
  cr_assert_eq(ntypes(), 0);
}

Test(fdl_api, unnamed_source_is_called_input) {
  const char *s = "message M {";
  cr_assert_eq(wire_schema_load_fdl(ctx, s, strlen(s), NULL),
               WIRE_E_IDL);
  cr_assert_str_eq(wire_ctx_error_message(ctx),
                   "<input>:1:12: expected '}' to close message M, found end "
                   "of input");
}

Test(fdl_api, text_need_not_be_nul_terminated) {
  const char s[] = "package p; message M [id=1] { string a = 1; }garbage";
  cr_assert_eq(wire_schema_load_fdl(ctx, s, strlen(s) - 7, "t.fdl"), WIRE_OK,
               "%s", wire_ctx_error_message(ctx));
  cr_assert_eq(ntypes(), 1);
}

Test(fdl_api, comments_whitespace_and_empty_schemas) {
  load_text_ok("");
  load_text_ok("  // only a comment\n/* and a block\n comment */\n");
  load_text_ok("package p.q;\r\n\t// crlf lines\r\nmessage E {}\r\n");
  by_id(ut("p.q.E"), WIRE_KIND_STRUCT, 1348087494u); /* hash of "p.q.E" */
  cr_assert_eq(ut("p.q.E")->nfields, 0);
}

/* A counting allocator that can fail on the n-th call. */
typedef struct {
  long live;        /* bytes outstanding */
  long calls;
  long fail_at;     /* 0 = never */
} counting;

static void *c_malloc(void *u, size_t n) {
  counting *c = u;
  if (c->fail_at && ++c->calls >= c->fail_at) return NULL;
  void *p = malloc(n);
  if (p) c->live += (long)n;
  return p;
}
static void *c_realloc(void *u, void *p, size_t o, size_t n) {
  counting *c = u;
  if (c->fail_at && ++c->calls >= c->fail_at) return NULL;
  void *q = realloc(p, n);
  if (q) c->live += (long)n - (long)o;
  return q;
}
static void c_free(void *u, void *p, size_t n) {
  counting *c = u;
  if (p) c->live -= (long)n;
  free(p);
}

Test(fdl_api, temporary_memory_is_released_through_the_context) {
  counting c = {0, 0, 0};
  wire_ctx *x = wire_ctx_new_with_allocator(c_malloc, c_realloc, c_free, &c);
  cr_assert_not_null(x);
  long base = c.live;
  cr_assert_eq(wire_schema_load_fdl_file(x, fixture("imports/app/trip.fdl")),
               WIRE_OK, "%s", wire_ctx_error_message(x));
  long after = c.live;
  cr_assert_gt(after, base); /* the registry */
  /* a failing load returns all its temporary memory */
  cr_assert_eq(wire_schema_load_fdl_file(x, fixture("cycle/one.fdl")),
               WIRE_E_IDL);
  cr_assert_eq(c.live, after);
  wire_ctx_free(x);
  cr_assert_eq(c.live, 0);
}

Test(fdl_api, allocation_failures_report_nomem_and_leak_nothing) {
  const char *path = fixture("imports/app/trip.fdl");
  for (long n = 1;; n++) {
    counting c = {0, 0, 0};
    wire_ctx *x = wire_ctx_new_with_allocator(c_malloc, c_realloc, c_free,
                                              &c);
    cr_assert_not_null(x);
    c.fail_at = n;
    int32_t st = wire_schema_load_fdl_file(x, path);
    if (st == WIRE_OK) {
      cr_assert_eq(x->reg->ntypes, 5);
      wire_ctx_free(x);
      cr_assert_eq(c.live, 0);
      cr_assert_gt(n, 10, "too few allocations to be a real test");
      break;
    }
    cr_assert_eq(st, WIRE_E_NOMEM, "fail at %ld: %d %s", n, st,
                 wire_ctx_error_message(x));
    cr_assert(!x->reg || x->reg->ntypes == 0, "fail at %ld: %u types left", n,
              x->reg->ntypes);
    wire_ctx_free(x);
    cr_assert_eq(c.live, 0, "fail at %ld: %ld bytes leaked", n, c.live);
    cr_assert_lt(n, 100000);
  }
}

/* wire_schema_field / _field_count / _field_type_info: what a binding
 * needs to write STRUCT_IDX tapes with the declared field types. */
Test(fdl_api, field_introspection_in_wire_order) {
  load_text_ok("package t;\n"
               "enum Color [id=3] { RED = 0; }\n"
               "message M [id=1] {\n"
               "  int64 zeta = 1;\n"
               "  int8 alpha = 2;\n"
               "  optional list<int32> beta = 3;\n"
               "  map<string, Color> gamma = 4;\n"
               "}\n");
  uint32_t m, color;
  cr_assert_eq(wire_schema_find_type(ctx, "t.M", 3, &m), WIRE_OK);
  cr_assert_eq(wire_schema_find_type(ctx, "t.Color", 7, &color), WIRE_OK);
  cr_assert_eq(wire_schema_field_count(ctx, m), 4);
  cr_assert_eq(wire_schema_field_count(ctx, color), 0);
  /* wire order: the order of a fresh struct node's fields. */
  wire_doc *doc = wire_doc_new(ctx);
  wire_node *fresh = wire_node_new_struct(doc, m);
  cr_assert_not_null(fresh);
  cr_assert_eq(wire_node_count(fresh), 4);
  const char *name;
  size_t nlen;
  int32_t tag;
  const wire_field_type *ft;
  for (uint32_t i = 0; i < 4; i++) {
    size_t wlen;
    const char *wname = wire_node_field_name(fresh, i, &wlen);
    cr_assert_eq(wire_schema_field(ctx, m, i, &name, &nlen, &tag, &ft),
                 WIRE_OK);
    cr_assert(nlen == wlen && memcmp(name, wname, nlen) == 0);
    cr_assert_eq(tag, wire_node_field_tag(fresh, i));
  }
  wire_doc_free(doc);
  uint32_t tid, user;
  int32_t nullable, ref;
  const wire_field_type *el, *k, *v;
  bool seen_int8 = false, seen_int64 = false;
  bool seen_list = false, seen_map = false;
  for (uint32_t i = 0; i < 4; i++) {
    cr_assert_eq(wire_schema_field(ctx, m, i, &name, &nlen, NULL, &ft),
                 WIRE_OK);
    cr_assert_eq(wire_schema_field_type_info(ft, &tid, &nullable, &ref, &user,
                                             &el, &k, &v), WIRE_OK);
    /* FDL int64 is a varint64 on the wire (as foryc generates it). */
    if (tid == WIRE_T_INT8 || tid == WIRE_T_VARINT64) {
      cr_assert(memcmp(name, tid == WIRE_T_INT8 ? "alpha" : "zeta", nlen) == 0);
      cr_assert_eq(user, WIRE_BY_NAME);
      cr_assert(!nullable && !ref && !el && !k && !v);
      if (tid == WIRE_T_INT8) seen_int8 = true; else seen_int64 = true;
    } else if (tid == WIRE_T_LIST) {
      seen_list = true;
      cr_assert_eq(nullable, 1);
      cr_assert_not_null(el);
      cr_assert_eq(wire_schema_field_type_info(el, &tid, NULL, NULL, NULL,
                                               NULL, NULL, NULL), WIRE_OK);
      cr_assert_eq(tid, WIRE_T_VARINT32); /* FDL int32 */
    } else {
      seen_map = true;
      cr_assert_eq(tid, WIRE_T_MAP);
      cr_assert_eq(wire_schema_field_type_info(v, &tid, NULL, NULL, &user,
                                               NULL, NULL, NULL), WIRE_OK);
      cr_assert_eq(tid, WIRE_T_ENUM);
      cr_assert_eq(user, color);
    }
  }
  cr_assert(seen_list && seen_map && seen_int8 && seen_int64);
  cr_assert_eq(wire_schema_field(ctx, m, 4, NULL, NULL, NULL, NULL),
               WIRE_E_ARG);
  cr_assert_eq(wire_schema_field(ctx, color, 0, NULL, NULL, NULL, NULL),
               WIRE_E_ARG);
  cr_assert_eq(wire_schema_field_type_info(NULL, &tid, NULL, NULL, NULL, NULL,
                                           NULL, NULL), WIRE_E_ARG);
}

/* [nullable = false] on a message or any field: honoured, and reported as
 * a warning because foryc ignores it (spec R-FDL-2); other fields with it,
 * and files without it, give none. A load forgets the last one's. */
Test(fdl_api, nullable_false_on_message_fields_is_a_warning) {
  static const char fdl[] =
      "package w;\n"
      "message Inner { int32 a = 1; }\n"
      "message Outer {\n"
      "  Inner plain = 1;\n"
      "  Inner strict = 2 [nullable = false];\n"
      "  any payload = 3 [nullable = false];\n"
      "  string s = 4 [nullable = false];\n"
      "}\n";
  cr_assert_eq(wire_schema_warning_count(ctx), 0);
  cr_assert_eq(wire_schema_load_fdl(ctx, fdl, strlen(fdl), "w.fdl"), WIRE_OK,
               "%s", wire_ctx_error_message(ctx));
  cr_assert_eq(wire_schema_warning_count(ctx), 2);
  cr_assert(strstr(wire_schema_warning(ctx, 0),
                   "w.fdl:5:21: [nullable = false] on message field strict") ==
                wire_schema_warning(ctx, 0),
            "%s", wire_schema_warning(ctx, 0));
  cr_assert(strstr(wire_schema_warning(ctx, 1), "w.fdl:6:20: [nullable = false] "
                                                "on any field payload") != NULL,
            "%s", wire_schema_warning(ctx, 1));
  cr_assert(strstr(wire_schema_warning(ctx, 1), "foryc ignores") != NULL);
  cr_assert_null(wire_schema_warning(ctx, 2));
  cr_assert_null(wire_schema_warning(NULL, 0));
  /* the field is not nullable all the same */
  uint32_t t;
  cr_assert_eq(wire_schema_find_type(ctx, "w.Outer", 7, &t), WIRE_OK);
  char fp[256];
  size_t n;
  uint32_t hash;
  cr_assert_eq(wire_schema_fingerprint(ctx, t, fp, sizeof fp, &n, &hash), WIRE_OK);
  cr_assert(strstr(fp, "2,0,0,0;") != NULL, "%s", fp);
  static const char plain[] = "package w2;\nmessage M { string s = 1; }\n";
  cr_assert_eq(wire_schema_load_fdl(ctx, plain, strlen(plain), "w2.fdl"), WIRE_OK);
  cr_assert_eq(wire_schema_warning_count(ctx), 0);
  /* a file that says it is not for foryc (R-FDLX-10) */
  static const char quiet[] = "package w3;\noption wire_warn_foryc = false;\n"
                              "message I { int32 a = 1; }\n"
                              "message O { I i = 1 [nullable = false]; }\n";
  cr_assert_eq(wire_schema_load_fdl(ctx, quiet, strlen(quiet), "w3.fdl"), WIRE_OK);
  cr_assert_eq(wire_schema_warning_count(ctx), 0);
}
