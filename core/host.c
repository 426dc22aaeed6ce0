/* host.c -- load solver plugins with dlopen, run them, and never trust them.
 *
 * The host keeps an array of entries, one per loaded plugin.  Each entry is
 * allocated on its own so the struct host_plugin pointers handed out stay
 * valid while more plugins load.  Each entry also carries the sdk_host table
 * given to its plugin: the table's ctx points back at the entry, so a plugin's
 * log lines come out prefixed with its name.
 *
 * A plugin file is judged by core/trust.c on the descriptor it is opened
 * as, then dlopen()ed through that descriptor under a name no other load in
 * the process used (host_fd_name()), so what was checked is what runs.
 *
 * Invariants: after loading, nothing in a host or an entry changes until
 * host_free(), so host_solve() reads only constant data and is thread-safe;
 * the exceptions are each entry's lock, which serialises the calls to a
 * plugin that does not declare SDK_CAP_REENTRANT, and a logged-once flag.
 * One process-wide atomic counter numbers the dlopen() names.
 * Every answer a plugin gives is checked by the rules (grid_check_solution)
 * before host_solve() returns it; a wrong one is wiped and becomes -EIO.
 */
#include "core/host.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <libgen.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/grid.h"
#include "core/trust.h"

#define HOST_LOG_LINE     512        /* longest log line, longer ones are cut */
#define HOST_NAME_MAX_LEN 31         /* sdk_plugin.name: [a-z0-9_-]{1,31} */
#define HOST_LOCK_POLL_NS 10000000u  /* serialised calls look at cancel this often */
#define HOST_LATE_NS      100000000u /* SDK_CAP_CANCEL broken: this late past a deadline */
#define HOST_VERSION_MAX  31         /* sdk_plugin.version: bytes (a client keeps 31) */
#define HOST_DESC_MAX     159        /* sdk_plugin.description: bytes (a client keeps 159) */
#define HOST_FD_NAME_MAX  256        /* host_fd_name(): 14 + 6 * 32 + 11 bytes and a NUL */

/* Smallest descriptor the host can use: ABI 1.0 ends with solve. */
#define HOST_MIN_DESC_SIZE (offsetof(struct sdk_plugin, solve) + sizeof(void (*)(void)))

struct host_entry {
    struct host_plugin pub; /* what callers see; must stay the first member */
    struct sdk_host api;    /* table handed to this plugin, ctx = this entry */
    struct host *host;      /* owner, for logging */
    pthread_mutex_t lock;   /* one call at a time, unless SDK_CAP_REENTRANT */
    atomic_int late_logged; /* 1 once a late return past a deadline was logged */
};

struct host {
    host_log_fn *log;                 /* sink, may be NULL */
    void *ctx;                        /* passed back to log */
    struct host_entry **entries;      /* loaded plugins, in load order */
    size_t len;                       /* entries in use */
    size_t cap;                       /* entries allocated */
    const struct host_plugin *forced; /* host_set_default: the default for every size */
};

/* ---------------------------------------------------------------- logging */

static void host_logf(const struct host *h, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void host_logf(const struct host *h, int level, const char *fmt, ...)
{
    char line[HOST_LOG_LINE];
    va_list ap;

    if (!h->log)
        return;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    h->log(h->ctx, level, line);
}

/* The log callback plugins see: prefix the line with the plugin's name. */
static void entry_log(void *ctx, int level, const char *msg)
{
    const struct host_entry *e = ctx;
    const char *name = e->pub.desc ? e->pub.desc->name : "?";

    host_logf(e->host, level, "%s: %s", name, msg ? msg : "(null)");
}

/* ---------------------------------------------------------- host object */

struct host *host_new(host_log_fn *log, void *ctx)
{
    struct host *h = calloc(1, sizeof(*h));

    if (!h)
        return NULL;
    h->log = log;
    h->ctx = ctx;
    return h;
}

static void entry_free(struct host_entry *e)
{
    if (!e)
        return;
    if (e->pub.desc && e->pub.desc->fini)
        e->pub.desc->fini(e->pub.state);
    if (e->pub.dl)
        dlclose(e->pub.dl);
    pthread_mutex_destroy(&e->lock);
    free(e->pub.path);
    free(e);
}

void host_free(struct host *h)
{
    if (!h)
        return;
    for (size_t i = h->len; i > 0; i--)
        entry_free(h->entries[i - 1]);
    free(h->entries);
    free(h);
}

size_t host_count(const struct host *h)
{
    return h ? h->len : 0;
}

const struct host_plugin *host_plugin_at(const struct host *h, size_t i)
{
    if (!h || i >= h->len)
        return NULL;
    return &h->entries[i]->pub;
}

const struct host_plugin *host_find(const struct host *h, const char *name)
{
    if (!h || !name)
        return NULL;
    for (size_t i = 0; i < h->len; i++) {
        if (strcmp(h->entries[i]->pub.desc->name, name) == 0)
            return &h->entries[i]->pub;
    }
    return NULL;
}

const struct host_plugin *host_default(const struct host *h)
{
    const struct host_plugin *p = h && h->forced ? h->forced : host_find(h, "bitmask");

    if (p)
        return p;
    return host_plugin_at(h, 0);
}

int host_set_default(struct host *h, const char *name)
{
    const struct host_plugin *p = host_find(h, name);

    if (!p)
        return -ENOENT;
    h->forced = p;
    return 0;
}

const struct host_plugin *host_default_for(const struct host *h, int side)
{
    const struct host_plugin *p = side == 25 ? host_find(h, "sat") : NULL;

    if (h && h->forced)
        return h->forced;
    if (p && (p->desc->sizes & sdk_size_bit((uint32_t)side)))
        return p;
    return host_default(h);
}

/* ---------------------------------------------------------------- loading */

static int name_is_valid(const char *name)
{
    size_t len;

    if (!name)
        return 0;
    len = strlen(name);
    if (len == 0 || len > HOST_NAME_MAX_LEN)
        return 0;
    for (size_t i = 0; i < len; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
            return 0;
    }
    return 1;
}

/* Length of the UTF-8 sequence starting at s, or 0 when it is not valid
 * (overlong, surrogate, above U+10FFFF, truncated) or is a control
 * character (C0, DEL, C1). */
static size_t utf8_printable_len(const unsigned char *s)
{
    unsigned c = s[0];
    size_t len = c < 0x80             ? 1
                 : (c & 0xe0) == 0xc0 ? 2
                 : (c & 0xf0) == 0xe0 ? 3
                 : (c & 0xf8) == 0xf0 ? 4
                                      : 0;
    uint32_t cp;

    if (len == 0)
        return 0;
    cp = len == 1 ? c : c & (0x7fu >> len);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3fu);
    }
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000))
        return 0; /* overlong */
    if ((cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
        return 0;
    if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f))
        return 0;
    return len;
}

