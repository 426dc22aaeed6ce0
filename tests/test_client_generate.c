/* test_client_generate.c -- the library's generate calls against a fake daemon.
 *
 * A thread plays the daemon on one end of a socketpair.  It decodes every
 * generate request (so the tests can check what the library sent) and
 * answers as its script says: well-formed puzzles (4x4, made from one valid
 * grid by blanking cells, seeds derived from the request's), an error map,
 * or one of many malformed answers, each of which must become a clear
 * "protocol" error with no crash and no half answer.  The good answers come
 * back in reverse order of the requests, so the pipelined form must reorder.
 * No real daemon needed (test_generate_e2e.c runs the real one).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client/client_impl.h"
#include "tests/fake_peer.h"

#define GRID4 "1234341221434321" /* a valid 4x4 grid: the fake's solutions */

/* How the fake answers. */
enum script {
    S_GOOD,          /* count puzzles (or `give` when set), reversed in groups */
    S_ERROR,         /* an error map */
    S_NOT_ARRAY,     /* result is a map */
    S_EMPTY,         /* result is [] */
    S_TOO_MANY,      /* count + 1 puzzles */
    S_NOT_MAP,       /* an element is an int */
    S_NO_PUZZLE,     /* puzzle missing */
    S_SHORT_PUZZLE,  /* puzzle of 15 cells */
    S_BAD_SYMBOL,    /* puzzle with a 'Z' */
    S_BLANK_SOL,     /* solution has a blank */
    S_CHANGED,       /* solution changes a given */
    S_SIZE_DIFFERS,  /* 9x9 solution for a 4x4 puzzle */
    S_GIVENS_WRONG,  /* givens off by one */
    S_NO_SEED,       /* seed missing */
    S_NEG_SEED,      /* seed negative */
    S_RATING_STR,    /* rating is a string */
    S_LONG_WORD,     /* difficulty of 40 bytes */
    S_ERROR_NO_CODE, /* an error map without a code */
    S_RULES          /* as S_GOOD, each puzzle with rules: windows, a layout, cage i */
};

/* What the fake saw of the last request. */
struct seen_req {
    char method[16];
    unsigned params_len; /* 0 or 1 */
    unsigned keys;       /* options in the map */
    uint64_t size, count, seed, timeout_ms;
    int has_seed, has_minimal, minimal, has_min, has_max;
    double min_rating, max_rating;
    char symmetry[16], difficulty[16], solver[16];
};

/* The thread touches its fields only under mu (the tests too, through
 * fake_last and fake_set), so the sanitizers see the order. */
struct fake {
    pthread_mutex_t mu;
    int fd;
    enum script script;
    unsigned give;       /* S_GOOD: answer this many puzzles (0: count) */
    unsigned drop_after; /* close after this many answers (0: never) */
    unsigned answered;
    struct seen_req last; /* of the last request */
    uint32_t pending[64]; /* msgids not yet answered (S_GOOD) */
    uint64_t pcount[64], pseed[64];
    unsigned pending_len;
};

static void pstr(msgpack_packer *pk, const char *s)
{
    msgpack_pack_str_with_body(pk, s, strlen(s));
}

/* Puzzle i of an answer: GRID4 with cells i%16 and 15 blanked. */
static void make_puzzle(unsigned i, char *out, unsigned *givens)
{
    memcpy(out, GRID4, 17);
    out[i % 16] = '.';
    out[15] = '.';
    *givens = i % 16 == 15 ? 15 : 14;
}

