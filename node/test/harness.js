/* harness.js -- what the tests share: a real sudokud on a temporary socket,
 * the puzzles of tests/data, and a checker of solutions by the rules.
 *
 * The daemon is the build tree's (SUDOKUD_BUILD_DIR, default the repository's
 * build/), started with -P on the build's plugin directory as
 * tests/daemon_harness.c does.  It runs under `setpriv --pdeathsig TERM`
 * when that exists, so a test process that dies takes its daemons with it.
 * The checker knows nothing of any solver: a solution is right when every
 * row, column and box holds 1..n once and every given is kept; checkRules
 * does the same under a variant's rules (the wire's map).
 */
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const net = require('node:net');
const { spawn, spawnSync } = require('node:child_process');

const REPO = path.resolve(__dirname, '..', '..');
const BUILD = path.resolve(process.env.SUDOKUD_BUILD_DIR || path.join(REPO, 'build'));
const SUDOKUD = path.join(BUILD, 'bin', 'sudokud');
const PLUGIN_DIR = path.join(BUILD, 'lib', 'sudokud', 'plugins');
const LIAR_PLUGIN = path.join(BUILD, 'tests', 'plugins', 'liar9.so');
const DATA = path.join(REPO, 'tests', 'data');
const READY_MS = 10000; // how long a daemon may take to answer its first ping

const HAVE_SETPRIV = spawnSync('setpriv', ['--help'], { stdio: 'ignore' }).status === 0;

/* A fresh temporary directory, removed at exit. */
function tempDir(prefix = 'sudokud-node-') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    return dir;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/* True when something accepts connections on `sock`. */
function canConnect(sock) {
    return new Promise((resolve) => {
        const s = net.createConnection({ path: sock });
        s.once('connect', () => {
            s.destroy();
            resolve(true);
        });
        s.once('error', () => resolve(false));
    });
}

/* One daemon: start() it (again after stop(), on the same socket). */
class Daemon {
    /* args: extra sudokud arguments; sock: the socket (default a new
     * temporary directory's sudokud.sock). */
    constructor({ args = [], sock } = {}) {
        this.dir = sock ? path.dirname(sock) : tempDir();
        this.sock = sock || path.join(this.dir, 'sudokud.sock');
        this.log = path.join(this.dir, `sudokud-${process.pid}.log`);
        this.args = ['-s', this.sock, '-P', PLUGIN_DIR, ...args];
        this.proc = null;
    }

    async start() {
        assert.ok(fs.existsSync(SUDOKUD), `no daemon at ${SUDOKUD}: build first or set SUDOKUD_BUILD_DIR`);
        const err = fs.openSync(this.log, 'a');
        const [cmd, argv] = HAVE_SETPRIV
            ? ['setpriv', ['--pdeathsig', 'TERM', '--', SUDOKUD, ...this.args]]
            : [SUDOKUD, this.args];
        const proc = spawn(cmd, argv, { stdio: ['ignore', 'ignore', err] });
        fs.closeSync(err);
        this.proc = proc;
        this.exited = new Promise((resolve) => proc.once('exit', (code, sig) => resolve({ code, sig })));
        const kill = () => proc.kill('SIGKILL');
        process.on('exit', kill);
        this.exited.then(() => process.removeListener('exit', kill));
        const end = Date.now() + READY_MS;
        while (Date.now() < end) {
            if (proc.exitCode !== null || proc.signalCode !== null)
                throw new Error(`sudokud exited at start: ${this.logText()}`);
            if (await canConnect(this.sock)) return this;
            await sleep(10);
        }
        throw new Error(`sudokud did not come up on ${this.sock}: ${this.logText()}`);
    }

    /* SIGTERM, wait for the exit; resolves to { code, sig }. */
    async stop() {
        if (!this.proc) return null;
        const proc = this.proc;
        this.proc = null;
        if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
        return this.exited;
    }

    logText() {
        try {
            return fs.readFileSync(this.log, 'utf8');
        } catch {
            return '(no log)';
        }
    }
}

/* Start a daemon; the test's after() should stop it. */
async function startDaemon(options) {
    return new Daemon(options).start();
}

