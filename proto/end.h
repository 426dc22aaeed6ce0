/* end.h -- which end of the wire a proto/ object is built for.
 *
 * A message file of proto/ holds the client's half and the daemon's half of
 * its messages side by side, each in a section of its own:
 *
 *     #if PROTO_CLIENT_END        pack the request, decode its answer
 *     #if PROTO_DAEMON_END        decode the request, pack its answer
 *
 * The build compiles such a file twice: with PROTO_ONLY_CLIENT defined into
 * sudoku_proto_client (and so into libsudoku-client), with PROTO_ONLY_DAEMON
 * into sudoku_proto; so the client library links nothing of the daemon's
 * half (tests/layers.sh checks the built library for rpc_* symbols).  A
 * build that defines neither, as the fuzz targets do, gets both ends in one
 * object.  Names say the end: rpc_* is the daemon's, wire_* the client's,
 * proto_* both.
 */
#ifndef SUDOKU_PROTO_END_H
#define SUDOKU_PROTO_END_H

#if defined(PROTO_ONLY_CLIENT) && defined(PROTO_ONLY_DAEMON)
#error "proto/end.h: build for one end, or for both by defining neither"
#elif defined(PROTO_ONLY_CLIENT)
#define PROTO_CLIENT_END 1
#define PROTO_DAEMON_END 0
#elif defined(PROTO_ONLY_DAEMON)
#define PROTO_CLIENT_END 0
#define PROTO_DAEMON_END 1
#else
#define PROTO_CLIENT_END 1
#define PROTO_DAEMON_END 1
#endif

#endif /* SUDOKU_PROTO_END_H */
