/* test_exact.c - issue 11 through the C API: the peer option, a list shared
 * by two fields ([wire_ref = true]) against pyfory's bytes, pyfory's named
 * struct fields and empty-struct hash, TypeDef back-references in one
 * numbering for decoder and encoder, Go's TypeDef announced again, and
 * strict projection. The byte strings are pyfory 1.7.7's and Fory Go
 * 1.6.1's (fixtures exact.*, libwire/tests/exact). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wire.h"
#include "test_hex.h"

static wire_ctx *ctx;

static void setup(void) {
  ctx = wire_ctx_new();
  cr_assert(ctx);
}
static void teardown(void) { wire_ctx_free(ctx); }

TestSuite(exact, .init = setup, .fini = teardown);

static void load(const char *fdl) {
  int32_t st = wire_schema_load_fdl(ctx, fdl, strlen(fdl), "exact.fdl");
  cr_assert_eq(st, WIRE_OK, "%s", wire_ctx_error_message(ctx));
}

/* decode, then encode: the same bytes */
static void roundtrip(const char *hex) {
  size_t n;
  uint8_t *b = unhex(hex, &n);
  wire_doc *doc;
  cr_assert_eq(wire_decode(ctx, b, n, &doc), WIRE_OK, "%s", wire_ctx_error_message(ctx));
  uint8_t *out;
  size_t len;
  cr_assert_eq(wire_encode(ctx, doc, &out, &len), WIRE_OK, "%s", wire_ctx_error_message(ctx));
  char *got = tohex(out, len);
  cr_assert_str_eq(got, hex);
  free(got);
  wire_ctx_free_bytes(ctx, out);
  wire_doc_free(doc);
  free(b);
}

static const char *ns_fdl =
    "package ex;\noption enable_auto_type_id = false;\n"
    "option wire_fields_by_name = true;\n";

Test(exact, peer_option) {
  cr_assert_eq(wire_ctx_get_option(ctx, WIRE_OPT_PEER), WIRE_PEER_NONE);
  cr_assert_eq(wire_ctx_set_option(ctx, WIRE_OPT_PEER, WIRE_PEER_GO), WIRE_OK);
  cr_assert_eq(wire_ctx_get_option(ctx, WIRE_OPT_PEER), WIRE_PEER_GO);
  cr_assert_eq(wire_ctx_set_option(ctx, WIRE_OPT_PEER, 4), WIRE_E_ARG);
  cr_assert_eq(wire_ctx_set_option(ctx, WIRE_OPT_PEER, -1), WIRE_E_ARG);
  cr_assert_eq(wire_ctx_get_option(ctx, WIRE_OPT_PEER), WIRE_PEER_GO);
}

static const char *shared_fdl =
    "message SharedLists {\n"
    "  list<ref string> first = 1 [wire_ref = true];\n"
    "  list<ref string> second = 2 [wire_ref = true];\n"
    "}\n";
/* pyfory: SharedLists(first=l, second=l), Fory(ref=True), same-schema */
static const char *shared_same =
    "01001d040192e01204f64704483ead129c80ce772f5400020c04610462fe01";

Test(exact, shared_list_built_through_the_api_is_pyforys_bytes) {
  char fdl[512];
  snprintf(fdl, sizeof fdl, "%s%s", ns_fdl, shared_fdl);
  load(fdl);
  wire_ctx_set_option(ctx, WIRE_OPT_REF_TRACKING, 1);
  wire_ctx_set_option(ctx, WIRE_OPT_PEER, WIRE_PEER_PYFORY);
  uint32_t ti;
  cr_assert_eq(wire_schema_find_type(ctx, "ex.SharedLists", 14, &ti), WIRE_OK);
  wire_doc *doc = wire_doc_new(ctx);
  wire_node *s = wire_node_new_struct(doc, ti);
  wire_node *l = wire_node_new_list(doc, WIRE_T_LIST);
  cr_assert(s && l);
  cr_assert_eq(wire_list_append(doc, l, wire_node_new_string(doc, (const uint8_t *)"a", 1, -1)), WIRE_OK);
  cr_assert_eq(wire_list_append(doc, l, wire_node_new_string(doc, (const uint8_t *)"b", 1, -1)), WIRE_OK);
  /* one list in two fields: shared, so written once and referred to */
  cr_assert_eq(wire_struct_set_field(doc, s, "first", 5, l), WIRE_OK);
  cr_assert_eq(wire_struct_set_field(doc, s, "second", 6, l), WIRE_OK);
  /* pyfory writes the namespace "ex" as LOWER_SPECIAL where Java (and
   * libwire's fresh choice) has ALL_TO_LOWER_SPECIAL: recorded here */
  cr_assert_eq(wire_node_set_name_encodings(s, WIRE_MS_LOWER_SPECIAL,
                                            WIRE_MS_ALL_TO_LOWER_SPECIAL), WIRE_OK);
  cr_assert_eq(wire_doc_add_root(doc, s), WIRE_OK);
  uint8_t *out;
  size_t len;
  cr_assert_eq(wire_encode(ctx, doc, &out, &len), WIRE_OK, "%s", wire_ctx_error_message(ctx));
  char *got = tohex(out, len);
  cr_assert_str_eq(got, shared_same);
  free(got);
  wire_ctx_free_bytes(ctx, out);
  wire_doc_free(doc);
  /* and read back: both fields are one node */
  size_t n;
  uint8_t *b = unhex(shared_same, &n);
  cr_assert_eq(wire_decode(ctx, b, n, &doc), WIRE_OK, "%s", wire_ctx_error_message(ctx));
  wire_node *root = wire_doc_root(doc, 0);
  cr_assert_eq(wire_node_count(root), 2);
  cr_assert(wire_node_field(root, 0) == wire_node_field(root, 1));
  cr_assert_eq(wire_node_count(wire_node_field(root, 0)), 2);
  wire_doc_free(doc);
  free(b);
}

