/* pipeline.test.js -- many requests on one connection, answers out of order,
 * solveMany's window and order, and reconnecting after the daemon restarts.
 *
 * The order of answers is shown with a real daemon (a quick request behind a
 * slow one is answered first) and, where the test needs a given order, with
 * a fake daemon that answers in reverse and counts what is in flight.
 */
'use strict';

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { Encoder } = require('@msgpack/msgpack');
const { Client, SudokudError } = require('..');
const h = require('./harness');

const NINE = h.puzzles('kaggle_sample.txt');
const enc = new Encoder();

let daemon;
let client;

before(async () => {
    daemon = await h.startDaemon({ args: ['-j', '2'] });
    client = await Client.connect({ socket: daemon.sock });
});

after(async () => {
    await client.close();
    await daemon.stop();
});

test('pipelining: quick answers overtake a slow one, each finds its call', async () => {
    const order = [];
    const slow = client
        .solve(h.blank(9), { limit: 1e15, timeout_ms: 1500 })
        .then(
            () => assert.fail('counting the blank grid should time out'),
            (err) => {
                assert.equal(err.code, 'timeout');
                order.push('slow');
            },
        );
    const quick = NINE.map((p, i) =>
        client.solve(p).then((r) => {
            h.checkSolution(p, r.solution); // the answer to this puzzle, not another's
            order.push(i);
        }),
    );
    const ping = client.ping().then(() => order.push('ping'));
    await Promise.all([slow, ...quick, ping]);
    assert.equal(order.length, NINE.length + 2);
    assert.equal(order[order.length - 1], 'slow');
});

test('pipelining: the same puzzle in both forms at once', async () => {
    const p = NINE[0];
    const [a, b] = await Promise.all([client.solve(p), client.solve(h.cellsOf(p))]);
    assert.equal(typeof a.solution, 'string');
    assert.ok(Array.isArray(b.solution));
    assert.deepEqual(h.cellsOf(a.solution), b.solution);
});

test('solveMany: answers in input order, failures in their place', async () => {
    const input = [...NINE.slice(0, 20), 'not a puzzle', NINE[20], '55' + '.'.repeat(79)];
    const out = await client.solveMany(input, { window: 4 });
    assert.equal(out.length, input.length);
    for (let i = 0; i < 20; i++) h.checkSolution(input[i], out[i].solution);
    assert.ok(out[20] instanceof SudokudError);
    assert.equal(out[20].code, 'bad_puzzle');
    h.checkSolution(input[21], out[21].solution);
    assert.equal(out[22].code, 'bad_puzzle');
    // Options go with every puzzle; an iterable other than an array will do.
    const gen = (function* () {
        yield NINE[30];
        yield h.cellsOf(NINE[31]);
    })();
    const two = await client.solveMany(gen, { solver: 'dlx', limit: 2 });
    assert.equal(two[0].solver, 'dlx');
    assert.equal(two[0].count, 1);
    h.checkSolution(NINE[31], two[1].solution);
    assert.deepEqual(await client.solveMany([]), []);
});

/* A fake daemon that holds solve requests until `batch` are in flight (or
 * `flush` is called), then answers them in reverse, each with its own puzzle
 * as "solution", recording the most ever in flight. */
async function reversingDaemon(batch) {
    const state = { held: [], maxInFlight: 0 };
    const flush = (s) => {
        for (const [id, puzzle] of state.held.reverse())
            s.write(enc.encode([1, id, null, { status: 'solved', solution: puzzle, count: 1 }]));
        state.held = [];
    };
    state.fake = await h.fakeDaemon((s, msg) => {
        const [, id, method, params] = msg;
        if (method !== 'solve') {
            flush(s);
            s.write(enc.encode([1, id, null, 'pong']));
            return;
        }
        state.held.push([id, params[0]]);
        state.maxInFlight = Math.max(state.maxInFlight, state.held.length);
        if (state.held.length === batch) flush(s);
    });
    return state;
}

test('solveMany: the window is reached and never exceeded; reversed answers come back in order', async () => {
    const window = 8;
    const fake = await reversingDaemon(window);
    const c = new Client({ socket: fake.fake.sock });
    try {
        const input = Array.from({ length: 40 }, (_, i) => `puzzle-${i}`);
        const out = await c.solveMany(input, { window });
        assert.deepEqual(
            out.map((r) => r.solution),
            input,
        );
        assert.equal(fake.maxInFlight, window);
    } finally {
        await c.close();
        await h.stopFake(fake.fake);
    }
});

