import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.fory.Fory;
import org.apache.fory.annotation.ForyStruct;
import org.apache.fory.annotation.Nullable;
import org.apache.fory.annotation.Ref;
import org.apache.fory.collection.Float32List;
import org.apache.fory.collection.Float64List;
import org.apache.fory.collection.Int16List;
import org.apache.fory.collection.Int32List;
import org.apache.fory.collection.Int64List;
import org.apache.fory.collection.Int8List;
import org.apache.fory.collection.UInt16List;
import org.apache.fory.collection.UInt32List;
import org.apache.fory.collection.UInt64List;
import org.apache.fory.collection.UInt8List;
import org.apache.fory.memory.MemoryBuffer;

/**
 * The user models of the exactness harness (libwire/tests/exact) as Fory
 * Java 1.6.0 users write them: plain classes, every type registered by name
 * in namespace ex.
 *
 *   javac -cp fory-java-peer.jar -d OUT ExactWriter.java
 *   java -cp OUT:fory-java-peer.jar ExactWriter          # NAME.MODE HEX lines
 *   java -cp OUT:fory-java-peer.jar ExactWriter --read   # NAME.MODE HEX on stdin:
 *                                                        # NAME.MODE ok|differs|error
 *                                                        # (NAME.MODE.plain: values only;
 *                                                        # NAME.MODE.v2: as v2.fdl's classes)
 */
public final class ExactWriter {
  public enum Status { NEW, PAID, SHIPPED }
  public enum Player { JAVA, FLASH }
  public enum Size { SMALL, LARGE }

  public static class Address {
    public String street;
    public String city;
    public Address() {}
    Address(String street, String city) { this.street = street; this.city = city; }
  }

  public static class Customer {
    public String name;
    public String email;
    public List<@Ref Address> addresses;
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
    @Ref public Address shipping;
    public List<OrderLine> lines;
    public Instant placed;
    public LocalDate due;
    public Map<String, String> tags;
    public Set<String> labels;
    public byte[] blob;
    public Status status;
    @Nullable public String note;
  }

  public static class Image {
    public String uri;
    public String title;
    public int width;
    public int height;
    public Size size;
  }

  public static class Media {
    public String uri;
    public String title;
    public int width;
    public int height;
    public String format;
    public long duration;
    public long size;
    public int bitrate;
    public boolean hasBitrate;
    public List<String> persons;
    public Player player;
    public String copyright;
  }

  public static class MediaContent {
    public Media media;
    public List<Image> images;
  }

  public static class Sample {
    public int intValue;
    public long longValue;
    public float floatValue;
    public double doubleValue;
    public short shortValue;
    public byte byteValue;
    public boolean booleanValue;
    public int[] intArray;
    public long[] longArray;
    public double[] doubleArray;
    public String string;
  }

  public static class SampleList {
    public List<Sample> samples;
  }

  public static class Node {
    public int value;
    public List<Node> children;
  }

  public static class Person {
    public String name;
    public Address home;
    public Address work;
  }

  public static class Inner {
    public int a;
    public String b;
  }

  public static class Outer {
    public Inner inner;
    public String label;
  }

  public static class Empty {}

  public static class HasEmpty {
    public Empty e;
    public int n;
  }

  public static class Optionals {
    @Nullable public String s;
    @Nullable public Integer i;
    @Nullable public Long l;
    @Nullable public Double d;
    @Nullable public Boolean b;
    @Nullable public Address a;
    @Nullable public List<String> xs;
    @Nullable public Map<String, Integer> m;
  }

  public static class Holder {
    public String name;
    public Object payload;
  }

  public static class Camel {
    public String firstName;
    public String lastName;
    public int birthYear;
    public boolean isActive;
  }

  public static class Evo {
    public int id;
    public String name;
    public String old;
    public int count;
  }

  /** Version 2 of Evo (fixtures/schemas/exact/v2.fdl): count widened to long, old removed, added added. */
  public static class EvoV2 {
    public int id;
    public String name;
    public long count;
    public String added = ""; // the default a v2 user gives the new field (pyfory: the dataclass default, Go: the zero value)
  }