/* One puzzle map, well-formed unless the script breaks it (in puzzle 0). */
static void pack_one(msgpack_packer *pk, enum script s, unsigned i, uint64_t seed)
{
    char puzzle[17], sol[17];
    unsigned givens;
    int broken = i == 0;
    make_puzzle(i, puzzle, &givens);
    memcpy(sol, GRID4, 17);
    if (broken && s == S_NOT_MAP) {
        msgpack_pack_int(pk, 7);
        return;
    }
    if (broken && s == S_SHORT_PUZZLE)
        puzzle[15] = '\0';
    if (broken && s == S_BAD_SYMBOL)
        puzzle[3] = 'Z';
    if (broken && s == S_BLANK_SOL)
        sol[2] = '.';
    if (broken && s == S_CHANGED)
        sol[1] = '3'; /* the given at cell 1 is 2 */
    msgpack_pack_map(pk, broken && (s == S_NO_PUZZLE || s == S_NO_SEED) ? 6 : s == S_RULES ? 8 : 7);
    if (s == S_RULES) { /* windows, the boxes as a layout, one cage [i + 3, [i, 15]] */
        pstr(pk, "rules");
        msgpack_pack_map(pk, 3);
        pstr(pk, "windows");
        msgpack_pack_true(pk);
        pstr(pk, "regions");
        pstr(pk, "1122112233443344");
        pstr(pk, "cages");
        msgpack_pack_array(pk, 1);
        msgpack_pack_array(pk, 2);
        msgpack_pack_unsigned_int(pk, i + 3);
        msgpack_pack_array(pk, 2);
        msgpack_pack_unsigned_int(pk, i % 15);
        msgpack_pack_unsigned_int(pk, 15);
    }
    if (!(broken && s == S_NO_PUZZLE)) {
        pstr(pk, "puzzle");
        pstr(pk, puzzle);
    }
    pstr(pk, "solution");
    if (broken && s == S_SIZE_DIFFERS)
        pstr(pk, "534678912672195348198342567859761423426853791713924856961537284287419635"
                 "345286179");
    else
        pstr(pk, sol);
    pstr(pk, "givens");
    msgpack_pack_unsigned_int(pk, givens + (broken && s == S_GIVENS_WRONG));
    if (!(broken && s == S_NO_SEED)) {
        pstr(pk, "seed");
        if (broken && s == S_NEG_SEED)
            msgpack_pack_int64(pk, -5);
        else
            msgpack_pack_uint64(pk, seed + i);
    }
    pstr(pk, "rating");
    if (broken && s == S_RATING_STR)
        pstr(pk, "hard");
    else
        msgpack_pack_double(pk, 1.5 + i);
    pstr(pk, "difficulty");
    pstr(pk, broken && s == S_LONG_WORD ? "a-difficulty-name-that-is-far-too-long" : "easy");
    pstr(pk, "symmetry");
    pstr(pk, "none");
}

static void answer(struct fake *f, uint32_t msgid, uint64_t count, uint64_t seed)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    fake_peer_reply_head(&pk, msgid);
    if (f->script == S_ERROR || f->script == S_ERROR_NO_CODE) {
        msgpack_pack_map(&pk, f->script == S_ERROR ? 2 : 1);
        if (f->script == S_ERROR) {
            pstr(&pk, "code");
            pstr(&pk, "bad_request");
        }
        pstr(&pk, "message");
        pstr(&pk, "unknown symmetry: want none, rotate180, rotate90, mirror, flip or diagonal");
        msgpack_pack_nil(&pk);
    } else if (f->script == S_NOT_ARRAY) {
        msgpack_pack_nil(&pk);
        msgpack_pack_map(&pk, 0);
    } else {
        uint64_t n = f->script == S_EMPTY      ? 0
                     : f->script == S_TOO_MANY ? count + 1
                     : f->give                 ? f->give
                                               : count;
        msgpack_pack_nil(&pk);
        msgpack_pack_array(&pk, (uint32_t)n);
        for (unsigned i = 0; i < n; i++)
            pack_one(&pk, f->script, i, seed);
    }
    fake_peer_send_all(f->fd, sb.data, sb.size);
    msgpack_sbuffer_destroy(&sb);
    f->answered++;
}

static void copy_s(const msgpack_object *v, char *out, size_t size)
{
    size_t len = v->via.str.size < size - 1 ? v->via.str.size : size - 1;
    memcpy(out, v->via.str.ptr, len);
    out[len] = '\0';
}

