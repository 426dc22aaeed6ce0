/* frame.test.js -- objectEnd(): where a msgpack object ends, and what it
 * refuses, on bytes made by the encoder and by hand.  No daemon.
 */
'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { Encoder } = require('@msgpack/msgpack');
const { objectEnd } = require('../lib/frame');

const MAX = 1 << 20;
const enc = new Encoder({ useBigInt64: true });

/* Objects that use every family of the format. */
const SAMPLES = [
    0,
    -1,
    -33,
    255,
    65535,
    2 ** 32,
    -(2 ** 40),
    2n ** 64n - 1n,
    1.5,
    null,
    true,
    '',
    'pong',
    'x'.repeat(40),
    'y'.repeat(300),
    'z'.repeat(70000),
    new Uint8Array(10),
    new Uint8Array(300),
    [],
    [1, [2, [3, []]]],
    Array.from({ length: 20 }, (_, i) => i),
    { status: 'solved', solution: '1234', count: 2, nested: { a: [1, 2, { b: null }] } },
    Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, i])),
    [1, 2, null, { code: 'bad_puzzle', message: 'got 3 cells' }],
];

test('every prefix is incomplete; the whole object ends where it ends', () => {
    for (const v of SAMPLES) {
        const bytes = Buffer.from(enc.encode(v));
        const step = bytes.length > 1000 ? 997 : 1;
        for (let n = 0; n < bytes.length; n += step)
            assert.equal(objectEnd(bytes.subarray(0, n), 0, MAX, 32), -1, `${n} bytes of ${bytes.length}`);
        assert.equal(objectEnd(bytes, 0, MAX, 32), bytes.length);
    }
});

test('objects back to back, found from an offset', () => {
    const parts = SAMPLES.map((v) => Buffer.from(enc.encode(v)));
    const all = Buffer.concat(parts);
    let off = 0;
    for (const p of parts) {
        const end = objectEnd(all, off, MAX, 32);
        assert.equal(end, off + p.length);
        off = end;
    }
    assert.equal(off, all.length);
});

test('fixext and ext are framed by their lengths', () => {
    // fixext 1 (d4 type data), fixext 16, ext8 of 3 bytes (c7 03 type ...)
    assert.equal(objectEnd(Buffer.from([0xd4, 1, 2]), 0, MAX, 32), 3);
    assert.equal(objectEnd(Buffer.alloc(18, 0xd8), 0, MAX, 32), 18);
    assert.equal(objectEnd(Buffer.from([0xc7, 3, 1, 9, 9, 9]), 0, MAX, 32), 6);
    assert.equal(objectEnd(Buffer.from([0xc7, 3, 1, 9, 9]), 0, MAX, 32), -1);
});

test('refused: the reserved byte, a forged length, too deep', () => {
    assert.throws(() => objectEnd(Buffer.from([0x91, 0xc1]), 0, MAX, 32), /0xc1/);
    // array32 of 4 billion: refused from its 5 header bytes.
    assert.throws(() => objectEnd(Buffer.from([0xdd, 0xff, 0xff, 0xff, 0xff]), 0, MAX, 32), /over/);
    assert.throws(() => objectEnd(Buffer.from([0xdf, 0x7f, 0xff, 0xff, 0xff]), 0, MAX, 32), /over/);
    // str32 announcing 2 GiB.
    assert.throws(() => objectEnd(Buffer.from([0xdb, 0x80, 0, 0, 0]), 0, MAX, 32), /over/);
    // Exactly at the limit is fine, one byte over is not.
    const s = Buffer.from(enc.encode('a'.repeat(100)));
    assert.equal(objectEnd(s, 0, s.length, 32), s.length);
    assert.throws(() => objectEnd(s, 0, s.length - 1, 32), /over/);
    const deep = Buffer.concat([Buffer.alloc(33, 0x91), Buffer.from([0])]);
    assert.throws(() => objectEnd(deep, 0, MAX, 32), /deeper/);
    assert.equal(objectEnd(deep.subarray(1), 0, MAX, 32), deep.length - 1);
});
