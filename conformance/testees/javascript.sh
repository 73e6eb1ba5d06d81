#!/bin/sh
# Conformance testee: @furyjs/fury 0.5.9-beta (npm), the only Fory
# JavaScript runtime the registry serves, through
# conformance/peers/javascript/peer.js (`npm ci` in that directory first;
# .ci/setup does it). It predates the Fory 1.x xlang format: see
# conformance/peers/javascript/README.md.
root=$(cd "$(dirname "$0")/../.." && pwd)
exec node --stack-size=984 "$root/conformance/peers/javascript/peer.js" "$@"