/* Record one option of the request. */
static void note_option(struct seen_req *r, const msgpack_object *k, const msgpack_object *v)
{
    char key[16];
    copy_s(k, key, sizeof(key));
    r->keys++;
    if (!strcmp(key, "size"))
        r->size = v->via.u64;
    else if (!strcmp(key, "count"))
        r->count = v->via.u64;
    else if (!strcmp(key, "seed")) {
        r->seed = v->via.u64;
        r->has_seed = v->type == MSGPACK_OBJECT_POSITIVE_INTEGER;
    } else if (!strcmp(key, "timeout_ms"))
        r->timeout_ms = v->via.u64;
    else if (!strcmp(key, "minimal")) {
        r->has_minimal = v->type == MSGPACK_OBJECT_BOOLEAN;
        r->minimal = v->via.boolean;
    } else if (!strcmp(key, "min_rating")) {
        r->has_min = v->type == MSGPACK_OBJECT_FLOAT64;
        r->min_rating = v->via.f64;
    } else if (!strcmp(key, "max_rating")) {
        r->has_max = v->type == MSGPACK_OBJECT_FLOAT64;
        r->max_rating = v->via.f64;
    } else if (!strcmp(key, "symmetry"))
        copy_s(v, r->symmetry, sizeof(r->symmetry));
    else if (!strcmp(key, "difficulty"))
        copy_s(v, r->difficulty, sizeof(r->difficulty));
    else if (!strcmp(key, "solver"))
        copy_s(v, r->solver, sizeof(r->solver));
}

/* Decode one request into f->last.  Returns 0 or -1 (not a request). */
static int note_request(struct fake *f, const msgpack_object *o, uint32_t *msgid)
{
    struct seen_req *r = &f->last;
    memset(r, 0, sizeof(*r));
    if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != 4)
        return -1;
    const msgpack_object *a = o->via.array.ptr;
    *msgid = (uint32_t)a[1].via.u64;
    copy_s(&a[2], r->method, sizeof(r->method));
    r->params_len = a[3].via.array.size;
    if (r->params_len == 1 && a[3].via.array.ptr[0].type == MSGPACK_OBJECT_MAP) {
        const msgpack_object *m = &a[3].via.array.ptr[0];
        for (uint32_t i = 0; i < m->via.map.size; i++)
            note_option(r, &m->via.map.ptr[i].key, &m->via.map.ptr[i].val);
    }
    return 0;
}

/* Answer what is pending, last first.  Returns 0, or -1 to close. */
static int flush_pending(struct fake *f)
{
    while (f->pending_len > 0) {
        if (f->drop_after && f->answered >= f->drop_after)
            return -1;
        f->pending_len--;
        answer(f, f->pending[f->pending_len], f->pcount[f->pending_len], f->pseed[f->pending_len]);
    }
    return 0;
}

static int take_request(struct fake *f, const uint8_t *p, size_t len)
{
    msgpack_zone zone;
    msgpack_object o;
    size_t off = 0;
    uint32_t msgid = 0;
    int rc = -1;
    msgpack_zone_init(&zone, 1024);
    if (msgpack_unpack((const char *)p, len, &off, &zone, &o) == MSGPACK_UNPACK_SUCCESS &&
        note_request(f, &o, &msgid) == 0 && f->pending_len < 64) {
        f->pending[f->pending_len] = msgid;
        f->pcount[f->pending_len] = f->last.count ? f->last.count : 1;
        f->pseed[f->pending_len] = f->last.seed;
        f->pending_len++;
        rc = 0;
    }
    msgpack_zone_destroy(&zone);
    return rc;
}

static int on_request(void *arg, const uint8_t *p, size_t len)
{
    struct fake *f = arg;
    pthread_mutex_lock(&f->mu);
    int rc = take_request(f, p, len);
    pthread_mutex_unlock(&f->mu);
    return rc;
}

/* a quiet moment means the client waits: answer what we hold */
static int on_quiet(void *arg)
{
    struct fake *f = arg;
    pthread_mutex_lock(&f->mu);
    int rc = flush_pending(f);
    pthread_mutex_unlock(&f->mu);
    return rc;
}

static void *fake_main(void *arg)
{
    static const struct fake_peer_ops ops = {on_request, on_quiet, NULL};
    struct fake *f = arg;
    fake_peer_serve(f->fd, &ops, f);
    return NULL;
}