/* Free text from a plugin reaches clients and log lines: it must be NULL
 * (none) or at most max bytes of valid UTF-8 without control characters. */
static int text_is_valid(const char *text, size_t max)
{
    size_t len, step;

    if (!text)
        return 1;
    len = strlen(text);
    if (len > max)
        return 0;
    for (size_t i = 0; i < len; i += step) {
        step = utf8_printable_len((const unsigned char *)text + i);
        if (step == 0)
            return 0;
    }
    return 1;
}

/* Check a descriptor against ABI 1.  Returns 0, or -EPROTO with the reason in
 * why (a static string). */
static int desc_check(const struct sdk_plugin *d, const char **why)
{
    if (d->abi_major != SDK_ABI_MAJOR) {
        *why = "wrong ABI major";
        return -EPROTO;
    }
    if (d->struct_size < HOST_MIN_DESC_SIZE) {
        *why = "descriptor too small (struct_size)";
        return -EPROTO;
    }
    if (!d->solve) {
        *why = "missing solve()";
        return -EPROTO;
    }
    if (!name_is_valid(d->name)) {
        *why = "bad or empty name (want [a-z0-9_-]{1,31})";
        return -EPROTO;
    }
    if (!text_is_valid(d->version, HOST_VERSION_MAX)) {
        *why = "bad version (want at most 31 bytes of UTF-8, no control characters)";
        return -EPROTO;
    }
    if (!text_is_valid(d->description, HOST_DESC_MAX)) {
        *why = "bad description (want at most 159 bytes of UTF-8, no control characters)";
        return -EPROTO;
    }
    if ((d->sizes & SDK_SIZE_ALL) == 0) {
        *why = "supports no grid size (sizes == 0)";
        return -EPROTO;
    }
    return 0;
}

static int host_grow(struct host *h)
{
    size_t cap = h->cap ? h->cap * 2 : 8;
    struct host_entry **p;

    if (h->len < h->cap)
        return 0;
    p = realloc(h->entries, cap * sizeof(*p));
    if (!p)
        return -ENOMEM;
    h->entries = p;
    h->cap = cap;
    return 0;
}

/* How many names host_fd_name() gave out, in the whole process. */
static atomic_uint host_fd_names;

/* A name, new to the process, under which dlopen() reads the file open on
 * fd.  glibc's dlopen() looks for a loaded object by name before it reads
 * any file, and an object keeps every name it was opened under for as long
 * as it stays loaded (a plugin another host also loaded, or one dlclose()
 * cannot unload: RTLD_NODELETE, unique symbols), while descriptor numbers
 * are soon reused.  So the k-th name is "/proc/self/fd/", then k in binary
 * from the lowest bit, "./" for a 0 and "../fd/" for a 1, then the number:
 *
 *     k = 6 (110), fd 5:  /proc/self/fd/./../fd/../fd/5
 *
 * Both segments lead back to /proc/self/fd, and the last one is always
 * "../fd/", so no two names are the same string. */
static void host_fd_name(char *name, size_t size, int fd)
{
    unsigned k = atomic_fetch_add(&host_fd_names, 1);
    size_t len = (size_t)snprintf(name, size, "/proc/self/fd/");

    for (; k != 0 && len < size; k >>= 1)
        len += (size_t)snprintf(name + len, size - len, "%s", k & 1 ? "../fd/" : "./");
    if (len < size)
        snprintf(name + len, size - len, "%d", fd);
}

