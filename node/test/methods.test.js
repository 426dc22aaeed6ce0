/* methods.test.js -- every method of docs/protocol.md against a real sudokud.
 *
 * Answers are checked by their meaning: solutions by the rules and the givens
 * (harness.js), uniqueness by a second solve with limit 2, generated puzzles
 * for their options (symmetry, band, givens, seed), never against stored
 * answers.
 */
'use strict';

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { Client, SudokudError } = require('..');
const { startDaemon, puzzles, cellsOf, checkSolution, blank } = require('./harness');

let daemon;
let client;

before(async () => {
    daemon = await startDaemon({ args: ['-j', '2'] });
    client = await Client.connect({ socket: daemon.sock });
});

after(async () => {
    await client.close();
    await daemon.stop();
});

const NINE = puzzles('kaggle_sample.txt');
const HARD = puzzles('norvig_top95.txt');
const SIXTEEN = puzzles('daemon_16x16.txt');
const TWENTYFIVE = puzzles('25x25_easy.txt');
const FOUR = '1.3.34..2.4...2.'; // protocol.md's example: more than one solution

/* A 9x9 whose givens break no rule but which has no solution: r1c9 can hold
 * only 9, and column 9 has its 9 already. */
const UNSOLVABLE = '12345678.' + '........9' + '.'.repeat(63);

/* The version method and float timeouts arrived in the coordinator's main in
 * parallel with this client; until a daemon has them, those tests skip. */
async function daemonHasVersion() {
    try {
        await client.version();
        return true;
    } catch (err) {
        if (err.code === 'unknown_method') return false;
        throw err;
    }
}

test('the checker rejects a grid that breaks a rule or changes a given', () => {
    const p = NINE[0];
    assert.throws(() => checkSolution(p, p), /holds 0/);
    const good = '417369825632158947958724316825437169791586432346912758289643571573291684164875293';
    checkSolution(blank(9), good);
    const swapped = '147369825' + good.slice(9);
    assert.throws(() => checkSolution(blank(9), swapped), /repeats/);
    assert.throws(() => checkSolution('2' + '.'.repeat(80), good), /given/);
});

test('ping answers pong', async () => {
    assert.equal(await client.ping(), 'pong');
    assert.equal(client.path, daemon.sock);
});

test('solvers lists every plugin with one general default', async () => {
    const list = await client.solvers();
    const names = list.map((s) => s.name);
    for (const want of ['bitmask', 'dfs', 'dlx', 'logic']) assert.ok(names.includes(want), want);
    assert.equal(list.filter((s) => s.default).length, 1);
    for (const s of list) {
        assert.equal(typeof s.version, 'string');
        assert.equal(typeof s.description, 'string');
        assert.ok(Array.isArray(s.sizes) && s.sizes.length > 0);
        assert.ok(Array.isArray(s.default_sizes));
        assert.equal(typeof s.explain, 'boolean');
    }
    // Every side a plugin takes is the default of exactly one plugin.
    const sides = new Set(list.flatMap((s) => s.sizes));
    for (const n of sides)
        assert.equal(list.filter((s) => s.default_sizes.includes(n)).length, 1, `side ${n}`);
    assert.ok(list.find((s) => s.name === 'logic').explain);
});

test('solve: a string in, a valid solution string out, with every key', async () => {
    for (const p of NINE.slice(0, 5)) {
        const r = await client.solve(p);
        assert.equal(r.status, 'solved');
        assert.equal(typeof r.solution, 'string');
        checkSolution(p, r.solution);
        assert.equal(r.count, 1);
        assert.equal(typeof r.solver, 'string');
        assert.ok(Number.isInteger(r.elapsed_us) && r.elapsed_us >= 0);
        assert.ok(Number.isInteger(r.guesses) && r.guesses >= 0);
    }
});

test('solve: every named solver, 16x16 and 25x25', async () => {
    const p = HARD[0];
    for (const solver of ['bitmask', 'dfs', 'dlx']) {
        const r = await client.solve(p, { solver });
        assert.equal(r.solver, solver);
        checkSolution(p, r.solution);
    }
    const r16 = await client.solve(SIXTEEN[0]);
    assert.equal(checkSolution(SIXTEEN[0], r16.solution), 16);
    const r25 = await client.solve(TWENTYFIVE[0], { timeout_ms: 20000 });
    assert.equal(checkSolution(TWENTYFIVE[0], r25.solution), 25);
});

