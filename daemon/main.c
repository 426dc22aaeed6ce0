/* main.c -- sudokud: options, plugins, then the server loop.
 *
 * main() is the table of contents: parse the command line, load the solver
 * plugins, hand both to server_run() and return its exit status.  Exit
 * status: 0 after a clean shutdown, 1 when the daemon cannot start, 2 on a
 * usage error.  See sudokud(8) and docs/protocol.md.
 *
 * Options are read in one place, read_options(): defaults, $SUDOKUD_SOCKET,
 * the configuration file, the command line.  On SIGHUP the server calls
 * reload_options(), which reads them again the same way.
 */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/host.h"
#include "daemon/isolate.h"
#include "daemon/log.h"
#include "daemon/sdnotify.h"
#include "daemon/server.h"
#include "util/opts.h"

#ifndef SUDOKUD_VERSION
#define SUDOKUD_VERSION "0.0.0"
#endif

#define MAX_EXTRA_PLUGINS 16                  /* --plugin FILE, repeatable */
#define SUDOKUD_CONFIG    "/etc/sudokud.conf" /* read when it exists and no --config */

struct options {
    struct server_config cfg;               /* handed to the server */
    const char *plugin_dir;                 /* -P, or NULL for the default */
    const char *plugins[MAX_EXTRA_PLUGINS]; /* --plugin files */
    size_t plugins_len;                     /* how many */
    const char *default_solver;             /* --default-solver, or NULL: per size */
    const char *config;                     /* --config FILE (already read) */
    char **config_args;                     /* its lines as "--key=value", owned */
    int config_len;                         /* how many */
    enum isolate_mode isolate;              /* --isolate: which plugins run in workers */
    int verbose;                            /* -v */
    int is_default_socket;                  /* no -s and no SUDOKUD_SOCKET */
};

/* What a SIGHUP reads again: the command line as main() got it, and the
 * options in force (to say what a reload cannot change). */
struct reload_ctx {
    int argc;                   /* main()'s */
    char **argv;                /* main()'s */
    const struct options *live; /* the options the daemon started with */
    struct isolate *iso;        /* the plugin workers, to re-enable plugins */
};

/* Parse a socket path into the config; returns 0 or -EINVAL. */
static int set_socket(struct options *o, const char *path, char *err, size_t err_size)
{
    size_t len = strlen(path);
    if (len == 0 || len >= sizeof(o->cfg.socket_path)) {
        snprintf(err, err_size, "want 1..%zu bytes", sizeof(o->cfg.socket_path) - 1);
        return -EINVAL;
    }
    memcpy(o->cfg.socket_path, path, len + 1);
    return 0;
}

static int on_socket(void *cfg, const char *arg, char *err, size_t err_size)
{
    return set_socket(cfg, arg, err, err_size);
}

static int on_plugin(void *cfg, const char *arg, char *err, size_t err_size)
{
    struct options *o = cfg;
    if (o->plugins_len == MAX_EXTRA_PLUGINS) {
        snprintf(err, err_size, "at most %d --plugin files", MAX_EXTRA_PLUGINS);
        return -E2BIG;
    }
    o->plugins[o->plugins_len++] = arg;
    return 0;
}

static int on_isolate(void *cfg, const char *arg, char *err, size_t err_size)
{
    struct options *o = cfg;

    if (isolate_parse_mode(arg, &o->isolate) < 0) {
        snprintf(err, err_size, "want all, third-party or none");
        return -EINVAL;
    }
    return 0;
}

