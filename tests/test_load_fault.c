/* test_load_fault.c -- sudokud under load and faults at once (label: load).
 *
 * Many clients hit one real daemon together, each with a prepared stream of
 * pipelined requests, and several of them misbehave in their own way:
 *
 *   normal       every tenth request is invalid, each time differently
 *                (wrong types, bad givens, wrong cell count, unknown method,
 *                unknown solver, limit 0, non-integer cell, method not a
 *                string); every request must get exactly one right answer
 *   disconnect   sends half its requests, reads a few answers, sends half a
 *                message and hangs up
 *   noread       sends as much as the daemon takes and never reads: the
 *                daemon must stop reading it (backpressure), not buffer all
 *   endless      starts a message (a 60000-byte string) and never ends it
 *   garbage      pipelined requests, then bytes that are not msgpack
 *   too_large    pipelined requests, then a header declaring 1 MiB
 *   oversize     pipelined requests, then a real 100 KiB message
 *
 * The last three must get the error notification (bad_request / too_large)
 * and then end of stream; the answers they got before it must be right.
 * Afterwards: the daemon answers ping, its peak resident memory stayed under
 * the bound, and its open descriptors are back to the baseline.  Every
 * solution is checked by the rules and the givens, never against a string.
 *
 * Size: 64 clients x 200 requests by default; SUDOKU_LOAD_FULL=1 makes it
 * 64 x 2,000, SUDOKU_LOAD_CLIENTS / SUDOKU_LOAD_REQUESTS set either.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "daemon_harness.h"
#include "sanitizer.h"

#define LOAD_CLIENTS       64     /* default connections */
#define LOAD_REQUESTS      200    /* default requests per connection */
#define LOAD_FULL_REQUESTS 2000   /* per connection with SUDOKU_LOAD_FULL=1 */
#define LOAD_DEADLINE_MS   240000 /* a client still busy after this fails */
#define LOAD_INVALID_KINDS 8      /* kinds of non-fatal invalid requests */
#define LOAD_RSS_BOUND_MB  128    /* stated bound on the daemon's peak RSS */
#define LOAD_RSS_ASAN_MB   768    /* the same under ASan (shadow, quarantine) */
#define LOAD_MAX_MESSAGE   65536  /* --max-message given to the daemon */
#define LOAD_NOREAD_MIN                                                                            \
    16000 /* a non-reader's stream: ~1.5 MB, more than the                                         \
             daemon may buffer for it (1 MiB unsent) */

enum role {
    ROLE_NORMAL,
    ROLE_DISCONNECT,
    ROLE_NOREAD,
    ROLE_ENDLESS,
    ROLE_GARBAGE,
    ROLE_TOO_LARGE,
    ROLE_OVERSIZE
};

/* What one request expects. */
struct expect {
    const char *code; /* NULL: a solution of puzzle; else this error code */
    int puzzle;       /* index into puzzles */
    int is_answered;  /* answers seen (must end at exactly 1) */
};

struct client {
    pthread_t tid;
    int index;
    enum role role;
    int fd;
    msgpack_sbuffer out; /* the whole stream to send */
    size_t fatal_at;     /* offset of the fatal bytes, or out.size */
    size_t sent;         /* bytes of out sent */
    struct expect *exp;  /* one per msgid */
    int requests;        /* requests in out */
    msgpack_unpacker up; /* answers */
    int answered;        /* answers matched to a request */
    int wrong;           /* answers that were wrong, unknown or repeated */
    int is_eof;          /* the daemon closed the connection */
    char note[32];       /* code of an error notification received */
    char why[200];       /* first problem, for the failure message */
};

static struct dh daemon_d; /* the daemon under test */
static char *puzzles[200];
static int puzzles_len;
static atomic_int load_done; /* set when the well-behaved clients are through */

/* ------------------------------------------------------------ sizing */

static int env_int(const char *name, int dflt)
{
    const char *v = getenv(name);
    return v && atoi(v) > 0 ? atoi(v) : dflt;
}

static enum role role_of(int i)
{
    static const enum role special[16] = {
        [3] = ROLE_DISCONNECT, [7] = ROLE_NOREAD, [11] = ROLE_DISCONNECT, [15] = ROLE_NOREAD};
    if (i == 1)
        return ROLE_ENDLESS;
    if (i == 5)
        return ROLE_GARBAGE;
    if (i == 9)
        return ROLE_TOO_LARGE;
    if (i == 13)
        return ROLE_OVERSIZE;
    return special[i % 16];
}

