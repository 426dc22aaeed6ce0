/* socket.test.js -- finding the daemon: the order of libsudoku-client.
 *
 * The rule as a function, for root and for a user, then end to end: real
 * daemons on the explicit path, on $SUDOKUD_SOCKET and in $XDG_RUNTIME_DIR,
 * found by a child process with only the environment to go on.  Root skips
 * the user's socket, so when the tests run as root the user's cases run in
 * a child as `nobody` (the daemon's socket made 0666 for it).
 */
'use strict';

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { socketCandidates, SYSTEM_SOCKET } = require('..');
const h = require('./harness');

const IS_ROOT = process.geteuid() === 0;
const NOBODY = 65534;

test('the rule: explicit, else SUDOKUD_SOCKET, else the user\'s then the system\'s', () => {
    const env = { SUDOKUD_SOCKET: '/env.sock', XDG_RUNTIME_DIR: '/run/user/1000' };
    assert.equal(SYSTEM_SOCKET, '/run/sudokud/sudokud.sock');
    assert.deepEqual(socketCandidates('/mine.sock', env, 1000), ['/mine.sock']);
    assert.deepEqual(socketCandidates('', env, 1000), ['/env.sock']);
    assert.deepEqual(socketCandidates(undefined, env, 0), ['/env.sock']);
    const noEnv = { XDG_RUNTIME_DIR: '/run/user/1000' };
    assert.deepEqual(socketCandidates(undefined, noEnv, 1000), [
        '/run/user/1000/sudokud.sock',
        SYSTEM_SOCKET,
    ]);
    // Root is the system daemon's user: never its own runtime directory.
    assert.deepEqual(socketCandidates(undefined, noEnv, 0), [SYSTEM_SOCKET]);
    // Empty variables count as unset.
    assert.deepEqual(socketCandidates(undefined, { SUDOKUD_SOCKET: '', XDG_RUNTIME_DIR: '' }, 1000), [
        SYSTEM_SOCKET,
    ]);
    assert.deepEqual(socketCandidates(undefined, {}, 1000), [SYSTEM_SOCKET]);
});

const dirs = {};
const daemons = [];

/* A directory anyone may enter, and a daemon there whose socket anyone may
 * use (the user-side children run as nobody under root). */
async function openDaemon(name) {
    const dir = h.tempDir(`sudokud-${name}-`);
    fs.chmodSync(dir, 0o755);
    const d = await h.startDaemon({ sock: path.join(dir, 'sudokud.sock'), args: ['--socket-mode', '0666'] });
    daemons.push(d);
    dirs[name] = dir;
    return d;
}

/* A copy of the package that any user can read: the children run as nobody
 * when we are root, and the checkout may sit where nobody cannot look. */
let packageCopy;

function copyPackage() {
    const root = path.resolve(__dirname, '..');
    const dir = h.tempDir('sudokud-pkg-');
    fs.chmodSync(dir, 0o755);
    for (const name of ['index.js', 'package.json', 'lib', 'node_modules'])
        fs.cpSync(path.join(root, name), path.join(dir, name), { recursive: true });
    const open = (p) => {
        fs.chmodSync(p, fs.statSync(p).isDirectory() ? 0o755 : 0o644);
        if (fs.statSync(p).isDirectory()) for (const e of fs.readdirSync(p)) open(path.join(p, e));
    };
    open(dir);
    return dir;
}

before(async () => {
    packageCopy = copyPackage();
    await openDaemon('explicit');
    await openDaemon('env');
    await openDaemon('xdg');
    dirs.empty = h.tempDir('sudokud-empty-');
    fs.chmodSync(dirs.empty, 0o755);
});

after(async () => {
    for (const d of daemons) await d.stop();
});

/* Run a child that connects with `explicit` (or none) under `env` (added to
 * a bare environment) and prints { path } or { code, message }.  asUser:
 * run it as a user other than root (nobody, when we are root). */