/* The command line, in --help order; sudokud(8) describes each. */
static const struct opts_spec option_table[] = {
    {"socket", 's', "PATH",
     "listen on PATH (default: $SUDOKUD_SOCKET, else\n"
     "/run/sudokud/sudokud.sock as root,\n"
     "$XDG_RUNTIME_DIR/sudokud.sock otherwise; unused\n"
     "when socket-activated)",
     OPTS_CALL_TO(on_socket)},
    {"plugin-dir", 'P', "DIR", "load every *.so plugin in DIR",
     OPTS_STRING_AT(struct options, plugin_dir)},
    {"plugin", 0, "FILE", "also load the plugin FILE (repeatable)", OPTS_CALL_TO(on_plugin)},
    {"config", 0, "FILE",
     "read options from FILE, key = value lines (default:\n" SUDOKUD_CONFIG
     " when it exists); the command line wins",
     OPTS_STRING_AT(struct options, config)},
    {"default-solver", 0, "NAME",
     "solver for requests that name none, every size\n"
     "(default: sat for 25x25 when loaded, else bitmask)",
     OPTS_STRING_AT(struct options, default_solver)},
    {"isolate", 0, "WHICH",
     "run plugins in supervised worker processes:\n"
     "all, third-party (default: those not built\n"
     "with sudokud) or none",
     OPTS_CALL_TO(on_isolate)},
    {"threads", 'j', "N", "solver worker threads (default: CPU count)",
     OPTS_NUMBER_AT(struct options, cfg.threads, 1, 1024)},
    {"timeout-ms", 0, "MS", "default per-request timeout and its ceiling (30000)",
     OPTS_NUMBER_AT(struct options, cfg.timeout_ms, 1, 86400000)},
    {"max-message", 0, "BYTES", "largest accepted message (65536)",
     OPTS_NUMBER_AT(struct options, cfg.max_message, 64, 64 << 20)},
    {"max-connections", 0, "N", "connections served at once (1000)",
     OPTS_NUMBER_AT(struct options, cfg.max_connections, 1, 1000000)},
    {"max-connections-per-uid", 0, "N",
     "connections one peer uid may hold (default: a\n"
     "quarter of --max-connections, at least 1; the\n"
     "daemon's own uid is not limited)",
     OPTS_NUMBER_AT(struct options, cfg.max_per_uid, 1, 1000000)},
    {"message-timeout", 0, "MS",
     "a message begun must be complete within MS, or\n"
     "its connection is closed (default 10000; 0: never)",
     OPTS_NUMBER_AT(struct options, cfg.message_timeout_ms, 0, 86400000)},
    {"max-queue", 0, "N", "solves waiting for a worker, in total (8192)",
     OPTS_NUMBER_AT(struct options, cfg.max_queue, 1, 10000000)},
    {"grace-ms", 0, "MS", "on SIGTERM, running solves get this long (1500)",
     OPTS_NUMBER_AT(struct options, cfg.grace_ms, 0, 600000)},
    {"inline-us", 0, "US",
     "try a solve on the event loop for up to US\n"
     "microseconds before handing it to a worker\n"
     "(default 30; 0: always use the workers)",
     OPTS_NUMBER_AT(struct options, cfg.inline_us, 0, 1000)},
    {"spin-us", 0, "US",
     "an idle worker polls for work this long before\n"
     "it sleeps, after a longer job as long as that\n"
     "job took, up to 400; the loop polls up to 4x the\n"
     "last job (1000 at most) while a job runs and a\n"
     "worker is free (default 50; 0: sleep at once)",
     OPTS_NUMBER_AT(struct options, cfg.spin_us, 0, 10000)},
    {"idle-timeout", 0, "S",
     "close a connection that owes nothing and moved\n"
     "no byte for S seconds (default 300; 0: never)",
     OPTS_NUMBER_AT(struct options, cfg.idle_timeout_s, 0, 86400)},
    {"socket-mode", 0, "MODE", "octal permissions of the socket (0660)",
     OPTS_OCTAL_AT(struct options, cfg.socket_mode, 0, 0777)},
    {"verbose", 'v', NULL, "log every request", OPTS_FLAG_AT(struct options, verbose)},
    {"help", 'h', NULL, "show this help and exit", .kind = OPTS_HELP},
    {"version", 'V', NULL, "show the version and exit", .kind = OPTS_VERSION},
};

