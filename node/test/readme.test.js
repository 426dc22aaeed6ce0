/* readme.test.js -- the README's example runs as written against a daemon
 * found through $SUDOKUD_SOCKET, and prints a valid solution.
 */
'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const h = require('./harness');

test('the README example works', async () => {
    const readme = fs.readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');
    const m = readme.match(/```js\n([\s\S]*?)```/);
    assert.ok(m, 'the README has a js example');
    const example = m[1];
    assert.ok(example.trim().split('\n').length <= 11, 'the example stays short');
    const puzzle = example.match(/'([.1-9]{81})'/)[1];

    // require('sudokud') resolves to this package through a node_modules link.
    const dir = h.tempDir();
    fs.mkdirSync(path.join(dir, 'node_modules'));
    fs.symlinkSync(path.resolve(__dirname, '..'), path.join(dir, 'node_modules', 'sudokud'));
    fs.writeFileSync(path.join(dir, 'example.js'), example);

    const d = await h.startDaemon();
    try {
        const r = spawnSync(process.execPath, ['example.js'], {
            cwd: dir,
            env: { ...process.env, SUDOKUD_SOCKET: d.sock },
            encoding: 'utf8',
            timeout: 20000,
        });
        assert.equal(r.status, 0, r.stderr);
        const [first, second] = r.stdout.trim().split('\n');
        const [solution, verdict] = first.split(' ');
        h.checkSolution(puzzle, solution);
        assert.equal(verdict, 'unique');
        assert.match(second, /r\dc\d/);
    } finally {
        await d.stop();
    }
});
