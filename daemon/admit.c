/* admit.c -- connection slots: a limit per peer uid, and eviction when full.
 *
 * Without these, whoever opens --max-connections connections first (five
 * clients each sending one byte, at --max-connections 5) locks everyone
 * else out.  The per-uid limit keeps one uid from taking the whole table;
 * when it is full anyway, the uid holding the most connections gives one
 * back: its longest-idle connection is closed to make room.  A connection
 * busy with a request, with answers unsent, or active in the last
 * ADMIT_EVICT_IDLE_MS is never closed for a newcomer: the newcomer is
 * refused instead.
 *
 * Counting per uid sorts the uids of the open connections (one array of
 * at most --max-connections entries, freed before returning); it runs only
 * when the table is full.  The daemon's own uid is not held to the per-uid
 * limit: it can stop or ptrace the daemon anyway, and in a per-user daemon
 * every client has it, where the limit would only be a lower
 * --max-connections.  It is evicted like any other.
 */
#include "daemon/admit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "daemon/log.h"
#include "daemon/stats.h"

unsigned admit_per_uid(const struct conn_set *set)
{
    unsigned quarter = set->max_connections / 4;

    if (set->max_per_uid > 0)
        return set->max_per_uid;
    return quarter > 0 ? quarter : 1;
}

/* 1 when o is served (counted in stats.connections) and not on its way out. */
static int is_counted(const struct conn *o)
{
    return o->is_served && !o->is_closing && !o->is_draining;
}

static unsigned count_uid(const struct conn_set *set, uid_t uid)
{
    const struct list *l;
    unsigned n = 0;

    for (l = set->all.next; l != &set->all; l = l->next) {
        const struct conn *o = LIST_CONTAINER_OF(l, const struct conn, link);
        n += is_counted(o) && o->uid == uid;
    }
    return n;
}

static int cmp_uid(const void *a, const void *b)
{
    uid_t x = *(const uid_t *)a, y = *(const uid_t *)b;

    return (x > y) - (x < y);
}

/* The uids of every counted connection, sorted, into *out (the caller
 * frees it).  Returns how many, or -ENOMEM. */
static long sorted_uids(const struct conn_set *set, uid_t **out)
{
    const struct list *l;
    size_t n = 0, cap = set->stats->connections;
    uid_t *uids = malloc((cap > 0 ? cap : 1) * sizeof(*uids));

    if (!uids)
        return -ENOMEM;
    for (l = set->all.next; l != &set->all && n < cap; l = l->next) {
        const struct conn *o = LIST_CONTAINER_OF(l, const struct conn, link);
        if (is_counted(o))
            uids[n++] = o->uid;
    }
    qsort(uids, n, sizeof(*uids), cmp_uid);
    *out = uids;
    return (long)n;
}

/* How many times uid occurs in uids[0..n) (sorted). */
static unsigned occurrences(const uid_t *uids, size_t n, uid_t uid)
{
    size_t lo = 0, hi = n, first;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (uids[mid] < uid)
            lo = mid + 1;
        else
            hi = mid;
    }
    first = lo;
    while (lo < n && uids[lo] == uid)
        lo++;
    return (unsigned)(lo - first);
}

/* The longest-idle evictable connection of the uid holding the most, or NULL. */
static struct conn *pick_victim(struct conn_set *set, const uid_t *uids, size_t n, uint64_t now)
{
    struct conn *best = NULL;
    unsigned most = 0;
    struct list *l;

    for (size_t i = 0; i < n; i++) {
        unsigned k = occurrences(uids, n, uids[i]);
        most = k > most ? k : most;
    }
    for (l = set->all.next; l != &set->all; l = l->next) {
        struct conn *o = LIST_CONTAINER_OF(l, struct conn, link);
        if (!is_counted(o) || !conn_is_idle(o) || now - o->idle_since_ms < ADMIT_EVICT_IDLE_MS ||
            occurrences(uids, n, o->uid) != most)
            continue;
        if (!best || o->idle_since_ms < best->idle_since_ms)
            best = o;
    }
    return best;
}

/* Table full: close the connection that gives way to c.  Returns 0 or -EAGAIN. */
static int evict_for(struct conn_set *set, const struct conn *c)
{
    uint64_t now = uv_now(set->loop);
    struct conn *victim;
    uid_t *uids;
    long n = sorted_uids(set, &uids);

    if (n < 0)
        return -EAGAIN;
    victim = pick_victim(set, uids, (size_t)n, now);
    free(uids);
    if (!victim)
        return -EAGAIN;
    log_limited(&set->refusals, LOG_LVL_NOTICE,
                "conn %llu (pid %ld uid %ld): closing: idle for %llu ms, to make room for pid "
                "%ld uid %ld (--max-connections reached; its uid holds the most)",
                (unsigned long long)victim->id, (long)victim->pid, (long)victim->uid,
                (unsigned long long)(now - victim->idle_since_ms), (long)c->pid, (long)c->uid);
    conn_close(victim);
    return 0;
}

int admit_take_slot(struct conn_set *set, const struct conn *c, char *why, size_t why_size)
{
    unsigned limit = admit_per_uid(set);

    if (c->uid != set->own_uid && count_uid(set, c->uid) >= limit) {
        snprintf(why, why_size, "too many connections from uid %ld (--max-connections-per-uid %u)",
                 (long)c->uid, limit);
        return -EUSERS;
    }
    if (set->stats->connections < set->max_connections)
        return 0;
    if (evict_for(set, c) == 0 && set->stats->connections < set->max_connections)
        return 0;
    snprintf(why, why_size, "too many connections (--max-connections)");
    return -EAGAIN;
}