/* ------------------------------------------------------------ requests */

static void note_wrong(struct client *c, const char *fmt, ...)
{
    va_list ap;
    if (c->wrong++ == 0) {
        va_start(ap, fmt);
        vsnprintf(c->why, sizeof(c->why), fmt, ap);
        va_end(ap);
    }
}

/* Append one invalid request of the given kind; returns its error code. */
static const char *pack_invalid(msgpack_sbuffer *sb, uint32_t id, int kind, const char *puzzle)
{
    msgpack_packer pk;
    char bad[82];

    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    switch (kind) {
    case 0: /* params not an array */
        msgpack_pack_array(&pk, 4);
        msgpack_pack_int(&pk, 0);
        msgpack_pack_uint32(&pk, id);
        dh_pack_str(&pk, "solve");
        dh_pack_str(&pk, puzzle);
        return "bad_request";
    case 1: /* givens break a rule: two 1s in row 1 */
        memset(bad, '.', 81);
        bad[0] = bad[1] = '1';
        bad[81] = '\0';
        dh_pack_solve(sb, id, bad, NULL, 0, 0);
        return "bad_puzzle";
    case 2: /* wrong cell count */
        dh_pack_solve(sb, id, "12345", NULL, 0, 0);
        return "bad_puzzle";
    case 3:
        dh_pack_call(sb, id, "frobnicate");
        return "unknown_method";
    case 4:
        dh_pack_solve(sb, id, puzzle, "no-such-solver", 0, 0);
        return "unknown_solver";
    case 5: /* limit 0, packed by hand since dh_pack_solve treats 0 as absent */
        dh_pack_head(&pk, sb, id, "solve", 2);
        dh_pack_str(&pk, puzzle);
        msgpack_pack_map(&pk, 1);
        dh_pack_str(&pk, "limit");
        msgpack_pack_int(&pk, 0);
        return "bad_request";
    case 6: /* a puzzle array with a string in it */
        dh_pack_head(&pk, sb, id, "solve", 1);
        msgpack_pack_array(&pk, 16);
        for (int i = 0; i < 16; i++)
            i == 7 ? dh_pack_str(&pk, "x") : msgpack_pack_int(&pk, 0);
        return "bad_request";
    default: /* method is not a string */
        msgpack_pack_array(&pk, 4);
        msgpack_pack_int(&pk, 0);
        msgpack_pack_uint32(&pk, id);
        msgpack_pack_int(&pk, 7);
        msgpack_pack_array(&pk, 0);
        return "bad_request";
    }
}

/* The bytes that end a fatal client's stream. */
static void pack_fatal(struct client *c)
{
    static const char garbage[] = "\xc1 GET / HTTP/1.1\r\n\r\n";
    static const char too_large[] = "\x94\x00\x01\xa5solve\x91\xdb\x00\x10\x00\x00";
    msgpack_packer pk;
    char *big;

    c->fatal_at = c->out.size;
    msgpack_packer_init(&pk, &c->out, msgpack_sbuffer_write);
    if (c->role == ROLE_GARBAGE) {
        msgpack_sbuffer_write(&c->out, garbage, sizeof(garbage) - 1);
    } else if (c->role == ROLE_TOO_LARGE) {
        msgpack_sbuffer_write(&c->out, too_large, sizeof(too_large) - 1);
    } else if ((big = malloc(100 * 1024)) != NULL) {
        memset(big, '.', 100 * 1024);
        dh_pack_head(&pk, &c->out, (uint32_t)c->requests, "solve", 1);
        msgpack_pack_str(&pk, 100 * 1024);
        msgpack_pack_str_body(&pk, big, 100 * 1024);
        free(big);
    }
}

