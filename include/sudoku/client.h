/* client.h -- talk to sudokud: connect, solve, explain and rate, pipelined batches.
 *
 * libsudoku-client speaks protocol v1 (msgpack-rpc over a Unix stream socket,
 * see docs/protocol.md) so that C programs need not re-implement it.  It uses
 * plain blocking-style sockets driven by poll(): no event loop, no threads, no
 * global state.  One struct sudoku_client is one connection; use it from one
 * thread at a time (different connections are independent).
 *
 * Results are 0 or a negative errno.  Every call that can fail takes a
 * struct sudoku_client_error (may be NULL) that receives a code and a human
 * message; nothing is allocated on the error path.  Codes are the protocol's
 * ("bad_request", "bad_puzzle", "unknown_solver", "unsupported", "timeout",
 * "cancelled", "overloaded", "too_large", "internal", "unknown_method",
 * "not_unique") plus
 * local ones: "connect" (the daemon cannot be reached), "io" (a read or write
 * failed), "closed" (the daemon closed the connection), "protocol" (the daemon
 * sent something that is not protocol v1), "io_timeout" (no answer within the
 * I/O timeout), "usage" (bad arguments).
 *
 * Installed as <sudoku/client.h>; link with `pkg-config --libs sudoku-client`.
 */
#ifndef SUDOKU_CLIENT_H
#define SUDOKU_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define SUDOKU_CLIENT_API __attribute__((visibility("default")))
#else
#define SUDOKU_CLIENT_API
#endif

#define SUDOKU_CLIENT_CODE_SIZE     32  /* room for an error code, with NUL */
#define SUDOKU_CLIENT_MESSAGE_SIZE  256 /* room for an error message, with NUL */
#define SUDOKU_CLIENT_NAME_SIZE     32  /* room for a solver name, with NUL */
#define SUDOKU_CLIENT_MAX_CELLS     625 /* cells of the largest grid (25x25) */
#define SUDOKU_CLIENT_SYSTEM_SOCKET "/run/sudokud/sudokud.sock" /* the system daemon's */
#define SUDOKU_CLIENT_MAX_SOLVERS   16         /* solvers kept by sudoku_client_stats */
#define SUDOKU_CLIENT_MAX_WINDOW    4096       /* largest batch window */
#define SUDOKU_CLIENT_MAX_MESSAGE   (1u << 20) /* largest message accepted from the daemon */

/* Why something failed.  Both strings are always NUL-terminated. */
struct sudoku_client_error {
    char code[SUDOKU_CLIENT_CODE_SIZE];       /* protocol or local code, "" when none */
    char message[SUDOKU_CLIENT_MESSAGE_SIZE]; /* human-readable, one line */
};

/* Options of one solve; zero-initialise for the daemon's defaults. */
struct sudoku_client_options {
    const char *solver;  /* solver name, NULL: the daemon's default */
    unsigned limit;      /* stop after this many solutions, 0: default (1) */
    unsigned timeout_ms; /* per-request timeout, 0: the daemon's default */
};

/* What became of one puzzle. */
enum sudoku_client_status {
    SUDOKU_CLIENT_SOLVED = 0,     /* solution holds the first solution */
    SUDOKU_CLIENT_UNSOLVABLE = 1, /* the puzzle has no solution */
    SUDOKU_CLIENT_FAILED = 2,     /* error says why (bad puzzle, timeout, ...) */
    SUDOKU_CLIENT_NOT_UNIQUE = 3  /* rate: no solution or more than one (error says which) */
};

/* The answer to one solve.  Self-contained: no pointers, nothing to free. */
struct sudoku_client_result {
    enum sudoku_client_status status;
    unsigned n;                                 /* side of the solution, 0 when none */
    char solution[SUDOKU_CLIENT_MAX_CELLS + 1]; /* line form ('1'-'9','A'-'P'), "" when none */
    uint8_t cells[SUDOKU_CLIENT_MAX_CELLS];     /* the same solution as n*n values 1..n */
    uint64_t count;                             /* solutions found, 0..limit */
    char solver[SUDOKU_CLIENT_NAME_SIZE];       /* solver that answered */
    uint64_t elapsed_us;                        /* solve time reported by the daemon */
    uint64_t guesses;                           /* search guesses reported by the daemon */
    struct sudoku_client_error error;           /* set when status == SUDOKU_CLIENT_FAILED */
};

/* One solver, as listed by sudoku_client_solvers(). */
struct sudoku_client_solver {
    char name[SUDOKU_CLIENT_NAME_SIZE];
    char version[SUDOKU_CLIENT_NAME_SIZE];
    char description[160];
    unsigned sizes; /* bit k set: side n = 4, 9, 16, 25 for k = 0..3 */
    int is_default; /* 1 for the daemon's default solver */
    /* Additions (0.2): */
    unsigned default_sizes; /* sides it is the default for, bits as sizes */
    int is_explain;         /* 1: it takes explain and rate (the logic plugin) */
};

