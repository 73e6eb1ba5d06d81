package dev.libwire.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import dev.libwire.bench.ForyModel.Image;
import dev.libwire.bench.ForyModel.ImageRest;
import dev.libwire.bench.ForyModel.Media;
import dev.libwire.bench.ForyModel.MediaContent;
import dev.libwire.bench.ForyModel.MediaContentList;
import dev.libwire.bench.ForyModel.MediaRest;
import dev.libwire.bench.ForyModel.NumericStruct;
import dev.libwire.bench.ForyModel.NumericStructList;
import dev.libwire.bench.ForyModel.Player;
import dev.libwire.bench.ForyModel.Sample;
import dev.libwire.bench.ForyModel.SampleList;
import dev.libwire.bench.ForyModel.SampleRest;
import dev.libwire.bench.ForyModel.Size;
import org.apache.fory.Fory;
import org.apache.fory.annotation.ForyField;
import org.apache.fory.builder.Generated;
import org.apache.fory.memory.MemoryBuffer;
import org.apache.fory.serializer.DeferedLazySerializer;
import org.apache.fory.serializer.Serializer;

/**
 * The Fory Java (fory-core 1.6.0) side of libwire's benchmark of Fory's six workloads
 * (bench/README.md). Modes:
 *
 * <pre>
 *   bytes OUTDIR          write OUTDIR/&lt;Workload&gt;.bin, print and check the sizes
 *   read DIR              read DIR/&lt;Workload&gt;.bin (another writer's bytes) and check that
 *                         the value equals ours (re-serialized to our own bytes)
 *   ns WARMUP_MS ROUNDS   thread-CPU time per operation, batches interleaved
 * </pre>
 *
 * <p>Fory is built as Fory's own xlang benchmark builds it: xlang, compatible, codegen on
 * (checked: every struct serializer is a generated class), no reference tracking, registration
 * required. Serialize writes into one reused MemoryBuffer (writer index reset); deserialize reads
 * the byte array. The types (ForyModel, shared with the Kotlin binding's benchmark) are those of
 * the benchmark with the ids of its Rust side (so that one schema reads both runtimes' bytes);
 * NumericStruct's ints are varint, as in the published sizes. The mismatch read (fory-java:v2)
 * reads the same bytes with a second Fory whose types (the V2 classes here) widen one int32
 * field to int64.
 */
public final class ForyBench {
  static final int LIST_SIZE = 5;
  static final String[] NAMES = {
    "NumericStruct", "Sample", "MediaContent", "NumericStructList", "SampleList",
    "MediaContentList"
  };
  /** Sizes of Fory Java 1.6.0's bytes (shared/notes/performance.md). */
  static final int[] EXPECTED = {78, 445, 388, 255, 1978, 1661};

  public static class NumericStructV2 {
    @ForyField(id = 1) public long f1;
    @ForyField(id = 2) public int f2;
    @ForyField(id = 3) public int f3;
    @ForyField(id = 4) public int f4;
    @ForyField(id = 5) public int f5;
    @ForyField(id = 6) public int f6;
    @ForyField(id = 7) public int f7;
    @ForyField(id = 8) public int f8;
    @ForyField(id = 9) public int f9;
    @ForyField(id = 10) public int f10;
    @ForyField(id = 11) public int f11;
    @ForyField(id = 12) public int f12;
  }

  public static class SampleV2 extends SampleRest {
    @ForyField(id = 1) public long int_value;
  }

  public static class MediaV2 extends MediaRest {
    @ForyField(id = 3) public long width;
  }

  public static class ImageV2 extends ImageRest {
    @ForyField(id = 3) public long width;
  }

  public static class MediaContentV2 {
    @ForyField(id = 1) public MediaV2 media;
    @ForyField(id = 2) public List<ImageV2> images;
  }

  public static class NumericStructListV2 {
    @ForyField(id = 1) public List<NumericStructV2> struct_list;
  }

  public static class SampleListV2 {
    @ForyField(id = 1) public List<SampleV2> sample_list;
  }

  public static class MediaContentListV2 {
    @ForyField(id = 1) public List<MediaContentV2> media_content_list;
  }