test('solveMany: an abort rejects the batch and cancels what was in flight', async () => {
    const ac = new AbortController();
    const input = Array.from({ length: 6 }, () => h.blank(9));
    const batch = client.solveMany(input, {
        window: 2,
        limit: 1e15,
        timeout_ms: 20000,
        signal: ac.signal,
    });
    setTimeout(() => ac.abort(), 100);
    await assert.rejects(batch, { code: 'cancelled' });
    let s;
    for (let i = 0; i < 200; i++) {
        s = await client.stats();
        if (s.in_flight === 0) break;
        await h.sleep(10);
    }
    assert.equal(s.in_flight, 0);
});

test('solveMany: a daemon that cannot be reached rejects the batch', async () => {
    const c = new Client({ socket: `${h.tempDir()}/none.sock` });
    await assert.rejects(c.solveMany(NINE.slice(0, 5)), { code: 'connect' });
});

test('reconnect: a call after the daemon restarted finds the new one', async () => {
    const d = await h.startDaemon();
    const c = await Client.connect({ socket: d.sock });
    try {
        h.checkSolution(NINE[0], (await c.solve(NINE[0])).solution);
        const before = (await c.stats()).uptime_s;
        await d.stop();
        await d.start();
        h.checkSolution(NINE[1], (await c.solve(NINE[1])).solution);
        const s = await c.stats();
        assert.equal(s.requests, 2, 'the new daemon has seen this solve and stats only');
        assert.ok(s.uptime_s <= before + 1);
        // Stopped for good: the call fails, naming the socket.
        await d.stop();
        await assert.rejects(c.ping(), { code: 'connect', message: new RegExp(d.sock) });
        // And works again once the daemon is back.
        await d.start();
        assert.equal(await c.ping(), 'pong');
    } finally {
        await c.close();
        await d.stop();
    }
});

test('reconnect: a connection the daemon closed while idle', async () => {
    const d = await h.startDaemon({ args: ['--idle-timeout', '1'] });
    const c = await Client.connect({ socket: d.sock });
    try {
        const before = (await c.stats()).connections_total;
        await h.sleep(2200); // the daemon looks every 250 ms
        assert.equal(await c.ping(), 'pong');
        assert.equal((await c.stats()).connections_total, before + 1);
    } finally {
        await c.close();
        await d.stop();
    }
});

test('reconnect: a call lost with its connection is sent once more, not twice', async () => {
    // Connection 0 hangs up on its first request; connection 1 answers.
    const fake = await h.fakeDaemon((s, msg, index) => {
        if (index === 0) s.destroy();
        else s.write(enc.encode([1, msg[1], null, 'pong']));
    });
    const c = new Client({ socket: fake.sock });
    try {
        assert.equal(await c.ping(), 'pong');
        assert.equal(fake.connections.length, 2);
    } finally {
        await c.close();
        await h.stopFake(fake);
    }
    // Every connection hangs up: the call fails after one resend.
    const rude = await h.fakeDaemon((s) => s.destroy());
    const r = new Client({ socket: rude.sock });
    try {
        await assert.rejects(r.ping(), { code: 'closed', message: /lost the connection/ });
        assert.equal(rude.connections.length, 2);
    } finally {
        await r.close();
        await h.stopFake(rude);
    }
});

test('msgids: answers to given-up calls are dropped; ids stay unique', async () => {
    const c = await Client.connect({ socket: daemon.sock });
    try {
        const calls = [];
        for (let i = 0; i < 50; i++) {
            const ac = new AbortController();
            calls.push(
                c.solve(NINE[i % NINE.length], { signal: ac.signal }).then(
                    (r) => h.checkSolution(NINE[i % NINE.length], r.solution),
                    (err) => assert.equal(err.code, 'cancelled'),
                ),
            );
            if (i % 3 === 0) ac.abort();
        }
        await Promise.all(calls);
        assert.equal(await c.ping(), 'pong');
    } finally {
        await c.close();
    }
});

test('an idle client does not keep the process alive', async () => {
    const { spawnSync } = require('node:child_process');
    const script = `
        const { Client } = require(${JSON.stringify(require.resolve('..'))});
        const c = new Client({ socket: ${JSON.stringify(daemon.sock)} });
        c.ping().then((r) => console.log(r));`;
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 10000 });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'pong');
});
