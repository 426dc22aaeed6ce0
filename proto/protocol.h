/* protocol.h -- the names of wire protocol v1, one table for both ends.
 *
 * docs/protocol.md is the contract; every word it fixes on the wire -- the
 * method names, the option keys, the result keys, the status words and the
 * error codes -- is spelled once, in protocol.c, and both ends of every
 * message (proto/solve.c, explain.c, generate.c, admin.c, and the daemon's
 * own packers) encode and decode through it, so the two halves cannot drift
 * apart.  Adding a key is one line in PROTO_KEYS.
 *
 * Nothing here keeps state; every function is thread-safe.
 */
#ifndef SUDOKU_PROTO_PROTOCOL_H
#define SUDOKU_PROTO_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#include <msgpack.h>

/* The protocol's version, as the version method reports it: additions
 * keep it; a change would bump it. */
#define RPC_PROTOCOL_VERSION 1

/* The error codes of protocol v1, in the order of the spec. */
enum rpc_code {
    RPC_OK = 0,         /* not an error */
    RPC_BAD_REQUEST,    /* wrong shape or types, missing puzzle, limit < 1 */
    RPC_UNKNOWN_METHOD, /* method name not known */
    RPC_BAD_PUZZLE,     /* cell count, symbol range or givens break a rule */
    RPC_UNKNOWN_SOLVER, /* no plugin of that name */
    RPC_UNSUPPORTED,    /* the solver cannot take this size (or limit) */
    RPC_TIMEOUT,        /* the deadline passed */
    RPC_CANCELLED,      /* a cancel notification stopped it */
    RPC_OVERLOADED,     /* shutting down, or queues full */
    RPC_TOO_LARGE,      /* message over the size limit */
    RPC_INTERNAL,       /* a solver failed or was wrong */
    RPC_NOT_UNIQUE,     /* explain, rate: no solution or more than one */
    RPC_CODE_COUNT      /* not a code: how many there are */
};

/* Methods and notifications. */
enum rpc_method {
    RPC_M_UNKNOWN = 0, /* anything else */
    RPC_M_SOLVE,       /* request */
    RPC_M_SOLVERS,     /* request */
    RPC_M_STATS,       /* request */
    RPC_M_PING,        /* request */
    RPC_M_CANCEL,      /* notification, client to daemon */
    RPC_M_ERROR,       /* notification, daemon to client */
    RPC_M_EXPLAIN,     /* request */
    RPC_M_RATE,        /* request */
    RPC_M_GENERATE,    /* request */
    RPC_M_VERSION,     /* request */
    RPC_M_COUNT        /* not a method: how many there are */
};

