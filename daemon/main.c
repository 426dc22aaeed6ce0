/* main.c -- sudokud: options, plugins, then the server loop.
 *
 * main() is the table of contents: parse the command line, load the solver
 * plugins, hand both to server_run() and return its exit status.  Exit
 * status: 0 after a clean shutdown, 1 when the daemon cannot start, 2 on a
 * usage error.  See sudokud(8) and docs/protocol.md.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/host.h"
#include "daemon/log.h"
#include "daemon/sdnotify.h"
#include "daemon/server.h"

#ifndef SUDOKUD_VERSION
#define SUDOKUD_VERSION "0.0.0"
#endif

#define MAX_EXTRA_PLUGINS 16 /* --plugin FILE, repeatable */

struct options {
    struct server_config cfg;               /* handed to the server */
    const char *plugin_dir;                 /* -P, or NULL for the default */
    const char *plugins[MAX_EXTRA_PLUGINS]; /* --plugin files */
    size_t plugins_len;                     /* how many */
    int verbose;                            /* -v */
    int is_default_socket;                  /* no -s and no SUDOKUD_SOCKET */
};

enum {
    OPT_TIMEOUT = 256,
    OPT_MAX_MESSAGE,
    OPT_MAX_CONN,
    OPT_MODE,
    OPT_MAX_QUEUE,
    OPT_GRACE,
    OPT_SPIN,
    OPT_INLINE,
    OPT_PLUGIN,
    OPT_HELP,
    OPT_VERSION
};

static const struct option long_options[] = {
    {"socket", required_argument, NULL, 's'},
    {"plugin-dir", required_argument, NULL, 'P'},
    {"threads", required_argument, NULL, 'j'},
    {"timeout-ms", required_argument, NULL, OPT_TIMEOUT},
    {"max-message", required_argument, NULL, OPT_MAX_MESSAGE},
    {"max-connections", required_argument, NULL, OPT_MAX_CONN},
    {"max-queue", required_argument, NULL, OPT_MAX_QUEUE},
    {"grace-ms", required_argument, NULL, OPT_GRACE},
    {"spin-us", required_argument, NULL, OPT_SPIN},
    {"inline-us", required_argument, NULL, OPT_INLINE},
    {"socket-mode", required_argument, NULL, OPT_MODE},
    {"plugin", required_argument, NULL, OPT_PLUGIN},
    {"verbose", no_argument, NULL, 'v'},
    {"help", no_argument, NULL, OPT_HELP},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0},
};

static void usage(FILE *f)
{
    fprintf(f, "Usage: sudokud [OPTION]...\n"
               "Sudoku solving service: msgpack-rpc on a Unix socket, solver plugins.\n\n"
               "  -s, --socket PATH        listen on PATH (default: $SUDOKUD_SOCKET, else\n"
               "                           /run/sudokud/sudokud.sock as root,\n"
               "                           $XDG_RUNTIME_DIR/sudokud.sock otherwise; unused\n"
               "                           when socket-activated)\n"
               "  -P, --plugin-dir DIR     load every *.so plugin in DIR\n"
               "      --plugin FILE        also load the plugin FILE (repeatable)\n"
               "  -j, --threads N          solver worker threads (default: CPU count)\n"
               "      --timeout-ms MS      default per-request timeout and its ceiling (30000)\n"
               "      --max-message BYTES  largest accepted message (65536)\n"
               "      --max-connections N  connections served at once (1000)\n"
               "      --max-queue N        solves waiting for a worker, in total (8192)\n"
               "      --grace-ms MS        on SIGTERM, running solves get this long (1500)\n"
               "      --inline-us US       try a solve on the event loop for up to US\n"
               "                           microseconds before handing it to a worker\n"
               "                           (default 30; 0: always use the workers)\n"
               "      --spin-us US         an idle worker polls for work this long before\n"
               "                           it sleeps (default 50; 0: sleep at once)\n"
               "      --socket-mode MODE   octal permissions of the socket (0660)\n"
               "  -v, --verbose            log every request\n"
               "      --help               show this help and exit\n"
               "      --version            show the version and exit\n");
}

/* --help or --version: print to stdout; returns 1 (served, exit 0). */
static int print_info(int opt)
{
    if (opt == OPT_HELP)
        usage(stdout);
    else
        printf("sudokud %s\n", SUDOKUD_VERSION);
    return 1;
}

/* Parse an unsigned number in base into *out within [min, max]. */
static int parse_num(const char *s, int base, unsigned long long min, unsigned long long max,
                     unsigned long long *out)
{
    char *end;
    unsigned long long v;

    errno = 0;
    if (!s || !*s || *s == '-')
        return -EINVAL;
    v = strtoull(s, &end, base);
    if (errno || *end || v < min || v > max)
        return -EINVAL;
    *out = v;
    return 0;
}

static int bad_value(const char *opt, const char *value)
{
    fprintf(stderr, "sudokud: invalid value for %s: '%s'\n", opt, value);
    return -EINVAL;
}

