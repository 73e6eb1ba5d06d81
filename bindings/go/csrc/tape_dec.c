/* tape_dec.c - bytes to tapes without a document (wire_decode_tape,
 * wire_decode_tape_to).
 *
 * One pass over the payload with the decoder's reading rules (dec.h: the
 * same checks, statuses, messages and offsets as wire_decode), writing tape
 * ops as values are read. The tape is the one wire__tape_decode_doc writes
 * from the decoded document: referenceable values numbered in pre-order, a
 * REF for every later occurrence of a shared one, shared scalars written
 * out again, PACKED for lists and sets of two or more numbers of one type.
 * Strings, binaries and arrays are copied once, from the payload into the
 * tape. Tables live in the context's tape scratch and are reused. */
#include "dec.h"
#include "tape.h"
#include "tape_fast.h"

/* The list loop's place in its fetch windows fixed by this file alone
 * (internal.h; at 0 and 16 the loop ran fastest, at 32 and 48 7 % slower). */
WIRE_TEXT_ALIGN64(0);

/* ---- state -------------------------------------------------------------- */

/* What a reference id names. */
typedef struct {
  uint8_t complete;
  uint8_t type;        /* node kind */
  uint32_t ord;        /* tape number (referenceable kinds) */
  uint32_t user_id;    /* enum / union user type id */
  const wire_names *names;
  const wire_layout *layout;
  size_t off, len;     /* the tape bytes of a shared scalar */
  uint64_t raw;        /* a shared number (PACKED may move its bytes) */
} tref;

/* wire_decode_tape_offset: value k's input offset (at), values counted
 * in n, nodes in nodes. */
struct tloc {
  uint64_t k, n, nodes;
  const uint8_t *at;
};

typedef struct {
  wire_dec d;
  wire_buf *o;
  tref *refs;
  size_t refs_cap;
  uint32_t next;     /* next tape number */
  uint64_t nvalues;  /* what wire_decode counts as nodes */
  uint64_t maxn;     /* the node limit (0 when locating: every value is
                        counted by count_cold, fast paths stand aside) */
  struct tloc *loc;  /* wire_decode_tape_offset, else NULL */
  uint32_t flags;    /* WIRE_TAPE_* */
  uint64_t reemit, budget; /* shared scalars written again: bytes, cap */
  /* the declared type of the union case whose value comes next (R-UNION-5) */
  const wire_ftype *hint;
} td;

/* The decoder's tables, kept in the context between calls. */
struct wire_tape_dec_scratch {
  tref *refs;
  size_t refs_cap;
  ms_entry *ms;
  size_t ms_cap;
  wire_layout **tds;
  size_t tds_cap;
  wire_arena arena; /* names and TypeDef layouts of one call */
  wire_buf out;     /* the output of wire_decode_tape */
};
typedef struct wire_tape_dec_scratch dscratch;

void wire__tape_dec_scratch_free(wire_ctx *ctx, dscratch *s) {
  if (!s) return;
  wire__free(ctx, s->refs, s->refs_cap * sizeof *s->refs);
  wire__free(ctx, s->ms, s->ms_cap * sizeof *s->ms);
  wire__free(ctx, s->tds, s->tds_cap * sizeof *s->tds);
  wire__arena_free(&s->arena);
  wire__free(ctx, s->out.p, s->out.cap);
  wire__free(ctx, s, sizeof *s);
}

static dscratch *get_scratch(wire_ctx *ctx) {
  dscratch **slot = wire__tape_dec_slot(ctx);
  if (!slot) return NULL;
  if (!*slot) {
    dscratch *s = wire__alloc(ctx, sizeof *s);
    if (!s) return NULL;
    memset(s, 0, sizeof *s);
    s->arena.ctx = ctx;
    s->out.ctx = ctx;
    *slot = s;
  }
  return *slot;
}

#define fail wire__dec_fail

static inline void p8(td *t, uint8_t v) { wire__put_u8(t->o, v); }
static inline void p16(td *t, uint16_t v) { wire__put_le(t->o, v, 2); }
static inline void p32(td *t, uint32_t v) { wire__put_le(t->o, v, 4); }
static inline void p64(td *t, uint64_t v) { wire__put_le(t->o, v, 8); }
static inline void pbytes(td *t, const void *p, size_t n) {
  wire__put_bytes(t->o, p, n);
}
/* Bytes the tape repeats at every value although the payload names them
 * once (type and field names, TypeDef bytes): they count against the same
 * budget as shared scalars written again, and past it nothing more is
 * kept (the call fails at the end). */
static inline void pinline(td *t, const void *p, size_t n) {
  t->reemit += n;
  if (t->reemit <= t->budget) wire__put_bytes(t->o, p, n);
}
/* The output's sticky status as a decode error. */
static bool out_ok(td *t) {
  if (WIRE_LIKELY(t->o->status == WIRE_OK)) return true;
  return fail(&t->d, t->o->status, t->d.in.p, "cannot write the tape");
}

/* Past t->maxn; when locating, value (not a node the document keeps an
 * element type in) of the tape's values counted, at input offset at. */
static __attribute__((noinline, cold)) bool count_cold(td *t, bool value,
                                                      const uint8_t *at) {
  struct tloc *l = t->loc;
  if (l) {
    if (value && l->n++ == l->k) l->at = at;
    if (l->nodes < t->d.ctx->max_nodes) return ++l->nodes;
  }
  return fail(&t->d, WIRE_E_LIMIT, t->d.in.p, "more than %llu nodes",
              (unsigned long long)t->d.ctx->max_nodes);
}
/* wire_decode's node limit, counted at the same places (R-LIMIT-10): a
 * value whose bytes (after any flag and type meta) start at `at`. */
static inline bool count_at(td *t, const uint8_t *at) {
  if (WIRE_LIKELY(t->nvalues < t->maxn)) {
    t->nvalues++;
    return true;
  }
  return count_cold(t, true, at);
}
#define count_value(t) count_at((t), (t)->d.in.p)

static bool grow_refs(td *t, size_t n) {
  if (n <= t->refs_cap) return true;
  tref *m = wire__grow(t->d.ctx, t->refs, &t->refs_cap, n - 1, sizeof *m, 64);
  if (!m) return false;
  t->refs = m;
  return true;
}

