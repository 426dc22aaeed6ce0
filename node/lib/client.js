/* client.js -- one pipelined connection to sudokud, every method a promise.
 *
 * A Client owns at most one Unix-socket connection at a time.  Requests are
 * written as soon as they are made (many in flight); the daemon answers in
 * any order and each answer finds its call by msgid.  What a call can meet:
 *   - an answer: its promise resolves (result) or rejects (the daemon's
 *     error code, fatal false);
 *   - its AbortSignal or its client-side `timeout`: the client sends the
 *     `cancel` notification, so the daemon stops the work, and rejects at
 *     once (`cancelled`, `client_timeout`); a late answer is dropped;
 *   - a lost connection (daemon restarted, killed): the call is sent again,
 *     once, on a new connection; a second loss, or no daemon to reach,
 *     rejects it (`closed`, `connect`).  A connection the daemon ended with
 *     an error notification (`too_large`, `bad_request`, `overloaded`) or
 *     that broke the protocol fails its calls with that error, unretried.
 * The connection is made on the first call and again by the first call
 * after it was lost.  While nothing is in flight the socket does not keep
 * the process alive (unref), so a script may end without close().
 *
 * Options are the wire's keys, sent as given (the variant `rules` map of
 * solve, explain, rate and generate included: the daemon judges it).
 *
 * Integers: the wire has 64-bit integers; results carry them as numbers,
 * except generate's `seed`, always a bigint (it is any 64-bit value).
 * Inputs may be numbers or bigints.
 */
'use strict';

const { Encoder, Decoder } = require('@msgpack/msgpack');
const { objectEnd } = require('./frame');
const { SudokudError } = require('./errors');
const { socketCandidates, connectFirst } = require('./socket');

const REQUEST = 0;
const RESPONSE = 1;
const NOTIFICATION = 2;
const MAX_MSGID = 0xffffffff;
const DEFAULT_MAX_MESSAGE = 16 << 20; // bytes: a generate of 1000 25x25 puzzles is ~1.4 MiB
const MAX_DEPTH = 32; // nesting levels accepted from the daemon
const CLOSE_GRACE_MS = 1000; // close(): how long to wait for the daemon to hang up
const DEFAULT_WINDOW = 64; // solveMany: requests in flight
const MAX_WINDOW = 4096; // as libsudoku-client's batches
const U64_MAX = (1n << 64n) - 1n;
const I64_MIN = -(1n << 63n);

const encoder = new Encoder({ useBigInt64: true, ignoreUndefined: true });

/* ------------------------------------------------------------------------ */
/* Values in and out */

/* A copy of v fit for the encoder: integers beyond 32 bits become bigints
 * (the encoder would send them as floats), undefined map values go.  Throws
 * a RangeError for a bigint no msgpack integer holds. */
function prepare(v) {
    if (typeof v === 'number')
        return Number.isSafeInteger(v) && (v > MAX_MSGID || v < -0x80000000) ? BigInt(v) : v;
    if (typeof v === 'bigint') {
        if (v > U64_MAX || v < I64_MIN) throw new RangeError(`${v} does not fit in 64 bits`);
        return v;
    }
    if (Array.isArray(v)) return v.map(prepare);
    if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v)) {
        const out = {};
        for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = prepare(x);
        return out;
    }
    return v;
}

/* v with every bigint the decoder made turned into a number where no
 * precision is lost (in place; returns v). */
function normalize(v) {
    if (typeof v === 'bigint')
        return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER)
            ? Number(v)
            : v;
    if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) v[i] = normalize(v[i]);
    } else if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v)) {
        for (const k of Object.keys(v)) v[k] = normalize(v[k]);
    }
    return v;
}

function protocolError(what) {
    return new SudokudError('protocol', `not protocol v1 from the daemon: ${what}`, {
        fatal: true,
    });
}

function abortError(signal) {
    return new SudokudError('cancelled', 'the call was cancelled', { cause: signal.reason });
}

/* The result checks: each returns the value or throws protocolError. */
function isMap(v) {
    return v !== null && typeof v === 'object' && !Array.isArray(v) && !ArrayBuffer.isView(v);
}

function expectMap(what) {
    return (v) => {
        if (!isMap(v)) throw protocolError(`the ${what} answer is not a map`);
        return v;
    };
}

function expectArrayOfMaps(what) {
    return (v) => {
        if (!Array.isArray(v) || !v.every(isMap))
            throw protocolError(`the ${what} answer is not an array of maps`);
        return v;
    };
}

function expectPong(v) {
    if (v !== 'pong') throw protocolError('ping was not answered "pong"');
    return v;
}