/* Map keys and fixed string values, as X(id, "wire spelling"). */
#define PROTO_KEYS(X)                                                                              \
    /* solve options */                                                                            \
    X(SOLVER, "solver")                                                                            \
    X(LIMIT, "limit")                                                                              \
    X(TIMEOUT_MS, "timeout_ms")                                                                    \
    /* error objects */                                                                            \
    X(CODE, "code")                                                                                \
    X(MESSAGE, "message")                                                                          \
    /* solve results */                                                                            \
    X(STATUS, "status")                                                                            \
    X(SOLUTION, "solution")                                                                        \
    X(COUNT, "count")                                                                              \
    X(ELAPSED_US, "elapsed_us")                                                                    \
    X(GUESSES, "guesses")                                                                          \
    /* status words (also per-solver stats keys) */                                                \
    X(SOLVED, "solved")                                                                            \
    X(UNSOLVABLE, "unsolvable")                                                                    \
    /* ping's result */                                                                            \
    X(PONG, "pong")                                                                                \
    /* solvers entries */                                                                          \
    X(NAME, "name")                                                                                \
    X(VERSION, "version")                                                                          \
    X(DESCRIPTION, "description")                                                                  \
    X(SIZES, "sizes")                                                                              \
    X(DEFAULT, "default")                                                                          \
    X(DEFAULT_SIZES, "default_sizes")                                                              \
    /* stats */                                                                                    \
    X(UPTIME_S, "uptime_s")                                                                        \
    X(CONNECTIONS, "connections")                                                                  \
    X(CONNECTIONS_TOTAL, "connections_total")                                                      \
    X(REQUESTS, "requests")                                                                        \
    X(ERRORS, "errors")                                                                            \
    X(IN_FLIGHT, "in_flight")                                                                      \
    X(STUCK_WORKERS, "stuck_workers")                                                              \
    X(SOLVERS, "solvers")                                                                          \
    X(TIMEOUTS, "timeouts")                                                                        \
    X(BUSY_US, "busy_us")                                                                          \
    /* explain and rate options and results */                                                     \
    X(STEPS, "steps")                                                                              \
    X(PROGRESS, "progress")                                                                        \
    X(CANDIDATES, "candidates")                                                                    \
    X(RESTORE, "restore")                                                                          \
    X(LEVEL, "level")                                                                              \
    X(HOUSE, "house")                                                                              \
    X(TYPE, "type")                                                                                \
    X(INDEX, "index")                                                                              \
    X(TECHNIQUE, "technique")                                                                      \
    X(RATING, "rating")                                                                            \
    X(PLACEMENTS, "placements")                                                                    \
    X(ELIMINATIONS, "eliminations")                                                                \
    X(CELLS, "cells")                                                                              \
    X(TEXT, "text")                                                                                \
    X(DIFFICULTY, "difficulty")                                                                    \
    X(HARDEST, "hardest")                                                                          \
    X(EP, "ep")                                                                                    \
    X(ED, "ed")                                                                                    \
    X(LOGIC, "logic")                                                                              \
    X(PARTIAL, "partial")                                                                          \
    X(STUCK, "stuck")                                                                              \
    X(EXPLAIN, "explain")                                                                          \
    /* generate options and results */                                                             \
    X(SIZE, "size")                                                                                \
    X(SEED, "seed")                                                                                \
    X(SYMMETRY, "symmetry")                                                                        \
    X(MINIMAL, "minimal")                                                                          \
    X(MIN_RATING, "min_rating")                                                                    \
    X(MAX_RATING, "max_rating")                                                                    \
    X(PUZZLE, "puzzle")                                                                            \
    X(GIVENS, "givens")                                                                            \
    /* variant rules (the rules option, and solvers' lists) */                                     \
    X(RULES, "rules")                                                                              \
    X(DIAGONALS, "diagonals")                                                                      \
    X(WINDOWS, "windows")                                                                          \
    X(REGIONS, "regions")                                                                          \
    X(ANTI_KNIGHT, "anti_knight")                                                                  \
    X(ANTI_KING, "anti_king")                                                                      \
    X(NON_CONSECUTIVE, "non_consecutive")                                                          \
    X(CAGES, "cages")                                                                              \
    X(EXPLAIN_RULES, "explain_rules")                                                              \
    /* version's result */                                                                         \
    X(DAEMON, "daemon")                                                                            \
    X(PROTOCOL, "protocol")                                                                        \
    X(ABI, "abi")

enum proto_key {
#define PROTO_KEY_ENUM(id, str) PROTO_K_##id,
    PROTO_KEYS(PROTO_KEY_ENUM)
#undef PROTO_KEY_ENUM
        PROTO_KEY_COUNT /* not a key: how many there are */
};

/* The wire spelling of k (static storage), and its length. */
const char *proto_key(enum proto_key k);
size_t proto_key_len(enum proto_key k);

/* The key o spells (a msgpack str), or PROTO_KEY_COUNT for none. */
enum proto_key proto_key_of(const msgpack_object *o);

/* 1 when o is the str of k. */
int proto_is(const msgpack_object *o, enum proto_key k);

/* The value of key k in map o (the first one), or NULL when o is not a map or
 * has no such key.  Points into o. */
const msgpack_object *proto_map_get(const msgpack_object *o, enum proto_key k);

/* Pack k as a msgpack str.  Returns 0 or a negative value from the packer. */
int proto_pack_key(msgpack_packer *pk, enum proto_key k);

/* Pack the NUL-terminated string s as a msgpack str.  Returns 0 or -ENOMEM. */
int proto_pack_cstr(msgpack_packer *pk, const char *s);

/* The spec's name of a code ("bad_request" ...); "ok" for RPC_OK and
 * "internal" for anything out of range.  Static storage. */
const char *proto_code_name(enum rpc_code code);

/* The code named by s[0..len), or RPC_CODE_COUNT when none is. */
enum rpc_code proto_code_of(const char *s, size_t len);

/* Difficulty bands on a rating (docs/techniques.md): easy up to 2.3,
 * medium up to 3.4, hard up to 5.4, expert up to 7.0, extreme above. */
#define PROTO_DIFFICULTIES "easy, medium, hard, expert, extreme"

/* The band rating lies in ("easy" ... "extreme"), static storage. */
const char *proto_difficulty_of(double rating);

/* The inclusive rating range of the band named s[0..len): 0 with *lo and
 * *hi set, or -EINVAL for a name that is none of PROTO_DIFFICULTIES. */
int proto_difficulty_band(const char *s, size_t len, double *lo, double *hi);

/* The wire name of a method ("solve" ...), NULL for RPC_M_UNKNOWN. */
const char *proto_method_name(enum rpc_method m);

/* The method o names (a msgpack str), RPC_M_UNKNOWN for anything else. */
enum rpc_method proto_method_of(const msgpack_object *o);

#endif /* SUDOKU_PROTO_PROTOCOL_H */
