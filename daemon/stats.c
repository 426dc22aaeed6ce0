/* stats.c -- the daemon's counters and their wire form.
 *
 * The map keys are part of protocol v1 (docs/protocol.md): uptime_s,
 * connections, requests, errors, in_flight and solvers; the extra keys
 * (connections_total, stuck_workers) are additions clients may ignore.
 */
#include "daemon/stats.h"

#include <errno.h>
#include <stdlib.h>

#include "core/host.h"
#include "proto/rpc.h"
#include "util/clock.h"

int stats_init(struct stats *st, const struct host *host)
{
    *st = (struct stats){0};
    st->start_ns = clock_now_ns();
    st->host = host;
    st->solvers_len = host_count(host);
    st->solvers = calloc(st->solvers_len ? st->solvers_len : 1, sizeof(*st->solvers));
    return st->solvers ? 0 : -ENOMEM;
}

void stats_close(struct stats *st)
{
    free(st->solvers);
    st->solvers = NULL;
}

struct solver_stats *stats_solver(struct stats *st, const struct host_plugin *p)
{
    for (size_t i = 0; i < st->solvers_len; i++)
        if (host_plugin_at(st->host, i) == p)
            return &st->solvers[i];
    return NULL;
}

static int pack_kv(msgpack_packer *pk, enum proto_key key, uint64_t value)
{
    if (proto_pack_key(pk, key) < 0 || msgpack_pack_uint64(pk, value) < 0)
        return -ENOMEM;
    return 0;
}

static int pack_solver(msgpack_packer *pk, const char *name, const struct solver_stats *ss)
{
    if (rpc_pack_cstr(pk, name) < 0 || msgpack_pack_map(pk, 5) < 0 ||
        pack_kv(pk, PROTO_K_SOLVED, ss->solved) < 0 ||
        pack_kv(pk, PROTO_K_UNSOLVABLE, ss->unsolvable) < 0 ||
        pack_kv(pk, PROTO_K_TIMEOUTS, ss->timeouts) < 0 ||
        pack_kv(pk, PROTO_K_ERRORS, ss->errors) < 0 ||
        pack_kv(pk, PROTO_K_BUSY_US, ss->busy_us) < 0)
        return -ENOMEM;
    return 0;
}

int stats_pack(const struct stats *st, msgpack_packer *pk)
{
    uint64_t uptime_s = (clock_now_ns() - st->start_ns) / 1000000000u;

    if (msgpack_pack_map(pk, 8) < 0 || pack_kv(pk, PROTO_K_UPTIME_S, uptime_s) < 0 ||
        pack_kv(pk, PROTO_K_CONNECTIONS, st->connections) < 0 ||
        pack_kv(pk, PROTO_K_CONNECTIONS_TOTAL, st->connections_total) < 0 ||
        pack_kv(pk, PROTO_K_REQUESTS, st->requests) < 0 ||
        pack_kv(pk, PROTO_K_ERRORS, st->errors) < 0 ||
        pack_kv(pk, PROTO_K_IN_FLIGHT, st->in_flight) < 0 ||
        pack_kv(pk, PROTO_K_STUCK_WORKERS, st->stuck_workers) < 0 ||
        proto_pack_key(pk, PROTO_K_SOLVERS) < 0 || msgpack_pack_map(pk, st->solvers_len) < 0)
        return -ENOMEM;
    for (size_t i = 0; i < st->solvers_len; i++)
        if (pack_solver(pk, host_plugin_at(st->host, i)->desc->name, &st->solvers[i]) < 0)
            return -ENOMEM;
    return 0;
}
