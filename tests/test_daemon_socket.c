/* test_daemon_socket.c -- socket hygiene, access rules and the command line.
 *
 * Stale sockets are replaced, live ones refused, over-long paths refused,
 * the mode applied, the socket removed on exit, extra connections refused
 * politely with the peer logged; the lock beside the socket (a second daemon
 * refused with the socket file deleted) and the socket file made again when
 * deleted or replaced; socket activation, also with no socket path
 * at all (a DynamicUser= service); the configuration file, and its reload on
 * SIGHUP.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon_harness.h"

/* Run sudokud with args (NULL-terminated), stdout and stderr into log;
 * returns its exit status. */
static int run_sudokud(const char *const *args, const char *log)
{
    struct dh d = {0};
    const char *argv[16];
    size_t n = 0;

    argv[n++] = SUDOKU_BIN_DIR "/sudokud";
    for (size_t i = 0; args[i] && n < 15; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    d.pid = fork();
    assert_true(d.pid >= 0);
    if (d.pid == 0) {
        if (!freopen(log, "w", stdout) || !freopen(log, "a", stderr))
            _exit(126);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    return dh_wait(&d, DH_TIMEOUT_MS);
}

static int file_has(const char *path, const char *needle)
{
    char buf[65536];
    FILE *f = fopen(path, "r");
    size_t n;

    if (!f)
        return 0;
    n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    return strstr(buf, needle) != NULL;
}

static void test_mode_and_removal(void **state)
{
    static const char *const mode[] = {"--socket-mode", "0600", NULL};
    struct dh d;
    struct stat st;
    (void)state;

    assert_int_equal(dh_start(&d, NULL), 0);
    assert_int_equal(stat(d.sock, &st), 0);
    assert_true(S_ISSOCK(st.st_mode));
    assert_int_equal(st.st_mode & 0777, 0660);
    assert_int_equal(dh_stop(&d), 0);
    assert_int_equal(stat(d.sock, &st), -1);
    dh_cleanup(&d);

    assert_int_equal(dh_start(&d, mode), 0);
    assert_int_equal(stat(d.sock, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    kill(d.pid, SIGINT);
    assert_int_equal(dh_wait(&d, DH_TIMEOUT_MS), 0);
    assert_int_equal(stat(d.sock, &st), -1);
    dh_cleanup(&d);
}

/* --config FILE: key = value lines with the long options' names; the
 * command line wins; a bad line stops the start naming FILE:LINE. */
static void test_config_file(void **state)
{
    char conf[300], arg[400];
    struct dh d;
    struct stat st;
    FILE *f;
    (void)state;

    assert_int_equal(dh_init(&d), 0);
    snprintf(conf, sizeof(conf), "%s/sudokud.conf", d.dir);
    f = fopen(conf, "w");
    assert_non_null(f);
    fputs("# test configuration\nsocket-mode = 0600\n\nverbose = yes\n", f);
    fclose(f);
    snprintf(arg, sizeof(arg), "--config=%s", conf);
    const char *const from_file[] = {arg, NULL};
    assert_int_equal(dh_spawn(&d, from_file), 0);
    for (int i = 0; i < 500 && dh_ping(d.sock, 1000) != 0; i++)
        usleep(10000);
    assert_int_equal(stat(d.sock, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);                  /* from the file */
    assert_true(dh_log_has(&d, "info: plugin bitmask loaded")); /* verbose = yes */
    assert_int_equal(dh_stop(&d), 0);

    const char *const line_wins[] = {arg, "--socket-mode", "0640", NULL};
    assert_int_equal(dh_spawn(&d, line_wins), 0);
    for (int i = 0; i < 500 && dh_ping(d.sock, 1000) != 0; i++)
        usleep(10000);
    assert_int_equal(stat(d.sock, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0640);
    assert_int_equal(dh_stop(&d), 0);

    f = fopen(conf, "w");
    assert_non_null(f);
    fputs("threads = 2\nno-such-option = 1\n", f);
    fclose(f);
    const char *const bad[] = {"--config", conf, NULL};
    assert_int_equal(run_sudokud(bad, d.log), 2);
    snprintf(arg, sizeof(arg), "%s:2: unknown option 'no-such-option'", conf);
    assert_true(file_has(d.log, arg));

    /* A bad value names its line too, and the command line still wins
     * over a good one. */
    f = fopen(conf, "w");
    assert_non_null(f);
    fputs("max-queue = 10\n# workers\nthreads = many\n", f);
    fclose(f);
    assert_int_equal(run_sudokud(bad, d.log), 2);
    snprintf(arg, sizeof(arg),
             "sudokud: %s:3: invalid value for 'threads': 'many' (want 1..1024)\n"
             "Try 'sudokud --help'.\n",
             conf);
    assert_true(file_has(d.log, arg));
    unlink(conf);
    dh_cleanup(&d);
}

/* Write text into path (the test's configuration file). */
static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");

    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* Send [0, 1, "ping", [a string of len bytes]] on a new connection to sock
 * and put what came back into code: the error code of a response or an
 * error notification, or "" for a response without one. */
static void big_ping(const char *sock, size_t len, char *code, size_t code_size)
{
    char *body = malloc(len);
    struct dh_reader r;
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_unpacked u;
    const msgpack_object *o;

    assert_non_null(body);
    memset(body, 'x', len);
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    msgpack_pack_array(&pk, 4);
    msgpack_pack_int(&pk, 0);
    msgpack_pack_int(&pk, 1);
    dh_pack_str(&pk, "ping");
    msgpack_pack_array(&pk, 1);
    msgpack_pack_str(&pk, len);
    msgpack_pack_str_body(&pk, body, len);
    dh_reader_init(&r, dh_connect(sock));
    assert_true(r.fd >= 0);
    msgpack_unpacked_init(&u);
    dh_send(r.fd, sb.data, sb.size); /* may fail once the daemon hung up */
    assert_int_equal(dh_read(&r, &u, DH_TIMEOUT_MS), 0);
    o = &u.data;
    assert_int_equal(o->type, MSGPACK_OBJECT_ARRAY);
    code[0] = '\0';
    if (o->via.array.size == 3) /* [2, "error", [{code, message}]] */
        snprintf(code, code_size, "%.*s",
                 (int)dh_map_get(&o->via.array.ptr[2].via.array.ptr[0], "code")->via.str.size,
                 dh_map_get(&o->via.array.ptr[2].via.array.ptr[0], "code")->via.str.ptr);
    else if (!dh_error_code(o, code, code_size))
        code[0] = '\0';
    msgpack_unpacked_destroy(&u);
    dh_reader_close(&r);
    msgpack_sbuffer_destroy(&sb);
    free(body);
}

/* SIGHUP reads the file again: a new limit takes effect at once (a smaller
 * max-message is answered too_large), each change and each setting that
 * needs a restart is logged; a bad file is named FILE:LINE and every
 * setting is kept; the command line still wins over the file. */
static void test_sighup_reload(void **state)
{
    char conf[300], arg[400], code[32];
    struct dh d;
    (void)state;

    assert_int_equal(dh_init(&d), 0);
    snprintf(conf, sizeof(conf), "%s/sudokud.conf", d.dir);
    write_file(conf, "max-message = 65536\ngrace-ms = 300\n");
    snprintf(arg, sizeof(arg), "--config=%s", conf);
    const char *const args[] = {arg, "--grace-ms", "400", NULL};
    assert_int_equal(dh_spawn(&d, args), 0);
    assert_int_equal(dh_wait_ready(&d), 0);
    big_ping(d.sock, 2000, code, sizeof(code));
    assert_string_not_equal(code, "too_large");

    write_file(conf, "# smaller now\nmax-message = 1000\nthreads = 3\nverbose = yes\n"
                     "grace-ms = 100\n");
    assert_int_equal(kill(d.pid, SIGHUP), 0);
    assert_true(dh_log_has(&d, "notice: reloaded"));
    assert_true(dh_log_has(&d, "max-message: 65536 -> 1000"));
    assert_true(dh_log_has(&d, "threads: changed to 3: restart to apply"));
    assert_true(dh_log_has(&d, "plugins: restart to reload"));
    assert_true(dh_log_has(&d, "verbose: on"));
    big_ping(d.sock, 2000, code, sizeof(code));
    assert_string_equal(code, "too_large");
    big_ping(d.sock, 500, code, sizeof(code));
    assert_string_not_equal(code, "too_large");

    write_file(conf, "max-message = 4000\nthreads = many\n");
    assert_int_equal(kill(d.pid, SIGHUP), 0);
    snprintf(arg, sizeof(arg),
             "reload: %s:2: invalid value for 'threads': 'many' (want 1..1024): keeping the "
             "current settings",
             conf);
    assert_true(dh_log_has(&d, arg));
    big_ping(d.sock, 2000, code, sizeof(code));
    assert_string_equal(code, "too_large"); /* 1000 kept, 4000 not taken */
    assert_int_equal(dh_stop(&d), 0);
    assert_false(dh_log_has(&d, "max-message: 1000 -> 4000"));
    assert_false(dh_log_has(&d, "grace-ms:")); /* --grace-ms 400 still wins over the file */
    unlink(conf);
    dh_cleanup(&d);
}

/* A socket path in a directory that does not exist: libuv says EACCES, the
 * daemon says what is wrong. */
static void test_missing_socket_dir(void **state)
{
    static const char *const args[] = {"-s", "/nonexistent-sudokud-dir/x.sock", "-P",
                                       SUDOKU_BUILD_PLUGIN_DIR, NULL};
    char log[] = "/tmp/sudokud-nodir-XXXXXX";
    int fd = mkstemp(log);
    (void)state;
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(run_sudokud(args, log), 1);
    assert_true(file_has(log, "cannot bind /nonexistent-sudokud-dir/x.sock: directory "
                              "/nonexistent-sudokud-dir does not exist"));
    unlink(log);
}

static void test_stale_socket_replaced(void **state)
{
    struct dh d;
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    int fd;
    (void)state;

    assert_int_equal(dh_init(&d), 0);
    /* A socket file nobody listens on: what a crashed daemon leaves. */
    fd = socket(AF_UNIX, SOCK_STREAM, 0);
    strcpy(sa.sun_path, d.sock);
    assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
    close(fd);
    assert_int_equal(dh_connect(d.sock), -ECONNREFUSED);
    assert_int_equal(dh_spawn(&d, NULL), 0);
    for (int i = 0; i < 2000 && dh_ping(d.sock, 1000) != 0; i++)
        usleep(10000);
    assert_int_equal(dh_ping(d.sock, 1000), 0);
    assert_true(dh_log_has(&d, "stale"));
    assert_int_equal(dh_stop(&d), 0);
    dh_cleanup(&d);
}

static void test_live_socket_refused(void **state)
{
    struct dh d;
    char log[300];
    struct stat st;
    (void)state;

    assert_int_equal(dh_start(&d, NULL), 0);
    snprintf(log, sizeof(log), "%s/second.log", d.dir);
    {
        const char *const args[] = {"-s", d.sock, "-P", SUDOKU_BUILD_PLUGIN_DIR, NULL};
        assert_int_equal(run_sudokud(args, log), 1);
    }
    assert_true(file_has(log, "another sudokud is listening"));
    /* The first daemon is untouched. */
    assert_int_equal(stat(d.sock, &st), 0);
    assert_int_equal(dh_ping(d.sock, 5000), 0);
    assert_int_equal(dh_stop(&d), 0);
    dh_cleanup(&d);
}

static void test_not_a_socket_refused(void **state)
{
    struct dh d;
    char log[300];
    FILE *f;
    struct stat st;
    (void)state;

    assert_int_equal(dh_init(&d), 0);
    f = fopen(d.sock, "w");
    assert_non_null(f);
    fputs("precious", f);
    fclose(f);
    snprintf(log, sizeof(log), "%s/run.log", d.dir);
    {
        const char *const args[] = {"-s", d.sock, "-P", SUDOKU_BUILD_PLUGIN_DIR, NULL};
        assert_int_equal(run_sudokud(args, log), 1);
    }
    assert_int_equal(stat(d.sock, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    dh_cleanup(&d);
}

static void test_long_path_refused(void **state)
{
    char path[300], log[] = "/tmp/sudokud-longpath-XXXXXX";
    int fd = mkstemp(log);
    (void)state;

    assert_true(fd >= 0);
    close(fd);
    memset(path, 'a', sizeof(path));
    memcpy(path, "/tmp/", 5);
    path[200] = '\0';
    {
        const char *const args[] = {"-s", path, "-P", SUDOKU_BUILD_PLUGIN_DIR, NULL};
        assert_int_equal(run_sudokud(args, log), 1);
    }
    assert_true(file_has(log, "longer than"));
    unlink(log);
}

/* The socket file deleted under a running daemon: a second daemon on the
 * same path refuses (the lock beside the socket), naming the first. */
static void test_second_daemon_refused_socket_deleted(void **state)
{
    struct dh d;
    char log[300], lockpath[300], holder[64];
    (void)state;

    assert_int_equal(dh_start(&d, NULL), 0);
    snprintf(log, sizeof(log), "%s/second.log", d.dir);
    snprintf(lockpath, sizeof(lockpath), "%s.lock", d.sock);
    assert_int_equal(unlink(d.sock), 0);
    {
        const char *const args[] = {"-s", d.sock, "-P", SUDOKU_BUILD_PLUGIN_DIR, NULL};
        assert_int_equal(run_sudokud(args, log), 1);
    }
    snprintf(holder, sizeof(holder), "(pid %ld holds", (long)d.pid);
    assert_true(file_has(log, holder));
    assert_true(file_has(log, lockpath));
    /* The first daemon still runs, and is reached again (next test). */
    assert_int_equal(kill(d.pid, 0), 0);
    assert_int_equal(dh_stop(&d), 0);
    /* Gone with it: the socket and the lock file. */
    assert_int_equal(access(d.sock, F_OK), -1);
    assert_int_equal(access(lockpath, F_OK), -1);
    dh_cleanup(&d);
}

/* Wait until ping answers on path (the daemon's check runs every second). */
static int ping_within(const char *path, int ms)
{
    for (int i = 0; i < ms / 20; i++) {
        if (dh_ping(path, 1000) == 0)
            return 0;
        usleep(20000);
    }
    return -ETIMEDOUT;
}

/* The socket file deleted, then replaced by a dead socket: each time the
 * daemon makes it again, logs it, and a new client connects; a connection
 * made before stays served. */
static void test_socket_recreated(void **state)
{
    struct dh d;
    struct dh_reader r;
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    struct stat st;
    int fd;
    (void)state;

    assert_int_equal(dh_start(&d, NULL), 0);
    dh_reader_init(&r, dh_connect(d.sock));
    assert_int_equal(unlink(d.sock), 0);
    assert_int_equal(dh_connect(d.sock), -ENOENT);
    assert_int_equal(ping_within(d.sock, 10000), 0);
    assert_true(dh_log_has(&d, "was deleted: re-created it"));
    assert_int_equal(stat(d.sock, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0660);

    /* A dead socket in its place (bound, closed: nobody accepts). */
    assert_int_equal(unlink(d.sock), 0);
    fd = socket(AF_UNIX, SOCK_STREAM, 0);
    strcpy(sa.sun_path, d.sock);
    assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
    close(fd);
    assert_int_equal(dh_connect(d.sock), -ECONNREFUSED);
    assert_int_equal(ping_within(d.sock, 10000), 0);
    assert_true(dh_log_has(&d, "was replaced: re-created it"));

    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    dh_pack_call(&sb, 7, "ping");
    assert_int_equal(dh_call(&r, &sb, 7, &u), 0);
    assert_true(dh_str_eq(dh_result(&u.data), "pong"));
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    dh_reader_close(&r);
    assert_int_equal(dh_stop(&d), 0);
    assert_int_equal(stat(d.sock, &st), -1);
    dh_cleanup(&d);
}

/* A file that is not a socket put in its place is never removed: the
 * daemon says so once and keeps serving its connections. */
static void test_foreign_file_left_alone(void **state)
{
    struct dh d;
    struct stat st;
    FILE *f;
    (void)state;

    assert_int_equal(dh_start(&d, NULL), 0);
    assert_int_equal(unlink(d.sock), 0);
    f = fopen(d.sock, "w");
    assert_non_null(f);
    fputs("precious", f);
    fclose(f);
    assert_true(dh_log_has(&d, "exists and is not a socket"));
    assert_int_equal(dh_stop(&d), 0);
    assert_int_equal(stat(d.sock, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    dh_cleanup(&d);
}

/* --max-connections 2: the third gets an `overloaded` note and is closed;
 * the refusal is logged with our pid; the first two still work. */
static void test_max_connections(void **state)
{
    static const char *const extra[] = {"--max-connections", "2", NULL};
    struct dh d;
    struct dh_reader r;
    msgpack_unpacked u;
    char pidtext[64];
    int a, b;
    (void)state;

    assert_int_equal(dh_start(&d, extra), 0);
    a = dh_connect(d.sock);
    b = dh_connect(d.sock);
    assert_true(a >= 0 && b >= 0); /* accepted in order: the next is the third */
    dh_reader_init(&r, dh_connect(d.sock));
    msgpack_unpacked_init(&u);
    assert_int_equal(dh_read(&r, &u, DH_TIMEOUT_MS), 0);
    assert_int_equal(u.data.type, MSGPACK_OBJECT_ARRAY);
    assert_int_equal(u.data.via.array.ptr[0].via.u64, 2);
    assert_true(
        dh_str_eq(dh_map_get(&u.data.via.array.ptr[2].via.array.ptr[0], "code"), "overloaded"));
    assert_int_equal(dh_read(&r, &u, DH_TIMEOUT_MS), -EPIPE);
    dh_reader_close(&r);
    snprintf(pidtext, sizeof(pidtext), "refused connection from pid %ld uid %ld", (long)getpid(),
             (long)getuid());
    assert_true(dh_log_has(&d, pidtext));
    close(a);
    close(b);
    /* Slots are freed once the daemon has seen both hang up. */
    for (int i = 0; i < 500 && dh_ping(d.sock, 5000) != 0; i++)
        usleep(10000);
    assert_int_equal(dh_ping(d.sock, 5000), 0);
    msgpack_unpacked_destroy(&u);
    assert_int_equal(dh_stop(&d), 0);
    dh_cleanup(&d);
}

static void test_command_line(void **state)
{
    char log[] = "/tmp/sudokud-cli-XXXXXX";
    int fd = mkstemp(log);
    (void)state;

    assert_true(fd >= 0);
    close(fd);
    {
        const char *const help[] = {"--help", NULL};
        const char *const version[] = {"--version", NULL};
        const char *const bad[] = {"--threads", "0", NULL};
        const char *const unknown[] = {"--frobnicate", NULL};
        const char *const mode[] = {"--socket-mode", "999", NULL};
        const char *const no_plugins[] = {"-s", "/tmp/sudokud-np.sock", "-P", "/nonexistent", NULL};
        const char *const help_short[] = {"-h", NULL};
        const char *const version_short[] = {"-V", NULL};
        const char *const bad_short[] = {"-j", "x", NULL};
        const char *const missing[] = {"--threads", NULL};
        const char *const extra[] = {"-s", "/tmp/sudokud-x.sock", "stray", NULL};
        assert_int_equal(run_sudokud(help, log), 0);
        assert_true(file_has(log, "--max-connections"));
        assert_true(file_has(log, "  -V, --version "));
        assert_int_equal(run_sudokud(help_short, log), 0);
        assert_true(file_has(log, "Usage: sudokud [OPTION]..."));
        assert_int_equal(run_sudokud(version, log), 0);
        assert_true(file_has(log, "sudokud "));
        assert_int_equal(run_sudokud(version_short, log), 0);
        assert_true(file_has(log, "sudokud "));
        assert_false(file_has(log, "Usage"));
        assert_int_equal(run_sudokud(bad, log), 2);
        assert_true(file_has(log, "sudokud: invalid value for --threads: '0' (want 1..1024)\n"
                                  "Try 'sudokud --help'.\n"));
        assert_int_equal(run_sudokud(bad_short, log), 2);
        assert_true(file_has(log, "invalid value for -j: 'x'"));
        assert_int_equal(run_sudokud(missing, log), 2);
        assert_true(file_has(log, "sudokud: option '--threads' needs an argument"));
        assert_int_equal(run_sudokud(unknown, log), 2);
        assert_true(file_has(log, "sudokud: unknown option '--frobnicate'"));
        assert_int_equal(run_sudokud(mode, log), 2);
        assert_true(file_has(log, "invalid value for --socket-mode: '999'"));
        assert_int_equal(run_sudokud(extra, log), 2);
        assert_true(file_has(log, "sudokud: unexpected argument 'stray'"));
        /* --plugin names a file the admin wants: failing to load it is fatal. */
        const char *const missing_plugin[] = {
            "-s",       "/tmp/sudokud-np.sock", "-P", SUDOKU_BUILD_PLUGIN_DIR,
            "--plugin", "/nonexistent/x.so",    NULL};
        const char *const dup[] = {"-s",       "/tmp/sudokud-np.sock",
                                   "-P",       SUDOKU_BUILD_PLUGIN_DIR,
                                   "--plugin", SUDOKU_BUILD_PLUGIN_DIR "/bitmask.so",
                                   NULL};
        assert_int_equal(run_sudokud(no_plugins, log), 1);
        assert_true(file_has(log, "no solver plugin"));
        assert_int_equal(run_sudokud(missing_plugin, log), 1);
        assert_true(file_has(log, "cannot start: --plugin /nonexistent/x.so was refused"));
        assert_int_equal(run_sudokud(dup, log), 1);
        assert_true(file_has(log, "duplicate name"));
        assert_true(file_has(log, "cannot start: --plugin " SUDOKU_BUILD_PLUGIN_DIR "/bitmask.so"));
    }
    unlink(log);
}

/* SUDOKUD_SOCKET picks the socket when -s is absent. */
static void test_env_socket(void **state)
{
    struct dh d;
    const char *const args[] = {"-P", SUDOKU_BUILD_PLUGIN_DIR, NULL};
    pid_t pid;
    (void)state;

    assert_int_equal(dh_init(&d), 0);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        setenv("SUDOKUD_SOCKET", d.sock, 1);
        if (!freopen(d.log, "w", stderr))
            _exit(126);
        execl(SUDOKU_BIN_DIR "/sudokud", "sudokud", args[0], args[1], (char *)NULL);
        _exit(127);
    }
    d.pid = pid;
    for (int i = 0; i < 2000 && dh_ping(d.sock, 1000) != 0; i++)
        usleep(10000);
    assert_int_equal(dh_ping(d.sock, 1000), 0);
    assert_int_equal(dh_stop(&d), 0);
    dh_cleanup(&d);
}

/* Under systemd (Type=notify): READY=1 and STATUS= at start, WATCHDOG=1 at
 * half the interval, STOPPING=1 at shutdown, "<N>" prefixes on log lines.  A datagram socket stands
 * in for systemd's. */
static void test_systemd_notify(void **state)
{
    struct dh d;
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    char path[300], buf[512];
    int fd, ready = 0, status = 0, watchdog = 0, stopping = 0;
    uint64_t end;
    (void)state;

    assert_int_equal(dh_init(&d), 0);
    snprintf(path, sizeof(path), "%s/notify", d.dir);
    fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    strcpy(sa.sun_path, path);
    assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
    d.pid = fork();
    assert_true(d.pid >= 0);
    if (d.pid == 0) {
        setenv("NOTIFY_SOCKET", path, 1);
        setenv("WATCHDOG_USEC", "100000", 1);
        setenv("JOURNAL_STREAM", "8:12345", 1); /* stderr "is" the journal */
        if (!freopen(d.log, "w", stderr))
            _exit(126);
        execl(SUDOKU_BIN_DIR "/sudokud", "sudokud", "-s", d.sock, "-P", SUDOKU_BUILD_PLUGIN_DIR,
              (char *)NULL);
        _exit(127);
    }
    end = dh_now_ms() + DH_TIMEOUT_MS;
    while (!(ready && status && watchdog >= 2) && dh_now_ms() < end) {
        ssize_t n = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);
        if (n <= 0) {
            usleep(5000);
            continue;
        }
        buf[n] = '\0';
        ready |= strstr(buf, "READY=1") != NULL;
        status |= strstr(buf, "STATUS=") != NULL;
        watchdog += strstr(buf, "WATCHDOG=1") != NULL;
    }
    assert_true(ready && status && watchdog >= 2);
    kill(d.pid, SIGTERM);
    assert_int_equal(dh_wait(&d, DH_TIMEOUT_MS), 0);
    for (ssize_t n; (n = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT)) > 0;) {
        buf[n] = '\0';
        stopping |= strstr(buf, "STOPPING=1") != NULL;
    }
    assert_true(stopping);
    assert_true(dh_log_has(&d, "<6>serving on")); /* sd-daemon priority prefix */
    close(fd);
    dh_cleanup(&d);
}

/* Child side of an activation: the listener on fd 3 with LISTEN_FDS=1 and
 * LISTEN_PID set, as systemd hands it over.  With with_path, -s names a path
 * that does not exist (the inherited socket must win).  Without, it runs
 * like a DynamicUser= service: no -s, no $SUDOKUD_SOCKET, no
 * $XDG_RUNTIME_DIR, and not root (nobody, when the test runs as root), so no
 * default path can be computed and none is needed.  bin and plugins say
 * where the daemon and its plugins are.  Never returns. */
static void exec_activated(int fd, const char *log, int with_path, const char *bin,
                           const char *plugins)
{
    char pid[32];

    if (fd != 3 && (dup2(fd, 3) < 0 || close(fd) < 0))
        _exit(126);
    if (!freopen(log, "w", stderr))
        _exit(126);
    unsetenv("XDG_RUNTIME_DIR");
    unsetenv("SUDOKUD_SOCKET");
    if (!with_path && geteuid() == 0 && (setgid(65534) < 0 || setuid(65534) < 0))
        _exit(126);
    snprintf(pid, sizeof(pid), "%ld", (long)getpid());
    setenv("LISTEN_FDS", "1", 1);
    setenv("LISTEN_PID", pid, 1);
    if (with_path)
        execl(bin, "sudokud", "-s", "/nonexistent/sudokud.sock", "-P", plugins, (char *)NULL);
    else
        execl(bin, "sudokud", "-P", plugins, (char *)NULL);
    _exit(127);
}

/* Socket activation: the daemon serves the inherited listener and, not
 * having created the file, leaves it on exit. */
static void run_activation(int with_path, const char *bin, const char *plugins)
{
    struct dh d;
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    struct stat st;
    int fd;

    assert_int_equal(dh_init(&d), 0);
    fd = socket(AF_UNIX, SOCK_STREAM, 0);
    strcpy(sa.sun_path, d.sock);
    assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
    assert_int_equal(listen(fd, 16), 0);
    d.pid = fork();
    assert_true(d.pid >= 0);
    if (d.pid == 0)
        exec_activated(fd, d.log, with_path, bin, plugins);
    close(fd);
    for (int i = 0; i < 2000 && dh_ping(d.sock, 1000) != 0; i++) {
        int status;
        if (waitpid(d.pid, &status, WNOHANG) == d.pid) {
            d.pid = 0;
            fail_msg("activated sudokud exited with status %d before serving (see %s)",
                     WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), d.log);
        }
        usleep(10000);
    }
    assert_int_equal(dh_ping(d.sock, 1000), 0);
    assert_int_equal(dh_stop(&d), 0);
    assert_int_equal(stat(d.sock, &st), 0); /* not ours to remove */
    dh_cleanup(&d);
}

static void test_socket_activation(void **state)
{
    (void)state;
    run_activation(1, SUDOKU_BIN_DIR "/sudokud", SUDOKU_BUILD_PLUGIN_DIR);
}

/* Copy src to dst with the given mode.  Returns 0 or -1. */
static int copy_file(const char *src, const char *dst, mode_t mode)
{
    char buf[65536];
    size_t got;
    int rc = 0;
    FILE *in = fopen(src, "rb");
    FILE *out = fopen(dst, "wb");

    if (!in || !out) {
        rc = -1;
        goto done;
    }
    while ((got = fread(buf, 1, sizeof(buf), in)) > 0) {
        if (fwrite(buf, 1, got, out) != got)
            rc = -1;
    }
done:
    if (in)
        fclose(in);
    if (out && fclose(out) != 0)
        rc = -1;
    return rc == 0 ? chmod(dst, mode) : rc;
}

/* The build tree may sit below a directory only root can enter (a clone in
 * a mktemp -d folder), so the daemon that runs as nobody is first copied,
 * with the plugins, into a fresh directory anyone can read: dir/sudokud
 * (and dir/sudokud.real under scripts/valgrind.sh) and dir/plugins/.
 * Returns 0 or -1. */
static int stage_for_nobody(const char *dir)
{
    char src[512], dst[512];
    struct dirent *e;
    DIR *d;
    int rc = 0;

    snprintf(dst, sizeof(dst), "%s/plugins", dir);
    if (chmod(dir, 0755) < 0 || mkdir(dst, 0755) < 0)
        return -1;
    snprintf(dst, sizeof(dst), "%s/sudokud", dir);
    if (copy_file(SUDOKU_BIN_DIR "/sudokud", dst, 0755) < 0)
        return -1;
    /* scripts/valgrind.sh makes bin/sudokud a wrapper of bin/sudokud.real */
    snprintf(dst, sizeof(dst), "%s/sudokud.real", dir);
    if (access(SUDOKU_BIN_DIR "/sudokud.real", X_OK) == 0 &&
        copy_file(SUDOKU_BIN_DIR "/sudokud.real", dst, 0755) < 0)
        return -1;
    d = opendir(SUDOKU_BUILD_PLUGIN_DIR);
    if (!d)
        return -1;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(src, sizeof(src), "%s/%s", SUDOKU_BUILD_PLUGIN_DIR, e->d_name);
        snprintf(dst, sizeof(dst), "%s/plugins/%s", dir, e->d_name);
        rc = copy_file(src, dst, 0644);
    }
    closedir(d);
    return rc;
}

/* A DynamicUser= service has no $XDG_RUNTIME_DIR and needs no path. */
static void test_socket_activation_no_path(void **state)
{
    char dir[] = "/tmp/sudokud-nobody-XXXXXX", cmd[64], bin[64], plugins[64];
    (void)state;

    if (geteuid() != 0) {
        run_activation(0, SUDOKU_BIN_DIR "/sudokud", SUDOKU_BUILD_PLUGIN_DIR);
        return;
    }
    assert_non_null(mkdtemp(dir));
    assert_int_equal(stage_for_nobody(dir), 0);
    snprintf(bin, sizeof(bin), "%s/sudokud", dir);
    snprintf(plugins, sizeof(plugins), "%s/plugins", dir);
    run_activation(0, bin, plugins);
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mode_and_removal),
        cmocka_unit_test(test_config_file),
        cmocka_unit_test(test_sighup_reload),
        cmocka_unit_test(test_missing_socket_dir),
        cmocka_unit_test(test_stale_socket_replaced),
        cmocka_unit_test(test_live_socket_refused),
        cmocka_unit_test(test_not_a_socket_refused),
        cmocka_unit_test(test_long_path_refused),
        cmocka_unit_test(test_second_daemon_refused_socket_deleted),
        cmocka_unit_test(test_socket_recreated),
        cmocka_unit_test(test_foreign_file_left_alone),
        cmocka_unit_test(test_max_connections),
        cmocka_unit_test(test_command_line),
        cmocka_unit_test(test_env_socket),
        cmocka_unit_test(test_systemd_notify),
        cmocka_unit_test(test_socket_activation),
        cmocka_unit_test(test_socket_activation_no_path),
    };
    signal(SIGPIPE, SIG_IGN);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
