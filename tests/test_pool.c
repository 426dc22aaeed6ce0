/* test_pool.c -- daemon/pool.c on its own: every job runs once, none is lost.
 *
 * The pool's wake-ups are economical (a spinning worker is counted on to
 * take a job without a signal, a worker spins longer after a long job), so
 * a lost wake-up would leave a job queued forever: each test drives a real
 * libuv loop until every job's done() has run, in the patterns the daemon
 * sees (one request at a time, as a player asking for hints; bursts of
 * pipelined solves; jobs taken back), with spinning on and off.  A hang is
 * the failure (ctest's timeout); nothing is timed.  How long the loop thread
 * may poll for (pool_loop_spin_ns) is checked with jobs held in work() by a
 * gate, so that what is in flight is known; so is the rule that every
 * worker (one per CPU) may spin.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <uv.h>

#include "daemon/pool.h"
#include "util/clock.h"

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
    (void)x; /* read: the loop is the point, its sum is not */
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

static void close_pool(uv_loop_t *loop, struct pool *p)
{
    assert_true(pool_is_idle(p));
    assert_int_equal(pool_close(p), 0);
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
    close_pool(&loop, c.pool);
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
    close_pool(&loop, c.pool);
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
    close_pool(&loop, c.pool);
}

/* A job held in work() until the gate opens; it then says it ran ran_ns. */
struct gjob {
    struct pool_job job;
    atomic_int *gate;
    atomic_int *entered; /* counts the job in when work() starts, or NULL */
    uint64_t ran_ns;
    int done;
};

static void gated_work(struct pool_job *job)
{
    struct gjob *g = (struct gjob *)job;

    if (g->entered)
        atomic_fetch_add(g->entered, 1);
    while (!atomic_load(g->gate))
        ;
    job->ran_ns = g->ran_ns;
}

static void gated_done(struct pool_job *job)
{
    ((struct gjob *)job)->done = 1;
}

/* Submit g (reporting ran_ns, counting itself into entered unless NULL) and flush. */
static void submit_counted(struct pool *p, struct gjob *g, atomic_int *gate, uint64_t ran_ns,
                           atomic_int *entered)
{
    *g = (struct gjob){.gate = gate, .entered = entered, .ran_ns = ran_ns};
    g->job.work = gated_work;
    g->job.done = gated_done;
    assert_int_equal(pool_submit(p, &g->job), 0);
    pool_flush(p);
}

/* Submit g (reporting ran_ns) and flush. */
static void submit_gated(struct pool *p, struct gjob *g, atomic_int *gate, uint64_t ran_ns)
{
    submit_counted(p, g, gate, ran_ns, NULL);
}

/* Open the gate and run the loop until every job in jobs[0..n) is done. */
static void release(uv_loop_t *loop, atomic_int *gate, struct gjob *jobs, unsigned n)
{
    atomic_store(gate, 1);
    for (unsigned i = 0; i < n; i++)
        while (!jobs[i].done)
            uv_run(loop, UV_RUN_ONCE);
    atomic_store(gate, 0);
}

/* The loop's spin: spin_us with nothing out, four times the last job's run
 * (within spin_us and the limit) while a worker is free, 0 with all busy. */
static void test_loop_spin(void **state)
{
    struct pool *p;
    struct gjob g[2];
    atomic_int gate = 0;
    uv_loop_t loop;
    (void)state;

    assert_int_equal(uv_loop_init(&loop), 0);
    assert_int_equal(pool_new(&loop, 2, 64, 50, &p), 0);
    assert_int_equal(pool_loop_spin_ns(p), 50000u);
    submit_gated(p, &g[0], &gate, 150000u);
    assert_int_equal(pool_loop_spin_ns(p), 50000u); /* no job has finished: spin_us */
    submit_gated(p, &g[1], &gate, 150000u);
    assert_int_equal(pool_loop_spin_ns(p), 0); /* both workers busy */
    release(&loop, &gate, g, 2);
    assert_int_equal(pool_loop_spin_ns(p), 50000u); /* idle again */
    submit_gated(p, &g[0], &gate, 300000u);
    assert_int_equal(pool_loop_spin_ns(p), 600000u); /* four times the last job's 150 us */
    release(&loop, &gate, g, 1);
    submit_gated(p, &g[0], &gate, 10000u);
    assert_int_equal(pool_loop_spin_ns(p), POOL_LOOP_SPIN_MAX_NS); /* 1.2 ms, capped */
    release(&loop, &gate, g, 1);
    submit_gated(p, &g[0], &gate, 0);
    assert_int_equal(pool_loop_spin_ns(p), 50000u); /* 40 us: spin_us at least */
    release(&loop, &gate, g, 1);
    close_pool(&loop, p);

    assert_int_equal(uv_loop_init(&loop), 0);
    assert_int_equal(pool_new(&loop, 2, 64, 0, &p), 0); /* --spin-us 0: never */
    assert_int_equal(pool_loop_spin_ns(p), 0);
    submit_gated(p, &g[0], &gate, 300000u);
    release(&loop, &gate, g, 1);
    submit_gated(p, &g[0], &gate, 0);
    assert_int_equal(pool_loop_spin_ns(p), 0);
    release(&loop, &gate, g, 1);
    close_pool(&loop, p);
}