/* ---- values --------------------------------------------------------------- */

static bool slot(td *t, bool has_flag, bool allow_ref, const tmeta *fixed,
                 uint8_t *type);
static bool body(td *t, const tmeta *tm, int64_t ref, uint8_t *type);

static inline bool is_num(uint8_t t) { return wire__tape_packable(t); }

static void put_num(td *t, uint8_t type, uint64_t raw) {
  if (!wire__buf_room(t->o, 9)) return;
  uint8_t *q = t->o->p + t->o->len;
  q[0] = type;
  if (type == WIRE_T_BOOL) {
    q[1] = (uint8_t)raw;
    t->o->len += 2;
    return;
  }
  uint64_t v = tape_num(type, raw);
  memcpy(q + 1, &v, 8);
  t->o->len += 9;
}


/* The payload when strings are read as STR_SPAN ops
 * (WIRE_TAPE_STRING_SPANS), else NULL. Passed apart from fc: a larger fc
 * no longer lives in registers in the copying loops. */
static inline const uint8_t *span_base(const td *t) {
  return t->flags & WIRE_TAPE_STRING_SPANS ? t->d.in.base : NULL;
}

HOT void fc_load(fc *c, const td *t) {
  wire_buf *o = t->o;
  c->p = t->d.in.p;
  c->end = t->d.in.end;
  c->q = o->p && o->status == WIRE_OK ? o->p + o->len : NULL;
  c->qend = c->q ? o->p + o->cap : NULL;
  c->nv = t->nvalues;
  c->maxn = t->maxn;
  c->maxb = t->d.ctx->max_binary;
}
HOT void fc_store(const fc *c, td *t) {
  t->d.in.p = c->p;
  if (c->q) t->o->len = (size_t)(c->q - t->o->p);
  t->nvalues = c->nv;
}

/* Rewrites a LIST/SET op at `at` whose `count` elements were written as
 * number ops of one type into a PACKED op, in place. */
static void pack(td *t, size_t at, uint8_t kind, uint8_t et, uint32_t count) {
  size_t plen = 7 + 8 * (size_t)count;
  if (et == WIRE_T_BOOL) {
    /* elements at + 5 + 2i (op, byte): the packed form is longer, so it is
     * written from the last element back */
    if (!wire__buf_room(t->o, plen - (t->o->len - at))) return;
    uint8_t *b = t->o->p + at;
    for (uint32_t i = count; i-- > 0;) {
      uint64_t v = b[5 + 2 * (size_t)i + 1];
      memcpy(b + 7 + 8 * (size_t)i, &v, 8);
    }
  } else {
    /* elements at + 5 + 9i (op, 8 bytes): shorter, written front to back */
    uint8_t *b = t->o->p + at;
    for (uint32_t i = 0; i < count; i++) {
      uint64_t v;
      memcpy(&v, b + 5 + 9 * (size_t)i + 1, 8);
      memcpy(b + 7 + 8 * (size_t)i, &v, 8);
    }
  }
  uint8_t *b = t->o->p + at;
  b[0] = TAPE_PACKED;
  b[1] = kind;
  b[2] = et;
  memcpy(b + 3, &count, 4);
  t->o->len = at + plen;
}

/* What the elements of a list read so far are: a non-null one, the kind
 * of the first, all numbers of that kind (two or more: PACKED). */
typedef struct {
  bool any;
  uint8_t first;
  bool packable;
} elems;

/* Element i of kind et read (a run of one kind: its first). */
static inline void note(elems *el, uint32_t i, uint8_t et) {
  el->any |= et != WIRE_T_NULL;
  if (i == 0) {
    el->first = et;
    el->packable = el->packable && is_num(et);
  } else {
    /* without a branch: in a list of mixed types it would go either way */
    el->packable = el->packable & (et == el->first);
  }
}

/* A run of a list's strings (all of the string type, no reference flags)
 * the fast way, from element i up to one that is not read so; returns its
 * index, or count: short Latin-1 ones by fc_latin1_run, others by
 * fc_string. Out of line, as span_run. */
static __attribute__((noinline)) uint32_t
string_run(td *t, uint32_t i, uint32_t count, elems *el) {
  fc c;
  fc_load(&c, t);
  if (!c.q) return i;
  uint32_t i0 = i;
  while (i < count) {
    i = fc_latin1_run(&c, i, count);
    if (i == count || !fc_string(&c, NULL)) break;
    i++;
  }
  if (i > i0) note(el, i0, WIRE_T_STRING);
  fc_store(&c, t);
  return i;
}

/* A run of a list's elements the fast way (as in list(): fty the declared
 * type, 0 read per element; flags: with reference flags, of which not-null
 * and null are read), strings as STR_SPAN ops, from element i up to one
 * that is not read so; returns its index, or count. Out of line and with
 * its own fc, so that the copying loops of list() stay as they were. */
static __attribute__((noinline)) uint32_t
span_run(td *t, uint32_t i, uint32_t count, bool flags, uint8_t fty,
         elems *el) {
  const uint8_t *sbase = span_base(t);
  fc f;
  fc_load(&f, t);
  if (!f.q) return i;
  uint8_t et;
  elems e = *el; /* in a local, as in list() */
  if (fty == WIRE_T_STRING && !flags) {
    uint32_t i0 = i;
    while (i < count && fc_string(&f, sbase)) i++;
    if (i > i0) note(&e, i0, WIRE_T_STRING);
  } else if (!fty) {
    for (; i < count && fc_any(&f, flags, &et, sbase); i++) note(&e, i, et);
  } else {
    for (; i < count && fc_slot(&f, flags, fty, &et, sbase); i++)
      note(&e, i, et);
  }
  *el = e;
  fc_store(&f, t);
  return i;
}

