/* impls.c - the implementations linked into bench_c, in measurement order.
 * Those that need a package from Debian are compiled in only when the
 * Makefile has it (BENCH_WITH_*), so that `make bench-check` needs nothing
 * beyond libwire. A new implementation: one impl_<name>.c defining a
 * bench_impl (impl.h), one line here, one line in bench/Makefile. */
#include "impl.h"

extern const bench_impl bench_impl_floor;
extern const bench_impl bench_impl_libwire_doc;
#ifdef BENCH_WITH_LIBWIRE_GEN
extern const bench_impl bench_impl_libwire_gen;
extern const bench_impl bench_impl_libwire_gen_zc;
extern const bench_impl bench_impl_libwire_mem;
#endif
#ifdef BENCH_WITH_PROTOBUF_C
extern const bench_impl bench_impl_protobuf_c;
#endif
#ifdef BENCH_WITH_MSGPACK_C
extern const bench_impl bench_impl_msgpack_c;
#endif

const bench_impl *const bench_impls[] = {
#ifdef BENCH_WITH_LIBWIRE_GEN
    &bench_impl_libwire_gen,
    &bench_impl_libwire_gen_zc,
    &bench_impl_libwire_mem,
#endif
    &bench_impl_libwire_doc,
#ifdef BENCH_WITH_PROTOBUF_C
    &bench_impl_protobuf_c,
#endif
#ifdef BENCH_WITH_MSGPACK_C
    &bench_impl_msgpack_c,
#endif
    &bench_impl_floor,
    NULL,
};