test('solve: an array in, an array out; bytes in, a string out', async () => {
    const cells = cellsOf(NINE[1]);
    const r = await client.solve(cells);
    assert.ok(Array.isArray(r.solution));
    assert.equal(r.solution.length, 81);
    checkSolution(cells, r.solution);
    const rb = await client.solve(Buffer.from(NINE[2]));
    assert.equal(typeof rb.solution, 'string');
    checkSolution(NINE[2], rb.solution);
});

test('solve: lower-case letters come back in lower case', async () => {
    const p = SIXTEEN[0].toLowerCase();
    const r = await client.solve(p);
    assert.equal(r.solution, r.solution.toLowerCase());
    assert.match(r.solution, /[a-g]/);
    checkSolution(p, r.solution);
});

test('solve: limit 2 tells unique from multiple; limit counts', async () => {
    const unique = await client.solve(NINE[3], { limit: 2 });
    assert.equal(unique.count, 1);
    checkSolution(NINE[3], unique.solution);
    const multi = await client.solve(FOUR, { limit: 2 });
    assert.equal(multi.count, 2);
    checkSolution(FOUR, multi.solution);
    // The blank 4x4 has 288 solutions: a limit above that counts them all.
    const all = await client.solve(blank(4), { limit: 1000, solver: 'dlx' });
    assert.equal(all.count, 288);
    const big = await client.solve(FOUR, { limit: 2n ** 64n - 1n });
    assert.ok(big.count >= 2);
});

test('solve: an unsolvable puzzle is an answer, not an error', async () => {
    const r = await client.solve(UNSOLVABLE);
    assert.equal(r.status, 'unsolvable');
    assert.equal(r.solution, null);
    assert.equal(r.count, 0);
});

test('solve: timeout_ms and a nil solver are accepted', async () => {
    const r = await client.solve(NINE[4], { timeout_ms: 5000, solver: null, limit: undefined });
    checkSolution(NINE[4], r.solution);
});

test('explain: every step sound, ending at the solution', async () => {
    const p = NINE[5];
    const e = await client.explain(p);
    assert.equal(e.status, 'solved');
    assert.equal(e.solver, 'logic');
    assert.ok(['easy', 'medium', 'hard', 'expert', 'extreme'].includes(e.difficulty));
    assert.equal(typeof e.rating, 'number');
    assert.ok(Number.isInteger(e.elapsed_us));
    // Replay the placements: they must fill the grid by the rules.
    const grid = cellsOf(p);
    let hardest = 0;
    for (const step of e.steps) {
        assert.equal(typeof step.technique, 'string');
        assert.equal(typeof step.text, 'string');
        assert.ok(Array.isArray(step.cells) && Array.isArray(step.eliminations));
        hardest = Math.max(hardest, step.rating);
        for (const [cell, value] of step.placements) {
            assert.equal(grid[cell], 0, `step places into filled cell ${cell}`);
            grid[cell] = value;
        }
    }
    checkSolution(p, grid);
    assert.equal(e.rating, hardest);
    assert.equal(e.steps.find((s) => s.rating === hardest).technique, e.hardest);
});

test('explain: steps, progress and a mistake', async () => {
    const p = NINE[6];
    const hint = await client.explain(p, { steps: 1 });
    assert.equal(hint.steps.length, 1);
    assert.equal(hint.status, 'partial');
    // Progress: the hint's placement made, the next step starts from there.
    const grid = cellsOf(p);
    for (const [cell, value] of hint.steps[0].placements) grid[cell] = value;
    const next = await client.explain(grid, { steps: 1, progress: grid });
    for (const [cell] of next.steps[0].placements)
        assert.equal(grid[cell], 0, 'the step after progress places into an empty cell');
    // A wrong entry in progress: one mistake step naming that cell.
    const solution = (await client.solve(p)).solution;
    const wrong = cellsOf(p);
    const cell = wrong.indexOf(0);
    wrong[cell] = (cellsOf(solution)[cell] % 9) + 1;
    const m = await client.explain(p, { progress: wrong });
    assert.equal(m.steps.length, 1);
    assert.equal(m.steps[0].technique, 'mistake');
    assert.deepEqual(m.steps[0].cells, [cell]);
    assert.equal(m.status, 'partial');
});

