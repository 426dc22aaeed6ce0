/* plugin.h -- the sudokud solver plugin ABI.
 *
 * A solver plugin is a shared object that exports exactly one symbol,
 * SDK_ENTRY_SYMBOL ("sudoku_plugin_entry"), a function returning a pointer to
 * a constant descriptor (struct sdk_plugin).  The host (sudokud, sudoku-bench)
 * dlopen()s the file, checks the descriptor and then calls solve() from any
 * number of threads at once.
 *
 * Versioning: the descriptor and every struct the host hands in carry their
 * own size.  Structs only ever grow at the end; a reader must look at the
 * size before touching a field that came with a later minor version.  A new
 * major version means an incompatible change and the host refuses the plugin.
 *
 * Rules for plugins (the host relies on them):
 *   - no mutable globals: solve() is called concurrently from worker threads;
 *   - no printing, no exit(), no abort(): report through sdk_host.log and the
 *     returned status;
 *   - no malloc on the 9x9 hot path; larger grids may allocate their working
 *     memory once per call, never during the search;
 *   - the one exception: a plugin whose search allocates as it goes (a SAT
 *     solver growing its learned clauses, as sat on CaDiCaL does) is allowed
 *     off the host's hot path only (never the default for 9x9, where answers
 *     take microseconds), and only when it bounds what one job may allocate
 *     (a documented cap: a job that reaches it returns SDK_FAILED instead of
 *     growing) and has freed all of it before solve() returns;
 *   - poll sdk_job_should_stop() often enough to return within 10 ms of a
 *     cancel request or of the deadline;
 *   - build with -fvisibility=hidden and -Wl,-z,defs, export only the entry.
 *
 * Minor 1 added the optional explain() entry (human-style solving steps, see
 * struct sdk_explain) and explain_sizes at the end of struct sdk_plugin.  A
 * minor-0 plugin has neither: test with sdk_plugin_has_explain().  Minor 2
 * added sdk_explain.max_rating (a rating ceiling) and SDK_EXPLAIN_ABOVE,
 * minor 3 sdk_explain.solution (the unique solution, to search less); a
 * plugin reads a field only when sdk_explain.size covers it.  Minor 4 added
 * variant rules (struct sdk_rules, handed in through sdk_job.rules and
 * sdk_explain.rules; a plugin says which kinds it takes in sdk_plugin.rules
 * and explain_rules), the player's pencil marks (sdk_explain.candidates) and
 * Sudoku Explainer's pearl and diamond ratings (sdk_explain.ep, ed).  The
 * host never hands rules to a plugin built before minor 4.  Minor 5 added
 * a budget of guesses (sdk_job.max_guesses, read with sdk_job_max_guesses())
 * and SDK_EXHAUSTED, returned only when a job set one: a plugin may ignore
 * the budget (it then works to the end as before), so a host cannot count
 * on it.
 *
 * This header is self-contained and installed as <sudoku/plugin.h>.  It
 * compiles as strict ISO C11 and C17 (-std=c11 -pedantic, where <time.h>
 * hides POSIX: the two POSIX names it needs are then declared here) and as
 * C++17 (std::atomic<int> for the cancel flag, layout-compatible with C's
 * atomic_int); ctest header_std compiles it each way.
 */
