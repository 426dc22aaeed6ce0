/* generate.h -- the generate message, both ends: [options] and its puzzles.
 *
 * The client (wire_*) packs the options that are set and decodes the
 * answer into an array of struct sudoku_client_puzzle, every map checked;
 * the daemon (rpc_*) decodes the options into a struct
 * rpc_generate_params.  The answer is packed by the method layer
 * (method/genreq.c), which runs the generator.
 */
#ifndef SUDOKU_PROTO_GENERATE_H
#define SUDOKU_PROTO_GENERATE_H

#include <stddef.h>
#include <stdint.h>

#include <msgpack.h>
#include <sudoku/client.h>

#include "proto/protocol.h"
#include "proto/rpc.h"
#include "proto/solve.h"
#include "util/cbuf.h"

#define RPC_GENERATE_MAX 1000 /* puzzles one generate request may ask for */
#define RPC_WORD_SIZE    16   /* room for a symmetry or difficulty name */

/* A validated generate request.  The symmetry name is only bounded here
 * (the generator knows the names); the band is checked: difficulty is one
 * of the protocol's names, or min/max ratings form a range. */
struct rpc_generate_params {
    unsigned n;                    /* side: 4, 9, 16 or 25 */
    uint32_t count;                /* 1..RPC_GENERATE_MAX */
    int has_seed;                  /* else the daemon picks one */
    uint64_t seed;                 /* seed of the first puzzle */
    char symmetry[RPC_WORD_SIZE];  /* as sent, "" = absent (none) */
    int is_minimal;                /* default 1 */
    int has_band;                  /* difficulty, min_rating or max_rating given */
    double min_rating, max_rating; /* the band, inclusive */
    char solver[RPC_SOLVER_SIZE];  /* counting plugin, "" = the default */
    uint64_t timeout_ms;           /* 0 = the daemon's default */
    struct rpc_rules rules;        /* the rules option (regions, cages may be drawn) */
};

/* ------------------------------------------------------ the daemon's end */

/* The params of a generate, [] or [options], into *g (defaults: 9x9, one
 * puzzle, minimal).  Returns RPC_OK or the code, the reason in err. */
enum rpc_code rpc_decode_generate(const msgpack_object_array *params, struct rpc_generate_params *g,
                                  char *err, size_t err_size);

/* ------------------------------------------------------ the client's end */

/* Append a generate request to b (o may be NULL: []) with rules (NULL:
 * classic).  Returns 0 or a negative errno (nothing appended; -EINVAL:
 * rules wire_rules_check refuses). */
int wire_pack_generate(struct cbuf *b, uint32_t msgid, const struct sudoku_client_generate_opts *o,
                       const struct sudoku_client_rules *rules);

/* Decode the answer to a request for count puzzles.  On success *out is a
 * malloc'ed array of *len (1..count).  Returns 0, or -EPROTO with err set
 * (the daemon's error, or a "protocol" error), or -ENOMEM. */
int wire_decode_generate(const msgpack_object *error, const msgpack_object *result, unsigned count,
                         struct sudoku_client_puzzle **out, size_t *len,
                         struct sudoku_client_error *err);

/* The same, each puzzle with its rules (the answer map's `rules`; absent:
 * classic).  On success *out is one malloc'ed block of *len variants and
 * what their rules point to (free() it). */
int wire_decode_generate_rules(const msgpack_object *error, const msgpack_object *result,
                               unsigned count, struct sudoku_client_variant **out, size_t *len,
                               struct sudoku_client_error *err);

#endif /* SUDOKU_PROTO_GENERATE_H */