/* Per-solver counters inside struct sudoku_client_stats. */
struct sudoku_client_solver_stats {
    char name[SUDOKU_CLIENT_NAME_SIZE];
    uint64_t solved, unsolvable, timeouts, errors, busy_us;
};

/* Counters from sudoku_client_stats(). */
struct sudoku_client_stats {
    uint64_t uptime_s, connections, requests, errors, in_flight;
    size_t solvers_len; /* entries filled in solvers[] */
    struct sudoku_client_solver_stats solvers[SUDOKU_CLIENT_MAX_SOLVERS];
    /* Additions (0.2): 0 from a daemon that does not send them. */
    uint64_t connections_total; /* connections served since start */
    uint64_t stuck_workers;     /* worker threads written off past a deadline */
};

struct sudoku_client; /* one connection, opaque */
struct sudoku_batch;  /* a pipelined batch on one connection, opaque */

/* Every call of the library is spelled sudoku_client_*; the batch calls
 * and types came first as sudoku_batch_*, which stay as aliases that name
 * the same functions and types (docs/client.md).  struct
 * sudoku_client_batch is struct sudoku_batch: the tag stays the first one,
 * so that nothing built against it changes. */
#define sudoku_client_batch sudoku_batch

/* ------------------------------------------------------------------------ */
/* Connecting */

/* Resolve the socket path the way sudokud does: explicit if non-NULL and
 * non-empty, else $SUDOKUD_SOCKET, else /run/sudokud/sudokud.sock for root,
 * else $XDG_RUNTIME_DIR/sudokud.sock.  Writes the NUL-terminated path to out.
 * Returns 0, -ENAMETOOLONG (longer than out or than sun_path allows) or
 * -ENOENT (not root and XDG_RUNTIME_DIR unset). */
SUDOKU_CLIENT_API int sudoku_client_socket_path(const char *explicit_path, char *out,
                                                size_t out_size);

/* Connect to the daemon at path.  path NULL or empty and $SUDOKUD_SOCKET
 * unset: a user who is not root tries $XDG_RUNTIME_DIR/sudokud.sock (their own
 * daemon) and then SUDOKU_CLIENT_SYSTEM_SOCKET (the system's); root tries the
 * system one.  On success stores a new client in *out (free it with
 * sudoku_client_free) and returns 0; else returns a negative errno with
 * err->code "connect" and a message naming every socket tried and why each
 * failed ("no socket at PATH: is sudokud running?", "permission denied on
 * PATH: you are not in group G", ...). */
SUDOKU_CLIENT_API int sudoku_client_connect(const char *path, struct sudoku_client **out,
                                            struct sudoku_client_error *err);

/* Wrap an already connected stream socket (e.g. from socketpair()).  The
 * client owns fd from then on, also when this fails.  Returns 0 or -ENOMEM. */
SUDOKU_CLIENT_API int sudoku_client_open_fd(int fd, struct sudoku_client **out);

/* Close the connection and free the client.  Accepts NULL.  A batch still
 * open on it must be freed first. */
SUDOKU_CLIENT_API void sudoku_client_free(struct sudoku_client *c);

/* The socket path this client connected to ("" for open_fd).  Owned by c. */
SUDOKU_CLIENT_API const char *sudoku_client_path(const struct sudoku_client *c);

/* Give up waiting for the daemon after ms milliseconds without any byte
 * arriving while an answer is pending (0, the default: wait forever). */
SUDOKU_CLIENT_API void sudoku_client_set_io_timeout(struct sudoku_client *c, unsigned ms);

/* 0 while c can still talk to the daemon; once the connection broke (the
 * daemon closed it, an I/O error or timeout, a protocol violation), the
 * negative errno that broke it, with the reason copied into *why when why is
 * non-NULL.  A batch on a broken connection delivers every unanswered puzzle
 * as failed with exactly that error. */
SUDOKU_CLIENT_API int sudoku_client_broken(const struct sudoku_client *c,
                                           struct sudoku_client_error *why);

/* ------------------------------------------------------------------------ */
/* One request at a time */

/* Round trip a ping.  Stores the round-trip time in *rtt_us if non-NULL.
 * Returns 0 or a negative errno (err says why). */
SUDOKU_CLIENT_API int sudoku_client_ping(struct sudoku_client *c, uint64_t *rtt_us,
                                         struct sudoku_client_error *err);

/* Solve one puzzle given in the line form (len bytes, need not be
 * NUL-terminated).  opts may be NULL.  Returns 0 when the daemon answered:
 * res->status then says solved, unsolvable or failed (res->error).  Returns a
 * negative errno when the conversation itself failed (res->error says why,
 * res->status is SUDOKU_CLIENT_FAILED); the client is then unusable. */
