// Prints what @furyjs/fury 0.5.9-beta writes for a few values and what it
// reads from Fory 1.x xlang payloads (the evidence in FINDING.md):
//   node conformance/peers/javascript/probe.js
'use strict';
const Fury = require('@furyjs/fury').default;

const fury = new Fury({ refTracking: true });
for (const v of [1, 'hi', true, null, 1.5, [1, 2]]) {
  console.log('writes %s -> %s', JSON.stringify(v), Buffer.from(fury.serialize(v)).toString('hex'));
}
// Fory 1.x xlang payloads (fixtures/valid): varint64 -1, string "hi",
// the three bytes 01 ff 00 (bool false), list [1]; then the 0.5.x form.
for (const hex of ['01ff0701', '01ff150868690', '01ff00', '01ff1601000702', '02ff0701',
                   '06001500000000000000ff0c00000000000000f03f']) {
  let out;
  try {
    out = JSON.stringify(fury.deserialize(Buffer.from(hex, 'hex')));
  } catch (e) {
    out = 'throws ' + e.constructor.name + ': ' + e.message;
  }
  console.log('reads  %s -> %s', hex, out);
}