/* The puzzle lines of tests/data/NAME (comments and blank lines skipped). */
function puzzles(name) {
    return fs
        .readFileSync(path.join(DATA, name), 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#'));
}

/* ------------------------------------------------------------------------ */
/* The rules */

/* Cell values of a puzzle or solution in either form: 0 for a blank. */
function cellsOf(p) {
    if (Array.isArray(p)) return p.slice();
    const text = typeof p === 'string' ? p : Buffer.from(p).toString('latin1');
    const out = [];
    for (const ch of text.replace(/\s+/g, '')) {
        if (ch === '.' || ch === '0') out.push(0);
        else if (ch >= '1' && ch <= '9') out.push(ch.charCodeAt(0) - 48);
        else {
            const v = ch.toUpperCase().charCodeAt(0) - 64 + 9; // A = 10
            assert.ok(v >= 10 && v <= 25, `symbol ${ch} is not a sudoku symbol`);
            out.push(v);
        }
    }
    return out;
}

/* Assert that `solution` is a complete grid by the rules that keeps every
 * given of `puzzle`; returns n. */
function checkSolution(puzzle, solution) {
    const g = cellsOf(puzzle);
    const s = cellsOf(solution);
    const n = Math.round(Math.sqrt(s.length));
    const b = Math.round(Math.sqrt(n));
    assert.equal(n * n, s.length, 'the solution is not square');
    assert.equal(b * b, n, 'the side is not a square');
    assert.equal(g.length, s.length, 'the solution is not the puzzle\'s size');
    for (let i = 0; i < s.length; i++) {
        assert.ok(s[i] >= 1 && s[i] <= n, `cell ${i} holds ${s[i]}`);
        if (g[i] !== 0) assert.equal(s[i], g[i], `the given at cell ${i} changed`);
    }
    const unit = (cells, what) => {
        const seen = new Set(cells.map((i) => s[i]));
        assert.equal(seen.size, n, `${what} repeats a value`);
    };
    for (let k = 0; k < n; k++) {
        const row = [], col = [], box = [];
        for (let j = 0; j < n; j++) {
            row.push(k * n + j);
            col.push(j * n + k);
            const r = Math.floor(k / b) * b + Math.floor(j / b);
            const c = (k % b) * b + (j % b);
            box.push(r * n + c);
        }
        unit(row, `row ${k + 1}`);
        unit(col, `column ${k + 1}`);
        unit(box, `box ${k + 1}`);
    }
    return n;
}

/* Cell numbers (0-based row-major) of every house under `rules` (the
 * wire's map, docs/protocol.md "Variant rules") on a side-n grid: rows,
 * columns, the boxes or the jigsaw regions, the diagonals, the windows. */
function housesOf(n, rules) {
    const b = Math.round(Math.sqrt(n));
    const houses = [];
    for (let k = 0; k < n; k++) {
        houses.push(Array.from({ length: n }, (_, j) => k * n + j));
        houses.push(Array.from({ length: n }, (_, j) => j * n + k));
    }
    if (rules.regions) {
        const region = cellsOf(rules.regions);
        assert.equal(region.length, n * n, 'the layout is not the grid\'s size');
        for (let k = 1; k <= n; k++) houses.push([...region.keys()].filter((i) => region[i] === k));
    } else {
        for (let k = 0; k < n; k++)
            houses.push(Array.from({ length: n }, (_, j) => {
                const r = Math.floor(k / b) * b + Math.floor(j / b);
                return r * n + (k % b) * b + (j % b);
            }));
    }
    if (rules.diagonals) {
        houses.push(Array.from({ length: n }, (_, i) => i * n + i));
        houses.push(Array.from({ length: n }, (_, i) => i * n + n - 1 - i));
    }
    if (rules.windows) {
        for (let wr = 0; wr < b - 1; wr++)
            for (let wc = 0; wc < b - 1; wc++)
                houses.push(Array.from({ length: n }, (_, k) => {
                    const r = 1 + wr * (b + 1) + Math.floor(k / b);
                    return r * n + 1 + wc * (b + 1) + (k % b);
                }));
    }
    return houses;
}

/* Assert that `solution` keeps every given of `puzzle` and breaks none of
 * `rules` (the wire's map): every house holds 1..n once, no digit a
 * knight's or king's move from itself when asked, no orthogonal neighbours
 * one apart when non_consecutive, every cage distinct digits with its sum.
 * Written from docs/protocol.md alone.  Returns n. */
function checkRules(puzzle, rules, solution) {
    const g = cellsOf(puzzle);
    const s = cellsOf(solution);
    const n = Math.round(Math.sqrt(s.length));
    assert.equal(n * n, s.length, 'the solution is not square');
    assert.equal(g.length, s.length, 'the solution is not the puzzle\'s size');
    for (let i = 0; i < s.length; i++) {
        assert.ok(s[i] >= 1 && s[i] <= n, `cell ${i} holds ${s[i]}`);
        if (g[i] !== 0) assert.equal(s[i], g[i], `the given at cell ${i} changed`);
    }
    for (const h of housesOf(n, rules)) {
        assert.equal(h.length, n, 'a house is not n cells');
        assert.equal(new Set(h.map((i) => s[i])).size, n, `the house of ${h} repeats a value`);
    }
    const moves = [];
    if (rules.anti_knight) moves.push([1, 2], [2, 1], [1, -2], [2, -1]);
    if (rules.anti_king) moves.push([1, 1], [1, -1], [0, 1], [1, 0]);
    for (let r = 0; r < n; r++) {
        for (let c = 0; c < n; c++) {
            const v = s[r * n + c];
            for (const [dr, dc] of moves) {
                const r2 = r + dr, c2 = c + dc;
                if (r2 < n && c2 >= 0 && c2 < n) {
                    const what = `r${r + 1}c${c + 1} and r${r2 + 1}c${c2 + 1} both hold ${v}`;
                    assert.notEqual(s[r2 * n + c2], v, what);
                }
            }
            if (rules.non_consecutive) {
                const what = `r${r + 1}c${c + 1} and its neighbour are consecutive`;
                if (c + 1 < n) assert.notEqual(Math.abs(s[r * n + c + 1] - v), 1, what);
                if (r + 1 < n) assert.notEqual(Math.abs(s[(r + 1) * n + c] - v), 1, what);
            }
        }
    }
    for (const [sum, cells] of rules.cages || []) {
        const digits = cells.map((i) => s[i]);
        assert.equal(new Set(digits).size, digits.length, `the cage ${cells} repeats a digit`);
        const total = digits.reduce((a, d) => a + d, 0);
        assert.equal(total, sum, `the cage ${cells} does not add up to ${sum}`);
    }
    return n;
}

/* ------------------------------------------------------------------------ */
/* A scripted fake daemon, for what a real one never does */

/* Listen on a new temporary socket; onMessage(sock, msg, index) gets every
 * msgpack object a client sends, index counting connections from 0.
 * Resolves to { sock: path, server, connections: [net.Socket] }. */
function fakeDaemon(onMessage) {
    const { Decoder } = require('@msgpack/msgpack');
    const { objectEnd } = require('../lib/frame');
    const sockPath = path.join(tempDir('sudokud-fake-'), 'fake.sock');
    const connections = [];
    const server = net.createServer((s) => {
        const index = connections.push(s) - 1;
        const dec = new Decoder({ useBigInt64: true });
        let buf = Buffer.alloc(0);
        s.on('error', () => {});
        s.on('data', (chunk) => {
            buf = Buffer.concat([buf, chunk]);
            let end;
            while (buf.length && (end = objectEnd(buf, 0, 1 << 24, 64)) > 0) {
                const msg = dec.decode(buf.subarray(0, end));
                buf = buf.subarray(end);
                onMessage(s, msg, index);
            }
        });
    });
    return new Promise((resolve) => {
        server.listen(sockPath, () => resolve({ sock: sockPath, server, connections }));
    });
}

/* Stop a fake daemon and drop its connections. */
function stopFake(fake) {
    for (const s of fake.connections) s.destroy();
    return new Promise((resolve) => fake.server.close(resolve));
}

/* A blank grid of side n in line form. */
const blank = (n) => '.'.repeat(n * n);

module.exports = {
    BUILD,
    LIAR_PLUGIN,
    Daemon,
    startDaemon,
    fakeDaemon,
    stopFake,
    tempDir,
    sleep,
    canConnect,
    puzzles,
    cellsOf,
    checkSolution,
    checkRules,
    housesOf,
    blank,
};