static struct sudoku_client *start_fake(struct fake *f, pthread_t *th, enum script script)
{
    memset(f, 0, sizeof(*f));
    pthread_mutex_init(&f->mu, NULL);
    f->script = script;
    struct sudoku_client *c = fake_peer_client(&f->fd);
    assert_int_equal(pthread_create(th, NULL, fake_main, f), 0);
    return c;
}

static void stop_fake(struct fake *f, struct sudoku_client *c, pthread_t th)
{
    sudoku_client_free(c);
    pthread_join(th, NULL);
    pthread_mutex_destroy(&f->mu);
}

/* What the fake saw of the last request. */
static struct seen_req fake_last(struct fake *f)
{
    pthread_mutex_lock(&f->mu);
    struct seen_req r = f->last;
    pthread_mutex_unlock(&f->mu);
    return r;
}

/* Change the script and the number of puzzles to give. */
static void fake_set(struct fake *f, enum script script, unsigned give)
{
    pthread_mutex_lock(&f->mu);
    f->script = script;
    f->give = give;
    pthread_mutex_unlock(&f->mu);
}

/* ------------------------------------------------------------------------ */
/* Tests */

/* Every option set is sent under its wire key with its wire type. */
static void test_sends_every_option(void **state)
{
    (void)state;
    struct fake f;
    pthread_t th;
    struct sudoku_client *c = start_fake(&f, &th, S_GOOD);
    struct sudoku_client_generate_opts o = {.size = 4,
                                            .count = 3,
                                            .seed = UINT64_MAX - 2,
                                            .has_seed = 1,
                                            .symmetry = "rotate180",
                                            .is_not_minimal = 1,
                                            .min_rating = 1.5,
                                            .has_min_rating = 1,
                                            .max_rating = 4.25,
                                            .has_max_rating = 1,
                                            .solver = "dlx",
                                            .timeout_ms = 750};
    struct sudoku_client_puzzle *p = NULL;
    struct sudoku_client_error err;
    size_t len = 0;
    assert_int_equal(sudoku_client_generate(c, &o, &p, &len, &err), 0);
    struct seen_req last = fake_last(&f);
    assert_string_equal(last.method, "generate");
    assert_int_equal(last.params_len, 1);
    assert_int_equal(last.keys, 9);
    assert_int_equal(last.size, 4);
    assert_int_equal(last.count, 3);
    assert_true(last.has_seed);
    assert_true(last.seed == UINT64_MAX - 2);
    assert_string_equal(last.symmetry, "rotate180");
    assert_true(last.has_minimal && !last.minimal);
    assert_true(last.has_min && last.min_rating == 1.5);
    assert_true(last.has_max && last.max_rating == 4.25);
    assert_string_equal(last.solver, "dlx");
    assert_int_equal(last.timeout_ms, 750);
    assert_int_equal(len, 3);
    sudoku_client_puzzles_free(p);

    /* No options at all: params []; a difficulty alone: one key. */
    assert_int_equal(sudoku_client_generate(c, NULL, &p, &len, &err), 0);
    last = fake_last(&f);
    assert_int_equal(last.params_len, 0);
    assert_int_equal(len, 1);
    sudoku_client_puzzles_free(p);
    struct sudoku_client_generate_opts d = {.difficulty = "hard"};
    assert_int_equal(sudoku_client_generate(c, &d, &p, &len, &err), 0);
    last = fake_last(&f);
    assert_int_equal(last.keys, 1);
    assert_string_equal(last.difficulty, "hard");
    sudoku_client_puzzles_free(p);
    stop_fake(&f, c, th);
}