  /**
   * The reader checks of camel and evo: the v1 payload read by a user whose classes are v2.fdl's
   * (EvoV2; Camel has the same shape in both versions), registered under the v1 names.
   */
  static String readV2(String name, boolean compatible, byte[] bytes) {
    Fory f = Fory.builder().withXlang(true).withCompatible(compatible)
        .requireClassRegistration(true).build();
    Object want;
    if (name.equals("evo")) {
      EvoV2 e = new EvoV2();
      e.id = 7;
      e.name = "seven";
      e.count = 42;
      e.added = "";
      want = e;
      f.register(EvoV2.class, "ex", "Evo");
    } else if (name.equals("camel")) {
      Camel c = new Camel();
      c.firstName = "Grace";
      c.lastName = "Hopper";
      c.birthYear = 1906;
      c.isActive = true;
      want = c;
      f.register(Camel.class, "ex", "Camel");
    } else {
      return "error: no v2 of " + name;
    }
    Object got = f.deserialize(bytes);
    if (same(want, got)) {
      return "ok";
    }
    StringBuilder sb = new StringBuilder("differs:");
    for (java.lang.reflect.Field fl : got.getClass().getFields()) {
      try {
        sb.append(' ').append(fl.getName()).append('=').append(fl.get(got));
      } catch (IllegalAccessException e) {
        sb.append(' ').append(fl.getName()).append("=?");
      }
    }
    return sb.toString();
  }

  /** Two fields and a list element referring to one list (reference tracking on). */
  public static class SharedLists {
    @Ref public List<String> first;
    @Ref public List<String> second;
  }

  public static class Stop {
    public String city;
    public Stop() {}
    Stop(String city) { this.city = city; }
  }

  /** Lists of a struct whose elements are not annotated @Ref, written with
   * reference tracking on: one Stop object twice in each list. */
  public static class Route {
    public List<@Nullable Stop> stops;
    public List<Stop> fixed;
  }

  public static class Leaf {
    public int n;
    public Leaf() {}
    Leaf(int n) { this.n = n; }
  }

  /** Generic fields whose elements and values are not annotated, written with reference
   * tracking on: same-schema mode tracks them (errata E-54). */
  public static class Nests {
    public List<List<String>> lists;
    public Map<String, Leaf> leaves;
  }

  /** @Nullable primitive array fields: Fory Java declares them not nullable (errata E-55). */
  public static class NullArrays {
    @Nullable public byte[] bin;
    @Nullable public int[] ints;
  }

  /** A list of @Ref elements, written without reference tracking (errata E-56). */
  public static class RefListOff {
    public List<@Ref Leaf> leaves;
  }

  /** A field annotated @Ref, written without reference tracking. */
  public static class RefOff {
    public String name;
    @Ref @Nullable public Inner inner;
  }

  /** Namespace and type name over 16 bytes (meta string hashes). */
  public static class LongNamedStructForTheLongNamesCheck {
    public int v;
  }

  /**
   * Written with a buffer callback (out-of-band buffers): bodies of at least 2 bytes out of
   * band, shorter ones in band; Java marks binaries and every primitive array.
   */
  public static class Blobs {
    public String name;
    public byte[] data;
    public byte[] small;
    public List<byte[]> parts;
    public int[] ints;
    public long[] longs;
  }

  /** Not evolving: a STRUCT (same-schema body, schema hash) even in compatible mode. */
  @ForyStruct(evolving = false)
  public static class Point {
    public int x;
    public int y;
  }

  /** map<string, Point> with Point not evolving (issue 11 item 3). */
  public static class Inventory {
    public Map<String, Point> points;
    public Point origin;
  }

  static final Class<?>[] TYPES = {
    Status.class, Player.class, Size.class, Address.class, Customer.class, Product.class,
    OrderLine.class, Order.class, Image.class, Media.class, MediaContent.class, Sample.class,
    SampleList.class, Node.class, Person.class, Inner.class, Outer.class, Empty.class,
    HasEmpty.class, Optionals.class, Holder.class, Camel.class, Evo.class, SharedLists.class,
    Stop.class, Route.class,
    RefOff.class, Blobs.class, Point.class, Inventory.class, Leaf.class, Nests.class,
    NullArrays.class, RefListOff.class
  };