SUDOKU_CLIENT_API int sudoku_client_solve(struct sudoku_client *c, const char *puzzle, size_t len,
                                          const struct sudoku_client_options *opts,
                                          struct sudoku_client_result *res);

/* Same, for a puzzle given as n*n values 0..n (0 blank), sent in array form. */
SUDOKU_CLIENT_API int sudoku_client_solve_cells(struct sudoku_client *c, unsigned n,
                                                const uint8_t *cells,
                                                const struct sudoku_client_options *opts,
                                                struct sudoku_client_result *res);

/* List the daemon's solvers into out[0..cap).  Stores the number the daemon
 * reported in *len (may exceed cap; only cap are filled).  Returns 0 or a
 * negative errno. */
SUDOKU_CLIENT_API int sudoku_client_solvers(struct sudoku_client *c,
                                            struct sudoku_client_solver *out, size_t cap,
                                            size_t *len, struct sudoku_client_error *err);

/* The variant rules of entry i of the list the last successful
 * sudoku_client_solvers() call on c read (an addition: struct
 * sudoku_client_solver stays as it is).  Stores in *rules the rules its
 * solve takes and in *explain_rules those its explain and rate take, as
 * SUDOKU_CLIENT_RULE_* bits where SUDOKU_CLIENT_RULE_DRAW_REGIONS stands
 * for jigsaw regions and SUDOKU_CLIENT_RULE_DRAW_CAGES for killer cages;
 * 0 is classic only (also from a daemon that does not list rules).
 * Either pointer may be NULL.  Returns 0; -ENOENT when no list was read
 * yet; -ERANGE when i is beyond that list or i >= SUDOKU_CLIENT_MAX_SOLVERS
 * (the entries kept, whatever cap that call had). */
SUDOKU_CLIENT_API int sudoku_client_solver_rules(const struct sudoku_client *c, size_t i,
                                                 unsigned *rules, unsigned *explain_rules);

/* Fetch the daemon's counters into *out.  Returns 0 or a negative errno. */
SUDOKU_CLIENT_API int sudoku_client_stats(struct sudoku_client *c, struct sudoku_client_stats *out,
                                          struct sudoku_client_error *err);

/* ------------------------------------------------------------------------ */
/* Pipelined batches */

/* Called once per added puzzle, in the order they were added.  seq counts
 * added puzzles from 0; tag is the caller's value given to the add call.
 * res is valid only during the call. */
typedef void (*sudoku_client_batch_cb)(void *arg, uint64_t seq, uint64_t tag,
                                       const struct sudoku_client_result *res);

/* Start a batch on c: up to window requests (1..SUDOKU_CLIENT_MAX_WINDOW) in
 * flight at once, answers reordered to input order through a buffer of
 * window results, so memory stays constant however many puzzles go through.
 * opts (may be NULL; copied, the solver name too) apply to every puzzle.
 * While the batch exists, use c only through it.  Stores the batch in *out
 * (free with sudoku_client_batch_free) and returns 0, -EINVAL or -ENOMEM. */
SUDOKU_CLIENT_API int sudoku_client_batch_new(struct sudoku_client *c, unsigned window,
                                              const struct sudoku_client_options *opts,
                                              sudoku_client_batch_cb cb, void *arg,
                                              struct sudoku_client_batch **out);

/* Queue one line-form puzzle (copied; the caller may reuse its buffer).
 * When window requests are already in flight, first waits for answers and
 * delivers them through the callback.  Returns 0, or a negative errno when the
 * connection failed (err says why); every puzzle added before then has had
 * its callback, failed ones with that error, and this one is not queued. */
SUDOKU_CLIENT_API int sudoku_client_batch_add(struct sudoku_client_batch *b, const char *puzzle,
                                              size_t len, uint64_t tag,
                                              struct sudoku_client_error *err);

/* Same, for n*n cells 0..n, sent in array form. */
SUDOKU_CLIENT_API int sudoku_client_batch_add_cells(struct sudoku_client_batch *b, unsigned n,
                                                    const uint8_t *cells, uint64_t tag,
                                                    struct sudoku_client_error *err);

/* Queue a puzzle the caller already knows is bad (e.g. it could not be
 * read): nothing is sent, and the callback reports it as failed with code and
 * message, in its place in the input order.  Returns 0 or as
 * sudoku_client_batch_add. */
SUDOKU_CLIENT_API int sudoku_client_batch_add_failed(struct sudoku_client_batch *b, uint64_t tag,
                                                     const char *code, const char *message,
                                                     struct sudoku_client_error *err);

/* Wait for every queued puzzle and deliver the remaining callbacks.
 * Returns 0 or a negative errno as sudoku_client_batch_add does. */
SUDOKU_CLIENT_API int sudoku_client_batch_finish(struct sudoku_client_batch *b,
                                                 struct sudoku_client_error *err);

