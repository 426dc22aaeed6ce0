/* fake_peer.h -- the scripted fake daemons of the client library's tests.
 *
 * test_client_batch, test_client_generate and test_client_explain each play
 * the daemon in a thread, on one end of a socketpair, from a script of their
 * own.  What they share lives here: the pair itself, a send that writes all
 * or gives up with the peer, the reply's head, and (for the tests that frame
 * requests with proto/mpscan) the serving loop.  The loop reads whole
 * requests and hands each to the test; when the client has been quiet for
 * FAKE_PEER_QUIET_MS it asks the test to answer what it holds back, so a
 * script can answer a group out of order.
 */
#ifndef SUDOKU_TESTS_FAKE_PEER_H
#define SUDOKU_TESTS_FAKE_PEER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <msgpack.h>

#define FAKE_PEER_QUIET_MS 20 /* no request for this long: the client waits */

struct sudoku_client;

/* What a test's script does with the loop; each returns 0 to go on or < 0
 * to hang up.  arg is fake_peer_serve's. */
struct fake_peer_ops {
    int (*on_request)(void *arg, const uint8_t *p, size_t len); /* one whole request */
    int (*on_quiet)(void *arg); /* the client is quiet: answer what is held */
    int (*on_read)(void *arg);  /* after each read's requests; may be NULL */
};

/* A connected pair: the fake's end in *peer_fd (the caller closes it), the
 * client library on the other.  Fails the test when either cannot be made.
 * Returns the client; the caller frees it (sudoku_client_free). */
struct sudoku_client *fake_peer_client(int *peer_fd);

/* For a fake daemon in a child process: listen on the Unix socket path
 * (replacing a stale one), fork, and in the parent return the child's pid
 * (the caller kills and reaps it).  In the child return 0 with *fd the one
 * connection accepted; the child lives at most 60 s (alarm) and should end
 * with _exit.  Fails the test when the socket or the fork cannot be made. */
pid_t fake_peer_fork_listener(const char *path, int *fd);

/* Write all of p, or stop quietly when the client has gone. */
void fake_peer_send_all(int fd, const void *p, size_t len);

/* Pack the head of a reply to msgid, [1, msgid, ...: the caller packs the
 * error and the result. */
void fake_peer_reply_head(msgpack_packer *pk, uint32_t msgid);

/* Pack a whole answer to msgid: solved, with solution (line form), count 1. */
void fake_peer_pack_solved(msgpack_packer *pk, uint32_t msgid, const char *solution);

/* Serve fd with ops until the client goes or a callback hangs up, then
 * close fd.  Requests are framed by mpscan_object in a 64 KiB buffer. */
void fake_peer_serve(int fd, const struct fake_peer_ops *ops, void *arg);

#endif