static bool list(td *t, uint8_t kind, const wire_ftype *decl) {
  wire_dec *d = &t->d;
  const uint8_t *s = d->in.p;
  uint32_t count;
  if (!wire__get_varu32(&d->in, &count)) return false;
  size_t at = t->o->len;
  if (count == 0) {
    p8(t, kind);
    p32(t, 0);
    return out_ok(t);
  }
  wire_dec_list l;
  if (!wire__dec_list_begin(d, decl, count, s, &l)) return false;
  if (!wire__dec_enter(d)) return false;
  if (l.same && !l.flags && is_num(l.et.type) && count >= 2) {
    /* numbers of one type without flags: PACKED straight away */
    uint8_t et = l.et.type;
    p8(t, TAPE_PACKED);
    p8(t, kind);
    p8(t, et);
    p32(t, count);
    if (!wire__buf_room(t->o, 8 * (size_t)count)) return out_ok(t);
    uint8_t *q = t->o->p + t->o->len;
    uint64_t room = t->maxn - t->nvalues; /* nodes left */
    for (uint32_t i = 0; i < count; i++) {
      uint64_t raw;
      if (WIRE_LIKELY(i < room) && fast_num(&d->in.p, d->in.end, et, &raw)) {
        t->nvalues++;
      } else {
        if (!count_value(t)) return false;
        if (!wire__dec_prim(d, et, &raw)) return false;
      }
      uint64_t v = tape_num(et, raw);
      memcpy(q + 8 * (size_t)i, &v, 8);
    }
    t->o->len += 8 * (size_t)count;
    d->depth--;
    return out_ok(t);
  }
  p8(t, kind);
  p32(t, count);
  elems el = {false, WIRE_T_NULL, count >= 2};
  /* elements still owed take a byte each (as in decode.c): the pending
   * count is only read by the long way, which gets it as it would be */
  uint64_t pending = d->pending;
  const tmeta *fixed = l.same ? &l.et : NULL;
  uint8_t fty = fixed ? (fast_type(fixed->type) ? fixed->type : 0xFF) : 0;
  uint32_t i = 0;
  while (i < count) {
    uint8_t et;
    if (fty != 0xFF && (t->flags & WIRE_TAPE_STRING_SPANS)) {
      i = span_run(t, i, count, l.flags, fty, &el);
      if (i == count) break;
    } else if (fty == WIRE_T_STRING && !l.flags) {
      i = string_run(t, i, count, &el);
      if (i == count) break;
    } else if (fty != 0xFF) {
      /* a run the fast way */
      fc c;
      fc_load(&c, t);
      if (c.q) {
        /* (el in a local whose address is not taken, so that note()
         * updates it in registers: el itself lives in memory, its address
         * going out of line, and each element's update was a store the
         * next one read back. Its time: round 24 of bindings/kotlin/ROUNDS.md) */
        elems e = el;
        if (!fty) {
          /* values of mixed types: one dispatch on the type each */
          for (; i < count && fc_any(&c, l.flags, &et, NULL); i++)
            note(&e, i, et);
        } else {
          for (; i < count && fc_slot(&c, l.flags, fty, &et, NULL); i++)
            note(&e, i, et);
        }
        el = e;
        fc_store(&c, t);
        if (i == count) break;
      }
    }
    /* one element the long way */
    const uint8_t *es = d->in.p;
    d->pending = pending + (l.owed ? count - i - 1 : 0);
    if (!slot(t, l.flags, l.track, fixed, &et)) return false;
    if (l.charge && !wire__dec_took_bytes(d, es)) return false;
    note(&el, i, et);
    i++;
  }
  d->pending = pending;
  if (!wire__dec_list_end(d, &l, el.any)) return false;
  /* the two nodes a document keeps the element type in (R-LIMIT-10; the
   * tape does not hold it) */
  if (wire__dec_list_keeps_type(&l, el.any)) {
    for (int j = 0; j < 2; j++) {
      if (WIRE_LIKELY(t->nvalues < t->maxn)) t->nvalues++;
      else if (!count_cold(t, false, NULL)) return false;
    }
  }
  d->depth--;
  if (!out_ok(t)) return false;
  if (el.packable && t->reemit <= t->budget) pack(t, at, kind, el.first, count);
  return true;
}

/* Entries done..end-1 of a map chunk (key and value types kty, vty among
 * fast_type; kf, vf: reference flags; sbase: span_base) the fast
 * way, up to one that is not (a null, a reference, an unusual value: read
 * again the long way). Returns the index of that one, or end. */
HOT uint32_t entries(fc *c, uint32_t done, uint32_t end, bool kf, bool vf,
                     uint8_t kty, uint8_t vty, const uint8_t *sbase);

static __attribute__((noinline)) uint32_t
fast_entries(td *t, uint32_t done, uint32_t end, bool kf, bool vf, uint8_t kty,
             uint8_t vty) {
  fc f;
  fc_load(&f, t);
  if (!f.q) return done;
  const uint8_t *sb = span_base(t);
  if (kty == WIRE_T_STRING && !kf && !vf) {
    /* the usual kinds of value spelled out */
    switch (vty) {
#define E(v)                                                                  \
  done = sb ? entries(&f, done, end, false, false, WIRE_T_STRING, v, sb)      \
            : entries(&f, done, end, false, false, WIRE_T_STRING, v, NULL);   \
  break
    case WIRE_T_STRING: E(WIRE_T_STRING);
    case WIRE_T_VARINT64: E(WIRE_T_VARINT64);
    case WIRE_T_VARINT32: E(WIRE_T_VARINT32);
    case WIRE_T_INT64: E(WIRE_T_INT64);
    case WIRE_T_FLOAT64: E(WIRE_T_FLOAT64);
    case WIRE_T_BOOL: E(WIRE_T_BOOL);
    default: E(vty);
#undef E
    }
  } else {
    done = entries(&f, done, end, kf, vf, kty, vty, sb);
  }
  fc_store(&f, t);
  return done;
}

HOT uint32_t entries(fc *c, uint32_t done, uint32_t end, bool kf, bool vf,
                     uint8_t kty, uint8_t vty, const uint8_t *sbase) {
  fc f = *c;
  uint8_t kt = 0, vt = 0;
  for (; done < end; done++) {
    const uint8_t *p0 = f.p;
    uint8_t *q0 = f.q;
    uint64_t nv0 = f.nv;
    bool good = kty == WIRE_T_STRING && !kf
                    ? fc_string(&f, sbase) && (kt = WIRE_T_STRING)
                    : fc_slot(&f, kf, kty, &kt, sbase);
    if (!good || !fc_slot(&f, vf, vty, &vt, sbase) || kt == WIRE_T_NULL ||
        vt == WIRE_T_NULL) {
      f.p = p0;
      f.q = q0;
      f.nv = nv0;
      break;
    }
  }
  *c = f;
  return done;
}

