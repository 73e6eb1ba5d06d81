package dev.libwire.kotlin

/** Decoder limits (`WIRE_LIMIT_*`); defaults are libwire's. */
enum class Limit(val id: Int) {
    /** Nesting depth of values (64). */
    DEPTH(WireH.LIMIT_DEPTH),
    /** Bytes of one string/binary/array (1 GiB). */
    BINARY(WireH.LIMIT_BINARY),
    /** Elements of one list/set/map (16 Mi). */
    COLLECTION(WireH.LIMIT_COLLECTION),
    /** Nodes in one decoded document (64 Mi). */
    NODES(WireH.LIMIT_NODES),
    /** Magnitude bytes of a big decimal (10000). */
    DECIMAL_DIGITS(WireH.LIMIT_DECIMAL_DIGITS),
    /** Root values in one payload (1 Mi). */
    ROOTS(WireH.LIMIT_ROOTS),
    /** Body bytes of one TypeDef (4096). */
    TYPEDEF_BYTES(WireH.LIMIT_TYPEDEF_BYTES),
    /** Fields of one TypeDef (512). */
    TYPEDEF_FIELDS(WireH.LIMIT_TYPEDEF_FIELDS),
    /** Incoming TypeDefs a context keeps across messages (256). */
    TYPEDEF_CACHE(WireH.LIMIT_TYPEDEF_CACHE),
    /**
     * Bytes of native memory a data-class decode may take per payload byte, beyond
     * [WireH.MEM_DECODE_BASE] (512): a compatible-mode writer can send a struct as one byte that
     * becomes a whole object image here. Past it the decode fails with a "limit" [WireException].
     */
    MEM_DECODE(WireH.LIMIT_MEM_DECODE),
    /** Heap bytes the cached incoming TypeDefs may take together (1 MiB); more are read per message. */
    TYPEDEF_CACHE_BYTES(WireH.LIMIT_TYPEDEF_CACHE_BYTES),
}

/** The runtime whose choices are read and written where the runtimes' same-schema bytes differ (`WIRE_OPT_PEER`, spec R-PEER-1..4). */
enum class Peer(val id: Int) {
    /** libwire's own choices. */
    NONE(WireH.PEER_NONE),
    /** Fory Java 1.6.0. */
    JAVA(WireH.PEER_JAVA),
    /** pyfory 1.7.7. */
    PYFORY(WireH.PEER_PYFORY),
    /** Fory Go 1.6.1. */
    GO(WireH.PEER_GO),
}

/**
 * Options of a [Context]: reference tracking, compatible (schema evolution)
 * mode and decoder limits. Immutable; `Wire` caches one context per options
 * value and thread.
 */
data class WireOptions(
    val refTracking: Boolean = false,
    val compatible: Boolean = false,
    val limits: Map<Limit, Long> = emptyMap(),
    val peer: Peer = Peer.NONE,
) {
    companion object {
        @JvmField val DEFAULT = WireOptions()
        @JvmField val COMPATIBLE = WireOptions(compatible = true)
    }
}
