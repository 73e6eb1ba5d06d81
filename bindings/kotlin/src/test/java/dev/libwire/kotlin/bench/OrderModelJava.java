package dev.libwire.kotlin.bench;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.fory.annotation.ForyField;
import org.apache.fory.annotation.Nullable;
import org.apache.fory.annotation.Ref;

/**
 * The order graph as plain Java classes for Fory Java (xlang and native mode), field ids and
 * registration ids of src/test/orders.fdl. The benchmark converts the Kotlin data
 * classes to these (keeping shared objects shared) and back for its equality checks.
 */
public final class OrderModelJava {
  private OrderModelJava() {}

  public enum OrderStatus { NEW, PAID, PICKING, SHIPPED, DELIVERED, CANCELLED }

  public static class Address {
    @ForyField(id = 1) public String street;
    @ForyField(id = 2) public String city;
    @ForyField(id = 3) public String zip;
    @ForyField(id = 4) public String country;
  }

  public static class Category {
    @ForyField(id = 1) public long id;
    @ForyField(id = 2) public String name;
    @ForyField(id = 3) @Ref @Nullable public Category parent;
  }

  public static class Product {
    @ForyField(id = 1) public String sku;
    @ForyField(id = 2) public String name;
    @ForyField(id = 3) public String description;
    @ForyField(id = 4) @Ref public Category category;
    @ForyField(id = 5) public BigDecimal price;
    @ForyField(id = 6) public int weight_grams;
    @ForyField(id = 7) public Set<String> tags;
    @ForyField(id = 8) public byte[] thumbnail;
  }

  public static class Customer {
    @ForyField(id = 1) public long id;
    @ForyField(id = 2) public String first_name;
    @ForyField(id = 3) public String last_name;
    @ForyField(id = 4) public String email;
    @ForyField(id = 5) public Instant date_of_birth;
    @ForyField(id = 6) public boolean vip;
    @ForyField(id = 7) public List<@Ref Address> addresses;
  }

  public static class OrderLine {
    @ForyField(id = 1) @Ref public Product product;
    @ForyField(id = 2) public int quantity;
    @ForyField(id = 3) public BigDecimal unit_price;
    @ForyField(id = 4) public double discount;
  }

  public static class Order {
    @ForyField(id = 1) public String id;
    @ForyField(id = 2) public Customer customer;
    @ForyField(id = 3) public List<OrderLine> lines;
    @ForyField(id = 4) public OrderStatus status;
    @ForyField(id = 5) public Instant created;
    @ForyField(id = 6) @Ref public Address shipping_address;
    @ForyField(id = 7) public Map<String, String> attributes;
    @ForyField(id = 8) @Nullable public String notes;
  }

  public static void register(org.apache.fory.Fory f) {
    f.register(OrderStatus.class, 20);
    f.register(Address.class, 21);
    f.register(Category.class, 22);
    f.register(Product.class, 23);
    f.register(Customer.class, 24);
    f.register(OrderLine.class, 25);
    f.register(Order.class, 26);
  }
}