/* Entries done..end-1 of a map chunk of string keys and values of type
 * vty (VARINT32 or VARINT64), without reference flags, as one ENTRY_RUN
 * op (WIRE_TAPE_ENTRY_RUNS: u8 vty, u32 count, u64 offset, u64 n; the
 * entries are the payload's bytes offset .. offset + n - 1), each entry
 * checked as fast_entries checks it (fc_string_body, fast_num, the node
 * limit), up to one that is not read so. Returns the index of that one
 * (read again the long way), or end; writes nothing if it is done. */
#define RUN_OP 22
/* the bytes an entry of run_loop's fast path may read: a one-byte header,
 * 32 bytes from the key's start (ascii31), a word at the varint (at most
 * 1 + 31 + 8) */
#define RUN_SHORT 40

/* Whether the n (at most 31) bytes at s are ASCII; 32 bytes at s are
 * readable. */
HOT bool ascii31(const uint8_t *s, uint32_t n) {
#if defined(__SSE2__)
  __m128i a = _mm_loadu_si128((const __m128i *)(const void *)s);
  __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + 16));
  uint32_t m = (uint32_t)_mm_movemask_epi8(a) |
               (uint32_t)_mm_movemask_epi8(b) << 16;
  return !(m & ((UINT32_C(1) << n) - 1));
#else
  return wire__tape_ascii(s, n, s + 32);
#endif
}

/* The entries of a run (vty a constant at each call, so that fast_num's
 * switch is resolved at compile time): the index of the first not read.
 * The node limit is tested once: the run stops before an entry that
 * would pass it (two nodes each), which the long way then reports.
 * The usual entry (a one-byte header of a UTF-8 key of ASCII text, so at
 * most 31 bytes and within any binary limit of 31 or more, and a varint
 * of at most 8 bytes, with RUN_SHORT bytes readable) is read by a loop of
 * its own, which accepts what fc_string_body and fast_num accept of it;
 * any other, and the last entries before the input's end, by those. */
HOT uint32_t run_loop(fc *f, uint32_t done, uint32_t end, uint8_t vty) {
  uint64_t room = f->nv < f->maxn ? (f->maxn - f->nv) / 2 : 0;
  if (end - done > room) end = done + (uint32_t)room;
  uint32_t d0 = done;
  bool short_ok = f->maxb >= 31;
  for (;;) {
    if (short_ok) {
      const uint8_t *p = f->p;
      size_t avail = (size_t)(f->end - p);
      for (; done < end && avail >= RUN_SHORT; done++) {
        uint32_t h = p[0], len = h >> 2;
        if ((h & 0x83) != WIRE_STR_UTF8 || !ascii31(p + 1, len))
          break;
        uint64_t w;
        memcpy(&w, p + 1 + len, 8);
        uint64_t stop = ~w & HI8;
        if (!stop) break;
        unsigned k = ((unsigned)__builtin_ctzll(stop) >> 3) + 1;
        if (k > 1 && !(uint8_t)(w >> (8 * k - 8))) break;
        if (vty == WIRE_T_VARINT32 && (k > 5 || (k == 5 && (p[len + 5] & 0xF0))))
          break;
        p += 1 + len + k;
        avail -= 1 + len + k;
      }
      f->p = p;
    }
    if (done >= end) break;
    /* one entry the general way */
    const uint8_t *b;
    uint32_t len, enc;
    uint64_t raw;
    if (!fc_string_body(f, &b, &len, &enc)) break;
    const uint8_t *e = f->p;
    f->p = b + len;
    if (!fast_num(&f->p, f->end, vty, &raw)) {
      f->p = e;
      break;
    }
    done++;
  }
  f->nv += 2 * (uint64_t)(done - d0);
  return done;
}

static __attribute__((noinline)) uint32_t
run_entries(td *t, uint32_t done, uint32_t end, uint8_t vty) {
  fc f;
  fc_load(&f, t);
  if (!f.q || (size_t)(f.qend - f.q) < RUN_OP) return done;
  const uint8_t *p0 = f.p;
  uint32_t d0 = done;
  done = vty == WIRE_T_VARINT64 ? run_loop(&f, done, end, WIRE_T_VARINT64)
                                : run_loop(&f, done, end, WIRE_T_VARINT32);
  if (done == d0) return done;
  uint8_t *q = f.q;
  uint32_t cnt = done - d0;
  uint64_t off = (uint64_t)(p0 - t->d.in.base), n = (uint64_t)(f.p - p0);
  q[0] = TAPE_ENTRY_RUN;
  q[1] = vty;
  memcpy(q + 2, &cnt, 4);
  memcpy(q + 6, &off, 8);
  memcpy(q + 14, &n, 8);
  f.q = q + RUN_OP;
  fc_store(&f, t);
  return done;
}