static const struct opts_prog option_prog = {
    .name = "sudokud",
    .usage = "Usage: sudokud [OPTION]...\n"
             "Sudoku solving service: msgpack-rpc on a Unix socket, solver plugins.\n\n",
    .specs = option_table,
    .specs_len = sizeof(option_table) / sizeof(option_table[0]),
    .help_column = 27,
};

static void set_defaults(struct options *o)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);

    memset(o, 0, sizeof(*o));
    o->cfg.threads = cpus > 0 ? (unsigned)cpus : 1;
    o->cfg.timeout_ms = 30000;
    o->cfg.max_message = 65536;
    o->cfg.max_connections = 1000;
    o->cfg.max_queue = 8192;
    o->cfg.grace_ms = 1500;
    o->cfg.spin_us = 50;
    o->cfg.inline_us = 30;
    o->cfg.idle_timeout_s = 300;
    o->cfg.message_timeout_ms = 10000;
    o->cfg.socket_mode = 0660;
    o->cfg.listen_fd = -1;
    o->isolate = ISOLATE_THIRD_PARTY;
}

/* The configuration file: --config FILE (or --config=FILE) on the command
 * line, else SUDOKUD_CONFIG when it exists, else NULL. */
static const char *config_path(int argc, char **argv)
{
    struct stat st;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            break;
        if (strcmp(argv[i], "--config") == 0 && i + 1 < argc)
            return argv[i + 1];
        if (strncmp(argv[i], "--config=", 9) == 0)
            return argv[i] + 9;
    }
    return stat(SUDOKUD_CONFIG, &st) == 0 ? SUDOKUD_CONFIG : NULL;
}

/* Free what read_options() kept; o stays usable for its numbers. */
static void options_close(struct options *o)
{
    opts_config_free(o->config_args, o->config_len);
    o->config_args = NULL;
    o->config_len = 0;
}

/* The defaults, then $SUDOKUD_SOCKET, the configuration file and the
 * command line, each over the one before (so the command line wins), as at
 * start and on SIGHUP.  Returns OPTS_RUN, OPTS_SHOW_HELP or
 * OPTS_SHOW_VERSION; -EINVAL after printing a usage error; or -EBADMSG with
 * the file's "PATH:LINE: what" in err.  Free with options_close(). */
static int read_options(int argc, char **argv, struct options *o, char *err, size_t err_size)
{
    const char *env = getenv("SUDOKUD_SOCKET");
    const char *path = config_path(argc, argv);
    char why[80];
    int first, rc;

    set_defaults(o);
    if (env && *env && set_socket(o, env, why, sizeof(why)) < 0)
        return opts_usage_error(&option_prog, "invalid SUDOKUD_SOCKET: '%s' (%s)", env, why);
    if (path && opts_config_apply(&option_prog, path, o, &o->config_args, &o->config_len, err,
                                  err_size) < 0)
        return -EBADMSG;
    rc = opts_parse(&option_prog, argc, argv, o, &first);
    if (rc != OPTS_RUN)
        return rc;
    if (first < argc)
        return opts_usage_error(&option_prog, "unexpected argument '%s'", argv[first]);
    o->config = path;
    o->is_default_socket = !o->cfg.socket_path[0];
    return OPTS_RUN;
}

/* Returns 0 to run, 1 when --help/--version was served, <0 on usage error. */
static int parse_args(int argc, char **argv, struct options *o)
{
    char err[512];
    int rc = read_options(argc, argv, o, err, sizeof(err));

    if (rc == -EBADMSG)
        return opts_usage_error(&option_prog, "%s", err);
    if (rc < 0)
        return rc;
    if (rc == OPTS_SHOW_HELP)
        opts_help(&option_prog, stdout);
    if (rc == OPTS_SHOW_VERSION)
        printf("sudokud %s\n", SUDOKUD_VERSION);
    return rc == OPTS_RUN ? 0 : 1;
}

