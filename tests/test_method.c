/* test_method.c -- the method interface (method/method.h), through its table.
 *
 * Plugins come through the real dlopen path (every plugin in
 * SUDOKU_BUILD_PLUGIN_DIR).  What the daemon and --local answer is the
 * daemon and client suites' to check; here: every method that does work
 * has whole ops in the table and the others none, a request refused by
 * validate leaves nothing to end, and a prompt run stopped by its budget
 * is rearmed and finishes on a second run, as the daemon's inline path
 * drives it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "core/grid.h"
#include "core/host.h"
#include "method/method.h"
#include "method/solve.h"
#include "proto/codec.h"
#include "util/clock.h"

/* kaggle_sample.txt line 1: easy, no guess needed. */
#define EASY "004300209005009001070060043006002087190007400050083000600000105003508690042910300"
/* brute_force.txt: hard for a backtracking solver. */
#define HARD "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"

static struct host *host;
static struct method_env env;

static int group_setup(void **state)
{
    (void)state;
    host = host_new(NULL, NULL);
    if (!host || host_load_dir(host, SUDOKU_BUILD_PLUGIN_DIR) <= 0)
        return -1;
    env = (struct method_env){.host = host, .log_hint = "the test"};
    return host_find(host, "bitmask") && host_find(host, "logic") ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    host_free(host);
    return 0;
}

/* req for method m on puzzle text, as the decoder leaves it. */
static void request(struct rpc_request *req, enum rpc_method m, const char *text)
{
    memset(req, 0, sizeof(*req));
    req->method = m;
    req->solve.limit = 1;
    req->generate.n = 9;
    req->generate.count = 1;
    req->generate.is_minimal = 1;
    assert_int_equal(codec_parse_line(text, strlen(text), &req->solve.n, req->solve.cells, NULL, 0),
                     0);
}

static void test_table(void **state)
{
    static const enum rpc_method work[] = {RPC_M_SOLVE, RPC_M_EXPLAIN, RPC_M_RATE, RPC_M_GENERATE};
    static const enum rpc_method none[] = {RPC_M_PING,  RPC_M_VERSION, RPC_M_SOLVERS,
                                           RPC_M_STATS, RPC_M_CANCEL,  RPC_M_UNKNOWN};

    (void)state;
    for (size_t i = 0; i < sizeof(work) / sizeof(work[0]); i++) {
        const struct method_ops *ops = method_of(work[i]);
        assert_non_null(ops);
        assert_string_equal(ops->name, proto_method_name(work[i])); /* errors name it */
        assert_non_null(ops->validate);
        assert_non_null(ops->run);
        assert_non_null(ops->outcome);
        assert_non_null(ops->pack);
        /* A prompt method must say what to do when its budget runs out. */
        assert_int_equal(ops->is_prompt != NULL, ops->rearm != NULL);
    }
    for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++)
        assert_null(method_of(none[i]));
}

/* One refusal: what the request has wrong, and the code it earns. */
struct refusal {
    const char *what;
    enum rpc_method m;
    void (*spoil)(struct rpc_request *req);
    enum rpc_code code;
};

static void clash(struct rpc_request *r)
{
    r->solve.cells[1] = r->solve.cells[2]; /* two 4s in row 1 */
}

static void no_such_solver(struct rpc_request *r)
{
    snprintf(r->solve.solver, sizeof(r->solve.solver), "nosuch");
    snprintf(r->generate.solver, sizeof(r->generate.solver), "nosuch");
}

static void small_progress(struct rpc_request *r)
{
    r->explain.has_progress = 1;
    r->explain.progress_n = 4;
}

static void progress_drops_given(struct rpc_request *r)
{
    r->explain.has_progress = 1;
    r->explain.progress_n = 9;
    memcpy(r->explain.progress, r->solve.cells, 81);
    r->explain.progress[2] = 0;
}

static void not_an_explainer(struct rpc_request *r)
{
    snprintf(r->solve.solver, sizeof(r->solve.solver), "bitmask");
}

static void bad_symmetry(struct rpc_request *r)
{
    snprintf(r->generate.symmetry, sizeof(r->generate.symmetry), "spiral");
}

static void rules_anti_knight(struct rpc_request *r)
{
    r->solve.rules.kinds = SDK_RULE_ANTI_KNIGHT;
    memset(r->solve.cells, 0, sizeof(r->solve.cells)); /* no given to break it */
}