/* Number of puzzles added and not yet delivered. */
SUDOKU_CLIENT_API size_t sudoku_client_batch_pending(const struct sudoku_client_batch *b);

/* Free the batch (accepts NULL).  Answers not yet delivered are dropped; the
 * connection then still has requests in flight, so free the client too. */
SUDOKU_CLIENT_API void sudoku_client_batch_free(struct sudoku_client_batch *b);

/* The first spellings of the above: the same functions and type. */
typedef sudoku_client_batch_cb sudoku_batch_cb;
SUDOKU_CLIENT_API int sudoku_batch_new(struct sudoku_client *c, unsigned window,
                                       const struct sudoku_client_options *opts, sudoku_batch_cb cb,
                                       void *arg, struct sudoku_batch **out);
SUDOKU_CLIENT_API int sudoku_batch_add(struct sudoku_batch *b, const char *puzzle, size_t len,
                                       uint64_t tag, struct sudoku_client_error *err);
SUDOKU_CLIENT_API int sudoku_batch_add_cells(struct sudoku_batch *b, unsigned n,
                                             const uint8_t *cells, uint64_t tag,
                                             struct sudoku_client_error *err);
SUDOKU_CLIENT_API int sudoku_batch_add_failed(struct sudoku_batch *b, uint64_t tag,
                                              const char *code, const char *message,
                                              struct sudoku_client_error *err);
SUDOKU_CLIENT_API int sudoku_batch_finish(struct sudoku_batch *b, struct sudoku_client_error *err);
SUDOKU_CLIENT_API size_t sudoku_batch_pending(const struct sudoku_batch *b);
SUDOKU_CLIENT_API void sudoku_batch_free(struct sudoku_batch *b);

/* Short name of a status: "solved", "unsolvable", "error" or "not_unique". */
SUDOKU_CLIENT_API const char *sudoku_client_status_name(enum sudoku_client_status status);

/* ------------------------------------------------------------------------ */
/* Explain, hint and rate: human-style steps (docs/techniques.md) */

#define SUDOKU_CLIENT_WORD_SIZE      16 /* room for a difficulty word, with NUL */
#define SUDOKU_CLIENT_TECHNIQUE_SIZE 48 /* room for a technique name, with NUL */

/* Options of an explain or a rate; zero-initialise for the daemon's defaults. */
struct sudoku_client_explain_opts {
    const char *solver;   /* explaining plugin, NULL: the daemon's (the first that can) */
    unsigned steps;       /* explain: at most this many steps, 0: until solved */
    const char *progress; /* explain: the player's grid in line form, NULL: the givens */
    size_t progress_len;  /* bytes of progress */
    unsigned timeout_ms;  /* per-request timeout, 0: the daemon's default */
    /* explain: the player's pencil marks, NULL: every candidate the grid
     * allows.  n*n*n characters, per cell its n digits in order with '.'
     * or '0' for a removed one (the 729-character form of a 9x9). */
    const char *candidates;
    size_t candidates_len; /* bytes of candidates */
    /* explain: how much of each step to give, 1..4, 0: the daemon's
     * default (4).  1: technique and rating only; 2: and the house; 3: and
     * the pattern cells; 4: the whole step (placements, eliminations,
     * text).  A game's graded hint. */
    unsigned level;
};

/* How far an explanation went. */
enum sudoku_client_explain_status {
    SUDOKU_CLIENT_EXPLAIN_SOLVED = 0,  /* the steps reach the solution */
    SUDOKU_CLIENT_EXPLAIN_PARTIAL = 1, /* stopped after opts->steps (or at a "mistake" step) */
    SUDOKU_CLIENT_EXPLAIN_STUCK = 2    /* no technique applied: the last step is a "reveal" */
};

/* One placement or eliminated candidate. */
struct sudoku_client_cell_value {
    uint16_t cell; /* 0-based row-major index, < n*n */
    uint8_t value; /* 1..n */
};

/* One step.  The arrays and text point into the explanation holding it. */
struct sudoku_client_step {
    char technique[SUDOKU_CLIENT_TECHNIQUE_SIZE];        /* "hidden_single", "reveal", ... */
    double rating;                                       /* the technique's (SE-like scale) */
    const struct sudoku_client_cell_value *placements;   /* cells this step solves */
    size_t placements_len;                               /* entries in placements */
    const struct sudoku_client_cell_value *eliminations; /* candidates this step removes */
    size_t eliminations_len;                             /* entries in eliminations */
    const uint16_t *cells;                               /* cells that prove it (the pattern) */
    size_t cells_len;                                    /* entries in cells */
    const char *text;                                    /* one sentence, r1c1 notation */
    /* A "mistake" in the pencil marks: the removed candidates to mark
     * again (each the solution's value of its cell); empty otherwise. */
    const struct sudoku_client_cell_value *restore;
    size_t restore_len; /* entries in restore */
    /* The house to look at, given at levels 2 and 3 (opts->level):
     * "row", "column", "box", "region", "diagonal", "window" or "cage";
     * "" when the answer has none. */
    char house_type[SUDOKU_CLIENT_WORD_SIZE];
    unsigned house_index; /* 0-based within its type (docs/protocol.md) */
};

