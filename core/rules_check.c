/* rules_check.c -- is this grid right under these rules?
 *
 * Givens and solutions are judged by the same walk over the tables of a
 * struct sdk_rules: values in range, then each house (a digit at most
 * once), each differ pair, each non-consecutive pair, each cage (distinct
 * digits, a total that does not pass the sum and, once the cage is full,
 * meets it).  A solution must also be complete and keep the givens, so
 * with every house a permutation and every cage full, the same walk proves
 * every rule.  The first problem is named in words: the rule's wire key,
 * then the cells, 1-based.  Classic grids (rules NULL) go to core/grid.c.
 *
 * No allocation; thread-safe.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/grid.h"
#include "core/rules.h"
#include "core/rules_impl.h"

/* The house h of r in words, e.g. "row 3", "regions: region A". */
static void house_name(const struct sdk_rules *r, uint32_t h, char *buf, size_t size)
{
    const uint32_t n = r->n;
    uint32_t e = h - 3 * n;

    if (h < n)
        snprintf(buf, size, "row %u", h + 1);
    else if (h < 2 * n)
        snprintf(buf, size, "column %u", h - n + 1);
    else if (h < 3 * n && (r->kinds & SDK_RULE_REGIONS))
        snprintf(buf, size, "regions: region %c", rules__symbol(h - 2 * n));
    else if (h < 3 * n)
        snprintf(buf, size, "box %u", h - 2 * n + 1);
    else if ((r->kinds & SDK_RULE_DIAGONALS) && e < 2)
        snprintf(buf, size, "diagonals: the %s", e == 0 ? "main diagonal" : "anti-diagonal");
    else
        snprintf(buf, size, "windows: window %u",
                 e - ((r->kinds & SDK_RULE_DIAGONALS) ? 2u : 0u) + 1);
}

static int check_side(const struct sdk_rules *r, uint32_t n, const uint8_t *cells, char *err,
                      size_t err_size)
{
    if (!grid_side_ok(n))
        return rules__fail(err, err_size, "unsupported side %u: a grid is 4x4, 9x9, 16x16 or 25x25",
                           n);
    if (r->n != n)
        return rules__fail(err, err_size, "rules: built for side %u, the grid has side %u", r->n,
                           n);
    if (cells == NULL)
        return rules__fail(err, err_size, "no cells");
    return 0;
}

static int check_range(uint32_t n, const uint8_t *cells, const char *what, char *err,
                       size_t err_size)
{
    for (uint32_t i = 0; i < n * n; i++)
        if (cells[i] > n)
            return rules__fail(err, err_size, "%s r%uc%u holds %u, out of range for %ux%u (1-%u)",
                               what, i / n + 1, i % n + 1, cells[i], n, n, n);
    return 0;
}

static int check_houses(const struct sdk_rules *r, const uint8_t *cells, char *err, size_t err_size)
{
    const uint32_t n = r->n;

    for (uint32_t h = 0; h < r->houses_len; h++) {
        const uint16_t *house = &r->houses[h * n];
        uint16_t where[SDK_MAX_N + 1];
        uint32_t seen = 0;

        for (uint32_t k = 0; k < n; k++) {
            const uint32_t c = house[k], v = cells[c];
            char name[48];

            if (v == 0)
                continue;
            if (!(seen & (1u << v))) {
                seen |= 1u << v;
                where[v] = (uint16_t)c;
                continue;
            }
            house_name(r, h, name, sizeof(name));
            return rules__fail(err, err_size, "%s has two %us (r%uc%u and r%uc%u)", name, v,
                               where[v] / n + 1, where[v] % n + 1, c / n + 1, c % n + 1);
        }
    }
    return 0;
}

/* Which rule made the differ pair (a, c): a knight's move or a king's. */
static const char *differ_rule(uint32_t n, uint32_t a, uint32_t c)
{
    const uint32_t dr = c / n - a / n, dc = a % n > c % n ? a % n - c % n : c % n - a % n;

    return dr + dc == 3 ? "anti_knight" : "anti_king";
}

