/* load.c -- load a plugin file with dlopen, through the descriptor checked.
 *
 * A plugin file is judged by core/trust.c on the descriptor it is opened
 * as, then dlopen()ed through that descriptor under a name no other load in
 * the process used (host_fd_name()), so what was checked is what runs.  Its
 * descriptor must then pass desc.c, its name must be new to the host, and
 * its init() must succeed; only then does the registry hold it.  Every
 * refusal is one log line naming the file and the reason, and the other
 * files still load.  host__entry_free() is the way back out (fini, then
 * dlclose).
 *
 * Loading is single-threaded (at start-up); the one piece of process-wide
 * state is an atomic counter that numbers the dlopen() names.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/host_impl.h"
#include "core/sha256.h"
#include "core/trust.h"

#define HOST_FD_NAME_MAX 256 /* host_fd_name(): 14 + 6 * 32 + 11 bytes and a NUL */

/* The log callback plugins see: prefix the line with the plugin's name. */
static void entry_log(void *ctx, int level, const char *msg)
{
    const struct host_entry *e = ctx;
    const char *name = e->pub.desc ? e->pub.desc->name : "?";

    host__logf(e->host, level, "%s: %s", name, msg ? msg : "(null)");
}

void host__entry_free(struct host_entry *e)
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

/* dlopen the checked file open on fd into e->pub.dl.  Logs and returns a
 * negative errno on failure. */
static int entry_dlopen(struct host *h, struct host_entry *e, const char *path, int fd)
{
    char name[HOST_FD_NAME_MAX];

    host_fd_name(name, sizeof(name), fd);
    if (!fd_name_shows_file(fd, name)) {
        host__logf(h, SDK_LOG_ERR,
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
        host__logf(h, SDK_LOG_ERR, "plugin %s refused: not a plugin: %s", path,
                   err ? err : "dlopen failed");
        return -ENOEXEC;
    }
    return 0;
}

/* Fetch the descriptor of the dlopen()ed e into e->pub.desc and check it.
 * Logs and returns a negative errno on failure, e->pub.desc then NULL. */
static int entry_describe(struct host *h, struct host_entry *e, const char *path)
{
    sdk_entry_fn entry;
    const char *why = NULL;
    int rc;

    /* dlsym returns void *; POSIX guarantees it converts to a function pointer. */
    *(void **)&entry = dlsym(e->pub.dl, SDK_ENTRY_SYMBOL);
    if (!entry) {
        host__logf(h, SDK_LOG_ERR, "plugin %s refused: not a plugin: no symbol %s", path,
                   SDK_ENTRY_SYMBOL);
        return -ENOEXEC;
    }
    e->pub.desc = entry();
    if (!e->pub.desc) {
        host__logf(h, SDK_LOG_ERR, "plugin %s refused: %s() returned NULL", path, SDK_ENTRY_SYMBOL);
        return -EPROTO;
    }
    rc = host__desc_check(e->pub.desc, &why);
    if (rc < 0) {
        host__logf(h, SDK_LOG_ERR, "plugin %s refused: %s (plugin ABI %u.%u, host ABI %d.%d)", path,
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
        host__logf(h, SDK_LOG_ERR,
                   "plugin %s refused: duplicate name \"%s\" (already loaded from %s)", path,
                   d->name, other->path);
        e->pub.desc = NULL;
        return -EEXIST;
    }
    if (d->init) {
        int rc = d->init(&e->api, &e->pub.state);
        if (rc != 0) {
            host__logf(h, SDK_LOG_ERR, "plugin %s refused: init() failed: %s", path,
                       strerror(rc < 0 ? -rc : rc));
            e->pub.desc = NULL; /* init failed: fini must not run */
            return rc < 0 ? rc : -rc;
        }
    }
    return 0;
}

/* A new entry of h for the file path, not yet loaded.  Returns 0 with *out
 * set (free it with host__entry_free()), or -ENOMEM. */
static int entry_new(struct host *h, const char *path, struct host_entry **out)
{
    struct host_entry *e = calloc(1, sizeof(*e));

    *out = e;
    if (!e)
        return -ENOMEM;
    pthread_mutex_init(&e->lock, NULL);
    e->pub.path = strdup(path);
    if (!e->pub.path)
        return -ENOMEM;
    e->host = h;
    e->api.size = sizeof(e->api);
    e->api.ctx = e;
    e->api.log = entry_log;
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
        host__logf(h, SDK_LOG_ERR, "plugin %s refused: %s", path, why);
        return fd;
    }
    rc = host_grow(h);
    if (rc == 0)
        rc = entry_new(h, path, &e);
    if (rc == 0)
        rc = sha256_fd(fd, e->sha256); /* the bytes checked are the bytes known */
    if (rc == 0)
        rc = entry_dlopen(h, e, path, fd);
    if (rc == 0)
        rc = entry_describe(h, e, path);
    close(fd); /* dlopen() has its own */
    if (rc == 0)
        rc = entry_start(h, e, path);
    if (rc < 0)
        goto fail;
    h->entries[h->len++] = e;
    host__logf(h, SDK_LOG_INFO, "plugin %s loaded from %s (version %s%s%s)", e->pub.desc->name,
               path, e->pub.desc->version ? e->pub.desc->version : "?",
               e->pub.desc->caps & SDK_CAP_REENTRANT ? "" : "; not reentrant: one call at a time",
               e->pub.desc->caps & SDK_CAP_CANCEL ? "" : "; cannot be cancelled");
    return 0;
fail:
    if (rc == -ENOMEM)
        host__logf(h, SDK_LOG_ERR, "plugin %s refused: out of memory", path);
    host__entry_free(e);
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

/* Load dir/name for each of names, in that order.  Returns how many loaded. */
static int load_names(struct host *h, const char *dir, char *const *names, size_t len)
{
    char path[4096];
    int loaded = 0;

    for (size_t i = 0; i < len; i++) {
        if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, names[i]) >= sizeof(path)) {
            host__logf(h, SDK_LOG_ERR, "plugin %s/%s refused: path too long", dir, names[i]);
            continue;
        }
        if (host_load_file(h, path) == 0)
            loaded++;
    }
    return loaded;
}

int host_load_dir(struct host *h, const char *dir)
{
    char why[HOST_LOG_LINE];
    char **names = NULL;
    size_t len = 0;
    int rc;
    DIR *d;

    if (!h || !dir)
        return -EINVAL;
    rc = trust_check_dir(dir, why, sizeof(why));
    if (rc < 0) {
        host__logf(h, SDK_LOG_ERR, "plugin directory %s refused: %s", dir, why);
        return rc;
    }
    d = opendir(dir);
    if (!d) {
        rc = -errno;
        host__logf(h, SDK_LOG_ERR, "plugin dir %s: %s", dir, strerror(errno));
        return rc;
    }
    rc = list_so(d, &names, &len);
    closedir(d);
    if (rc == 0)
        rc = load_names(h, dir, names, len);
    for (size_t i = 0; i < len; i++)
        free(names[i]);
    free(names);
    return rc;
}