Test(exact, shared_list_needs_wire_ref) {
  /* without [wire_ref = true] the fields are not tracked: the hash differs */
  char fdl[512];
  snprintf(fdl, sizeof fdl, "%smessage SharedLists { list<string> first = 1; "
           "list<string> second = 2; }\n", ns_fdl);
  load(fdl);
  wire_ctx_set_option(ctx, WIRE_OPT_REF_TRACKING, 1);
  size_t n;
  uint8_t *b = unhex(shared_same, &n);
  wire_doc *doc;
  cr_assert_eq(wire_decode(ctx, b, n, &doc), WIRE_E_SCHEMA);
  free(b);
}

Test(exact, wire_ref_only_on_collections) {
  char fdl[512];
  snprintf(fdl, sizeof fdl, "%smessage A { string s = 1 [wire_ref = true]; }\n", ns_fdl);
  cr_assert_eq(wire_schema_load_fdl(ctx, fdl, strlen(fdl), "x.fdl"), WIRE_E_IDL);
  cr_assert(strstr(wire_ctx_error_message(ctx), "wire_ref is for list"));
}

static const char *nested_fdl =
    "message Inner { int32 a = 1; string b = 2; }\n"
    "message Outer { Inner inner = 1 [nullable = false]; string label = 2; }\n";
/* pyfory: Outer(Inner(7, "seven"), "outer"), same-schema: type meta before
 * the field of the struct registered by name (E-33) */
static const char *nested_same =
    "01ff1d040192e00803ba932440eadc20b71d030803a1ad24406d9532420e14736576656e146f75746572";

Test(exact, pyfory_named_struct_field_needs_the_peer) {
  char fdl[512];
  snprintf(fdl, sizeof fdl, "%s%s", ns_fdl, nested_fdl);
  load(fdl);
  size_t n;
  uint8_t *b = unhex(nested_same, &n);
  wire_doc *doc;
  cr_assert_eq(wire_decode(ctx, b, n, &doc), WIRE_E_SCHEMA);
  cr_assert(strstr(wire_ctx_error_message(ctx), "E-33"), "%s", wire_ctx_error_message(ctx));
  wire_ctx_set_option(ctx, WIRE_OPT_PEER, WIRE_PEER_PYFORY);
  roundtrip(nested_same);
  free(b);
}

Test(exact, pyfory_empty_struct_hash_is_the_seed) {
  char fdl[512];
  snprintf(fdl, sizeof fdl, "%smessage Empty {}\nmessage HasEmpty { Empty e = 1 "
           "[nullable = false]; int32 n = 2; }\n", ns_fdl);
  load(fdl);
  wire_ctx_set_option(ctx, WIRE_OPT_PEER, WIRE_PEER_PYFORY);
  roundtrip("01ff1d040192e00e02c2024f187a6c004e39e434061d030803918f9e002f000000");
  /* Java's form of the same value (its hash of the empty fingerprint) */
  wire_ctx_set_option(ctx, WIRE_OPT_PEER, WIRE_PEER_JAVA);
  roundtrip("01ff1d040492e00e02c2024f187a6c004e39e434063aa1e90b");
}

/* Issue 11 item 1: the recursive Node of pyfory, compatible mode, decoded
 * without a schema: inner Nodes refer back to TypeDef #0 and the encoder
 * numbers them the same way. */
Test(exact, typedef_back_references_without_a_schema) {
  const char *tree =
      "01ff1e0017d0995f57f5fb64e20992e00f35c3204c05d40ba10056167888e858e2468002ff02081e0104"
      "ff01081e0108ff0006ff00";
  size_t n;
  uint8_t *b = unhex(tree, &n);
  wire_doc *doc;
  cr_assert_eq(wire_decode(ctx, b, n, &doc), WIRE_OK, "%s", wire_ctx_error_message(ctx));
  uint8_t *text;
  size_t tl;
  cr_assert_eq(wire_notation_print(ctx, doc, wire_doc_root(doc, 0), 0, &text, &tl), WIRE_OK);
  char *t = strndup((const char *)text, tl);
  cr_assert(strstr(t, "\"typedef\":\"17d0995f"), "%s", t);
  cr_assert(strstr(t, "\"typedef\":0"), "%s", t);
  cr_assert_null(strstr(t, "\"typedef\":1"), "%s", t);
  free(t);
  wire_ctx_free_bytes(ctx, text);
  wire_doc_free(doc);
  free(b);
  roundtrip(tree);
}