static void rules_bad_cage(struct rpc_request *r)
{
    r->solve.rules.kinds = SDK_RULE_CAGES;
    r->solve.rules.cages_len = 1;
    r->solve.rules.cells_len = 2;
    r->solve.rules.sum[0] = 30; /* impossible for two cells */
    r->solve.rules.len[0] = 2;
    r->solve.rules.cells[0] = 3;
    r->solve.rules.cells[1] = 4;
}

static void rules_knight_clash(struct rpc_request *r)
{
    rules_anti_knight(r);
    r->solve.cells[0] = 7; /* r1c1 and r2c3: a knight's move apart */
    r->solve.cells[11] = 7;
}

static void rules_for_dfs(struct rpc_request *r)
{
    rules_anti_knight(r);
    snprintf(r->solve.solver, sizeof(r->solve.solver), "dfs");
}

static void generate_killer_by_dfs(struct rpc_request *r)
{
    r->generate.rules.draw = SDK_RULE_CAGES;
    snprintf(r->generate.solver, sizeof(r->generate.solver), "dfs");
}

static const struct refusal refusals[] = {
    /* malformed rules are bad requests, whatever the method */
    {"solve with an impossible cage", RPC_M_SOLVE, rules_bad_cage, RPC_BAD_REQUEST},
    {"explain with an impossible cage", RPC_M_EXPLAIN, rules_bad_cage, RPC_BAD_REQUEST},
    {"rate with an impossible cage", RPC_M_RATE, rules_bad_cage, RPC_BAD_REQUEST},
    /* a named plugin must take every rule */
    {"solve by a classic-only plugin with rules", RPC_M_SOLVE, rules_for_dfs, RPC_UNSUPPORTED},
    {"explain with givens that break a rule", RPC_M_EXPLAIN, rules_knight_clash, RPC_BAD_PUZZLE},
    {"rate with givens that break a rule", RPC_M_RATE, rules_knight_clash, RPC_BAD_PUZZLE},
    {"generate killer by a classic-only plugin", RPC_M_GENERATE, generate_killer_by_dfs,
     RPC_UNSUPPORTED},
    /* the rules come before any plugin */
    {"solve with clashing givens", RPC_M_SOLVE, clash, RPC_BAD_PUZZLE},
    {"solve by an unknown solver", RPC_M_SOLVE, no_such_solver, RPC_UNKNOWN_SOLVER},
    {"explain with clashing givens", RPC_M_EXPLAIN, clash, RPC_BAD_PUZZLE},
    /* a progress must fit the puzzle and keep its givens */
    {"explain with a 4x4 progress", RPC_M_EXPLAIN, small_progress, RPC_BAD_REQUEST},
    {"explain with a progress that drops a given", RPC_M_EXPLAIN, progress_drops_given,
     RPC_BAD_REQUEST},
    /* rating needs a plugin that explains */
    {"rate by a plugin that cannot explain", RPC_M_RATE, not_an_explainer, RPC_UNSUPPORTED},
    {"generate by an unknown solver", RPC_M_GENERATE, no_such_solver, RPC_UNKNOWN_SOLVER},
    {"generate with no such symmetry", RPC_M_GENERATE, bad_symmetry, RPC_BAD_REQUEST},
};

static void test_validate_refuses(void **state)
{
    struct method_call call;
    struct rpc_request req;
    char msg[RPC_ERR_SIZE];

    (void)state;
    for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
        const struct refusal *r = &refusals[i];
        request(&req, r->m, EASY);
        r->spoil(&req);
        msg[0] = '\0';
        if (method_start(&call, &env, &req, msg, sizeof(msg)) != r->code)
            fail_msg("%s: answered %s (%s), not %s", r->what,
                     proto_code_name(method_start(&call, &env, &req, msg, sizeof(msg))), msg,
                     proto_code_name(r->code));
        assert_true(msg[0] != '\0'); /* the refusal says why */
        assert_null(call.ops);       /* and keeps nothing */
        method_end(&call);           /* which ending does not mind */
    }
}

/* With only a classic plugin loaded, a rule is unsupported, named; an
 * empty puzzle under no rules still goes to it. */
