/* errors.test.js -- every error code, the daemon's and the client's own.
 *
 * The daemon's codes come from a real sudokud (one started with the liar9
 * test plugin for `internal`, small limits for `overloaded` and
 * `too_large`); the client's codes from real situations (no daemon, a stale
 * socket, close()) and, for what a correct daemon never sends, from a
 * scripted fake daemon.
 */
'use strict';

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { Encoder } = require('@msgpack/msgpack');
const { Client, SudokudError, DAEMON_CODES, CLIENT_CODES } = require('..');
const h = require('./harness');

let daemon;
let client;

before(async () => {
    const args = ['-j', '2'];
    if (fs.existsSync(h.LIAR_PLUGIN)) args.push('--plugin', h.LIAR_PLUGIN);
    daemon = await h.startDaemon({ args });
    client = await Client.connect({ socket: daemon.sock });
});

after(async () => {
    await client.close();
    await daemon.stop();
});

const P = h.puzzles('kaggle_sample.txt')[0];
const P25 = h.puzzles('25x25_easy.txt')[0];
const enc = new Encoder();

/* Wait (up to 2 s) until the daemon has nothing queued or running; returns
 * the last in_flight seen. */
async function drained() {
    let s;
    for (let i = 0; i < 200; i++) {
        s = await client.stats();
        if (s.in_flight === 0) break;
        await h.sleep(10);
    }
    return s.in_flight;
}

/* An error from the daemon answering one request: fatal false. */
async function rejectsWith(promise, code, message) {
    await assert.rejects(promise, (err) => {
        assert.ok(err instanceof SudokudError, `${err} is a SudokudError`);
        assert.equal(err.code, code, err.message);
        if (message) assert.match(err.message, message);
        return true;
    });
}

test('the codes are the contract\'s', () => {
    assert.equal(DAEMON_CODES.length, 11);
    for (const c of ['bad_request', 'not_unique', 'too_large']) assert.ok(DAEMON_CODES.includes(c));
    for (const c of ['connect', 'closed', 'protocol', 'client_timeout', 'usage'])
        assert.ok(CLIENT_CODES.includes(c));
});

test('bad_request: an option of the wrong type or out of range, params to ping', async () => {
    await rejectsWith(client.solve(P, { limit: 0 }), 'bad_request');
    await rejectsWith(client.solve(P, { limit: 'two' }), 'bad_request');
    await rejectsWith(client.solve(P, { timeout_ms: 0 }), 'bad_request');
    await rejectsWith(client.generate({ symmetry: 'spiral' }), 'bad_request', /rotate180/);
    await rejectsWith(client.generate({ count: 1001 }), 'bad_request');
    await rejectsWith(client.generate({ difficulty: 'easy', min_rating: 1 }), 'bad_request');
    await rejectsWith(client.call('ping', [1]), 'bad_request');
    await rejectsWith(client.call('solve', []), 'bad_request');
    // The connection outlives every one of them.
    assert.equal(await client.ping(), 'pong');
});

test('unknown_method', async () => {
    await rejectsWith(client.call('solve_all_the_things'), 'unknown_method');
    await rejectsWith(client.call('cancel', [1]), 'unknown_method');
});

test('bad_puzzle: a wrong cell count, a bad symbol, a broken rule', async () => {
    await rejectsWith(client.solve('123'), 'bad_puzzle', /3 cells/);
    await rejectsWith(client.solve('x' + P.slice(1)), 'bad_puzzle');
    await rejectsWith(client.solve('55' + '.'.repeat(79)), 'bad_puzzle', /row 1/);
    await rejectsWith(client.solve([1, 2, 3]), 'bad_puzzle');
});

test('unknown_solver', async () => {
    await rejectsWith(client.solve(P, { solver: 'no-such-solver' }), 'unknown_solver');
    await rejectsWith(client.explain(P, { solver: 'no-such-solver' }), 'unknown_solver');
});

test('unsupported: explain of 25x25, a solver that cannot take the size', async () => {
    await rejectsWith(client.explain(P25), 'unsupported');
    await rejectsWith(client.rate(P25), 'unsupported');
    await rejectsWith(client.explain(P, { solver: 'bitmask' }), 'unsupported');
});