static bool map(td *t, const wire_ftype *decl) {
  wire_dec *d = &t->d;
  const uint8_t *s = d->in.p;
  uint32_t count;
  if (!wire__get_varu32(&d->in, &count)) return false;
  p8(t, WIRE_T_MAP);
  p32(t, count);
  if (count == 0) return out_ok(t);
  /* Every entry takes at least one byte (a chunk header or key bytes). */
  if (!wire__dec_check_count(d, s, count, 1)) return false;
  if (!wire__dec_enter(d)) return false;
  uint32_t done = 0;
  /* one less pending as each entry starts (read only the long way) */
  uint64_t pending = d->pending;
  while (done < count) {
    wire_dec_chunk c;
    d->pending = pending + count - done;
    if (!wire__dec_chunk_begin(d, decl, &c)) return false;
    uint8_t h = c.h, kt, vt;
    if (c.knull || c.vnull) {
      const uint8_t *es = d->in.p;
      d->pending--;
      if (c.knull) {
        if (!count_value(t)) return false;
        p8(t, TAPE_NULL);
        kt = WIRE_T_NULL;
      } else if (!slot(t, h & WIRE_MF_KEY_TRACK, true, c.kfix, &kt)) {
        return false;
      }
      if (c.vnull) {
        if (!count_value(t)) return false;
        p8(t, TAPE_NULL);
        vt = WIRE_T_NULL;
      } else if (!slot(t, h & WIRE_MF_VAL_TRACK, true, c.vfix, &vt)) {
        return false;
      }
      if ((!c.knull && kt == WIRE_T_NULL) || (!c.vnull && vt == WIRE_T_NULL))
        return wire__dec_null_side(d, es);
      done++;
      continue;
    }
    uint8_t size;
    if (!wire__dec_chunk_size(d, count - done, &size)) return false;
    tmeta ktm, vtm;
    if (c.kfix) ktm = *c.kfix;
    else if (!wire__dec_type_meta(d, &ktm)) return false;
    if (c.vfix) vtm = *c.vfix;
    else if (!wire__dec_type_meta(d, &vtm)) return false;
    bool kf = h & WIRE_MF_KEY_TRACK, vf = h & WIRE_MF_VAL_TRACK;
    uint8_t kty = fast_type(ktm.type) ? ktm.type : 0;
    uint8_t vty = fast_type(vtm.type) ? vtm.type : 0;
    uint32_t end = done + size;
    bool run = (t->flags & WIRE_TAPE_ENTRY_RUNS) && kty == WIRE_T_STRING &&
               !kf && !vf &&
               (vty == WIRE_T_VARINT64 || vty == WIRE_T_VARINT32);
    while (done < end) {
      if (run) {
        done = run_entries(t, done, end, vty);
        if (done == end) break;
      } else if (kty && vty) {
        done = fast_entries(t, done, end, kf, vf, kty, vty);
        if (done == end) break;
      }
      /* one entry the long way */
      const uint8_t *es = d->in.p;
      d->pending = pending + count - done - 1;
      if (!slot(t, kf, true, &ktm, &kt) || !slot(t, vf, true, &vtm, &vt) ||
          !wire__dec_took_bytes(d, es))
        return false;
      if (kt == WIRE_T_NULL || vt == WIRE_T_NULL)
        return wire__dec_null_in_chunk(d, es);
      done++;
    }
  }
  d->pending = pending;
  d->depth--;
  return out_ok(t);
}

static bool field(td *t, const wire_lfield *lf) {
  wire_dec *d = &t->d;
  const wire_ftype *f = lf->type;
  /* the peer's choices, as the document decoder (R-PEER-2, R-PEER-3) */
  bool flag = f->nullable || f->ref || wire__peer_any_flag(d->ctx, f) ||
              wire__peer_value_flag(d->ctx, f);
  bool ref = f->ref || wire__peer_field_tracks(d->ctx, f);
  uint8_t type;
  if (wire__peer_field_meta(d->ctx, f)) return slot(t, flag, ref, NULL, &type);
  switch (wire__dec_field_kind(d, f)) {
  case WIRE_DEC_DYNAMIC:
    return slot(t, flag, ref, NULL, &type);
  case WIRE_DEC_PRIM: {
    tmeta tm;
    memset(&tm, 0, sizeof tm);
    tm.type = f->type_id;
    return body(t, &tm, -1, &type);
  }
  default: {
    tmeta tm;
    return wire__dec_decl_tmeta(d, f, &tm) &&
           slot(t, flag, ref, &tm, &type);
  }
  }
}

static void put_field_name(td *t, const wire_lfield *f) {
  if (f->name) {
    p16(t, (uint16_t)f->name_len);
    pinline(t, f->name, f->name_len);
    return;
  }
  char tag[16];
  int k = 0, v = f->tag;
  tag[k++] = '#';
  char dg[12];
  int nd = 0;
  do { dg[nd++] = (char)('0' + v % 10); v /= 10; } while (v && nd < 11);
  while (nd) tag[k++] = dg[--nd];
  p16(t, (uint16_t)k);
  pbytes(t, tag, (size_t)k);
}

static bool strukt(td *t, const tmeta *tm) {
  wire_dec *d = &t->d;
  const wire_layout *l = tm->layout;
  if (!wire__dec_struct_hash(d, l)) return false;
  if (!wire__dec_enter(d)) return false;
  bool known = l->type_index != WIRE_NO_TYPE;
  bool td_ = l->td && !l->matches_schema;
  bool by_index = known && !td_ && (t->flags & WIRE_TAPE_FIELD_INDEX);
  if (by_index) {
    p8(t, TAPE_STRUCT_IDX);
    p32(t, l->type_index);
    p32(t, l->nfields);
  } else {
    if (td_) {
      p8(t, TAPE_STRUCT_TD);
      p32(t, l->td_len);
      pinline(t, l->td, l->td_len);
    } else {
      p8(t, WIRE_T_STRUCT);
    }
    p32(t, known ? l->type_index : 0xFFFFFFFFu);
    if (!known) {
      p32(t, l->by_name ? UINT32_MAX : l->user_id);
      uint32_t nsl = l->by_name ? l->ns_len : 0, nl = l->by_name ? l->name_len : 0;
      p16(t, (uint16_t)nsl);
      pinline(t, l->ns, nsl);
      p16(t, (uint16_t)nl);
      pinline(t, l->name, nl);
    }
    p32(t, l->nfields);
  }
  for (uint32_t i = 0; i < l->nfields; i++) {
    const uint8_t *fs = d->in.p;
    if (!by_index) put_field_name(t, &l->fields[i]);
    if (!field(t, &l->fields[i]) || !wire__dec_took_bytes(d, fs)) return false;
  }
  d->depth--;
  return out_ok(t);
}

/* The names of a named union or enum value (as the document keeps them). */
static const wire_names *value_names(td *t, const tmeta *tm, bool *ok) {
  *ok = true;
  if (tm->names) return tm->names;
  if (tm->type == WIRE_T_NAMED_ENUM) {
    const wire_names *nm = wire__dec_layout_names(&t->d, tm->layout);
    *ok = nm != NULL;
    return nm;
  }
  if (tm->layout && tm->layout->by_name) {
    const wire_names *nm = wire__dec_layout_names(&t->d, tm->layout);
    *ok = nm != NULL;
    return nm;
  }
  return NULL;
}