/* The answer to an explain: one allocation, freed with
 * sudoku_client_explanation_free().  Every cell is < n*n and every value in
 * 1..n, n being the puzzle's side (checked on arrival). */
struct sudoku_client_explanation {
    enum sudoku_client_explain_status status;
    unsigned n;                                 /* side of the puzzle */
    double rating;                              /* the hardest step's (stuck: 10.0) */
    char difficulty[SUDOKU_CLIENT_WORD_SIZE];   /* easy, medium, hard, expert, extreme */
    char hardest[SUDOKU_CLIENT_TECHNIQUE_SIZE]; /* technique of the hardest step, "" if none */
    char solver[SUDOKU_CLIENT_NAME_SIZE];       /* plugin that explained */
    uint64_t elapsed_us;                        /* reported by the daemon */
    size_t steps_len;                           /* entries in steps */
    const struct sudoku_client_step *steps;     /* in order, first step first */
    double ep; /* Sudoku Explainer's pearl: the hardest step up to the first placement (0: none) */
    double ed; /* Sudoku Explainer's diamond: the first step's rating (0: none) */
};

/* The answer to one rate.  Self-contained: no pointers, nothing to free. */
struct sudoku_client_rating {
    enum sudoku_client_status status; /* SOLVED: rated; NOT_UNIQUE or FAILED: error says why */
    double rating;                    /* the hardest step's; 10.0 when stuck */
    char difficulty[SUDOKU_CLIENT_WORD_SIZE];   /* easy, medium, hard, expert, extreme */
    char hardest[SUDOKU_CLIENT_TECHNIQUE_SIZE]; /* technique of the hardest step, "" if none */
    uint64_t steps;                             /* steps on the path */
    int is_logic;                               /* 1: logic alone solved it; 0: stuck */
    char solver[SUDOKU_CLIENT_NAME_SIZE];       /* plugin that rated */
    uint64_t elapsed_us;                        /* reported by the daemon */
    struct sudoku_client_error error;           /* set unless status == SUDOKU_CLIENT_SOLVED */
    double ep; /* Sudoku Explainer's pearl: the hardest step up to the first placement (0: none) */
    double ed; /* Sudoku Explainer's diamond: the first step's rating (0: none) */
};

/* Explain one line-form puzzle (len bytes): the steps a person would take,
 * easiest first (opts->steps 1 is a hint).  opts may be NULL.  On success
 * stores a new explanation in *out (free it with
 * sudoku_client_explanation_free) and returns 0.  Else *out is NULL, err
 * says why, and the result is -EREMOTEIO when the daemon refused the request
 * (err->code is its code: "not_unique", "bad_puzzle", "unsupported", ...; c
 * stays usable), -ENOMEM, or the negative errno of a broken conversation
 * (the client is then unusable, see sudoku_client_broken). */
SUDOKU_CLIENT_API int sudoku_client_explain(struct sudoku_client *c, const char *puzzle, size_t len,
                                            const struct sudoku_client_explain_opts *opts,
                                            struct sudoku_client_explanation **out,
                                            struct sudoku_client_error *err);

/* Free an explanation and everything it points to.  Accepts NULL. */
SUDOKU_CLIENT_API void sudoku_client_explanation_free(struct sudoku_client_explanation *e);

/* "solved", "partial" or "stuck" (the wire's words). */
SUDOKU_CLIENT_API const char *
sudoku_client_explain_status_name(enum sudoku_client_explain_status status);

/* Rate one line-form puzzle for a person (opts: solver and timeout_ms; may
 * be NULL).  Returns 0 when the daemon answered: res->status then says
 * rated (SUDOKU_CLIENT_SOLVED), not unique or failed (res->error).  Returns
 * a negative errno when the conversation itself failed, as
 * sudoku_client_solve does. */
SUDOKU_CLIENT_API int sudoku_client_rate(struct sudoku_client *c, const char *puzzle, size_t len,
                                         const struct sudoku_client_explain_opts *opts,
                                         struct sudoku_client_rating *res);

/* Called once per puzzle of a rating batch, in the order they were added
 * (as sudoku_client_batch_cb).  res is valid only during the call. */
typedef void (*sudoku_client_batch_rate_cb)(void *arg, uint64_t seq, uint64_t tag,
                                            const struct sudoku_client_rating *res);

/* Start a batch that rates instead of solving: the same window, ordering,
 * failure and memory rules as sudoku_client_batch_new, and the same add,
 * finish, pending and free calls; opts (solver and timeout_ms are used,
 * copied; may be NULL) apply to every puzzle.  Returns 0, -EINVAL or
 * -ENOMEM. */