/* Whether name leads to the very file open on fd: it does not when /proc
 * is not mounted. */
static int fd_name_shows_file(int fd, const char *name)
{
    struct stat by_fd, by_name;

    return fstat(fd, &by_fd) == 0 && stat(name, &by_name) == 0 && by_fd.st_dev == by_name.st_dev &&
           by_fd.st_ino == by_name.st_ino;
}

/* dlopen the checked file open on fd and fetch its descriptor into e.  Logs
 * and returns a negative errno on failure; e->pub.dl is set whenever dlopen
 * succeeded. */
static int entry_open(struct host *h, struct host_entry *e, const char *path, int fd)
{
    char name[HOST_FD_NAME_MAX];
    sdk_entry_fn entry;
    const char *why = NULL;
    int rc;

    host_fd_name(name, sizeof(name), fd);
    if (!fd_name_shows_file(fd, name)) {
        host_logf(h, SDK_LOG_ERR,
                  "plugin %s refused: %s does not show the checked file (is /proc mounted?); "
                  "plugins are loaded only through a checked descriptor",
                  path, name);
        return -ENOSYS;
    }
    e->pub.dl = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!e->pub.dl) {
        const char *err = dlerror();
        size_t len = strlen(name);
        if (err && strncmp(err, name, len) == 0 && strncmp(err + len, ": ", 2) == 0)
            err += len + 2; /* the path is in the line already */
        host_logf(h, SDK_LOG_ERR, "plugin %s refused: not a plugin: %s", path,
                  err ? err : "dlopen failed");
        return -ENOEXEC;
    }
    /* dlsym returns void *; POSIX guarantees it converts to a function pointer. */
    *(void **)&entry = dlsym(e->pub.dl, SDK_ENTRY_SYMBOL);
    if (!entry) {
        host_logf(h, SDK_LOG_ERR, "plugin %s refused: not a plugin: no symbol %s", path,
                  SDK_ENTRY_SYMBOL);
        return -ENOEXEC;
    }
    e->pub.desc = entry();
    if (!e->pub.desc) {
        host_logf(h, SDK_LOG_ERR, "plugin %s refused: %s() returned NULL", path, SDK_ENTRY_SYMBOL);
        return -EPROTO;
    }
    rc = desc_check(e->pub.desc, &why);
    if (rc < 0) {
        host_logf(h, SDK_LOG_ERR, "plugin %s refused: %s (plugin ABI %u.%u, host ABI %d.%d)", path,
                  why, e->pub.desc->abi_major, e->pub.desc->abi_minor, SDK_ABI_MAJOR,
                  SDK_ABI_MINOR);
        e->pub.desc = NULL; /* never call into a descriptor we refused */
        return rc;
    }
    return 0;
}

/* Refuse a duplicate name, then run init.  Logs and returns a negative errno. */
static int entry_start(struct host *h, struct host_entry *e, const char *path)
{
    const struct sdk_plugin *d = e->pub.desc;
    const struct host_plugin *other = host_find(h, d->name);

    if (other) {
        host_logf(h, SDK_LOG_ERR,
                  "plugin %s refused: duplicate name \"%s\" (already loaded from %s)", path,
                  d->name, other->path);
        e->pub.desc = NULL;
        return -EEXIST;
    }
    if (d->init) {
        int rc = d->init(&e->api, &e->pub.state);
        if (rc != 0) {
            host_logf(h, SDK_LOG_ERR, "plugin %s refused: init() failed: %s", path,
                      strerror(rc < 0 ? -rc : rc));
            e->pub.desc = NULL; /* init failed: fini must not run */
            return rc < 0 ? rc : -rc;
        }
    }
    return 0;
}

int host_load_file(struct host *h, const char *path)
{
    char why[HOST_LOG_LINE];
    struct host_entry *e = NULL;
    int fd, rc;

    if (!h || !path)
        return -EINVAL;
    fd = trust_open_file(path, why, sizeof(why));
    if (fd < 0) {
        host_logf(h, SDK_LOG_ERR, "plugin %s refused: %s", path, why);
        return fd;
    }
    rc = host_grow(h);
    if (rc < 0)
        goto fail;
    rc = -ENOMEM;
    e = calloc(1, sizeof(*e));
    if (!e)
        goto fail;
    pthread_mutex_init(&e->lock, NULL);
    e->pub.path = strdup(path);
    if (!e->pub.path)
        goto fail;
    e->host = h;
    e->api.size = sizeof(e->api);
    e->api.ctx = e;
    e->api.log = entry_log;
    rc = entry_open(h, e, path, fd);
    close(fd); /* dlopen() has its own */
    fd = -1;
    if (rc < 0)
        goto fail;
    rc = entry_start(h, e, path);
    if (rc < 0)
        goto fail;
    h->entries[h->len++] = e;
    host_logf(h, SDK_LOG_INFO, "plugin %s loaded from %s (version %s%s%s)", e->pub.desc->name, path,
              e->pub.desc->version ? e->pub.desc->version : "?",
              e->pub.desc->caps & SDK_CAP_REENTRANT ? "" : "; not reentrant: one call at a time",
              e->pub.desc->caps & SDK_CAP_CANCEL ? "" : "; cannot be cancelled");
    return 0;
fail:
    if (rc == -ENOMEM)
        host_logf(h, SDK_LOG_ERR, "plugin %s refused: out of memory", path);
    if (fd >= 0)
        close(fd);
    entry_free(e);
    return rc;
}

