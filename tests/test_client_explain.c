/* test_client_explain.c -- explain and rate in libsudoku-client, against a fake daemon.
 *
 * A thread plays the daemon on one end of a socketpair.  It records every
 * request (method and params, re-packed) and answers through the test's
 * responder, at once or, for batches, each group in reverse order so that
 * the client must reorder.  Covered: the requests' encoding, well-formed
 * explanations and ratings copied field by field, the daemon's not_unique
 * refusal (an answer, the client stays usable), a table of malformed answers
 * (each a clear "protocol" error, never a crash or a partial explanation),
 * a rating batch in input order, and a connection lost mid-batch.  No real
 * daemon needed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "client/client_impl.h"
#include "tests/fake_peer.h"

#define PUZZLE4 "1..4..1..1..4..1" /* a 4x4 puzzle: cells 0..15, values 1..4 */
#define MARKS4                                                                                     \
    "1...12341234..3.1234.2341234123412341234123412341234123412341234" /* its pencil marks */

struct fake;
/* Pack the response to one request [0, msgid, method, params]. */
typedef void (*respond_fn)(struct fake *f, uint32_t msgid, const msgpack_object *params,
                           msgpack_packer *pk);

struct fake {
    int fd;
    respond_fn respond;
    int variant;            /* for the responder: which answer to give */
    int is_reverse;         /* hold requests and answer each quiet group last first */
    unsigned drop_after;    /* > 0: close after this many answers */
    unsigned answered;      /* answers sent */
    char method[16];        /* method of the last request */
    msgpack_sbuffer params; /* params of the last request, re-packed */
    struct held {
        uint32_t msgid;
        msgpack_sbuffer params;
    } held[256];
    unsigned held_len;
};

/* Answer msgid; returns -1 once the script says to hang up. */
static int answer(struct fake *f, uint32_t msgid, const msgpack_sbuffer *params)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_zone zone;
    msgpack_object o;
    size_t off = 0;

    if (f->drop_after && f->answered >= f->drop_after)
        return -1;
    msgpack_zone_init(&zone, 1024);
    msgpack_unpack(params->data, params->size, &off, &zone, &o);
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    fake_peer_reply_head(&pk, msgid);
    f->respond(f, msgid, &o, &pk);
    fake_peer_send_all(f->fd, sb.data, sb.size);
    msgpack_sbuffer_destroy(&sb);
    msgpack_zone_destroy(&zone);
    f->answered++;
    return 0;
}

static int flush_held(struct fake *f)
{
    int rc = 0;
    while (f->held_len > 0) {
        struct held *h = &f->held[--f->held_len];
        if (rc == 0)
            rc = answer(f, h->msgid, &h->params);
        msgpack_sbuffer_destroy(&h->params);
    }
    return rc;
}

/* One request arrived: note it, then answer now or hold it. */
static int take(struct fake *f, const msgpack_object *req)
{
    const msgpack_object *a = req->via.array.ptr;
    msgpack_packer pk;
    size_t len = a[2].via.str.size < sizeof(f->method) - 1 ? a[2].via.str.size : 0;

    memcpy(f->method, a[2].via.str.ptr, len);
    f->method[len] = '\0';
    msgpack_sbuffer_clear(&f->params);
    msgpack_packer_init(&pk, &f->params, msgpack_sbuffer_write);
    msgpack_pack_object(&pk, a[3]);
    if (!f->is_reverse)
        return answer(f, (uint32_t)a[1].via.u64, &f->params);
    struct held *h = &f->held[f->held_len++];
    h->msgid = (uint32_t)a[1].via.u64;
    msgpack_sbuffer_init(&h->params);
    msgpack_packer_init(&pk, &h->params, msgpack_sbuffer_write);
    msgpack_pack_object(&pk, a[3]);
    return f->held_len == sizeof(f->held) / sizeof(f->held[0]) ? flush_held(f) : 0;
}

