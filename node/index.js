/* index.js -- the sudokud package: a promise-based client for the daemon.
 *
 * Client (lib/client.js) is the one object: a pipelined connection with a
 * method per protocol method.  SudokudError (lib/errors.js) is what every
 * failure rejects with.  socketCandidates (lib/socket.js) is the rule that
 * finds the daemon, exported so a program can show where it looks.
 */
'use strict';

const { Client } = require('./lib/client');
const { SudokudError, DAEMON_CODES, CLIENT_CODES } = require('./lib/errors');
const { socketCandidates, SYSTEM_SOCKET } = require('./lib/socket');

/* Shorthand for Client.connect(options). */
function connect(options) {
    return Client.connect(options);
}

module.exports = {
    Client,
    connect,
    SudokudError,
    DAEMON_CODES,
    CLIENT_CODES,
    socketCandidates,
    SYSTEM_SOCKET,
};
