/* genreq.h -- a generate request, from its params to its answer map.
 *
 * The daemon (daemon/generate.c, on a worker) and the sudoku tool's
 * offline mode (tool/local.c) both turn a decoded generate request into
 * puzzles here: the same counting plugin, the same rating, the same batch
 * from the same seed, the same codes and messages, the same answer map
 * (docs/protocol.md, generate).  So the same options and seed give the
 * same bytes in both.
 */
#ifndef SUDOKU_CORE_GENREQ_H
#define SUDOKU_CORE_GENREQ_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <msgpack.h>

#include "core/generate.h"
#include "core/host.h"
#include "core/rater.h"
#include "proto/generate.h"

/* One request's work and its puzzles.  Made by genreq_new; fields are
 * read-only to users. */
struct genreq {
    struct gen_spec spec;              /* what to make */
    const struct host_plugin *counter; /* proves uniqueness */
    const struct host_plugin *rater;   /* explaining plugin, or NULL */
    struct gen_rater *rater_state;     /* rates on the running thread, or NULL */
    uint64_t seed;                     /* the batch's */
    uint32_t count;                    /* asked for */
    size_t done;                       /* made, from out[0] */
    int rc;                            /* gen_batch's result */
    struct gen_puzzle out[];           /* count puzzles */
};

/* Check g against the loaded plugins and set up its work: the counting
 * plugin (g->solver, or the default for the size), the explaining plugin
 * that rates every puzzle (when one takes the size), the band, the seed (g's,
 * or one from getrandom(2)).  Returns RPC_OK with a new request in *out
 * (free it with genreq_free), or the code to answer with the reason in
 * msg. */
enum rpc_code genreq_new(const struct host *h, const struct rpc_generate_params *g,
                         struct genreq **out, char *msg, size_t msg_size);

/* Free r.  Accepts NULL. */
void genreq_free(struct genreq *r);

/* Make the puzzles, stopping at deadline_ns (0: none) or when *cancel
 * (may be NULL) becomes non-zero; r->done and r->rc say how it went.
 * Runs on one thread; the caller logs r->rc's failures. */
void genreq_run(struct genreq *r, const atomic_int *cancel, uint64_t deadline_ns);

/* What r's outcome means on the wire: RPC_OK when at least one puzzle was
 * made (all, or those finished by the deadline), else the error code with
 * its message in msg.  timeout_ms is the request's deadline; log_hint names
 * where the host's log lines went. */
enum rpc_code genreq_outcome(const struct genreq *r, uint64_t timeout_ms, const char *log_hint,
                             char *msg, size_t msg_size);

/* Pack the answer: an array of r->done maps {puzzle, solution, givens,
 * seed, rating, difficulty, symmetry}.  Returns 0 or a negative errno. */
int genreq_pack(msgpack_packer *pk, const struct genreq *r);

#endif /* SUDOKU_CORE_GENREQ_H */