  static Fory fory(boolean compatible, boolean ref) {
    Fory f = Fory.builder().withXlang(true).withCompatible(compatible).withRefTracking(ref)
        .requireClassRegistration(true).build();
    for (Class<?> c : TYPES) {
      f.register(c, "ex", c.getSimpleName());
    }
    f.register(LongNamedStructForTheLongNamesCheck.class, "longnamespace.forthemetastrings",
        "LongNamedStructForTheLongNamesCheck");
    return f;
  }

  static Order order() {
    Order o = new Order();
    Address home = new Address("1 Engine Lane", "Cambridge");
    o.id = 1001;
    o.customer = new Customer();
    o.customer.name = "Ada Lovelace";
    o.customer.email = "ada@example.com";
    o.customer.addresses = new ArrayList<>(List.of(home, new Address("12 Analytical Row", "London")));
    o.shipping = home; // the same object as the customer's first address
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
    o.note = "leave at the door";
    return o;
  }

  static Image image(String uri, String title, int w, int h, Size s) {
    Image i = new Image();
    i.uri = uri;
    i.title = title;
    i.width = w;
    i.height = h;
    i.size = s;
    return i;
  }

  static MediaContent media() {
    Media m = new Media();
    m.uri = "http://javaone.com/keynote.mpg";
    m.title = "Javaone Keynote";
    m.width = 640;
    m.height = 480;
    m.format = "video/mpg4";
    m.duration = 18000000;
    m.size = 58982400;
    m.bitrate = 262144;
    m.hasBitrate = true;
    m.persons = new ArrayList<>(List.of("Bill Gates", "Steve Jobs"));
    m.player = Player.JAVA;
    m.copyright = "none";
    MediaContent c = new MediaContent();
    c.media = m;
    c.images = new ArrayList<>(List.of(
        image("http://javaone.com/keynote_large.jpg", "Javaone Keynote", 1024, 768, Size.LARGE),
        image("http://javaone.com/keynote_small.jpg", "small", 320, 240, Size.SMALL)));
    return c;
  }

  static Sample sample(int k) {
    Sample s = new Sample();
    s.intValue = 123 + k;
    s.longValue = 1L << 40;
    s.floatValue = 1.5f;
    s.doubleValue = -2.25;
    s.shortValue = -7;
    s.byteValue = 5;
    s.booleanValue = true;
    s.intArray = new int[] {1, 2, 3};
    s.longArray = new long[] {-1, 1L << 33};
    s.doubleArray = new double[] {0.5};
    s.string = "sample " + k;
    return s;
  }

  static Node node(int v, Node... kids) {
    Node n = new Node();
    n.value = v;
    n.children = new ArrayList<>(List.of(kids));
    return n;
  }

