import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.fory.Fory;

/**
 * Payloads of ordinary Java classes written by fory-core (the CLI tests of
 * libwire/tests/py/test_cli_real.py):
 *
 *   java -cp conformance/peers/java/target/fory-java-peer.jar JavaWriter.java
 *
 * prints one line per payload, "NAME HEX". Default settings: xlang,
 * compatible mode, no reference tracking, the default TypeDef compressor.
 * (The source launcher, `java JavaWriter.java`, crashes fory-core's
 * generated code: compile with javac first.)
 */
public final class JavaWriter {
  public enum Status { NEW, PAID, SHIPPED }

  public static class Address {
    public String street;
    public String city;
    public Address() {}
    Address(String street, String city) { this.street = street; this.city = city; }
  }

  public static class Customer {
    public String name;
    public String email;
    public List<Address> addresses;
  }

  public static class Product {
    public String sku;
    public BigDecimal price;
  }

  public static class OrderLine {
    public Product product;
    public int quantity;
  }

  public static class Order {
    public long id;
    public Customer customer;
    public Address shipping;
    public List<OrderLine> lines;
    public Instant placed;
    public LocalDate due;
    public Map<String, String> tags;
    public Set<String> labels;
    public byte[] blob;
    public Status status;
    public String note;
  }

  public static class Person {
    public String name;
    public Address home;
    public Address work;
  }

  public static class Node {
    public int value;
    public List<Node> children;
  }

  static Fory fory() {
    Fory f = Fory.builder().withXlang(true).withCompatible(true).withRefTracking(false).build();
    f.register(Status.class, "shop", "Status");
    f.register(Address.class, "shop", "Address");
    f.register(Customer.class, "shop", "Customer");
    f.register(Product.class, "shop", "Product");
    f.register(OrderLine.class, "shop", "OrderLine");
    f.register(Order.class, "shop", "Order");
    f.register(Person.class, "shop", "Person");
    f.register(Node.class, "shop", "Node");
    return f;
  }

  static Order order() {
    Order o = new Order();
    o.id = 1001;
    o.customer = new Customer();
    o.customer.name = "Ada Lovelace";
    o.customer.email = "ada@example.com";
    o.customer.addresses = new ArrayList<>(List.of(new Address("12 Analytical Row", "London")));
    o.shipping = new Address("1 Engine Lane", "Cambridge");
    o.lines = new ArrayList<>();
    String[][] items = {{"BAB-1", "349.99", "1"}, {"CARD-80", "0.05", "80"}};
    for (String[] it : items) {
      OrderLine l = new OrderLine();
      l.product = new Product();
      l.product.sku = it[0];
      l.product.price = new BigDecimal(it[1]);
      l.quantity = Integer.parseInt(it[2]);
      o.lines.add(l);
    }
    o.placed = Instant.parse("2024-02-29T12:34:56.789Z");
    o.due = LocalDate.parse("2024-03-15");
    o.tags = new LinkedHashMap<>();
    o.tags.put("channel", "web");
    o.tags.put("gift", "no");
    o.labels = new LinkedHashSet<>(List.of("priority", "fragile"));
    o.blob = new byte[] {0, 1, 2, (byte) 0xff};
    o.status = Status.PAID;
    // Not null: fory-core 1.6.0 crashes the JVM (SIGSEGV in
    // Unsafe.getObject) serializing a null String field in xlang mode.
    o.note = "leave at the door";
    return o;
  }

  static Node node(int v, Node... kids) {
    Node n = new Node();
    n.value = v;
    n.children = new ArrayList<>(List.of(kids));
    return n;
  }

  public static void main(String[] args) {
    java.io.PrintStream out = System.out;
    System.setOut(System.err); // the runtime logs to stdout
    Fory f = fory();
    Person p = new Person();
    p.name = "ann";
    p.home = new Address("1 Home St", "Oslo");
    p.work = new Address("2 Work Rd", "Bergen");
    HexFormat hx = HexFormat.of();
    out.println("order " + hx.formatHex(f.serialize(order())));
    out.println("person " + hx.formatHex(f.serialize(p)));
    out.println("tree " + hx.formatHex(f.serialize(node(1, node(2, node(4)), node(3)))));
  }
}
