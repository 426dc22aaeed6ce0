/* method.h -- the one interface every method that does work implements.
 *
 * solve, explain, rate and generate each answer a request in the same five
 * steps, whoever drives them: the daemon's dispatch (validate on its loop,
 * run on a worker) or the sudoku tool's --local (all on one thread):
 *
 *   validate --> run --> outcome --> pack, or read the result --> destroy
 *   (driver's     (any      (an rpc_code and      (the answer map, or the
 *    thread)      thread)    its message, or OK)   method's result view)
 *
 * A driver keeps one struct method_call per request.  method_start() finds
 * the method's ops in the table (method_of) and validates the decoded
 * request against the loaded plugins; from then on the driver only calls
 * the ops, and knows nothing of what the work is.  Each method's own state
 * lives in call->work: in place when it fits (solve's, so that a steady
 * stream of solves allocates nothing), else allocated by validate and
 * pointed to from there.
 *
 * Threads: validate, outcome, pack and destroy on the driver's thread; run
 * on any one thread at a time, and nothing else touches the call while it
 * runs.  The ops themselves keep no state: the table is shared by every
 * thread.
 */
#ifndef SUDOKU_METHOD_H
#define SUDOKU_METHOD_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <sudoku/plugin.h>

#include "core/host.h"
#include "proto/read.h"

/* Bytes of a method's state kept in the call itself: room for solve's
 * puzzle and solution.  A method that needs more allocates it. */
#define METHOD_WORK_SIZE (2 * SDK_MAX_CELLS + 64)

/* What a driver lends every call it makes; lives as long as its calls. */
struct method_env {
    const struct host *host; /* the loaded plugins */
    host_log_fn *log;        /* where run() reports a plugin's failure; NULL: nowhere */
    void *log_ctx;           /* passed back to log */
    const char *log_hint;    /* where the host's log lines go, for messages */
    uint64_t slice_ns;       /* a long run may return after this long with work left
                                (is_unfinished) so that others get a turn; 0: never */
};

struct method_ops;

/* One request's work.  The driver reads the header; work is the method's. */
struct method_call {
    const struct method_ops *ops;     /* what the work is (method_start) */
    const struct method_env *env;     /* the driver's (method_start) */
    const struct host_plugin *plugin; /* counted for stats, named when it times out (validate) */
    uint64_t timeout_ms;              /* validate: the request's, 0 = none; the driver then
                                       * sets the effective one, which messages name */
    uint64_t elapsed_us;              /* time in run(), every run added (method_run) */
    alignas(max_align_t) unsigned char work[METHOD_WORK_SIZE]; /* the method's own state */
};

/* A method: a table of callbacks (see the file comment for the threads). */
struct method_ops {
    const char *name; /* wire name, for errors and logs */
    /* Extra time past the deadline before a driver answers `timeout`
     * itself: work that stops at its deadline and still has an answer
     * (generate: the puzzles so far) gets to send it. */
    uint64_t grace_ms;
    /* Check req (whose method is this one) against env->host and set up
     * call->work, call->plugin and call->timeout_ms.  Returns RPC_OK, or
     * the code to answer with the reason in msg and nothing kept. */
    enum rpc_code (*validate)(struct method_call *call, const struct rpc_request *req, char *msg,
                              size_t msg_size);
    /* Optional: 1 when the work may run on a driver's event loop under a
     * budget of microseconds (a plugin that keeps its deadline, small
     * work); NULL: never. */
    int (*is_prompt)(const struct method_call *call);
    /* Do the work, stopping at deadline_ns or when *cancel (may be NULL)
     * becomes non-zero.  May be called again after rearm(). */
    void (*run)(struct method_call *call, const atomic_int *cancel, uint64_t deadline_ns);
    /* With is_prompt: after run() stopped at a budget short of the
     * request's deadline, 1 when the work did not finish and is ready to
     * run again (on a worker), 0 when it finished all the same. */
    int (*rearm)(struct method_call *call);
    /* After run(): RPC_OK when there is an answer to pack, else the error
     * code with its message in msg. */
    enum rpc_code (*outcome)(const struct method_call *call, char *msg, size_t msg_size);
    /* Optional: after an RPC_OK outcome, 1 when the answer is that there
     * is no solution (counted `unsolvable`, not `solved`). */
    int (*is_unsolvable)(const struct method_call *call);
    /* Pack the answer map after an RPC_OK outcome; arg is the call. */
    rpc_result_fn *pack;
    /* Optional: free what validate allocated. */
    void (*destroy)(struct method_call *call);
    /* The most bytes the answer map to req (whose method is this one) can
     * take, from the request alone (before validate: a driver reserves
     * room for the answer before it accepts the work).  A method whose map
     * gains a key must cover it here. */
    size_t (*answer_size)(const struct rpc_request *req);
    /* Optional: after run() returned, 1 when it stopped at the end of a
     * slice (env->slice_ns) with work left, ready to run again; NULL: run()
     * always runs to its end. */
    int (*is_unfinished)(const struct method_call *call);
};

