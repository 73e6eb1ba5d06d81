/* test_mem_graph.c - the layout encoder on object graphs under reference
 * tracking (the shape of the Kotlin binding's order graph): struct
 * pointers in fields and in lists with and without flags (null items,
 * references across items and fields, a cycle), chains of pointers deeper
 * than the encoder nests without a call, tagged strings in lists and maps,
 * decimals at the edges of their small form. The bytes are checked against
 * the document codec (decoded into a document and encoded again: the same
 * bytes), and decoding gives the graph back with its sharing; an image
 * moved elsewhere is read through its old addresses (wire_mem_encode_based);
 * the graph damaged (mem_damage.h) fails cleanly or decodes again. */
#include <stdio.h>
#include <criterion/criterion.h>

#include <stddef.h>
#include <string.h>

#include "wire.h"

#include "mem_ctx.h"
#include "mem_rows.h"
#include "mem_damage.h"

static const char fdl[] =
    "package g;\n"
    "message Cat [id=400] { int64 id = 1; string name = 2; ref Cat parent = 3; }\n"
    "message Item [id=401] {\n"
    "  string sku = 1; ref Cat cat = 2 [nullable = false]; decimal price = 3;\n"
    "  list<optional string> tags = 4; map<string, optional string> attrs = 5;\n"
    "}\n"
    "message Box [id=402] {\n"
    "  list<optional ref Item> shared = 1;\n" /* flags, tracked */
    "  list<optional Item> plain = 2;\n"      /* flags when one is null */
    "  list<Item> strict = 3;\n"              /* no flags */
    "  ref Item pick = 4 [nullable = false];\n"
    "  Cat root = 5 [nullable = false];\n"
    "  Cat maybe = 6;\n"
    "}\n";

typedef struct { const uint8_t *p; uint32_t h, pad; } jstr; /* tagged */
typedef struct cat { int64_t id; jstr name; const struct cat *parent; } cat;
typedef struct { jstr k, v; } kv;
typedef struct {
  jstr sku;
  const cat *cat;
  wire_mem_decimal price;
  const jstr *tags;
  uint32_t ntags, pad;
  const kv *attrs;
  uint32_t nattrs, pad2;
} item;
typedef struct {
  const item *const *shared;
  uint32_t nshared, pad;
  const item *const *plain;
  uint32_t nplain, pad2;
  const item *const *strict;
  uint32_t nstrict, pad3;
  const item *pick;
  const cat *root;
  const cat *maybe;
} box;

static jstr L1(const char *s) {
  return (jstr){(const uint8_t *)s, (uint32_t)strlen(s) << 2 | WIRE_STR_LATIN1, 0};
}

typedef struct { uint32_t box, item, cat; } lays;