test('explain: hint levels from pencil marks, the house and ep/ed', async () => {
    const p = NINE[6];
    const grid = cellsOf(p);
    const sees = (a, b) =>
        Math.floor(a / 9) === Math.floor(b / 9) || a % 9 === b % 9 ||
        (Math.floor(a / 27) === Math.floor(b / 27) && Math.floor((a % 9) / 3) === Math.floor((b % 9) / 3));
    let marks = '';
    for (let i = 0; i < 81; i++)
        for (let d = 1; d <= 9; d++)
            marks += !grid[i] && !grid.some((v, j) => v === d && sees(i, j)) ? String(d) : '.';
    const whole = (await client.explain(p, { steps: 1, candidates: marks })).steps[0];
    const one = (await client.explain(p, { steps: 1, candidates: marks, level: 1 })).steps[0];
    assert.deepEqual(Object.keys(one).sort(), ['rating', 'technique']);
    const two = (await client.explain(p, { steps: 1, candidates: marks, level: 2 })).steps[0];
    assert.deepEqual(Object.keys(two).sort(), ['house', 'rating', 'technique']);
    assert.equal(two.technique, whole.technique);
    // The house holds the step's first placement or a pattern cell.
    const { type, index } = two.house;
    const inHouse = (c) =>
        type === 'row' ? Math.floor(c / 9) === index
        : type === 'column' ? c % 9 === index
        : Math.floor(c / 27) * 3 + Math.floor((c % 9) / 3) === index;
    const cell = whole.placements.length ? whole.placements[0][0] : whole.cells[0];
    assert.ok(['row', 'column', 'box'].includes(type) && whole.cells.some(inHouse));
    if (whole.placements.length) assert.ok(inHouse(cell));
    const three = (await client.explain(p, { steps: 1, candidates: marks, level: 3 })).steps[0];
    assert.deepEqual(three.cells, whole.cells);
    assert.deepEqual(three.house, two.house);
    const e = await client.explain(p);
    assert.ok(e.ed > 0 && e.ed <= e.ep && e.ep <= e.rating);
    const r = await client.rate(p);
    assert.equal(r.ep, e.ep);
    assert.equal(r.ed, e.ed);
    await assert.rejects(client.explain(p, { level: 5 }), (err) =>
        err.code === 'bad_request' && /level/.test(err.message));
});

test('rate: a rating, a band and the hardest technique', async () => {
    const r = await client.rate(NINE[7]);
    assert.equal(typeof r.rating, 'number');
    assert.ok(['easy', 'medium', 'hard', 'expert', 'extreme'].includes(r.difficulty));
    assert.equal(typeof r.hardest, 'string');
    assert.ok(Number.isInteger(r.steps) && r.steps > 0);
    assert.equal(typeof r.logic, 'boolean');
    assert.equal(r.solver, 'logic');
    const e = await client.explain(NINE[7]);
    assert.equal(r.rating, e.rating);
    assert.equal(r.steps, e.steps.length);
    assert.equal(r.hardest, e.hardest);
});

/* Every generated puzzle: unique (a limit-2 solve finds one), its solution
 * right, givens counted. */
async function checkGenerated(p, size) {
    assert.equal(typeof p.seed, 'bigint');
    assert.equal(p.puzzle.length, size * size);
    checkSolution(p.puzzle, p.solution);
    assert.equal(p.givens, cellsOf(p.puzzle).filter((v) => v !== 0).length);
    const r = await client.solve(p.puzzle, { limit: 2 });
    assert.equal(r.count, 1, 'a generated puzzle is unique');
}

test('generate: defaults, size and count', async () => {
    const [one] = await client.generate();
    await checkGenerated(one, 9);
    const four = await client.generate({ size: 4, count: 3 });
    assert.equal(four.length, 3);
    for (const p of four) await checkGenerated(p, 4);
});

test('generate: a seed makes the same puzzles; each puzzle its own seed', async () => {
    const a = await client.generate({ count: 2, seed: 12345 });
    const b = await client.generate({ count: 2, seed: 12345n });
    assert.deepEqual(a, b);
    const again = await client.generate({ count: 1, seed: a[1].seed });
    assert.equal(again[0].puzzle, a[1].puzzle);
    const top = await client.generate({ size: 4, seed: 2n ** 64n - 1n });
    await checkGenerated(top[0], 4);
});

