package dev.libwire.kotlin;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.fory.annotation.ForyField;
import org.apache.fory.annotation.Nullable;
import org.apache.fory.annotation.Ref;

/**
 * The Java side of DifferentialTest: plain classes for Fory Java 1.6.0, one per message of the
 * test's schema (field ids and registration ids as there), public fields named as the wire
 * names, so the test converts between them and its Kotlin data classes by reflection.
 */
public final class DiffModelJava {
  private DiffModelJava() {}

  public enum Hue { RED, GREEN, BLUE }

  public static class Leaf {
    @ForyField(id = 1) public String name;
    @ForyField(id = 2) public int n;
  }

  public static class Scalars {
    @ForyField(id = 1) public byte b;
    @ForyField(id = 2) public short s;
    @ForyField(id = 3) public int i;
    @ForyField(id = 4) public long l;
    @ForyField(id = 5) public float f;
    @ForyField(id = 6) public double d;
    @ForyField(id = 7) public boolean z;
    @ForyField(id = 8) @Nullable public Byte ob;
    @ForyField(id = 9) @Nullable public Short os;
    @ForyField(id = 10) @Nullable public Integer oi;
    @ForyField(id = 11) @Nullable public Long ol;
    @ForyField(id = 12) @Nullable public Float of;
    @ForyField(id = 13) @Nullable public Double od;
    @ForyField(id = 14) @Nullable public Boolean oz;
    @ForyField(id = 15) public String str;
    @ForyField(id = 16) @Nullable public String ostr;
    @ForyField(id = 17) public Hue hue;
    @ForyField(id = 18) @Nullable public Hue ohue;
    @ForyField(id = 19) public LocalDate day;
    @ForyField(id = 20) public Instant at;
    @ForyField(id = 21) public Duration span;
    @ForyField(id = 22) public BigDecimal dec;
    @ForyField(id = 23) @Nullable public LocalDate oday;
    @ForyField(id = 24) @Nullable public Instant oat;
    @ForyField(id = 25) @Nullable public Duration ospan;
    @ForyField(id = 26) @Nullable public BigDecimal odec;
    @ForyField(id = 27) public long weight_grams;
  }

  public static class Arrays {
    @ForyField(id = 1) public byte[] bin;
    @ForyField(id = 2) @Nullable public byte[] obin;
    @ForyField(id = 3) public boolean[] zs;
    @ForyField(id = 4) public short[] ss;
    @ForyField(id = 5) public int[] ints;
    @ForyField(id = 6) public long[] ls;
    @ForyField(id = 7) public float[] fs;
    @ForyField(id = 8) public double[] ds;
    @ForyField(id = 9) @Nullable public int[] oints;
  }

  public static class Colls {
    @ForyField(id = 1) public List<String> strs;
    @ForyField(id = 2) public List<Long> longs;
    @ForyField(id = 3) public List<Integer> ints;
    @ForyField(id = 4) public List<Double> dbls;
    @ForyField(id = 5) public Set<String> tags;
    @ForyField(id = 6) public List<@Nullable Leaf> leaves;
    @ForyField(id = 7) public Map<String, String> smap;
    @ForyField(id = 8) public Map<String, Long> lmap;
    @ForyField(id = 9) public Map<String, @Nullable Leaf> leafmap;
    @ForyField(id = 10) public Map<Integer, Double> imap;
    @ForyField(id = 11) @Nullable public List<String> ostrs;
    @ForyField(id = 12) public List<Hue> hues;
    @ForyField(id = 13) public List<@Nullable List<String>> nested;
    @ForyField(id = 14) public Set<Long> lset;
  }

  public static class Outer {
    @ForyField(id = 1) public Leaf leaf;
    @ForyField(id = 2) @Nullable public Leaf oleaf;
    @ForyField(id = 3) public Scalars sc;
    @ForyField(id = 4) public Arrays ar;
    @ForyField(id = 5) public Colls co;
  }

  public static class Node {
    @ForyField(id = 1) public String name;
    @ForyField(id = 2) @Ref @Nullable public Node next;
    @ForyField(id = 3) public List<@Ref Node> kids;
  }

  public static class Graph {
    @ForyField(id = 1) @Ref public Leaf a;
    @ForyField(id = 2) @Ref @Nullable public Leaf b;
    @ForyField(id = 3) public List<@Ref Leaf> many;
    @ForyField(id = 4) @Ref @Nullable public Node root;
    @ForyField(id = 5) public List<@Nullable Leaf> plain;
  }

  public static void register(org.apache.fory.Fory f) {
    f.register(Hue.class, 700);
    f.register(Leaf.class, 701);
    f.register(Scalars.class, 702);
    f.register(Arrays.class, 703);
    f.register(Colls.class, 704);
    f.register(Outer.class, 705);
    f.register(Node.class, 706);
    f.register(Graph.class, 707);
  }
}