static wire_ctx *make(int compatible, lays *L) {
  wire_ctx *c = mem_ctx(fdl, "g.fdl",
                        MEM_OPTS(WIRE_OPT_REF_TRACKING, 1,
                                 WIRE_OPT_COMPATIBLE, compatible,
                                 WIRE_OPT_TRUSTED_TEXT, 1));
  uint32_t tc = mem_ctx_type(c, "g.Cat");
  uint32_t ti = mem_ctx_type(c, "g.Item");
  uint32_t tb = mem_ctx_type(c, "g.Box");
  /* layouts: 0 box, 1 item, 2 cat, 3 item pointer, 4 tag, 5 attr */
  const uint32_t rows[][WIRE_MEM_ROW] = {
      {WIRE_MEM_ROW_LAYOUT, tb, sizeof(box), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_LIST, O(box, shared), O(box, nshared), N, 3, 0},
      {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_LIST, O(box, plain), O(box, nplain), N, 3, 0},
      {WIRE_MEM_ROW_FIELD, 2, WIRE_MEM_LIST, O(box, strict), O(box, nstrict), N, 3, 0},
      {WIRE_MEM_ROW_FIELD, 3, WIRE_MEM_STRUCT_PTR, O(box, pick), N, N, 1, 0},
      {WIRE_MEM_ROW_FIELD, 4, WIRE_MEM_STRUCT_PTR, O(box, root), N, N, 2, 0},
      {WIRE_MEM_ROW_FIELD, 5, WIRE_MEM_STRUCT_PTR, O(box, maybe), N, N, 2, 0},
      {WIRE_MEM_ROW_LAYOUT, ti, sizeof(item), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, TSTR, O(item, sku), O(item, sku.h), N, N, 0},
      {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_STRUCT_PTR, O(item, cat), N, N, 2, 0},
      {WIRE_MEM_ROW_FIELD, 2, WIRE_MEM_DECIMAL, O(item, price), N, N, N, 0},
      {WIRE_MEM_ROW_FIELD, 3, WIRE_MEM_LIST, O(item, tags), O(item, ntags), N, 4, 0},
      {WIRE_MEM_ROW_FIELD, 4, WIRE_MEM_MAP, O(item, attrs), O(item, nattrs), N, 5, 0},
      {WIRE_MEM_ROW_LAYOUT, tc, sizeof(cat), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_I64, O(cat, id), N, N, N, 0},
      {WIRE_MEM_ROW_FIELD, 1, TSTR, O(cat, name), O(cat, name.h), N, N, 0},
      {WIRE_MEM_ROW_FIELD, 2, WIRE_MEM_STRUCT_PTR, O(cat, parent), N, N, 2, 0},
      {WIRE_MEM_ROW_LAYOUT, WIRE_MEM_ELEMENT, sizeof(void *), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_STRUCT_PTR, 0, N, N, 1, 0},
      {WIRE_MEM_ROW_LAYOUT, WIRE_MEM_ELEMENT, sizeof(jstr), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, TSTR, 0, 8, N, N, 0},
      {WIRE_MEM_ROW_LAYOUT, WIRE_MEM_ELEMENT, sizeof(kv), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, TSTR, O(kv, k), O(kv, k.h), N, N, 0},
      {WIRE_MEM_ROW_FIELD, 1, TSTR, O(kv, v), O(kv, v.h), N, N, 0},
  };
  uint32_t first = MEM_CTX_TABLE(c, rows);
  L->box = first;
  L->item = first + 1;
  L->cat = first + 2;
  return c;
}

static uint8_t arena[1 << 18], arena2[1 << 14];

/* Decodes bytes[0..n) into *out, copies in the arena. */
static void decode(wire_ctx *c, uint32_t l, const uint8_t *bytes, size_t n,
                   box *out) {
  size_t used = 0;
  cr_assert_eq(wire_mem_decode(c, l, bytes, n, out, arena, sizeof arena, &used,
                               WIRE_MEM_COPY),
               WIRE_OK, "%s", wire_ctx_error_message(c));
}

static int jeq(jstr a, jstr b) {
  return a.h == b.h && (!(a.h >> 2) || !memcmp(a.p, b.p, a.h >> 2));
}

static void same_dec(const wire_mem_decimal *a, const wire_mem_decimal *b) {
  uint32_t la = a->len, lb = b->len;
  while (la && !a->magnitude[la - 1]) la--;
  while (lb && !b->magnitude[lb - 1]) lb--;
  cr_assert_eq(la, lb);
  cr_assert(!la || !memcmp(a->magnitude, b->magnitude, la));
  cr_assert_eq(a->scale, b->scale);
  cr_assert_eq(la && a->negative, lb && b->negative);
}

static void same_item(const item *a, const item *b) {
  cr_assert(jeq(a->sku, b->sku));
  cr_assert_eq(a->cat->id, b->cat->id);
  same_dec(&a->price, &b->price);
  cr_assert_eq(a->ntags, b->ntags);
  for (uint32_t i = 0; i < a->ntags; i++) cr_assert(jeq(a->tags[i], b->tags[i]));
  cr_assert_eq(a->nattrs, b->nattrs);
  for (uint32_t i = 0; i < a->nattrs; i++)
    cr_assert(jeq(a->attrs[i].k, b->attrs[i].k) && jeq(a->attrs[i].v, b->attrs[i].v));
}