SUDOKU_CLIENT_API int sudoku_client_batch_new_rate(struct sudoku_client *c, unsigned window,
                                                   const struct sudoku_client_explain_opts *opts,
                                                   sudoku_client_batch_rate_cb cb, void *arg,
                                                   struct sudoku_client_batch **out);

/* The first spellings of the above: the same function and type. */
typedef sudoku_client_batch_rate_cb sudoku_batch_rate_cb;
SUDOKU_CLIENT_API int sudoku_batch_new_rate(struct sudoku_client *c, unsigned window,
                                            const struct sudoku_client_explain_opts *opts,
                                            sudoku_batch_rate_cb cb, void *arg,
                                            struct sudoku_batch **out);

/* ------------------------------------------------------------------------ */
/* Generating puzzles (the generate method) */

#define SUDOKU_CLIENT_GENERATE_MAX 1000 /* puzzles one generate request may ask for */
#define SUDOKU_CLIENT_WORD_SIZE    16   /* room for a difficulty or symmetry name, with NUL */

/* Options of one generate request; zero-initialise for the daemon's
 * defaults (9x9, one puzzle, a random seed, no symmetry, minimal, no band).
 * Strings are copied into the request as they are: the daemon checks them
 * and answers bad_request naming the allowed values. */
struct sudoku_client_generate_opts {
    unsigned size;          /* side 4, 9, 16 or 25; 0: the daemon's default (9) */
    unsigned count;         /* puzzles, 1..SUDOKU_CLIENT_GENERATE_MAX; 0: 1 */
    uint64_t seed;          /* the batch seed, sent when has_seed */
    int has_seed;           /* 0: the daemon picks a seed (getrandom) */
    const char *symmetry;   /* none, rotate180, rotate90, mirror, flip, diagonal; NULL: none */
    int is_not_minimal;     /* 1: sends minimal false (stop at the first given that stays) */
    const char *difficulty; /* easy, medium, hard, expert, extreme; NULL: no band */
    double min_rating;      /* lower end of the band, sent when has_min_rating */
    int has_min_rating;     /* (not together with difficulty) */
    double max_rating;      /* upper end of the band, sent when has_max_rating */
    int has_max_rating;     /* (not together with difficulty) */
    const char *solver;     /* counting plugin, NULL: the daemon's default for the size */
    unsigned timeout_ms;    /* whole-request deadline, 0: the daemon's default */
};

/* One generated puzzle.  Self-contained: no pointers. */
struct sudoku_client_puzzle {
    unsigned n;                                 /* side */
    char puzzle[SUDOKU_CLIENT_MAX_CELLS + 1];   /* line form, '.' blanks */
    char solution[SUDOKU_CLIENT_MAX_CELLS + 1]; /* its unique solution, line form */
    unsigned givens;                            /* non-blank cells of puzzle */
    uint64_t seed;                              /* count 1 with this seed makes it again */
    double rating;                              /* the daemon's rating, 0.0 when unrated */
    char difficulty[SUDOKU_CLIENT_WORD_SIZE];   /* band of rating, "" when unrated */
    char symmetry[SUDOKU_CLIENT_WORD_SIZE];     /* symmetry of the givens */
};

/* Ask the daemon for puzzles.  opts may be NULL (one 9x9 puzzle).  On
 * success stores a malloc'ed array in *out (free it with
 * sudoku_client_puzzles_free) and its length in *len, 1..opts->count (fewer
 * than asked only when the request's deadline passed first), and returns 0.
 * Every answer is checked before it is returned: puzzle and solution of the
 * same size, the solution complete and keeping every given, givens matching.
 * On failure *out is NULL, *len 0, and it returns -EPROTO with err->code the
 * daemon's code (bad_request, unknown_solver, unsupported, timeout,
 * cancelled, overloaded, ...) or "protocol" for a malformed answer (the
 * connection stays usable), or, when the connection itself failed (see
 * sudoku_client_broken), its negative errno. */
SUDOKU_CLIENT_API int sudoku_client_generate(struct sudoku_client *c,
                                             const struct sudoku_client_generate_opts *opts,
                                             struct sudoku_client_puzzle **out, size_t *len,
                                             struct sudoku_client_error *err);

/* Free an array from sudoku_client_generate.  Accepts NULL. */
SUDOKU_CLIENT_API void sudoku_client_puzzles_free(struct sudoku_client_puzzle *p);

/* Pipelined generate requests on one connection, answered in the order they
 * were added, so that several requests keep the daemon's workers busy. */
struct sudoku_client_genbatch;

/* Called once per added request, in the order they were added.  seq counts
 * requests from 0; tag is the caller's value.  On success err is NULL and
 * puzzles[0..len) holds the answer (len >= 1); on failure puzzles is NULL,
 * len 0 and err says why (codes as sudoku_client_generate; a broken
 * connection fails every undelivered request with its error).  Everything
 * is valid only during the call. */
