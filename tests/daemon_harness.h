/* daemon_harness.h -- run the real sudokud and talk msgpack-rpc to it.
 *
 * The daemon tests spawn the built sudokud (SUDOKU_BIN_DIR) with the built
 * plugins (SUDOKU_BUILD_PLUGIN_DIR) on a socket in a fresh mkdtemp()
 * directory, wait until it answers ping, and drive it with raw msgpack built
 * by msgpack-c.  Every read has a timeout, so a broken daemon fails a test
 * instead of hanging it.
 */
#ifndef SUDOKU_DAEMON_HARNESS_H
#define SUDOKU_DAEMON_HARNESS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <msgpack.h>

#define DH_TIMEOUT_MS  20000 /* default bound on any single wait */
#define DH_LOG_WAIT_MS 5000  /* a running daemon's line may take this long to be written */

/* One spawned daemon. */
struct dh {
    char dir[128];   /* mkdtemp directory, removed by dh_cleanup */
    char sock[256];  /* socket path inside dir (or as given) */
    char log[256];   /* the daemon's stderr */
    pid_t pid;       /* 0 when not running */
    int stderr_fd;   /* >= 0: the daemon's stderr instead of log (set after dh_init) */
    unsigned nofile; /* > 0: the daemon's RLIMIT_NOFILE, soft and hard (set after dh_init) */
};

/* Make the temporary directory and paths.  Returns 0 or -errno. */
int dh_init(struct dh *d);

/* Spawn sudokud -s d->sock -P <plugins> extra... (extra NULL-terminated, may
 * be NULL) without waiting.  Returns 0 or -errno. */
int dh_spawn(struct dh *d, const char *const *extra);

/* Wait until the spawned daemon answers ping.  Returns 0 or -errno. */
int dh_wait_ready(struct dh *d);

/* dh_init + dh_spawn + wait until ping answers.  Returns 0 or -errno. */
int dh_start(struct dh *d, const char *const *extra);

/* Wait for the daemon to exit within timeout_ms; returns its exit status,
 * 128+signal when killed by one, or -ETIMEDOUT (then it is SIGKILLed). */
int dh_wait(struct dh *d, int timeout_ms);

/* SIGTERM and dh_wait.  Returns the exit status as dh_wait. */
int dh_stop(struct dh *d);

/* Kill what is left, remove the directory. */
void dh_cleanup(struct dh *d);

/* 1 when the daemon's log contains needle.  The daemon writes its log from
 * a thread, so while it runs this waits up to DH_LOG_WAIT_MS for the line;
 * once it has exited (dh_stop, dh_wait) the log is complete and the answer
 * immediate. */
int dh_log_has(const struct dh *d, const char *needle);

/* Connect to path.  Returns the fd or -errno. */
int dh_connect(const char *path);

/* Write all of buf (MSG_NOSIGNAL).  Returns 0 or -errno. */
int dh_send(int fd, const void *buf, size_t len);

/* Reads msgpack objects from one connection. */
struct dh_reader {
    int fd;              /* connection */
    msgpack_unpacker up; /* buffered input */
};

void dh_reader_init(struct dh_reader *r, int fd);
void dh_reader_close(struct dh_reader *r); /* also closes fd */

/* Next object into *out (owned by out; msgpack_unpacked_destroy it).
 * Returns 0, -EPIPE on end of stream, -ETIMEDOUT, or -EBADMSG. */
int dh_read(struct dh_reader *r, msgpack_unpacked *out, int timeout_ms);

/* Request builders: append [0, msgid, method, params]. */
/* Init pk on sb and pack a request's head, [0, msgid, method, then the
 * header of an array of params values, which the caller packs next. */
void dh_pack_head(msgpack_packer *pk, msgpack_sbuffer *sb, uint32_t msgid, const char *method,
                  uint32_t params);
void dh_pack_call(msgpack_sbuffer *sb, uint32_t msgid, const char *method);
/* A solve that cannot end before its deadline on any machine, for the tests
 * that need one still running (timeouts, cancels, shutdowns): counting the
 * solutions of an empty 9x9 grid (about 6.7e21).  A hard puzzle will not do:
 * brute_force.txt's first took dfs 0.3 s on a fast machine, so a timeout
 * test built on it saw the solve finish first. */
#define DH_ENDLESS                                                                                 \
    "................................................................................."
#define DH_ENDLESS_LIMIT UINT64_MAX

/* solve with a string puzzle; solver NULL, limit 0, timeout 0 = not sent. */
void dh_pack_solve(msgpack_sbuffer *sb, uint32_t msgid, const char *puzzle, const char *solver,
                   uint64_t limit, uint64_t timeout_ms);
/* [0, msgid, "generate", [{size: n, count: count}]] */
void dh_pack_generate(msgpack_sbuffer *sb, uint32_t msgid, unsigned n, unsigned count);
/* [2, "cancel", [msgid]] */
void dh_pack_cancel(msgpack_sbuffer *sb, uint32_t msgid);
void dh_pack_str(msgpack_packer *pk, const char *s);

/* Send one request and read objects until the response to msgid arrives.
 * Returns 0 with *out, or a negative errno. */
int dh_call(struct dh_reader *r, const msgpack_sbuffer *req, uint32_t msgid, msgpack_unpacked *out);
/* dh_call with its own bound on each wait for the answer, for the tests
 * whose answers wait behind long work on a sanitized build. */
int dh_call_within(struct dh_reader *r, const msgpack_sbuffer *req, uint32_t msgid,
                   msgpack_unpacked *out, int timeout_ms);

/* Accessors on a response [1, msgid, error, result]. */
int dh_is_response(const msgpack_object *o, uint32_t *msgid);
const msgpack_object *dh_result(const msgpack_object *resp);                   /* NULL on error */
const char *dh_error_code(const msgpack_object *resp, char *buf, size_t size); /* NULL on success */
const msgpack_object *dh_map_get(const msgpack_object *map, const char *key);
int dh_str_eq(const msgpack_object *o, const char *s);

/* ping over a fresh connection: 0 when "pong" came back within timeout_ms. */
int dh_ping(const char *sock, int timeout_ms);

/* Load up to max non-empty lines of a data file (each malloc'ed, NUL-terminated).
 * Returns the count or -errno.  Free with dh_free_lines. */
int dh_load_lines(const char *path, char **lines, int max);
void dh_free_lines(char **lines, int len);

/* Check a solve result map against puzzle (string form): status solved, the
 * solution keeps the givens and obeys the rules.  Returns 0 or -EINVAL. */
int dh_check_solved(const msgpack_object *result, const char *puzzle);

/* Milliseconds on the monotonic clock. */
uint64_t dh_now_ms(void);

#endif /* SUDOKU_DAEMON_HARNESS_H */
