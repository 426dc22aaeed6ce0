/* explain.c -- explain and rate, one request at a time, for libsudoku-client.
 *
 * The calls: each packs its request with the client's end of proto/explain.c
 * into the connection's write buffer and runs it through client__call();
 * batch.c pipelines rate requests with the same encoder and decoder.  An
 * explanation is the one answer the library allocates (one block, see
 * proto/explain.c); a refused request leaves the connection usable.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "client/client_impl.h"
#include "proto/codec.h"

/* What sudoku_client_explain waits for. */
struct explain_wait {
    unsigned n;
    struct sudoku_client_explanation **out;
    struct sudoku_client_error *err;
    int rc;
};

static void on_explain(void *arg, const struct wire_msg *m)
{
    struct explain_wait *w = arg;
    struct sudoku_client_error e;

    if (m->error->type != MSGPACK_OBJECT_NIL) {
        w->rc = -EREMOTEIO;
        if (wire_decode_error(m->error, &e) < 0) {
            wire_set_error(&e, "protocol", "malformed error in an explain response");
            w->rc = -EPROTO;
        }
        if (w->err)
            *w->err = e;
        return;
    }
    w->rc = wire_decode_explain(m->result, w->n, w->out);
    if (w->rc == -ENOMEM)
        wire_set_error(w->err, "io", "out of memory for the explanation");
    else if (w->rc < 0)
        wire_set_error(w->err, "protocol", "malformed explain response from the daemon");
}

/* The side of a line-form puzzle, for checking the cells of the answer; 25
 * (the largest) when it does not parse (the daemon will say why). */
static unsigned puzzle_side(const char *puzzle, size_t len)
{
    uint8_t cells[SUDOKU_CLIENT_MAX_CELLS];
    unsigned n = 0;

    if (len > 4096 || codec_parse_line(puzzle, len, &n, cells, NULL, 0) < 0)
        return 25;
    return n;
}

int sudoku_client_explain_rules(struct sudoku_client *c, const char *puzzle, size_t len,
                                const struct sudoku_client_explain_opts *opts,
                                const struct sudoku_client_rules *rules,
                                struct sudoku_client_explanation **out,
                                struct sudoku_client_error *err)
{
    struct explain_wait w = {.n = puzzle_side(puzzle, len), .out = out, .err = err};
    uint32_t msgid = c->next_msgid++;

    *out = NULL;
    int pack_rc = c->failed ? 0 : wire_pack_explain(&c->wbuf, msgid, puzzle, len, opts, rules);
    int rc = client__call(c, pack_rc, msgid, on_explain, &w, err);
    return rc < 0 ? rc : w.rc;
}

int sudoku_client_explain(struct sudoku_client *c, const char *puzzle, size_t len,
                          const struct sudoku_client_explain_opts *opts,
                          struct sudoku_client_explanation **out, struct sudoku_client_error *err)
{
    return sudoku_client_explain_rules(c, puzzle, len, opts, NULL, out, err);
}

void sudoku_client_explanation_free(struct sudoku_client_explanation *e)
{
    free(e); /* the first member of its one block (proto/explain.c) */
}

const char *sudoku_client_explain_status_name(enum sudoku_client_explain_status status)
{
    switch (status) {
    case SUDOKU_CLIENT_EXPLAIN_SOLVED:
        return proto_key(PROTO_K_SOLVED);
    case SUDOKU_CLIENT_EXPLAIN_PARTIAL:
        return proto_key(PROTO_K_PARTIAL);
    default:
        return proto_key(PROTO_K_STUCK);
    }
}

/* What sudoku_client_rate waits for. */
struct rate_wait {
    struct sudoku_client_rating *res;
    int rc;
};

static void on_rate(void *arg, const struct wire_msg *m)
{
    struct rate_wait *w = arg;
    w->rc = wire_decode_rate(m->error, m->result, w->res) < 0 ? -EPROTO : 0;
}

int sudoku_client_rate(struct sudoku_client *c, const char *puzzle, size_t len,
                       const struct sudoku_client_explain_opts *opts,
                       struct sudoku_client_rating *res)
{
    return sudoku_client_rate_rules(c, puzzle, len, opts, NULL, res);
}

int sudoku_client_rate_rules(struct sudoku_client *c, const char *puzzle, size_t len,
                             const struct sudoku_client_explain_opts *opts,
                             const struct sudoku_client_rules *rules,
                             struct sudoku_client_rating *res)
{
    struct sudoku_client_options o = {0};
    struct rate_wait w = {.res = res};
    struct sudoku_client_error e = {{0}, {0}};
    uint32_t msgid = c->next_msgid++;

    if (opts) {
        o.solver = opts->solver;
        o.timeout_ms = opts->timeout_ms;
    }
    int pack_rc = c->failed ? 0 : wire_pack_rate_str(&c->wbuf, msgid, puzzle, len, &o, rules);
    int rc = client__call(c, pack_rc, msgid, on_rate, &w, &e);
    if (rc < 0) {
        memset(res, 0, sizeof(*res));
        res->status = SUDOKU_CLIENT_FAILED;
        res->error = e;
        return rc;
    }
    return w.rc;
}
