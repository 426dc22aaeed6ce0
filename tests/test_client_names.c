/* test_client_names.c -- the batch calls under both spellings, and each kind's requests.
 *
 * client.h spells every call sudoku_client_*; the batch calls came first as
 * sudoku_batch_*, which stay as aliases.  Here: each old name is the very
 * function of its new name, in the archive the tool links and among the
 * shared library's exported symbols (what a program built against the
 * first spelling loads); a batch driven through the new names, with an old
 * name mixed in, answers in order; and a solving and a rating batch each
 * send their own method (the batch's kind chooses the packer), against a
 * fake daemon on a socketpair that answers every request at once.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "client/client_impl.h"
#include "tests/fake_peer.h"

#define SOLUTION4 "1234341221434321"
#define PUZZLE4   "1..4..1..1..4..1"

typedef void (*any_fn)(void);

/* One name pair: the first spelling and the primary one. */
struct alias_row {
    const char *old_name, *new_name;
    any_fn old_fn, new_fn;
};

#define ALIAS_ROW(old, new)                                                                        \
    {                                                                                              \
#old, #new, (any_fn)old, (any_fn) new                                                      \
    }

static const struct alias_row alias_rows[] = {
    ALIAS_ROW(sudoku_batch_new, sudoku_client_batch_new),
    ALIAS_ROW(sudoku_batch_new_rate, sudoku_client_batch_new_rate),
    ALIAS_ROW(sudoku_batch_add, sudoku_client_batch_add),
    ALIAS_ROW(sudoku_batch_add_cells, sudoku_client_batch_add_cells),
    ALIAS_ROW(sudoku_batch_add_failed, sudoku_client_batch_add_failed),
    ALIAS_ROW(sudoku_batch_finish, sudoku_client_batch_finish),
    ALIAS_ROW(sudoku_batch_pending, sudoku_client_batch_pending),
    ALIAS_ROW(sudoku_batch_free, sudoku_client_batch_free),
};

#define ROWS (sizeof(alias_rows) / sizeof(alias_rows[0]))

/* Linked statically, each old name is its new name's function. */
static void test_aliases_static(void **state)
{
    (void)state;
    for (size_t i = 0; i < ROWS; i++) {
        print_message("%s = %s\n", alias_rows[i].old_name, alias_rows[i].new_name);
        assert_true(alias_rows[i].old_fn == alias_rows[i].new_fn);
    }
}

/* The shared library exports both names of each, at one address. */
static void test_aliases_shared(void **state)
{
    void *so = dlopen(SUDOKU_CLIENT_SO, RTLD_NOW | RTLD_LOCAL);
    (void)state;
    assert_non_null(so);
    for (size_t i = 0; i < ROWS; i++) {
        void *old_sym = dlsym(so, alias_rows[i].old_name);
        void *new_sym = dlsym(so, alias_rows[i].new_name);
        print_message("%s = %s\n", alias_rows[i].old_name, alias_rows[i].new_name);
        assert_non_null(old_sym);
        assert_ptr_equal(old_sym, new_sym);
    }
    dlclose(so);
}

/* ------------------------------------------------------------- the fake */

struct fake {
    int fd;
    unsigned solves, rates, others; /* requests seen, by method */
};

/* [1, msgid, nil, {rating, difficulty, hardest, steps, logic}] */
static void pack_rating(msgpack_packer *pk, uint32_t msgid)
{
    fake_peer_reply_head(pk, msgid);
    msgpack_pack_nil(pk);
    msgpack_pack_map(pk, 5);
    proto_pack_key(pk, PROTO_K_RATING);
    msgpack_pack_double(pk, 1.5);
    proto_pack_key(pk, PROTO_K_DIFFICULTY);
    proto_pack_cstr(pk, "easy");
    proto_pack_key(pk, PROTO_K_HARDEST);
    proto_pack_cstr(pk, "hidden_single");
    proto_pack_key(pk, PROTO_K_STEPS);
    msgpack_pack_uint8(pk, 12);
    proto_pack_key(pk, PROTO_K_LOGIC);
    msgpack_pack_true(pk);
}

/* Answer each request at once, as its method asks. */
static int on_request(void *arg, const uint8_t *p, size_t len)
{
    struct fake *f = arg;
    msgpack_zone zone;
    msgpack_object o;
    msgpack_sbuffer sb;
    msgpack_packer pk;
    size_t off = 0;

    msgpack_zone_init(&zone, 1024);
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    int ok = msgpack_unpack((const char *)p, len, &off, &zone, &o) == MSGPACK_UNPACK_SUCCESS &&
             o.type == MSGPACK_OBJECT_ARRAY && o.via.array.size == 4;
    if (ok) {
        uint32_t msgid = (uint32_t)o.via.array.ptr[1].via.u64;
        enum rpc_method m = proto_method_of(&o.via.array.ptr[2]);
        if (m == RPC_M_SOLVE) {
            f->solves++;
            fake_peer_pack_solved(&pk, msgid, SOLUTION4);
        } else if (m == RPC_M_RATE) {
            f->rates++;
            pack_rating(&pk, msgid);
        } else {
            f->others++;
            ok = 0;
        }
        fake_peer_send_all(f->fd, sb.data, sb.size);
    }
    msgpack_sbuffer_destroy(&sb);
    msgpack_zone_destroy(&zone);
    return ok ? 0 : -1;
}

