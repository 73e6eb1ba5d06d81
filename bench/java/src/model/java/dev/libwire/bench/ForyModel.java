package dev.libwire.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.fory.Fory;
import org.apache.fory.annotation.ForyField;

/**
 * The benchmark's structs as Fory Java classes (bench/schemas/bench.fdl: the field ids and
 * registration ids of Fory's benchmark suite, bench/README.md) and the values of its workloads.
 * One source for two builds: bench/java (ForyBench, the fory-java side of `make bench`) and the
 * Kotlin binding's ratio benchmark (bindings/kotlin/pom.xml compiles this directory as a test
 * source).
 */
public final class ForyModel {
  private ForyModel() {}

  public enum Player { JAVA, FLASH }

  public enum Size { SMALL, LARGE }

  public static class NumericStruct {
    @ForyField(id = 1) public int f1;
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

  /** Sample's fields after the first (the one ForyBench's SampleV2 widens); Fory reads a class's
   * inherited fields as its own, so both classes have the benchmark's 22 fields. */
  public abstract static class SampleRest {
    @ForyField(id = 2) public long long_value;
    @ForyField(id = 3) public float float_value;
    @ForyField(id = 4) public double double_value;
    @ForyField(id = 5) public int short_value;
    @ForyField(id = 6) public int char_value;
    @ForyField(id = 7) public boolean boolean_value;
    @ForyField(id = 8) public int int_value_boxed;
    @ForyField(id = 9) public long long_value_boxed;
    @ForyField(id = 10) public float float_value_boxed;
    @ForyField(id = 11) public double double_value_boxed;
    @ForyField(id = 12) public int short_value_boxed;
    @ForyField(id = 13) public int char_value_boxed;
    @ForyField(id = 14) public boolean boolean_value_boxed;
    @ForyField(id = 15) public int[] int_array;
    @ForyField(id = 16) public long[] long_array;
    @ForyField(id = 17) public float[] float_array;
    @ForyField(id = 18) public double[] double_array;
    @ForyField(id = 19) public int[] short_array;
    @ForyField(id = 20) public int[] char_array;
    @ForyField(id = 21) public boolean[] boolean_array;
    @ForyField(id = 22) public String string;
  }

  public static class Sample extends SampleRest {
    @ForyField(id = 1) public int int_value;
  }

  /** Media's fields but width (the one ForyBench's MediaV2 widens). */
  public abstract static class MediaRest {
    @ForyField(id = 1) public String uri;
    @ForyField(id = 2) public String title;
    @ForyField(id = 4) public int height;
    @ForyField(id = 5) public String format;
    @ForyField(id = 6) public long duration;
    @ForyField(id = 7) public long size;
    @ForyField(id = 8) public int bitrate;
    @ForyField(id = 9) public boolean has_bitrate;
    @ForyField(id = 10) public List<String> persons;
    @ForyField(id = 11) public Player player;
    @ForyField(id = 12) public String copyright;
  }

  public static class Media extends MediaRest {
    @ForyField(id = 3) public int width;
  }

  /** Image's fields but width (the one ForyBench's ImageV2 widens). */
  public abstract static class ImageRest {
    @ForyField(id = 1) public String uri;
    @ForyField(id = 2) public String title;
    @ForyField(id = 4) public int height;
    @ForyField(id = 5) public Size size;
  }

  public static class Image extends ImageRest {
    @ForyField(id = 3) public int width;
  }

  public static class MediaContent {
    @ForyField(id = 1) public Media media;
    @ForyField(id = 2) public List<Image> images;
  }

  public static class NumericStructList {
    @ForyField(id = 1) public List<NumericStruct> struct_list;
  }

  public static class SampleList {
    @ForyField(id = 1) public List<Sample> sample_list;
  }

  public static class MediaContentList {
    @ForyField(id = 1) public List<MediaContent> media_content_list;
  }

  /** Registers the structs, enums and lists under the benchmark's ids. */
  public static void register(Fory f) {
    f.register(NumericStruct.class, 1);
    f.register(Sample.class, 2);
    f.register(Media.class, 3);
    f.register(Image.class, 4);
    f.register(MediaContent.class, 5);
    f.register(Player.class, 6);
    f.register(Size.class, 7);
    f.register(NumericStructList.class, 8);
    f.register(SampleList.class, 9);
    f.register(MediaContentList.class, 10);
  }

  public static NumericStruct numericStruct() {
    NumericStruct s = new NumericStruct();
    s.f1 = -12345;
    s.f2 = 987654321;
    s.f3 = -31415;
    s.f4 = 27182818;
    s.f5 = -32000;
    s.f6 = 1000000;
    s.f7 = -999999999;
    s.f8 = 42;
    s.f9 = 123456789;
    s.f10 = -42;
    s.f11 = 31415926;
    s.f12 = -27182818;
    return s;
  }

  public static Sample sample() {
    Sample s = new Sample();
    s.int_value = 123;
    s.long_value = 1230000L;
    s.float_value = 12.345f;
    s.double_value = 1.234567;
    s.short_value = 12345;
    s.char_value = '!';
    s.boolean_value = true;
    s.int_value_boxed = 321;
    s.long_value_boxed = 3210000L;
    s.float_value_boxed = 54.321f;
    s.double_value_boxed = 7.654321;
    s.short_value_boxed = 32100;
    s.char_value_boxed = '$';
    s.boolean_value_boxed = false;
    s.int_array = new int[] {-1234, -123, -12, -1, 0, 1, 12, 123, 1234};
    s.long_array = new long[] {-123400, -12300, -1200, -100, 0, 100, 1200, 12300, 123400};
    s.float_array = new float[] {-12.34f, -12.3f, -12.0f, -1.0f, 0.0f, 1.0f, 12.0f, 12.3f, 12.34f};
    s.double_array = new double[] {-1.234, -1.23, -12.0, -1.0, 0.0, 1.0, 12.0, 1.23, 1.234};
    s.short_array = new int[] {-1234, -123, -12, -1, 0, 1, 12, 123, 1234};
    s.char_array = "asdfASDF".chars().toArray();
    s.boolean_array = new boolean[] {true, false, false, true};
    s.string = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    return s;
  }

  public static Image image(String uri, String title, int width, int height, Size size) {
    Image i = new Image();
    i.uri = uri;
    i.title = title;
    i.width = width;
    i.height = height;
    i.size = size;
    return i;
  }

  public static MediaContent mediaContent() {
    Media m = new Media();
    m.uri = "http://javaone.com/keynote.ogg";
    m.title = "";
    m.width = 641;
    m.height = 481;
    m.format = "video/theora\u1234";
    m.duration = 18000001L;
    m.size = 58982401L;
    m.bitrate = 0;
    m.has_bitrate = false;
    m.persons = new ArrayList<>(Arrays.asList("Bill Gates, Jr.", "Steven Jobs"));
    m.player = Player.FLASH;
    m.copyright = "Copyright (c) 2009, Scooby Dooby Doo";
    MediaContent c = new MediaContent();
    c.media = m;
    c.images = new ArrayList<>();
    c.images.add(image("http://javaone.com/keynote_huge.jpg", "Javaone Keynote\u1234", 32000,
        24000, Size.LARGE));
    c.images.add(image("http://javaone.com/keynote_large.jpg", "", 1024, 768, Size.LARGE));
    c.images.add(image("http://javaone.com/keynote_small.jpg", "", 320, 240, Size.SMALL));
    return c;
  }
}