static int check_pairs(const struct sdk_rules *r, const uint8_t *cells, char *err, size_t err_size)
{
    const uint32_t n = r->n;

    for (uint32_t i = 0; i < r->differ_len; i++) {
        const uint32_t a = r->differ[2 * i], c = r->differ[2 * i + 1];

        if (cells[a] != 0 && cells[a] == cells[c])
            return rules__fail(err, err_size, "%s: r%uc%u and r%uc%u both hold %u",
                               differ_rule(n, a, c), a / n + 1, a % n + 1, c / n + 1, c % n + 1,
                               cells[a]);
    }
    for (uint32_t i = 0; i < r->nonconsec_len; i++) {
        const uint32_t a = r->nonconsec[2 * i], c = r->nonconsec[2 * i + 1];

        if (cells[a] != 0 && cells[c] != 0 &&
            (cells[a] == cells[c] + 1 || cells[c] == cells[a] + 1))
            return rules__fail(err, err_size,
                               "non_consecutive: r%uc%u and r%uc%u hold %u and %u, consecutive",
                               a / n + 1, a % n + 1, c / n + 1, c % n + 1, cells[a], cells[c]);
    }
    return 0;
}

/* Cage i: distinct digits, a total within its sum, the sum itself once full. */
static int check_cage(const struct sdk_rules *r, uint32_t i, const uint8_t *cells, char *err,
                      size_t err_size)
{
    const uint32_t n = r->n;
    const struct sdk_cage *cg = &r->cages[i];
    const uint16_t *cc = &r->cage_cells[cg->off];
    const uint32_t f = cc[0];
    uint16_t where[SDK_MAX_N + 1];
    uint32_t seen = 0, total = 0, blanks = 0;

    for (uint32_t k = 0; k < cg->len; k++) {
        const uint32_t c = cc[k], v = cells[c];

        if (v == 0) {
            blanks++;
            continue;
        }
        if (seen & (1u << v))
            return rules__fail(err, err_size, "cages: cage %u has two %us (r%uc%u and r%uc%u)",
                               i + 1, v, where[v] / n + 1, where[v] % n + 1, c / n + 1, c % n + 1);
        seen |= 1u << v;
        where[v] = (uint16_t)c;
        total += v;
    }
    if (blanks > 0 && total > cg->sum)
        return rules__fail(err, err_size,
                           "cages: cage %u (from r%uc%u) adds up to %u already, more than %u",
                           i + 1, f / n + 1, f % n + 1, total, cg->sum);
    if (blanks == 0 && total != cg->sum)
        return rules__fail(err, err_size, "cages: cage %u (from r%uc%u) adds up to %u, not %u",
                           i + 1, f / n + 1, f % n + 1, total, cg->sum);
    return 0;
}

/* Every rule of r on cells in range (blanks allowed). */
static int check_rules(const struct sdk_rules *r, const uint8_t *cells, char *err, size_t err_size)
{
    int rc = check_houses(r, cells, err, err_size);

    if (rc == 0)
        rc = check_pairs(r, cells, err, err_size);
    for (uint32_t i = 0; rc == 0 && i < r->cages_len; i++)
        rc = check_cage(r, i, cells, err, err_size);
    return rc;
}

int rules_check_givens(const struct sdk_rules *r, uint32_t n, const uint8_t *cells, char *err,
                       size_t err_size)
{
    int rc;

    if (r == NULL)
        return grid_check_givens(n, cells, err, err_size);
    rc = check_side(r, n, cells, err, err_size);
    if (rc == 0)
        rc = check_range(n, cells, "cell", err, err_size);
    if (rc == 0)
        rc = check_rules(r, cells, err, err_size);
    return rc;
}

/* The first blank of solution, then the first given it changed. */
static int check_complete(uint32_t n, const uint8_t *puzzle, const uint8_t *solution, char *err,
                          size_t err_size)
{
    for (uint32_t i = 0; i < n * n; i++)
        if (solution[i] == 0)
            return rules__fail(err, err_size, "solution is incomplete: cell r%uc%u is blank",
                               i / n + 1, i % n + 1);
    for (uint32_t i = 0; puzzle != NULL && i < n * n; i++)
        if (puzzle[i] != 0 && puzzle[i] != solution[i])
            return rules__fail(err, err_size, "solution changes the given %u at r%uc%u to %u",
                               puzzle[i], i / n + 1, i % n + 1, solution[i]);
    return 0;
}

int rules_check_solution(const struct sdk_rules *r, uint32_t n, const uint8_t *puzzle,
                         const uint8_t *solution, char *err, size_t err_size)
{
    int rc;

    if (r == NULL)
        return grid_check_solution(n, puzzle, solution, err, err_size);
    if (solution == NULL)
        return rules__fail(err, err_size, "no solution");
    rc = check_side(r, n, solution, err, err_size);
    if (rc == 0)
        rc = check_range(n, solution, "solution cell", err, err_size);
    if (rc == 0)
        rc = check_complete(n, puzzle, solution, err, err_size);
    if (rc == 0)
        rc = check_rules(r, solution, err, err_size);
    return rc;
}
