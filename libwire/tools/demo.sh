#!/bin/sh
# A tour of the CLI (`make demo`): encode sample values from the value
# notation, dump the bytes, decode them and check the round trip. (The
# conformance suite is `make conform`.)
set -eu
WIRE=${1:-build/bin/wire}
samples='{"varint64": "300"}
{"string": "héllo"}
{"string": "日本"}
{"list": [{"varint64": "1"}, {"string": "a"}, {"null": null}]}
{"map": [[{"string": "a"}, {"varint64": "1"}], [{"null": null}, {"float64": "1.5"}]]}
{"decimal": {"unscaled": "12345", "scale": 2}}
{"date": "18954"}
{"int32_array": ["1", "-2", "3"]}
{"anchor": "self", "list": [{"ref": "self"}]}'
echo "== value notation in"
echo "$samples"
hex=$(printf '%s\n' "$samples" | "$WIRE" encode --hex --ref)
echo "== bytes (hex)"
echo "$hex"
echo "== annotated dump"
echo "$hex" | "$WIRE" dump --hex
echo "== decoded"
echo "$hex" | "$WIRE" decode --hex
again=$(echo "$hex" | "$WIRE" decode --hex | "$WIRE" encode --hex)
if [ "$again" = "$hex" ]; then
  echo "== decode | encode reproduces the bytes: yes"
else
  echo "== decode | encode reproduces the bytes: NO"
  exit 1
fi
