/* rules.c -- the `rules` option, decoded at the daemon's end.
 *
 * A request's `rules` map becomes a struct rpc_rules: each key one of the
 * seven the protocol names, each value of its type, every count bounded by
 * the largest grid (625 cells), so the fixed arrays cannot overflow
 * whatever is sent.  Numbers too large for their field saturate, so the
 * message core/rules.c writes about them still says "out of range" or
 * "impossible".  What depends on the side (n cells a region, connected;
 * cells in range) is core/rules.c's to judge once the puzzle is known.
 */
#include "proto/rules.h"

#include <stdio.h>
#include <string.h>

#include "proto/end.h"
#include "proto/protocol.h"

#if PROTO_DAEMON_END

/* The SDK_RULE_* bit of a boolean rule's key, or 0. */
static uint32_t bool_rule(enum proto_key k)
{
    switch (k) {
    case PROTO_K_DIAGONALS:
        return SDK_RULE_DIAGONALS;
    case PROTO_K_WINDOWS:
        return SDK_RULE_WINDOWS;
    case PROTO_K_ANTI_KNIGHT:
        return SDK_RULE_ANTI_KNIGHT;
    case PROTO_K_ANTI_KING:
        return SDK_RULE_ANTI_KING;
    case PROTO_K_NON_CONSECUTIVE:
        return SDK_RULE_NON_CONSECUTIVE;
    default:
        return 0;
    }
}

static uint32_t saturate(uint64_t v)
{
    return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

static enum rpc_code decode_regions(const msgpack_object *v, int is_generate, struct rpc_rules *r,
                                    char *err, size_t err_size)
{
    if (is_generate && v->type == MSGPACK_OBJECT_BOOLEAN && v->via.boolean) {
        r->draw |= SDK_RULE_REGIONS;
        return RPC_OK;
    }
    if (v->type != MSGPACK_OBJECT_STR)
        return rpc_failf(err, err_size, RPC_BAD_REQUEST, "regions: must be a string of %s",
                         is_generate ? "n*n region symbols, or true" : "n*n region symbols");
    if (v->via.str.size > SDK_MAX_CELLS)
        return rpc_failf(err, err_size, RPC_BAD_REQUEST,
                         "regions: %u symbols, more than the largest grid's %u cells",
                         v->via.str.size, SDK_MAX_CELLS);
    memcpy(r->regions, v->via.str.ptr, v->via.str.size);
    r->regions_len = v->via.str.size;
    r->kinds |= SDK_RULE_REGIONS;
    return RPC_OK;
}

/* Cage i (0-based; messages say i+1): [sum, [cell, ...]]. */
static enum rpc_code decode_cage(const msgpack_object *c, uint32_t i, struct rpc_rules *r,
                                 char *err, size_t err_size)
{
    const msgpack_object_array *a = &c->via.array, *cells;

    if (c->type != MSGPACK_OBJECT_ARRAY || a->size != 2 || a->ptr[1].type != MSGPACK_OBJECT_ARRAY)
        return rpc_failf(err, err_size, RPC_BAD_REQUEST,
                         "cages: cage %u must be [sum, [cell, ...]]", i + 1);
    if (a->ptr[0].type != MSGPACK_OBJECT_POSITIVE_INTEGER)
        return rpc_failf(err, err_size, RPC_BAD_REQUEST,
                         "cages: cage %u's sum must be a positive integer", i + 1);
    cells = &a->ptr[1].via.array;
    if (cells->size > SDK_MAX_CELLS - r->cells_len)
        return rpc_failf(err, err_size, RPC_BAD_REQUEST,
                         "cages: more than the largest grid's %u cells in all (at cage %u)",
                         SDK_MAX_CELLS, i + 1);
    for (uint32_t k = 0; k < cells->size; k++) {
        if (cells->ptr[k].type != MSGPACK_OBJECT_POSITIVE_INTEGER)
            return rpc_failf(err, err_size, RPC_BAD_REQUEST,
                             "cages: cage %u's cell %u must be a cell number (0-based, row-major)",
                             i + 1, k + 1);
        r->cells[r->cells_len++] = saturate(cells->ptr[k].via.u64);
    }
    r->sum[i] = saturate(a->ptr[0].via.u64);
    r->len[i] = (uint16_t)cells->size;
    return RPC_OK;
}

static enum rpc_code decode_cages(const msgpack_object *v, int is_generate, struct rpc_rules *r,
                                  char *err, size_t err_size)
{
    if (is_generate && v->type == MSGPACK_OBJECT_BOOLEAN && v->via.boolean) {
        r->draw |= SDK_RULE_CAGES;
        return RPC_OK;
    }
    if (v->type != MSGPACK_OBJECT_ARRAY)
        return rpc_failf(err, err_size, RPC_BAD_REQUEST,
                         "cages: must be an array of [sum, [cell, ...]]%s",
                         is_generate ? ", or true" : "");
    if (v->via.array.size > SDK_MAX_CELLS)
        return rpc_failf(err, err_size, RPC_BAD_REQUEST,
                         "cages: %u cages, more than the largest grid's %u cells",
                         v->via.array.size, SDK_MAX_CELLS);
    for (uint32_t i = 0; i < v->via.array.size; i++) {
        enum rpc_code code = decode_cage(&v->via.array.ptr[i], i, r, err, err_size);

        if (code != RPC_OK)
            return code;
    }
    r->cages_len = v->via.array.size;
    if (r->cages_len)
        r->kinds |= SDK_RULE_CAGES;
    return RPC_OK;
}

/* One key of the map. */
static enum rpc_code decode_key(const msgpack_object *k, const msgpack_object *v, int is_generate,
                                struct rpc_rules *r, char *err, size_t err_size)
{
    enum proto_key key = proto_key_of(k);
    uint32_t bit = bool_rule(key);
    char name[40];

    if (bit) {
        if (v->type != MSGPACK_OBJECT_BOOLEAN)
            return rpc_failf(err, err_size, RPC_BAD_REQUEST, "rules: %s must be true or false",
                             proto_key(key));
        if (v->via.boolean)
            r->kinds |= bit;
        return RPC_OK;
    }
    if (key == PROTO_K_REGIONS)
        return decode_regions(v, is_generate, r, err, err_size);
    if (key == PROTO_K_CAGES)
        return decode_cages(v, is_generate, r, err, err_size);
    if (k->type != MSGPACK_OBJECT_STR)
        return rpc_failf(err, err_size, RPC_BAD_REQUEST, "rules: keys must be strings");
    rpc_copy_printable(name, sizeof(name), k);
    return rpc_failf(err, err_size, RPC_BAD_REQUEST,
                     "rules: unknown rule \"%s\" (diagonals, windows, regions, anti_knight, "
                     "anti_king, non_consecutive, cages)",
                     name);
}

enum rpc_code rpc_decode_rules(const msgpack_object *o, int is_generate, struct rpc_rules *r,
                               char *err, size_t err_size)
{
    r->kinds = r->draw = 0;
    r->regions_len = r->cages_len = r->cells_len = 0;
    if (o->type == MSGPACK_OBJECT_NIL)
        return RPC_OK;
    if (o->type != MSGPACK_OBJECT_MAP)
        return rpc_failf(err, err_size, RPC_BAD_REQUEST, "rules: must be a map");
    for (uint32_t i = 0; i < o->via.map.size; i++) {
        enum rpc_code code = decode_key(&o->via.map.ptr[i].key, &o->via.map.ptr[i].val, is_generate,
                                        r, err, err_size);

        if (code != RPC_OK)
            return code;
    }
    return RPC_OK;
}

#endif /* PROTO_DAEMON_END */