function discover(explicit, env, asUser) {
    const script = `
        const { Client } = require(${JSON.stringify(packageCopy)});
        const c = new Client({ socket: ${JSON.stringify(explicit || '')} });
        c.ping().then(
            () => console.log(JSON.stringify({ path: c.path })),
            (e) => console.log(JSON.stringify({ code: e.code, message: e.message })),
        ).finally(() => c.close());`;
    const opts = { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] };
    if (asUser && IS_ROOT) Object.assign(opts, { uid: NOBODY, gid: NOBODY, cwd: '/' });
    return new Promise((resolve, reject) => {
        const child = spawn(process.execPath, ['-e', script], opts);
        let out = '';
        let err = '';
        child.stdout.on('data', (b) => (out += b));
        child.stderr.on('data', (b) => (err += b));
        child.on('error', reject);
        child.on('exit', (code) => {
            if (code !== 0) reject(new Error(`child exited ${code}: ${err}`));
            else resolve(JSON.parse(out));
        });
    });
}

const sockOf = (name) => path.join(dirs[name], 'sudokud.sock');
const systemUp = () => fs.existsSync(SYSTEM_SOCKET);

test('an explicit path beats SUDOKUD_SOCKET and XDG_RUNTIME_DIR', async () => {
    const env = { SUDOKUD_SOCKET: sockOf('env'), XDG_RUNTIME_DIR: dirs.xdg };
    assert.deepEqual(await discover(sockOf('explicit'), env, true), { path: sockOf('explicit') });
});

test('SUDOKUD_SOCKET beats XDG_RUNTIME_DIR', async () => {
    const env = { SUDOKUD_SOCKET: sockOf('env'), XDG_RUNTIME_DIR: dirs.xdg };
    assert.deepEqual(await discover('', env, true), { path: sockOf('env') });
});

test('SUDOKUD_SOCKET is the only socket tried when set', async () => {
    const missing = path.join(dirs.empty, 'sudokud.sock');
    const env = { SUDOKUD_SOCKET: missing, XDG_RUNTIME_DIR: dirs.xdg };
    const r = await discover('', env, true);
    assert.equal(r.code, 'connect');
    assert.equal(r.message, `no socket at ${missing}: is sudokud running?`);
});

test('a user: the socket in XDG_RUNTIME_DIR', async () => {
    assert.deepEqual(await discover('', { XDG_RUNTIME_DIR: dirs.xdg }, true), { path: sockOf('xdg') });
});

test('a user: nothing in XDG_RUNTIME_DIR, then the system socket; the error names both', async (t) => {
    if (systemUp()) {
        t.skip(`a system daemon listens on ${SYSTEM_SOCKET}`);
        return;
    }
    const r = await discover('', { XDG_RUNTIME_DIR: dirs.empty }, true);
    assert.equal(r.code, 'connect');
    const mine = path.join(dirs.empty, 'sudokud.sock');
    assert.equal(
        r.message,
        `no socket at ${mine}: is sudokud running?; no socket at ${SYSTEM_SOCKET}: is sudokud running?`,
    );
});

test('root: XDG_RUNTIME_DIR is not looked at', async (t) => {
    if (!IS_ROOT) {
        t.skip('not running as root');
        return;
    }
    if (systemUp()) {
        t.skip(`a system daemon listens on ${SYSTEM_SOCKET}`);
        return;
    }
    const r = await discover('', { XDG_RUNTIME_DIR: dirs.xdg }, false);
    assert.equal(r.code, 'connect');
    assert.equal(r.message, `no socket at ${SYSTEM_SOCKET}: is sudokud running?`);
});

test('permission denied names the group to join', async (t) => {
    if (!IS_ROOT) {
        t.skip('needs root to make a socket another user cannot use');
        return;
    }
    const dir = h.tempDir('sudokud-perm-');
    fs.chmodSync(dir, 0o755);
    const d = await h.startDaemon({ sock: path.join(dir, 'sudokud.sock') }); // 0660 root:root
    try {
        const r = await discover(d.sock, {}, true);
        assert.equal(r.code, 'connect');
        assert.equal(r.message, `permission denied on ${d.sock}: you are not in group root`);
    } finally {
        await d.stop();
    }
});