  static Fory newFory() {
    return Fory.builder()
        .withXlang(true)
        .withCompatible(true)
        .withCodegen(true)
        .withRefTracking(false)
        .withClassVersionCheck(false)
        .requireClassRegistration(true)
        .build();
  }

  static void register(Fory f, boolean v2) {
    if (!v2) {
      ForyModel.register(f);
      return;
    }
    f.register(NumericStructV2.class, 1);
    f.register(SampleV2.class, 2);
    f.register(MediaV2.class, 3);
    f.register(ImageV2.class, 4);
    f.register(MediaContentV2.class, 5);
    f.register(Player.class, 6);
    f.register(Size.class, 7);
    f.register(NumericStructListV2.class, 8);
    f.register(SampleListV2.class, 9);
    f.register(MediaContentListV2.class, 10);
  }

  static Object value(int w) {
    switch (w) {
      case 0: return ForyModel.numericStruct();
      case 1: return ForyModel.sample();
      case 2: return ForyModel.mediaContent();
      case 3: {
        NumericStructList l = new NumericStructList();
        l.struct_list = new ArrayList<>();
        for (int i = 0; i < LIST_SIZE; i++) l.struct_list.add(ForyModel.numericStruct());
        return l;
      }
      case 4: {
        SampleList l = new SampleList();
        l.sample_list = new ArrayList<>();
        for (int i = 0; i < LIST_SIZE; i++) l.sample_list.add(ForyModel.sample());
        return l;
      }
      default: {
        MediaContentList l = new MediaContentList();
        l.media_content_list = new ArrayList<>();
        for (int i = 0; i < LIST_SIZE; i++) l.media_content_list.add(ForyModel.mediaContent());
        return l;
      }
    }
  }

  /** The V2 reader's view must carry the widened fields' values. */
  static void checkV2(int w, Object o) {
    boolean ok;
    switch (w) {
      case 0: ok = ((NumericStructV2) o).f1 == -12345 && ((NumericStructV2) o).f12 == -27182818;
        break;
      case 1: ok = ((SampleV2) o).int_value == 123; break;
      case 2: ok = mediaOk((MediaContentV2) o); break;
      case 3: {
        List<NumericStructV2> l = ((NumericStructListV2) o).struct_list;
        ok = l.size() == LIST_SIZE && l.get(4).f1 == -12345;
        break;
      }
      case 4: {
        List<SampleV2> l = ((SampleListV2) o).sample_list;
        ok = l.size() == LIST_SIZE && l.get(4).int_value == 123;
        break;
      }
      default: {
        List<MediaContentV2> l = ((MediaContentListV2) o).media_content_list;
        ok = l.size() == LIST_SIZE && mediaOk(l.get(4));
      }
    }
    if (!ok) die(NAMES[w] + ": the v2 reader got other values");
  }

  static boolean mediaOk(MediaContentV2 c) {
    return c.media.width == 641 && c.images.size() == 3 && c.images.get(0).width == 32000
        && c.images.get(2).width == 320 && c.images.get(0).title.equals("Javaone Keynote\u1234");
  }

  static void die(String msg) {
    System.err.println("fory-bench (java): " + msg);
    System.exit(1);
  }

  static void requireGenerated(Fory f, Class<?> cls) {
    Serializer<?> s = f.getTypeResolver().getSerializer(cls);
    if (s instanceof DeferedLazySerializer) {
      s = ((DeferedLazySerializer) s).resolveSerializer();
    }
    if (!(s instanceof Generated)) {
      die(cls.getSimpleName() + ": serializer " + s.getClass().getName() + " is not generated");
    }
  }

  final Fory writer = newFory();
  final Fory reader = newFory();
  final Fory readerV2 = newFory();
  final Object[] values = new Object[6];
  final byte[][] bytes = new byte[6][];
  final MemoryBuffer buffer = MemoryBuffer.newHeapBuffer(4096);

  ForyBench() {
    register(writer, false);
    register(reader, false);
    register(readerV2, true);
    for (int w = 0; w < 6; w++) {
      values[w] = value(w);
      bytes[w] = writer.serialize(values[w]);
      byte[] again = writer.serialize(reader.deserialize(bytes[w]));
      if (!Arrays.equals(again, bytes[w])) die(NAMES[w] + ": round trip changed the bytes");
      checkV2(w, readerV2.deserialize(bytes[w]));
    }
    for (Class<?> c : new Class<?>[] {NumericStruct.class, Sample.class, Media.class,
        Image.class, MediaContent.class, NumericStructList.class, SampleList.class,
        MediaContentList.class}) {
      requireGenerated(writer, c);
      requireGenerated(reader, c);
    }
  }