static int set_socket(struct options *o, const char *path)
{
    size_t len = strlen(path);
    if (len == 0 || len >= sizeof(o->cfg.socket_path))
        return bad_value("--socket", path);
    memcpy(o->cfg.socket_path, path, len + 1);
    return 0;
}

/* One numeric option into the config; returns 0 or -EINVAL after a message. */
static int set_number(struct options *o, int opt, const char *arg)
{
    unsigned long long v;

    switch (opt) {
    case 'j':
        if (parse_num(arg, 10, 1, 1024, &v) < 0)
            return bad_value("--threads", arg);
        o->cfg.threads = (unsigned)v;
        return 0;
    case OPT_TIMEOUT:
        if (parse_num(arg, 10, 1, 86400000ull, &v) < 0)
            return bad_value("--timeout-ms", arg);
        o->cfg.timeout_ms = v;
        return 0;
    case OPT_MAX_MESSAGE:
        if (parse_num(arg, 10, 64, 64ull << 20, &v) < 0)
            return bad_value("--max-message", arg);
        o->cfg.max_message = (size_t)v;
        return 0;
    case OPT_MAX_CONN:
        if (parse_num(arg, 10, 1, 1000000, &v) < 0)
            return bad_value("--max-connections", arg);
        o->cfg.max_connections = (unsigned)v;
        return 0;
    case OPT_MAX_QUEUE:
        if (parse_num(arg, 10, 1, 10000000, &v) < 0)
            return bad_value("--max-queue", arg);
        o->cfg.max_queue = (size_t)v;
        return 0;
    case OPT_GRACE:
        if (parse_num(arg, 10, 0, 600000, &v) < 0)
            return bad_value("--grace-ms", arg);
        o->cfg.grace_ms = (unsigned)v;
        return 0;
    case OPT_SPIN:
        if (parse_num(arg, 10, 0, 10000, &v) < 0)
            return bad_value("--spin-us", arg);
        o->cfg.spin_us = (unsigned)v;
        return 0;
    case OPT_INLINE:
        if (parse_num(arg, 10, 0, 1000, &v) < 0)
            return bad_value("--inline-us", arg);
        o->cfg.inline_us = (unsigned)v;
        return 0;
    default:
        if (parse_num(arg, 8, 0, 0777, &v) < 0)
            return bad_value("--socket-mode", arg);
        o->cfg.socket_mode = (unsigned)v;
        return 0;
    }
}

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
    o->cfg.socket_mode = 0660;
    o->cfg.listen_fd = -1;
}

/* Returns 0 to run, 1 when --help/--version was served, <0 on usage error. */
static int parse_args(int argc, char **argv, struct options *o)
{
    const char *env = getenv("SUDOKUD_SOCKET");
    int opt;

    set_defaults(o);
    if (env && *env && set_socket(o, env) < 0)
        return -EINVAL;
    while ((opt = getopt_long(argc, argv, "s:P:j:v", long_options, NULL)) != -1) {
        int rc = 0;
        if (opt == 's')
            rc = set_socket(o, optarg);
        else if (opt == 'P')
            o->plugin_dir = optarg;
        else if (opt == 'v')
            o->verbose = 1;
        else if (opt == OPT_PLUGIN && o->plugins_len < MAX_EXTRA_PLUGINS)
            o->plugins[o->plugins_len++] = optarg;
        else if (opt == OPT_PLUGIN)
            rc = bad_value("--plugin", "too many");
        else if (opt == OPT_HELP || opt == OPT_VERSION)
            return print_info(opt);
        else if (opt == '?')
            rc = -EINVAL;
        else
            rc = set_number(o, opt, optarg);
        if (rc < 0)
            return rc;
    }
    if (optind < argc) {
        fprintf(stderr, "sudokud: unexpected argument '%s'\n", argv[optind]);
        return -EINVAL;
    }
    o->is_default_socket = !o->cfg.socket_path[0];
    return 0;
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
    if (server_default_socket(o->cfg.socket_path, sizeof(o->cfg.socket_path)) < 0) {
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
    return 0;
}

/* Room for --max-connections descriptors, as far as the hard limit allows. */
static void raise_fd_limit(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

int main(int argc, char **argv)
{
    struct options o;
    struct host *h;
    int rc = parse_args(argc, argv, &o);

    if (rc != 0)
        return rc > 0 ? 0 : 2;
    log_init(o.verbose);
    rc = pick_listener(&o);
    if (rc != 0)
        return rc;
    signal(SIGPIPE, SIG_IGN);
    raise_fd_limit();
    h = host_new(log_host_sink, NULL);
    if (!h) {
        log_msg(SDK_LOG_ERR, "out of memory");
        return 1;
    }
    rc = load_plugins(&o, h);
    if (rc == 0)
        rc = server_run(&o.cfg, h);
    else
        rc = 1;
    host_free(h);
    return rc;
}
