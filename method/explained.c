/* explained.c -- an explanation as the protocol's answer map (explained.h).
 *
 * A step map is {technique, rating, placements, eliminations, cells, text}
 * whatever made it: the plugin (pack_step), the reveal of a stuck
 * explanation (pack_reveal) or the mistakes of a player's progress
 * (pack_mistake).
 */
#include "method/explained.h"

#include <errno.h>
#include <stdio.h>

#include "proto/protocol.h"
#include "proto/rpc.h"

#define MISTAKES_LISTED 12   /* wrong cells named in a mistake's text */
#define REVEAL_RATING   10.0 /* above every technique's (docs/techniques.md) */

unsigned explained_reveal_cell(unsigned n, const uint8_t *grid)
{
    unsigned best = 0, best_left = n + 1, box = sdk_box_side(n);

    for (unsigned i = 0; i < n * n; i++) {
        uint32_t seen = 0;
        unsigned r = i / n, c = i % n, br = r / box * box, bc = c / box * box, left = 0;
        if (grid[i])
            continue;
        for (unsigned k = 0; k < n; k++)
            seen |= 1u << grid[r * n + k] | 1u << grid[k * n + c] |
                    1u << grid[(br + k / box) * n + bc + k % box];
        for (unsigned v = 1; v <= n; v++)
            left += !(seen & (1u << v));
        if (left < best_left) {
            best = i;
            best_left = left;
        }
    }
    return best;
}

static int pack_pairs(msgpack_packer *pk, const struct sdk_cell_value *cv, uint32_t len)
{
    if (msgpack_pack_array(pk, len) < 0)
        return -ENOMEM;
    for (uint32_t i = 0; i < len; i++)
        if (msgpack_pack_array(pk, 2) < 0 || msgpack_pack_uint16(pk, cv[i].cell) < 0 ||
            msgpack_pack_uint8(pk, cv[i].value) < 0)
            return -ENOMEM;
    return 0;
}

static int pack_cells(msgpack_packer *pk, const uint16_t *cells, uint32_t len)
{
    if (msgpack_pack_array(pk, len) < 0)
        return -ENOMEM;
    for (uint32_t i = 0; i < len; i++)
        if (msgpack_pack_uint16(pk, cells[i]) < 0)
            return -ENOMEM;
    return 0;
}

/* One step map from its parts. */
static int pack_step_map(msgpack_packer *pk, const char *technique, double rating,
                         const struct sdk_cell_value *places, uint32_t places_len,
                         const struct sdk_cell_value *elims, uint32_t elims_len,
                         const uint16_t *cells, uint32_t cells_len, const char *text)
{
    if (msgpack_pack_map(pk, 6) < 0 || proto_pack_key(pk, PROTO_K_TECHNIQUE) < 0 ||
        rpc_pack_cstr(pk, technique) < 0 || proto_pack_key(pk, PROTO_K_RATING) < 0 ||
        msgpack_pack_double(pk, rating) < 0 || proto_pack_key(pk, PROTO_K_PLACEMENTS) < 0 ||
        pack_pairs(pk, places, places_len) < 0 || proto_pack_key(pk, PROTO_K_ELIMINATIONS) < 0 ||
        pack_pairs(pk, elims, elims_len) < 0 || proto_pack_key(pk, PROTO_K_CELLS) < 0 ||
        pack_cells(pk, cells, cells_len) < 0 || proto_pack_key(pk, PROTO_K_TEXT) < 0 ||
        rpc_pack_cstr(pk, text) < 0)
        return -ENOMEM;
    return 0;
}

static int pack_step(msgpack_packer *pk, const struct sdk_explain *x, const struct sdk_step *st)
{
    const uint16_t *cells = x->cells_out ? x->cells_out + st->cells_off : NULL;
    const char *text = x->text && st->text_len ? x->text + st->text_off : "";

    return pack_step_map(pk, st->technique, st->rating, x->placements + st->place_off,
                         st->place_len, x->eliminations + st->elim_off, st->elim_len, cells,
                         cells ? st->cells_len : 0, text);
}

static int pack_reveal(msgpack_packer *pk, const struct explained *e)
{
    unsigned n = e->x->n, cell = explained_reveal_cell(n, e->x->grid);
    struct sdk_cell_value cv = {.cell = (uint16_t)cell, .value = e->solution[cell]};
    uint16_t c16 = (uint16_t)cell;
    char text[96];

    snprintf(text, sizeof(text), "reveal: r%uc%u is %u (no technique applies)", cell / n + 1,
             cell % n + 1, cv.value);
    return pack_step_map(pk, "reveal", REVEAL_RATING, &cv, 1, NULL, 0, &c16, 1, text);
}

/* The wrong entries of the player's progress, as cells and a sentence. */
static uint32_t find_mistakes(const struct explained *e, uint16_t *cells, char *text,
                              size_t text_size)
{
    unsigned n = e->x->n;
    uint32_t len = 0;
    size_t used = (size_t)snprintf(text, text_size, "mistake:");

    for (unsigned i = 0; i < n * n; i++) {
        uint8_t v = e->progress[i];
        if (!v || v == e->solution[i])
            continue;
        cells[len++] = (uint16_t)i;
        if (len <= MISTAKES_LISTED && used < text_size)
            used += (size_t)snprintf(text + used, text_size - used, "%s r%uc%u is not %u",
                                     len > 1 ? ";" : "", i / n + 1, i % n + 1, v);
        else if (len == MISTAKES_LISTED + 1 && used < text_size)
            used += (size_t)snprintf(text + used, text_size - used, "; and more");
    }
    return len;
}