/* A good answer is decoded field by field, the puzzle in the '.' form. */
static void test_decodes_puzzles(void **state)
{
    (void)state;
    struct fake f;
    pthread_t th;
    struct sudoku_client *c = start_fake(&f, &th, S_GOOD);
    struct sudoku_client_generate_opts o = {.count = 5, .seed = 40, .has_seed = 1};
    struct sudoku_client_puzzle *p = NULL;
    struct sudoku_client_error err;
    size_t len = 0;
    assert_int_equal(sudoku_client_generate(c, &o, &p, &len, &err), 0);
    assert_int_equal(len, 5);
    for (unsigned i = 0; i < len; i++) {
        char want[17];
        unsigned givens;
        make_puzzle(i, want, &givens);
        assert_int_equal(p[i].n, 4);
        assert_string_equal(p[i].puzzle, want);
        assert_string_equal(p[i].solution, GRID4);
        assert_int_equal(p[i].givens, givens);
        assert_true(p[i].seed == 40 + i);
        assert_true(p[i].rating == 1.5 + i);
        assert_string_equal(p[i].difficulty, "easy");
        assert_string_equal(p[i].symmetry, "none");
    }
    sudoku_client_puzzles_free(p);
    sudoku_client_puzzles_free(NULL);
    stop_fake(&f, c, th);
}

/* A variant request: the rules map goes out, each puzzle's rules come
 * back in the one block the caller frees (a copy of the batch's). */
static void test_generate_rules(void **state)
{
    (void)state;
    struct fake f;
    pthread_t th;
    struct sudoku_client *c = start_fake(&f, &th, S_RULES);
    struct sudoku_client_generate_opts o = {.count = 3, .seed = 9, .has_seed = 1};
    const struct sudoku_client_rules draw = {
        SUDOKU_CLIENT_RULE_WINDOWS | SUDOKU_CLIENT_RULE_DRAW_CAGES, NULL, 0, NULL, 0};
    struct sudoku_client_variant *v = NULL;
    struct sudoku_client_error err;
    size_t len = 0;
    assert_int_equal(sudoku_client_generate_rules(c, &o, &draw, &v, &len, &err), 0);
    assert_int_equal(fake_last(&f).keys, 3); /* count, seed, rules */
    assert_int_equal(len, 3);
    for (unsigned i = 0; i < len; i++) {
        const struct sudoku_client_rules *r = &v[i].rules;
        assert_string_equal(v[i].puzzle.solution, GRID4);
        assert_true(v[i].puzzle.seed == 9 + i);
        assert_int_equal(r->flags, SUDOKU_CLIENT_RULE_WINDOWS);
        assert_int_equal(r->regions_len, 16);
        assert_memory_equal(r->regions, "1122112233443344", 16);
        assert_int_equal(r->cages_len, 1);
        assert_int_equal(r->cages[0].sum, i + 3);
        assert_int_equal(r->cages[0].cells_len, 2);
        assert_int_equal(r->cages[0].cells[0], i % 15);
        assert_int_equal(r->cages[0].cells[1], 15);
    }
    sudoku_client_variants_free(v);
    sudoku_client_variants_free(NULL);
    stop_fake(&f, c, th);
}

/* The daemon's error comes back with its code and message. */
static void test_error_answer(void **state)
{
    (void)state;
    struct fake f;
    pthread_t th;
    struct sudoku_client *c = start_fake(&f, &th, S_ERROR);
    struct sudoku_client_generate_opts o = {.symmetry = "spiral"};
    struct sudoku_client_puzzle *p = (void *)&o;
    struct sudoku_client_error err;
    size_t len = 9;
    assert_int_equal(sudoku_client_generate(c, &o, &p, &len, &err), -EPROTO);
    assert_null(p);
    assert_int_equal(len, 0);
    assert_string_equal(err.code, "bad_request");
    assert_non_null(strstr(err.message, "rotate180"));
    assert_int_equal(sudoku_client_broken(c, NULL), 0);
    stop_fake(&f, c, th);
}

/* Malformed answers: each a "protocol" error naming the problem, the
 * connection still usable. */