test('unsupported and internal from a plugin that lies', async (t) => {
    if (!fs.existsSync(h.LIAR_PLUGIN)) {
        t.skip(`no ${h.LIAR_PLUGIN}: build the tests first`);
        return;
    }
    await rejectsWith(client.solve(h.blank(4), { solver: 'liar9' }), 'unsupported');
    await rejectsWith(client.solve(P, { solver: 'liar9' }), 'internal');
});

test('timeout: the daemon\'s deadline passes first', async () => {
    // Counting every solution of the blank grid never ends before its deadline.
    const t0 = Date.now();
    await rejectsWith(client.solve(h.blank(9), { limit: 1e15, timeout_ms: 150 }), 'timeout');
    assert.ok(Date.now() - t0 >= 100);
});

test('not_unique: no solution, more than one', async () => {
    await rejectsWith(client.explain(h.blank(9)), 'not_unique', /more than one/);
    const none = '12345678.' + '........9' + '.'.repeat(63);
    await rejectsWith(client.rate(none), 'not_unique', /no solution/);
});

test('cancelled: an aborted call, answered at once, its work stopped', async () => {
    const ac = new AbortController();
    const t0 = Date.now();
    const slow = client.solve(h.blank(9), { limit: 1e15, timeout_ms: 20000, signal: ac.signal });
    await h.sleep(100);
    ac.abort();
    await rejectsWith(slow, 'cancelled');
    assert.ok(Date.now() - t0 < 5000);
    // The cancel notification reached the daemon: nothing is left running
    // long before the 20 s deadline.
    assert.equal(await drained(), 0);
    // A signal aborted before the call: nothing is sent.
    const before = (await client.stats()).requests;
    await rejectsWith(client.solve(P, { signal: AbortSignal.abort() }), 'cancelled');
    assert.equal((await client.stats()).requests, before + 1); // the stats call itself
});

test('overloaded: a connection over --max-connections', async () => {
    const d = await h.startDaemon({ args: ['--max-connections', '1'] });
    // The harness's readiness probe was a connection too: until the daemon
    // has seen it go, the first client may be the one refused.
    let first;
    for (let i = 0; !first; i++) {
        const c = new Client({ socket: d.sock });
        try {
            await c.ping();
            first = c;
        } catch (err) {
            await c.close();
            if (err.code !== 'overloaded' || i === 100) throw err;
            await h.sleep(10);
        }
    }
    try {
        const second = new Client({ socket: d.sock });
        await assert.rejects(second.ping(), (err) => {
            assert.equal(err.code, 'overloaded');
            assert.equal(err.fatal, true);
            return true;
        });
        await second.close();
        assert.equal(await first.ping(), 'pong');
    } finally {
        await first.close();
        await d.stop();
    }
});

test('too_large: a message over --max-message ends the connection, the next call reconnects', async () => {
    const d = await h.startDaemon({ args: ['--max-message', '4096'] });
    const c = new Client({ socket: d.sock });
    try {
        const other = c.solve(P); // in flight on the same connection when it ends
        await assert.rejects(c.solve('.'.repeat(8000)), (err) => {
            assert.equal(err.code, 'too_large');
            assert.equal(err.fatal, true);
            return true;
        });
        await other.then(
            (r) => h.checkSolution(P, r.solution), // answered before the big one was read
            (err) => assert.equal(err.code, 'too_large'),
        );
        h.checkSolution(P, (await c.solve(P)).solution);
    } finally {
        await c.close();
        await d.stop();
    }
});

test('connect: no daemon, a stale socket; the message names the socket', async () => {
    const dir = h.tempDir();
    const nowhere = path.join(dir, 'none.sock');
    await assert.rejects(new Client({ socket: nowhere }).ping(), (err) => {
        assert.equal(err.code, 'connect');
        assert.equal(err.message, `no socket at ${nowhere}: is sudokud running?`);
        return true;
    });
    const d = await h.startDaemon();
    d.proc.kill('SIGKILL'); // leaves its socket file behind
    await d.exited;
    await assert.rejects(Client.connect({ socket: d.sock }), (err) => {
        assert.equal(err.code, 'connect');
        assert.match(err.message, /nothing listens on .* \(a stale socket\)/);
        return true;
    });
    const long = '/tmp/' + 'x'.repeat(120) + '.sock';
    await assert.rejects(Client.connect({ socket: long }), { code: 'connect', message: /too long/ });
});