/* The answer to a progress that disagrees with the solution. */
static int pack_mistake(msgpack_packer *pk, const struct explained *e)
{
    uint16_t cells[SDK_MAX_CELLS];
    char text[RPC_ERR_SIZE + 64];
    uint32_t len = find_mistakes(e, cells, text, sizeof(text));

    if (msgpack_pack_map(pk, 7) < 0 || proto_pack_key(pk, PROTO_K_STEPS) < 0 ||
        msgpack_pack_array(pk, 1) < 0 ||
        pack_step_map(pk, "mistake", 0.0, NULL, 0, NULL, 0, cells, len, text) < 0 ||
        proto_pack_key(pk, PROTO_K_STATUS) < 0 || proto_pack_key(pk, PROTO_K_PARTIAL) < 0 ||
        proto_pack_key(pk, PROTO_K_RATING) < 0 || msgpack_pack_double(pk, 0.0) < 0 ||
        proto_pack_key(pk, PROTO_K_DIFFICULTY) < 0 ||
        rpc_pack_cstr(pk, proto_difficulty_of(0.0)) < 0 ||
        proto_pack_key(pk, PROTO_K_HARDEST) < 0 || rpc_pack_cstr(pk, "mistake") < 0 ||
        proto_pack_key(pk, PROTO_K_SOLVER) < 0 || rpc_pack_cstr(pk, e->solver) < 0 ||
        proto_pack_key(pk, PROTO_K_ELAPSED_US) < 0 || msgpack_pack_uint64(pk, e->elapsed_us) < 0)
        return -ENOMEM;
    return 0;
}

static enum proto_key status_key(uint32_t status)
{
    return status == SDK_EXPLAIN_SOLVED    ? PROTO_K_SOLVED
           : status == SDK_EXPLAIN_PARTIAL ? PROTO_K_PARTIAL
                                           : PROTO_K_STUCK;
}

int explained_pack(msgpack_packer *pk, const struct explained *e)
{
    const struct sdk_explain *x = e->x;
    uint32_t steps = x->steps_len < x->steps_cap ? x->steps_len : x->steps_cap;
    int has_reveal = e->rc == 0 && x->status == SDK_EXPLAIN_STUCK;

    if (e->rc == -EBADMSG)
        return pack_mistake(pk, e);
    if (msgpack_pack_map(pk, 7) < 0 || proto_pack_key(pk, PROTO_K_STEPS) < 0 ||
        msgpack_pack_array(pk, steps + (has_reveal ? 1u : 0u)) < 0)
        return -ENOMEM;
    for (uint32_t i = 0; i < steps; i++)
        if (pack_step(pk, x, &x->steps[i]) < 0)
            return -ENOMEM;
    if (has_reveal && pack_reveal(pk, e) < 0)
        return -ENOMEM;
    if (proto_pack_key(pk, PROTO_K_STATUS) < 0 || proto_pack_key(pk, status_key(x->status)) < 0 ||
        proto_pack_key(pk, PROTO_K_RATING) < 0 || msgpack_pack_double(pk, x->rating) < 0 ||
        proto_pack_key(pk, PROTO_K_DIFFICULTY) < 0 ||
        rpc_pack_cstr(pk, proto_difficulty_of(x->rating)) < 0 ||
        proto_pack_key(pk, PROTO_K_HARDEST) < 0 ||
        rpc_pack_cstr(pk, x->hardest ? x->hardest : "") < 0 ||
        proto_pack_key(pk, PROTO_K_SOLVER) < 0 || rpc_pack_cstr(pk, e->solver) < 0 ||
        proto_pack_key(pk, PROTO_K_ELAPSED_US) < 0 || msgpack_pack_uint64(pk, e->elapsed_us) < 0)
        return -ENOMEM;
    return 0;
}

int explained_pack_rating(msgpack_packer *pk, const struct explained *e)
{
    const struct sdk_explain *x = e->x;

    if (msgpack_pack_map(pk, 7) < 0 || proto_pack_key(pk, PROTO_K_RATING) < 0 ||
        msgpack_pack_double(pk, x->rating) < 0 || proto_pack_key(pk, PROTO_K_DIFFICULTY) < 0 ||
        rpc_pack_cstr(pk, proto_difficulty_of(x->rating)) < 0 ||
        proto_pack_key(pk, PROTO_K_HARDEST) < 0 ||
        rpc_pack_cstr(pk, x->hardest ? x->hardest : "") < 0 ||
        proto_pack_key(pk, PROTO_K_STEPS) < 0 || msgpack_pack_uint32(pk, x->steps_len) < 0 ||
        proto_pack_key(pk, PROTO_K_LOGIC) < 0 ||
        (x->status == SDK_EXPLAIN_STUCK ? msgpack_pack_false(pk) : msgpack_pack_true(pk)) < 0 ||
        proto_pack_key(pk, PROTO_K_SOLVER) < 0 || rpc_pack_cstr(pk, e->solver) < 0 ||
        proto_pack_key(pk, PROTO_K_ELAPSED_US) < 0 || msgpack_pack_uint64(pk, e->elapsed_us) < 0)
        return -ENOMEM;
    return 0;
}