static void *fake_main(void *arg)
{
    struct fake *f = arg;
    msgpack_unpacker u;
    msgpack_unpacked m;
    int rc = 0;

    msgpack_unpacker_init(&u, 1 << 16);
    msgpack_unpacked_init(&m);
    while (rc == 0) {
        struct pollfd pfd = {.fd = f->fd, .events = POLLIN};
        if (poll(&pfd, 1, 20) == 0) { /* quiet: the client waits for what we hold */
            rc = flush_held(f);
            continue;
        }
        msgpack_unpacker_reserve_buffer(&u, 4096);
        ssize_t n = recv(f->fd, msgpack_unpacker_buffer(&u), 4096, 0);
        if (n <= 0)
            break;
        msgpack_unpacker_buffer_consumed(&u, (size_t)n);
        while (rc == 0 && msgpack_unpacker_next(&u, &m) == MSGPACK_UNPACK_SUCCESS)
            rc = take(f, &m.data);
    }
    /* Hang up writing only, and read on until the client goes: closing with
     * unread requests would make the client see a reset instead of an end. */
    shutdown(f->fd, SHUT_WR);
    char junk[4096];
    while (rc != 0 && recv(f->fd, junk, sizeof(junk), 0) > 0)
        ;
    f->drop_after = 1; /* answer nothing more, just free */
    f->answered = 1;
    flush_held(f);
    msgpack_unpacked_destroy(&m);
    msgpack_unpacker_destroy(&u);
    close(f->fd);
    return NULL;
}

static struct sudoku_client *start_fake(struct fake *f, respond_fn respond)
{
    memset(f, 0, sizeof(*f));
    f->respond = respond;
    msgpack_sbuffer_init(&f->params);
    return fake_peer_client(&f->fd);
}

static void run_fake(struct fake *f, pthread_t *th)
{
    assert_int_equal(pthread_create(th, NULL, fake_main, f), 0);
}

static void stop_fake(struct fake *f, pthread_t th, struct sudoku_client *c)
{
    sudoku_client_free(c);
    pthread_join(th, NULL);
    msgpack_sbuffer_destroy(&f->params);
}

/* ------------------------------------------------------------------------ */
/* Packing answers */

static void pk_str(msgpack_packer *pk, const char *s)
{
    msgpack_pack_str_with_body(pk, s, strlen(s));
}

static void pk_pairs(msgpack_packer *pk, size_t len, const unsigned *cv)
{
    msgpack_pack_array(pk, len);
    for (size_t i = 0; i < len; i++) {
        msgpack_pack_array(pk, 2);
        msgpack_pack_unsigned_int(pk, cv[2 * i]);
        msgpack_pack_unsigned_int(pk, cv[2 * i + 1]);
    }
}

static void pk_error(msgpack_packer *pk, const char *code, const char *message)
{
    msgpack_pack_map(pk, 2);
    pk_str(pk, "code");
    pk_str(pk, code);
    pk_str(pk, "message");
    pk_str(pk, message);
    msgpack_pack_nil(pk);
}

/* Ways to spoil an explain answer (f->variant), one per row of the table
 * in test_explain_malformed. */
enum spoil {
    GOOD = 0,
    NOT_A_MAP,            /* the result is an array */
    NO_STEPS,             /* the steps key is missing */
    STEPS_NOT_ARRAY,      /* steps is a map */
    STEP_NOT_MAP,         /* a step is an integer */
    NO_TECHNIQUE,         /* a step has no technique */
    RATING_IS_STR,        /* a step's rating is a string */
    RATING_NEGATIVE,      /* a step's rating is -1.0 */
    RATING_NAN,           /* the summary rating is NaN */
    CELL_OUT_OF_RANGE,    /* a placement's cell is 16 on a 4x4 */
    VALUE_ZERO,           /* a placement's value is 0 */
    VALUE_TOO_BIG,        /* an elimination's value is 5 on a 4x4 */
    PAIR_OF_THREE,        /* a placement is [cell, value, extra] */
    PATTERN_OUT_OF_RANGE, /* a pattern cell is 99 */
    TEXT_NOT_STR,         /* a step's text is nil */
    BAD_STATUS,           /* status is "done" */
    NO_DIFFICULTY,        /* the difficulty key is missing */
    RESTORE_TOO_BIG,      /* a restore's value is 5 on a 4x4 */
    RESTORE_NOT_ARRAY,    /* restore is a string */
    SPOIL_COUNT
};