  static Map<String, Object> values() {
    Map<String, Object> v = new LinkedHashMap<>();
    v.put("order", order());
    v.put("media", media());
    v.put("sample", sample(0));
    SampleList sl = new SampleList();
    sl.samples = new ArrayList<>(List.of(sample(0), sample(1), sample(2)));
    v.put("samples", sl);
    v.put("tree", node(1, node(2, node(4)), node(3)));
    Person p = new Person();
    p.name = "ann";
    p.home = new Address("1 Home St", "Oslo");
    p.work = new Address("2 Work Rd", "Bergen");
    v.put("person", p);
    Outer o = new Outer();
    o.inner = new Inner();
    o.inner.a = 7;
    o.inner.b = "seven";
    o.label = "outer";
    v.put("nested", o);
    v.put("nestedref", o); // the same Outer with reference tracking on (errata E-52)
    HasEmpty he = new HasEmpty();
    he.e = new Empty();
    he.n = 3;
    v.put("empty", he);
    v.put("optionals", new Optionals());
    Holder h = new Holder();
    h.name = "h";
    h.payload = "a string in an Any field";
    v.put("any", h);
    Camel c = new Camel();
    c.firstName = "Grace";
    c.lastName = "Hopper";
    c.birthYear = 1906;
    c.isActive = true;
    v.put("camel", c);
    Evo e = new Evo();
    e.id = 7;
    e.name = "seven";
    e.old = "gone in v2";
    e.count = 42;
    v.put("evo", e);
    SharedLists s = new SharedLists();
    s.first = new ArrayList<>(List.of("a", "b"));
    s.second = s.first;
    v.put("shared", s);
    Route rt = new Route();
    Stop x = new Stop("X");
    Stop q = new Stop("Q");
    rt.stops = new ArrayList<>(java.util.Arrays.asList(x, null, x, new Stop("Y")));
    rt.fixed = new ArrayList<>(List.of(q, q, new Stop("Z")));
    v.put("reflist", rt);
    RefOff ro = new RefOff();
    ro.name = "r";
    ro.inner = new Inner();
    ro.inner.a = 1;
    ro.inner.b = "one";
    v.put("refoff", ro);
    Nests ns = new Nests();
    List<String> ab = new ArrayList<>(List.of("a", "b"));
    ns.lists = new ArrayList<>(List.of(ab, ab, new ArrayList<>(List.of("c"))));
    Leaf seven = new Leaf(7);
    ns.leaves = new LinkedHashMap<>();
    ns.leaves.put("p", seven);
    ns.leaves.put("q", seven);
    ns.leaves.put("r", new Leaf(-1));
    v.put("nests", ns);
    NullArrays na = new NullArrays();
    na.bin = new byte[] {1, 2, (byte) 0xff};
    na.ints = new int[] {3, -4};
    v.put("nullarrays", na);
    RefListOff rlo = new RefListOff();
    Leaf one = new Leaf(1);
    rlo.leaves = new ArrayList<>(List.of(one, one, new Leaf(63)));
    v.put("reflistoff", rlo);
    LongNamedStructForTheLongNamesCheck ln = new LongNamedStructForTheLongNamesCheck();
    ln.v = 5;
    v.put("longname", ln);
    Blobs b = new Blobs();
    b.name = "b";
    b.data = new byte[] {0, 'd', 'a', 't', 'a', (byte) 0xff};
    b.small = new byte[] {'s'};
    b.parts = new ArrayList<>(List.of(new byte[] {'p', '1'}, new byte[] {'q'}));
    b.ints = new int[] {1, -1};
    b.longs = new long[] {7};
    v.put("blobs", b);
    Inventory inv = new Inventory();
    inv.points = new LinkedHashMap<>();
    inv.points.put("a", point(1, 2));
    inv.points.put("b", point(-3, 4));
    inv.origin = point(0, 0);
    v.put("mapfixed", inv);
    return v;
  }

  static Point point(int x, int y) {
    Point p = new Point();
    p.x = x;
    p.y = y;
    return p;
  }

  /**
   * Union cases of list, map and string type, through the classes foryc (fory-compiler 1.7.7,
   * --java_out) generates from fixtures/schemas/exact/union.fdl, compiled with this file by the
   * harness, and registered by foryc's module (issue 11 item 2).
   */
  static Map<String, Object> unionValues() {
    Map<String, Object> v = new LinkedHashMap<>();
    exu.UHolder l = new exu.UHolder();
    l.setPick(exu.Pick.ofNames(new ArrayList<>(List.of("a", "b"))));
    v.put("ulist", l);
    exu.UHolder m = new exu.UHolder();
    Map<String, Integer> counts = new LinkedHashMap<>();
    counts.put("x", 1);
    m.setPick(exu.Pick.ofCounts(counts));
    v.put("umap", m);
    exu.UHolder s = new exu.UHolder();
    s.setPick(exu.Pick.ofLabel("l"));
    v.put("ulabel", s);
    v.put("shapes", shapes());
    return v;
  }

  /** An instance with the types of foryc's generated classes (their own module). */
  static Fory generatedFory(org.apache.fory.ForyModule module, boolean compatible) {
    Fory f = Fory.builder().withXlang(true).withCompatible(compatible).withRefTracking(false)
        .requireClassRegistration(true).build();
    module.install(f);
    return f;
  }

  static exs.Leaf leaf(String label, int count) {
    exs.Leaf l = new exs.Leaf();
    l.setLabel(label);
    l.setCount(count);
    return l;
  }

