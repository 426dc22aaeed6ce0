/* rules_impl.h -- what the three files of core/rules share, and no one else.
 *
 * rules.c builds the tables, rules_check.c judges grids against them,
 * rules_count.c counts solutions over them; these helpers keep their
 * messages and their idea of "the same house" one.
 */
#ifndef SUDOKU_RULES_IMPL_H
#define SUDOKU_RULES_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include <sudoku/plugin.h>

/* Format a message into err (when non-NULL) and return -EINVAL. */
__attribute__((format(printf, 3, 4))) int rules__fail(char *err, size_t err_size, const char *fmt,
                                                      ...);

/* The layout symbol of region k (0-based): '1'-'9', then 'A'-'P'. */
char rules__symbol(uint32_t k);

/* Do cells a and c share a house of r (row, column, box or region, a
 * diagonal, a window)?  1 or 0. */
int rules__share_house(const struct sdk_rules *r, uint32_t a, uint32_t c);

/* Most houses windows imply: 2b - 1 for b = 5. */
#define RULES_MAX_IMPLIED 9

/* The houses windows imply at side n, n cells each in row-major order,
 * into cells (room for RULES_MAX_IMPLIED * n); returns how many (2b - 1).
 * rules.c says why each holds every digit. */
uint32_t rules__windows_implied(uint32_t n, uint16_t *cells);

/* The tables of classic Sudoku of side n (kinds 0: rows, columns, boxes),
 * for code that walks tables; NULL on out of memory.  rules_free() frees. */
struct rules *rules__new_classic(uint32_t n);

#endif /* SUDOKU_RULES_IMPL_H */
