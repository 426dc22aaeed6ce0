/* daemon_harness.c -- spawn sudokud, connect, pack requests, read responses.
 *
 * Test support only: errors come back as negative errno values and the tests
 * assert on them.  Responses are decoded with msgpack_unpacker, which is fine
 * here because the peer is the daemon under test, not an attacker.
 */
#include "daemon_harness.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/grid.h"
#include "proto/codec.h"
#include "util/clock.h"

uint64_t dh_now_ms(void)
{
    return clock_now_ms();
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

int dh_init(struct dh *d)
{
    memset(d, 0, sizeof(*d));
    snprintf(d->dir, sizeof(d->dir), "/tmp/sudokud-test-XXXXXX");
    if (!mkdtemp(d->dir))
        return -errno;
    snprintf(d->sock, sizeof(d->sock), "%s/sudokud.sock", d->dir);
    snprintf(d->log, sizeof(d->log), "%s/stderr.log", d->dir);
    d->stderr_fd = -1;
    return 0;
}

int dh_spawn(struct dh *d, const char *const *extra)
{
    const char *argv[48];
    size_t argc = 0;
    pid_t pid;

    argv[argc++] = SUDOKU_BIN_DIR "/sudokud";
    argv[argc++] = "-s";
    argv[argc++] = d->sock;
    argv[argc++] = "-P";
    argv[argc++] = SUDOKU_BUILD_PLUGIN_DIR;
    for (size_t i = 0; extra && extra[i] && argc < 47; i++)
        argv[argc++] = extra[i];
    argv[argc] = NULL;
    pid = fork();
    if (pid < 0)
        return -errno;
    if (pid == 0) {
        int fd =
            d->stderr_fd >= 0 ? d->stderr_fd : open(d->log, O_WRONLY | O_CREAT | O_APPEND, 0644);
        /* A test that dies (assert, timeout kill) takes its daemon with it. */
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (fd >= 0)
            dup2(fd, STDERR_FILENO);
        if (d->nofile > 0) {
            struct rlimit rl = {.rlim_cur = d->nofile, .rlim_max = d->nofile};
            setrlimit(RLIMIT_NOFILE, &rl);
        }
        unsetenv("JOURNAL_STREAM");
        unsetenv("LISTEN_FDS");
        unsetenv("NOTIFY_SOCKET");
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    d->pid = pid;
    return 0;
}

int dh_start(struct dh *d, const char *const *extra)
{
    int rc = dh_init(d);

    if (rc == 0)
        rc = dh_spawn(d, extra);
    if (rc < 0)
        return rc;
    return dh_wait_ready(d);
}

int dh_wait_ready(struct dh *d)
{
    uint64_t end = dh_now_ms() + DH_TIMEOUT_MS;

    while (dh_now_ms() < end) {
        if (dh_ping(d->sock, 1000) == 0)
            return 0;
        if (waitpid(d->pid, NULL, WNOHANG) == d->pid) {
            d->pid = 0;
            return -ECHILD;
        }
        sleep_ms(10);
    }
    return -ETIMEDOUT;
}

int dh_wait(struct dh *d, int timeout_ms)
{
    uint64_t end = dh_now_ms() + (uint64_t)timeout_ms;
    int status;

    if (d->pid <= 0)
        return -ECHILD;
    while (dh_now_ms() < end) {
        pid_t r = waitpid(d->pid, &status, WNOHANG);
        if (r == d->pid) {
            d->pid = 0;
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        }
        sleep_ms(5);
    }
    kill(d->pid, SIGKILL);
    waitpid(d->pid, &status, 0);
    d->pid = 0;
    return -ETIMEDOUT;
}

int dh_stop(struct dh *d)
{
    if (d->pid <= 0)
        return -ECHILD;
    kill(d->pid, SIGTERM);
    return dh_wait(d, DH_TIMEOUT_MS);
}

void dh_cleanup(struct dh *d)
{
    if (d->pid > 0)
        dh_stop(d);
    if (d->dir[0] && getenv("SUDOKU_KEEP_TEST_DIRS") == NULL) {
        char cmd[300];
        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d->dir);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", d->dir);
    }
    d->dir[0] = '\0';
}

static int log_has_now(const struct dh *d, const char *needle)
{
    FILE *f = fopen(d->log, "r");
    char *buf = NULL;
    long size;
    int found = 0;

    if (!f)
        return 0;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)size + 1)) != NULL) {
        size_t n = fread(buf, 1, (size_t)size, f);
        buf[n] = '\0';
        found = strstr(buf, needle) != NULL;
    }
    free(buf);
    fclose(f);
    return found;
}

int dh_log_has(const struct dh *d, const char *needle)
{
    uint64_t end = dh_now_ms() + DH_LOG_WAIT_MS;

    for (;;) {
        if (log_has_now(d, needle))
            return 1;
        if (d->pid <= 0 || dh_now_ms() >= end)
            return 0;
        sleep_ms(10);
    }
}