test('generate: symmetry, minimal false', async () => {
    const [p] = await client.generate({ symmetry: 'rotate180', seed: 7 });
    assert.equal(p.symmetry, 'rotate180');
    const g = cellsOf(p.puzzle);
    for (let i = 0; i < 81; i++) assert.equal(g[i] !== 0, g[80 - i] !== 0, `cell ${i} and its image`);
    await checkGenerated(p, 9);
    const [loose] = await client.generate({ minimal: false, seed: 7 });
    await checkGenerated(loose, 9);
    const [mirror] = await client.generate({ size: 4, symmetry: 'mirror', seed: 3 });
    const m = cellsOf(mirror.puzzle);
    for (let r = 0; r < 4; r++)
        for (let c = 0; c < 4; c++) assert.equal(m[r * 4 + c] !== 0, m[r * 4 + 3 - c] !== 0);
});

test('generate: a difficulty band and a rating band, checked by rate', async () => {
    const easy = await client.generate({ difficulty: 'easy', count: 2, seed: 1 });
    for (const p of easy) {
        assert.equal(p.difficulty, 'easy');
        assert.equal((await client.rate(p.puzzle)).difficulty, 'easy');
    }
    const band = await client.generate({ min_rating: 1.0, max_rating: 2.5, count: 2, seed: 2 });
    for (const p of band) {
        const r = await client.rate(p.puzzle);
        assert.ok(r.rating >= 1.0 && r.rating <= 2.5, `rating ${r.rating}`);
        assert.equal(r.rating, p.rating);
    }
    const [counted] = await client.generate({ solver: 'dlx', timeout_ms: 10000, seed: 4 });
    await checkGenerated(counted, 9);
});

test('stats: counters that move with the work', async () => {
    const before = await client.stats();
    await client.solve(NINE[8], { solver: 'dfs' });
    const s = await client.stats();
    assert.ok(s.requests >= before.requests + 2);
    assert.equal(s.solvers.dfs.solved, before.solvers.dfs.solved + 1);
    assert.ok(s.connections >= 1 && s.connections_total >= s.connections);
    for (const k of ['uptime_s', 'errors', 'in_flight', 'stuck_workers'])
        assert.ok(Number.isInteger(s[k]), k);
});

test('version: the daemon, protocol 1 and the plugin ABI', async (t) => {
    if (!(await daemonHasVersion())) {
        t.skip('this daemon does not have the version method yet (unknown_method)');
        return;
    }
    const v = await client.version();
    assert.match(v.daemon, /^\d+\.\d+\.\d+$/);
    assert.equal(v.protocol, 1);
    assert.match(v.abi, /^\d+\.\d+$/);
});

test('timeout_ms may be a float with an integral value', async (t) => {
    if (!(await daemonHasVersion())) {
        t.skip('this daemon does not take float timeouts yet (no version method)');
        return;
    }
    // JavaScript numbers are sent as integers when integral; call() with a
    // value that cannot be one shows the daemon's float path is reached.
    const { Encoder } = require('@msgpack/msgpack');
    const net = require('node:net');
    const sock = net.createConnection({ path: daemon.sock });
    const enc = new Encoder({ forceIntegerToFloat: true });
    const bytes = enc.encode([0, 1, 'solve', [NINE[9], { timeout_ms: 500 }]]);
    // forceIntegerToFloat made every number a float; msgid and the message
    // kind must stay integers, so put them back by hand (94 00 01 ...).
    const head = Buffer.from([0x94, 0x00, 0x01]);
    const rest = Buffer.from(bytes).subarray(1 + 9 + 9); // array head, two float64s
    const { Decoder } = require('@msgpack/msgpack');
    const answer = await new Promise((resolve, reject) => {
        const dec = new Decoder();
        sock.on('data', (chunk) => {
            for (const msg of dec.decodeMulti(chunk)) resolve(msg);
        });
        sock.on('error', reject);
        sock.write(Buffer.concat([head, rest]));
    });
    sock.destroy();
    assert.equal(answer[2], null, JSON.stringify(answer[2]));
    checkSolution(NINE[9], answer[3].solution);
    // And a float that is not integral is a bad_request.
    await assert.rejects(client.solve(NINE[9], { timeout_ms: 500.5 }), { code: 'bad_request' });
});

test('call reaches any method by name', async () => {
    assert.equal(await client.call('ping'), 'pong');
    const r = await client.call('solve', [NINE[10], { limit: 2 }]);
    checkSolution(NINE[10], r.solution);
    assert.ok(SudokudError);
});
