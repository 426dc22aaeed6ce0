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

#include <errno.h>
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
    if (key == PROTO_K_GIVENS && is_generate) { /* with cages: true, keep givens */
        if (v->type != MSGPACK_OBJECT_BOOLEAN)
            return rpc_failf(err, err_size, RPC_BAD_REQUEST, "rules: givens must be true or false");
        r->has_givens = v->via.boolean;
        return RPC_OK;
    }
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
    r->has_givens = 0;
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

/* The boolean rules of a generated puzzle, in the order they are sent. */
static const struct {
    uint32_t kind;
    enum proto_key key;
} rpc_bools[] = {
    {SDK_RULE_DIAGONALS, PROTO_K_DIAGONALS},
    {SDK_RULE_WINDOWS, PROTO_K_WINDOWS},
    {SDK_RULE_ANTI_KNIGHT, PROTO_K_ANTI_KNIGHT},
    {SDK_RULE_ANTI_KING, PROTO_K_ANTI_KING},
    {SDK_RULE_NON_CONSECUTIVE, PROTO_K_NON_CONSECUTIVE},
};
#define RPC_BOOLS_LEN (sizeof(rpc_bools) / sizeof(rpc_bools[0]))

/* The cages of cage[] as [[sum, [cell, ...]], ...]. */
static int pack_drawn_cages(msgpack_packer *pk, unsigned n, const uint16_t *cage,
                            const uint8_t *solution)
{
    unsigned cells = n * n, len = 0;

    for (unsigned c = 0; c < cells; c++)
        len = cage[c] > len ? cage[c] : len;
    if (msgpack_pack_array(pk, len) < 0)
        return -ENOMEM;
    for (unsigned k = 1; k <= len; k++) {
        unsigned size = 0, sum = 0;

        for (unsigned c = 0; c < cells; c++) {
            size += cage[c] == k;
            sum += cage[c] == k ? solution[c] : 0;
        }
        if (msgpack_pack_array(pk, 2) < 0 || msgpack_pack_unsigned_int(pk, sum) < 0 ||
            msgpack_pack_array(pk, size) < 0)
            return -ENOMEM;
        for (unsigned c = 0; c < cells; c++) {
            if (cage[c] == k && msgpack_pack_uint16(pk, (uint16_t)c) < 0)
                return -ENOMEM;
        }
    }
    return 0;
}

int rpc_pack_rules(msgpack_packer *pk, uint32_t kinds, unsigned n, const char *regions,
                   const uint16_t *cage, const uint8_t *solution)
{
    size_t keys = (size_t)((kinds & SDK_RULE_REGIONS) != 0) + ((kinds & SDK_RULE_CAGES) != 0);

    for (size_t i = 0; i < RPC_BOOLS_LEN; i++)
        keys += (kinds & rpc_bools[i].kind) != 0;
    if (msgpack_pack_map(pk, keys) < 0)
        return -ENOMEM;
    for (size_t i = 0; i < RPC_BOOLS_LEN; i++) {
        if ((kinds & rpc_bools[i].kind) &&
            (proto_pack_key(pk, rpc_bools[i].key) < 0 || msgpack_pack_true(pk) < 0))
            return -ENOMEM;
    }
    if ((kinds & SDK_RULE_REGIONS) &&
        (proto_pack_key(pk, PROTO_K_REGIONS) < 0 || msgpack_pack_str(pk, (size_t)n * n) < 0 ||
         msgpack_pack_str_body(pk, regions, (size_t)n * n) < 0))
        return -ENOMEM;
    if ((kinds & SDK_RULE_CAGES) &&
        (proto_pack_key(pk, PROTO_K_CAGES) < 0 || pack_drawn_cages(pk, n, cage, solution) < 0))
        return -ENOMEM;
    return 0;
}

#endif /* PROTO_DAEMON_END */

/* ====================================================== the client's end */
#if PROTO_CLIENT_END