  /**
   * The shapes of the upstream compiler's collection.fdl and example.fdl in a schema of ours
   * (fixtures/schemas/exact/shapes.fdl), through foryc's Java classes (issue 11 item 2); the
   * same values as models_py.py's.
   */
  static exs.Shapes shapes() {
    exs.Shapes s = new exs.Shapes();
    s.setSmallInts(exs.NumList.ofI8(new Int8List(new byte[] {1, -2, 3})));
    s.setBigUints(exs.NumList.ofU64(new UInt64List(new long[] {0, -1})));
    s.setFloats(exs.NumList.ofF32(new Float32List(new float[] {1.5f, -0.25f})));
    s.setShortArray(exs.NumArray.ofI16(new short[] {7, -8}));
    s.setUintArray(exs.NumArray.ofU32(new int[] {1, -1}));
    s.setDoubleArray(exs.NumArray.ofF64(new double[] {0.5}));
    s.setEither(exs.LeafOrNote.ofLeaf(leaf("l", 2)));
    s.setEithers(new ArrayList<>(List.of(exs.LeafOrNote.ofNote("n"), exs.LeafOrNote.ofCode(5),
        exs.LeafOrNote.ofLeaf(leaf("m", 3)))));
    Map<String, exs.LeafOrNote> byName = new LinkedHashMap<>();
    byName.put("a", exs.LeafOrNote.ofCode(9));
    byName.put("b", exs.LeafOrNote.ofLeaf(leaf("x", 0)));
    s.setEitherByName(byName);
    exs.NumLists nl = new exs.NumLists();
    nl.setI8(new Int8List(new byte[] {1}));
    nl.setI16(new Int16List(new short[] {-2}));
    nl.setI32(new Int32List(new int[] {3}));
    nl.setI64(new Int64List(new long[] {-4}));
    nl.setU8(new UInt8List(new byte[] {5}));
    nl.setU16(new UInt16List(new short[] {6}));
    nl.setU32(new UInt32List(new int[] {7}));
    nl.setU64(new UInt64List(new long[] {8}));
    nl.setF32(new Float32List(new float[] {0.5f}));
    nl.setF64(new Float64List(new double[] {-1.5}));
    s.setLists(nl);
    exs.NumArrays na = new exs.NumArrays();
    na.setI8(new byte[] {1});
    na.setI16(new short[] {-2});
    na.setI32(new int[] {3});
    na.setI64(new long[] {-4});
    na.setU8(new byte[] {5});
    na.setU16(new short[] {6});
    na.setU32(new int[] {7});
    na.setU64(new long[] {8});
    na.setF32(new float[] {0.5f});
    na.setF64(new double[] {-1.5});
    s.setArrays(na);
    s.setMood(exs.Mood.ANGRY);
    s.setLeaves(new ArrayList<>(List.of(leaf("p", 1), leaf("q", 2))));
    Map<String, exs.Leaf> leaves = new LinkedHashMap<>();
    leaves.put("k", leaf("v", 7));
    s.setLeafByName(leaves);
    return s;
  }

  static Fory foryFor(String name, boolean compatible) {
    if (name.equals("shapes")) {
      return generatedFory(exs.ExsForyModule.INSTANCE, compatible);
    }
    return name.startsWith("u") && unionValues().containsKey(name)
        ? generatedFory(exu.ExuForyModule.INSTANCE, compatible) : fory(compatible, ref(name));
  }

  /** Models written with a buffer callback. */
  static boolean oob(String name) {
    return name.equals("blobs");
  }

  /**
   * The payload and its out-of-band buffers as "HEX [BUFFER ...]" (an empty buffer is "-"):
   * bodies of 2 bytes or more out of band (the callback returns false).
   */
  static String serializeOob(Fory f, Object value, HexFormat hx) {
    List<String> bufs = new ArrayList<>();
    byte[] bytes = f.serialize(value, bo -> {
      if (bo.totalBytes() < 2) {
        return true;
      }
      MemoryBuffer m = bo.toBuffer();
      String h = hx.formatHex(m.getBytes(0, m.size()));
      bufs.add(h.isEmpty() ? "-" : h);
      return false;
    });
    StringBuilder sb = new StringBuilder(hx.formatHex(bytes));
    for (String h : bufs) {
      sb.append(' ').append(h);
    }
    return sb.toString();
  }

  static boolean ref(String name) {
    return name.equals("order") || name.equals("shared") || name.equals("reflist")
        || name.equals("nests") || name.equals("nestedref");
  }

