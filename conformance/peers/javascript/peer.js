// Conformance testee (conformance/PROTOCOL.md) for @furyjs/fury 0.5.9-beta,
// the only Fory JavaScript runtime the npm registry serves (the 1.x package
// @apache-fory/core is not published). One JSON request per stdin line,
// one response per stdout line.
//
// The runtime predates the Fory 1.x xlang format (see README.md): it is
// driven as it is, with the value notation mapped onto plain JavaScript
// values, so what the suite reports is what the runtime does.
'use strict';
const readline = require('readline');
const Fury = require('@furyjs/fury').default;
const VERSION = require('@furyjs/fury/package.json').version;

class Unsupported extends Error {}

// notation -> JavaScript value
function build(node, anchors) {
  const keys = Object.keys(node).filter((k) => !['anchor', 'enc', 'header', 'chunks', 'approx', 'iso', 'tracked'].includes(k));
  if (keys.length !== 1) throw new Unsupported('node with keys ' + keys.join(','));
  const k = keys[0];
  const v = node[k];
  let out;
  if (k === 'ref') {
    if (!(v in anchors)) throw new Error('ref to unknown anchor ' + v);
    return anchors[v];
  } else if (k === 'null') out = null;
  else if (k === 'bool') out = v;
  else if (k === 'string') out = v;
  else if (k === 'float64') out = floatOf(v);
  else if (['int8', 'int16', 'int32', 'varint32'].includes(k)) out = Number(v);
  else if (['int64', 'varint64', 'tagged_int64'].includes(k)) out = BigInt(v);
  else if (k === 'binary') out = Buffer.from(v, 'hex');
  else if (k === 'list') {
    out = [];
    if (node.anchor) anchors[node.anchor] = out;
    for (const e of v) out.push(build(e, anchors));
    return out;
  } else if (k === 'set') {
    out = new Set();
    if (node.anchor) anchors[node.anchor] = out;
    for (const e of v) out.add(build(e, anchors));
    return out;
  } else if (k === 'map') {
    out = new Map();
    if (node.anchor) anchors[node.anchor] = out;
    for (const [a, b] of v) out.set(build(a, anchors), build(b, anchors));
    return out;
  } else throw new Unsupported('no JavaScript value for notation ' + k);
  if (node.anchor) anchors[node.anchor] = out;
  return out;
}

function floatOf(text) {
  if (/^0x[0-9a-f]+$/i.test(text)) {
    const b = Buffer.alloc(8);
    b.writeBigUInt64BE(BigInt(text));
    return b.readDoubleBE(0);
  }
  return Number(text);
}

function bits64(x) {
  const b = Buffer.alloc(8);
  b.writeDoubleBE(x);
  return '0x' + b.toString('hex');
}

// JavaScript value -> notation
function print(x) {
  if (x === null || x === undefined) return { null: null };
  if (typeof x === 'boolean') return { bool: x };
  if (typeof x === 'string') return { string: x };
  if (typeof x === 'bigint') return { varint64: x.toString() };
  if (typeof x === 'number') {
    if (Number.isInteger(x) && Math.abs(x) < 2 ** 31) return { varint32: String(x) };
    return { float64: bits64(x) };
  }
  if (Buffer.isBuffer(x) || x instanceof Uint8Array) return { binary: Buffer.from(x).toString('hex') };
  if (Array.isArray(x)) return { list: x.map(print) };
  if (x instanceof Set) return { set: [...x].map(print) };
  if (x instanceof Map) return { map: [...x].map(([a, b]) => [print(a), print(b)]) };
  throw new Unsupported('no notation for decoded ' + Object.prototype.toString.call(x));
}

function handle(req) {
  const cfg = req.config || {};
  const fury = new Fury({ refTracking: !!cfg.ref });
  if (req.schemas && req.schemas.length) throw new Unsupported('user types from FDL schemas');
  if (req.op === 'encode') {
    const parts = req.values.map((n) => Buffer.from(fury.serialize(build(n, {}))));
    return { ok: true, hex: Buffer.concat(parts).toString('hex') };
  }
  if (req.op === 'decode') {
    const data = Buffer.from(req.hex, 'hex');
    if (!data.length) return { ok: true, values: [] };
    // the runtime returns one value and not the bytes it consumed, so a
    // payload of several roots is read as its first root only
    return { ok: true, values: [print(fury.deserialize(data))] };
  }
  throw new Error('unknown op ' + req.op);
}

function main() {
  const out = (o) => process.stdout.write(JSON.stringify(o) + '\n');
  out({ hello: { name: '@furyjs/fury', runtime: 'Fury JavaScript', version: VERSION } });
  const rl = readline.createInterface({ input: process.stdin });
  rl.on('line', (line) => {
    if (!line.trim()) return;
    let req;
    try {
      req = JSON.parse(line);
    } catch (e) {
      out({ id: null, ok: false, class: 'error', message: 'bad request' });
      return;
    }
    let resp;
    try {
      resp = handle(req);
    } catch (e) {
      const cls = e instanceof Unsupported ? 'unsupported' : 'error';
      resp = { ok: false, class: cls, message: (e.constructor.name + ': ' + e.message).slice(0, 300) };
    }
    out(Object.assign({ id: req.id }, resp));
  });
}

main();
