/* decode_lists.c - how a list or set is framed, shared by the document
 * and tape decoders (dec.h): its count against the bytes left, its
 * element header and element type meta, the budget of elements that take
 * no bytes, and what an all-null list may declare (R-LIST-3 to R-LIST-9).
 * The elements themselves are read by decode.c and tape_dec.c. */
#include "dec.h"

#define fail wire__dec_fail
#define T WIRE_DEC_T
#define check_count wire__dec_check_count
#define read_type_meta wire__dec_type_meta
#define decl_tmeta wire__dec_decl_tmeta

bool wire__dec_check_count_empty(dec *d, const uint8_t *s, uint64_t count) {
  if (!check_count(d, s, count, 0)) return false;
  uint64_t left = (uint64_t)(d->in.end - d->in.p);
  left = left > d->pending ? left - d->pending : 0;
  if (count > left + d->unbacked)
    return fail(d, WIRE_E_TRUNCATED, s, "%llu elements cannot fit in the "
                "%llu byte(s) left", (unsigned long long)count,
                (unsigned long long)left);
  return true;
}

bool wire__dec_list_begin(dec *d, const wire_ftype *decl, uint32_t count,
                          const uint8_t *s, wire_dec_list *l) {
  if (!check_count(d, s, count, 0)) return false;
  const uint8_t *hs = l->hs = d->in.p;
  uint8_t h;
  if (!wire__get_u8(&d->in, &h)) return false;
  if (h & 0xF0)
    return fail(d, WIRE_E_COLLECTION, hs, "element header 0x%02x has reserved "
                                          "bits", h);
  T(hs, "element header 0x%02x:%s%s%s%s", h,
    (h & WIRE_LF_SAME_TYPE) ? " same-type" : "",
    (h & WIRE_LF_DECL) ? " declared-type" : "",
    (h & WIRE_LF_HAS_NULL) ? " has-null" : "",
    (h & WIRE_LF_TRACKING) ? " ref-tracking" : "");
  l->h = h;
  l->flags = (h & (WIRE_LF_TRACKING | (WIRE_MUTANT(list_has_null_ignored) ? 0 : WIRE_LF_HAS_NULL))) != 0;
  l->track = (h & WIRE_LF_TRACKING) != 0;
  l->same = (h & (WIRE_LF_SAME_TYPE | WIRE_LF_DECL)) != 0;
  memset(&l->et, 0, sizeof l->et);
  if (h & WIRE_LF_DECL) {
    if (!decl || !decl->elem)
      return fail(d, WIRE_E_UNSUPPORTED, hs,
                  "declared element type needs a schema");
    if (!decl_tmeta(d, decl->elem, &l->et)) return false;
  } else if (l->same) {
    if (!read_type_meta(d, &l->et)) return false;
  }
  /* Every element takes at least one byte, except flag-less same-type
   * elements of a zero-width type (NONE: the budget pays for all of them
   * here) and of a struct or ext type, whose body can be empty (a
   * compatible struct without fields): each of those takes a byte or,
   * when it takes none, a unit of the budget as it is read, so they are
   * not owed up front and their count is bounded by both together. */
  bool bare = l->same && !l->flags;
  l->owed = l->charge = true;
  if (bare && l->et.type == WIRE_T_NONE) {
    if (count > d->unbacked)
      return fail(d, WIRE_E_LIMIT, s, "%u zero-width elements exceed the "
                                      "budget", count);
    d->unbacked -= count;
    l->owed = l->charge = false;
  } else if (bare && l->et.type >= WIRE_T_STRUCT &&
             l->et.type <= WIRE_T_NAMED_EXT) {
    if (!wire__dec_check_count_empty(d, s, count)) return false;
    l->owed = false;
  } else if (!check_count(d, s, count, 1)) {
    return false;
  }
  return true;
}

bool wire__dec_unbacked(dec *d, const uint8_t *at) {
  if (d->unbacked) {
    d->unbacked--;
    return true;
  }
  return fail(d, WIRE_E_LIMIT, at, "values that take no bytes exceed the "
                                   "payload's budget");
}

bool wire__dec_list_end(dec *d, const wire_dec_list *l, bool any_non_null) {
  if (l->same && !(l->h & WIRE_LF_DECL) && l->et.type >= WIRE_T_UNION &&
      l->et.type <= WIRE_T_NAMED_UNION && !any_non_null)
    return fail(d, WIRE_E_UNSUPPORTED, l->hs,
                "all-null list of a union element type cannot be kept");
  return true;
}
