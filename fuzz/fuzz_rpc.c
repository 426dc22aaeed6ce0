/* fuzz_rpc.c -- fuzz target for the request decoder (proto/read.c, rpc.c).
 *
 * Raw bytes go through rpc_read(), the very function the daemon's connection
 * code runs on what it receives (daemon/conn.c): mpscan bounds each object,
 * msgpack-c unpacks it, rpc_decode validates it.  Like the daemon, the target
 * cuts messages off the front of the buffer until one is incomplete or the
 * stream is refused.  For every message it checks what the daemon relies on:
 * the consumed length is within the buffer and the limit; a valid solve
 * request holds a supported grid with cells 0..n, limit >= 1 and a
 * NUL-terminated solver name; a valid request re-encoded by the client's
 * rules decodes to the same request; and every answer the daemon would send
 * for it (error response, error note, pong, solve result) is one complete
 * msgpack object that mpscan accepts.
 */
#include <errno.h>
#include <string.h>

#include <msgpack.h>

#include "core/grid.h"
#include "fuzz/fuzz_check.h"
#include "proto/codec.h"
#include "proto/mpscan.h"
#include "proto/read.h"

#define FUZZ_MAX_MESSAGE 65536 /* the daemon's default --max-message */

/* A packed answer must be exactly one object that mpscan and msgpack accept. */
static void check_packed(const msgpack_sbuffer *sb)
{
    msgpack_unpacked up;
    size_t off = 0;

    FUZZ_CHECK(sb->size > 0);
    FUZZ_CHECK(mpscan_object((const uint8_t *)sb->data, sb->size, sb->size, RPC_MAX_DEPTH) ==
               (ssize_t)sb->size);
    msgpack_unpacked_init(&up);
    FUZZ_CHECK(msgpack_unpack_next(&up, sb->data, sb->size, &off) == MSGPACK_UNPACK_SUCCESS);
    FUZZ_CHECK(off == sb->size);
    FUZZ_CHECK(up.data.type == MSGPACK_OBJECT_ARRAY);
    msgpack_unpacked_destroy(&up);
}

static void check_solve_params(const struct rpc_solve_params *s)
{
    FUZZ_CHECK(grid_side_ok(s->n));
    for (unsigned i = 0; i < s->n * s->n; i++)
        FUZZ_CHECK(s->cells[i] <= s->n);
    FUZZ_CHECK(s->limit >= 1);
    FUZZ_CHECK(memchr(s->solver, '\0', sizeof(s->solver)) != NULL);
    FUZZ_CHECK(s->form == RPC_FORM_STRING || s->form == RPC_FORM_LOWER ||
               s->form == RPC_FORM_ARRAY);
}

static void pack_str(msgpack_packer *pk, const char *s)
{
    FUZZ_CHECK(rpc_pack_cstr(pk, s) == 0);
}

/* Encode a valid solve request again, as a client would, into sb. */
static void pack_solve(msgpack_sbuffer *sb, const struct rpc_request *req)
{
    const struct rpc_solve_params *s = &req->solve;
    char line[SDK_MAX_CELLS + 1];
    msgpack_packer pk;

    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    msgpack_pack_array(&pk, 4);
    msgpack_pack_uint8(&pk, RPC_MSG_REQUEST);
    msgpack_pack_uint32(&pk, req->msgid);
    pack_str(&pk, "solve");
    msgpack_pack_array(&pk, 2);
    if (s->form == RPC_FORM_ARRAY) {
        msgpack_pack_array(&pk, s->n * s->n);
        for (unsigned i = 0; i < s->n * s->n; i++)
            msgpack_pack_uint8(&pk, s->cells[i]);
    } else {
        FUZZ_CHECK(codec_format_line(s->n, s->cells, CODEC_BLANK_DOT, line, sizeof(line)) ==
                   (int)(s->n * s->n));
        pack_str(&pk, line);
    }
    msgpack_pack_map(&pk, 1 + (s->solver[0] != '\0') + (s->timeout_ms != 0));
    pack_str(&pk, "limit");
    msgpack_pack_uint64(&pk, s->limit);
    if (s->solver[0]) {
        pack_str(&pk, "solver");
        pack_str(&pk, s->solver);
    }
    if (s->timeout_ms) {
        pack_str(&pk, "timeout_ms");
        msgpack_pack_uint64(&pk, s->timeout_ms);
    }
}