Test(mem_graph, shared_items_nulls_cycles_and_strings) {
  static const uint8_t m1[] = {0x39, 0x30}, m62[] = {0xFF, 0xFF, 0xFF, 0xFF,
                                                     0xFF, 0xFF, 0xFF, 0x3F},
                       big62[] = {0, 0, 0, 0, 0, 0, 0, 0x40},
                       m9[] = {1, 2, 3, 4, 5, 6, 7, 8, 9},
                       trail[] = {5, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                       zero[] = {0, 0};
  static const uint8_t u16[] = {0x34, 0x12, 'a', 0}; /* UTF-16LE */
  for (int compatible = 0; compatible < 2; compatible++) {
    lays L;
    wire_ctx *c = make(compatible, &L);
    /* a cycle of categories and a chain from a root */
    cat a = {1, L1("a"), NULL}, b = {2, L1("b"), &a};
    a.parent = &b;
    cat root = {3, L1("root"), NULL}, sub = {4, L1("sub"), &root};
    jstr wide = {u16, 4 << 2 | WIRE_STR_UTF16, 0};
    jstr tags[3] = {L1("new"), wide, L1("")};
    kv attrs[2] = {{L1("k1"), L1("v1")}, {wide, L1("caf\xe9")}};
    item x = {L1("SKU-1"), &sub, {m1, 2, 2, 0, 0}, tags, 3, 0, attrs, 2, 0};
    item y = {L1("SKU-2"), &a, {m62, 8, 0, 1, 0}, tags, 1, 0, NULL, 0, 0};
    item z = {L1("SKU-3"), &root, {big62, 8, 3, 1, 0}, NULL, 0, 0, attrs, 1, 0};
    item w = {L1("SKU-4"), &sub, {m9, 9, 1, 0, 0}, tags + 1, 2, 0, NULL, 0, 0};
    item v = {L1("SKU-5"), &b, {trail, 10, 4, 1, 0}, NULL, 0, 0, NULL, 0, 0};
    item u = {L1("SKU-6"), &b, {zero, 2, 0, 1, 0}, NULL, 0, 0, NULL, 0, 0};
    item t = {L1("SKU-7"), &b, {big62, 8, 0, 0, 0}, NULL, 0, 0, NULL, 0, 0};
    /* shared: x, y, x again, a null, z; plain: w, null, v (no tracking:
     * v written twice); strict: u, v, t; pick: y (an earlier list item) */
    const item *shared[5] = {&x, &y, &x, NULL, &z};
    const item *plain[3] = {&w, NULL, &v};
    const item *strict[3] = {&u, &v, &t};
    box bx = {shared, 5, 0, plain, 3, 0, strict, 3, 0, &y, &sub, NULL};
    uint8_t bytes[4096];
    size_t n;
    n = mem_damage_encode_doc(c, L.box, &bx, bytes, sizeof bytes);
    box out;
    decode(c, L.box, bytes, n, &out);
    cr_assert_eq(out.nshared, 5);
    cr_assert_eq(out.shared[0], out.shared[2], "an item named twice in a list");
    cr_assert_null(out.shared[3]);
    cr_assert_eq(out.pick, out.shared[1], "a field naming an earlier item");
    cr_assert_null(out.maybe);
    same_item(out.shared[0], &x);
    same_item(out.shared[1], &y);
    same_item(out.shared[4], &z);
    cr_assert_eq(out.nplain, 3);
    cr_assert_null(out.plain[1]);
    same_item(out.plain[0], &w);
    same_item(out.plain[2], &v);
    cr_assert_eq(out.nstrict, 3);
    same_item(out.strict[0], &u);
    same_item(out.strict[1], &v);
    same_item(out.strict[2], &t);
    /* the categories: shared, the cycle closed */
    cr_assert_eq(out.shared[0]->cat, out.plain[0]->cat, "one category object");
    cr_assert_eq(out.shared[0]->cat->id, 4);
    cr_assert_neq(out.root, out.shared[0]->cat, "root is not a ref field");
    cr_assert_eq(out.root->id, 4);
    cr_assert_eq(out.root->parent->id, 3);
    const cat *ca = out.shared[1]->cat;
    cr_assert_eq(ca->id, 1);
    cr_assert_eq(ca->parent->parent, ca, "the cycle leads back");
    cr_assert_eq(out.plain[2]->cat, ca->parent, "b, reached twice");
    /* encoding the decoded graph gives the same bytes */
    const uint8_t *p;
    size_t n2;
    cr_assert_eq(wire_mem_encode(c, L.box, &out, &p, &n2), WIRE_OK, "%s",
                 wire_ctx_error_message(c));
    cr_assert(n2 == n && !memcmp(p, bytes, n));
    wire_ctx_free(c);
  }
}

/* Chains of categories longer than the encoder's nesting without a call
 * (16), and references to the first of them from the end: written and read
 * back; beyond the depth limit an error. */
Test(mem_graph, long_chains_and_the_depth_limit) {
  enum { LEN = 40 };
  lays L;
  wire_ctx *c = make(1, &L);
  static cat chain[LEN];
  for (int i = 0; i < LEN; i++)
    chain[i] = (cat){i, L1("c"), i + 1 < LEN ? &chain[i + 1] : &chain[0]};
  item x = {L1("SKU"), &chain[0], {NULL, 0, 0, 0, 0}, NULL, 0, 0, NULL, 0, 0};
  const item *one[1] = {&x};
  box bx = {one, 1, 0, NULL, 0, 0, one, 1, 0, &x, &chain[LEN - 1], &chain[3]};
  uint8_t bytes[8192];
  size_t n;
  n = mem_damage_encode_doc(c, L.box, &bx, bytes, sizeof bytes);
  box out;
  decode(c, L.box, bytes, n, &out);
  const cat *k = out.shared[0]->cat;
  for (int i = 0; i < LEN; i++, k = k->parent) cr_assert_eq(k->id, i);
  cr_assert_eq(k, out.shared[0]->cat, "the chain closes on its first");
  cr_assert_eq(out.pick, out.shared[0]);
  cr_assert_eq(out.strict[0]->cat, out.shared[0]->cat);
  cr_assert_eq(out.maybe->id, 3);
  cr_assert_eq(out.maybe->parent->id, 4);
  /* a chain longer than the depth limit: refused, nothing crashes */
  cr_assert_eq(wire_ctx_set_limit(c, WIRE_LIMIT_DEPTH, 20), WIRE_OK);
  const uint8_t *p;
  cr_assert_eq(wire_mem_encode(c, L.box, &bx, &p, &n), WIRE_E_DEPTH);
  wire_ctx_free(c);
}

/* A null where none may be: a list without flags, a field without a flag. */
Test(mem_graph, nulls_where_not_nullable) {
  lays L;
  wire_ctx *c = make(1, &L);
  cat root = {1, L1("r"), NULL};
  item x = {L1("SKU"), &root, {NULL, 0, 0, 0, 0}, NULL, 0, 0, NULL, 0, 0};
  const item *bad[2] = {&x, NULL};
  box bx = {NULL, 0, 0, NULL, 0, 0, bad, 2, 0, &x, &root, NULL};
  const uint8_t *p;
  size_t n;
  cr_assert_eq(wire_mem_encode(c, L.box, &bx, &p, &n), WIRE_E_ENCODE, "%s",
               wire_ctx_error_message(c));
  cr_assert(strstr(wire_ctx_error_message(c), "NULL struct pointer"));
  bad[1] = &x;
  bx.root = NULL;
  cr_assert_eq(wire_mem_encode(c, L.box, &bx, &p, &n), WIRE_E_ENCODE);
  cr_assert(strstr(wire_ctx_error_message(c), "NULL struct pointer"));
  bx.root = &root;
  cr_assert_eq(wire_mem_encode(c, L.box, &bx, &p, &n), WIRE_OK, "%s",
               wire_ctx_error_message(c));
  wire_ctx_free(c);
}

/* A bump allocator in one buffer (the graph of based_images). */
typedef struct { uint8_t *p; size_t at; } bump;
static void *take(bump *b, size_t n) {
  b->at = (b->at + 7) & ~(size_t)7;
  void *r = b->p + b->at;
  b->at += n;
  cr_assert_leq(b->at, 4096);
  return r;
}
static jstr bstr(bump *b, const char *s) {
  size_t n = strlen(s);
  uint8_t *p = take(b, n ? n : 1);
  memcpy(p, s, n);
  return (jstr){p, (uint32_t)n << 2 | WIRE_STR_LATIN1, 0};
}

/* wire_mem_encode_based: a graph laid out in one buffer, copied elsewhere
 * and the original overwritten, is read at the copy through its old
 * addresses: the same bytes as encoding the original. */
Test(mem_graph, based_images) {
  static _Alignas(16) uint8_t orig[4096], moved[4096];
  lays L;
  wire_ctx *c = make(1, &L);
  bump b = {orig, 0};
  box *bx = take(&b, sizeof *bx); /* the root first: base is its address */
  cat *root = take(&b, sizeof *root), *sub = take(&b, sizeof *sub);
  *root = (cat){1, bstr(&b, "root"), sub};
  *sub = (cat){2, bstr(&b, "sub"), root}; /* a cycle */
  uint8_t *mag = take(&b, 2);
  mag[0] = 0x39;
  mag[1] = 0x30;
  jstr *tags = take(&b, 2 * sizeof *tags);
  tags[0] = bstr(&b, "new");
  tags[1] = bstr(&b, "sale");
  kv *attrs = take(&b, sizeof *attrs);
  attrs[0] = (kv){bstr(&b, "k"), bstr(&b, "v")};
  item *x = take(&b, sizeof *x);
  *x = (item){bstr(&b, "SKU"), sub, {mag, 2, 2, 0, 0}, tags, 2, 0, attrs, 1, 0};
  const item **list = take(&b, 3 * sizeof *list);
  list[0] = x;
  list[1] = NULL;
  list[2] = x;
  *bx = (box){list, 3, 0, list, 1, 0, list, 1, 0, x, root, sub};
  const uint8_t *p;
  size_t n;
  cr_assert_eq(wire_mem_encode(c, L.box, bx, &p, &n), WIRE_OK, "%s",
               wire_ctx_error_message(c));
  uint8_t want[2048];
  cr_assert_leq(n, sizeof want);
  memcpy(want, p, n);
  memcpy(moved, orig, sizeof orig);
  memset(orig, 0xEE, sizeof orig);
  size_t m;
  cr_assert_eq(wire_mem_encode_based(c, L.box, moved, (uint64_t)(uintptr_t)orig,
                                     &p, &m),
               WIRE_OK, "%s", wire_ctx_error_message(c));
  cr_assert(m == n && !memcmp(p, want, n), "the same bytes from the copy");
  cr_assert_eq(wire_mem_encode_based(c, L.box, moved, 0, &p, &m), WIRE_E_ARG);
  wire_ctx_free(c);
}

/* Many tagged strings in a list and a map (the encoder writes them at its
 * own write pointer, growing the buffer on the way), a null among them,
 * headers of one and two bytes; more distinct shared items than the
 * encoder's reference index hashes (96), named again from the end: the
 * document codec's bytes, and the graph read back. */
Test(mem_graph, many_strings_nulls_and_references) {
  enum { NT = 2000, NA = 400, NI = 150 };
  static char text[NT][80];
  static jstr tags[NT];
  static kv attrs[NA];
  static item items[NI];
  static cat cats[NI];
  static const item *shared[NI + 4];
  for (int i = 0; i < NT; i++) {
    int len = (i * 7) % 75; /* 0..74: every copy size, headers of 1 and 2 bytes */
    for (int k = 0; k < len; k++) text[i][k] = (char)('a' + (i + k) % 26);
    tags[i] = (jstr){(const uint8_t *)text[i],
                     (uint32_t)len << 2 | WIRE_STR_LATIN1, 0};
  }
  for (int i = 0; i < NA; i++)
    attrs[i] = (kv){tags[i], tags[NT - 1 - i]};
  lays L;
  wire_ctx *c = make(1, &L);
  for (int round = 0; round < 3; round++) {
    /* round 1: a null tag in the list, round 2: a null value in the map */
    jstr keep_tag = tags[5];
    jstr keep_val = attrs[7].v;
    if (round == 1) tags[5] = (jstr){NULL, 0, 0};
    if (round == 2) attrs[7].v = (jstr){NULL, 0, 0};
    for (int i = 0; i < NI; i++) {
      cats[i] = (cat){i, tags[i + 1], i ? &cats[i - 1] : NULL};
      items[i] = (item){tags[i + 2], &cats[i], {NULL, 0, 0, 0, 0},
                        i == 0 ? tags : NULL, i == 0 ? NT : 0, 0,
                        i == 1 ? attrs : NULL, i == 1 ? NA : 0, 0};
      shared[i] = &items[i];
    }
    shared[NI] = &items[NI - 1]; /* past the hashed ones */
    shared[NI + 1] = &items[120];
    shared[NI + 2] = &items[3];
    shared[NI + 3] = NULL;
    box bx = {shared, NI + 4, 0, NULL, 0, 0, NULL, 0, 0,
              &items[140], &cats[2], &cats[130]};
    static uint8_t bytes[1 << 17];
    size_t n;
    n = mem_damage_encode_doc(c, L.box, &bx, bytes, sizeof bytes);
    box out;
    decode(c, L.box, bytes, n, &out);
    cr_assert_eq(out.nshared, NI + 4);
    for (int i = 0; i < NI; i++) {
      same_item(out.shared[i], &items[i]);
      cr_assert_eq(out.shared[i]->cat->id, i);
    }
    cr_assert_eq(out.shared[NI], out.shared[NI - 1]);
    cr_assert_eq(out.shared[NI + 1], out.shared[120]);
    cr_assert_eq(out.shared[NI + 2], out.shared[3]);
    cr_assert_null(out.shared[NI + 3]);
    cr_assert_eq(out.pick, out.shared[140]);
    cr_assert_eq(out.maybe->id, 130); /* (not a ref field: written again) */
    cr_assert_eq(out.root->id, 2);
    if (round == 1) cr_assert_null(out.shared[0]->tags[5].p);
    if (round == 2) cr_assert_null(out.shared[1]->attrs[7].v.p);
    tags[5] = keep_tag;
    attrs[7].v = keep_val;
  }
  wire_ctx_free(c);
}

/* Decodes data[0..n) with strings copied into the arena (cap bytes of it)
 * and left in the input: the same status and byte offset, or graphs that
 * encode to the same bytes. */
typedef struct { wire_ctx *c; uint32_t l; } graph_env;
static uint8_t enc1[1 << 14];
static int32_t graph_probe(const void *env, const uint8_t *data, size_t n,
                           size_t cap, int strict) {
  const graph_env *e = env;
  (void)strict;
  box o1, o2;
  size_t u1 = 0, u2 = 0;
  if (cap > sizeof arena2) cap = sizeof arena2;
  int32_t s1 = wire_mem_decode(e->c, e->l, data, n, &o1, arena, cap, &u1,
                               WIRE_MEM_COPY);
  uint64_t f1 = mem_damage_clean(e->c, s1, n);
  int32_t s2 = wire_mem_decode(e->c, e->l, data, n, &o2, arena2, cap, &u2,
                               0);
  uint64_t f2 = mem_damage_clean(e->c, s2, n);
  if (s1 == WIRE_E_BUFFER_FULL || s2 == WIRE_E_BUFFER_FULL) {
    /* (the copies take more of the arena than views: either may run out
     * first) */
    cr_assert(s1 == WIRE_E_BUFFER_FULL ? u1 > cap : u2 > cap);
    return WIRE_E_BUFFER_FULL;
  }
  mem_damage_agree("copied", s1, f1, "in place", s2, f2, n, cap);
  if (s1) return s1;
  const uint8_t *p;
  size_t n1, n2;
  int32_t e1 = wire_mem_encode(e->c, e->l, &o1, &p, &n1);
  if (!e1) {
    cr_assert_leq(n1, sizeof enc1);
    memcpy(enc1, p, n1);
  }
  int32_t e2 = wire_mem_encode(e->c, e->l, &o2, &p, &n2);
  cr_assert_eq(e1, e2);
  if (!e1)
    cr_assert(n1 == n2 && !memcmp(enc1, p, n1), "%zu bytes: the graphs "
              "differ", n);
  return s1;
}

/* The graph of shared_items_nulls_cycles_and_strings (flagged and
 * unflagged lists of struct pointers, references across lists and
 * fields, a cycle, tagged strings, decimals), damaged: every prefix fails,
 * every message with one byte changed and every one-byte reference id
 * fails cleanly or decodes to a graph that encodes again, the same with
 * strings copied and in place; every arena too small fails with
 * WIRE_E_BUFFER_FULL. */
Test(mem_graph, damaged) {
  static const uint8_t m1[] = {0x39, 0x30};
  static const uint8_t subs[] = {0x00, 0xFF, 0xFD, 0xFE, 0x01, 0x7F};
  for (int compatible = 0; compatible < 2; compatible++) {
    lays L;
    wire_ctx *c = make(compatible, &L);
    cat a = {1, L1("a"), NULL}, b = {2, L1("b"), &a};
    a.parent = &b;
    cat root = {3, L1("root"), NULL};
    jstr tags[2] = {L1("new"), L1("")};
    kv attrs[1] = {{L1("k1"), L1("v1")}};
    item x = {L1("SKU-1"), &b, {m1, 2, 2, 0, 0}, tags, 2, 0, attrs, 1, 0};
    item y = {L1("SKU-2"), &a, {m1, 2, 0, 1, 0}, NULL, 0, 0, NULL, 0, 0};
    const item *shared[4] = {&x, &y, &x, NULL};
    const item *plain[2] = {&y, NULL};
    const item *strict[1] = {&x};
    box bx = {shared, 4, 0, plain, 2, 0, strict, 1, 0, &y, &root, &b};
    uint8_t bytes[1024];
    size_t n;
    n = mem_damage_encode_doc(c, L.box, &bx, bytes, sizeof bytes);
    graph_env e = {c, L.box};
    cr_assert_eq(graph_probe(&e, bytes, n, MEM_DAMAGE_ARENA, 1), WIRE_OK);
    mem_damage_all(graph_probe, &e, bytes, n, 0, 0x80, subs, sizeof subs);
    cr_assert_gt(mem_damage_ref_ids(graph_probe, &e, bytes, n, 0xFE, 12), 0);
    box out;
    mem_damage_arenas(c, L.box, bytes, n, &out, WIRE_MEM_COPY, NULL, NULL);
    mem_damage_arenas(c, L.box, bytes, n, &out, 0, NULL, NULL);
    wire_ctx_free(c);
  }
}
