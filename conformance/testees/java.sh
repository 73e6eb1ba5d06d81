#!/bin/sh
# Conformance testee: the Apache Fory Java runtime (fory-core from Maven
# Central) through the peer in conformance/peers/java.
#   wire conform --testee conformance/testees/java.sh
# Builds the peer jar first if it is missing (needs JDK 17+ and Maven), then
# the user types: foryc 1.7.7's Java classes for every schema set the
# fixtures name, compiled once into build/conformance/usertypes-java
# (conformance/peers/usertypes; skipped when nothing changed). Without them
# (JAVA_PEER_USERTYPES=0) the peer claims the built-in value types only.
root=$(cd "$(dirname "$0")/../.." && pwd)
jar="$root/conformance/peers/java/target/fory-java-peer.jar"
if [ ! -f "$jar" ]; then
  mvn -q -f "$root/conformance/peers/java/pom.xml" package -DskipTests >&2 || exit 1
fi
ut="$root/build/conformance/usertypes-java"
if [ "${JAVA_PEER_USERTYPES:-1}" != 0 ]; then
  python3 "$root/conformance/peers/usertypes" java --classpath "$jar" --out "$ut" >&2 || exit 1
  exec java -Dlibwire.usertypes="$ut" -Dlibwire.root="$root" -jar "$jar" "$@"
fi
exec java -jar "$jar" "$@"
