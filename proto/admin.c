/* admin.c -- ping, solvers, stats, version and cancel, both ends side by side.
 *
 * The daemon's end checks the params of the methods that take none and of
 * cancel, and packs the pong; the answers that need the daemon's plugins or
 * counters are packed in daemon/ with the names of protocol.h.  The
 * client's end packs the calls and reads their answers, lenient about keys
 * it does not know (the protocol may grow) and about solvers beyond what
 * the caller has room for.
 */
#include "proto/admin.h"

#include <errno.h>
#include <string.h>

#include "proto/end.h"
#include "proto/rpc.h"

/* ====================================================== the daemon's end */
#if PROTO_DAEMON_END

enum rpc_code rpc_decode_cancel(const msgpack_object_array *params, uint32_t *msgid, char *err,
                                size_t err_size)
{
    const msgpack_object *id = params->size == 1 ? &params->ptr[0] : NULL;

    if (!id || id->type != MSGPACK_OBJECT_POSITIVE_INTEGER || id->via.u64 > UINT32_MAX)
        return rpc_failf(err, err_size, RPC_BAD_REQUEST, "cancel takes [msgid]");
    *msgid = (uint32_t)id->via.u64;
    return RPC_OK;
}

enum rpc_code rpc_decode_no_params(const msgpack_object_array *params, const char *method_name,
                                   char *err, size_t err_size)
{
    if (params->size != 0)
        return rpc_failf(err, err_size, RPC_BAD_REQUEST, "%s takes no parameters", method_name);
    return RPC_OK;
}

static int pack_pong(msgpack_packer *pk, const void *arg)
{
    (void)arg;
    return proto_pack_key(pk, PROTO_K_PONG) < 0 ? -ENOMEM : 0;
}

int rpc_pack_pong(msgpack_sbuffer *sb, uint32_t msgid)
{
    return rpc_pack_answer(sb, NULL, msgid, pack_pong, NULL);
}

#endif /* PROTO_DAEMON_END */

/* ====================================================== the client's end */
#if PROTO_CLIENT_END

int wire_pack_call(struct cbuf *b, uint32_t msgid, enum rpc_method method)
{
    struct wire_packer w;

    wire_begin(&w, b, msgid, method, 0);
    return wire_end(&w);
}

int wire_decode_pong(const msgpack_object *result)
{
    return proto_is(result, PROTO_K_PONG) ? 0 : -EPROTO;
}

/* The sides a solver lists, as the bits of struct sudoku_client_solver. */
static unsigned sizes_mask(const msgpack_object *sizes)
{
    unsigned mask = 0;
    if (!sizes || sizes->type != MSGPACK_OBJECT_ARRAY)
        return 0;
    for (uint32_t i = 0; i < sizes->via.array.size; i++) {
        const msgpack_object *v = &sizes->via.array.ptr[i];
        if (v->type != MSGPACK_OBJECT_POSITIVE_INTEGER)
            continue;
        static const uint64_t sides[] = {4, 9, 16, 25};
        for (unsigned k = 0; k < 4; k++)
            if (v->via.u64 == sides[k])
                mask |= 1u << k;
    }
    return mask;
}

int wire_decode_solvers(const msgpack_object *result, struct sudoku_client_solver *out, size_t cap,
                        size_t *len)
{
    if (result->type != MSGPACK_OBJECT_ARRAY)
        return -EPROTO;
    *len = result->via.array.size;
    for (size_t i = 0; i < *len && i < cap; i++) {
        const msgpack_object *m = &result->via.array.ptr[i];
        struct sudoku_client_solver *s = &out[i];
        memset(s, 0, sizeof(*s));
        if (wire_copy_str(proto_map_get(m, PROTO_K_NAME), s->name, sizeof(s->name)) < 0)
            return -EPROTO;
        wire_copy_str(proto_map_get(m, PROTO_K_VERSION), s->version, sizeof(s->version));
        wire_copy_str(proto_map_get(m, PROTO_K_DESCRIPTION), s->description,
                      sizeof(s->description));
        s->sizes = sizes_mask(proto_map_get(m, PROTO_K_SIZES));
        const msgpack_object *d = proto_map_get(m, PROTO_K_DEFAULT);
        s->is_default = d && d->type == MSGPACK_OBJECT_BOOLEAN && d->via.boolean;
        s->default_sizes = sizes_mask(proto_map_get(m, PROTO_K_DEFAULT_SIZES));
        const msgpack_object *e = proto_map_get(m, PROTO_K_EXPLAIN);
        s->is_explain = e && e->type == MSGPACK_OBJECT_BOOLEAN && e->via.boolean;
    }
    return 0;
}