/* Completes reference slot `ref` with the value just started or read. */
static void set_ref(td *t, int64_t ref, const tmeta *tm, uint8_t type,
                    uint32_t ord, const wire_names *nm) {
  if (ref < 0) return;
  tref *r = &t->refs[ref];
  r->complete = 1;
  r->type = type;
  r->ord = ord;
  r->user_id = tm->user_id;
  r->names = nm;
  r->layout = tm->layout;
}

/* The parts of body(), by kind of value. */

static bool string_out(td *t) {
  wire_dec *d = &t->d;
  int32_t enc;
  const uint8_t *p;
  uint64_t len;
  if (!wire__dec_string(d, &enc, &p, &len)) return false;
  if (len > UINT32_MAX)
    return fail(d, WIRE_E_LIMIT, d->in.p, "string longer than 4 GiB");
  if (wire__tape_str_span(t->flags, d->in.base,
                          (size_t)(d->in.end - d->in.base), p, len)) {
    if (wire__buf_room(t->o, 14)) {
      uint8_t *q = t->o->p + t->o->len;
      uint64_t off = (uint64_t)(p - d->in.base);
      uint32_t l32 = (uint32_t)len;
      q[0] = TAPE_STR_SPAN;
      q[1] = (uint8_t)enc;
      memcpy(q + 2, &l32, 4);
      memcpy(q + 6, &off, 8);
      t->o->len += 14;
    }
    return true;
  }
  if (wire__buf_room(t->o, 6 + (size_t)len)) {
    uint8_t *q = t->o->p + t->o->len;
    q[0] = WIRE_T_STRING;
    q[1] = (uint8_t)enc;
    uint32_t l32 = (uint32_t)len;
    memcpy(q + 2, &l32, 4);
    if (len) wire__copy(q + 6, p, (size_t)len);
    t->o->len += 6 + (size_t)len;
  }
  return true;
}

/* An enum: by registered type, by bare id, or by names. Sets *names to the
 * names of a named enum. */
static bool enum_out(td *t, const tmeta *tm, uint8_t ty,
                     const wire_names **names) {
  wire_dec *d = &t->d;
  uint32_t v;
  if (!wire__dec_enum_value(d, &v)) return false;
  bool ok;
  const wire_names *nm = ty == WIRE_T_NAMED_ENUM ? value_names(t, tm, &ok) : NULL;
  if (ty == WIRE_T_NAMED_ENUM && !ok) return false;
  uint32_t ti = wire__reg_lookup_names(d->ctx, WIRE_KIND_ENUM, tm->user_id,
                                       ty == WIRE_T_NAMED_ENUM ? nm : NULL);
  if (ti != WIRE_NO_TYPE) {
    p8(t, WIRE_T_ENUM);
    p32(t, ti);
  } else if (ty == WIRE_T_ENUM) {
    p8(t, TAPE_ENUM_ID);
    p32(t, tm->user_id);
  } else {
    p8(t, WIRE_T_NAMED_ENUM);
    p16(t, (uint16_t)nm->ns_len);
    pinline(t, nm->ns, nm->ns_len);
    p16(t, (uint16_t)nm->name_len);
    pinline(t, nm->name, nm->name_len);
  }
  p32(t, v);
  *names = nm;
  return true;
}

static bool union_out(td *t, const tmeta *tm, int64_t ref, uint8_t ty) {
  wire_dec *d = &t->d;
  uint32_t c;
  if (!wire__dec_union_case(d, &c)) return false;
  uint32_t ord = t->next++;
  bool ok;
  const wire_names *nm = ty == WIRE_T_NAMED_UNION ? value_names(t, tm, &ok) : NULL;
  if (ty == WIRE_T_NAMED_UNION && !ok) return false;
  uint32_t ti = WIRE_NO_TYPE;
  if (ty == WIRE_T_UNION) ti = tm->decl ? tm->reg : WIRE_NO_TYPE;
  else if (ty == WIRE_T_TYPED_UNION)
    ti = wire__reg_lookup_names(d->ctx, WIRE_KIND_UNION, tm->user_id, NULL);
  else if (nm)
    ti = wire__reg_lookup_names(d->ctx, WIRE_KIND_UNION, 0, nm);
  p8(t, WIRE_T_UNION);
  p32(t, ti == WIRE_NO_TYPE ? 0xFFFFFFFFu : ti);
  p32(t, c);
  if (!wire__dec_enter(d)) return false;
  uint8_t vt;
  t->hint = wire__union_case_decl_at(d->ctx, ti, c);
  if (!slot(t, true, true, NULL, &vt)) return false;
  d->depth--;
  /* complete only now: a reference from inside the value fails */
  if (ref >= 0) set_ref(t, ref, tm, ty, ord, nm);
  return out_ok(t);
}

static bool decimal_out(td *t, const tmeta *tm, int64_t ref, uint8_t ty) {
  int32_t scale;
  bool neg;
  const uint8_t *mag;
  uint32_t len;
  uint8_t small[8];
  if (!wire__dec_decimal(&t->d, &scale, &neg, &mag, &len, small)) return false;
  uint32_t ord = t->next++;
  p8(t, ty);
  p32(t, (uint32_t)scale);
  p8(t, neg ? 1 : 0);
  p32(t, len);
  pbytes(t, mag, len);
  if (ref >= 0) set_ref(t, ref, tm, ty, ord, NULL);
  return out_ok(t);
}

static bool number_out(td *t, const tmeta *tm, int64_t ref, uint8_t ty) {
  uint64_t raw;
  if (!wire__dec_prim(&t->d, ty, &raw)) return false;
  put_num(t, ty, raw);
  if (ref >= 0) {
    set_ref(t, ref, tm, ty, 0, NULL);
    t->refs[ref].raw = raw;
  }
  return out_ok(t);
}

/* A binary or a dense array: its bytes, or where they are in the input
 * (WIRE_TAPE_SPANS). */