/* The ops of method m, or NULL for the methods that do no work (ping,
 * version, solvers, stats, cancel). */
const struct method_ops *method_of(enum rpc_method m);

/* Bytes a whole response to req (whose method has ops) takes at most: the
 * method's answer_size, the envelope, or an error response, whichever is
 * larger. */
size_t method_answer_size(const struct rpc_request *req);

/* Validate req, whose method must have ops, with env into call (whatever
 * call held is overwritten).  Returns RPC_OK with the call ready to run
 * (end it with method_end), or the code to answer with the reason in msg
 * and nothing to end. */
enum rpc_code method_start(struct method_call *call, const struct method_env *env,
                           const struct rpc_request *req, char *msg, size_t msg_size);

/* Run the call's work until deadline_ns or *cancel (may be NULL), adding
 * the time it took to call->elapsed_us.  Returns that time in
 * microseconds. */
uint64_t method_run(struct method_call *call, const atomic_int *cancel, uint64_t deadline_ns);

/* Free what the call's work holds.  The call may be started again. */
void method_end(struct method_call *call);

/* For the methods' validate: the plugin a request names (name "": the
 * default for side n), which must take side n.  Returns RPC_OK with it in
 * *out, or RPC_UNKNOWN_SOLVER or RPC_UNSUPPORTED with the reason in msg. */
enum rpc_code method_find_solver(const struct host *h, const char *name, unsigned n,
                                 const struct host_plugin **out, char *msg, size_t msg_size);

/* A host result that says a plugin's worker process crashed (-ECHILD:
 * RPC_INTERNAL "plugin NAME crashed") or that the plugin is disabled after
 * repeated crashes (-ENOTRECOVERABLE: RPC_UNSUPPORTED "plugin NAME disabled
 * after 5 crashes; reload to retry"), with its message in msg; RPC_OK for
 * any other rc. */
enum rpc_code method_crash_error(int rc, const char *name, char *msg, size_t msg_size);
struct rules;

/* For the methods' validate: the rules of a request (s->rules) built for
 * side n into *out (NULL: classic).  Returns RPC_OK, or RPC_BAD_REQUEST
 * with core/rules.h's message naming the rule and the cell, or
 * RPC_INTERNAL (out of memory).  The caller frees *out with rules_free(). */
enum rpc_code method_rules(const struct rpc_rules *wire, unsigned n, struct rules **out, char *msg,
                           size_t msg_size);

struct rules_desc;
struct rules_desc_cage;

/* The plain description (core/rules.h) of wire's rules for side n into *d,
 * its cages in cages and their cells in cells (SDK_MAX_CELLS entries
 * each, the caller's; d points into them and into wire).  Drawn rules
 * (wire->draw) are not in it.  Nothing is checked: rules_new() does. */
void method_rules_desc(const struct rpc_rules *wire, unsigned n, struct rules_desc *d,
                       struct rules_desc_cage *cages, uint64_t *cells);

/* Does p take side n, every rule of kinds (SDK_RULE_*), and count solutions
 * when counts is set?  1 or 0. */
int method_plugin_takes(const struct host_plugin *p, unsigned n, uint32_t kinds, int counts);

/* For solve's validate: as method_find_solver, for a puzzle under rules of
 * the given SDK_RULE_* kinds (0: classic), by a plugin that counts when
 * counts is set.  A named plugin must take every kind; else the default
 * for side n when it does, or the first loaded plugin that takes the side
 * and every kind.  RPC_UNSUPPORTED names the first rule no plugin takes. */
enum rpc_code method_find_rules_solver(const struct host *h, const char *name, unsigned n,
                                       uint32_t kinds, int counts, const struct host_plugin **out,
                                       char *msg, size_t msg_size);

/* The work of a call, as the method's own struct. */
#define METHOD_WORK(call, type)  ((type *)(void *)(call)->work)
#define METHOD_CWORK(call, type) ((const type *)(const void *)(call)->work)

#endif /* SUDOKU_METHOD_H */
