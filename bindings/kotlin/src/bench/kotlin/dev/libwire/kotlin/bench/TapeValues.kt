package dev.libwire.kotlin.bench

/**
 * The values of the benchmark's five tape workloads, drawn from one xorshift64* stream in a fixed
 * order (the map, the mixed list, the longs, the binary, the strings), so that `RatioBenchTest`
 * and `ProfileMain` measure the same values.
 */
class TapeValues {
    private var state = -7046029254386353131L

    private fun rng(): Long {
        state = state xor (state ushr 12)
        state = state xor (state shl 25)
        state = state xor (state ushr 27)
        return state * 0x2545F4914F6CDD1DL
    }

    /** A long of a random bit length (0–64) and sign, so that varints of every size occur. */
    private fun spread(): Long {
        val r = rng()
        val v = rng() ushr (r and 63).toInt()
        return if (r and 64 != 0L) -v else v
    }

    private val words = listOf("alpha", "beta", "gamma", "delta", "caf\u00e9", "na\u00efve", "id", "value")
    private val cjk = listOf(
        "\u6570\u636e", "\u5b57\u7b26\u4e32", "\u7f16\u7801\u5668", "\u89e3\u7801",
        "\u6d4b\u8bd5\u503c", "\u5217\u8868", "\u6620\u5c04\u8868", "\u5e8f\u5217\u5316",
    )

    val map: LinkedHashMap<String, Long> =
        LinkedHashMap<String, Long>().also { m -> for (i in 0 until 10000) m["key%05d".format(i)] = spread() }

    /** Longs, doubles, booleans, Latin-1 and UTF-16 strings: 1,000 elements in a fixed pattern. */
    val mixed: ArrayList<Any?> = ArrayList<Any?>(1000).also { list ->
        for (i in 0 until 1000) list.add(
            when (i % 8) {
                0, 1, 7 -> spread()
                2 -> rng().toDouble() / 1048576.0
                3 -> (rng() and 1L) != 0L
                4, 5 -> words[(rng() and 7).toInt()] + "-" + i
                else -> cjk[(rng() and 7).toInt()] + cjk[(rng() and 7).toInt()]
            },
        )
    }

    val longs: LongArray = LongArray(100000) { spread() }

    val binary: ByteArray = ByteArray(1 shl 20) { rng().toByte() }

    val strings: List<String> = List(10000) { "%s %05d".format(words[(rng() and 7).toInt()], it) }
}