/* Fory Go announces the recursive TypeDef again (E-44): kept with a schema */
Test(exact, go_typedef_announced_again_with_a_schema) {
  char fdl[512];
  snprintf(fdl, sizeof fdl, "%smessage Node { int32 value = 1; list<optional Node> "
           "children = 2; }\n", ns_fdl);
  load(fdl);
  wire_ctx_set_option(ctx, WIRE_OPT_COMPATIBLE, 1);
  wire_ctx_set_option(ctx, WIRE_OPT_PEER, WIRE_PEER_GO);
  roundtrip("01ff1e0017503fe1e5b7e61ee20992e00f35c3204c05d40ba10054167a88e858e246800202081e02"
            "17503fe1e5b7e61ee20992e00f35c3204c05d40ba10054167a88e858e246800401081e0308000600");
}

Test(exact, strict_projection_reports_a_dropped_field) {
  /* pyfory Evo v1 (id, name, old, count), compatible, read as v2 */
  const char *v1 =
      "01ff1e001a9050dc535c720ee40992e00b12ae4c0589d46cc04405a0604815340c2044153963540e"
      "14736576656e28676f6e6520696e207632";
  char fdl[512];
  snprintf(fdl, sizeof fdl, "%smessage Evo { int32 id = 1; string name = 2; "
           "int64 count = 3; string added = 4; }\n", ns_fdl);
  load(fdl);
  wire_ctx_set_option(ctx, WIRE_OPT_COMPATIBLE, 1);
  uint32_t ti;
  cr_assert_eq(wire_schema_find_type(ctx, "ex.Evo", 6, &ti), WIRE_OK);
  size_t n;
  uint8_t *b = unhex(v1, &n);
  wire_doc *doc;
  cr_assert_eq(wire_decode(ctx, b, n, &doc), WIRE_OK, "%s", wire_ctx_error_message(ctx));
  wire_node *p = NULL;
  cr_assert_eq(wire_struct_project(doc, wire_doc_root(doc, 0), ti, &p), WIRE_OK);
  cr_assert_eq(wire_node_count(p), 4);
  cr_assert_eq(wire_ctx_get_option(ctx, WIRE_OPT_PROJECT_STRICT), 0);
  cr_assert_eq(wire_ctx_set_option(ctx, WIRE_OPT_PROJECT_STRICT, 1), WIRE_OK);
  cr_assert_eq(wire_struct_project(doc, wire_doc_root(doc, 0), ti, &p), WIRE_E_SCHEMA);
  cr_assert(strstr(wire_ctx_error_message(ctx), "\"old\" has no field"), "%s",
            wire_ctx_error_message(ctx));
  wire_doc_free(doc);
  free(b);
}

Test(exact, fdl_import_directories) {
  char dir[] = "/tmp/wire-exact-XXXXXX";
  cr_assert(mkdtemp(dir));
  char lib[64], common[96], top[96];
  snprintf(lib, sizeof lib, "%s/lib", dir);
  cr_assert_eq(mkdir(lib, 0700), 0);
  snprintf(common, sizeof common, "%s/common.fdl", lib);
  snprintf(top, sizeof top, "%s/main.fdl", dir);
  FILE *f = fopen(common, "w");
  fputs("package common;\nmessage Point { int32 x = 1; int32 y = 2; }\n", f);
  fclose(f);
  f = fopen(top, "w");
  fputs("package app;\nimport \"common.fdl\";\nmessage Shape { common.Point p = 1; }\n", f);
  fclose(f);
  /* not next to main.fdl: an error naming the import */
  cr_assert_eq(wire_schema_load_fdl_file(ctx, top), WIRE_E_IDL);
  cr_assert(strstr(wire_ctx_error_message(ctx), "cannot read import \"common.fdl\""));
  cr_assert_eq(wire_schema_add_import_dir(ctx, ""), WIRE_E_ARG);
  cr_assert_eq(wire_schema_add_import_dir(ctx, dir), WIRE_OK); /* not there */
  cr_assert_eq(wire_schema_add_import_dir(ctx, lib), WIRE_OK);
  cr_assert_eq(wire_schema_load_fdl_file(ctx, top), WIRE_OK, "%s", wire_ctx_error_message(ctx));
  uint32_t ti;
  cr_assert_eq(wire_schema_find_type(ctx, "common.Point", 12, &ti), WIRE_OK);
  remove(common);
  remove(top);
  rmdir(lib);
  rmdir(dir);
}

Test(exact, fdl_proto_import_is_unsupported) {
  const char *fdl = "package a;\nimport \"b.proto\";\nmessage A { int32 x = 1; }\n";
  cr_assert_eq(wire_schema_load_fdl(ctx, fdl, strlen(fdl), "a.fdl"), WIRE_E_UNSUPPORTED);
  cr_assert(strstr(wire_ctx_error_message(ctx), "b.proto"));
}