int dh_connect(const char *path)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    int fd;

    if (strlen(path) >= sizeof(sa.sun_path))
        return -ENAMETOOLONG;
    strcpy(sa.sun_path, path);
    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -errno;
    if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
        int e = errno;
        close(fd);
        return -e;
    }
    return fd;
}

int dh_send(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len > 0) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -errno;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

void dh_reader_init(struct dh_reader *r, int fd)
{
    r->fd = fd;
    msgpack_unpacker_init(&r->up, 65536);
}

void dh_reader_close(struct dh_reader *r)
{
    msgpack_unpacker_destroy(&r->up);
    if (r->fd >= 0)
        close(r->fd);
    r->fd = -1;
}

int dh_read(struct dh_reader *r, msgpack_unpacked *out, int timeout_ms)
{
    uint64_t end = dh_now_ms() + (uint64_t)timeout_ms;

    for (;;) {
        msgpack_unpack_return ret = msgpack_unpacker_next(&r->up, out);
        struct pollfd pfd = {.fd = r->fd, .events = POLLIN};
        uint64_t now = dh_now_ms();
        ssize_t n;

        if (ret == MSGPACK_UNPACK_SUCCESS)
            return 0;
        if (ret < 0)
            return -EBADMSG;
        if (now >= end)
            return -ETIMEDOUT;
        if (poll(&pfd, 1, (int)(end - now)) <= 0)
            continue;
        if (!msgpack_unpacker_reserve_buffer(&r->up, 65536))
            return -ENOMEM;
        n = recv(r->fd, msgpack_unpacker_buffer(&r->up), 65536, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -EPIPE; /* EOF, or ECONNRESET after the daemon hung up */
        msgpack_unpacker_buffer_consumed(&r->up, (size_t)n);
    }
}

void dh_pack_str(msgpack_packer *pk, const char *s)
{
    msgpack_pack_str(pk, strlen(s));
    msgpack_pack_str_body(pk, s, strlen(s));
}

void dh_pack_head(msgpack_packer *pk, msgpack_sbuffer *sb, uint32_t msgid, const char *method,
                  uint32_t params)
{
    msgpack_packer_init(pk, sb, msgpack_sbuffer_write);
    msgpack_pack_array(pk, 4);
    msgpack_pack_int(pk, 0);
    msgpack_pack_uint32(pk, msgid);
    dh_pack_str(pk, method);
    msgpack_pack_array(pk, params);
}

void dh_pack_call(msgpack_sbuffer *sb, uint32_t msgid, const char *method)
{
    msgpack_packer pk;

    dh_pack_head(&pk, sb, msgid, method, 0);
}

void dh_pack_generate(msgpack_sbuffer *sb, uint32_t msgid, unsigned n, unsigned count)
{
    msgpack_packer pk;

    dh_pack_head(&pk, sb, msgid, "generate", 1);
    msgpack_pack_map(&pk, 2);
    dh_pack_str(&pk, "size");
    msgpack_pack_uint32(&pk, n);
    dh_pack_str(&pk, "count");
    msgpack_pack_uint32(&pk, count);
}

void dh_pack_solve(msgpack_sbuffer *sb, uint32_t msgid, const char *puzzle, const char *solver,
                   uint64_t limit, uint64_t timeout_ms)
{
    msgpack_packer pk;
    int opts = (solver != NULL) + (limit != 0) + (timeout_ms != 0);

    dh_pack_head(&pk, sb, msgid, "solve", opts ? 2 : 1);
    dh_pack_str(&pk, puzzle);
    if (!opts)
        return;
    msgpack_pack_map(&pk, (size_t)opts);
    if (solver) {
        dh_pack_str(&pk, "solver");
        dh_pack_str(&pk, solver);
    }
    if (limit) {
        dh_pack_str(&pk, "limit");
        msgpack_pack_uint64(&pk, limit);
    }
    if (timeout_ms) {
        dh_pack_str(&pk, "timeout_ms");
        msgpack_pack_uint64(&pk, timeout_ms);
    }
}

void dh_pack_cancel(msgpack_sbuffer *sb, uint32_t msgid)
{
    msgpack_packer pk;
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    msgpack_pack_array(&pk, 3);
    msgpack_pack_int(&pk, 2);
    dh_pack_str(&pk, "cancel");
    msgpack_pack_array(&pk, 1);
    msgpack_pack_uint32(&pk, msgid);
}

int dh_is_response(const msgpack_object *o, uint32_t *msgid)
{
    if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != 4)
        return 0;
    if (o->via.array.ptr[0].type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
        o->via.array.ptr[0].via.u64 != 1 ||
        o->via.array.ptr[1].type != MSGPACK_OBJECT_POSITIVE_INTEGER)
        return 0;
    if (msgid)
        *msgid = (uint32_t)o->via.array.ptr[1].via.u64;
    return 1;
}