static bool bytes_out(td *t, const tmeta *tm, int64_t ref, uint8_t ty) {
  wire_dec *d = &t->d;
  const uint8_t *p;
  uint32_t len;
  if (!wire__dec_bytes(d, ty, &p, &len)) return false;
  uint32_t ord = t->next++;
  if (wire__tape_span(t->flags, d->in.base, (size_t)(d->in.end - d->in.base),
                      p, len)) {
    if (wire__buf_room(t->o, 14)) {
      uint8_t *q = t->o->p + t->o->len;
      uint64_t off = (uint64_t)(p - d->in.base);
      q[0] = TAPE_SPAN;
      q[1] = ty;
      memcpy(q + 2, &len, 4);
      memcpy(q + 6, &off, 8);
      t->o->len += 14;
    }
  } else if (wire__buf_room(t->o, 5 + (size_t)len)) {
    uint8_t *q = t->o->p + t->o->len;
    q[0] = ty;
    memcpy(q + 1, &len, 4);
    if (len) memcpy(q + 5, p, len);
    t->o->len += 5 + (size_t)len;
  }
  if (ref >= 0) set_ref(t, ref, tm, ty, ord, NULL);
  return out_ok(t);
}

static bool body(td *t, const tmeta *tm, int64_t ref, uint8_t *type) {
  wire_dec *d = &t->d;
  if (!count_value(t)) return false;
  uint8_t ty = tm->type;
  *type = ty;
  size_t at = t->o->len;
  const wire_names *names = NULL;
  switch (ty) {
  case WIRE_T_STRING:
    if (!string_out(t)) return false;
    break;
  case WIRE_T_LIST: case WIRE_T_SET:
  case WIRE_T_MAP: {
    uint32_t ord = t->next++;
    set_ref(t, ref, tm, ty, ord, NULL); /* before children: cycles */
    return ty == WIRE_T_MAP ? map(t, tm->decl) : list(t, ty, tm->decl);
  }
  case WIRE_T_ENUM: case WIRE_T_NAMED_ENUM:
    if (!enum_out(t, tm, ty, &names)) return false;
    if (ref >= 0) set_ref(t, ref, tm, ty, 0, names);
    break;
  case WIRE_T_NONE:
    p8(t, WIRE_T_NONE);
    break;
  case WIRE_T_STRUCT: case WIRE_T_COMPATIBLE_STRUCT: case WIRE_T_NAMED_STRUCT:
  case WIRE_T_NAMED_COMPATIBLE_STRUCT: case WIRE_T_EXT: case WIRE_T_NAMED_EXT: {
    uint32_t ord = t->next++;
    set_ref(t, ref, tm, ty, ord, NULL); /* before fields: cycles */
    return strukt(t, tm);
  }
  case WIRE_T_UNION: case WIRE_T_TYPED_UNION: case WIRE_T_NAMED_UNION:
    return union_out(t, tm, ref, ty);
  case WIRE_T_DURATION: case WIRE_T_TIMESTAMP: {
    int64_t secs;
    uint32_t ns;
    if (!wire__dec_time(d, ty, &secs, &ns)) return false;
    p8(t, ty);
    p64(t, (uint64_t)secs);
    p32(t, ns);
    break;
  }
  case WIRE_T_DATE: {
    int64_t days;
    if (!wire__dec_date(d, &days)) return false;
    p8(t, ty);
    p64(t, (uint64_t)days);
    break;
  }
  case WIRE_T_DECIMAL:
    return decimal_out(t, tm, ref, ty);
  default:
    return is_num(ty) ? number_out(t, tm, ref, ty) : bytes_out(t, tm, ref, ty);
  }
  /* a scalar without identity: shared ones are written out again */
  if (ref >= 0) {
    set_ref(t, ref, tm, ty, 0, t->refs[ref].names);
    t->refs[ref].off = at;
    t->refs[ref].len = t->o->len - at;
  }
  return out_ok(t);
}

static bool slot(td *t, bool has_flag, bool allow_ref, const tmeta *fixed,
                 uint8_t *type) {
  wire_dec *d = &t->d;
  int64_t ref = -1;
  const wire_ftype *hint = t->hint;
  t->hint = NULL;
  if (has_flag) {
    const uint8_t *s = d->in.p;
    int8_t f;
    uint32_t id;
    if (!wire__dec_ref_flag(d, allow_ref, &f, &id)) return false;
    if (f == WIRE_REF_NULL) {
      if (!count_at(t, s)) return false;
      *type = WIRE_T_NULL;
      p8(t, TAPE_NULL);
      return out_ok(t);
    }
    if (f == WIRE_REF_REF) {
      const tref *r = &t->refs[id];
      if (WIRE_UNLIKELY(t->loc) && t->loc->n++ == t->loc->k) t->loc->at = s;
      if (!r->complete)
        return fail(d, WIRE_E_REF, s,
                    "reference id %u names a value that is not complete", id);
      if (fixed && !wire__dec_matches(fixed, r->type, r->user_id, r->names,
                                      r->layout))
        return fail(d, WIRE_E_REF, s,
                    "reference id %u names a %s where a %s is declared", id,
                    wire_type_name(r->type), wire_type_name(fixed->type));
      *type = r->type;
      if (wire__tape_referenceable(r->type)) {
        p8(t, TAPE_REF);
        p32(t, r->ord);
        return out_ok(t);
      }
      /* a shared scalar, written out again (within the budget) */
      size_t at = t->o->len;
      if (is_num(r->type)) {
        put_num(t, r->type, r->raw);
        t->reemit += t->o->len - at;
      } else {
        /* a STR_SPAN counts as the STRING it stands for: a reader makes
         * the text again at every reference */
        const uint8_t *rec = t->o->p + r->off;
        uint32_t sn;
        if (r->len == 14 && rec[0] == TAPE_STR_SPAN) {
          memcpy(&sn, rec + 2, 4);
          t->reemit += 6 + (uint64_t)sn;
        } else {
          t->reemit += r->len;
        }
        if (t->reemit <= t->budget && wire__buf_room(t->o, r->len)) {
          memcpy(t->o->p + t->o->len, t->o->p + r->off, r->len);
          t->o->len += r->len;
        }
      }
      /* over the cap: nothing more is kept, the call fails at the end */
      if (t->reemit > t->budget) t->o->len = at;
      return out_ok(t);
    }
    if (f == WIRE_REF_VALUE) {
      if (!grow_refs(t, d->nrefs + 1))
        return fail(d, WIRE_E_NOMEM, s, "out of memory");
      ref = (int64_t)d->nrefs;
      memset(&t->refs[d->nrefs++], 0, sizeof(tref));
    }
  }
  tmeta tm;
  if (!fixed) {
    if (!wire__dec_type_meta(d, &tm)) return false;
    if (hint && !tm.decl && tm.type == hint->type_id) tm.decl = hint;
    fixed = &tm;
  }
  return body(t, fixed, ref, type);
}

