package dev.libwire.kotlin.bench

import kotlinx.serialization.KSerializer
import kotlinx.serialization.Serializable
import kotlinx.serialization.descriptors.PrimitiveKind
import kotlinx.serialization.descriptors.PrimitiveSerialDescriptor
import kotlinx.serialization.encoding.Decoder
import kotlinx.serialization.encoding.Encoder
import java.math.BigDecimal
import java.time.Instant

/*
 * The order graph as Kotlin data classes: the same classes go through libwire (a layout per class),
 * kotlinx.serialization (@Serializable, compiler plugin) and Jackson (jackson-module-kotlin).
 */

@Serializable
enum class OrderStatus { NEW, PAID, PICKING, SHIPPED, DELIVERED, CANCELLED }

@Serializable
data class Address(val street: String, val city: String, val zip: String, val country: String)

@Serializable
data class Category(val id: Long, val name: String, val parent: Category?)

@Serializable
data class Product(
    val sku: String,
    val name: String,
    val description: String,
    val category: Category,
    @Serializable(with = BigDecimalText::class) val price: BigDecimal,
    val weightGrams: Int,
    val tags: Set<String>,
    val thumbnail: ByteArray,
) {
    override fun equals(other: Any?): Boolean = other is Product && sku == other.sku && name == other.name &&
        description == other.description && category == other.category && price == other.price &&
        weightGrams == other.weightGrams && tags == other.tags && thumbnail.contentEquals(other.thumbnail)

    override fun hashCode(): Int = sku.hashCode()
}

@Serializable
data class Customer(
    val id: Long,
    val firstName: String,
    val lastName: String,
    val email: String,
    @Serializable(with = InstantMillis::class) val dateOfBirth: Instant,
    val vip: Boolean,
    val addresses: List<Address>,
)

@Serializable
data class OrderLine(
    val product: Product,
    val quantity: Int,
    @Serializable(with = BigDecimalText::class) val unitPrice: BigDecimal,
    val discount: Double,
)

@Serializable
data class Order(
    val id: String,
    val customer: Customer,
    val lines: List<OrderLine>,
    val status: OrderStatus,
    @Serializable(with = InstantMillis::class) val created: Instant,
    val shippingAddress: Address,
    val attributes: Map<String, String>,
    val notes: String?,
)

/** kotlinx.serialization has no BigDecimal: its plain string (scale kept). */
object BigDecimalText : KSerializer<BigDecimal> {
    override val descriptor = PrimitiveSerialDescriptor("BigDecimal", PrimitiveKind.STRING)
    override fun serialize(encoder: Encoder, value: BigDecimal) = encoder.encodeString(value.toPlainString())
    override fun deserialize(decoder: Decoder): BigDecimal = BigDecimal(decoder.decodeString())
}

/** kotlinx.serialization has no Instant here: epoch milliseconds (the model's timestamps are whole ms). */
object InstantMillis : KSerializer<Instant> {
    override val descriptor = PrimitiveSerialDescriptor("InstantMillis", PrimitiveKind.LONG)
    override fun serialize(encoder: Encoder, value: Instant) = encoder.encodeLong(value.toEpochMilli())
    override fun deserialize(decoder: Decoder): Instant = Instant.ofEpochMilli(decoder.decodeLong())
}
