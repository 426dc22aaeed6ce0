/* stats.h -- counters behind the `stats` method.
 *
 * Only the loop thread touches them (workers report through their job,
 * which the loop reads in the completion callback), so no atomics.
 */
#ifndef SUDOKUD_STATS_H
#define SUDOKUD_STATS_H

#include <stddef.h>
#include <stdint.h>

#include <msgpack.h>

struct host;
struct host_plugin;

/* Per-solver outcome counters. */
struct solver_stats {
    uint64_t solved;     /* answered "solved" */
    uint64_t unsolvable; /* answered "unsolvable" */
    uint64_t timeouts;   /* hit their deadline */
    uint64_t errors;     /* failed, wrong answers, cancellations */
    uint64_t busy_us;    /* time spent solving */
};

struct stats {
    uint64_t start_ns;            /* monotonic start time */
    uint64_t connections;         /* open, served connections */
    uint64_t connections_total;   /* accepted since start */
    uint64_t requests;            /* requests read */
    uint64_t errors;              /* error responses sent */
    uint64_t in_flight;           /* solves queued or running */
    uint64_t stuck_workers;       /* workers written off in a plugin that has not returned */
    const struct host *host;      /* names the solvers */
    size_t solvers_len;           /* plugins at start */
    struct solver_stats *solvers; /* one per plugin, load order */
};

/* Start counting for the plugins of host.  Returns 0 or -ENOMEM. */
int stats_init(struct stats *st, const struct host *host);

/* Free what stats_init allocated. */
void stats_close(struct stats *st);

/* The counters of plugin p, or NULL when p is unknown. */
struct solver_stats *stats_solver(struct stats *st, const struct host_plugin *p);

/* Pack the `stats` result map with pk.  Returns 0 or -ENOMEM. */
int stats_pack(const struct stats *st, msgpack_packer *pk);

#endif /* SUDOKUD_STATS_H */
