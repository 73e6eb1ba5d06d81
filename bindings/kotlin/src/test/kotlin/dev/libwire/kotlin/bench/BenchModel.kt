package dev.libwire.kotlin.bench

import dev.libwire.kotlin.Context
import dev.libwire.kotlin.WireOptions
import dev.libwire.kotlin.repoRoot

/** The benchmark's structs as Kotlin data classes (bench/schemas/bench.fdl). */
enum class Player { JAVA, FLASH }

enum class Size { SMALL, LARGE }

data class NumericStruct(
    val f1: Int, val f2: Int, val f3: Int, val f4: Int, val f5: Int, val f6: Int,
    val f7: Int, val f8: Int, val f9: Int, val f10: Int, val f11: Int, val f12: Int,
)

class Sample(
    val intValue: Int, val longValue: Long, val floatValue: Float, val doubleValue: Double,
    val shortValue: Int, val charValue: Int, val booleanValue: Boolean,
    val intValueBoxed: Int, val longValueBoxed: Long, val floatValueBoxed: Float, val doubleValueBoxed: Double,
    val shortValueBoxed: Int, val charValueBoxed: Int, val booleanValueBoxed: Boolean,
    val intArray: IntArray, val longArray: LongArray, val floatArray: FloatArray, val doubleArray: DoubleArray,
    val shortArray: IntArray, val charArray: IntArray, val booleanArray: BooleanArray, val string: String,
) {
    override fun equals(other: Any?): Boolean = other is Sample && intValue == other.intValue &&
        longValue == other.longValue && floatValue == other.floatValue && doubleValue == other.doubleValue &&
        shortValue == other.shortValue && charValue == other.charValue && booleanValue == other.booleanValue &&
        intValueBoxed == other.intValueBoxed && longValueBoxed == other.longValueBoxed &&
        floatValueBoxed == other.floatValueBoxed && doubleValueBoxed == other.doubleValueBoxed &&
        shortValueBoxed == other.shortValueBoxed && charValueBoxed == other.charValueBoxed &&
        booleanValueBoxed == other.booleanValueBoxed && intArray.contentEquals(other.intArray) &&
        longArray.contentEquals(other.longArray) && floatArray.contentEquals(other.floatArray) &&
        doubleArray.contentEquals(other.doubleArray) && shortArray.contentEquals(other.shortArray) &&
        charArray.contentEquals(other.charArray) && booleanArray.contentEquals(other.booleanArray) &&
        string == other.string

    override fun hashCode() = intValue
}

data class Media(
    val uri: String, val title: String, val width: Int, val height: Int, val format: String,
    val duration: Long, val size: Long, val bitrate: Int, val hasBitrate: Boolean,
    val persons: List<String>, val player: Player, val copyright: String,
)

data class Image(val uri: String, val title: String, val width: Int, val height: Int, val size: Size)

data class MediaContent(val media: Media, val images: List<Image>)

/**
 * MediaContent's classes with a constructor default on most properties (`ProfileMain mediad`): the
 * same schema types and values, for what a class with defaults costs on the compiled codecs.
 */
data class MediaD(
    val uri: String = "", val title: String = "", val width: Int = 0, val height: Int = 0, val format: String = "",
    val duration: Long = -1L, val size: Long = 0L, val bitrate: Int = 0, val hasBitrate: Boolean = false,
    val persons: List<String> = emptyList(), val player: Player = Player.JAVA, val copyright: String = "",
)

data class ImageD(val uri: String, val title: String = "", val width: Int = 0, val height: Int = 0, val size: Size = Size.SMALL)

data class MediaContentD(val media: MediaD, val images: List<ImageD> = emptyList())

/**
 * A writer of MediaContent's types lacking fields (`ProfileMain mediadlack|mediadnested`): Media
 * without bitrate, has_bitrate and copyright, Image without title; its MediaContent with a field
 * more ([MediaContentW], so its root TypeDef is not the reader's) or as the reader's ([MediaContentW0]).
 */
data class MediaW(
    val uri: String, val title: String, val width: Int, val height: Int, val format: String,
    val duration: Long, val size: Long, val persons: List<String>, val player: Player,
)
data class ImageW(val uri: String, val width: Int, val height: Int, val size: Size)
data class MediaContentW(val media: MediaW, val images: List<ImageW>, val version: Int)
data class MediaContentW0(val media: MediaW, val images: List<ImageW>)

