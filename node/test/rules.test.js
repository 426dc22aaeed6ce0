/* rules.test.js -- the `rules` option (docs/protocol.md, "Variant rules")
 * of solve, explain, rate and generate against a real sudokud.
 *
 * Generated killer and jigsaw puzzles come back with the cages and regions
 * the daemon drew; their `rules` go back to solve as they are, and the
 * answer must keep the givens, be unique and break no rule, checked by
 * harness.js's checkRules (written from protocol.md, knowing no solver).
 */
'use strict';

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { Client, SudokudError } = require('..');
const { startDaemon, checkRules, housesOf, cellsOf } = require('./harness');

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

/* An X-sudoku: unique with both diagonals as houses, not without them. */
const X_PUZZLE = '......9...413.27............2.....7............9..134..5.17.......8.549...8......';
const BOXES9 = '111222333'.repeat(3) + '444555666'.repeat(3) + '777888999'.repeat(3);

/* Send a generated puzzle's rules back to solve as they are: one solution
 * (limit 2 finds no second), the generated one, and it breaks no rule. */
async function solveBack(p) {
    checkRules(p.puzzle, p.rules, p.solution);
    const r = await client.solve(p.puzzle, { rules: p.rules, limit: 2 });
    assert.equal(r.status, 'solved');
    assert.equal(r.count, 1, 'a generated puzzle is unique under its rules');
    checkRules(p.puzzle, p.rules, r.solution);
    assert.equal(r.solution, p.solution);
}

test('the rule checker rejects what breaks a rule', () => {
    const x = '365417982841392765792586134123648579476953218589721346654179823237865491918234657';
    checkRules(X_PUZZLE, { diagonals: true }, x);
    // a classic grid whose main diagonal repeats a digit
    const classic = '417369825632158947958724316825437169791586432346912758289643571573291684164875293';
    assert.throws(() => checkRules('.'.repeat(81), { diagonals: true }, classic), /repeats/);
    assert.throws(() => checkRules('.'.repeat(81), { cages: [[4, [0, 1]]] }, x), /add up/);
    assert.throws(() => checkRules('.'.repeat(81), { anti_king: true }, x), /both hold/);
    assert.throws(() => checkRules('1' + '.'.repeat(80), {}, x), /given/);
    assert.equal(housesOf(9, { regions: BOXES9 }).length, 27);
    assert.equal(housesOf(9, { diagonals: true, windows: true }).length, 27 + 2 + 4);
});

test('solve: rules change the answer; rate and explain take them too', async () => {
    const classic = await client.solve(X_PUZZLE, { limit: 2 });
    assert.equal(classic.count, 2, 'without the diagonals the puzzle has several solutions');
    const x = await client.solve(X_PUZZLE, { rules: { diagonals: true }, limit: 2 });
    assert.equal(x.count, 1);
    checkRules(X_PUZZLE, { diagonals: true }, x.solution);

    await assert.rejects(client.rate(X_PUZZLE), (e) => e.code === 'not_unique');
    const rating = await client.rate(X_PUZZLE, { rules: { diagonals: true } });
    assert.ok(rating.rating > 0 && typeof rating.difficulty === 'string');

    const hint = await client.explain(X_PUZZLE, { rules: { diagonals: true }, steps: 3 });
    assert.ok(hint.steps.length >= 1);
    const sol = cellsOf(x.solution);
    for (const step of hint.steps)
        for (const [cell, value] of step.placements)
            assert.equal(value, sol[cell], `${step.technique} places ${value} at cell ${cell}`);
});

test('generate killer: drawn cages, no givens, sent back to solve', async () => {
    const made = await client.generate({ count: 2, seed: 28, rules: { cages: true } });
    assert.equal(made.length, 2);
    for (const p of made) {
        assert.equal(p.givens, 0);
        assert.ok(Array.isArray(p.rules.cages) && p.rules.cages.length > 0);
        assert.equal(p.rules.regions, undefined);
        await solveBack(p);
    }
});

test('generate killer with givens: true keeps givens', async () => {
    const rules = { cages: true, givens: true };
    const made = await client.generate({ count: 3, seed: 6, rules });
    // a puzzle whose cages alone are unique may be dug bare; with this seed none is
    assert.ok(made.every((p) => p.givens > 0), 'the killer puzzles keep givens');
    for (const p of made) {
        assert.equal(p.givens, cellsOf(p.puzzle).filter((v) => v !== 0).length);
        await solveBack(p);
    }
});

test('generate jigsaw: a drawn layout, not the boxes, sent back to solve', async () => {
    const made = await client.generate({ count: 2, seed: 28, rules: { regions: true } });
    for (const p of made) {
        assert.equal(typeof p.rules.regions, 'string');
        assert.equal(p.rules.regions.length, 81);
        assert.notEqual(p.rules.regions, BOXES9);
        await solveBack(p);
    }
});

test('generate: rules combine, and the same seed makes the same puzzles', async () => {
    const rules = { regions: true, cages: true, diagonals: true };
    const a = await client.generate({ count: 1, seed: 5, rules });
    const b = await client.generate({ count: 1, seed: 5n, rules });
    assert.deepEqual(a, b);
    assert.equal(a[0].rules.diagonals, true);
    assert.equal(typeof a[0].rules.regions, 'string');
    await solveBack(a[0]);
});

test('a malformed rule is bad_request naming it; a rule a solver lacks, unsupported', async () => {
    await assert.rejects(
        client.solve(X_PUZZLE, { rules: { diagonal: true } }),
        (e) =>
            e instanceof SudokudError &&
            e.code === 'bad_request' &&
            /unknown rule "diagonal"/.test(e.message),
    );
    await assert.rejects(
        client.explain(X_PUZZLE, { rules: { cages: [[18, [0, 1]]] } }),
        (e) => e.code === 'bad_request' && /impossible for 2 cells/.test(e.message),
    );
    await assert.rejects(
        client.solve('.'.repeat(81), { rules: { anti_king: true }, solver: 'dfs' }),
        (e) => e.code === 'unsupported' && /anti_king/.test(e.message),
    );
    assert.equal(await client.ping(), 'pong'); // the connection stays open
});

test('solvers: each lists the rules it takes', async () => {
    const list = await client.solvers();
    const bitmask = list.find((s) => s.name === 'bitmask');
    assert.ok(bitmask && Array.isArray(bitmask.rules));
    const all = ['diagonals', 'windows', 'regions', 'anti_knight', 'anti_king', 'non_consecutive'];
    for (const r of [...all, 'cages']) assert.ok(bitmask.rules.includes(r), `bitmask takes ${r}`);
    const logic = list.find((s) => s.explain);
    assert.ok(logic && logic.explain_rules.includes('cages'));
});