/* The default socket path when none was given (-s, $SUDOKUD_SOCKET, the
 * file).  Returns 0 or -ENOENT (no $XDG_RUNTIME_DIR) / -ENAMETOOLONG. */
static int resolve_socket(struct options *o)
{
    if (!o->is_default_socket)
        return 0;
    return server_default_socket(o->cfg.socket_path, sizeof(o->cfg.socket_path));
}

/* Where to listen: the socket systemd hands over (then no path is needed: a
 * DynamicUser= service has no $XDG_RUNTIME_DIR), else --socket or the
 * default path.  Returns 0, 1 (cannot start) or 2 (usage error). */
static int pick_listener(struct options *o)
{
    int fd = sdn_listen_fd();

    if (fd < -1) {
        log_msg(SDK_LOG_ERR, "inherited sockets are unusable: %s", strerror(-fd));
        return 1;
    }
    o->cfg.listen_fd = fd;
    if (fd >= 0 || !o->is_default_socket)
        return 0;
    if (resolve_socket(o) < 0) {
        fprintf(stderr, "sudokud: XDG_RUNTIME_DIR is not set: give --socket PATH\n");
        return 2;
    }
    if (geteuid() == 0)
        mkdir("/run/sudokud", 0755); /* systemd's RuntimeDirectory= normally made it */
    return 0;
}

static int load_plugins(const struct options *o, struct host *h)
{
    char dir[4096];
    int rc;

    if (o->plugin_dir)
        snprintf(dir, sizeof(dir), "%s", o->plugin_dir);
    else if (host_default_plugin_dir(dir, sizeof(dir)) < 0)
        return -ENAMETOOLONG;
    rc = host_load_dir(h, dir);
    if (rc < 0)
        log_msg(SDK_LOG_ERR, "cannot read plugin directory %s: %s", dir, strerror(-rc));
    for (size_t i = 0; i < o->plugins_len; i++) {
        rc = host_load_file(h, o->plugins[i]); /* asked for by name: must load */
        if (rc < 0) {
            log_msg(SDK_LOG_ERR, "cannot start: --plugin %s was refused: %s", o->plugins[i],
                    strerror(-rc));
            return rc;
        }
    }
    if (host_count(h) == 0) {
        log_msg(SDK_LOG_ERR, "no solver plugin loaded (looked in %s)", dir);
        return -ENOENT;
    }
    if (o->default_solver && host_set_default(h, o->default_solver) < 0) {
        log_msg(SDK_LOG_ERR, "cannot start: --default-solver %s: no plugin of that name loaded",
                o->default_solver);
        return -ENOENT;
    }
    return 0;
}

/* Room for --max-connections descriptors, as far as the hard limit allows;
 * a warning when that is not enough (accepts then fail with EMFILE, logged
 * under a rate limit, and the connections served go on). */
static void raise_fd_limit(unsigned max_connections)
{
    struct rlimit rl;
    /* stdio, the listener, libuv's own, plugins: a generous reserve */
    const rlim_t want = (rlim_t)max_connections + 64;

    if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
        return;
    if (rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
            getrlimit(RLIMIT_NOFILE, &rl);
    }
    if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < want)
        log_msg(SDK_LOG_WARNING,
                "--max-connections %u does not fit the open-file limit %llu (want %llu): "
                "raise LimitNOFILE= or lower --max-connections",
                max_connections, (unsigned long long)rl.rlim_cur, (unsigned long long)want);
}

/* ---------------------------------------------------------------- SIGHUP */

