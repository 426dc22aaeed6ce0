/* rules.h -- the `rules` option of solve, explain, rate and generate.
 *
 * The client (wire_*) packs a struct sudoku_client_rules as the map, and
 * reads the `rules` map of a generated puzzle back into one.  The daemon
 * (rpc_*) decodes the map into a plain, fixed-size struct
 * rpc_rules: the boolean rules as SDK_RULE_* bits, a jigsaw's layout
 * string, a killer's cages as sums and cell numbers, each checked for its
 * type and bounded by the largest grid.  Whether the regions and cages fit
 * the puzzle (n cells a region, connected; cells in range, in one cage; a
 * possible sum) is judged later by core/rules.h, which knows the side.
 * Nothing points into the msgpack object afterwards.  docs/protocol.md is
 * the contract; the key names are protocol.h's.
 */
#ifndef SUDOKU_PROTO_RULES_H
#define SUDOKU_PROTO_RULES_H

#include <stddef.h>
#include <stdint.h>

#include <msgpack.h>
#include <sudoku/client.h>
#include <sudoku/plugin.h>

#include "proto/rpc.h"

/* A decoded `rules` map; all zero is classic (no rules, or an empty map). */
struct rpc_rules {
    uint32_t kinds;                /* SDK_RULE_* given: the booleans set true, REGIONS when
                                    * regions is a string, CAGES when cages has a cage */
    uint32_t draw;                 /* generate only: REGIONS and CAGES given as true */
    int has_givens;                /* generate only: givens true (drawn cages keep givens) */
    uint32_t regions_len;          /* symbols in regions */
    uint32_t cages_len;            /* cages */
    uint32_t cells_len;            /* entries in cells, every cage's */
    char regions[SDK_MAX_CELLS];   /* the layout string, as sent (not NUL-ended) */
    uint32_t sum[SDK_MAX_CELLS];   /* each cage's sum (larger ones saturate) */
    uint16_t len[SDK_MAX_CELLS];   /* each cage's cells in cells */
    uint32_t cells[SDK_MAX_CELLS]; /* the cages' cells in order (larger ones saturate) */
};

/* Decode o (a map, or nil: classic) into *r.  is_generate allows `regions`
 * and `cages` to be `true` (drawn from the seed: r->draw).  An unknown key,
 * a value of the wrong type or a bound passed is RPC_BAD_REQUEST with a
 * message naming the key (e.g. "rules: anti_knight must be true or false",
 * "cages: cage 3 must be [sum, [cell, ...]]").  is_generate also allows
 * `givens` (r->has_givens): puzzles with drawn cages keep givens. */
enum rpc_code rpc_decode_rules(const msgpack_object *o, int is_generate, struct rpc_rules *r,
                               char *err, size_t err_size);

/* Pack the rules map of a generated puzzle of side n: the boolean rules of
 * kinds (SDK_RULE_* bits) as true, regions (n*n symbols) when kinds has
 * SDK_RULE_REGIONS, and when it has SDK_RULE_CAGES the cages of cage[]
 * (n*n entries, 1 + each cell's cage, 0: none; cage k's cells ascending,
 * its sum their total in solution) as [[sum, [cell, ...]], ...] in the
 * order of their numbers: the map solve takes.  Returns 0 or -ENOMEM. */
int rpc_pack_rules(msgpack_packer *pk, uint32_t kinds, unsigned n, const char *regions,
                   const uint16_t *cage, const uint8_t *solution);

/* Bytes rpc_pack_rules may take for side n at most. */
#define RPC_RULES_PACK_MAX(n) (96 + 11 * (size_t)(n) * (n))

/* ------------------------------------------------------ the client's end */

/* Every SUDOKU_CLIENT_RULE_* flag a request may carry. */
#define WIRE_RULE_FLAGS 0xffu

/* 1 when r (NULL: classic) asks for no rule at all: nothing to send. */
int wire_rules_is_empty(const struct sudoku_client_rules *r);

/* 0 when r can be packed: known flags only, the layout and every cage's
 * cells within the largest grid's cells, no NULL array with a length.
 * Else -EINVAL.  Nothing else is judged here: the daemon does that. */
int wire_rules_check(const struct sudoku_client_rules *r);

/* Pack r (checked by wire_rules_check) as the rules map: the booleans set,
 * regions as a string (or true for DRAW_REGIONS), cages as [[sum,
 * [cell, ...]], ...] (or true for DRAW_CAGES), givens true for GIVENS. */
void wire_pack_rules(msgpack_packer *pk, const struct sudoku_client_rules *r);

/* What a rules map of an answer needs, counted by wire_rules_measure. */
struct wire_rules_size {
    size_t cages;   /* struct sudoku_client_cage entries */
    size_t cells;   /* uint16_t cage cells */
    size_t regions; /* layout bytes, with a NUL */
};

/* Add to *z what o (a generated puzzle's rules map; nil or absent: none)
 * needs.  Returns 0 or -EPROTO when o is not a rules map of the wire's
 * shape (unknown keys are passed over, for rules of a later daemon). */
int wire_rules_measure(const msgpack_object *o, struct wire_rules_size *z);

/* Where wire_rules_decode writes: cursors into storage measured first. */
struct wire_rules_fill {
    struct sudoku_client_cage *cages;
    uint16_t *cells;
    char *regions;
};

/* Decode o (measured by wire_rules_measure) into *out, its arrays taken
 * from f's cursors (advanced). */
void wire_rules_decode(const msgpack_object *o, struct sudoku_client_rules *out,
                       struct wire_rules_fill *f);

#endif /* SUDOKU_PROTO_RULES_H */
