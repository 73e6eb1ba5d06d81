/* mutant.h - recorded wrong choices for the conformance suite
 * (conformance/mutants): each names a rule of spec/ and makes the other
 * choice at the one place libwire implements it; the fixtures listed for it
 * in mutants.json must then fail.
 *
 * Test-only and free in every real build: the switches exist only when
 * libwire is compiled with -DWIRE_MUTANTS (the mutant build of `make
 * mutants`, build/mutant/bin/wire), which picks one mutant from the
 * environment variable WIRE_MUTANT. Without WIRE_MUTANTS, WIRE_MUTANT(m) is
 * the constant 0 and the compiler drops the wrong branch. */
#ifndef WIRE_MUTANT_H
#define WIRE_MUTANT_H

/* X(name): the names mutants.json and WIRE_MUTANT use. */
#define WIRE_MUTANT_LIST(X)                                                    \
  X(varint_padded)         /* R-VARINT-1: varuint32 below 128 in two bytes */ \
  X(pvl_leb128)            /* R-PVL-1: varuint64 9th byte as LEB128 */        \
  X(pvl_ninth_7bits)       /* R-PVL-2: reads 7 bits of the 9th byte */        \
  X(tagged_wide_short)     /* R-TAGGED-1: short form up to 2^31 */            \
  X(tagged_u64_arith)      /* R-TAGGED-2: arithmetic shift */                 \
  X(v36_padded)            /* R-V36-1: string header below 128 in 2 bytes */  \
  X(big_endian)            /* R-ORDER-1: fixed-width values big-endian */     \
  X(float_nan_canonical)   /* R-FLOAT-1: every NaN read as the quiet NaN */   \
  X(str_encoding_3)        /* R-STR-2: UTF-8 text written as encoding 3 */   \
  X(ms_always_utf8)        /* R-MS-7: every fresh name as UTF-8 */            \
  X(ms_no_first_to_lower)  /* R-MS-2: FIRST_TO_LOWER_SPECIAL refused */       \
  X(ms_announce_again)     /* R-MSWIRE-5: a name announced each time */       \
  X(ms_refer_first)        /* R-MSWIRE-9: refers to the first announcement */ \
  X(ms_one_role)           /* R-MSWIRE-8: cross-role refs, repeats refused */ \
  X(shared_bit_inverted)   /* R-SHARED-1: marker bit 0 inverted */            \
  X(shared_no_reset)       /* R-SHARED-4: TypeDef table kept across roots */  \
  X(shared_announce_again) /* R-SHARED-5: a TypeDef announced each time */    \
  X(utype_no_enum_id)      /* R-UTYPE-1: ENUM without its user type id */     \
  X(forder_shorter_first)  /* R-FORDER-1: shorter names first */              \
  X(forder_nullable_ungrouped) /* R-FORDER-2: nullable primitives in group 1 */ \
  X(forder_compressed_first) /* R-FORDER-3: compressed before fixed */        \
  X(shash_declared_order)  /* R-SHASH-1: fingerprint in declared order */     \
  X(fname_as_declared)     /* R-FNAME-1, R-FDL-7: names not snake_cased */    \
  X(fdl_evolving_ignored)  /* R-FDL-4, R-UMODE-2: evolving = false ignored */ \
  X(fdl_wire_namespace_ignored) /* R-FDLX-3 */                                \
  X(fdl_map_keys_ignored)  /* R-FDLX-2: wire_nullable_map_keys ignored */     \
  X(fdl_message_not_nullable) /* R-FDL-10: message fields not nullable */     \
  X(fdl_struct_not_null_ignored) /* R-FDLX-6 */                               \
  X(fdl_any_not_null_ignored) /* R-FDLX-8 */                                  \
  X(fdl_wire_ref_ignored)  /* R-FDLX-9 */                                     \
  X(fdl_wire_set_ignored)  /* R-FDLX-4 */                                     \
  X(fdl_wire_name_ignored) /* R-FDLX-5 */                                     \
  X(fdl_by_name_ignored)   /* R-FDLX-1: wire_fields_by_name ignored */        \
  X(fdl_numbers_ignored)   /* R-FDL-6: field numbers not used as tag ids */   \
  X(fdl_case_ids_by_position) /* R-FDL-12: union case ids by position */ \
  X(fdl_wire_ext_ignored)  /* R-FDLX-7: wire_ext messages as structs */     \
  X(peer_hash_ignored)     /* R-PEER-1: the peer's schema hash ignored */     \
  X(peer_named_meta_ignored) /* R-PEER-2 */                                   \
  X(peer_go_fields_ignored) /* R-PEER-3 */                                    \
  X(tdef_registration_kinds) /* R-TDEF-10: enum/union fields with their kind */ \
  X(tdef_name_encoding_ids) /* R-TDEF-7: meta string ids, not indexes */      \
  X(tdef_kind_parity)      /* R-TDEF-5: by-id/by-name kind codes swapped */   \
  X(tdef_user_id_fixed)    /* R-TDEF-6: user id as 4 fixed bytes */           \
  X(tdef_fields_reversed)  /* R-TDEF-12: TypeDef fields in reverse order */ \
  X(struct_registered_late) /* R-STRUCT-4: ref id set after the fields */     \
  X(field_prim_flagged)    /* R-FIELD-1: a flag before primitive fields */    \
  X(shash_in_compatible)   /* R-SHASH-3: a hash read in compatible mode */ \
  X(union_case_undeclared) /* R-UNION-5: case collections without decl */   \
  X(union_case_no_flag)    /* R-UNION-2: case value without its ref flag */ \
  X(enum_field_meta)       /* R-FIELD-4, R-ENUM-3: ENUM meta in fields */   \
  X(oob_binary_only)       /* R-OOB-3: only binaries marked (pyfory's rule) */ \
  X(union_field_meta)      /* R-FIELD-5, R-UNION-1: union meta in fields */ \
  X(ext_as_struct)         /* R-EXT-1: an ext value's meta as STRUCT */     \
  X(ext_field_as_struct)   /* R-EXT-3: ext fields declared as structs */    \
  X(list_has_null_ignored) /* R-LIST-2: the has-null bit read as unset */   \
  X(evolve_exact_names)    /* R-EVOLVE-7: names matched as written only */ \
  X(evolve_no_defaults)    /* R-EVOLVE-6: a reader field the writer lacks refused */

enum {
  WIRE_M_NONE,
#define WIRE_M_ENUM_(name) WIRE_M_##name,
  WIRE_MUTANT_LIST(WIRE_M_ENUM_)
#undef WIRE_M_ENUM_
  WIRE_M_COUNT_
};

#ifdef WIRE_MUTANTS
#include <stdlib.h>
#include <string.h>

/* The mutant WIRE_MUTANT names, looked up once per translation unit. */
static inline int wire__mutant(void) {
  static int chosen = -1;
  if (chosen < 0) {
    static const char *const names[] = {
        "",
#define WIRE_M_NAME_(name) #name,
        WIRE_MUTANT_LIST(WIRE_M_NAME_)
#undef WIRE_M_NAME_
    };
    const char *want = getenv("WIRE_MUTANT");
    chosen = WIRE_M_NONE;
    for (int i = 1; want && i < WIRE_M_COUNT_; i++)
      if (strcmp(want, names[i]) == 0) chosen = i;
  }
  return chosen;
}
#define WIRE_MUTANT(m) (wire__mutant() == WIRE_M_##m)
#else
#define WIRE_MUTANT(m) 0
#endif

#endif