static int has_so_suffix(const char *name)
{
    size_t len = strlen(name);

    return len > 3 && strcmp(name + len - 3, ".so") == 0;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Collect the "*.so" names in dir, sorted.  Caller frees each and *names. */
static int list_so(DIR *d, char ***names, size_t *len)
{
    struct dirent *de;
    size_t cap = 0;

    *names = NULL;
    *len = 0;
    while ((de = readdir(d)) != NULL) {
        if (!has_so_suffix(de->d_name))
            continue;
        if (*len == cap) {
            char **p = realloc(*names, (cap ? cap * 2 : 16) * sizeof(*p));
            if (!p)
                return -ENOMEM;
            *names = p;
            cap = cap ? cap * 2 : 16;
        }
        (*names)[*len] = strdup(de->d_name);
        if (!(*names)[*len])
            return -ENOMEM;
        (*len)++;
    }
    if (*len)
        qsort(*names, *len, sizeof(**names), cmp_names);
    return 0;
}

int host_load_dir(struct host *h, const char *dir)
{
    char path[4096], why[HOST_LOG_LINE];
    char **names = NULL;
    size_t len = 0;
    int loaded = 0;
    int rc;
    DIR *d;

    if (!h || !dir)
        return -EINVAL;
    rc = trust_check_dir(dir, why, sizeof(why));
    if (rc < 0) {
        host_logf(h, SDK_LOG_ERR, "plugin directory %s refused: %s", dir, why);
        return rc;
    }
    d = opendir(dir);
    if (!d) {
        rc = -errno;
        host_logf(h, SDK_LOG_ERR, "plugin dir %s: %s", dir, strerror(errno));
        return rc;
    }
    rc = list_so(d, &names, &len);
    closedir(d);
    if (rc < 0)
        goto done;
    for (size_t i = 0; i < len; i++) {
        if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, names[i]) >= sizeof(path)) {
            host_logf(h, SDK_LOG_ERR, "plugin %s/%s refused: path too long", dir, names[i]);
            continue;
        }
        if (host_load_file(h, path) == 0)
            loaded++;
    }
    rc = loaded;
done:
    for (size_t i = 0; i < len; i++)
        free(names[i]);
    free(names);
    return rc;
}