static void test_rules_nobody_takes(void **state)
{
    struct host *only = host_new(NULL, NULL);
    struct method_env e = {.host = only, .log_hint = "the test"};
    struct method_call call;
    struct rpc_request req;
    char msg[RPC_ERR_SIZE];

    (void)state;
    assert_int_equal(host_load_file(only, SUDOKU_BUILD_PLUGIN_DIR "/dfs.so"), 0);
    request(&req, RPC_M_SOLVE, EASY);
    rules_anti_knight(&req);
    req.solve.rules.kinds |= SDK_RULE_DIAGONALS;
    assert_int_equal(method_start(&call, &e, &req, msg, sizeof(msg)), RPC_UNSUPPORTED);
    assert_string_equal(msg, "no loaded solver takes the rule diagonals for 9x9 puzzles");
    req.solve.rules.kinds = 0;
    assert_int_equal(method_start(&call, &e, &req, msg, sizeof(msg)), RPC_OK);
    method_end(&call);
    host_free(only);
}

/* A variant solve with no solver named goes to the size's default
 * (bitmask up to 16x16) when it takes every rule, and its answer holds
 * them all; with a count asked for, too. */
static void test_rules_default_route(void **state)
{
    static const unsigned sides[] = {4, 9, 16};
    static const uint32_t kinds[] = {SDK_RULE_WINDOWS, SDK_RULE_DIAGONALS | SDK_RULE_ANTI_KNIGHT,
                                     SDK_RULE_ANTI_KNIGHT};
    struct method_call call;
    struct rpc_request req;
    struct rpc_solve_result r;
    char msg[RPC_ERR_SIZE];

    (void)state;
    for (size_t i = 0; i < sizeof(sides) / sizeof(sides[0]); i++) {
        const struct host_plugin *def = host_default_for(host, (int)sides[i]);
        request(&req, RPC_M_SOLVE, EASY);
        memset(req.solve.cells, 0, sizeof(req.solve.cells));
        req.solve.n = sides[i];
        req.solve.limit = 2;
        req.solve.rules.kinds = kinds[i];
        assert_int_equal(method_start(&call, &env, &req, msg, sizeof(msg)), RPC_OK);
        method_run(&call, NULL, clock_now_ns() + 30000 * 1000000ull);
        assert_int_equal(call.ops->outcome(&call, msg, sizeof(msg)), RPC_OK);
        solve_result(&call, &r);
        assert_true(r.solved);
        assert_int_equal(r.count, 2);
        assert_string_equal(r.solver, def->desc->name);
        assert_string_equal(r.solver, "bitmask");
        method_end(&call);
    }
}

/* generate's counting plugin, the request naming none: at 25x25 (sat the
 * default there) under rules dlx takes, dlx, and bitmask with windows;
 * with cages, classic, at another size or with a solver named, what the
 * request would get anyway.  A 25x25 anti-king puzzle and a windoku (not
 * minimal: quick) are made that way. */
static void test_generate_counter_route(void **state)
{
    static const struct {
        unsigned n;
        uint32_t kinds, draw;
        const char *solver, *want; /* NULL: the default for the size */
    } rows[] = {
        {25, SDK_RULE_ANTI_KING, 0, "", "dlx"},
        {25, SDK_RULE_DIAGONALS | SDK_RULE_NON_CONSECUTIVE, 0, "", "dlx"},
        {25, SDK_RULE_WINDOWS, 0, "", "bitmask"},
        {25, SDK_RULE_DIAGONALS | SDK_RULE_WINDOWS | SDK_RULE_NON_CONSECUTIVE, 0, "", "bitmask"},
        {25, 0, SDK_RULE_CAGES, "", NULL},
        {25, 0, 0, "", NULL},
        {25, SDK_RULE_ANTI_KING, 0, "bitmask", "bitmask"},
        {16, SDK_RULE_ANTI_KING, 0, "", NULL},
    };
    struct method_call call;
    struct rpc_request req;
    char msg[RPC_ERR_SIZE];

    (void)state;
    if (!host_find(host, "dlx") || strcmp(host_default_for(host, 25)->desc->name, "sat") != 0)
        skip(); /* the rule is for a daemon with both (sat: libcadical-dev) */
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        const char *want =
            rows[i].want ? rows[i].want : host_default_for(host, (int)rows[i].n)->desc->name;
        request(&req, RPC_M_GENERATE, EASY);
        req.generate.n = rows[i].n;
        req.generate.rules.kinds = rows[i].kinds;
        req.generate.rules.draw = rows[i].draw;
        snprintf(req.generate.solver, sizeof(req.generate.solver), "%s", rows[i].solver);
        assert_int_equal(method_start(&call, &env, &req, msg, sizeof(msg)), RPC_OK);
        assert_non_null(call.plugin);
        if (strcmp(call.plugin->desc->name, want) != 0)
            fail_msg("row %zu: counted by %s, want %s", i, call.plugin->desc->name, want);
        if (i == 0 || i == 2) {
            req.generate.is_minimal = 0;
            req.generate.has_seed = 1;
            req.generate.seed = 1;
            method_end(&call);
            assert_int_equal(method_start(&call, &env, &req, msg, sizeof(msg)), RPC_OK);
            call.timeout_ms = 60000;
            method_run(&call, NULL, clock_now_ns() + 60000 * 1000000ull);
            if (call.ops->outcome(&call, msg, sizeof(msg)) != RPC_OK)
                fail_msg("row %zu, 25x25 not minimal: %s", i, msg);
        }
        method_end(&call);
    }
}