const shapeGenerate = (v) => {
    expectArrayOfMaps('generate')(v);
    for (const p of v) {
        if (typeof p.seed !== 'number' && typeof p.seed !== 'bigint')
            throw protocolError('a generated puzzle without a seed');
        p.seed = BigInt(p.seed);
    }
    return v;
};

/* Split a call's options into the wire's map (undefined when empty) and
 * the client's own keys. */
function splitOptions(options) {
    const wire = {};
    let any = false;
    for (const [k, v] of Object.entries(options || {})) {
        if (k === 'signal' || k === 'timeout' || v === undefined) continue;
        wire[k] = v;
        any = true;
    }
    return any ? wire : undefined;
}

function checkPuzzle(puzzle) {
    if (typeof puzzle === 'string' || Array.isArray(puzzle) || ArrayBuffer.isView(puzzle))
        return null;
    return new SudokudError('usage', 'a puzzle is a string, an array of integers or bytes');
}

/* ------------------------------------------------------------------------ */
/* One connection: bytes in, whole messages out */

class Connection {
    /* socket: connected; handlers: { onMessage(conn, msg), onClose(conn) }. */
    constructor(socket, path, maxMessage, handlers) {
        this.socket = socket;
        this.path = path;
        this.alive = true;
        this.failure = null; // why the client or daemon ended it (not retried)
        this.ioError = null; // the socket's error, if any
        this.maxMessage = maxMessage;
        this.decoder = new Decoder({ useBigInt64: true, maxDepth: MAX_DEPTH });
        this.buf = Buffer.alloc(0);
        socket.on('data', (chunk) => this.onData(chunk));
        socket.on('error', (err) => {
            this.ioError = this.ioError || err;
        });
        socket.on('close', () => {
            this.alive = false;
            handlers.onClose(this);
        });
        this.handlers = handlers;
    }

    write(bytes) {
        this.socket.write(bytes);
    }

    /* End the connection for `err`: its calls fail with it. */
    fail(err) {
        if (!this.failure) this.failure = err;
        this.alive = false;
        this.socket.destroy();
    }

    /* The error the calls still on this connection get. */
    lostError() {
        if (this.failure) return this.failure;
        const why = this.ioError ? this.ioError.message : 'the daemon closed it';
        return new SudokudError('closed', `lost the connection to ${this.path}: ${why}`, {
            fatal: true,
        });
    }

    onData(chunk) {
        this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
        let off = 0;
        while (this.alive && off < this.buf.length) {
            let end, msg;
            try {
                end = objectEnd(this.buf, off, this.maxMessage, MAX_DEPTH);
                if (end < 0) break;
                msg = this.decoder.decode(this.buf.subarray(off, end));
            } catch (e) {
                this.fail(protocolError(e.message));
                return;
            }
            off = end;
            this.handlers.onMessage(this, msg);
        }
        this.buf = off < this.buf.length ? this.buf.subarray(off) : Buffer.alloc(0);
    }
}

/* ------------------------------------------------------------------------ */
/* The client */

class Client {
    /* options: socket (path; else the discovery rule of socket.js),
     * timeout (ms a call waits for its answer, 0 = forever: the default),
     * maxMessage (largest answer accepted, bytes). */
    constructor(options = {}) {
        this.socketOption = options.socket;
        this.timeout = options.timeout ?? 0;
        this.maxMessage = options.maxMessage ?? DEFAULT_MAX_MESSAGE;
        this.path = null; // the socket of the last connection made
        this.conn = null;
        this.connecting = null;
        this.pending = new Map(); // msgid -> call in flight
        this.nextId = 1;
        this.closed = false;
    }

    /* A connected client; rejects with `connect` when no daemon answers. */
    static async connect(options) {
        const c = new Client(options);
        await c.connect();
        return c;
    }

    /* Connect now rather than on the first call. */
    async connect() {
        await this.live();
        return this;
    }

    /* Reject every call in flight with `closed` (cancelling its work in the
     * daemon) and hang up.  Resolves once the socket is closed. */
    close() {
        this.closed = true;
        const err = new SudokudError('closed', 'the client was closed', { fatal: true });
        for (const call of [...this.pending.values()]) this.giveUp(call, err);
        const conn = this.conn;
        this.conn = null;
        if (!conn || !conn.alive) return Promise.resolve();
        return new Promise((resolve) => {
            conn.socket.once('close', resolve);
            conn.socket.end();
            setTimeout(() => conn.socket.destroy(), CLOSE_GRACE_MS).unref();
        });
    }

    /* Any method by name: params an array, options { signal, timeout }.
     * Resolves to the daemon's result as decoded. */
    call(method, params = [], options = {}) {
        return this.request(method, params, options, (v) => v);
    }