/* ---- entry points ---------------------------------------------------------- */

/* loc: NULL, or the number of a value, which gets its input offset
 * (UINT64_MAX if there is no such value). Inlined: with loc NULL at the
 * entry points, nothing of locating is left there. */
static inline __attribute__((always_inline)) int32_t
decode_into(wire_ctx *ctx, const uint8_t *data, size_t len, uint32_t flags,
            wire_buf *out, uint64_t *loc) {
  if (flags & ~(uint32_t)TAPE_DEC_FLAGS)
    return wire__fail(ctx, WIRE_E_ARG, 0, "unknown tape flags 0x%x",
                      (unsigned)flags);
  dscratch *sc = get_scratch(ctx);
  if (!sc) return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
  td t;
  memset(&t, 0, sizeof t);
  wire__dec_init(&t.d, ctx, data, len, NULL, &sc->arena);
  t.d.ms = sc->ms;
  t.d.ms_cap = sc->ms_cap;
  t.d.tds = sc->tds;
  t.d.tds_cap = sc->tds_cap;
  t.refs = sc->refs;
  t.refs_cap = sc->refs_cap;
  t.o = out;
  t.flags = flags;
  struct tloc lc = {0, 0, 0, NULL};
  t.maxn = ctx->max_nodes;
  if (loc) {
    lc.k = *loc;
    t.maxn = 0;
    t.loc = &lc;
  }
  t.budget = wire__tape_reemit_budget(len);
  size_t base = out->len;
  uint8_t hdr[8] = {'W', 'T', wire__tape_dec_version(flags), 0, 0, 0, 0, 0};
  wire__put_bytes(out, hdr, 8);
  int32_t st = out->status;
  uint32_t roots = 0;
  if (!st && len == 0) st = wire__fail(ctx, WIRE_E_TRUNCATED, 0, "empty input");
  while (!st && t.d.in.p < t.d.in.end) {
    uint8_t type;
    if (!wire__dec_root_header(&t.d, roots) ||
        !slot(&t, true, true, NULL, &type)) {
      st = ctx->err_code ? ctx->err_code : WIRE_E_STATE;
      break;
    }
    roots++;
  }
  if (!st) st = out->status;
  if (!st && t.reemit > t.budget)
    st = wire__fail(ctx, WIRE_E_LIMIT, 0, "shared values written out again "
                    "in the tape exceed %llu bytes",
                    (unsigned long long)t.budget);
  if (!st) {
    memcpy(out->p + base + 4, &roots, 4);
  } else {
    out->len = base;
    if (out->status != WIRE_E_BUFFER_FULL) out->status = WIRE_OK;
  }
  /* the cached layouts it held may go (a turnover during the call pinned
   * it: typedef_cache.c) */
  if (t.d.tdc_pin) wire__tdcache_unpin(ctx, t.d.tdc_pin);
  /* the tables go back to the scratch */
  sc->ms = t.d.ms;
  sc->ms_cap = t.d.ms_cap;
  sc->tds = t.d.tds;
  sc->tds_cap = t.d.tds_cap;
  sc->refs = t.refs;
  sc->refs_cap = t.refs_cap;
  wire__arena_free(&sc->arena);
  if (loc) *loc = lc.at ? (uint64_t)(lc.at - data) : UINT64_MAX;
  return st;
}

/* tape.h (for tape_dec_entry.c; the entry points below call decode_into
 * itself, inlined) */
int32_t wire__tape_decode_into(wire_ctx *ctx, const uint8_t *data,
                               size_t len, uint32_t flags, wire_buf *out,
                               uint64_t *loc) {
  return decode_into(ctx, data, len, flags, out, loc);
}

wire_buf *wire__tape_dec_out(wire_ctx *ctx) {
  dscratch *sc = get_scratch(ctx);
  return sc ? &sc->out : NULL;
}

int32_t wire_decode_tape_to(wire_ctx *ctx, const uint8_t *data, size_t len,
                            uint32_t flags, wire_writer *w) {
  if (!ctx || !w || (!data && len)) return WIRE_E_ARG;
  wire_ctx_clear_error(ctx);
  if (w->b.status != WIRE_OK)
    return wire__fail(ctx, w->b.status, 0, "the writer has failed before");
  size_t base = w->b.len, need;
  int32_t st = decode_into(ctx, data, len, flags, &w->b, NULL);
  if (st == WIRE_E_BUFFER_FULL) {
    st = wire__tape_size_needed(ctx, data, len, flags, &need);
    if (st == WIRE_E_BUFFER_FULL) w->needed = base + need;
    else w->b.status = WIRE_OK;
  }
  return st;
}

int32_t wire_decode_tape_into(wire_ctx *ctx, const uint8_t *data,
                              size_t len, uint32_t flags, uint8_t *buf,
                              size_t cap, size_t *tape_len) {
  if (!ctx || !tape_len || (!data && len) || (!buf && cap)) return WIRE_E_ARG;
  *tape_len = 0;
  wire_ctx_clear_error(ctx);
  wire_buf b = {ctx, buf, 0, cap, true, WIRE_OK};
  int32_t st = decode_into(ctx, data, len, flags, &b, NULL);
  if (st == WIRE_E_BUFFER_FULL) {
    size_t need;
    st = wire__tape_size_needed(ctx, data, len, flags, &need);
    if (st == WIRE_E_BUFFER_FULL) *tape_len = need;
    return st;
  }
  if (!st) *tape_len = b.len;
  return st;
}
