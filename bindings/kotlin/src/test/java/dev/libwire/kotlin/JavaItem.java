package dev.libwire.kotlin;

/**
 * The Java-side carrier of {@code message Item [id=102] { string name = 1; }}: a plain Java
 * class with one String field, registered with Fory by id 102. (Written in Java: Fory 1.6.0
 * wants a KSP-generated serializer for Kotlin classes.)
 */
public class JavaItem {
  public String name;

  public JavaItem() {}

  public JavaItem(String name) {
    this.name = name;
  }
}