static const struct {
    enum script script;
    const char *why; /* part of the message */
} malformed[] = {
    {S_NOT_ARRAY, "not an array"},           /* a map */
    {S_EMPTY, "not an array of 1..2"},       /* nothing */
    {S_TOO_MANY, "not an array of 1..2"},    /* more than asked */
    {S_NOT_MAP, "puzzle 0: not a map"},      /* an int */
    {S_NO_PUZZLE, "no puzzle"},              /* key missing */
    {S_SHORT_PUZZLE, "no puzzle"},           /* 15 cells */
    {S_BAD_SYMBOL, "no puzzle"},             /* 'Z' */
    {S_BLANK_SOL, "blanks"},                 /* incomplete solution */
    {S_CHANGED, "changes a given"},          /* not the puzzle's */
    {S_SIZE_DIFFERS, "size"},                /* 9x9 for 4x4 */
    {S_GIVENS_WRONG, "givens"},              /* miscounted */
    {S_NO_SEED, "no seed"},                  /* key missing */
    {S_NEG_SEED, "no seed"},                 /* not a uint64 */
    {S_RATING_STR, "rating"},                /* a string */
    {S_LONG_WORD, "difficulty or symmetry"}, /* over the field */
    {S_ERROR_NO_CODE, "malformed error"},    /* error map without code */
};

static void test_malformed_answers(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(malformed) / sizeof(malformed[0]); i++) {
        struct fake f;
        pthread_t th;
        struct sudoku_client *c = start_fake(&f, &th, malformed[i].script);
        struct sudoku_client_generate_opts o = {.count = 2};
        struct sudoku_client_puzzle *p = NULL;
        struct sudoku_client_error err;
        size_t len = 0;
        assert_int_equal(sudoku_client_generate(c, &o, &p, &len, &err), -EPROTO);
        assert_null(p);
        assert_string_equal(err.code, "protocol");
        if (!strstr(err.message, malformed[i].why))
            fail_msg("case %zu: \"%s\" lacks \"%s\"", i, err.message, malformed[i].why);
        assert_int_equal(sudoku_client_broken(c, NULL), 0);
        /* still usable: a ping-free check is another request answered */
        fake_set(&f, S_GOOD, 0);
        assert_int_equal(sudoku_client_generate(c, &o, &p, &len, &err), 0);
        assert_int_equal(len, 2);
        sudoku_client_puzzles_free(p);
        stop_fake(&f, c, th);
    }
}

/* What the batch callback saw. */
struct seen {
    uint64_t calls, puzzles, failed;
    int is_out_of_order;
    char last_code[SUDOKU_CLIENT_CODE_SIZE];
};

static void on_chunk(void *arg, uint64_t seq, uint64_t tag, const struct sudoku_client_puzzle *p,
                     size_t len, const struct sudoku_client_error *err)
{
    struct seen *s = arg;
    if (seq != s->calls || tag != seq * 7)
        s->is_out_of_order = 1;
    s->calls++;
    if (err) {
        assert_null(p);
        assert_int_equal(len, 0);
        s->failed++;
        memcpy(s->last_code, err->code, sizeof(s->last_code));
        return;
    }
    /* each request asked count = seq % 3 + 1 with seed 1000 * seq */
    if (len != seq % 3 + 1 || p[0].seed != 1000 * seq)
        s->is_out_of_order = 1;
    s->puzzles += len;
}

/* Many requests, answered in reverse groups, delivered in order. */
static void test_batch_in_order(void **state)
{
    (void)state;
    static const unsigned windows[] = {1, 3, 16};
    for (size_t w = 0; w < sizeof(windows) / sizeof(windows[0]); w++) {
        struct fake f;
        pthread_t th;
        struct seen s = {0};
        struct sudoku_client_genbatch *b = NULL;
        struct sudoku_client_error err;
        struct sudoku_client *c = start_fake(&f, &th, S_GOOD);
        uint64_t want = 0;
        assert_int_equal(sudoku_client_genbatch_new(c, windows[w], on_chunk, &s, &b), 0);
        for (uint64_t k = 0; k < 40; k++) {
            struct sudoku_client_generate_opts o = {
                .count = (unsigned)(k % 3 + 1), .seed = 1000 * k, .has_seed = 1};
            assert_int_equal(sudoku_client_genbatch_add(b, &o, k * 7, &err), 0);
            assert_true(sudoku_client_genbatch_pending(b) <= windows[w]);
            want += k % 3 + 1;
        }
        assert_int_equal(sudoku_client_genbatch_finish(b, &err), 0);
        assert_int_equal(sudoku_client_genbatch_pending(b), 0);
        assert_int_equal(s.calls, 40);
        assert_int_equal(s.puzzles, want);
        assert_false(s.is_out_of_order);
        sudoku_client_genbatch_free(b);
        stop_fake(&f, c, th);
    }
}