/* Prepare the client's whole stream: requests, then the fatal bytes. */
static int client_prepare(struct client *c, int requests)
{
    msgpack_sbuffer_init(&c->out);
    c->requests = c->role == ROLE_ENDLESS ? 1 : requests;
    if (c->role == ROLE_NOREAD && c->requests < LOAD_NOREAD_MIN)
        c->requests = LOAD_NOREAD_MIN;
    c->exp = calloc((size_t)c->requests, sizeof(*c->exp));
    if (!c->exp || !msgpack_unpacker_init(&c->up, 65536))
        return -ENOMEM;
    for (int j = 0; j < c->requests; j++) {
        int p = (c->index * 31 + j) % puzzles_len;
        c->exp[j].puzzle = p;
        if (c->role == ROLE_ENDLESS)
            dh_pack_call(&c->out, 0, "ping");
        else if (j % 10 == 9)
            c->exp[j].code =
                pack_invalid(&c->out, (uint32_t)j, (j / 10) % LOAD_INVALID_KINDS, puzzles[p]);
        else
            dh_pack_solve(&c->out, (uint32_t)j, puzzles[p], j % 7 == 0 ? "dlx" : NULL, 0, 0);
    }
    c->fatal_at = c->out.size;
    if (c->role == ROLE_GARBAGE || c->role == ROLE_TOO_LARGE || c->role == ROLE_OVERSIZE)
        pack_fatal(c);
    c->fd = dh_connect(daemon_d.sock);
    return c->fd < 0 ? c->fd : 0;
}

/* ------------------------------------------------------------ answers */

/* A notification [2, "error", [{"code": ...}]]: remember its code. */
static void take_note(struct client *c, const msgpack_object *o)
{
    const msgpack_object_array *a = &o->via.array;
    const msgpack_object *code = NULL;

    if (a->size == 3 && dh_str_eq(&a->ptr[1], "error") && a->ptr[2].type == MSGPACK_OBJECT_ARRAY &&
        a->ptr[2].via.array.size == 1)
        code = dh_map_get(&a->ptr[2].via.array.ptr[0], "code");
    if (!code || code->type != MSGPACK_OBJECT_STR || code->via.str.size >= sizeof(c->note)) {
        note_wrong(c, "client %d: malformed notification", c->index);
        return;
    }
    memcpy(c->note, code->via.str.ptr, code->via.str.size);
    c->note[code->via.str.size] = '\0';
}

/* Check one object from the daemon against what its msgid expects. */
static void take_answer(struct client *c, const msgpack_object *o)
{
    char code[32];
    uint32_t id;

    if (o->type == MSGPACK_OBJECT_ARRAY && o->via.array.size == 3 &&
        o->via.array.ptr[0].type == MSGPACK_OBJECT_POSITIVE_INTEGER &&
        o->via.array.ptr[0].via.u64 == 2) {
        take_note(c, o);
        return;
    }
    if (!dh_is_response(o, &id) || id >= (uint32_t)c->requests) {
        note_wrong(c, "client %d: not a response to a request sent", c->index);
        return;
    }
    struct expect *e = &c->exp[id];
    if (e->is_answered++) {
        note_wrong(c, "client %d: msgid %u answered twice", c->index, id);
        return;
    }
    c->answered++;
    const char *got = dh_error_code(o, code, sizeof(code));
    if (c->role == ROLE_ENDLESS) {
        if (got || !dh_str_eq(dh_result(o), "pong"))
            note_wrong(c, "client %d: ping not answered with pong", c->index);
    } else if (e->code && (!got || strcmp(got, e->code) != 0)) {
        note_wrong(c, "client %d: msgid %u: expected %s, got %s", c->index, id, e->code,
                   got ? got : "a result");
    } else if (!e->code && (got || dh_check_solved(dh_result(o), puzzles[e->puzzle]) < 0)) {
        note_wrong(c, "client %d: msgid %u: no right solution (%s)", c->index, id,
                   got ? got : "wrong");
    }
}

