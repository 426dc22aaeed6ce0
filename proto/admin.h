/* admin.h -- the small methods, both ends: ping, solvers, stats, version, cancel.
 *
 * None takes more than a msgid (cancel, a notification), so the daemon's
 * end (rpc_*) checks their params and packs the pong; solvers, stats and
 * version are answered from what only the daemon holds (its plugins, its
 * counters: daemon/dispatch.c and daemon/stats.c pack them with the names
 * of protocol.h).  The client's end (wire_*) packs the calls and decodes
 * the pong, the solver list and the counters.  The "error" notification is
 * the envelope's (proto/rpc.h).
 */
#ifndef SUDOKU_PROTO_ADMIN_H
#define SUDOKU_PROTO_ADMIN_H

#include <stddef.h>
#include <stdint.h>

#include <msgpack.h>
#include <sudoku/client.h>

#include "proto/protocol.h"
#include "proto/rpc.h"
#include "util/cbuf.h"

/* ------------------------------------------------------ the daemon's end */

/* cancel's params, [msgid], into *msgid.  Returns RPC_OK or bad_request
 * with the reason in err. */
enum rpc_code rpc_decode_cancel(const msgpack_object_array *params, uint32_t *msgid, char *err,
                                size_t err_size);

/* The params of a method that takes none (ping, solvers, stats, version):
 * [] or bad_request, method_name (as sent) in the reason. */
enum rpc_code rpc_decode_no_params(const msgpack_object_array *params, const char *method_name,
                                   char *err, size_t err_size);

/* [1, msgid, nil, "pong"]; returns as rpc_pack_answer. */
int rpc_pack_pong(msgpack_sbuffer *sb, uint32_t msgid);

/* ------------------------------------------------------ the client's end */

/* Append [0, msgid, method, []] to b.  Returns 0 or a negative errno. */
int wire_pack_call(struct cbuf *b, uint32_t msgid, enum rpc_method method);
/* 0 when a ping's result is "pong", else -EPROTO. */
int wire_decode_pong(const msgpack_object *result);
/* Read a solvers result into out[0..cap), the count the daemon listed in
 * *len (may exceed cap).  Returns 0 or -EPROTO. */
int wire_decode_solvers(const msgpack_object *result, struct sudoku_client_solver *out, size_t cap,
                        size_t *len);
/* The variant rules one entry of a solvers result names under key
 * (PROTO_K_RULES or PROTO_K_EXPLAIN_RULES), as SUDOKU_CLIENT_RULE_* bits
 * (DRAW_REGIONS for regions, DRAW_CAGES for cages).  Lenient: an absent
 * or malformed list is 0, names it does not know are passed over. */
unsigned wire_decode_solver_rules(const msgpack_object *entry, enum proto_key key);
/* Read a stats result.  Returns 0 or -EPROTO. */
int wire_decode_stats(const msgpack_object *result, struct sudoku_client_stats *out);

#endif /* SUDOKU_PROTO_ADMIN_H */
