/* test_pool.c -- daemon/pool.c on its own: every job runs once, none is lost.
 *
 * The pool's wake-ups are economical (a spinning worker is counted on to
 * take a job without a signal, a worker spins longer after a long job), so
 * a lost wake-up would leave a job queued forever: each test drives a real
 * libuv loop until every job's done() has run, in the patterns the daemon
 * sees (one request at a time, as a player asking for hints; bursts of
 * pipelined solves; jobs taken back), with spinning on and off.  A hang is
 * the failure (ctest's timeout); nothing is timed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <uv.h>

#include "daemon/pool.h"

#define JOBS        300
#define LONG_SPINS  400000u /* a long job's loop: about as long as a hint */
#define LONG_JOB_NS 300000u /* what a long job reports it ran */

/* One job: work counts itself and burns `spins` iterations. */
struct tjob {
    struct pool_job job; /* first: the pool's part */
    struct ctx *ctx;     /* the test's state */
    unsigned spins;      /* how long work() runs */
    int ran;             /* work() calls (a worker's) */
    int done;            /* done() calls (the loop's) */
};

/* A test's state (loop thread only, but for tjob.ran). */
struct ctx {
    struct pool *pool;
    struct tjob jobs[JOBS];
    unsigned next;     /* jobs submitted so far */
    unsigned finished; /* done() calls */
    int chain;         /* done() submits the next job */
};

static void work(struct pool_job *job)
{
    struct tjob *t = (struct tjob *)job;
    volatile unsigned x = 0;

    for (unsigned i = 0; i < t->spins; i++)
        x += i;
    t->ran++;
    job->ran_ns = t->spins >= LONG_SPINS ? LONG_JOB_NS : 0; /* as a hint says it ran */
}

static void submit_next(struct ctx *c);

static void done(struct pool_job *job)
{
    struct tjob *t = (struct tjob *)job;

    t->done++;
    t->ctx->finished++;
    if (t->ctx->chain)
        submit_next(t->ctx);
}

/* Submit job c->next: long (about as long as a hint) every third one. */
static void submit_next(struct ctx *c)
{
    struct tjob *t;

    if (c->next >= JOBS)
        return;
    t = &c->jobs[c->next];
    t->ctx = c;
    t->spins = c->next % 3 == 0 ? LONG_SPINS : 2000u;
    t->job.work = work;
    t->job.done = done;
    c->next++;
    assert_int_equal(pool_submit(c->pool, &t->job), 0);
}

/* Run the loop until want jobs are done. */
static void run_until(uv_loop_t *loop, struct ctx *c, unsigned want)
{
    while (c->finished < want)
        uv_run(loop, UV_RUN_ONCE);
}

/* Every job ran once and was delivered once. */
static void assert_all_once(const struct ctx *c, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        assert_int_equal(c->jobs[i].ran, 1);
        assert_int_equal(c->jobs[i].done, 1);
    }
}

static void close_pool(uv_loop_t *loop, struct ctx *c)
{
    assert_true(pool_is_idle(c->pool));
    assert_int_equal(pool_close(c->pool), 0);
    uv_run(loop, UV_RUN_DEFAULT);
    assert_int_equal(uv_loop_close(loop), 0);
}

/* One job in flight, the next submitted from the last one's done(). */
static void one_at_a_time(unsigned threads, unsigned spin_us)
{
    static struct ctx c; /* static: 300 jobs, kept off the cmocka stack */
    uv_loop_t loop;

    c = (struct ctx){.chain = 1};
    assert_int_equal(uv_loop_init(&loop), 0);
    assert_int_equal(pool_new(&loop, threads, 64, spin_us, &c.pool), 0);
    submit_next(&c);
    pool_flush(c.pool);
    run_until(&loop, &c, JOBS);
    assert_all_once(&c, JOBS);
    close_pool(&loop, &c);
}

static void test_one_at_a_time(void **state)
{
    (void)state;
    one_at_a_time(1, 50);
    one_at_a_time(2, 50);
    one_at_a_time(3, 50);
    one_at_a_time(2, 0);
}

/* Bursts of 1 to 40 jobs, each burst waited for, or not. */
static void bursts(unsigned threads, unsigned spin_us, int wait_each)
{
    static struct ctx c;
    uv_loop_t loop;
    unsigned size = 1;

    c = (struct ctx){.chain = 0};
    assert_int_equal(uv_loop_init(&loop), 0);
    assert_int_equal(pool_new(&loop, threads, JOBS, spin_us, &c.pool), 0);
    while (c.next < JOBS) {
        for (unsigned i = 0; i < size; i++)
            submit_next(&c);
        pool_flush(c.pool);
        if (wait_each)
            run_until(&loop, &c, c.next);
        size = size % 40 + 7;
    }
    run_until(&loop, &c, JOBS);
    assert_all_once(&c, JOBS);
    close_pool(&loop, &c);
}

static void test_bursts(void **state)
{
    (void)state;
    bursts(2, 50, 1);
    bursts(2, 50, 0);
    bursts(3, 50, 1);
    bursts(1, 0, 0);
}

/* Jobs taken back while staged or queued never run; the rest all do. */
static void test_remove(void **state)
{
    static struct ctx c;
    uv_loop_t loop;
    unsigned removed = 0;
    (void)state;

    c = (struct ctx){.chain = 0};
    assert_int_equal(uv_loop_init(&loop), 0);
    assert_int_equal(pool_new(&loop, 1, JOBS, 50, &c.pool), 0);
    for (unsigned i = 0; i < 40; i++)
        submit_next(&c);
    assert_int_equal(pool_remove(c.pool, &c.jobs[39].job), 0); /* staged */
    pool_flush(c.pool);
    for (unsigned i = 20; i < 39; i++)
        removed += pool_remove(c.pool, &c.jobs[i].job) == 0;
    run_until(&loop, &c, 39 - removed);
    while (!pool_is_idle(c.pool))
        uv_run(&loop, UV_RUN_ONCE);
    assert_int_equal(c.finished, 39 - removed);
    for (unsigned i = 0; i < 40; i++) {
        assert_int_equal(c.jobs[i].ran, c.jobs[i].done);
        assert_true(c.jobs[i].done <= 1);
    }
    assert_int_equal(c.jobs[39].ran, 0);
    close_pool(&loop, &c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_at_a_time),
        cmocka_unit_test(test_bursts),
        cmocka_unit_test(test_remove),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
