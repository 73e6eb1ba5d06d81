#!/bin/sh
# The README's "new project" promise, checked offline after `mvn package`
# (make test): a Java main outside the checkout, compiled against the
# packaged jar (target/libwire-kotlin-0.1.0.jar, not target/classes) and its
# two runtime dependencies, run with no -Dlibwire.path and no LIBWIRE_PATH:
# it must print the README's line and load libwire from the jar's resource.
# With a JDK older than 22 under /usr/lib/jvm, the same main (built for 17)
# must fail with the README's UnsupportedOperationException.
# (A Maven consumer project needs Maven's default plugins, which CI does not
# fetch; the classpath here is what such a project resolves.)
# On a Java runtime without javac (the jlinked Java 25 that .ci/setup installs
# from PyPI where no JDK 22+ exists), the main is compiled by the Eclipse
# compiler that the pom's profile ecj fetched into ~/.m2, with -source/-target
# (its --release needs ct.sym, which that runtime lacks).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
java_home=${JAVA_HOME:?JAVA_HOME must be a JDK 22+}
version=$(sed -n 's:^  <version>\(.*\)</version>:\1:p' "$here/pom.xml" | head -1)
kotlin=$(sed -n 's:.*<kotlin.version>\(.*\)</kotlin.version>.*:\1:p' "$here/pom.xml")
m2=${M2_REPO:-$HOME/.m2/repository}
jar="$here/target/libwire-kotlin-$version.jar"
cp="$jar:$m2/org/jetbrains/kotlin/kotlin-stdlib/$kotlin/kotlin-stdlib-$kotlin.jar"
cp="$cp:$m2/org/jetbrains/kotlin/kotlin-reflect/$kotlin/kotlin-reflect-$kotlin.jar"
ecj=""
if [ ! -x "$java_home/bin/javac" ]; then
  ecj_version=$(sed -n 's:.*<ecj.version>\(.*\)</ecj.version>.*:\1:p' "$here/pom.xml")
  ecj="$m2/org/eclipse/jdt/ecj/$ecj_version/ecj-$ecj_version.jar"
fi
for f in $(echo "$cp" | tr ':' ' ') $ecj; do
  [ -f "$f" ] || { echo "consumer-check: missing $f" >&2; exit 1; }
done
# compile RELEASE OUTDIR: the demo main, for Java RELEASE
compile() {
  if [ -z "$ecj" ]; then
    "$java_home/bin/javac" --release "$1" -cp "$cp" -d "$2" src/demo/Main.java
  else
    "$java_home/bin/java" -jar "$ecj" -source "$1" -target "$1" -cp "$cp" -d "$2" src/demo/Main.java
  fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src/demo"
cat > "$tmp/src/demo/Main.java" <<'JAVA'
package demo;

import dev.libwire.kotlin.Wire;
import java.util.List;

public class Main {
    public static void main(String[] args) {
        byte[] b = Wire.encode(List.of(1L, "two"));
        System.out.println(b.length + " bytes, back: " + Wire.decode(b));
        System.out.println(Wire.getLibraryLocation());
    }
}
JAVA
cd "$tmp"
compile 22 out22
out=$(env -u LIBWIRE_PATH "$java_home/bin/java" --enable-native-access=ALL-UNNAMED \
  -cp "out22:$cp" demo.Main 2>&1)
want1="12 bytes, back: [1, two]"
want2="jar:file:$jar!/dev/libwire/kotlin/native/linux-x86_64/libwire.so"
if [ "$out" != "$(printf '%s\n%s' "$want1" "$want2")" ]; then
  echo "consumer-check: JDK 22+ run printed:" >&2; echo "$out" >&2; exit 1
fi
echo "consumer-check: $want1, loaded from the jar"
old=""
for j in /usr/lib/jvm/*/; do
  r="$j/release"
  [ -x "$j/bin/java" ] && [ -f "$r" ] || continue
  v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$r")
  if [ -n "$v" ] && [ "$v" -lt 22 ]; then old=${j%/}; break; fi
done
if [ -z "$old" ]; then echo "consumer-check: no JDK older than 22 here, old-JDK run skipped"; exit 0; fi
compile 17 out17
if out=$("$old/bin/java" -cp "out17:$cp" demo.Main 2>&1); then
  echo "consumer-check: $old ran it:" >&2; echo "$out" >&2; exit 1
fi
case "$out" in
  *"Exception in thread \"main\" java.lang.UnsupportedOperationException: libwire-kotlin needs JDK 22 or newer (the java.lang.foreign API); this JVM is "*) ;;
  *) echo "consumer-check: $old failed otherwise:" >&2; echo "$out" >&2; exit 1 ;;
esac
echo "consumer-check: $old gets the JDK 22+ message"