/* The flag of each boolean rule and its key, in the order they are sent. */
static const struct {
    unsigned flag;
    enum proto_key key;
} wire_bools[] = {
    {SUDOKU_CLIENT_RULE_DIAGONALS, PROTO_K_DIAGONALS},
    {SUDOKU_CLIENT_RULE_WINDOWS, PROTO_K_WINDOWS},
    {SUDOKU_CLIENT_RULE_ANTI_KNIGHT, PROTO_K_ANTI_KNIGHT},
    {SUDOKU_CLIENT_RULE_ANTI_KING, PROTO_K_ANTI_KING},
    {SUDOKU_CLIENT_RULE_NON_CONSECUTIVE, PROTO_K_NON_CONSECUTIVE},
};
#define WIRE_BOOLS_LEN (sizeof(wire_bools) / sizeof(wire_bools[0]))

static int has_regions(const struct sudoku_client_rules *r)
{
    return (r->flags & SUDOKU_CLIENT_RULE_DRAW_REGIONS) || r->regions;
}

static int has_cages(const struct sudoku_client_rules *r)
{
    return (r->flags & SUDOKU_CLIENT_RULE_DRAW_CAGES) || r->cages_len;
}

int wire_rules_is_empty(const struct sudoku_client_rules *r)
{
    return !r || (!(r->flags & WIRE_RULE_FLAGS) && !r->regions && !r->cages_len);
}

int wire_rules_check(const struct sudoku_client_rules *r)
{
    size_t cells = 0;

    if (!r)
        return 0;
    if ((r->flags & ~WIRE_RULE_FLAGS) || r->regions_len > SUDOKU_CLIENT_MAX_CELLS ||
        (r->regions_len && !r->regions) || r->cages_len > SUDOKU_CLIENT_MAX_CELLS ||
        (r->cages_len && !r->cages))
        return -EINVAL;
    for (size_t i = 0; i < r->cages_len; i++) {
        cells += r->cages[i].cells_len;
        if (cells > SUDOKU_CLIENT_MAX_CELLS || (r->cages[i].cells_len && !r->cages[i].cells))
            return -EINVAL;
    }
    return 0;
}

static void pack_cages(msgpack_packer *pk, const struct sudoku_client_rules *r)
{
    msgpack_pack_array(pk, r->cages_len);
    for (size_t i = 0; i < r->cages_len; i++) {
        const struct sudoku_client_cage *c = &r->cages[i];
        msgpack_pack_array(pk, 2);
        msgpack_pack_unsigned_int(pk, c->sum);
        msgpack_pack_array(pk, c->cells_len);
        for (size_t k = 0; k < c->cells_len; k++)
            msgpack_pack_uint16(pk, c->cells[k]);
    }
}

void wire_pack_rules(msgpack_packer *pk, const struct sudoku_client_rules *r)
{
    size_t keys = (size_t)has_regions(r) + (size_t)has_cages(r);
    int is_givens = (r->flags & SUDOKU_CLIENT_RULE_GIVENS) != 0;

    keys += (size_t)is_givens;
    for (size_t i = 0; i < WIRE_BOOLS_LEN; i++)
        keys += (r->flags & wire_bools[i].flag) != 0;
    msgpack_pack_map(pk, keys);
    for (size_t i = 0; i < WIRE_BOOLS_LEN; i++) {
        if (r->flags & wire_bools[i].flag) {
            proto_pack_key(pk, wire_bools[i].key);
            msgpack_pack_true(pk);
        }
    }
    if (has_regions(r)) {
        proto_pack_key(pk, PROTO_K_REGIONS);
        if (r->regions) {
            msgpack_pack_str(pk, r->regions_len);
            msgpack_pack_str_body(pk, r->regions, r->regions_len);
        } else {
            msgpack_pack_true(pk);
        }
    }
    if (has_cages(r)) {
        proto_pack_key(pk, PROTO_K_CAGES);
        if (r->cages_len)
            pack_cages(pk, r);
        else
            msgpack_pack_true(pk);
    }
    if (is_givens) {
        proto_pack_key(pk, PROTO_K_GIVENS);
        msgpack_pack_true(pk);
    }
}

/* A cage of an answer, [sum, [cell, ...]], every number in range.
 * Returns its cell count or -EPROTO. */