typedef void (*sudoku_client_genbatch_cb)(void *arg, uint64_t seq, uint64_t tag,
                                          const struct sudoku_client_puzzle *puzzles, size_t len,
                                          const struct sudoku_client_error *err);

/* Start a batch on c with up to window (1..SUDOKU_CLIENT_MAX_WINDOW)
 * requests in flight.  While it exists, use c only through it.  Stores the
 * batch in *out (free with sudoku_client_genbatch_free) and returns 0,
 * -EINVAL or -ENOMEM. */
SUDOKU_CLIENT_API int sudoku_client_genbatch_new(struct sudoku_client *c, unsigned window,
                                                 sudoku_client_genbatch_cb cb, void *arg,
                                                 struct sudoku_client_genbatch **out);

/* Queue one generate request (opts is encoded at once: nothing of it is kept).
 * When window requests are already in flight, first waits for answers and
 * delivers them.  Returns 0; -EINVAL (err code "usage") for a count over
 * SUDOKU_CLIENT_GENERATE_MAX or options that cannot be encoded, then nothing
 * is queued; or the connection's negative errno (every earlier request has
 * had its callback, and this one is not queued). */
SUDOKU_CLIENT_API int sudoku_client_genbatch_add(struct sudoku_client_genbatch *b,
                                                 const struct sudoku_client_generate_opts *opts,
                                                 uint64_t tag, struct sudoku_client_error *err);

/* Wait for every queued request and deliver the remaining callbacks.
 * Returns 0 or the connection's negative errno. */
SUDOKU_CLIENT_API int sudoku_client_genbatch_finish(struct sudoku_client_genbatch *b,
                                                    struct sudoku_client_error *err);

/* Number of requests added and not yet delivered. */
SUDOKU_CLIENT_API size_t sudoku_client_genbatch_pending(const struct sudoku_client_genbatch *b);

/* Free the batch (accepts NULL).  Answers not yet delivered are dropped; the
 * connection then still has requests in flight, so free the client too. */
SUDOKU_CLIENT_API void sudoku_client_genbatch_free(struct sudoku_client_genbatch *b);

/* ------------------------------------------------------------------------ */
/* Variant rules (docs/protocol.md, "Variant rules") */

/* The boolean rules, as bits of struct sudoku_client_rules.flags. */
#define SUDOKU_CLIENT_RULE_DIAGONALS       0x01u /* both main diagonals are houses (X) */
#define SUDOKU_CLIENT_RULE_WINDOWS         0x02u /* windoku's extra windows */
#define SUDOKU_CLIENT_RULE_ANTI_KNIGHT     0x04u /* no digit a knight's move from itself */
#define SUDOKU_CLIENT_RULE_ANTI_KING       0x08u /* no digit a king's move from itself */
#define SUDOKU_CLIENT_RULE_NON_CONSECUTIVE 0x10u /* orthogonal neighbours never differ by 1 */
/* generate only: the daemon draws a jigsaw layout (regions: true) or
 * killer cages (cages: true) from the seed; regions and cages stay empty. */
#define SUDOKU_CLIENT_RULE_DRAW_REGIONS 0x20u
#define SUDOKU_CLIENT_RULE_DRAW_CAGES   0x40u
/* generate only, with DRAW_CAGES (an addition): the drawn killer
 * puzzles keep givens, dug as for other puzzles (the wire's givens: true). */
#define SUDOKU_CLIENT_RULE_GIVENS 0x80u

/* One killer cage: its cells hold distinct digits adding up to sum. */
struct sudoku_client_cage {
    unsigned sum;          /* the digits' total */
    size_t cells_len;      /* entries in cells */
    const uint16_t *cells; /* 0-based row-major cell numbers */
};

/* The rules of one puzzle; zero-initialised it is classic Sudoku.  Nothing
 * is checked here: the daemon judges the rules against the puzzle and
 * answers bad_request naming the rule and the cell ("regions: region 9 is
 * not connected (r7c7 is cut off from r1c1)"), which the calls below pass
 * on in err or the result's error.  The caller owns every pointer; each
 * call encodes the rules at once and keeps nothing of them.  A later rule
 * that carries data of its own comes with calls of its own: this struct
 * never changes. */
struct sudoku_client_rules {
    unsigned flags;                         /* SUDOKU_CLIENT_RULE_* bits */
    const char *regions;                    /* jigsaw: n*n symbols '1'-'9','A'-'P'; NULL: none */
    size_t regions_len;                     /* bytes of regions */
    const struct sudoku_client_cage *cages; /* killer: the cages; NULL: none */
    size_t cages_len;                       /* entries in cages (0: no killer) */
};

/* sudoku_client_solve with rules (NULL: classic).  Returns as
 * sudoku_client_solve; rules that cannot be encoded (more cells than the
 * largest grid has, an unknown flag) fail with res->error code "usage" and
 * -EINVAL, the client staying usable. */