/* A valid solve request survives a trip through the encoder. */
static void check_solve_round_trip(const struct rpc_request *req)
{
    static struct rpc_request again;
    msgpack_sbuffer sb;
    char err[RPC_ERR_SIZE];

    msgpack_sbuffer_init(&sb);
    pack_solve(&sb, req);
    ssize_t n = rpc_read((const uint8_t *)sb.data, sb.size, sb.size, &again, err, sizeof(err));
    FUZZ_CHECK(n == (ssize_t)sb.size);
    FUZZ_CHECK(again.code == RPC_OK);
    FUZZ_CHECK(again.msgid == req->msgid && again.method == RPC_M_SOLVE);
    FUZZ_CHECK(again.solve.n == req->solve.n);
    FUZZ_CHECK(memcmp(again.solve.cells, req->solve.cells, (size_t)req->solve.n * req->solve.n) ==
               0);
    FUZZ_CHECK(again.solve.limit == req->solve.limit);
    FUZZ_CHECK(again.solve.timeout_ms == req->solve.timeout_ms);
    FUZZ_CHECK(strcmp(again.solve.solver, req->solve.solver) == 0);
    msgpack_sbuffer_destroy(&sb);
}

/* Everything the daemon could answer to this request packs cleanly. */
static void check_answers(const struct rpc_request *req, const char *err)
{
    msgpack_sbuffer sb;

    msgpack_sbuffer_init(&sb);
    FUZZ_CHECK(rpc_pack_error(&sb, req->msgid, req->code, err) == 0);
    check_packed(&sb);
    msgpack_sbuffer_clear(&sb);
    FUZZ_CHECK(rpc_pack_pong(&sb, req->msgid) == 0);
    check_packed(&sb);
    if (req->code == RPC_OK && req->method == RPC_M_SOLVE) {
        struct rpc_solve_result r = {.solved = 1,
                                     .n = req->solve.n,
                                     .form = req->solve.form,
                                     .solution = req->solve.cells,
                                     .count = 1,
                                     .solver = "fuzz"};
        msgpack_sbuffer_clear(&sb);
        FUZZ_CHECK(rpc_pack_solve_result(&sb, req->msgid, &r) == 0);
        check_packed(&sb);
    }
    msgpack_sbuffer_destroy(&sb);
}

static void check_request(const struct rpc_request *req, const char *err)
{
    FUZZ_CHECK(req->type == RPC_MSG_REQUEST || req->type == RPC_MSG_NOTIFY);
    FUZZ_CHECK(memchr(req->method_name, '\0', sizeof(req->method_name)) != NULL);
    FUZZ_CHECK(proto_code_name(req->code) != NULL);
    if (req->code != RPC_OK)
        FUZZ_CHECK(memchr(err, '\0', RPC_ERR_SIZE) != NULL && err[0] != '\0');
    if (req->code == RPC_OK && req->type == RPC_MSG_REQUEST && req->method == RPC_M_SOLVE) {
        check_solve_params(&req->solve);
        check_solve_round_trip(req);
    }
    check_answers(req, req->code == RPC_OK ? "ok" : err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct rpc_request req; /* big (cells): keep it off the stack */
    char err[RPC_ERR_SIZE];
    msgpack_sbuffer sb;
    size_t off = 0;

    while (off < size) {
        memset(err, 'x', sizeof(err));
        ssize_t n = rpc_read(data + off, size - off, FUZZ_MAX_MESSAGE, &req, err, sizeof(err));
        FUZZ_CHECK(n == 0 || n == -E2BIG || n == -EBADMSG || n > 0);
        if (n == 0)
            break;
        if (n < 0) {
            /* The daemon sends an error note and closes the connection. */
            FUZZ_CHECK(memchr(err, '\0', sizeof(err)) != NULL && err[0] != '\0');
            msgpack_sbuffer_init(&sb);
            FUZZ_CHECK(
                rpc_pack_error_note(&sb, n == -E2BIG ? RPC_TOO_LARGE : RPC_BAD_REQUEST, err) == 0);
            check_packed(&sb);
            msgpack_sbuffer_destroy(&sb);
            break;
        }
        FUZZ_CHECK((size_t)n <= size - off && (size_t)n <= FUZZ_MAX_MESSAGE);
        check_request(&req, err);
        off += (size_t)n;
    }
    return 0;
}
