/* socket.js -- where the daemon listens, and connecting to it.
 *
 * The rule is libsudoku-client's (client/client.c), so every client of the
 * project finds the same daemon:
 *   1. the path the caller gives, when it is not empty;
 *   2. else $SUDOKUD_SOCKET, when it is not empty;
 *   3. else, for a user other than root with $XDG_RUNTIME_DIR set, the user's
 *      own daemon at $XDG_RUNTIME_DIR/sudokud.sock, and when nothing answers
 *      there, the system's at /run/sudokud/sudokud.sock (root tries only the
 *      system's).
 * A failure names every socket tried and why, in words an admin can act on.
 */
'use strict';

const fs = require('node:fs');
const net = require('node:net');
const { SudokudError } = require('./errors');

const SYSTEM_SOCKET = '/run/sudokud/sudokud.sock';
const MAX_PATH_BYTES = 107; // sizeof(sun_path) - 1 on Linux

/* The sockets to try, in order.  explicit: the caller's path or undefined;
 * env: an environment (process.env); euid: the effective user id.  Pure, so
 * the rule can be tested for any user. */
function socketCandidates(explicit, env = process.env, euid = process.geteuid()) {
    if (explicit) return [explicit];
    if (env.SUDOKUD_SOCKET) return [env.SUDOKUD_SOCKET];
    const out = [];
    const xdg = env.XDG_RUNTIME_DIR;
    if (euid !== 0 && xdg) out.push(`${xdg}/sudokud.sock`);
    out.push(SYSTEM_SOCKET);
    return out;
}

/* The name of group `gid` from /etc/group, or the number as text. */
function groupName(gid) {
    try {
        for (const line of fs.readFileSync('/etc/group', 'utf8').split('\n')) {
            const f = line.split(':');
            if (f.length >= 3 && Number(f[2]) === gid) return f[0];
        }
    } catch {
        // no /etc/group: the number will do
    }
    return String(gid);
}

/* Why connecting to `path` failed with the errno name `code`. */
function explain(path, code, err) {
    if (code === 'ENOENT') return `no socket at ${path}: is sudokud running?`;
    if (code === 'ECONNREFUSED')
        return `nothing listens on ${path} (a stale socket): is sudokud running?`;
    if (code === 'ENAMETOOLONG')
        return `socket path too long (at most ${MAX_PATH_BYTES} bytes): ${path}`;
    if (code !== 'EACCES' && code !== 'EPERM') return `cannot connect to ${path}: ${err.message}`;
    // The socket's group, else (its directory cannot be searched) the
    // directory's: that is the group to be in.
    let st = null;
    for (const p of [path, path.replace(/\/[^/]*$/, '') || '/']) {
        try {
            st = fs.statSync(p);
            break;
        } catch {
            // try the directory next
        }
    }
    if (!st) return `permission denied on ${path}`;
    return `permission denied on ${path}: you are not in group ${groupName(st.gid)}`;
}

/* Connect to one path: resolves to a connected net.Socket, rejects with the
 * errno name and the system's error. */
function connectPath(path) {
    return new Promise((resolve, reject) => {
        if (Buffer.byteLength(path) > MAX_PATH_BYTES) {
            reject({ code: 'ENAMETOOLONG', err: new Error('path too long') });
            return;
        }
        const sock = net.createConnection({ path });
        const onError = (err) => {
            sock.destroy();
            reject({ code: err.code, err });
        };
        sock.once('error', onError);
        sock.once('connect', () => {
            sock.removeListener('error', onError);
            resolve(sock);
        });
    });
}

/* Try each candidate in order: resolves to { socket, path } for the first
 * that answers, rejects with SudokudError code `connect` naming all. */
async function connectFirst(candidates) {
    const why = [];
    for (const path of candidates) {
        try {
            return { socket: await connectPath(path), path };
        } catch (e) {
            why.push(explain(path, e.code, e.err));
        }
    }
    throw new SudokudError('connect', why.join('; '), { fatal: true });
}

module.exports = { socketCandidates, connectFirst, SYSTEM_SOCKET };