    ping(options) {
        return this.request('ping', [], options, expectPong);
    }

    solvers(options) {
        return this.request('solvers', [], options, expectArrayOfMaps('solvers'));
    }

    stats(options) {
        return this.request('stats', [], options, expectMap('stats'));
    }

    version(options) {
        return this.request('version', [], options, expectMap('version'));
    }

    solve(puzzle, options) {
        return this.puzzleRequest('solve', puzzle, options, expectMap('solve'));
    }

    explain(puzzle, options) {
        return this.puzzleRequest('explain', puzzle, options, expectMap('explain'));
    }

    rate(puzzle, options) {
        return this.puzzleRequest('rate', puzzle, options, expectMap('rate'));
    }

    generate(options) {
        const wire = splitOptions(options);
        return this.request('generate', wire ? [wire] : [], options, shapeGenerate);
    }

    /* Solve every puzzle of an iterable with up to `window` requests in
     * flight.  Resolves to an array in input order: each entry the result,
     * or the SudokudError the daemon answered for that puzzle.  A lost
     * connection, a protocol error or the signal rejects the whole batch
     * (and cancels what was in flight). */
    async solveMany(puzzles, options = {}) {
        const { window = DEFAULT_WINDOW, signal, ...rest } = options;
        if (!Number.isInteger(window) || window < 1 || window > MAX_WINDOW)
            throw new SudokudError('usage', `window must be an integer in 1..${MAX_WINDOW}`);
        if (signal && signal.aborted) throw abortError(signal);
        const inner = new AbortController();
        const onAbort = () => inner.abort(signal.reason);
        const iter = puzzles[Symbol.iterator]();
        const results = [];
        let fatal = null;

        const worker = async () => {
            while (!fatal) {
                const next = iter.next();
                if (next.done) return;
                const i = results.push(undefined) - 1;
                try {
                    results[i] = await this.solve(next.value, { ...rest, signal: inner.signal });
                } catch (err) {
                    if (err instanceof SudokudError && !err.fatal && !inner.signal.aborted) {
                        results[i] = err;
                        continue;
                    }
                    if (!fatal) fatal = err;
                    inner.abort();
                }
            }
        };
        if (signal) signal.addEventListener('abort', onAbort, { once: true });
        try {
            await Promise.all(Array.from({ length: window }, worker));
        } finally {
            if (signal) signal.removeEventListener('abort', onAbort);
        }
        if (fatal) throw signal && signal.aborted ? abortError(signal) : fatal;
        return results;
    }

    /* ---------------------------------------------------------------- */
    /* Calls */

    puzzleRequest(method, puzzle, options, shape) {
        const bad = checkPuzzle(puzzle);
        if (bad) return Promise.reject(bad);
        const wire = splitOptions(options);
        return this.request(method, wire ? [puzzle, wire] : [puzzle], options, shape);
    }

    /* One call: shape checks and converts the decoded result. */
    request(method, params, options, shape) {
        const { signal } = options || {};
        const timeout = (options && options.timeout) ?? this.timeout;
        return new Promise((resolve, reject) => {
            if (signal && signal.aborted) {
                reject(abortError(signal));
                return;
            }
            let body;
            try {
                body = prepare(params);
            } catch (e) {
                reject(new SudokudError('usage', `cannot send ${method}: ${e.message}`));
                return;
            }
            const call = { method, body, shape, resolve, reject, id: 0, conn: null };
            call.retried = false;
            call.done = false;
            call.signal = signal;
            if (timeout > 0) {
                const text = `no answer to ${method} within ${timeout} ms`;
                call.timer = setTimeout(
                    () => this.giveUp(call, new SudokudError('client_timeout', text)),
                    timeout,
                );
            }
            if (signal) {
                call.onAbort = () => this.giveUp(call, abortError(signal));
                signal.addEventListener('abort', call.onAbort, { once: true });
            }
            this.send(call);
        });
    }

    /* Write the call on a live connection (connecting when there is none). */
    async send(call) {
        let conn;
        try {
            conn = await this.live();
        } catch (err) {
            this.settle(call, err);
            return;
        }
        if (call.done) return;
        if (this.closed) {
            this.settle(call, new SudokudError('closed', 'the client was closed', { fatal: true }));
            return;
        }
        if (!conn.alive) {
            // Lost between being found live and now (its close event ran
            // first): a lost connection like any other.
            this.resend(call, conn);
            return;
        }
        call.id = this.allocId();
        call.conn = conn;
        this.pending.set(call.id, call);
        this.updateRef();
        conn.write(encoder.encode([REQUEST, prepare(call.id), call.method, call.body]));
    }