unsigned wire_decode_solver_rules(const msgpack_object *entry, enum proto_key key)
{
    static const struct {
        enum proto_key name;
        unsigned flag;
    } kinds[] = {
        {PROTO_K_DIAGONALS, SUDOKU_CLIENT_RULE_DIAGONALS},
        {PROTO_K_WINDOWS, SUDOKU_CLIENT_RULE_WINDOWS},
        {PROTO_K_REGIONS, SUDOKU_CLIENT_RULE_DRAW_REGIONS},
        {PROTO_K_ANTI_KNIGHT, SUDOKU_CLIENT_RULE_ANTI_KNIGHT},
        {PROTO_K_ANTI_KING, SUDOKU_CLIENT_RULE_ANTI_KING},
        {PROTO_K_NON_CONSECUTIVE, SUDOKU_CLIENT_RULE_NON_CONSECUTIVE},
        {PROTO_K_CAGES, SUDOKU_CLIENT_RULE_DRAW_CAGES},
    };
    const msgpack_object *names = proto_map_get(entry, key);
    unsigned flags = 0;

    if (!names || names->type != MSGPACK_OBJECT_ARRAY)
        return 0;
    for (uint32_t i = 0; i < names->via.array.size; i++) {
        enum proto_key k = proto_key_of(&names->via.array.ptr[i]);
        for (size_t j = 0; j < sizeof(kinds) / sizeof(kinds[0]); j++)
            if (k == kinds[j].name)
                flags |= kinds[j].flag;
    }
    return flags;
}

static int decode_solver_stats(const msgpack_object *solvers, struct sudoku_client_stats *out)
{
    if (!solvers)
        return 0;
    if (solvers->type != MSGPACK_OBJECT_MAP)
        return -EPROTO;
    for (uint32_t i = 0; i < solvers->via.map.size && i < SUDOKU_CLIENT_MAX_SOLVERS; i++) {
        const msgpack_object_kv *kv = &solvers->via.map.ptr[i];
        struct sudoku_client_solver_stats *s = &out->solvers[out->solvers_len];
        if (wire_copy_str(&kv->key, s->name, sizeof(s->name)) < 0 ||
            wire_get_u64(&kv->val, PROTO_K_SOLVED, 1, &s->solved) < 0 ||
            wire_get_u64(&kv->val, PROTO_K_UNSOLVABLE, 1, &s->unsolvable) < 0 ||
            wire_get_u64(&kv->val, PROTO_K_TIMEOUTS, 1, &s->timeouts) < 0 ||
            wire_get_u64(&kv->val, PROTO_K_ERRORS, 1, &s->errors) < 0 ||
            wire_get_u64(&kv->val, PROTO_K_BUSY_US, 1, &s->busy_us) < 0)
            return -EPROTO;
        out->solvers_len++;
    }
    return 0;
}

int wire_decode_stats(const msgpack_object *result, struct sudoku_client_stats *out)
{
    memset(out, 0, sizeof(*out));
    if (result->type != MSGPACK_OBJECT_MAP)
        return -EPROTO;
    if (wire_get_u64(result, PROTO_K_UPTIME_S, 1, &out->uptime_s) < 0 ||
        wire_get_u64(result, PROTO_K_CONNECTIONS, 1, &out->connections) < 0 ||
        wire_get_u64(result, PROTO_K_REQUESTS, 1, &out->requests) < 0 ||
        wire_get_u64(result, PROTO_K_ERRORS, 1, &out->errors) < 0 ||
        wire_get_u64(result, PROTO_K_IN_FLIGHT, 1, &out->in_flight) < 0 ||
        wire_get_u64(result, PROTO_K_CONNECTIONS_TOTAL, 1, &out->connections_total) < 0 ||
        wire_get_u64(result, PROTO_K_STUCK_WORKERS, 1, &out->stuck_workers) < 0)
        return -EPROTO;
    return decode_solver_stats(proto_map_get(result, PROTO_K_SOLVERS), out);
}

#endif /* PROTO_CLIENT_END */