  /** Field-by-field equality of the models (they define no equals). */
  static boolean same(Object a, Object b) {
    if (a == null || b == null) {
      return a == b;
    }
    if (a.getClass().isArray()) {
      if (!b.getClass().isArray() || Array.getLength(a) != Array.getLength(b)) {
        return false;
      }
      for (int i = 0; i < Array.getLength(a); i++) {
        if (!same(Array.get(a, i), Array.get(b, i))) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof Map) {
      Map<?, ?> ma = (Map<?, ?>) a;
      Map<?, ?> mb = (Map<?, ?>) b;
      return ma.size() == mb.size() && ma.entrySet().stream()
          .allMatch(en -> mb.containsKey(en.getKey()) && same(en.getValue(), mb.get(en.getKey())));
    }
    if (a instanceof Set) {
      return a.equals(b);
    }
    if (a instanceof Collection) {
      Collection<?> ca = (Collection<?>) a;
      Collection<?> cb = (Collection<?>) b;
      if (ca.size() != cb.size()) {
        return false;
      }
      Iterator<?> ib = cb.iterator();
      for (Object x : ca) {
        if (!same(x, ib.next())) {
          return false;
        }
      }
      return true;
    }
    if (a.getClass().getEnclosingClass() != ExactWriter.class || a.getClass().isEnum()) {
      return a.equals(b);
    }
    if (a.getClass() != b.getClass()) {
      return false;
    }
    try {
      for (Field f : a.getClass().getDeclaredFields()) {
        if (!Modifier.isStatic(f.getModifiers()) && !same(f.get(a), f.get(b))) {
          return false;
        }
      }
    } catch (IllegalAccessException e) {
      throw new RuntimeException(e);
    }
    return true;
  }

  public static void main(String[] args) throws Exception {
    java.io.PrintStream out = System.out;
    System.setOut(System.err); // the runtime logs to stdout
    HexFormat hx = HexFormat.of();
    Map<String, Object> values = values();
    values.putAll(unionValues());
    if (args.length > 0 && args[0].equals("--read")) {
      java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
      for (String line; (line = in.readLine()) != null; ) {
        if (line.isBlank()) {
          continue;
        }
        String[] kv = line.trim().split("\\s+");
        String name = kv[0].substring(0, kv[0].indexOf('.'));
        boolean compatible = kv[0].endsWith(".compat") || kv[0].endsWith(".compat.plain");
        boolean identity = !kv[0].endsWith(".plain"); // plain JSON carries none
        String verdict;
        try {
          byte[] bytes = hx.parseHex(kv[1]);
          if (kv[0].endsWith(".v2")) {
            out.println(kv[0] + " " + readV2(name, kv[0].contains(".compat."), bytes));
            continue;
          }
          Object got;
          if (bytes.length > 0 && bytes[0] == 3) { // header 03: the out-of-band buffers follow
            List<MemoryBuffer> bufs = new ArrayList<>();
            for (int i = 2; i < kv.length; i++) {
              bufs.add(MemoryBuffer.fromByteArray(hx.parseHex(kv[i].replace("-", ""))));
            }
            got = foryFor(name, compatible).deserialize(bytes, bufs);
          } else {
            got = foryFor(name, compatible).deserialize(bytes);
          }
          verdict = same(values.get(name), got) ? "ok" : "differs";
          if (identity && name.equals("order") && verdict.equals("ok")
              && ((Order) got).shipping != ((Order) got).customer.addresses.get(0)) {
            verdict = "differs: the shipping address is not shared";
          }
          if (identity && name.equals("shared") && verdict.equals("ok")
              && ((SharedLists) got).first != ((SharedLists) got).second) {
            verdict = "differs: the list is not shared";
          }
        } catch (Throwable e) {
          verdict = "error: " + e.toString().replace('\n', ' ');
        }
        out.println(kv[0] + " " + verdict);
      }
      return;
    }
    for (Map.Entry<String, Object> en : values.entrySet()) {
      for (String mode : new String[] {"compat", "same"}) {
        Fory f = foryFor(en.getKey(), mode.equals("compat"));
        out.println(en.getKey() + "." + mode + " " + (oob(en.getKey())
            ? serializeOob(f, en.getValue(), hx) : hx.formatHex(f.serialize(en.getValue()))));
      }
    }
  }
}