  int serializeOnce(int w) {
    buffer.writerIndex(0);
    writer.serialize(buffer, values[w]);
    return buffer.writerIndex();
  }

  /** op 0 ser, 1 de, 2 de by the v2 reader. */
  Object run(int op, int w) {
    switch (op) {
      case 0: return serializeOnce(w);
      case 1: return reader.deserialize(bytes[w]);
      default: return readerV2.deserialize(bytes[w]);
    }
  }

  static volatile Object sink;

  void ns(long warmupMs, int rounds) {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    String[][] labels = {{"ser", "fory-java"}, {"de", "fory-java"}, {"de", "fory-java:v2"}};
    // Warm-up: every operation, round robin, until the JIT has had warmupMs.
    long end = System.nanoTime() + warmupMs * 1_000_000L;
    while (System.nanoTime() < end) {
      for (int w = 0; w < 6; w++) {
        for (int op = 0; op < 3; op++) {
          for (int i = 0; i < 200; i++) sink = run(op, w);
        }
      }
    }
    for (int w = 0; w < 6; w++) {
      long[] batch = new long[3];
      for (int op = 0; op < 3; op++) {
        long k = 1;
        while (true) {
          long t0 = mx.getCurrentThreadCpuTime();
          for (long i = 0; i < k; i++) sink = run(op, w);
          long dt = mx.getCurrentThreadCpuTime() - t0;
          if (dt >= 2_000_000L || k >= (1L << 24)) break;
          k *= 2;
        }
        batch[op] = k;
      }
      double[][] samples = new double[3][rounds];
      for (int r = 0; r < rounds; r++) {
        for (int op = 0; op < 3; op++) {
          long t0 = mx.getCurrentThreadCpuTime();
          for (long i = 0; i < batch[op]; i++) sink = run(op, w);
          samples[op][r] = (mx.getCurrentThreadCpuTime() - t0) / (double) batch[op];
        }
      }
      for (int op = 0; op < 3; op++) {
        Arrays.sort(samples[op]);
        System.out.printf("NS %s %s %s %.1f%n", NAMES[w], labels[op][0], labels[op][1],
            samples[op][rounds / 2]);
      }
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      die("usage: bytes OUTDIR | read DIR | ns WARMUP_MS ROUNDS");
    }
    ForyBench b = new ForyBench();
    switch (args[0]) {
      case "bytes": {
        boolean bad = false;
        for (int w = 0; w < 6; w++) {
          Files.write(Path.of(args[1], NAMES[w] + ".bin"), b.bytes[w]);
          int n = b.bytes[w].length;
          String verdict = n == EXPECTED[w] ? "ok" : "MISMATCH";
          System.out.printf("SIZE %s fory-java %d expected=%d %s%n", NAMES[w], n, EXPECTED[w],
              verdict);
          bad |= n != EXPECTED[w];
          if (b.serializeOnce(w) != n) die(NAMES[w] + ": buffer serialize differs in size");
        }
        if (bad) die("sizes differ from the expected ones");
        break;
      }
      case "read": {
        for (int w = 0; w < 6; w++) {
          Path p = Path.of(args[1], NAMES[w] + ".bin");
          byte[] other = Files.readAllBytes(p);
          Object o = b.reader.deserialize(other);
          if (!Arrays.equals(b.writer.serialize(o), b.bytes[w])) {
            die(NAMES[w] + ": " + p + " holds other values");
          }
          checkV2(w, b.readerV2.deserialize(other));
          System.out.printf("READ %s %s %d bytes ok%n", NAMES[w], p, other.length);
        }
        break;
      }
      case "ns": {
        if (args.length < 3) die("usage: ns WARMUP_MS ROUNDS");
        b.ns(Long.parseLong(args[1]), Integer.parseInt(args[2]));
        break;
      }
      default:
        die("unknown mode " + args[0]);
    }
  }
}
