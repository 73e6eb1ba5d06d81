package dev.libwire.kotlin;

import java.util.List;
import org.apache.fory.annotation.Nullable;
import org.apache.fory.annotation.Ref;

/**
 * Java carriers of the exactness models that settle spec/errata.md E-53, E-55 and E-56
 * (libwire/tests/exact: Go's Words, ExactWriter's NullArrays, Leaf and RefListOff), registered
 * by name in namespace ex as the writers register them. ForyErrataTest reads the fixtures'
 * bytes with them.
 */
public final class ErrataModelsJava {
  private ErrataModelsJava() {}

  /** Go's Words (fixtures exact.go.0031, 0032). */
  public static class Words {
    public List<String> words;
  }

  /** Fory Java declares both fields not nullable (fixtures exact.java.0049, 0050). */
  public static class NullArrays {
    @Nullable public byte[] bin;
    @Nullable public int[] ints;
  }

  public static class Leaf {
    public int n;
  }

  /** Written without reference tracking (fixtures exact.java.0051, 0052). */
  public static class RefListOff {
    public List<@Ref Leaf> leaves;
  }
}
