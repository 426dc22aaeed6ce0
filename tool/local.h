/* local.h -- the sudoku tool's offline mode: the plugins in this process.
 *
 * sudoku --local (or SUDOKU_LOCAL=1) loads the installed solver plugins
 * through the same plugin host as sudokud (core/host.c) and answers each
 * puzzle as the daemon would, through the same method interface
 * (method/method.h): the same checks and messages, the same answer check,
 * the same result fields.  Part of the tool, never of libsudoku-client,
 * which links no solver.
 */
#ifndef SUDOKU_TOOL_LOCAL_H
#define SUDOKU_TOOL_LOCAL_H

#include <stddef.h>
#include <stdint.h>

#include <sudoku/client.h>

#define LOCAL_TIMEOUT_MS 30000u /* default per-puzzle timeout, as sudokud's */

struct local; /* opaque */

/* Load the plugins of dir (NULL: the installed directory next to the
 * program).  verbose shows every loader message on stderr (errors always
 * show).  On success stores a new struct local in *out (free it with
 * local_free) and returns 0; else prints why and returns a negative errno. */
int local_open(const char *dir, int verbose, struct local **out);

/* Free l and unload its plugins.  Accepts NULL. */
void local_free(struct local *l);

/* Solve one puzzle, in the line form (text, len) or as n*n cells (text
 * NULL), with opts (solver, limit, timeout_ms; NULL for the defaults) and
 * rules (NULL: classic; judged as the daemon judges them) into *res, as a
 * daemon answer would read.  Not reentrant (one request at a time). */
void local_solve(struct local *l, const char *text, size_t len, unsigned n, const uint8_t *cells,
                 const struct sudoku_client_options *opts, const struct sudoku_client_rules *rules,
                 struct sudoku_client_result *res);

/* Rate one puzzle (line form text, len; or n*n cells, text NULL) with opts
 * (solver: the explaining plugin, timeout_ms; NULL for the defaults) and
 * rules (NULL: classic) into
 * *res, as a daemon's rate answer would read: the same plugin choice, the
 * same solution check, codes and messages (method/rate.c). */
void local_rate(struct local *l, const char *text, size_t len, unsigned n, const uint8_t *cells,
                const struct sudoku_client_options *opts, const struct sudoku_client_rules *rules,
                struct sudoku_client_rating *res);

/* Explain one line-form puzzle (text, len) under rules (NULL: classic)
 * with eo (solver, steps,
 * progress in the line form, timeout_ms; NULL for the defaults), as a
 * daemon's explain answer would read: the same plugin choice, checks,
 * codes, messages and steps, reveal and mistake included
 * (method/explain.c).  Returns 0 with *out (free it with
 * sudoku_client_explanation_free); -EREMOTEIO with err as the daemon's
 * error answer would be (err->code "not_unique", "bad_puzzle", ...); or
 * -ENOMEM. */
int local_explain(struct local *l, const char *text, size_t len,
                  const struct sudoku_client_explain_opts *eo,
                  const struct sudoku_client_rules *rules, struct sudoku_client_explanation **out,
                  struct sudoku_client_error *err);

/* Make the puzzles of one generate request (opts as for
 * sudoku_client_generate) with the plugins of this process, as the daemon
 * would: the same checks, plugins, puzzles for the same seed, codes and
 * messages (method/generate.c).  Returns 0 with *out, a malloc'ed array of *len
 * puzzles (free it with sudoku_client_puzzles_free), or -EPROTO with err as
 * the daemon's error answer would be, or -ENOMEM. */
int local_generate(struct local *l, const struct sudoku_client_generate_opts *opts,
                   struct sudoku_client_puzzle **out, size_t *len, struct sudoku_client_error *err);

/* local_generate with rules (NULL: classic), the answer as
 * sudoku_client_generate_rules gives it: *out is a malloc'ed array of *len
 * variants (free it with free(): their rules point into rules, the
 * caller's, which must outlive them).  Returns as local_generate. */
int local_generate_rules(struct local *l, const struct sudoku_client_generate_opts *opts,
                         const struct sudoku_client_rules *rules,
                         struct sudoku_client_variant **out, size_t *len,
                         struct sudoku_client_error *err);

/* The loaded solvers into out[0..cap), as sudoku_client_solvers() lists a
 * daemon's.  Returns how many there are. */
size_t local_solvers(const struct local *l, struct sudoku_client_solver *out, size_t cap);

/* The rules loaded solver i (i < local_solvers' count) takes, as
 * sudoku_client_solver_rules() gives a daemon's: SUDOKU_CLIENT_RULE_*
 * bits, DRAW_REGIONS for regions and DRAW_CAGES for cages. */
void local_solver_rules(const struct local *l, size_t i, unsigned *rules, unsigned *explain_rules);

#endif /* SUDOKU_TOOL_LOCAL_H */