/* Two workers held in work() and let go together: the most that spin at
 * once within watch_ms after, spinning for up to spin_us. */
static unsigned spinning_after_pair(unsigned spin_us, unsigned watch_ms)
{
    struct pool *p;
    struct gjob g[2];
    atomic_int gate = 0, entered = 0;
    unsigned most = 0;
    uv_loop_t loop;

    assert_int_equal(uv_loop_init(&loop), 0);
    assert_int_equal(pool_new(&loop, 2, 64, spin_us, &p), 0);
    for (int i = 0; i < 2; i++)
        submit_counted(p, &g[i], &gate, 0, &entered);
    while (atomic_load(&entered) < 2)
        ;
    atomic_store(&gate, 1);
    for (uint64_t end = clock_now_ns() + watch_ms * 1000000ull; most < 2 && clock_now_ns() < end;) {
        unsigned n = pool_spinning(p);
        most = n > most ? n : most;
    }
    release(&loop, &gate, g, 2);
    close_pool(&loop, p);
    return most;
}

/* Workers that run out of jobs together spin together (one per CPU), each
 * to take the next batch without a wake-up; with --spin-us 0 none spins. */
static void test_every_worker_spins(void **state)
{
    unsigned most = 0;
    (void)state;

    if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
        skip(); /* one spinner at most: nothing to tell apart */
    for (int trial = 0; trial < 20 && most < 2; trial++) {
        unsigned n = spinning_after_pair(20000, 1000);
        most = n > most ? n : most;
    }
    assert_int_equal(most, 2);
    assert_int_equal(spinning_after_pair(0, 50), 0);
}

/* A job of a flow that writes its name into the order of runs. */
struct fjob {
    struct pool_job job;
    char name;   /* 'a'.. per flow, as the test names them */
    char *order; /* the names in the order work() ran (one worker: no race) */
    size_t *len; /* names in order */
    int done;
};

static void flow_work(struct pool_job *job)
{
    struct fjob *f = (struct fjob *)job;

    f->order[(*f->len)++] = f->name;
}

static void flow_done(struct pool_job *job)
{
    ((struct fjob *)job)->done = 1;
}

/* One worker held by a gated job while flow A queues four jobs, B two and
 * C one: the worker then takes one job of each flow in turn, A B C A B A A,
 * not A's four first; a job put back (pool_resubmit) goes first in its
 * flow. */
static void test_round_robin(void **state)
{
    static const char names[] = "aaaabbc";
    struct pool_flow flows[3];
    struct fjob f[sizeof(names) - 1], again;
    struct gjob g;
    struct pool *p;
    atomic_int gate = 0, entered = 0;
    char order[16] = {0};
    size_t len = 0;
    uv_loop_t loop;
    (void)state;

    assert_int_equal(uv_loop_init(&loop), 0);
    assert_int_equal(pool_new(&loop, 1, 64, 0, &p), 0);
    submit_counted(p, &g, &gate, 0, &entered);
    while (atomic_load(&entered) == 0)
        ; /* the worker holds the gated job: the rest queue */
    for (int i = 0; i < 3; i++)
        pool_flow_init(&flows[i]);
    for (size_t i = 0; i + 1 < sizeof(names); i++) {
        f[i] = (struct fjob){.name = names[i], .order = order, .len = &len};
        f[i].job.work = flow_work;
        f[i].job.done = flow_done;
        f[i].job.flow = &flows[names[i] - 'a'];
        assert_int_equal(pool_submit(p, &f[i].job), 0);
    }
    pool_flush(p);
    release(&loop, &gate, &g, 1);
    for (size_t i = 0; i + 1 < sizeof(names); i++)
        while (!f[i].done)
            uv_run(&loop, UV_RUN_ONCE);
    assert_string_equal(order, "abcabaa");

    /* Put back: first in its flow, before a job submitted earlier. */
    len = 0;
    memset(order, 0, sizeof(order));
    submit_counted(p, &g, &gate, 0, &entered);
    while (atomic_load(&entered) < 2)
        ;
    f[0] = (struct fjob){.name = 'x', .order = order, .len = &len};
    f[0].job.work = flow_work;
    f[0].job.done = flow_done;
    f[0].job.flow = &flows[0];
    assert_int_equal(pool_submit(p, &f[0].job), 0);
    again = (struct fjob){.name = 'r', .order = order, .len = &len};
    again.job.work = flow_work;
    again.job.done = flow_done;
    again.job.flow = &flows[0];
    assert_int_equal(pool_resubmit(p, &again.job), 0);
    pool_flush(p);
    release(&loop, &gate, &g, 1);
    while (!f[0].done || !again.done)
        uv_run(&loop, UV_RUN_ONCE);
    assert_string_equal(order, "rx");
    close_pool(&loop, p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_at_a_time),
        cmocka_unit_test(test_bursts),
        cmocka_unit_test(test_remove),
        cmocka_unit_test(test_loop_spin),
        cmocka_unit_test(test_every_worker_spins),
        cmocka_unit_test(test_round_robin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