object BenchValues {
    /** MediaContent's value written by the writer above ([root]: with MediaContentW's field more). */
    fun lackingWriterBytes(root: Boolean): ByteArray {
        val fdl = "package bench;\nenum Player [id=6] { JAVA = 0; FLASH = 1; }\nenum Size [id=7] { SMALL = 0; LARGE = 1; }\n" +
            "message Media [id=3] { string uri = 1; string title = 2; int32 width = 3; int32 height = 4; string format = 5; " +
            "int64 duration = 6; int64 size = 7; list<string> persons = 10; Player player = 11; }\n" +
            "message Image [id=4] { string uri = 1; int32 width = 3; int32 height = 4; Size size = 5; }\n" +
            "message MediaContent [id=5] { Media media = 1 [nullable = false]; list<Image> images = 2;" +
            (if (root) " int32 version = 3; }\n" else " }\n")
        val c = Context(WireOptions(compatible = true))
        c.registerSchemaText(fdl, "bench_w.fdl")
        c.registerEnum(Player::class, "bench.Player")
        c.registerEnum(Size::class, "bench.Size")
        c.registerDataClass(MediaW::class, "bench.Media")
        c.registerDataClass(ImageW::class, "bench.Image")
        c.registerDataClass(if (root) MediaContentW::class else MediaContentW0::class, "bench.MediaContent")
        val v = mediaContent()
        val m = v.media
        val mw = MediaW(m.uri, m.title, m.width, m.height, m.format, m.duration, m.size, m.persons, m.player)
        val iw = v.images.map { ImageW(it.uri, it.width, it.height, it.size) }
        return c.use { it.encode(if (root) MediaContentW(mw, iw, 2) else MediaContentW0(mw, iw)) }
    }

    /** [context]'s schema with MediaContent's types bound to [MediaContentD] and its classes instead. */
    fun contextWithDefaults(): Context =
        context(MediaD::class to "bench.Media", ImageD::class to "bench.Image", MediaContentD::class to "bench.MediaContent")

    fun mediaContentD(): MediaContentD = mediaContent().let { v ->
        val m = v.media
        MediaContentD(
            MediaD(m.uri, m.title, m.width, m.height, m.format, m.duration, m.size, m.bitrate, m.hasBitrate, m.persons, m.player, m.copyright),
            v.images.map { ImageD(it.uri, it.title, it.width, it.height, it.size) }.toCollection(ArrayList()),
        )
    }

    /** A libwire context with bench/schemas/bench.fdl and the classes above (compatible mode). */
    fun context(): Context = context(
        NumericStruct::class to "bench.NumericStruct", Sample::class to "bench.Sample", Media::class to "bench.Media",
        Image::class to "bench.Image", MediaContent::class to "bench.MediaContent",
    )

    private fun context(vararg classes: Pair<kotlin.reflect.KClass<*>, String>): Context {
        val c = Context(WireOptions(compatible = true))
        c.registerSchema(repoRoot.resolve("bench/schemas/bench.fdl"))
        for ((k, name) in classes) c.registerDataClass(k, name)
        c.registerEnum(Player::class, "bench.Player")
        c.registerEnum(Size::class, "bench.Size")
        return c
    }

    fun numericStruct() = NumericStruct(
        -12345, 987654321, -31415, 27182818, -32000, 1000000, -999999999, 42, 123456789, -42, 31415926, -27182818,
    )

    fun sample() = Sample(
        123, 1230000L, 12.345f, 1.234567, 12345, '!'.code, true, 321, 3210000L, 54.321f, 7.654321, 32100, '$'.code, false,
        intArrayOf(-1234, -123, -12, -1, 0, 1, 12, 123, 1234),
        longArrayOf(-123400, -12300, -1200, -100, 0, 100, 1200, 12300, 123400),
        floatArrayOf(-12.34f, -12.3f, -12.0f, -1.0f, 0.0f, 1.0f, 12.0f, 12.3f, 12.34f),
        doubleArrayOf(-1.234, -1.23, -12.0, -1.0, 0.0, 1.0, 12.0, 1.23, 1.234),
        intArrayOf(-1234, -123, -12, -1, 0, 1, 12, 123, 1234),
        "asdfASDF".map { it.code }.toIntArray(),
        booleanArrayOf(true, false, false, true),
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
    )

    fun mediaContent() = MediaContent(
        Media(
            "http://javaone.com/keynote.ogg", "", 641, 481, "video/theora\u1234", 18000001L, 58982401L, 0, false,
            arrayListOf("Bill Gates, Jr.", "Steven Jobs"), Player.FLASH, "Copyright (c) 2009, Scooby Dooby Doo",
        ),
        arrayListOf(
            Image("http://javaone.com/keynote_huge.jpg", "Javaone Keynote\u1234", 32000, 24000, Size.LARGE),
            Image("http://javaone.com/keynote_large.jpg", "", 1024, 768, Size.LARGE),
            Image("http://javaone.com/keynote_small.jpg", "", 320, 240, Size.SMALL),
        ),
    )
}