/* Two steps on PUZZLE4, or a spoiled version of them. */
static void pk_explanation(msgpack_packer *pk, enum spoil v)
{
    static const unsigned place1[] = {1, 2}, elim1[] = {2, 3, 5, 3}, place2[] = {2, 3};
    static const unsigned bad_cell[] = {16, 2}, bad_value[] = {1, 0}, big_value[] = {2, 5};
    static const unsigned restore2[] = {3, 4, 6, 1};

    msgpack_pack_nil(pk);
    if (v == NOT_A_MAP) {
        msgpack_pack_array(pk, 0);
        return;
    }
    msgpack_pack_map(pk, v == NO_STEPS || v == NO_DIFFICULTY ? 6 : 7);
    pk_str(pk, "status");
    pk_str(pk, v == BAD_STATUS ? "done" : "partial");
    pk_str(pk, "rating");
    msgpack_pack_double(pk, v == RATING_NAN ? NAN : 2.6);
    if (v != NO_DIFFICULTY) {
        pk_str(pk, "difficulty");
        pk_str(pk, "medium");
    }
    pk_str(pk, "hardest");
    pk_str(pk, "locked_candidates_pointing");
    pk_str(pk, "solver");
    pk_str(pk, "logic");
    pk_str(pk, "elapsed_us");
    msgpack_pack_uint32(pk, 42);
    if (v == NO_STEPS)
        return;
    pk_str(pk, "steps");
    if (v == STEPS_NOT_ARRAY) {
        msgpack_pack_map(pk, 0);
        return;
    }
    msgpack_pack_array(pk, 2);
    /* step 1: one placement, two eliminations, a pattern of three cells */
    msgpack_pack_map(pk, v == NO_TECHNIQUE ? 5 : 6);
    if (v != NO_TECHNIQUE) {
        pk_str(pk, "technique");
        pk_str(pk, "hidden_single");
    }
    pk_str(pk, "rating");
    if (v == RATING_IS_STR)
        pk_str(pk, "1.5");
    else
        msgpack_pack_double(pk, v == RATING_NEGATIVE ? -1.0 : 1.5);
    pk_str(pk, "placements");
    if (v == PAIR_OF_THREE) {
        msgpack_pack_array(pk, 1);
        msgpack_pack_array(pk, 3);
        msgpack_pack_uint8(pk, 1);
        msgpack_pack_uint8(pk, 2);
        msgpack_pack_uint8(pk, 3);
    } else {
        pk_pairs(pk, 1, v == CELL_OUT_OF_RANGE ? bad_cell : v == VALUE_ZERO ? bad_value : place1);
    }
    pk_str(pk, "eliminations");
    pk_pairs(pk, v == VALUE_TOO_BIG ? 1 : 2, v == VALUE_TOO_BIG ? big_value : elim1);
    pk_str(pk, "cells");
    msgpack_pack_array(pk, 3);
    msgpack_pack_uint8(pk, 0);
    msgpack_pack_uint8(pk, 3);
    msgpack_pack_uint8(pk, v == PATTERN_OUT_OF_RANGE ? 99 : 15);
    pk_str(pk, "text");
    if (v == TEXT_NOT_STR)
        msgpack_pack_nil(pk);
    else
        pk_str(pk, "hidden single: 2 can go only in r1c2 within row 1");
    /* step 2: no eliminations, no pattern, no text; two candidates to
     * restore */
    if (v == STEP_NOT_MAP) {
        msgpack_pack_uint8(pk, 7);
        return;
    }
    msgpack_pack_map(pk, 7);
    pk_str(pk, "restore");
    if (v == RESTORE_NOT_ARRAY)
        pk_str(pk, "3:4");
    else
        pk_pairs(pk, v == RESTORE_TOO_BIG ? 1 : 2, v == RESTORE_TOO_BIG ? big_value : restore2);
    pk_str(pk, "technique");
    pk_str(pk, "locked_candidates_pointing");
    pk_str(pk, "rating");
    msgpack_pack_double(pk, 2.6);
    pk_str(pk, "placements");
    pk_pairs(pk, 1, place2);
    pk_str(pk, "eliminations");
    pk_pairs(pk, 0, NULL);
    pk_str(pk, "cells");
    msgpack_pack_array(pk, 0);
    pk_str(pk, "text");
    pk_str(pk, "");
}

static void respond_explain(struct fake *f, uint32_t msgid, const msgpack_object *params,
                            msgpack_packer *pk)
{
    (void)msgid;
    (void)params;
    if (f->variant < 0)
        pk_error(pk, "not_unique", "more than one solution");
    else
        pk_explanation(pk, (enum spoil)f->variant);
}