/* A connection that drops fails every undelivered request once. */
static void test_batch_drop(void **state)
{
    (void)state;
    struct fake f;
    pthread_t th;
    struct seen s = {0};
    struct sudoku_client_genbatch *b = NULL;
    struct sudoku_client_error err;
    struct sudoku_client *c = start_fake(&f, &th, S_GOOD);
    pthread_mutex_lock(&f.mu);
    f.drop_after = 3;
    pthread_mutex_unlock(&f.mu);
    assert_int_equal(sudoku_client_genbatch_new(c, 4, on_chunk, &s, &b), 0);
    int rc = 0;
    uint64_t added = 0;
    for (uint64_t k = 0; k < 20 && rc == 0; k++) {
        struct sudoku_client_generate_opts o = {
            .count = (unsigned)(k % 3 + 1), .seed = 1000 * k, .has_seed = 1};
        rc = sudoku_client_genbatch_add(b, &o, k * 7, &err);
        added += rc == 0;
    }
    if (rc == 0)
        rc = sudoku_client_genbatch_finish(b, &err);
    assert_true(rc < 0);
    assert_string_equal(err.code, "closed");
    assert_int_equal(s.calls, added);
    assert_int_equal(s.calls - s.failed, 3);
    assert_string_equal(s.last_code, "closed");
    assert_false(s.is_out_of_order);
    sudoku_client_genbatch_free(b);
    /* the broken connection answers the one-shot call with its error */
    struct sudoku_client_puzzle *p = NULL;
    size_t len = 0;
    assert_true(sudoku_client_generate(c, NULL, &p, &len, &err) < 0);
    assert_null(p);
    assert_string_equal(err.code, "closed");
    stop_fake(&f, c, th);
}

/* Bad arguments are refused before anything is sent. */
static void test_bad_args(void **state)
{
    (void)state;
    struct fake f;
    pthread_t th;
    struct seen s = {0};
    struct sudoku_client_genbatch *b = NULL;
    struct sudoku_client_error err;
    struct sudoku_client *c = start_fake(&f, &th, S_GOOD);
    assert_int_equal(sudoku_client_genbatch_new(c, 0, on_chunk, &s, &b), -EINVAL);
    assert_int_equal(sudoku_client_genbatch_new(c, 4, NULL, &s, &b), -EINVAL);
    assert_int_equal(sudoku_client_genbatch_new(c, SUDOKU_CLIENT_MAX_WINDOW + 1, on_chunk, &s, &b),
                     -EINVAL);
    struct sudoku_client_generate_opts o = {.count = SUDOKU_CLIENT_GENERATE_MAX + 1};
    struct sudoku_client_puzzle *p = NULL;
    size_t len = 0;
    assert_int_equal(sudoku_client_generate(c, &o, &p, &len, &err), -EINVAL);
    assert_string_equal(err.code, "usage");
    assert_null(p);
    sudoku_client_genbatch_free(NULL);
    /* a short answer (deadline) is returned as it is */
    fake_set(&f, S_GOOD, 2);
    o.count = 5;
    assert_int_equal(sudoku_client_generate(c, &o, &p, &len, &err), 0);
    assert_int_equal(len, 2);
    sudoku_client_puzzles_free(p);
    stop_fake(&f, c, th);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sends_every_option), cmocka_unit_test(test_decodes_puzzles),
        cmocka_unit_test(test_generate_rules),     cmocka_unit_test(test_error_answer),
        cmocka_unit_test(test_malformed_answers),  cmocka_unit_test(test_batch_in_order),
        cmocka_unit_test(test_batch_drop),         cmocka_unit_test(test_bad_args),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
