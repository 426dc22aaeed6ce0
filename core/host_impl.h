/* host_impl.h -- what the rooms of the plugin host share (core/host.h's inside).
 *
 * Not part of any public face: only the host's own files include it.  The
 * host is five rooms, each a file, around the two structs below:
 *
 *   registry.c     the host object: its plugins in load order, its log,
 *                  which plugin answers by default;
 *   desc.c         what a plugin's descriptor must say before any call;
 *   load.c         dlopen through a checked descriptor, start, unload;
 *   plugin_path.c  where the plugins are by default;
 *   sha256.c       the digest a plugin file is known by;
 *   marshal.c      a job and its answer as flat bytes, for a plugin that
 *                  runs in another process (host_set_runner);
 *   gate.c         every call into a plugin: serialised when it is not
 *                  reentrant, a solve's answer checked (the hot path);
 *   explain.c      host_explain: the unique solution, then the plugin;
 *   verify.c       every step of an explanation replayed and checked.
 *
 * Internal non-static functions carry the host__ prefix.
 *
 * Invariants: after loading, nothing in a host or an entry changes until
 * host_free(), so the gate reads only constant data and is thread-safe;
 * the exceptions are each entry's lock, which serialises the calls to a
 * plugin that does not declare SDK_CAP_REENTRANT, and a logged-once flag.
 */
#ifndef SUDOKU_HOST_IMPL_H
#define SUDOKU_HOST_IMPL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <sudoku/plugin.h>

#include "core/host.h"

#define HOST_LOG_LINE     512 /* longest log line, longer ones are cut */
#define HOST_NAME_MAX_LEN 31  /* sdk_plugin.name: [a-z0-9_-]{1,31} */

/* One loaded plugin.  Each is allocated on its own so the struct
 * host_plugin pointers handed out stay valid while more plugins load.  The
 * sdk_host table's ctx points back at the entry, so a plugin's log lines
 * come out prefixed with its name. */
struct host_entry {
    struct host_plugin pub;           /* what callers see; must stay the first member */
    struct sdk_host api;              /* table handed to this plugin, ctx = this entry */
    struct host *host;                /* owner, for logging */
    pthread_mutex_t lock;             /* one call at a time, unless SDK_CAP_REENTRANT */
    atomic_int late_logged;           /* 1 once a late return past a deadline was logged */
    uint8_t sha256[32];               /* SHA-256 of the file loaded (the descriptor checked) */
    int no_prompt;                    /* host_deny_prompt: never on the caller's loop */
    const struct host_runner *runner; /* host_set_runner: calls go there, or NULL */
    void *runner_ctx;                 /* passed back to runner */
};

struct host {
    host_log_fn *log;                 /* sink, may be NULL */
    void *ctx;                        /* passed back to log */
    struct host_entry **entries;      /* loaded plugins, in load order */
    size_t len;                       /* entries in use */
    size_t cap;                       /* entries allocated */
    const struct host_plugin *forced; /* host_set_default: the default for every size */
};

/* registry.c: format one line (cut at HOST_LOG_LINE) to h's log, if any. */
void host__logf(const struct host *h, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* load.c: call the plugin's fini (when it started), dlclose it and free e.
 * Accepts NULL. */
void host__entry_free(struct host_entry *e);

/* desc.c: is name a plugin or technique name, [a-z0-9_-]{1,31}? */
int host__name_is_valid(const char *name);

/* desc.c: check a descriptor against ABI 1.  Returns 0, or -EPROTO with the
 * reason in *why (a static string). */
int host__desc_check(const struct sdk_plugin *d, const char **why);

/* gate.c: call e's explain() on pj, serialised when e is not reentrant.
 * Returns the plugin's result, or 1 when the job stopped while waiting for
 * the plugin's lock. */
int host__explain_call(struct host_entry *e, struct sdk_explain *pj);

/* verify.c: check pj, plugin e's answer to the caller's job (its arrays
 * read through job's pointers, never pj's), by replaying every step from
 * the start position against solution, the unique one.  When sound, copy
 * pj's out fields, the hardest step and the position reached into job and
 * return 0; else log why and return -EIO, job's out fields untouched. */
int host__explain_verify(const struct host_entry *e, struct sdk_explain *job,
                         const struct sdk_explain *pj, const uint8_t *solution);

#endif /* SUDOKU_HOST_IMPL_H */