/* The value of key in the options map (params[1]) of the last request. */
static void last_options(struct fake *f, msgpack_zone *zone, msgpack_object *params)
{
    size_t off = 0;
    msgpack_zone_init(zone, 1024);
    assert_int_equal(msgpack_unpack(f->params.data, f->params.size, &off, zone, params),
                     MSGPACK_UNPACK_SUCCESS);
    assert_int_equal(params->type, MSGPACK_OBJECT_ARRAY);
}

static const msgpack_object *opt(const msgpack_object *params, const char *key)
{
    if (params->via.array.size < 2)
        return NULL;
    const msgpack_object *m = &params->via.array.ptr[1];
    for (uint32_t i = 0; i < m->via.map.size; i++)
        if (m->via.map.ptr[i].key.via.str.size == strlen(key) &&
            memcmp(m->via.map.ptr[i].key.via.str.ptr, key, strlen(key)) == 0)
            return &m->via.map.ptr[i].val;
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* Tests: explain */

static void check_good_explanation(const struct sudoku_client_explanation *e)
{
    assert_int_equal(e->status, SUDOKU_CLIENT_EXPLAIN_PARTIAL);
    assert_int_equal(e->n, 4);
    assert_true(e->rating == 2.6);
    assert_string_equal(e->difficulty, "medium");
    assert_string_equal(e->hardest, "locked_candidates_pointing");
    assert_string_equal(e->solver, "logic");
    assert_int_equal(e->elapsed_us, 42);
    assert_int_equal(e->steps_len, 2);
    const struct sudoku_client_step *s = &e->steps[0];
    assert_string_equal(s->technique, "hidden_single");
    assert_true(s->rating == 1.5);
    assert_int_equal(s->placements_len, 1);
    assert_int_equal(s->placements[0].cell, 1);
    assert_int_equal(s->placements[0].value, 2);
    assert_int_equal(s->eliminations_len, 2);
    assert_int_equal(s->eliminations[1].cell, 5);
    assert_int_equal(s->eliminations[1].value, 3);
    assert_int_equal(s->cells_len, 3);
    assert_int_equal(s->cells[2], 15);
    assert_int_equal(s->restore_len, 0);
    assert_string_equal(s->text, "hidden single: 2 can go only in r1c2 within row 1");
    s = &e->steps[1];
    assert_string_equal(s->technique, "locked_candidates_pointing");
    assert_int_equal(s->placements_len, 1);
    assert_int_equal(s->placements[0].cell, 2);
    assert_int_equal(s->eliminations_len, 0);
    assert_int_equal(s->cells_len, 0);
    assert_string_equal(s->text, "");
    assert_int_equal(s->restore_len, 2);
    assert_int_equal(s->restore[0].cell, 3);
    assert_int_equal(s->restore[0].value, 4);
    assert_int_equal(s->restore[1].cell, 6);
    assert_int_equal(s->restore[1].value, 1);
}

static void test_explain_good(void **state)
{
    struct fake f;
    pthread_t th;
    struct sudoku_client_explanation *e = NULL;
    struct sudoku_client_error err;
    struct sudoku_client *c = start_fake(&f, respond_explain);
    struct sudoku_client_explain_opts o = {.solver = "logic",
                                           .steps = 1,
                                           .progress = "12.4..1..1..4..1",
                                           .progress_len = 16,
                                           .timeout_ms = 500,
                                           .candidates = MARKS4,
                                           .candidates_len = 64};
    msgpack_zone zone;
    msgpack_object params;
    (void)state;
    run_fake(&f, &th);
    assert_int_equal(sudoku_client_explain(c, PUZZLE4, 16, &o, &e, &err), 0);
    check_good_explanation(e);
    sudoku_client_explanation_free(e);
    /* the request: explain [puzzle, {solver, steps, progress, candidates,
     * timeout_ms}] */
    assert_string_equal(f.method, "explain");
    last_options(&f, &zone, &params);
    assert_int_equal(params.via.array.size, 2);
    assert_int_equal(params.via.array.ptr[0].via.str.size, 16);
    assert_int_equal(params.via.array.ptr[1].via.map.size, 5);
    assert_int_equal(opt(&params, "candidates")->via.str.size, 64);
    assert_memory_equal(opt(&params, "candidates")->via.str.ptr, MARKS4, 64);
    assert_int_equal(opt(&params, "steps")->via.u64, 1);
    assert_int_equal(opt(&params, "timeout_ms")->via.u64, 500);
    assert_memory_equal(opt(&params, "progress")->via.str.ptr, "12.4", 4);
    assert_memory_equal(opt(&params, "solver")->via.str.ptr, "logic", 5);
    msgpack_zone_destroy(&zone);
    /* no options: [puzzle] alone */
    assert_int_equal(sudoku_client_explain(c, PUZZLE4, 16, NULL, &e, &err), 0);
    sudoku_client_explanation_free(e);
    last_options(&f, &zone, &params);
    assert_int_equal(params.via.array.size, 1);
    msgpack_zone_destroy(&zone);
    sudoku_client_explanation_free(NULL);
    stop_fake(&f, th, c);
}

/* not_unique is the daemon's answer: -EREMOTEIO, nothing allocated, and the
 * connection goes on. */
static void test_explain_not_unique(void **state)
{
    struct fake f;
    pthread_t th;
    struct sudoku_client_explanation *e = (struct sudoku_client_explanation *)&f;
    struct sudoku_client_error err;
    struct sudoku_client *c = start_fake(&f, respond_explain);
    (void)state;
    f.variant = -1;
    run_fake(&f, &th);
    assert_int_equal(sudoku_client_explain(c, "1...............", 16, NULL, &e, &err), -EREMOTEIO);
    assert_null(e);
    assert_string_equal(err.code, "not_unique");
    assert_string_equal(err.message, "more than one solution");
    assert_int_equal(sudoku_client_broken(c, NULL), 0);
    assert_int_equal(sudoku_client_ping(c, NULL, &err), -EPROTO); /* answered, by the fake */
    stop_fake(&f, th, c);
}

static void test_explain_malformed(void **state)
{
    (void)state;
    for (int v = NOT_A_MAP; v < SPOIL_COUNT; v++) {
        struct fake f;
        pthread_t th;
        struct sudoku_client_explanation *e = NULL;
        struct sudoku_client_error err;
        struct sudoku_client *c = start_fake(&f, respond_explain);
        f.variant = v;
        run_fake(&f, &th);
        print_message("spoil %d\n", v);
        assert_int_equal(sudoku_client_explain(c, PUZZLE4, 16, NULL, &e, &err), -EPROTO);
        assert_null(e);
        assert_string_equal(err.code, "protocol");
        assert_non_null(strstr(err.message, "malformed explain"));
        stop_fake(&f, th, c);
    }
}

static void test_status_names(void **state)
{
    (void)state;
    assert_string_equal(sudoku_client_explain_status_name(SUDOKU_CLIENT_EXPLAIN_SOLVED), "solved");
    assert_string_equal(sudoku_client_explain_status_name(SUDOKU_CLIENT_EXPLAIN_PARTIAL),
                        "partial");
    assert_string_equal(sudoku_client_explain_status_name(SUDOKU_CLIENT_EXPLAIN_STUCK), "stuck");
    assert_string_equal(sudoku_client_status_name(SUDOKU_CLIENT_NOT_UNIQUE), "not_unique");
    /* the old values keep their numbers */
    assert_int_equal(SUDOKU_CLIENT_SOLVED, 0);
    assert_int_equal(SUDOKU_CLIENT_UNSOLVABLE, 1);
    assert_int_equal(SUDOKU_CLIENT_FAILED, 2);
}

/* ------------------------------------------------------------------------ */
/* Tests: rate */

/* Ratings: variant 0 well-formed (hardest echoes the puzzle text, so the
 * test can tell the answers apart), 1 not_unique for puzzles starting with
 * 'u', 2 a malformed map (logic missing), 3 the rating as an integer. */
static void respond_rate(struct fake *f, uint32_t msgid, const msgpack_object *params,
                         msgpack_packer *pk)
{
    const msgpack_object *p = &params->via.array.ptr[0];
    char text[64] = "";
    (void)msgid;
    if (p->type == MSGPACK_OBJECT_STR && p->via.str.size < sizeof(text))
        memcpy(text, p->via.str.ptr, p->via.str.size);
    else if (p->type == MSGPACK_OBJECT_ARRAY)
        snprintf(text, sizeof(text), "cells%u", (unsigned)p->via.array.size);
    if (f->variant == 1 && text[0] == 'u') {
        pk_error(pk, "not_unique", "no solution");
        return;
    }
    msgpack_pack_nil(pk);
    msgpack_pack_map(pk, f->variant == 2 ? 6 : 7);
    pk_str(pk, "rating");
    if (f->variant == 3)
        msgpack_pack_uint8(pk, 10);
    else
        msgpack_pack_double(pk, 2.6);
    pk_str(pk, "difficulty");
    pk_str(pk, "medium");
    pk_str(pk, "hardest");
    pk_str(pk, text);
    pk_str(pk, "steps");
    msgpack_pack_uint8(pk, 12);
    if (f->variant != 2) {
        pk_str(pk, "logic");
        msgpack_pack_true(pk);
    }
    pk_str(pk, "solver");
    pk_str(pk, "logic");
    pk_str(pk, "elapsed_us");
    msgpack_pack_uint8(pk, 9);
}

static void test_rate_one(void **state)
{
    struct fake f;
    pthread_t th;
    struct sudoku_client_rating r;
    struct sudoku_client *c = start_fake(&f, respond_rate);
    struct sudoku_client_explain_opts o = {.solver = "logic", .steps = 7, .timeout_ms = 100};
    msgpack_zone zone;
    msgpack_object params;
    (void)state;
    f.variant = 1;
    run_fake(&f, &th);
    assert_int_equal(sudoku_client_rate(c, PUZZLE4, 16, &o, &r), 0);
    assert_int_equal(r.status, SUDOKU_CLIENT_SOLVED);
    assert_true(r.rating == 2.6);
    assert_string_equal(r.difficulty, "medium");
    assert_string_equal(r.hardest, PUZZLE4);
    assert_int_equal(r.steps, 12);
    assert_int_equal(r.is_logic, 1);
    assert_string_equal(r.solver, "logic");
    assert_int_equal(r.elapsed_us, 9);
    /* rate sends solver and timeout_ms, never steps */
    assert_string_equal(f.method, "rate");
    last_options(&f, &zone, &params);
    assert_non_null(opt(&params, "solver"));
    assert_non_null(opt(&params, "timeout_ms"));
    assert_null(opt(&params, "steps"));
    msgpack_zone_destroy(&zone);
    /* not_unique: an answer with its own status */
    assert_int_equal(sudoku_client_rate(c, "u...............", 16, NULL, &r), 0);
    assert_int_equal(r.status, SUDOKU_CLIENT_NOT_UNIQUE);
    assert_string_equal(r.error.code, "not_unique");
    assert_string_equal(r.error.message, "no solution");
    /* an integer rating is still a rating */
    f.variant = 3;
    assert_int_equal(sudoku_client_rate(c, PUZZLE4, 16, NULL, &r), 0);
    assert_true(r.rating == 10.0);
    /* a map without logic is malformed */
    f.variant = 2;
    assert_int_equal(sudoku_client_rate(c, PUZZLE4, 16, NULL, &r), -EPROTO);
    assert_int_equal(r.status, SUDOKU_CLIENT_FAILED);
    assert_string_equal(r.error.code, "protocol");
    stop_fake(&f, th, c);
}

/* What the rating callback saw. */
struct seen {
    uint64_t calls, rated, not_unique, failed;
    int is_out_of_order;
    char last_code[SUDOKU_CLIENT_CODE_SIZE];
};

/* Tag k is puzzle k: its text is "p<k>", or "u<k>" for every fifth one, or
 * cells for every seventh one; the answer must be that puzzle's. */
static void puzzle_text(uint64_t k, char *out, size_t size)
{
    snprintf(out, size, "%c%llu", k % 5 == 0 ? 'u' : 'p', (unsigned long long)k);
}

static void on_rating(void *arg, uint64_t seq, uint64_t tag, const struct sudoku_client_rating *r)
{
    struct seen *s = arg;
    char want[32];
    if (seq != s->calls || tag != seq)
        s->is_out_of_order = 1;
    s->calls++;
    if (tag % 7 == 3)
        snprintf(want, sizeof(want), "cells16");
    else
        puzzle_text(tag, want, sizeof(want));
    if (r->status == SUDOKU_CLIENT_SOLVED) {
        s->rated++;
        if (strcmp(r->hardest, want) != 0)
            s->is_out_of_order = 1;
    } else if (r->status == SUDOKU_CLIENT_NOT_UNIQUE) {
        s->not_unique++;
        if (want[0] != 'u')
            s->is_out_of_order = 1;
    } else {
        s->failed++;
        memcpy(s->last_code, r->error.code, sizeof(s->last_code));
    }
}

static uint64_t add_puzzles(struct sudoku_batch *b, uint64_t count, struct sudoku_client_error *err)
{
    static const uint8_t cells[16] = {1, 0, 0, 4, 0, 0, 1, 0, 0, 1, 0, 0, 4, 0, 0, 1};
    uint64_t k;
    for (k = 0; k < count; k++) {
        char text[32];
        int rc;
        puzzle_text(k, text, sizeof(text));
        if (k % 7 == 3)
            rc = sudoku_batch_add_cells(b, 4, cells, k, err);
        else if (k == 11)
            rc = sudoku_batch_add_failed(b, k, "bad_puzzle", "unreadable", err);
        else
            rc = sudoku_batch_add(b, text, strlen(text), k, err);
        if (rc < 0)
            break;
    }
    return k;
}

/* Answers come back last first; the callback sees them in input order,
 * each the answer to its own puzzle, the locally failed one in its place. */
static void test_rate_batch_order(void **state)
{
    struct fake f;
    pthread_t th;
    struct seen s = {0};
    struct sudoku_batch *b = NULL;
    struct sudoku_client_error err;
    struct sudoku_client *c = start_fake(&f, respond_rate);
    struct sudoku_client_explain_opts o = {.timeout_ms = 1000};
    (void)state;
    f.variant = 1;
    f.is_reverse = 1;
    run_fake(&f, &th);
    assert_int_equal(sudoku_batch_new_rate(c, 0, &o, on_rating, &s, &b), -EINVAL);
    assert_int_equal(sudoku_batch_new_rate(c, 4, &o, NULL, &s, &b), -EINVAL);
    assert_int_equal(sudoku_batch_new_rate(c, 16, &o, on_rating, &s, &b), 0);
    assert_int_equal(add_puzzles(b, 500, &err), 500);
    assert_int_equal(sudoku_batch_finish(b, &err), 0);
    sudoku_batch_free(b);
    assert_int_equal(s.calls, 500);
    assert_false(s.is_out_of_order);
    uint64_t want_not_unique = 0; /* text "u<k>": k % 5 == 0 and not sent as cells */
    for (uint64_t k = 0; k < 500; k++)
        want_not_unique += k % 5 == 0 && k % 7 != 3;
    assert_int_equal(s.not_unique, want_not_unique);
    assert_int_equal(s.failed, 1);
    assert_string_equal(s.last_code, "bad_puzzle");
    assert_string_equal(f.method, "rate");
    stop_fake(&f, th, c);
}

/* A daemon gone mid-batch: every added puzzle still gets one callback. */
static void test_rate_batch_drop(void **state)
{
    struct fake f;
    pthread_t th;
    struct seen s = {0};
    struct sudoku_batch *b = NULL;
    struct sudoku_client_error err;
    struct sudoku_client *c = start_fake(&f, respond_rate);
    (void)state;
    f.drop_after = 10;
    run_fake(&f, &th);
    assert_int_equal(sudoku_batch_new_rate(c, 4, NULL, on_rating, &s, &b), 0);
    uint64_t added = add_puzzles(b, 1000, &err);
    int rc = added < 1000 ? -1 : sudoku_batch_finish(b, &err);
    assert_true(rc < 0);
    assert_string_equal(err.code, "closed");
    assert_int_equal(s.calls, added);
    assert_int_equal(s.rated + s.not_unique, 10);
    assert_false(s.is_out_of_order);
    sudoku_batch_free(b);
    stop_fake(&f, th, c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_explain_good),      cmocka_unit_test(test_explain_not_unique),
        cmocka_unit_test(test_explain_malformed), cmocka_unit_test(test_status_names),
        cmocka_unit_test(test_rate_one),          cmocka_unit_test(test_rate_batch_order),
        cmocka_unit_test(test_rate_batch_drop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