#ifndef SUDOKU_PLUGIN_H
#define SUDOKU_PLUGIN_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#ifdef __cplusplus
#include <atomic>
typedef std::atomic<int> sdk_atomic_int; /* the cancel flag's type */
#define SDK_ATOMIC_LOAD_RELAXED(p) ((p)->load(std::memory_order_relaxed))
extern "C" {
#else
#include <stdatomic.h>
typedef atomic_int sdk_atomic_int; /* the cancel flag's type */
#define SDK_ATOMIC_LOAD_RELAXED(p) atomic_load_explicit((p), memory_order_relaxed)
#endif

#ifdef CLOCK_MONOTONIC
#define SDK_CLOCK_MONOTONIC CLOCK_MONOTONIC
#else
/* Strict ISO C: <time.h> declares struct timespec but hides POSIX's clock;
 * these are Linux's (clockid_t is an int there). */
extern int clock_gettime(int clock_id, struct timespec *ts);
#define SDK_CLOCK_MONOTONIC 1
#endif

#define SDK_ABI_MAJOR    1                     /* incompatible changes bump this */
#define SDK_ABI_MINOR    5                     /* fields added at the end bump this */
#define SDK_ENTRY_SYMBOL "sudoku_plugin_entry" /* the one exported symbol */
#define SDK_MAX_N        25                    /* largest supported side */
#define SDK_MAX_CELLS    (SDK_MAX_N * SDK_MAX_N)

/* Grid sizes a plugin can take (sdk_plugin.sizes). */
#define SDK_SIZE_4   (1u << 0) /* 4x4, boxes of 2x2 */
#define SDK_SIZE_9   (1u << 1) /* 9x9, boxes of 3x3 */
#define SDK_SIZE_16  (1u << 2) /* 16x16, boxes of 4x4 */
#define SDK_SIZE_25  (1u << 3) /* 25x25, boxes of 5x5 */
#define SDK_SIZE_ALL (SDK_SIZE_4 | SDK_SIZE_9 | SDK_SIZE_16 | SDK_SIZE_25)

/* Capability flags (sdk_plugin.caps). */
#define SDK_CAP_COUNT     (1u << 0) /* honours limit > 1 (uniqueness, counting) */
#define SDK_CAP_REENTRANT (1u << 1) /* safe to call from several threads at once */
#define SDK_CAP_CANCEL    (1u << 2) /* polls the cancel flag and the deadline */
#define SDK_CAP_PROMPT    (1u << 3) /* stops within microseconds of them: may run on the loop */

/* Kinds of variant rule (struct sdk_rules.kinds, sdk_plugin.rules). */
#define SDK_RULE_DIAGONALS       (1u << 0) /* X-sudoku: both main diagonals are houses */
#define SDK_RULE_WINDOWS         (1u << 1) /* windoku: (b-1)^2 extra b x b windows */
#define SDK_RULE_REGIONS         (1u << 2) /* jigsaw: irregular regions replace the boxes */
#define SDK_RULE_ANTI_KNIGHT     (1u << 3) /* a knight's move apart: digits differ */
#define SDK_RULE_ANTI_KING       (1u << 4) /* touching, diagonals included: digits differ */
#define SDK_RULE_NON_CONSECUTIVE (1u << 5) /* orthogonal neighbours never differ by one */
#define SDK_RULE_CAGES           (1u << 6) /* killer: cages of distinct digits with a sum */
#define SDK_RULE_ALL             0x7fu

/* Log levels, syslog numbering (sdk_host.log). */
#define SDK_LOG_ERR     3
#define SDK_LOG_WARNING 4
#define SDK_LOG_INFO    6
#define SDK_LOG_DEBUG   7

/* Result of a solve call. */
enum sdk_status {
    SDK_SOLVED = 0,     /* at least one solution; the first is in job->solution */
    SDK_UNSOLVABLE = 1, /* no solution exists (count == 0) */
    SDK_CANCELLED = 2,  /* *job->cancel became non-zero */
    SDK_TIMEDOUT = 3,   /* job->deadline_ns passed */
    SDK_FAILED = 4,     /* the plugin could not work (out of memory, bad job) */
    SDK_EXHAUSTED = 5   /* minor 5: job->max_guesses guesses made, no answer (see there) */
};

/* What the host hands a plugin: a table of function pointers, so plugins
 * link against nothing in the host.  Only grows at the end. */
struct sdk_host {
    uint32_t size; /* sizeof(struct sdk_host) as the host was built */
    void *ctx;     /* opaque, passed back to every callback */
    /* Log one line (no trailing newline needed).  Thread-safe. */
    void (*log)(void *ctx, int level, const char *msg);
};

/* One killer cage: the cells sdk_rules.cage_cells[off .. off+len-1] hold
 * distinct digits that add up to sum. */
struct sdk_cage {
    uint32_t sum;      /* the digits' total */
    uint32_t off;      /* first cell in sdk_rules.cage_cells */
    uint32_t len;      /* cells, 1..n */
    uint32_t reserved; /* 0 */
};

/* The rules of a variant puzzle, built and checked by the host (minor 4).
 * Everything is given in a form a generic solver can use without knowing
 * which rule it came from: houses (n cells that hold each digit once),
 * pairs of cells that must differ outside any house, pairs that must not
 * hold consecutive digits, and cages.  kinds says which rules produced
 * them, for a plugin that has special code for one.  The host owns every
 * array; they live as long as the call.  Cells are 0-based row-major.
 *
 * Houses, each n cells in ascending order: rows 0..n-1, then columns
 * (houses n..2n-1), then boxes, or the jigsaw regions when kinds has
 * SDK_RULE_REGIONS (houses 2n..3n-1: house 2n+k holds the cells whose
 * region[] is k), then the extra houses: the main diagonal (top left to
 * bottom right) and the anti-diagonal when kinds has SDK_RULE_DIAGONALS,
 * then the windows in row-major order of their top-left cells when kinds
 * has SDK_RULE_WINDOWS. */
struct sdk_rules {
    uint32_t size;                /* sizeof(struct sdk_rules) as the host was built */
    uint32_t kinds;               /* SDK_RULE_* in force (never 0: classic is rules NULL) */
    uint32_t n;                   /* side, the job's */
    uint32_t houses_len;          /* houses: 3n plus the extra ones */
    const uint16_t *houses;       /* houses_len * n cells, house h at houses[h * n] */
    const uint8_t *region;        /* n*n: each cell's box or region, 0..n-1 */
    const uint16_t *differ;       /* differ_len pairs (a, b), a < b, sharing no house:
                                   * their digits differ (anti-knight, anti-king) */
    const uint16_t *nonconsec;    /* nonconsec_len pairs (a, b), a < b: their digits
                                   * do not differ by one (non-consecutive) */
    const struct sdk_cage *cages; /* cages_len cages, no cell in two */
    const uint16_t *cage_cells;   /* the cages' cells, cage by cage */
    uint32_t differ_len;          /* pairs in differ */
    uint32_t nonconsec_len;       /* pairs in nonconsec */
    uint32_t cages_len;           /* entries in cages */
    uint32_t cage_cells_len;      /* entries in cage_cells */
};

/* One solve request.  The host owns every buffer; the plugin writes only the
 * fields marked out. */
struct sdk_job {
    uint32_t size;                /* sizeof(struct sdk_job) as the host was built */
    uint32_t n;                   /* side: 4, 9, 16 or 25 */
    const uint8_t *cells;         /* n*n cells, row-major, 0 = blank, else 1..n */
    uint64_t limit;               /* stop after this many solutions (>= 1) */
    const sdk_atomic_int *cancel; /* non-zero asks the plugin to stop; may be NULL */
    uint64_t deadline_ns;         /* CLOCK_MONOTONIC ns to stop at; 0 = none */
    uint8_t *solution;            /* out: n*n cells, the first solution found */
    uint64_t count;               /* out: solutions found, 0..limit */
    uint64_t guesses;             /* out: work done (guesses or search nodes) */
    /* Minor 4 (read only when size covers it): the variant rules, or NULL
     * for classic Sudoku.  Never set unless the plugin's rules have every
     * kind in it. */
    const struct sdk_rules *rules;
    /* Minor 5 (read only through sdk_job_max_guesses()): stop with
     * SDK_EXHAUSTED once this many guesses (the unit of guesses) are made
     * and the answer is still open; 0 = no budget.  Unlike the deadline it
     * counts work, not time, so the same job stops at the same place on any
     * machine.  count and solution then hold what was found so far. */
    uint64_t max_guesses;
};

/* The budget of guesses of job (0: none), 0 when the host was built before
 * minor 5 (job->size ends before the field). */
static inline uint64_t sdk_job_max_guesses(const struct sdk_job *job)
{
    if (job->size < offsetof(struct sdk_job, max_guesses) + sizeof(job->max_guesses))
        return 0;
    return job->max_guesses;
}

/* Outcome of an explain call (sdk_explain.status). */
enum sdk_explain_status {
    SDK_EXPLAIN_SOLVED = 0,    /* the steps reach the solution (or it was solved) */
    SDK_EXPLAIN_PARTIAL = 1,   /* stopped after max_steps steps */
    SDK_EXPLAIN_STUCK = 2,     /* no technique applies to the position reached */
    SDK_EXPLAIN_CANCELLED = 3, /* *job->cancel became non-zero */
    SDK_EXPLAIN_TIMEDOUT = 4,  /* job->deadline_ns passed */
    SDK_EXPLAIN_NOSPACE = 5,   /* a host array or the text buffer is full */
    SDK_EXPLAIN_INVALID = 6,   /* the position breaks the rules (no solution) */
    SDK_EXPLAIN_ABOVE = 7      /* minor 2: the next step rates above max_rating (see there) */
};

/* One (cell, value) pair: a placement or an eliminated candidate. */
struct sdk_cell_value {
    uint16_t cell;    /* 0-based row-major index, < n*n */
    uint8_t value;    /* 1..n */
    uint8_t reserved; /* 0 */
};

/* One step of an explanation.  The *_off fields index the host arrays of
 * struct sdk_explain; a step's entries there are contiguous. */
struct sdk_step {
    const char *technique; /* snake_case wire name; static, owned by the plugin */
    double rating;         /* the technique's difficulty (SE-like scale) */
    uint32_t place_off;    /* first entry in job->placements */
    uint32_t place_len;    /* cells this step solves */
    uint32_t elim_off;     /* first entry in job->eliminations */
    uint32_t elim_len;     /* candidates this step removes */
    uint32_t cells_off;    /* first entry in job->cells_out */
    uint32_t cells_len;    /* cells that prove the step (the pattern) */
    uint32_t text_off;     /* first byte in job->text; the text is NUL-terminated */
    uint32_t text_len;     /* bytes of text, without the NUL (0: no text buffer) */
};

/* One explain request.  The host owns every buffer, the plugin only writes
 * into them and into the fields marked out, and never beyond a capacity.
 * Any output array may be NULL with capacity 0: that part is then not
 * recorded (its lengths stay 0), which is how a host only rates a puzzle
 * (steps == NULL: steps_len, rating and hardest are still set).  When a
 * non-NULL array is too small for the next step, the plugin stops before
 * that step with status SDK_EXPLAIN_NOSPACE; the steps before it stand.
 * Every step changes the candidates and is sound for every solution of the
 * puzzle; progress must agree with the solution (the host checks).  A stuck
 * explanation sets rating to the plugin's stuck rating, above every
 * technique's.  Cells are 0-based row-major, values 1..n, in the text too
 * (written "r3c5", rows and columns from 1). */
struct sdk_explain {
    uint32_t size;                       /* sizeof(struct sdk_explain) as the host was built */
    uint32_t n;                          /* side: in the plugin's explain_sizes */
    const uint8_t *cells;                /* n*n givens, row-major, 0 = blank, else 1..n */
    const uint8_t *progress;             /* n*n start grid holding every given, or NULL */
    uint32_t max_steps;                  /* stop after this many steps; 0 = no limit */
    uint32_t reserved;                   /* 0 */
    const sdk_atomic_int *cancel;        /* non-zero asks the plugin to stop; may be NULL */
    uint64_t deadline_ns;                /* CLOCK_MONOTONIC ns to stop at; 0 = none */
    struct sdk_step *steps;              /* out: steps_cap steps, or NULL */
    struct sdk_cell_value *placements;   /* out: placements of every step, or NULL */
    struct sdk_cell_value *eliminations; /* out: eliminations of every step, or NULL */
    uint16_t *cells_out;                 /* out: pattern cells of every step, or NULL */
    char *text;                          /* out: one sentence a step, each NUL-ended, or NULL */
    uint32_t steps_cap;                  /* entries in steps */
    uint32_t placements_cap;             /* entries in placements */
    uint32_t eliminations_cap;           /* entries in eliminations */
    uint32_t cells_out_cap;              /* entries in cells_out */
    uint32_t text_cap;                   /* bytes in text */
    uint32_t status;                     /* out: enum sdk_explain_status */
    uint32_t steps_len;                  /* out: steps taken (recorded or not) */
    uint32_t placements_len;             /* out: entries used in placements */
    uint32_t eliminations_len;           /* out: entries used in eliminations */
    uint32_t cells_out_len;              /* out: entries used in cells_out */
    uint32_t text_len;                   /* out: bytes used in text, NULs included */
    uint32_t reserved2;                  /* 0 */
    double rating;                       /* out: hardest step's rating (stuck: see above) */
    const char *hardest;                 /* out: its technique (static), or NULL: no step */
    uint8_t *grid;                       /* out: n*n position reached, 0 = blank; or NULL */
    /* Minor 2 (a plugin reads it only when size covers it): 0 = no ceiling.
     * Else the plugin may stop, with status SDK_EXPLAIN_ABOVE, at the first
     * position whose easiest step rates above max_rating, without finding
     * that step; rating is then the least that step could rate (above
     * max_rating), a lower bound of the whole puzzle's.  A generator asking
     * for a band sets it: a puzzle above the band costs no hard search.  A
     * plugin that ignores it simply explains on. */
    double max_rating;
    /* Minor 3 (read only when size covers it): the unique solution of
     * cells (n*n values 1..n, the host proved it unique before the call),
     * or NULL.  It lets a plugin search less, never say more: a candidate
     * that is the solution's value cannot lead to a contradiction, so the
     * logic plugin does not try it as one, and finds the same steps as
     * without it.  Being set, it also says that the puzzle has one
     * solution, which uniqueness techniques assume: the logic plugin takes
     * unique rectangle, loop and BUG steps only then.  A plugin must not
     * state a step because the solution says so; the host checks every step
     * against the solution anyway. */
    const uint8_t *solution;
    /* Minor 4 (read only when size covers it): the variant rules, or NULL
     * (classic); never set unless explain_rules has every kind in it. */
    const struct sdk_rules *rules;
    /* Minor 4: the player's pencil marks, or NULL (every candidate the
     * position allows).  n*n*n bytes: candidates[cell * n + d - 1] is
     * non-zero when digit d is still marked in cell.  The steps start from
     * these marks (intersected with what the givens and progress allow): a
     * step that changes nothing in them is not a step.  The host has
     * already checked that no solution value is missing from them. */
    const uint8_t *candidates;
    /* Minor 4, out: Sudoku Explainer's pearl (EP) and diamond (ED)
     * ratings of the steps taken, 0 when the plugin does not rate them
     * (a plugin built before minor 4 leaves them alone: the host zeroes
     * them first). */
    double ep;
    double ed;
};

/* The descriptor a plugin's entry function returns.  Constant, owned by the
 * plugin, valid until the plugin is unloaded.  Only grows at the end. */
struct sdk_plugin {
    uint16_t abi_major;      /* SDK_ABI_MAJOR the plugin was built with */
    uint16_t abi_minor;      /* SDK_ABI_MINOR the plugin was built with */
    uint32_t struct_size;    /* sizeof(struct sdk_plugin) the plugin was built with */
    const char *name;        /* short unique name: [a-z0-9_-]{1,31} */
    const char *version;     /* the plugin's own version, free text */
    const char *description; /* one line for humans */
    uint32_t sizes;          /* SDK_SIZE_* the plugin accepts */
    uint32_t caps;           /* SDK_CAP_* */
    /* Optional.  Called once after loading; may set *state (passed to solve
     * and fini).  Returns 0 or a negative errno; non-zero refuses the load. */
    int (*init)(const struct sdk_host *host, void **state);
    /* Optional.  Called once before unloading, never while solving. */
    void (*fini)(void *state);
    /* Required.  Solve job->cells; fill solution, count, guesses.  Returns an
     * enum sdk_status.  Must not keep pointers into job after returning. */
    int (*solve)(void *state, const struct sdk_host *host, struct sdk_job *job);
    /* ---- minor 1: read only when sdk_plugin_has_explain() says so ---- */
    /* Optional.  Explain job->cells step by step (struct sdk_explain).
     * Returns 0 with the outcome in job->status, or a negative errno:
     * -EINVAL malformed job, -ENOTSUP n not in explain_sizes.  Thread-safe
     * when caps has SDK_CAP_REENTRANT.  Must not keep pointers into job. */
    int (*explain)(void *state, const struct sdk_host *host, struct sdk_explain *job);
    uint32_t explain_sizes; /* SDK_SIZE_* explain() accepts (a subset of sizes) */
    /* ---- minor 4: read only when sdk_plugin_rules() says so ---- */
    uint32_t rules;         /* SDK_RULE_* solve() takes (0: classic only) */
    uint32_t explain_rules; /* SDK_RULE_* explain() takes (0: classic only) */
};

/* Does descriptor d (already accepted by the host) have explain()?  A
 * minor-0 plugin's descriptor ends at solve, so its struct_size says no and
 * the explain field must not even be read. */
static inline int sdk_plugin_has_explain(const struct sdk_plugin *d)
{
    if (d->struct_size < offsetof(struct sdk_plugin, explain_sizes) + sizeof(d->explain_sizes))
        return 0;
    return d->explain != NULL && d->explain_sizes != 0;
}

/* The rule kinds d's solve() (is_explain 0) or explain() (1) takes: 0 for a
 * descriptor built before minor 4, whose struct_size ends before them. */
static inline uint32_t sdk_plugin_rules(const struct sdk_plugin *d, int is_explain)
{
    if (d->abi_minor < 4 ||
        d->struct_size < offsetof(struct sdk_plugin, explain_rules) + sizeof(d->explain_rules))
        return 0;
    return is_explain ? d->explain_rules : d->rules;
}

/* The type of the exported entry function. */
typedef const struct sdk_plugin *(*sdk_entry_fn)(void);

/* Monotonic clock in nanoseconds, the clock of sdk_job.deadline_ns. */
static inline uint64_t sdk_now_ns(void)
{
    struct timespec ts;
    clock_gettime(SDK_CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Returns SDK_CANCELLED or SDK_TIMEDOUT when the job must stop, else 0.
 * Costs one atomic load and one vDSO clock read: call it every few thousand
 * search nodes, not on every node. */
static inline int sdk_job_should_stop(const struct sdk_job *job)
{
    if (job->cancel && SDK_ATOMIC_LOAD_RELAXED(job->cancel))
        return SDK_CANCELLED;
    if (job->deadline_ns && sdk_now_ns() >= job->deadline_ns)
        return SDK_TIMEDOUT;
    return 0;
}

/* The same test for an explain job. */
static inline int sdk_explain_should_stop(const struct sdk_explain *job)
{
    if (job->cancel && SDK_ATOMIC_LOAD_RELAXED(job->cancel))
        return SDK_EXPLAIN_CANCELLED;
    if (job->deadline_ns && sdk_now_ns() >= job->deadline_ns)
        return SDK_EXPLAIN_TIMEDOUT;
    return 0;
}

/* Box side for a grid side n (2, 3, 4, 5), or 0 when n is not supported. */
static inline uint32_t sdk_box_side(uint32_t n)
{
    switch (n) {
    case 4:
        return 2;
    case 9:
        return 3;
    case 16:
        return 4;
    case 25:
        return 5;
    default:
        return 0;
    }
}

/* The SDK_SIZE_* bit for side n, or 0. */
static inline uint32_t sdk_size_bit(uint32_t n)
{
    switch (n) {
    case 4:
        return SDK_SIZE_4;
    case 9:
        return SDK_SIZE_9;
    case 16:
        return SDK_SIZE_16;
    case 25:
        return SDK_SIZE_25;
    default:
        return 0;
    }
}

/* Declare the entry function of a plugin:
 *     SDK_PLUGIN_EXPORT const struct sdk_plugin *sudoku_plugin_entry(void);  */
#define SDK_PLUGIN_EXPORT __attribute__((visibility("default")))

#ifdef __cplusplus
}
#endif

#endif /* SUDOKU_PLUGIN_H */