/* Read what is there without blocking.  Returns 0, or -EPIPE at the end. */
static int client_read(struct client *c)
{
    msgpack_unpacked u;
    ssize_t n;

    if (!msgpack_unpacker_reserve_buffer(&c->up, 65536))
        return -ENOMEM;
    n = recv(c->fd, msgpack_unpacker_buffer(&c->up), 65536, MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return 0;
    if (n <= 0) { /* end of stream, or ECONNRESET when it hung up on unread input */
        c->is_eof = 1;
        return -EPIPE;
    }
    msgpack_unpacker_buffer_consumed(&c->up, (size_t)n);
    msgpack_unpacked_init(&u);
    while (msgpack_unpacker_next(&c->up, &u) == MSGPACK_UNPACK_SUCCESS)
        take_answer(c, &u.data);
    msgpack_unpacked_destroy(&u);
    return 0;
}

/* Send out[sent..limit) as far as the socket takes it now. */
static int client_write(struct client *c, size_t limit)
{
    ssize_t n = send(c->fd, c->out.data + c->sent, limit - c->sent, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n < 0)
        return errno == EAGAIN || errno == EINTR ? 0 : -errno;
    c->sent += (size_t)n;
    return 0;
}

/* Write up to limit and read, until done() says stop or the deadline. */
static int client_pump(struct client *c, size_t limit, int (*done)(const struct client *),
                       int do_read, uint64_t end)
{
    while (!done(c)) {
        struct pollfd pfd = {.fd = c->fd, .events = (short)(do_read ? POLLIN : 0)};
        uint64_t now = dh_now_ms();
        if (c->sent < limit)
            pfd.events |= POLLOUT;
        if (now >= end)
            return -ETIMEDOUT;
        if (poll(&pfd, 1, (int)(end - now)) < 0 && errno != EINTR)
            return -errno;
        if ((pfd.revents & POLLOUT) && client_write(c, limit) < 0 && !do_read)
            return -EPIPE;
        if ((pfd.revents & (POLLIN | POLLHUP | POLLERR)) && do_read && client_read(c) < 0)
            return -EPIPE;
        if (!do_read && (pfd.revents & (POLLHUP | POLLERR)))
            return -EPIPE;
    }
    return 0;
}

static int all_answered(const struct client *c)
{
    return c->answered == c->requests;
}

static int quarter_answered(const struct client *c)
{
    return c->answered >= c->requests / 4 && c->sent >= c->out.size / 2;
}

static int never(const struct client *c)
{
    (void)c;
    return load_done;
}

/* ------------------------------------------------------------ roles */

static void run_normal(struct client *c, uint64_t end)
{
    if (client_pump(c, c->out.size, all_answered, 1, end) < 0)
        note_wrong(c, "client %d: %d of %d answered (%s)", c->index, c->answered, c->requests,
                   c->is_eof ? "daemon hung up" : "timed out");
}

static void run_disconnect(struct client *c, uint64_t end)
{
    /* Half the stream, then half of the message after it, then hang up. */
    size_t half = c->out.size / 2;
    if (client_pump(c, half, quarter_answered, 1, end) < 0)
        note_wrong(c, "client %d: daemon stopped answering", c->index);
    if (half > c->sent)
        client_write(c, half);
}

static void run_noread(struct client *c, uint64_t end)
{
    /* Push until the daemon stops taking bytes, then just hold on. */
    uint64_t idle_end = dh_now_ms() + 500;
    while (c->sent < c->out.size && dh_now_ms() < idle_end && dh_now_ms() < end) {
        size_t before = c->sent;
        struct pollfd pfd = {.fd = c->fd, .events = POLLOUT};
        poll(&pfd, 1, 50);
        if (client_write(c, c->out.size) < 0)
            break;
        if (c->sent > before)
            idle_end = dh_now_ms() + 500;
    }
    /* Backpressure: the daemon stops reading before it has answered all. */
    if (c->sent == c->out.size)
        note_wrong(c, "client %d: daemon read all %zu bytes of a client that never reads", c->index,
                   c->out.size);
    while (!load_done && dh_now_ms() < end)
        usleep(20000);
}

static void run_endless(struct client *c, uint64_t end)
{
    /* A ping, then a string that claims 60000 bytes and comes a byte at a time. */
    static const char start[] = "\x94\x00\x02\xa5solve\x91\xda\xea\x60";
    if (client_pump(c, c->out.size, all_answered, 1, end) < 0)
        note_wrong(c, "client %d: ping before the endless message unanswered", c->index);
    if (send(c->fd, start, sizeof(start) - 1, MSG_NOSIGNAL) != (ssize_t)(sizeof(start) - 1))
        note_wrong(c, "client %d: daemon refused the start of a message", c->index);
    while (!load_done && dh_now_ms() < end && !c->is_eof) {
        if (send(c->fd, ".", 1, MSG_NOSIGNAL) != 1)
            note_wrong(c, "client %d: daemon hung up on a slow message", c->index);
        usleep(20000);
    }
}

static void run_fatal(struct client *c, uint64_t end)
{
    const char *want = c->role == ROLE_GARBAGE ? "bad_request" : "too_large";
    client_pump(c, c->out.size, never, 1, end); /* ends at EOF (-EPIPE) or deadline */
    if (!c->is_eof || strcmp(c->note, want) != 0)
        note_wrong(c, "client %d: expected a %s notification then end of stream, got '%s'%s",
                   c->index, want, c->note, c->is_eof ? "" : " and no end");
}

static void *client_main(void *arg)
{
    struct client *c = arg;
    uint64_t end = dh_now_ms() + LOAD_DEADLINE_MS;

    switch (c->role) {
    case ROLE_NORMAL:
        run_normal(c, end);
        break;
    case ROLE_DISCONNECT:
        run_disconnect(c, end);
        break;
    case ROLE_NOREAD:
        run_noread(c, end);
        break;
    case ROLE_ENDLESS:
        run_endless(c, end);
        break;
    default:
        run_fatal(c, end);
        break;
    }
    close(c->fd);
    c->fd = -1;
    return NULL;
}

/* ------------------------------------------------------------ the daemon */

/* A "VmRSS:" style line of /proc/<pid>/status in KiB, or -1. */
static long proc_status_kib(pid_t pid, const char *key)
{
    char path[64], line[256];
    long v = -1;
    size_t klen = strlen(key);
    FILE *f;

    snprintf(path, sizeof(path), "/proc/%ld/status", (long)pid);
    if (!(f = fopen(path, "r")))
        return -1;
    while (fgets(line, sizeof(line), f))
        if (strncmp(line, key, klen) == 0 && line[klen] == ':')
            v = atol(line + klen + 1);
    fclose(f);
    return v;
}

/* Open descriptors of pid, or -errno. */
static int proc_fd_count(pid_t pid)
{
    char path[64];
    char cmd[128];
    int count = -1;
    FILE *p;

    snprintf(path, sizeof(path), "/proc/%ld/fd", (long)pid);
    snprintf(cmd, sizeof(cmd), "ls %s | wc -l", path);
    if ((p = popen(cmd, "r")) != NULL) {
        if (fscanf(p, "%d", &count) != 1)
            count = -1;
        pclose(p);
    }
    return count;
}

/* 1 when the daemon runs under valgrind (scripts/valgrind.sh): then its
 * memory figures are valgrind's, and only reported. */
static int is_under_valgrind(pid_t pid)
{
    char path[64], exe[512];
    ssize_t n;

    snprintf(path, sizeof(path), "/proc/%ld/exe", (long)pid);
    n = readlink(path, exe, sizeof(exe) - 1);
    if (n <= 0)
        return 0;
    exe[n] = '\0';
    return strstr(exe, "valgrind") != NULL || strstr(exe, "memcheck") != NULL;
}

struct sampler {
    pthread_t tid;
    pid_t pid;
    atomic_int stop;
    long peak_kib; /* highest VmRSS seen */
};

static void *sampler_main(void *arg)
{
    struct sampler *s = arg;
    while (!s->stop) {
        long v = proc_status_kib(s->pid, "VmRSS");
        if (v > s->peak_kib)
            s->peak_kib = v;
        usleep(20000);
    }
    return NULL;
}

/* The daemon's descriptors once they stop changing: the same count for
 * 200 ms (the start-up ping's connection closes asynchronously, later than
 * usual on a loaded host), at most 5 s. */
static int settled_fds(pid_t pid)
{
    uint64_t end = dh_now_ms() + 5000;
    int n = proc_fd_count(pid), same = 0;

    while (same < 10 && dh_now_ms() < end) {
        int m;
        usleep(20000);
        m = proc_fd_count(pid);
        same = m == n ? same + 1 : 0;
        n = m;
    }
    return n;
}

/* Descriptors settle asynchronously (close callbacks): wait for baseline. */
static int wait_fds(pid_t pid, int baseline)
{
    uint64_t end = dh_now_ms() + 10000;
    int n;
    while ((n = proc_fd_count(pid)) != baseline && dh_now_ms() < end)
        usleep(50000);
    return n;
}

/* ------------------------------------------------------------ tests */

static int setup(void **state)
{
    (void)state;
    puzzles_len = dh_load_lines(SUDOKU_TEST_DATA_DIR "/daemon_17clue.txt", puzzles, 200);
    return puzzles_len < 100 ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    dh_free_lines(puzzles, puzzles_len);
    return 0;
}

/* On a failed assert the test returns early: never leave a daemon behind. */
static int test_teardown(void **state)
{
    (void)state;
    dh_cleanup(&daemon_d);
    return 0;
}

static void client_free(struct client *c)
{
    msgpack_sbuffer_destroy(&c->out);
    msgpack_unpacker_destroy(&c->up);
    free(c->exp);
}

/* Sum what the clients saw; fail on the first client that saw a problem. */
static void check_clients(struct client *cl, int len, int *valid_answered)
{
    int problems = 0;
    for (int i = 0; i < len; i++) {
        struct client *c = &cl[i];
        if (c->wrong) {
            print_error("%s (%d problems on this connection)\n", c->why, c->wrong);
            problems++;
        }
        for (int j = 0; j < c->requests && c->role != ROLE_ENDLESS; j++)
            *valid_answered += c->exp[j].is_answered && !c->exp[j].code;
    }
    assert_int_equal(problems, 0);
}

static void test_load_and_faults(void **state)
{
    /* No deadline for finishing a message: the endless client's message
     * must outlive the run however slow the build (a sanitizer's is); the
     * deadline has its own test in test_daemon_slots. */
    static const char *const args[] = {
        "-j", "2", "--max-connections", "256", "--max-message", "65536", "--message-timeout",
        "0",  NULL};
    int clients = env_int("SUDOKU_LOAD_CLIENTS", LOAD_CLIENTS);
    int requests = env_int("SUDOKU_LOAD_REQUESTS",
                           getenv("SUDOKU_LOAD_FULL") && atoi(getenv("SUDOKU_LOAD_FULL")) > 0
                               ? LOAD_FULL_REQUESTS
                               : LOAD_REQUESTS);
    struct client *cl = calloc((size_t)clients, sizeof(*cl));
    struct sampler smp = {0};
    int valid_answered = 0;
    uint64_t t0;

    (void)state;
    assert_non_null(cl);
    assert_int_equal(dh_start(&daemon_d, args), 0);
    int fd_base = settled_fds(daemon_d.pid);
    long rss_base = proc_status_kib(daemon_d.pid, "VmRSS");
    assert_true(fd_base > 0);

    smp.pid = daemon_d.pid;
    assert_int_equal(pthread_create(&smp.tid, NULL, sampler_main, &smp), 0);
    for (int i = 0; i < clients; i++) {
        cl[i].index = i;
        cl[i].role = role_of(i);
        assert_int_equal(client_prepare(&cl[i], requests), 0);
    }
    t0 = dh_now_ms();
    for (int i = 0; i < clients; i++)
        assert_int_equal(pthread_create(&cl[i].tid, NULL, client_main, &cl[i]), 0);
    for (int i = 0; i < clients; i++)
        if (cl[i].role != ROLE_NOREAD && cl[i].role != ROLE_ENDLESS)
            pthread_join(cl[i].tid, NULL);
    uint64_t t1 = dh_now_ms();
    /* The daemon answers while the endless and non-reading clients hold on. */
    assert_int_equal(dh_ping(daemon_d.sock, 5000), 0);
    load_done = 1;
    for (int i = 0; i < clients; i++)
        if (cl[i].role == ROLE_NOREAD || cl[i].role == ROLE_ENDLESS)
            pthread_join(cl[i].tid, NULL);

    assert_int_equal(dh_ping(daemon_d.sock, 5000), 0);
    int fd_end = wait_fds(daemon_d.pid, fd_base);
    smp.stop = 1;
    pthread_join(smp.tid, NULL);
    long hwm = proc_status_kib(daemon_d.pid, "VmHWM");
    long bound_mb = TEST_ASAN ? LOAD_RSS_ASAN_MB : LOAD_RSS_BOUND_MB;

    check_clients(cl, clients, &valid_answered);
    printf("load: %d clients x %d requests in %llu ms; %d valid requests answered right\n", clients,
           requests, (unsigned long long)(t1 - t0), valid_answered);
    printf("load: daemon RSS %ld KiB at start, peak sampled %ld KiB, VmHWM %ld KiB "
           "(bound %ld MiB)\n",
           rss_base, smp.peak_kib, hwm, bound_mb);
    printf("load: daemon descriptors %d at start, %d after\n", fd_base, fd_end);
    fflush(stdout);
    assert_int_equal(fd_end, fd_base);
    if (!is_under_valgrind(daemon_d.pid))
        assert_true(hwm > 0 && hwm < bound_mb * 1024);
    assert_int_equal(dh_stop(&daemon_d), 0);
    dh_cleanup(&daemon_d);
    for (int i = 0; i < clients; i++)
        client_free(&cl[i]);
    free(cl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_load_and_faults, test_teardown),
    };
    signal(SIGPIPE, SIG_IGN);
    return cmocka_run_group_tests(tests, setup, teardown);
}