SUDOKU_CLIENT_API int sudoku_client_solve_rules(struct sudoku_client *c, const char *puzzle,
                                                size_t len,
                                                const struct sudoku_client_options *opts,
                                                const struct sudoku_client_rules *rules,
                                                struct sudoku_client_result *res);

/* sudoku_client_batch_add (line form) and sudoku_client_batch_add_cells
 * (n*n cells) with this puzzle's own rules (NULL: classic), for solving and
 * rating batches alike: one batch may mix rules freely.  Rules that cannot
 * be encoded make this puzzle a failure (code "usage") in its place in the
 * order; the batch goes on.  Returns as sudoku_client_batch_add. */
SUDOKU_CLIENT_API int sudoku_client_batch_add_rules(struct sudoku_client_batch *b,
                                                    const char *puzzle, size_t len,
                                                    const struct sudoku_client_rules *rules,
                                                    uint64_t tag, struct sudoku_client_error *err);
SUDOKU_CLIENT_API int sudoku_client_batch_add_cells_rules(struct sudoku_client_batch *b, unsigned n,
                                                          const uint8_t *cells,
                                                          const struct sudoku_client_rules *rules,
                                                          uint64_t tag,
                                                          struct sudoku_client_error *err);

/* sudoku_client_explain and sudoku_client_rate with rules (NULL: classic).
 * Return as those calls (rules that cannot be encoded: -EINVAL, code
 * "usage"). */
SUDOKU_CLIENT_API int sudoku_client_explain_rules(struct sudoku_client *c, const char *puzzle,
                                                  size_t len,
                                                  const struct sudoku_client_explain_opts *opts,
                                                  const struct sudoku_client_rules *rules,
                                                  struct sudoku_client_explanation **out,
                                                  struct sudoku_client_error *err);
SUDOKU_CLIENT_API int sudoku_client_rate_rules(struct sudoku_client *c, const char *puzzle,
                                               size_t len,
                                               const struct sudoku_client_explain_opts *opts,
                                               const struct sudoku_client_rules *rules,
                                               struct sudoku_client_rating *res);

/* One generated puzzle with its full rules: the booleans asked for, and
 * the regions and cages the daemon drew (or those sent), so that the
 * rules can be sent back to solve as they are.  rules points into the
 * array that holds this entry. */
struct sudoku_client_variant {
    struct sudoku_client_puzzle puzzle; /* as sudoku_client_generate gives it */
    struct sudoku_client_rules rules;   /* its rules; flags never holds DRAW_* */
};

/* sudoku_client_generate with rules (NULL: classic puzzles; the DRAW_*
 * flags ask for drawn regions or cages).  On success stores in *out one
 * malloc'ed block of *len variants and everything their rules point to
 * (free it with sudoku_client_variants_free) and returns 0; otherwise as
 * sudoku_client_generate. */
SUDOKU_CLIENT_API int sudoku_client_generate_rules(struct sudoku_client *c,
                                                   const struct sudoku_client_generate_opts *opts,
                                                   const struct sudoku_client_rules *rules,
                                                   struct sudoku_client_variant **out, size_t *len,
                                                   struct sudoku_client_error *err);

/* Free a block from sudoku_client_generate_rules.  Accepts NULL. */
SUDOKU_CLIENT_API void sudoku_client_variants_free(struct sudoku_client_variant *v);

/* Called once per request of a variant generate batch, in the order they
 * were added, as sudoku_client_genbatch_cb but with each puzzle's rules.
 * Everything is valid only during the call. */
typedef void (*sudoku_client_genbatch_rules_cb)(void *arg, uint64_t seq, uint64_t tag,
                                                const struct sudoku_client_variant *puzzles,
                                                size_t len, const struct sudoku_client_error *err);

/* Start a generate batch whose answers carry their rules: the same window,
 * ordering and failure rules as sudoku_client_genbatch_new, and the same
 * finish, pending and free calls.  Returns 0, -EINVAL or -ENOMEM. */
SUDOKU_CLIENT_API int sudoku_client_genbatch_new_rules(struct sudoku_client *c, unsigned window,
                                                       sudoku_client_genbatch_rules_cb cb,
                                                       void *arg,
                                                       struct sudoku_client_genbatch **out);

/* sudoku_client_genbatch_add with rules (NULL: classic), on a batch of
 * either kind (a classic batch's callback gets the puzzles without their
 * rules).  Returns as sudoku_client_genbatch_add. */
SUDOKU_CLIENT_API int sudoku_client_genbatch_add_rules(
    struct sudoku_client_genbatch *b, const struct sudoku_client_generate_opts *opts,
    const struct sudoku_client_rules *rules, uint64_t tag, struct sudoku_client_error *err);

#ifdef __cplusplus
}
#endif

#endif /* SUDOKU_CLIENT_H */