static int on_quiet(void *arg)
{
    (void)arg;
    return 0;
}

static void *fake_main(void *arg)
{
    static const struct fake_peer_ops ops = {on_request, on_quiet, NULL};
    struct fake *f = arg;
    fake_peer_serve(f->fd, &ops, f);
    return NULL;
}

/* What the callbacks saw, in order. */
struct seen {
    unsigned len;
    uint64_t seq[8], tag[8];
    int status[8];
};

static void record(struct seen *s, uint64_t seq, uint64_t tag, int status)
{
    assert_true(s->len < 8);
    s->seq[s->len] = seq;
    s->tag[s->len] = tag;
    s->status[s->len++] = status;
}

static void on_solved(void *arg, uint64_t seq, uint64_t tag, const struct sudoku_client_result *res)
{
    record(arg, seq, tag, res->status);
    assert_string_equal(res->solution, SOLUTION4);
}

static void on_rated(void *arg, uint64_t seq, uint64_t tag, const struct sudoku_client_rating *res)
{
    record(arg, seq, tag, res->status);
    assert_string_equal(res->difficulty, "easy");
    assert_int_equal(res->steps, 12);
}

/* A batch of the kind rate_cb or cb says, made through the new names, gets
 * a line-form puzzle, an array-form one and (by the old name) one more;
 * every callback comes in order.  Returns the fake's counts by method. */
static struct fake run_batch(sudoku_client_batch_cb cb, sudoku_client_batch_rate_cb rate_cb)
{
    static const uint8_t cells[16] = {1, 0, 0, 4, 0, 0, 1, 0, 0, 1, 0, 0, 4, 0, 0, 1};
    struct fake f = {0};
    struct seen s = {0};
    struct sudoku_client_batch *b = NULL;
    struct sudoku_client_error e;
    pthread_t th;

    struct sudoku_client *c = fake_peer_client(&f.fd);
    assert_int_equal(pthread_create(&th, NULL, fake_main, &f), 0);
    if (cb)
        assert_int_equal(sudoku_client_batch_new(c, 2, NULL, cb, &s, &b), 0);
    else
        assert_int_equal(sudoku_client_batch_new_rate(c, 2, NULL, rate_cb, &s, &b), 0);
    assert_int_equal(sudoku_client_batch_add(b, PUZZLE4, 16, 100, &e), 0);
    assert_int_equal(sudoku_client_batch_add_cells(b, 4, cells, 101, &e), 0);
    assert_int_equal(sudoku_batch_add(b, PUZZLE4, 16, 102, &e), 0);
    assert_int_equal(sudoku_client_batch_finish(b, &e), 0);
    assert_int_equal(sudoku_client_batch_pending(b), 0);
    sudoku_client_batch_free(b);
    sudoku_client_free(c);
    pthread_join(th, NULL);
    assert_int_equal(s.len, 3);
    for (unsigned i = 0; i < s.len; i++) {
        assert_int_equal(s.seq[i], i);
        assert_int_equal(s.tag[i], 100 + i);
        assert_int_equal(s.status[i], SUDOKU_CLIENT_SOLVED);
    }
    return f;
}

/* One kind of batch: which new call makes it and what the fake must see. */
struct kind_row {
    sudoku_client_batch_cb cb;           /* a solving batch's, or NULL */
    sudoku_client_batch_rate_cb rate_cb; /* a rating batch's, or NULL */
    unsigned solves, rates;              /* requests the fake answers, by method */
};

static const struct kind_row kind_rows[] = {
    /* a solving batch sends solve requests only */
    {on_solved, NULL, 3, 0},
    /* a rating batch: the same add calls send rate requests only */
    {NULL, on_rated, 0, 3},
};

static void test_batch_kinds(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(kind_rows) / sizeof(kind_rows[0]); i++) {
        struct fake f = run_batch(kind_rows[i].cb, kind_rows[i].rate_cb);
        print_message("kind %zu: %u solves, %u rates\n", i, f.solves, f.rates);
        assert_int_equal(f.solves, kind_rows[i].solves);
        assert_int_equal(f.rates, kind_rows[i].rates);
        assert_int_equal(f.others, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_aliases_static),
        cmocka_unit_test(test_aliases_shared),
        cmocka_unit_test(test_batch_kinds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