/* Each of the four answers an easy request through the same steps. */
static void test_every_method_answers(void **state)
{
    static const enum rpc_method work[] = {RPC_M_SOLVE, RPC_M_EXPLAIN, RPC_M_RATE, RPC_M_GENERATE};
    struct method_call call;
    struct rpc_request req;
    char msg[RPC_ERR_SIZE];

    (void)state;
    for (size_t i = 0; i < sizeof(work) / sizeof(work[0]); i++) {
        request(&req, work[i], EASY);
        assert_int_equal(method_start(&call, &env, &req, msg, sizeof(msg)), RPC_OK);
        assert_ptr_equal(call.ops, method_of(work[i]));
        assert_non_null(call.plugin); /* counted for stats */
        call.timeout_ms = 30000;
        uint64_t took = method_run(&call, NULL, clock_now_ns() + 30000 * 1000000ull);
        assert_int_equal(call.elapsed_us, took);
        if (call.ops->outcome(&call, msg, sizeof(msg)) != RPC_OK)
            fail_msg("%s: %s", call.ops->name, msg);
        method_end(&call);
        assert_null(call.ops);
    }
}

/* The daemon's inline path: a run under a budget already spent stops
 * short, rearm says so, and a second run finishes with every guess of both
 * counted. */
static void test_prompt_rearm(void **state)
{
    struct method_call call;
    struct rpc_request req;
    struct rpc_solve_result r;
    char msg[RPC_ERR_SIZE];

    (void)state;
    request(&req, RPC_M_SOLVE, HARD);
    snprintf(req.solve.solver, sizeof(req.solve.solver), "bitmask");
    assert_int_equal(method_start(&call, &env, &req, msg, sizeof(msg)), RPC_OK);
    assert_true(call.ops->is_prompt(&call));
    method_run(&call, NULL, clock_now_ns()); /* no budget at all */
    assert_int_equal(call.ops->rearm(&call), 1);
    method_run(&call, NULL, clock_now_ns() + 30000 * 1000000ull);
    assert_int_equal(call.ops->rearm(&call), 0);
    assert_int_equal(call.ops->outcome(&call, msg, sizeof(msg)), RPC_OK);
    solve_result(&call, &r);
    assert_true(r.solved);
    assert_int_equal(grid_check_solution(9, req.solve.cells, r.solution, NULL, 0), 0);
    method_end(&call);

    /* 16x16 never runs on the loop, whatever the plugin. */
    request(&req, RPC_M_SOLVE,
            "................................................................"
            "................................................................"
            "................................................................"
            "................................................................");
    assert_int_equal(method_start(&call, &env, &req, msg, sizeof(msg)), RPC_OK);
    assert_false(call.ops->is_prompt(&call));
    method_end(&call);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_validate_refuses),
        cmocka_unit_test(test_rules_nobody_takes),
        cmocka_unit_test(test_rules_default_route),
        cmocka_unit_test(test_generate_counter_route),
        cmocka_unit_test(test_every_method_answers),
        cmocka_unit_test(test_prompt_rearm),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
