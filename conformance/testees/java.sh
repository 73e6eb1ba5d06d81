#!/bin/sh
# Conformance testee: the Apache Fory Java runtime (fory-core from Maven
# Central) through the peer in conformance/peers/java.
#   wire conform --testee conformance/testees/java.sh
# Builds the peer jar first if it is missing (needs JDK 17+ and Maven). The
# peer's hello lists no capabilities and it ignores "schemas", so the runner
# treats it as claiming the built-in value types only.
root=$(cd "$(dirname "$0")/../.." && pwd)
jar="$root/conformance/peers/java/target/fory-java-peer.jar"
if [ ! -f "$jar" ]; then
  mvn -q -f "$root/conformance/peers/java/pom.xml" package -DskipTests >&2 || exit 1
fi
exec java -jar "$jar" "$@"
