/* rules.h -- the variant rules of a grid: built, validated and checked.
 *
 * A puzzle's rules arrive as a plain description (struct rules_desc: the
 * boolean rules as SDK_RULE_* flags, a jigsaw layout string, killer cages
 * as sums and cell numbers), from the wire, the tool or a generator.
 * rules_new() validates it and builds the tables the plugin ABI hands to a
 * solver (struct sdk_rules: houses, differ pairs, non-consecutive pairs,
 * cages).  Everything else here reads those tables, so a plugin's answer is
 * judged by the same struct the plugin was given: rules_check_givens,
 * rules_check_solution (every rule), rules_count (an independent small
 * backtracker, for the host's and the tests' counts).
 *
 * Classic Sudoku is "no rules": a description with nothing in it builds a
 * NULL struct rules, and every function taking a const struct sdk_rules *
 * accepts NULL for classic (falling back to core/grid.h).
 *
 * Messages name the rule by its wire key ("regions: ...", "cages: ...",
 * "anti_knight: ...") and the cell as r<row>c<col>, 1-based.  Error text
 * goes into a buffer the caller supplies; only rules_new allocates.
 * Thread-safe: a built struct rules is read-only.
 */
#ifndef SUDOKU_RULES_H
#define SUDOKU_RULES_H

#include <stddef.h>
#include <stdint.h>

#include <sudoku/plugin.h>

/* The boolean rules a description may carry in flags. */
#define RULES_FLAGS_BOOL                                                                           \
    (SDK_RULE_DIAGONALS | SDK_RULE_WINDOWS | SDK_RULE_ANTI_KNIGHT | SDK_RULE_ANTI_KING |           \
     SDK_RULE_NON_CONSECUTIVE)

/* One killer cage of a description: cells desc->cage_cells[off .. off+len-1]. */
struct rules_desc_cage {
    uint64_t sum; /* the digits' total, as given (checked by rules_new) */
    uint32_t off; /* first cell in rules_desc.cage_cells */
    uint32_t len; /* cells in the cage (checked: 1..n) */
};

/* A plain description of a puzzle's rules, as a user gives them.  Nothing
 * in it is trusted: rules_new checks every field.  The caller owns it. */
struct rules_desc {
    uint32_t n;                          /* side: 4, 9, 16 or 25 */
    uint32_t flags;                      /* RULES_FLAGS_BOOL bits in force */
    const char *regions;                 /* jigsaw: regions_len symbols, or NULL */
    size_t regions_len;                  /* bytes in regions (must be n*n) */
    const struct rules_desc_cage *cages; /* killer: cages_len cages, or NULL */
    uint32_t cages_len;                  /* cages in cages (0: no killer) */
    const uint64_t *cage_cells;          /* cells, 0-based row-major, as given */
    uint32_t cage_cells_len;             /* entries in cage_cells */
};

struct rules; /* opaque: the built tables */

/* Validate desc and build its tables into *out.  A description with no rule
 * at all (flags 0, no regions, no cages) is classic: *out = NULL and 0.
 * Returns 0, -EINVAL with a message in err naming the rule and the cell
 * (e.g. "regions: region 3 is not connected (r5c5 is cut off from r1c1)",
 * "cages: cell r2c4 is in cages 3 and 7"), or -ENOMEM.  The caller frees
 * *out with rules_free(). */
int rules_new(const struct rules_desc *desc, struct rules **out, char *err, size_t err_size);

/* Free r; accepts NULL. */
void rules_free(struct rules *r);

/* The ABI view of r, to hand to a plugin: NULL when r is NULL (classic).
 * Owned by r; lives as long as r. */
const struct sdk_rules *rules_sdk(const struct rules *r);

/* The wire key of one SDK_RULE_* bit ("diagonals", "windows", "regions",
 * "anti_knight", "anti_king", "non_consecutive", "cages"), or NULL when
 * kind is not exactly one known bit.  Static strings. */
const char *rules_kind_name(uint32_t kind);

/* The SDK_RULE_* bit whose wire key is name (len bytes), or 0. */
uint32_t rules_kind_from_name(const char *name, size_t len);

/* Write r's regions as a layout string of n*n symbols ('1'-'9', 'A'-'P')
 * plus a NUL into buf (buf_size >= n*n + 1): the boxes when r has no
 * jigsaw.  Returns 0, or -ENOSPC. */
int rules_regions_string(const struct sdk_rules *r, char *buf, size_t buf_size);

/* Check that the givens of a puzzle of side n break no rule of r (NULL:
 * classic): values 0..n, no digit twice in a house or in a cage, no differ
 * pair holding the same digit, no non-consecutive pair holding neighbours,
 * no cage whose givens exceed its sum or, when full, miss it.  Returns 0,
 * or -EINVAL with the first problem in err (if non-NULL), e.g.
 * "diagonals: the main diagonal has two 5s (r1c1 and r4c4)" or
 * "anti_knight: r1c1 and r2c3 both hold 7". */
int rules_check_givens(const struct sdk_rules *r, uint32_t n, const uint8_t *cells, char *err,
                       size_t err_size);

/* Check that solution is a complete grid of side n keeping every given of
 * puzzle and satisfying every rule of r (NULL: classic).  Returns 0, or
 * -EINVAL with the first problem in err (if non-NULL), e.g.
 * "cages: cage 4 adds up to 17, not 16 (r1c1 r1c2 r2c1)". */
int rules_check_solution(const struct sdk_rules *r, uint32_t n, const uint8_t *puzzle,
                         const uint8_t *solution, char *err, size_t err_size);

/* Count the solutions of cells under r (NULL: classic) up to limit (>= 1),
 * with a plain backtracker of its own over r's tables (no plugin): the
 * host's and the tests' independent count.  The first solution found goes
 * into solution (n*n bytes) when non-NULL.  max_nodes bounds the search (0:
 * none).  Givens that break a rule (or a side r was not built for) have
 * no solution: 0 with *count 0.  Returns 0 with *count set, -E2BIG when
 * max_nodes ran out first (*count holds what was found), or -ENOMEM (it
 * allocates its working memory once, about 40 KiB). */
int rules_count(const struct sdk_rules *r, uint32_t n, const uint8_t *cells, uint64_t limit,
                uint64_t max_nodes, uint8_t *solution, uint64_t *count);

/* What stops a rules_count_bounded() search besides its limit. */
struct rules_bounds {
    uint64_t max_nodes;           /* search nodes at most (0: none) */
    const sdk_atomic_int *cancel; /* non-zero stops it (may be NULL) */
    uint64_t deadline_ns;         /* sdk_now_ns() past which it stops (0: none) */
};

/* rules_count() under bounds b (NULL: none): also -ECANCELED and
 * -ETIMEDOUT, looked at every 256 nodes, with *count what was found. */
int rules_count_bounded(const struct sdk_rules *r, uint32_t n, const uint8_t *cells, uint64_t limit,
                        const struct rules_bounds *b, uint8_t *solution, uint64_t *count);

#endif /* SUDOKU_RULES_H */