int dh_call(struct dh_reader *r, const msgpack_sbuffer *req, uint32_t msgid, msgpack_unpacked *out)
{
    return dh_call_within(r, req, msgid, out, DH_TIMEOUT_MS);
}

int dh_call_within(struct dh_reader *r, const msgpack_sbuffer *req, uint32_t msgid,
                   msgpack_unpacked *out, int timeout_ms)
{
    int rc = dh_send(r->fd, req->data, req->size);
    uint32_t id;

    while (rc == 0) {
        rc = dh_read(r, out, timeout_ms);
        if (rc == 0 && dh_is_response(&out->data, &id) && id == msgid)
            return 0;
    }
    return rc;
}

int dh_str_eq(const msgpack_object *o, const char *s)
{
    return o && o->type == MSGPACK_OBJECT_STR && o->via.str.size == strlen(s) &&
           memcmp(o->via.str.ptr, s, o->via.str.size) == 0;
}

const msgpack_object *dh_map_get(const msgpack_object *map, const char *key)
{
    if (!map || map->type != MSGPACK_OBJECT_MAP)
        return NULL;
    for (uint32_t i = 0; i < map->via.map.size; i++)
        if (dh_str_eq(&map->via.map.ptr[i].key, key))
            return &map->via.map.ptr[i].val;
    return NULL;
}

const msgpack_object *dh_result(const msgpack_object *resp)
{
    if (!dh_is_response(resp, NULL) || resp->via.array.ptr[2].type != MSGPACK_OBJECT_NIL)
        return NULL;
    return &resp->via.array.ptr[3];
}

const char *dh_error_code(const msgpack_object *resp, char *buf, size_t size)
{
    const msgpack_object *code, *msg;

    if (!dh_is_response(resp, NULL) || resp->via.array.ptr[2].type != MSGPACK_OBJECT_MAP ||
        resp->via.array.ptr[3].type != MSGPACK_OBJECT_NIL)
        return NULL;
    code = dh_map_get(&resp->via.array.ptr[2], "code");
    msg = dh_map_get(&resp->via.array.ptr[2], "message");
    if (!code || code->type != MSGPACK_OBJECT_STR || !msg || msg->type != MSGPACK_OBJECT_STR ||
        msg->via.str.size == 0 || code->via.str.size >= size)
        return NULL;
    memcpy(buf, code->via.str.ptr, code->via.str.size);
    buf[code->via.str.size] = '\0';
    return buf;
}

int dh_ping(const char *sock, int timeout_ms)
{
    struct dh_reader r;
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    int fd = dh_connect(sock), rc;
    uint32_t id;

    if (fd < 0)
        return fd;
    dh_reader_init(&r, fd);
    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    dh_pack_call(&sb, 7, "ping");
    rc = dh_send(fd, sb.data, sb.size);
    if (rc == 0)
        rc = dh_read(&r, &u, timeout_ms);
    if (rc == 0 &&
        !(dh_is_response(&u.data, &id) && id == 7 && dh_str_eq(dh_result(&u.data), "pong")))
        rc = -EPROTO;
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    dh_reader_close(&r);
    return rc;
}

int dh_load_lines(const char *path, char **lines, int max)
{
    FILE *f = fopen(path, "r");
    char buf[1024];
    int len = 0;

    if (!f)
        return -errno;
    while (len < max && fgets(buf, sizeof(buf), f)) {
        buf[strcspn(buf, "\r\n")] = '\0';
        if (buf[0] && buf[0] != '#')
            lines[len++] = strdup(buf);
    }
    fclose(f);
    return len;
}

void dh_free_lines(char **lines, int len)
{
    for (int i = 0; i < len; i++)
        free(lines[i]);
}

int dh_check_solved(const msgpack_object *result, const char *puzzle)
{
    const msgpack_object *st = dh_map_get(result, "status");
    const msgpack_object *sol = dh_map_get(result, "solution");
    uint8_t pc[SDK_MAX_CELLS], sc[SDK_MAX_CELLS];
    unsigned n, m;
    char err[256];

    if (!dh_str_eq(st, "solved") || !sol || sol->type != MSGPACK_OBJECT_STR)
        return -EINVAL;
    if (codec_parse_line(puzzle, strlen(puzzle), &n, pc, NULL, 0) < 0 ||
        codec_parse_line(sol->via.str.ptr, sol->via.str.size, &m, sc, NULL, 0) < 0 || m != n ||
        sol->via.str.size != n * n)
        return -EINVAL;
    if (grid_check_solution(n, pc, sc, err, sizeof(err)) < 0) {
        fprintf(stderr, "wrong solution: %s\n", err);
        return -EINVAL;
    }
    return 0;
}
