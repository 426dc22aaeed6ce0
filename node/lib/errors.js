/* errors.js -- SudokudError, the one error class of the package.
 *
 * Every failure a call can meet rejects its promise with a SudokudError whose
 * `code` is what a program tests: the daemon's wire codes (docs/protocol.md)
 * come through unchanged, and the client adds a few of its own for what
 * happens before or around the daemon (CLIENT_CODES).  `message` is for
 * people and may change.
 */
'use strict';

/* The codes the daemon sends (protocol v1). */
const DAEMON_CODES = Object.freeze([
    'bad_request',
    'unknown_method',
    'bad_puzzle',
    'unknown_solver',
    'unsupported',
    'timeout',
    'cancelled',
    'overloaded',
    'too_large',
    'internal',
    'not_unique',
]);

/* The codes the client makes itself (named as in libsudoku-client where the
 * meaning is the same). */
const CLIENT_CODES = Object.freeze([
    'connect', // no daemon could be reached; the message names every socket tried
    'closed', // the connection was lost (twice) or the client was closed
    'protocol', // the daemon sent something that is not protocol v1
    'client_timeout', // no answer within the call's `timeout`
    'usage', // the call's arguments cannot be sent
]);

class SudokudError extends Error {
    /* code: a DAEMON_CODES or CLIENT_CODES string (a later daemon may send
     * others); message: one line for people; fatal: true when the error
     * ended the connection (it is not the answer to one request). */
    constructor(code, message, { fatal = false, cause } = {}) {
        super(message, cause === undefined ? undefined : { cause });
        this.name = 'SudokudError';
        this.code = code;
        this.fatal = fatal;
    }
}

module.exports = { SudokudError, DAEMON_CODES, CLIENT_CODES };
