/* fake_peer.c -- the scripted fake daemons of the client library's tests.
 *
 * The pair (or the listener of a fake in a child), the send, the reply's
 * head and the serving loop that the client tests share
 * (fake_peer.h has the contracts).  Nothing here knows a script: the tests
 * keep what they answer, and when.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "proto/mpscan.h"
#include "tests/fake_peer.h"
#include <sudoku/client.h>

#define FAKE_PEER_BUF (1 << 16) /* the largest request the loop frames */

struct sudoku_client *fake_peer_client(int *peer_fd)
{
    int sv[2];
    struct sudoku_client *c = NULL;
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    *peer_fd = sv[1];
    assert_int_equal(sudoku_client_open_fd(sv[0], &c), 0);
    return c;
}

pid_t fake_peer_fork_listener(const char *path, int *fd)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    int lfd = socket(AF_UNIX, SOCK_STREAM, 0);

    assert_true(lfd >= 0);
    assert_true(strlen(path) < sizeof(sa.sun_path));
    memcpy(sa.sun_path, path, strlen(path) + 1);
    unlink(path);
    assert_int_equal(bind(lfd, (struct sockaddr *)&sa, sizeof(sa)), 0);
    assert_int_equal(listen(lfd, 4), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid > 0) {
        close(lfd);
        return pid;
    }
    alarm(60); /* never outlive a broken test */
    *fd = accept(lfd, NULL, NULL);
    return 0;
}

void fake_peer_send_all(int fd, const void *p, size_t len)
{
    const char *c = p;
    while (len > 0) {
        ssize_t n = send(fd, c, len, MSG_NOSIGNAL);
        if (n <= 0)
            return;
        c += n;
        len -= (size_t)n;
    }
}

void fake_peer_reply_head(msgpack_packer *pk, uint32_t msgid)
{
    msgpack_pack_array(pk, 4);
    msgpack_pack_uint8(pk, 1);
    msgpack_pack_uint32(pk, msgid);
}

void fake_peer_pack_solved(msgpack_packer *pk, uint32_t msgid, const char *solution)
{
    fake_peer_reply_head(pk, msgid);
    msgpack_pack_nil(pk);
    msgpack_pack_map(pk, 3);
    msgpack_pack_str_with_body(pk, "status", 6);
    msgpack_pack_str_with_body(pk, "solved", 6);
    msgpack_pack_str_with_body(pk, "solution", 8);
    msgpack_pack_str_with_body(pk, solution, strlen(solution));
    msgpack_pack_str_with_body(pk, "count", 5);
    msgpack_pack_uint8(pk, 1);
}

/* Hand every whole request at the front of buf to the test.  Returns 0, or
 * < 0 when it hangs up. */
static int take_all(uint8_t *buf, size_t *len, const struct fake_peer_ops *ops, void *arg)
{
    ssize_t m;
    while ((m = mpscan_object(buf, *len, FAKE_PEER_BUF, MPSCAN_MAX_DEPTH)) > 0) {
        if (ops->on_request(arg, buf, (size_t)m) < 0)
            return -1;
        memmove(buf, buf + m, *len - (size_t)m);
        *len -= (size_t)m;
    }
    return 0;
}

void fake_peer_serve(int fd, const struct fake_peer_ops *ops, void *arg)
{
    uint8_t *buf = malloc(FAKE_PEER_BUF);
    size_t len = 0;
    if (!buf)
        abort(); /* a thread cannot fail the test; a fake that hung up would pass some */
    for (;;) {
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        if (poll(&pfd, 1, FAKE_PEER_QUIET_MS) == 0) {
            if (ops->on_quiet(arg) < 0)
                break;
            continue;
        }
        ssize_t n = recv(fd, buf + len, FAKE_PEER_BUF - len, 0);
        if (n <= 0)
            break;
        len += (size_t)n;
        if (take_all(buf, &len, ops, arg) < 0)
            break;
        if (ops->on_read && ops->on_read(arg) < 0)
            break;
    }
    free(buf);
    close(fd);
}