static long cage_cells(const msgpack_object *c)
{
    const msgpack_object_array *a = &c->via.array;

    if (c->type != MSGPACK_OBJECT_ARRAY || a->size != 2 ||
        a->ptr[0].type != MSGPACK_OBJECT_POSITIVE_INTEGER || a->ptr[0].via.u64 > UINT32_MAX ||
        a->ptr[1].type != MSGPACK_OBJECT_ARRAY)
        return -EPROTO;
    for (uint32_t k = 0; k < a->ptr[1].via.array.size; k++) {
        const msgpack_object *v = &a->ptr[1].via.array.ptr[k];
        if (v->type != MSGPACK_OBJECT_POSITIVE_INTEGER || v->via.u64 >= SUDOKU_CLIENT_MAX_CELLS)
            return -EPROTO;
    }
    return (long)a->ptr[1].via.array.size;
}

/* One key of an answer's rules map into *z. */
static int measure_key(enum proto_key key, const msgpack_object *v, struct wire_rules_size *z)
{
    if (key == PROTO_K_REGIONS) {
        if (v->type != MSGPACK_OBJECT_STR || v->via.str.size > SUDOKU_CLIENT_MAX_CELLS)
            return -EPROTO;
        z->regions += v->via.str.size + 1;
        return 0;
    }
    if (key == PROTO_K_CAGES) {
        if (v->type != MSGPACK_OBJECT_ARRAY || v->via.array.size > SUDOKU_CLIENT_MAX_CELLS)
            return -EPROTO;
        for (uint32_t i = 0; i < v->via.array.size; i++) {
            long n = cage_cells(&v->via.array.ptr[i]);
            if (n < 0)
                return -EPROTO;
            z->cells += (size_t)n;
        }
        z->cages += v->via.array.size;
        return 0;
    }
    for (size_t i = 0; i < WIRE_BOOLS_LEN; i++)
        if (key == wire_bools[i].key && v->type != MSGPACK_OBJECT_BOOLEAN)
            return -EPROTO;
    return 0;
}

int wire_rules_measure(const msgpack_object *o, struct wire_rules_size *z)
{
    int regions = 0, cages = 0;

    if (!o || o->type == MSGPACK_OBJECT_NIL)
        return 0;
    if (o->type != MSGPACK_OBJECT_MAP)
        return -EPROTO;
    for (uint32_t i = 0; i < o->via.map.size; i++) {
        enum proto_key key = proto_key_of(&o->via.map.ptr[i].key);
        /* A key twice would be measured twice and kept once. */
        regions += key == PROTO_K_REGIONS;
        cages += key == PROTO_K_CAGES;
        if (regions > 1 || cages > 1 || measure_key(key, &o->via.map.ptr[i].val, z) < 0)
            return -EPROTO;
    }
    return 0;
}

static void decode_cages_into(const msgpack_object *v, struct sudoku_client_rules *out,
                              struct wire_rules_fill *f)
{
    out->cages = f->cages;
    out->cages_len = v->via.array.size;
    for (uint32_t i = 0; i < v->via.array.size; i++, f->cages++) {
        const msgpack_object_array *a = &v->via.array.ptr[i].via.array;
        const msgpack_object_array *cells = &a->ptr[1].via.array;
        f->cages->sum = (unsigned)a->ptr[0].via.u64;
        f->cages->cells = f->cells;
        f->cages->cells_len = cells->size;
        for (uint32_t k = 0; k < cells->size; k++)
            *f->cells++ = (uint16_t)cells->ptr[k].via.u64;
    }
}

void wire_rules_decode(const msgpack_object *o, struct sudoku_client_rules *out,
                       struct wire_rules_fill *f)
{
    memset(out, 0, sizeof(*out));
    if (!o || o->type != MSGPACK_OBJECT_MAP)
        return;
    for (uint32_t i = 0; i < o->via.map.size; i++) {
        enum proto_key key = proto_key_of(&o->via.map.ptr[i].key);
        const msgpack_object *v = &o->via.map.ptr[i].val;
        for (size_t b = 0; b < WIRE_BOOLS_LEN; b++)
            if (key == wire_bools[b].key && v->via.boolean)
                out->flags |= wire_bools[b].flag;
        if (key == PROTO_K_REGIONS) {
            memcpy(f->regions, v->via.str.ptr, v->via.str.size);
            f->regions[v->via.str.size] = '\0';
            out->regions = f->regions;
            out->regions_len = v->via.str.size;
            f->regions += v->via.str.size + 1;
        } else if (key == PROTO_K_CAGES) {
            decode_cages_into(v, out, f);
        }
    }
}

#endif /* PROTO_CLIENT_END */