test('closed: close() fails what is in flight and every later call', async () => {
    const c = await Client.connect({ socket: daemon.sock });
    const slow = c.solve(h.blank(9), { limit: 1e15, timeout_ms: 5000 });
    const rejected = rejectsWith(slow, 'closed');
    await h.sleep(20);
    await c.close();
    await rejected;
    await rejectsWith(c.ping(), 'closed');
});

test('client_timeout: no answer within the call\'s or the client\'s timeout', async () => {
    const t0 = Date.now();
    await rejectsWith(
        client.solve(h.blank(9), { limit: 1e15, timeout_ms: 20000, timeout: 100 }),
        'client_timeout',
        /within 100 ms/,
    );
    assert.ok(Date.now() - t0 < 5000);
    assert.equal(await drained(), 0, 'the timed-out solve was cancelled in the daemon');
    const c = new Client({ socket: daemon.sock, timeout: 80 });
    try {
        await rejectsWith(c.solve(h.blank(9), { limit: 1e15, timeout_ms: 20000 }), 'client_timeout');
        assert.equal(await c.ping(), 'pong'); // the connection stays usable
        // timeout 0 on the call: wait for the answer however long.
        const r = await c.solve(P, { timeout: 0 });
        h.checkSolution(P, r.solution);
        assert.equal(await drained(), 0);
    } finally {
        await c.close();
    }
});

test('usage: what cannot be sent is refused before it is', async () => {
    await rejectsWith(client.solve(42), 'usage');
    await rejectsWith(client.explain({ cells: [] }), 'usage');
    await rejectsWith(client.generate({ seed: 2n ** 64n }), 'usage');
    await assert.rejects(client.solveMany([P], { window: 0 }), { code: 'usage' });
    await assert.rejects(client.solveMany([P], { window: 4097 }), { code: 'usage' });
});

test('protocol: bytes that are not msgpack, a forged header, a bad answer', async () => {
    // Each connection of the fake answers its first request its own wrong way.
    const wrong = [
        Buffer.from([0xc1]),
        Buffer.from([0xdd, 0xff, 0xff, 0xff, 0xff]), // array32 of 4 billion
        enc.encode({ not: 'an array' }),
        enc.encode([1, 1, 'an error that is a string', null]),
        enc.encode([2, 'error', []]),
    ];
    const fake = await h.fakeDaemon((s, msg, index) => s.write(wrong[index]));
    try {
        for (let i = 0; i < wrong.length; i++) {
            const c = new Client({ socket: fake.sock });
            await assert.rejects(c.ping(), (err) => {
                assert.equal(err.code, 'protocol', `case ${i}: ${err.message}`);
                assert.equal(err.fatal, true);
                return true;
            });
            await c.close();
        }
    } finally {
        await h.stopFake(fake);
    }
});

test('protocol: a well-framed answer of the wrong shape fails only its call', async () => {
    const fake = await h.fakeDaemon((s, msg) => {
        const [, id, method] = msg;
        if (method === 'ping') s.write(enc.encode([1, id, null, 'pong']));
        else if (method === 'solve') s.write(enc.encode([1, id, null, 'not a map']));
        else s.write(enc.encode([1, id, null, [{ puzzle: '.', solution: '1' }]]));
    });
    const c = new Client({ socket: fake.sock });
    try {
        await rejectsWith(c.solve(P), 'protocol', /not a map/);
        await rejectsWith(c.generate(), 'protocol', /seed/);
        assert.equal(await c.ping(), 'pong');
    } finally {
        await c.close();
        await h.stopFake(fake);
    }
});

test('an error notification ends the connection with its code', async () => {
    const fake = await h.fakeDaemon((s) => {
        s.write(enc.encode([2, 'error', [{ code: 'bad_request', message: 'not msgpack' }]]));
        s.end();
    });
    const c = new Client({ socket: fake.sock });
    try {
        await assert.rejects(c.ping(), { code: 'bad_request', message: 'not msgpack', fatal: true });
    } finally {
        await c.close();
        await h.stopFake(fake);
    }
});