static int same_text(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* Do a and b name the same plugins (directory, files, default solver)? */
static int same_plugins(const struct options *a, const struct options *b)
{
    if (!same_text(a->plugin_dir, b->plugin_dir) ||
        !same_text(a->default_solver, b->default_solver) || a->plugins_len != b->plugins_len)
        return 0;
    for (size_t i = 0; i < a->plugins_len; i++)
        if (!same_text(a->plugins[i], b->plugins[i]))
            return 0;
    return 1;
}

/* server_reload_fn: read the configuration file and the command line again
 * as at start, apply the log level, and hand the server the new settings
 * (it applies the limits and says what needs a restart).  Plugins are not
 * reloaded: a plugin still running a job cannot be unloaded under it.
 * Returns 0 with *cfg, or a negative errno after logging why (a bad file is
 * named FILE:LINE); the daemon then keeps every setting it has. */
static int reload_options(void *ctx, struct server_config *cfg)
{
    const struct reload_ctx *r = ctx;
    struct options n;
    char err[512];
    int rc = read_options(r->argc, r->argv, &n, err, sizeof(err));

    if (rc == -EBADMSG)
        log_msg(SDK_LOG_ERR, "reload: %s: keeping the current settings", err);
    else if (rc != OPTS_RUN)
        log_msg(SDK_LOG_ERR, "reload: options refused: keeping the current settings");
    if (rc != OPTS_RUN) {
        options_close(&n);
        return rc < 0 ? rc : -EINVAL;
    }
    if (n.config)
        log_msg(SDK_LOG_INFO, "reload: options read from %s", n.config);
    (void)resolve_socket(&n); /* no default path: the server keeps its own */
    if (n.verbose != log_is_verbose()) {
        log_set_verbose(n.verbose);
        log_msg(LOG_LVL_NOTICE, "verbose: %s", n.verbose ? "on" : "off");
    }
    log_msg(LOG_LVL_NOTICE, "plugins: restart to reload%s",
            same_plugins(r->live, &n) && n.isolate == r->live->isolate
                ? ""
                : " (their settings changed)");
    isolate_reenable(r->iso); /* plugins disabled after crashes serve again */
    if (n.cfg.max_connections != r->live->cfg.max_connections)
        raise_fd_limit(n.cfg.max_connections);
    *cfg = n.cfg;
    cfg->listen_fd = r->live->cfg.listen_fd;
    cfg->reload = reload_options;
    cfg->reload_ctx = ctx;
    options_close(&n);
    return 0;
}

int main(int argc, char **argv)
{
    struct options o;
    struct reload_ctx reload = {argc, argv, &o, NULL};
    struct host *h;
    int rc;

    if (argc > 1 && strcmp(argv[1], "--plugin-worker") == 0)
        return isolate_worker_main(argc, argv); /* a plugin's process (isolate.h) */
    /* Loading plugins can take a while (seconds under a sanitizer): a stop
     * asked for meanwhile waits, blocked, until the server can shut down in
     * order.  Held before any thread starts (the log's), so that none of
     * them takes the signal's default action; server_run releases them. */
    server_hold_signals();
    rc = parse_args(argc, argv, &o);

    if (rc != 0) {
        options_close(&o);
        return rc > 0 ? 0 : 2;
    }
    log_init(o.verbose);
    if (o.config)
        log_msg(SDK_LOG_INFO, "options read from %s", o.config);
    rc = pick_listener(&o);
    if (rc != 0)
        return rc;
    signal(SIGPIPE, SIG_IGN);
    raise_fd_limit(o.cfg.max_connections);
    h = host_new(log_host_sink, NULL);
    if (!h) {
        log_msg(SDK_LOG_ERR, "out of memory");
        return 1;
    }
    rc = load_plugins(&o, h);
    if (rc == 0 && isolate_new(h, o.isolate, o.cfg.threads, &reload.iso) < 0) {
        log_msg(SDK_LOG_ERR, "out of memory");
        rc = -ENOMEM;
    }
    o.cfg.reload = reload_options;
    o.cfg.reload_ctx = &reload;
    if (rc == 0)
        rc = server_run(&o.cfg, h);
    else
        rc = 1;
    isolate_free(reload.iso);
    host_free(h);
    options_close(&o);
    return rc;
}