static int is_dir(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Copy src into out.  Returns 0 or -ENAMETOOLONG. */
static int copy_path(char *out, size_t out_size, const char *src)
{
    if (strlen(src) >= out_size)
        return -ENAMETOOLONG;
    strcpy(out, src);
    return 0;
}

/* <dir of the running executable>/../SUDOKU_PLUGIN_SUBDIR, resolved, when it
 * is a directory.  Returns 1 (found, in out), 0 (not there) or -ENAMETOOLONG. */
static int exe_relative_dir(char *out, size_t out_size)
{
    char exe[4096];
    char cand[4096 + sizeof("/../" SUDOKU_PLUGIN_SUBDIR)];
    char *real;
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    int rc = 0;

    if (n <= 0)
        return 0;
    exe[n] = '\0';
    snprintf(cand, sizeof(cand), "%s/../%s", dirname(exe), SUDOKU_PLUGIN_SUBDIR);
    real = realpath(cand, NULL);
    if (real && is_dir(real))
        rc = copy_path(out, out_size, real) == 0 ? 1 : -ENAMETOOLONG;
    free(real);
    return rc;
}

int host_default_plugin_dir(char *out, size_t out_size)
{
    int rc = exe_relative_dir(out, out_size);

    if (rc != 0)
        return rc < 0 ? rc : 0;
    return copy_path(out, out_size, SUDOKU_INSTALL_PLUGIN_DIR);
}

/* ---------------------------------------------------------------- solving */

/* Check what the plugin returned against the caller's job, which the plugin
 * never saw (it worked on a copy).  Returns 0 or -EIO after logging why. */
static int check_answer(const struct host_entry *e, const struct sdk_job *job, int status)
{
    const char *name = e->pub.desc->name;
    char err[256];

    if (status < SDK_SOLVED || status > SDK_FAILED) {
        host_logf(e->host, SDK_LOG_ERR, "%s: returned bad status %d", name, status);
        return -EIO;
    }
    if (status == SDK_FAILED) {
        host_logf(e->host, SDK_LOG_ERR, "%s: failed on a %ux%u puzzle", name, job->n, job->n);
        return -EIO;
    }
    if (job->count > job->limit) {
        host_logf(e->host, SDK_LOG_ERR, "%s: found %llu solutions, limit was %llu", name,
                  (unsigned long long)job->count, (unsigned long long)job->limit);
        return -EIO;
    }
    /* Cancelled or timed-out jobs may report what they found so far. */
    if ((status == SDK_SOLVED && job->count == 0) ||
        (status == SDK_UNSOLVABLE && job->count != 0)) {
        host_logf(e->host, SDK_LOG_ERR, "%s: status %d with count %llu", name, status,
                  (unsigned long long)job->count);
        return -EIO;
    }
    if (status == SDK_SOLVED &&
        grid_check_solution(job->n, job->cells, job->solution, err, sizeof(err)) != 0) {
        host_logf(e->host, SDK_LOG_ERR, "%s: wrong solution: %s", name, err);
        return -EIO;
    }
    return 0;
}

/* Wait for e's lock, for a plugin that is not reentrant, while the job may
 * still run: the wait ends at the job's deadline or (looked at every
 * HOST_LOCK_POLL_NS) its cancel flag.  Returns 0 (locked) or the status. */
static int entry_lock(struct host_entry *e, const struct sdk_job *job)
{
    int stop;

    if (pthread_mutex_trylock(&e->lock) == 0)
        return 0;
    if (!job->cancel && !job->deadline_ns)
        return pthread_mutex_lock(&e->lock) == 0 ? 0 : SDK_FAILED;
    while ((stop = sdk_job_should_stop(job)) == 0) {
        /* timedlock takes CLOCK_REALTIME; the deadline is CLOCK_MONOTONIC. */
        uint64_t wait = HOST_LOCK_POLL_NS, now = sdk_now_ns();
        struct timespec ts;
        if (job->deadline_ns && now >= job->deadline_ns)
            continue; /* sdk_job_should_stop() now says so */
        if (job->deadline_ns && job->deadline_ns - now < wait)
            wait = job->deadline_ns - now;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += (long)wait;
        ts.tv_sec += ts.tv_nsec / 1000000000L;
        ts.tv_nsec %= 1000000000L;
        if (pthread_mutex_timedlock(&e->lock, &ts) == 0)
            return 0;
    }
    return stop;
}

/* Run the plugin on pj, serialised when it is not reentrant.  Returns its
 * status, or the stop status when the job ended before it could start. */
static int entry_call(struct host_entry *e, struct sdk_job *pj)
{
    const struct sdk_plugin *d = e->pub.desc;
    int serial = !(d->caps & SDK_CAP_REENTRANT);
    int status = sdk_job_should_stop(pj);

    if (status == 0 && serial)
        status = entry_lock(e, pj);
    if (status != 0)
        return status;
    status = d->solve(e->pub.state, &e->api, pj);
    if (serial)
        pthread_mutex_unlock(&e->lock);
    return status;
}

/* A plugin that declares SDK_CAP_CANCEL and returns well past the deadline
 * broke its promise: say so, once per plugin. */
static void check_late(struct host_entry *e, uint64_t deadline_ns)
{
    if (!deadline_ns || !(e->pub.desc->caps & SDK_CAP_CANCEL))
        return;
    if (sdk_now_ns() > deadline_ns + HOST_LATE_NS && !atomic_exchange(&e->late_logged, 1))
        host_logf(e->host, SDK_LOG_WARNING,
                  "%s: returned more than %u ms past its deadline although it declares "
                  "SDK_CAP_CANCEL (logged once)",
                  e->pub.desc->name, HOST_LATE_NS / 1000000u);
}

int host_solve(const struct host_plugin *p, struct sdk_job *job)
{
    /* The entry is the host's own heap object; only callers see it const. */
    struct host_entry *e = (struct host_entry *)(uintptr_t)p;
    uint8_t givens[SDK_MAX_CELLS];
    struct sdk_job pj;
    int status;

    if (!p || !job || !job->cells || !job->solution || job->limit == 0)
        return -EINVAL;
    if (!(sdk_size_bit(job->n) & p->desc->sizes))
        return -ENOTSUP;
    /* The plugin gets a copy of the job and of the givens: whatever it
     * writes into them (cells is const only by declaration), the answer is
     * checked against the caller's, which it never had a pointer to.  Only
     * the solution buffer is shared.  81 bytes on the 9x9 hot path. */
    memcpy(givens, job->cells, (size_t)job->n * job->n);
    pj = *job;
    pj.cells = givens;
    pj.count = 0;
    pj.guesses = 0;
    status = entry_call(e, &pj);
    check_late(e, job->deadline_ns);
    job->count = pj.count;
    job->guesses = pj.guesses;
    if (check_answer(e, job, status) < 0) {
        memset(job->solution, 0, (size_t)job->n * job->n);
        job->count = 0;
        return -EIO;
    }
    return status;
}

/* ------------------------------------------------------------- explaining */

/* Does p have explain() (ABI minor 1)?  Read through the descriptor's own
 * size, so a minor-0 descriptor is never read past its end. */
int host_plugin_has_explain(const struct host_plugin *p)
{
    return p && p->desc && sdk_plugin_has_explain(p->desc);
}

/* The candidates of a position the host replays steps on. */
struct replay {
    uint32_t n;                    /* side */
    uint8_t val[SDK_MAX_CELLS];    /* 0 = unsolved */
    uint32_t cand[SDK_MAX_CELLS];  /* candidates of unsolved cells */
    const uint8_t *solution;       /* the unique solution */
    const struct host_entry *e;    /* for logging */
    const struct sdk_explain *job; /* the plugin's answer: view below */
    struct sdk_explain view;       /* the caller's arrays, the plugin's lengths */
    const char *hardest;           /* technique of the hardest step, or NULL */
    double rating;                 /* its rating */
};

/* Solve cell with v in r and take v from its peers. */
static void replay_place(struct replay *r, uint32_t cell, uint32_t v)
{
    const uint32_t n = r->n, b = sdk_box_side(n), row = cell / n, col = cell % n;
    const uint32_t br = row / b * b, bc = col / b * b, bit = 1u << (v - 1);

    r->val[cell] = (uint8_t)v;
    r->cand[cell] = 0;
    for (uint32_t k = 0; k < n; k++) {
        r->cand[row * n + k] &= ~bit;
        r->cand[k * n + col] &= ~bit;
        r->cand[(br + k / b) * n + bc + k % b] &= ~bit;
    }
}

static void replay_init(struct replay *r, uint32_t n, const uint8_t *start)
{
    r->n = n;
    for (uint32_t i = 0; i < n * n; i++) {
        r->val[i] = 0;
        r->cand[i] = (1u << n) - 1;
    }
    for (uint32_t i = 0; i < n * n; i++)
        if (start[i])
            replay_place(r, i, start[i]);
}

/* Log why step i is refused; returns -EIO. */
static int replay_fail(const struct replay *r, uint32_t i, const char *why, uint32_t cell,
                       uint32_t v)
{
    const struct sdk_step *s = &r->job->steps[i];

    host_logf(r->e->host, SDK_LOG_ERR, "%s: unsound explain step %u (%s): %s r%uc%u=%u",
              r->e->pub.desc->name, i + 1, s->technique ? s->technique : "?", why, cell / r->n + 1,
              cell % r->n + 1, v);
    return -EIO;
}

/* Is the range [off, off + len) inside the used part of an array? */
static int range_ok(uint32_t off, uint32_t len, uint32_t used)
{
    return off <= used && len <= used - off;
}

/* Check the shape of step i: technique, rating, ranges, text. */
static int replay_shape(const struct replay *r, uint32_t i)
{
    const struct sdk_explain *j = r->job;
    const struct sdk_step *s = &j->steps[i];

    if (!s->technique || !name_is_valid(s->technique) || !(s->rating >= 0.0 && s->rating < 100.0))
        return replay_fail(r, i, "bad technique or rating", 0, 0);
    if (!range_ok(s->place_off, s->place_len, j->placements_len) ||
        !range_ok(s->elim_off, s->elim_len, j->eliminations_len) ||
        (s->cells_len && !range_ok(s->cells_off, s->cells_len, j->cells_out_len)))
        return replay_fail(r, i, "entries outside the arrays", 0, 0);
    for (uint32_t k = 0; k < s->cells_len; k++)
        if (j->cells_out[s->cells_off + k] >= r->n * r->n)
            return replay_fail(r, i, "pattern cell out of range", j->cells_out[s->cells_off + k],
                               0);
    if (j->text && s->text_len &&
        (!range_ok(s->text_off, s->text_len + 1, j->text_len) ||
         j->text[s->text_off + s->text_len] != '\0'))
        return replay_fail(r, i, "text outside the buffer", 0, 0);
    return 0;
}

/* Check one (cell, value) entry of step i and apply it. */
static int replay_entry(struct replay *r, uint32_t i, const struct sdk_cell_value *cv, int place)
{
    const uint32_t cell = cv->cell, v = cv->value;

    if (cell >= r->n * r->n || v < 1 || v > r->n)
        return replay_fail(r, i, "cell or value out of range", cell, v);
    if (place && r->solution[cell] != v)
        return replay_fail(r, i, "placement differs from the solution", cell, v);
    if (!place && r->solution[cell] == v)
        return replay_fail(r, i, "eliminates the solution's value", cell, v);
    if (r->val[cell] || !(r->cand[cell] & (1u << (v - 1))))
        return 0; /* changes nothing; the step as a whole must change something */
    if (place)
        replay_place(r, cell, v);
    else
        r->cand[cell] &= ~(1u << (v - 1));
    return 1;
}

/* Check and apply step i.  Returns 0 or -EIO. */
static int replay_step(struct replay *r, uint32_t i)
{
    const struct sdk_explain *j = r->job;
    const struct sdk_step *s = &j->steps[i];
    int changed = 0, rc = replay_shape(r, i);

    for (uint32_t k = 0; rc == 0 && k < s->elim_len; k++) {
        rc = replay_entry(r, i, &j->eliminations[s->elim_off + k], 0);
        changed |= rc > 0;
        rc = rc < 0 ? rc : 0;
    }
    for (uint32_t k = 0; rc == 0 && k < s->place_len; k++) {
        rc = replay_entry(r, i, &j->placements[s->place_off + k], 1);
        changed |= rc > 0;
        rc = rc < 0 ? rc : 0;
    }
    if (rc == 0 && !changed)
        return replay_fail(r, i, "changes no candidate", 0, 0);
    return rc;
}

/* SDK_EXPLAIN_ABOVE is an answer only to a job that set a ceiling, and its
 * rating must lie above it.  The host cannot check the claim itself (that
 * would be the search the ceiling saves); a plugin that makes it falsely
 * only gets its puzzle left out of a band. */
static bool above_ok(const struct sdk_explain *job, const struct sdk_explain *pj)
{
    return pj->status == SDK_EXPLAIN_ABOVE && job->max_rating > 0.0 && pj->rating > job->max_rating;
}

/* Check the whole answer pj of plugin e.  Returns 0 or -EIO (logged). */
static int explain_check(const struct host_entry *e, const struct sdk_explain *job,
                         const struct sdk_explain *pj, const uint8_t *solution, struct replay *r)
{
    const char *name = e->pub.desc->name;

    if ((pj->status > SDK_EXPLAIN_NOSPACE && !above_ok(job, pj)) ||
        pj->steps_len > job->steps_cap || pj->placements_len > job->placements_cap ||
        pj->eliminations_len > job->eliminations_cap ||
        (job->cells_out ? pj->cells_out_len > job->cells_out_cap : pj->cells_out_len != 0) ||
        (job->text ? pj->text_len > job->text_cap : pj->text_len != 0) ||
        !(pj->rating >= 0.0 && pj->rating < 100.0)) {
        host_logf(e->host, SDK_LOG_ERR, "%s: explain returned bad status %u or lengths", name,
                  pj->status);
        return -EIO;
    }
    /* Read the caller's arrays through the caller's pointers, never pj's. */
    r->view = *job;
    r->view.steps_len = pj->steps_len;
    r->view.placements_len = pj->placements_len;
    r->view.eliminations_len = pj->eliminations_len;
    r->view.cells_out_len = pj->cells_out_len;
    r->view.text_len = pj->text_len;
    r->e = e;
    r->job = &r->view;
    r->solution = solution;
    replay_init(r, job->n, job->progress ? job->progress : job->cells);
    r->hardest = NULL;
    r->rating = 0.0;
    for (uint32_t i = 0; i < pj->steps_len; i++) {
        if (replay_step(r, i) < 0)
            return -EIO;
        if (!r->hardest || job->steps[i].rating > r->rating) {
            r->hardest = job->steps[i].technique;
            r->rating = job->steps[i].rating;
        }
    }
    /* The rating is the hardest step's; a stuck one, or one above the
     * ceiling, may be higher. */
    if (pj->status == SDK_EXPLAIN_STUCK || pj->status == SDK_EXPLAIN_ABOVE
            ? pj->rating < r->rating
            : pj->rating != r->rating) {
        host_logf(e->host, SDK_LOG_ERR, "%s: explain rating %.2f, hardest step %.2f", name,
                  pj->rating, r->rating);
        return -EIO;
    }
    if (pj->status == SDK_EXPLAIN_SOLVED && memcmp(r->val, solution, (size_t)job->n * job->n)) {
        host_logf(e->host, SDK_LOG_ERR, "%s: explain said solved, steps stop short", name);
        return -EIO;
    }
    if (pj->status == SDK_EXPLAIN_PARTIAL && pj->steps_len != job->max_steps) {
        host_logf(e->host, SDK_LOG_ERR, "%s: explain stopped early without a reason", name);
        return -EIO;
    }
    return 0;
}

/* Find the unique solution of job's givens with solver.  Returns 0, or
 * -EDOM (none), -ENOTUNIQ (more than one), -ECANCELED, -ETIMEDOUT, -EIO. */
static int explain_solution(const struct host_plugin *solver, const struct sdk_explain *job,
                            uint8_t *solution)
{
    struct sdk_job sj = {.size = sizeof(sj),
                         .n = job->n,
                         .cells = job->cells,
                         .limit = 2,
                         .cancel = job->cancel,
                         .deadline_ns = job->deadline_ns,
                         .solution = solution};
    int rc = host_solve(solver, &sj);

    if (rc < 0)
        return rc == -ENOTSUP ? -ENOTSUP : -EIO;
    if (rc == SDK_CANCELLED || rc == SDK_TIMEDOUT)
        return rc == SDK_CANCELLED ? -ECANCELED : -ETIMEDOUT;
    if (sj.count == 0)
        return -EDOM;
    return sj.count > 1 ? -ENOTUNIQ : 0;
}

/* Check job's inputs (not the plugin's support).  Returns 0 or -EINVAL. */
static int explain_job_ok(const struct sdk_explain *job, const uint8_t *solution)
{
    char err[128];

    if (!job || !solution || job->size < sizeof(*job) || !job->cells || !sdk_box_side(job->n))
        return -EINVAL;
    if (!job->steps || !job->placements || !job->eliminations)
        return -EINVAL;
    if (grid_check_givens(job->n, job->cells, err, sizeof(err)) != 0)
        return -EINVAL;
    return 0;
}

/* Does the progress grid keep every given and agree with the solution? */
static int progress_ok(const struct sdk_explain *job, const uint8_t *solution)
{
    for (uint32_t i = 0; job->progress && i < job->n * job->n; i++) {
        if (job->cells[i] && job->progress[i] != job->cells[i])
            return 0;
        if (job->progress[i] && job->progress[i] != solution[i])
            return 0;
    }
    return 1;
}

/* Call e's explain() on pj, serialised when e is not reentrant. */
static int entry_explain(struct host_entry *e, struct sdk_explain *pj)
{
    const struct sdk_plugin *d = e->pub.desc;
    struct sdk_job lockjob = {.cancel = pj->cancel, .deadline_ns = pj->deadline_ns};
    int serial = !(d->caps & SDK_CAP_REENTRANT), rc;

    if (serial && entry_lock(e, &lockjob) != 0)
        return 1; /* stopped while waiting */
    rc = d->explain(e->pub.state, &e->api, pj);
    if (serial)
        pthread_mutex_unlock(&e->lock);
    return rc;
}

/* Copy the plugin's out fields from pj to job. */
static void explain_copy_out(struct sdk_explain *job, const struct sdk_explain *pj,
                             const struct replay *r)
{
    job->status = pj->status;
    job->steps_len = pj->steps_len;
    job->placements_len = pj->placements_len;
    job->eliminations_len = pj->eliminations_len;
    job->cells_out_len = pj->cells_out_len;
    job->text_len = pj->text_len;
    job->rating = pj->rating;
    job->hardest = r->hardest; /* checked by replay_shape, not the plugin's word */
    if (job->grid)
        memcpy(job->grid, r->val, (size_t)job->n * job->n);
}

const struct host_plugin *host_explainer_for(const struct host *h, unsigned n)
{
    for (size_t i = 0; i < host_count(h); i++) {
        const struct host_plugin *p = host_plugin_at(h, i);
        if (host_plugin_has_explain(p) && (p->desc->explain_sizes & sdk_size_bit(n)))
            return p;
    }
    return NULL;
}

int host_explain(const struct host_plugin *p, const struct host_plugin *solver,
                 struct sdk_explain *job, uint8_t *solution)
{
    struct host_entry *e = (struct host_entry *)(uintptr_t)p;
    uint8_t givens[SDK_MAX_CELLS], progress[SDK_MAX_CELLS], sol[SDK_MAX_CELLS];
    struct sdk_explain pj;
    struct replay r;
    int rc = explain_job_ok(job, solution);

    if (rc != 0 || !p || !solver)
        return -EINVAL;
    if (!host_plugin_has_explain(p) || !(sdk_size_bit(job->n) & p->desc->explain_sizes))
        return -ENOTSUP;
    rc = explain_solution(solver, job, solution);
    if (rc != 0)
        return rc;
    if (!progress_ok(job, solution))
        return -EBADMSG;
    /* As for solve: the plugin sees copies of the inputs; only the output
     * arrays are shared, and everything in them is checked below. */
    memcpy(givens, job->cells, (size_t)job->n * job->n);
    if (job->progress)
        memcpy(progress, job->progress, (size_t)job->n * job->n);
    pj = *job;
    pj.cells = givens;
    pj.progress = job->progress ? progress : NULL;
    memcpy(sol, solution, (size_t)job->n * job->n);
    pj.solution = sol; /* minor 3: lets the plugin skip sources that cannot break */
    pj.grid = NULL;
    pj.size = sizeof(pj);
    rc = entry_explain(e, &pj);
    if (rc == 1)
        return job->cancel && atomic_load(job->cancel) ? -ECANCELED : -ETIMEDOUT;
    if (rc < 0) {
        host_logf(e->host, SDK_LOG_ERR, "%s: explain failed on a %ux%u puzzle: %d", p->desc->name,
                  job->n, job->n, rc);
        return -EIO;
    }
    if (rc > 0 || explain_check(e, job, &pj, solution, &r) != 0)
        return -EIO;
    explain_copy_out(job, &pj, &r);
    return 0;
}

void *host_explain_arrays(struct sdk_explain *job, unsigned n, int with_text)
{
    size_t cells = (size_t)n * n, steps = cells * n;
    size_t step_b = steps * sizeof(struct sdk_step),
           place_b = cells * sizeof(struct sdk_cell_value);
    size_t elim_b = steps * sizeof(struct sdk_cell_value);
    size_t pat_b = with_text ? steps * HOST_CELLS_PER_STEP * sizeof(uint16_t) : 0;
    size_t text_b = with_text ? steps * HOST_TEXT_PER_STEP : 0;
    uint8_t *block = malloc(step_b + place_b + elim_b + pat_b + text_b);
    uint8_t *b = block;

    if (!block)
        return NULL;
    job->steps = (struct sdk_step *)(void *)b;
    job->placements = (struct sdk_cell_value *)(void *)(b += step_b);
    job->eliminations = (struct sdk_cell_value *)(void *)(b += place_b);
    job->cells_out = pat_b ? (uint16_t *)(void *)(b += elim_b) : NULL;
    job->text = text_b ? (char *)(b + pat_b) : NULL;
    job->steps_cap = (uint32_t)steps;
    job->placements_cap = (uint32_t)cells;
    job->eliminations_cap = (uint32_t)steps;
    job->cells_out_cap = (uint32_t)(pat_b / sizeof(uint16_t));
    job->text_cap = (uint32_t)text_b;
    return block;
}