    /* Abort or client timeout: tell the daemon to stop, then reject. */
    giveUp(call, err) {
        if (call.done) return;
        if (call.id && call.conn && call.conn.alive)
            call.conn.write(encoder.encode([NOTIFICATION, 'cancel', [prepare(call.id)]]));
        this.settle(call, err);
    }

    /* Finish a call once: err, or the value. */
    settle(call, err, value) {
        if (call.done) return;
        call.done = true;
        if (call.timer) clearTimeout(call.timer);
        if (call.onAbort) call.signal.removeEventListener('abort', call.onAbort);
        if (call.id && this.pending.get(call.id) === call) this.pending.delete(call.id);
        this.updateRef();
        if (err) call.reject(err);
        else call.resolve(value);
    }

    allocId() {
        for (;;) {
            const id = this.nextId;
            this.nextId = id >= MAX_MSGID ? 1 : id + 1;
            if (!this.pending.has(id)) return id;
        }
    }

    /* ---------------------------------------------------------------- */
    /* The connection */

    /* Resolves to the live connection, making one when there is none. */
    live() {
        if (this.closed)
            return Promise.reject(new SudokudError('closed', 'the client was closed', { fatal: true }));
        if (this.conn && this.conn.alive) return Promise.resolve(this.conn);
        if (!this.connecting) {
            this.connecting = this.open().finally(() => {
                this.connecting = null;
            });
        }
        return this.connecting;
    }

    async open() {
        const { socket, path } = await connectFirst(socketCandidates(this.socketOption));
        if (this.closed) {
            socket.destroy();
            throw new SudokudError('closed', 'the client was closed', { fatal: true });
        }
        this.path = path;
        const conn = new Connection(socket, path, this.maxMessage, {
            onMessage: (c, msg) => this.onMessage(c, msg),
            onClose: (c) => this.onClose(c),
        });
        this.conn = conn;
        this.updateRef();
        // A daemon that refuses the connection (overloaded, shutting down)
        // says why and hangs up at once.  Writing into a socket it already
        // closed would fail with EPIPE and lose its words, so let the loop
        // read once before the first write.
        await new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
        if (!conn.alive) throw conn.lostError();
        return conn;
    }

    /* The socket keeps the process alive only while calls are in flight. */
    updateRef() {
        if (!this.conn) return;
        if (this.pending.size > 0) this.conn.socket.ref();
        else this.conn.socket.unref();
    }

    onMessage(conn, msg) {
        if (Array.isArray(msg) && msg[0] === RESPONSE && msg.length === 4) {
            this.onResponse(conn, msg);
            return;
        }
        if (Array.isArray(msg) && msg[0] === NOTIFICATION && msg.length === 3) {
            // "error" is the daemon's last word on this connection; no other
            // notification is defined, and unknown ones are ignored.
            if (msg[1] !== 'error') return;
            const e = Array.isArray(msg[2]) && isMap(msg[2][0]) ? msg[2][0] : {};
            if (typeof e.code !== 'string') {
                conn.fail(protocolError('an error notification without a code'));
                return;
            }
            conn.fail(new SudokudError(e.code, String(e.message ?? ''), { fatal: true }));
            return;
        }
        conn.fail(protocolError('a message that is neither a response nor a notification'));
    }

    onResponse(conn, msg) {
        const [, id, error, result] = msg;
        const call = this.pending.get(Number(id));
        if (!call || call.conn !== conn) return; // given up on: cancelled or timed out
        if (error !== null) {
            if (!isMap(error) || typeof error.code !== 'string') {
                conn.fail(protocolError('an error that is not {code, message}'));
                return;
            }
            this.settle(call, new SudokudError(error.code, String(error.message ?? '')));
            return;
        }
        let value;
        try {
            value = call.shape(normalize(result));
        } catch (err) {
            this.settle(call, err);
            return;
        }
        this.settle(call, null, value);
    }

    /* A connection ended: its calls are resent or failed. */
    onClose(conn) {
        if (this.conn === conn) this.conn = null;
        const lost = [...this.pending.values()].filter((c) => c.conn === conn);
        for (const call of lost) {
            this.pending.delete(call.id);
            call.id = 0;
            call.conn = null;
            this.resend(call, conn);
        }
    }

    /* A call whose connection was lost: send it again once, unless the
     * connection ended for a reason, the client is closed, or it was resent
     * already. */
    resend(call, conn) {
        if (!conn.failure && !call.retried && !this.closed) {
            call.retried = true;
            this.send(call);
        } else {
            this.settle(call, conn.lostError());
        }
    }
}

module.exports = { Client };
