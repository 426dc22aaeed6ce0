/* generate.c -- sudoku generate: new puzzles from sudokud, one a line or JSON.
 *
 *   sudoku generate [-n COUNT] [--size N] [--difficulty NAME | --rating MIN-MAX]
 *                   [--symmetry NAME] [--seed S] [--no-minimal] [--solution] [--json]
 *
 * COUNT puzzles are asked for in requests ("chunks") of at most GEN_CHUNK
 * puzzles, GEN_WINDOW of them in flight on one connection, so the daemon's
 * workers share the work while the answers come back (and are printed) in
 * order.  With --seed S the output is reproducible: puzzle k of the output
 * is puzzle k mod GEN_CHUNK of the request with seed
 * gen_batch_seed(S, k - k mod GEN_CHUNK), i.e. chunk j starts at the seed
 * that puzzle j*GEN_CHUNK would have in one big batch.  The chunk size is
 * therefore part of the contract (sudoku(1)) and never depends on the
 * daemon, the window or the load; -n K prints a prefix of -n K+1.
 *
 * The first failed chunk (an error answer, or fewer puzzles than asked
 * because its deadline passed) stops the run: nothing after it is printed,
 * so the output never has a hole.  Exit status as the solve front: 0 all
 * made, 1 the daemon refused or fell short, 2 usage, 3 unreachable.
 * With --local the same chunks are made one after another in this process
 * (tool/local.c), so the same --seed prints the same bytes.  With --format
 * svg|png|pdf the puzzles are drawn (picture.c) instead of printed, or
 * besides when -o names the picture's file.
 *
 * With --rules (or --regions) every request carries the rules (jigsaw
 * without --regions and killer ask the daemon to draw the regions or the
 * cages from the seed; --givens keeps givens in killer puzzles) and each
 * puzzle comes back with its full rules: printed as JSON lines ({"puzzle",
 * "rules", "solution", ...}: the line form cannot carry them) unless
 * stdout is a terminal and --json is not given, where each puzzle is drawn
 * with its regions and cages (vgrid.h).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/generate.h"
#include "proto/codec.h"
#include "tool/command.h"
#include "tool/local.h"
#include "tool/picture.h"
#include "tool/progress.h"
#include "tool/tool.h"
#include "tool/vgrid.h"
#include "util/clock.h"
#include "util/json.h"
#include "util/opts.h"

#ifndef GEN_CHUNK
#define GEN_CHUNK 16u /* puzzles a request: fixed, --seed's output depends on it */
#endif
#define GEN_WINDOW    32u        /* requests in flight by default: 32 workers busy */
#define GEN_MAX_COUNT 1000000000 /* -n at most */

/* The command line of sudoku generate. */
struct gen_cli {
    const char *socket;     /* -s */
    uint64_t count;         /* -n (default 1) */
    unsigned size;          /* --size, 0: the daemon's default (9) */
    const char *difficulty; /* --difficulty */
    const char *rating;     /* --rating MIN-MAX, as given */
    double min_rating;      /* parsed from rating */
    double max_rating;
    int has_min, has_max;
    const char *symmetry; /* --symmetry */
    uint64_t seed;        /* --seed */
    int has_seed;
    int is_no_minimal; /* --no-minimal */
    int is_solution;   /* --solution */
    int is_json;       /* --json */
    int is_verbose;    /* -v */
    const char *solver;
    unsigned timeout_ms;
    unsigned window;             /* -w, 0: GEN_WINDOW */
    int is_local;                /* --local (or SUDOKU_LOCAL=1): the plugins in this process */
    const char *plugin_dir;      /* -P, with --local */
    struct picture_opts picture; /* --format svg|png|pdf, -o, --per-page, --candidates */
    const char *rules_arg;       /* --rules LIST */
    const char *regions_arg;     /* --regions LAYOUT|@FILE */
    int is_givens;               /* --givens: drawn killer puzzles keep givens */
    struct tool_rules rules;     /* from both; rules.r is sent when it asks for any */
    int is_variant;              /* rules asked for: answers carry their rules */
    int is_drawn;                /* variants on a terminal: drawn, not JSON */
};

/* One run: what has been printed, and the first failure. */
struct gen_run {
    const struct gen_cli *o;
    uint64_t printed;               /* puzzles printed */
    int is_failed;                  /* a chunk failed: print nothing more */
    int is_short;                   /* ... because it came back short */
    struct sudoku_client_error err; /* the first failure */
    struct progress bar;            /* on stderr when a terminal and COUNT is large; t0 */
    struct render_doc doc;          /* --format: the puzzles' pictures */
    struct render_doc answers;      /* --format with --solution: theirs, after them */
    int is_nomem;                   /* a picture could not be kept */
};

/* ------------------------------------------------------------------------ */
/* Command line */

static const char *const difficulties[] = {"easy", "medium", "hard", "expert", "extreme"};

static int on_size(void *cfg, const char *arg, char *err, size_t err_size)
{
    struct gen_cli *o = cfg;
    if (strcmp(arg, "4") && strcmp(arg, "9") && strcmp(arg, "16") && strcmp(arg, "25")) {
        snprintf(err, err_size, "want 4, 9, 16 or 25");
        return -EINVAL;
    }
    o->size = (unsigned)atoi(arg);
    return 0;
}

/* qqwing's level names that are not ours, as our bands: its simple puzzles
 * need singles only (easy), its intermediate ones pairs and pointing
 * (medium).  Its easy and expert are our names already. */
static const struct {
    const char *alias, *band;
} qqwing_levels[] = {{"simple", "easy"}, {"intermediate", "medium"}};

static int on_difficulty(void *cfg, const char *arg, char *err, size_t err_size)
{
    struct gen_cli *o = cfg;
    for (size_t i = 0; i < sizeof(qqwing_levels) / sizeof(qqwing_levels[0]); i++)
        if (strcmp(arg, qqwing_levels[i].alias) == 0)
            arg = qqwing_levels[i].band;
    for (size_t i = 0; i < sizeof(difficulties) / sizeof(difficulties[0]); i++) {
        if (strcmp(arg, difficulties[i]) == 0) {
            o->difficulty = difficulties[i];
            return 0;
        }
    }
    snprintf(err, err_size,
             "want easy, medium, hard, expert or extreme (qqwing's simple, intermediate too)");
    return -EINVAL;
}

static int on_symmetry(void *cfg, const char *arg, char *err, size_t err_size)
{
    struct gen_cli *o = cfg;
    enum gen_symmetry s;
    if (gen_symmetry_parse(arg, &s) < 0) {
        snprintf(err, err_size, "want none, rotate180, rotate90, mirror, flip or diagonal");
        return -EINVAL;
    }
    o->symmetry = gen_symmetry_name(s);
    return 0;
}

static int on_seed(void *cfg, const char *arg, char *err, size_t err_size)
{
    struct gen_cli *o = cfg;
    unsigned long long v;
    if (opts_number(arg, 10, 0, UINT64_MAX, &v, err, err_size) < 0)
        return -EINVAL;
    o->seed = v;
    o->has_seed = 1;
    return 0;
}

/* One end of --rating: empty (absent) or a finite number >= 0. */
static int parse_rating(const char *s, size_t len, double *out, int *has)
{
    char buf[32], *end;
    if (len == 0)
        return 0;
    if (len >= sizeof(buf))
        return -EINVAL;
    memcpy(buf, s, len);
    buf[len] = '\0';
    *out = strtod(buf, &end);
    if (*end || end == buf || !(*out >= 0 && *out <= 1e6))
        return -EINVAL;
    *has = 1;
    return 0;
}

static int on_rating(void *cfg, const char *arg, char *err, size_t err_size)
{
    struct gen_cli *o = cfg;
    const char *dash = strchr(arg, '-');
    o->has_min = o->has_max = 0;
    if (!dash || parse_rating(arg, (size_t)(dash - arg), &o->min_rating, &o->has_min) < 0 ||
        parse_rating(dash + 1, strlen(dash + 1), &o->max_rating, &o->has_max) < 0 ||
        (!o->has_min && !o->has_max) ||
        (o->has_min && o->has_max && o->min_rating > o->max_rating)) {
        snprintf(err, err_size, "want MIN-MAX, MIN- or -MAX: ratings >= 0, MIN <= MAX");
        return -EINVAL;
    }
    o->rating = arg;
    return 0;
}

static int on_format(void *cfg, const char *arg, char *err, size_t err_size)
{
    struct gen_cli *o = cfg;
    if (picture_set_format(&o->picture, arg) < 0) {
        snprintf(err, err_size, "want svg, png or pdf");
        return -EINVAL;
    }
    return 0;
}

/* The command line, in --help order; sudoku(1) describes each. */
static const struct opts_spec gen_table[] = {
    {"count", 'n', "COUNT", "puzzles to make (default 1)",
     OPTS_NUMBER_AT(struct gen_cli, count, 1, GEN_MAX_COUNT)},
    {"size", 0, "N", "side: 4, 9, 16 or 25 (default 9)", OPTS_CALL_TO(on_size)},
    {"difficulty", 0, "NAME",
     "easy, medium, hard, expert or extreme (each puzzle\n"
     "rated by the daemon's logic plugin; qqwing's simple\n"
     "is easy, its intermediate medium)",
     OPTS_CALL_TO(on_difficulty)},
    {"rating", 0, "MIN-MAX", "a band of ratings instead (MIN- or -MAX: one end)",
     OPTS_CALL_TO(on_rating)},
    {"symmetry", 0, "NAME", "none (default), rotate180, rotate90, mirror, flip,\nor diagonal",
     OPTS_CALL_TO(on_symmetry)},
    {"seed", 0, "S",
     "reproducible output: the same command gives the same\n"
     "bytes (default: the daemon picks seeds)",
     OPTS_CALL_TO(on_seed)},
    {"rules", 0, "LIST",
     "variants: x, windoku, anti-knight, anti-king,\n"
     "non-consecutive, jigsaw (regions drawn from the seed,\n"
     "or --regions), killer (cages drawn from the seed)",
     OPTS_STRING_AT(struct gen_cli, rules_arg)},
    {"regions", 0, "LAYOUT", "jigsaw on this layout: n*n symbols 1-9, A-P (or @FILE)",
     OPTS_STRING_AT(struct gen_cli, regions_arg)},
    {"givens", 0, NULL, "with --rules killer: keep givens besides the cages\n(default: none)",
     OPTS_FLAG_AT(struct gen_cli, is_givens)},
    {"no-minimal", 0, NULL, "unique but not minimal puzzles",
     OPTS_FLAG_AT(struct gen_cli, is_no_minimal)},
    {"solution", 0, NULL, "print each solution after its puzzle, after a space",
     OPTS_FLAG_AT(struct gen_cli, is_solution)},
    {"json", 0, NULL,
     "one JSON object a puzzle (puzzle, solution, givens,\nseed, rating, "
     "difficulty, symmetry)",
     OPTS_FLAG_AT(struct gen_cli, is_json)},
    {"format", 0, "F",
     "a picture instead of lines: svg, png or pdf (captions:\n"
     "seed, rating; --solution: the solutions after them)",
     OPTS_CALL_TO(on_format)},
    {"into", 'o', "FILE",
     "write to FILE instead of stdout (several pages of svg\nor png: FILE-1, FILE-2, ...)",
     OPTS_STRING_AT(struct gen_cli, picture.out)},
    {"per-page", 0, "N", "with --format: puzzles a page (default 1)",
     OPTS_NUMBER_AT(struct gen_cli, picture.per_page, 1, RENDER_MAX_PER_PAGE)},
    {"candidates", 0, NULL, "with --format: pencil marks in the empty cells",
     OPTS_FLAG_AT(struct gen_cli, picture.is_candidates)},
    {"solver", 0, "NAME", "counting plugin (default: the daemon's for the size)",
     OPTS_STRING_AT(struct gen_cli, solver)},
    {"timeout", 0, "MS", "deadline of each request (of at most 16 puzzles;\nalso --timeout-ms)",
     OPTS_NUMBER_AT(struct gen_cli, timeout_ms, 1, 86400000)},
    OPTS_ALIAS_ROW("timeout-ms"),
    {"window", 'w', "N", "requests in flight (default 32)",
     OPTS_NUMBER_AT(struct gen_cli, window, 1, SUDOKU_CLIENT_MAX_WINDOW)},
    {"socket", 's', "PATH", "daemon socket (as for sudoku)",
     OPTS_STRING_AT(struct gen_cli, socket)},
    {"local", 0, NULL,
     "no daemon: make them with the plugins in this process\n(the same puzzles for the same "
     "--seed)",
     OPTS_FLAG_AT(struct gen_cli, is_local)},
    {"plugin-dir", 'P', "DIR", "with --local, load the plugins from DIR",
     OPTS_STRING_AT(struct gen_cli, plugin_dir)},
    {"verbose", 'v', NULL, "print a summary line at the end",
     OPTS_FLAG_AT(struct gen_cli, is_verbose)},
    {"help", 'h', NULL, "this help", .kind = OPTS_HELP},
};

const struct opts_prog tool_generate_prog = {
    .name = "sudoku generate",
    .usage = "usage: sudoku generate [-n COUNT] [--size N] [--difficulty NAME | --rating MIN-MAX]\n"
             "                       [--symmetry NAME] [--seed S] [--no-minimal] [--solution]\n"
             "                       [--json] [--rules LIST [--regions LAYOUT] [--givens]]\n"
             "                       [-s PATH | --local [-P DIR]]\n"
             "                       [--format svg|png|pdf [--per-page N]] [-o FILE]\n"
             "\n"
             "Ask sudokud for COUNT new puzzles, each with a unique solution, and print\n"
             "them one a line ('.' blanks), in order.\n"
             "\n",
    .footer = "\n"
              "Exit status: 0 all made, 1 the daemon refused or fell short, 2 usage error,\n"
              "3 cannot reach the daemon.\n",
    .specs = gen_table,
    .specs_len = sizeof(gen_table) / sizeof(gen_table[0]),
    .help_column = 22,
};

static int check_picture(const struct tool_command *c, struct gen_cli *o);

/* --rules and --regions into o->rules.  Returns -1 to go on, else the
 * exit status (said). */
static int check_rules(const struct tool_command *c, struct gen_cli *o)
{
    unsigned flags = 0;
    char err[256];

    memset(&o->rules.r, 0, sizeof(o->rules.r));
    if (o->rules_arg && tool_rules_names(o->rules_arg, &flags, err, sizeof(err)) < 0) {
        opts_usage_error(c->prog, "--rules: %s", err);
        return EXIT_USAGE;
    }
    if (o->regions_arg) {
        if (tool_rules_regions(&o->rules, o->regions_arg, err, sizeof(err)) < 0 ||
            tool_rules_check_layout(&o->rules.r, err, sizeof(err)) < 0) {
            opts_usage_error(c->prog, "--regions: %s", err);
            return EXIT_USAGE;
        }
        flags &= ~SUDOKU_CLIENT_RULE_DRAW_REGIONS; /* this layout, not a drawn one */
    }
    if (o->is_givens) {
        if (!(flags & SUDOKU_CLIENT_RULE_DRAW_CAGES)) {
            opts_usage_error(c->prog, "--givens: only with --rules killer");
            return EXIT_USAGE;
        }
        flags |= SUDOKU_CLIENT_RULE_GIVENS;
    }
    o->rules.r.flags = flags;
    o->is_variant = tool_rules_any(&o->rules.r);
    if (o->is_variant && o->picture.is_on) {
        opts_usage_error(c->prog, "--rules: pictures of variants are not drawn yet");
        return EXIT_USAGE;
    }
    o->is_drawn = o->is_variant && !o->is_json && isatty(1);
    return -1;
}

/* Parse argv, the whole command line, whose first operand is c's word.
 * Returns -1 to go on, else the exit status. */
static int parse(const struct tool_command *c, int argc, char **argv, struct gen_cli *o)
{
    int first = argc;
    int rc = tool_parse(c, argc, argv, o, NULL, &first);
    if (rc >= 0)
        return rc;
    if (first < argc) {
        opts_usage_error(c->prog, "unexpected argument '%s'", argv[first]);
        return EXIT_USAGE;
    }
    if (o->difficulty && o->rating) {
        opts_usage_error(c->prog, "--difficulty and --rating: one or the other");
        return EXIT_USAGE;
    }
    rc = check_picture(c, o);
    if (rc < 0)
        rc = check_rules(c, o);
    if (rc >= 0)
        return rc;
    if (!o->count)
        o->count = 1;
    return -1;
}

/* Pictures: --per-page and --candidates only with --format; -o without a
 * picture takes stdout's lines.  Returns -1 to go on, else the exit status. */
static int check_picture(const struct tool_command *c, struct gen_cli *o)
{
    char err[256];
    if (!o->picture.is_on && (o->picture.per_page || o->picture.is_candidates)) {
        opts_usage_error(c->prog, "--per-page and --candidates draw: give --format too");
        return EXIT_USAGE;
    }
    if (o->picture.is_on && picture_check(&o->picture, err, sizeof(err)) < 0) {
        opts_usage_error(c->prog, "%s", err);
        return EXIT_USAGE;
    }
    if (!o->picture.is_on && o->picture.out && !freopen(o->picture.out, "w", stdout)) {
        fprintf(stderr, "sudoku: cannot write %s: %s\n", o->picture.out, strerror(errno));
        return EXIT_SOME_FAILED; /* as the other subcommands' -o */
    }
    return -1;
}

/* ------------------------------------------------------------------------ */
/* Printing */

/* A rating as a JSON number that reads back the same, in the fewest
 * digits that do ("3.4", not 3.3999999999999999; "0.0"). */
static void put_rating(double v)
{
    char buf[40];
    snprintf(buf, sizeof(buf), "%.15g", v);
    if (strtod(buf, NULL) != v)
        snprintf(buf, sizeof(buf), "%.17g", v);
    fputs(buf, stdout);
    if (!strpbrk(buf, ".eEn"))
        fputs(".0", stdout);
}

static void print_puzzle(const struct gen_cli *o, const struct sudoku_client_puzzle *p)
{
    if (!o->is_json) {
        fputs(p->puzzle, stdout);
        if (o->is_solution) {
            putchar(' ');
            fputs(p->solution, stdout);
        }
        putchar('\n');
        return;
    }
    printf("{\"puzzle\":\"%s\",\"solution\":\"%s\",\"givens\":%u,\"seed\":%llu,\"rating\":",
           p->puzzle, p->solution, p->givens, (unsigned long long)p->seed);
    put_rating(p->rating);
    fputs(",\"difficulty\":", stdout);
    json_put_string(stdout, p->difficulty);
    fputs(",\"symmetry\":", stdout);
    json_put_string(stdout, p->symmetry);
    puts("}");
}

/* A variant: one JSON line with its rules, or drawn on a terminal. */
static void print_variant(const struct gen_cli *o, const struct sudoku_client_variant *v)
{
    const struct sudoku_client_puzzle *p = &v->puzzle;

    if (o->is_drawn) {
        uint8_t cells[SUDOKU_CLIENT_MAX_CELLS];
        unsigned n;
        printf("seed %llu, %u givens%s%s\n", (unsigned long long)p->seed, p->givens,
               p->difficulty[0] ? ", " : "", p->difficulty);
        if (codec_parse_line(p->puzzle, strlen(p->puzzle), &n, cells, NULL, 0) == 0)
            vgrid_print(stdout, n, cells, &v->rules);
        if (o->is_solution &&
            codec_parse_line(p->solution, strlen(p->solution), &n, cells, NULL, 0) == 0)
            vgrid_print(stdout, n, cells, &v->rules);
        putchar('\n');
        return;
    }
    printf("{\"puzzle\":\"%s\",\"rules\":", p->puzzle);
    tool_rules_put_json(stdout, &v->rules);
    printf(",\"solution\":\"%s\",\"givens\":%u,\"seed\":%llu,\"rating\":", p->solution, p->givens,
           (unsigned long long)p->seed);
    put_rating(p->rating);
    fputs(",\"difficulty\":", stdout);
    json_put_string(stdout, p->difficulty);
    fputs(",\"symmetry\":", stdout);
    json_put_string(stdout, p->symmetry);
    puts("}");
}

/* --format: p's grid (and its solution's, for after the puzzles), the
 * caption its seed and rating. */
static void draw_puzzle(struct gen_run *r, const struct sudoku_client_puzzle *p)
{
    uint8_t cells[SUDOKU_CLIENT_MAX_CELLS], sol[SUDOKU_CLIENT_MAX_CELLS];
    char caption[RENDER_CAPTION_SIZE], err[128];
    unsigned n, sn;

    if (codec_parse_line(p->puzzle, strlen(p->puzzle), &n, cells, err, sizeof(err)) < 0 ||
        codec_parse_line(p->solution, strlen(p->solution), &sn, sol, err, sizeof(err)) < 0 ||
        sn != n)
        return; /* checked by the library on arrival: cannot happen */
    if (p->difficulty[0])
        snprintf(caption, sizeof(caption), "seed %llu  %.1f %s", (unsigned long long)p->seed,
                 p->rating, p->difficulty);
    else
        snprintf(caption, sizeof(caption), "seed %llu", (unsigned long long)p->seed);
    if (!picture_add_puzzle(&r->doc, &r->o->picture, n, cells, NULL, caption))
        r->is_nomem = 1;
    if (r->o->is_solution) {
        snprintf(caption, sizeof(caption), "solution, seed %llu", (unsigned long long)p->seed);
        if (!picture_add_puzzle(&r->answers, &r->o->picture, n, cells, sol, caption))
            r->is_nomem = 1;
    }
}

/* --format: write the pictures, the solutions after the puzzles.  Returns
 * 0 or -1 (said). */
static int write_pictures(struct gen_run *r)
{
    int rc = 0;
    if (!r->o->picture.is_on)
        return 0;
    for (size_t k = 0; k < r->answers.len && !r->is_nomem; k++) {
        struct render_grid *g = render_doc_add(&r->doc, r->answers.grids[k].n);
        if (g)
            *g = r->answers.grids[k];
        else
            r->is_nomem = 1;
    }
    if (r->is_nomem) {
        fputs("sudoku: generate: out of memory for the pictures\n", stderr);
        rc = -1;
    } else if (r->doc.len > 0) {
        rc = picture_write(&r->o->picture, &r->doc);
    }
    render_doc_close(&r->doc);
    render_doc_close(&r->answers);
    return rc;
}

static void draw_bar(struct gen_run *r, uint64_t now)
{
    double frac = (double)r->printed / (double)r->o->count;
    double secs = progress_secs(&r->bar, now);
    double rate = secs > 0 ? (double)r->printed / secs : 0;
    progress_draw(&r->bar, now, frac, "%llu/%llu puzzles, %.0f/s", (unsigned long long)r->printed,
                  (unsigned long long)r->o->count, rate);
}

static void maybe_progress(struct gen_run *r)
{
    uint64_t now;
    if (progress_is_due(&r->bar, &now)) {
        fflush(stdout);
        draw_bar(r, now);
    }
}

/* ------------------------------------------------------------------------ */
/* Running */

/* A chunk came back: 1 when its puzzles are to be printed, else 0 (a
 * chunk failed, this one or one before). */
static int chunk_begin(struct gen_run *r, const struct sudoku_client_error *err)
{
    if (r->is_failed)
        return 0; /* after a failed chunk nothing is printed */
    if (err) {
        r->is_failed = 1;
        r->err = *err;
        return 0;
    }
    return 1;
}

/* The len puzzles of a chunk that asked for tag were printed. */
static void chunk_end(struct gen_run *r, uint64_t tag, size_t len)
{
    r->printed += len;
    if (len < tag) {
        r->is_failed = r->is_short = 1;
        snprintf(r->err.code, sizeof(r->err.code), "timeout");
        snprintf(r->err.message, sizeof(r->err.message),
                 "the deadline passed after %zu of %llu puzzles of a request", len,
                 (unsigned long long)tag);
    }
    maybe_progress(r);
}

/* One chunk answered; tag is how many puzzles it asked for. */
static void on_chunk(void *arg, uint64_t seq, uint64_t tag, const struct sudoku_client_puzzle *p,
                     size_t len, const struct sudoku_client_error *err)
{
    struct gen_run *r = arg;
    (void)seq;
    if (!chunk_begin(r, err))
        return;
    for (size_t i = 0; i < len; i++) {
        if (!r->o->picture.is_on || r->o->picture.out)
            print_puzzle(r->o, &p[i]);
        if (r->o->picture.is_on)
            draw_puzzle(r, &p[i]);
    }
    chunk_end(r, tag, len);
}

/* The same for a chunk of variants (--rules). */
static void on_variants(void *arg, uint64_t seq, uint64_t tag,
                        const struct sudoku_client_variant *v, size_t len,
                        const struct sudoku_client_error *err)
{
    struct gen_run *r = arg;
    (void)seq;
    if (!chunk_begin(r, err))
        return;
    for (size_t i = 0; i < len; i++)
        print_variant(r->o, &v[i]);
    chunk_end(r, tag, len);
}

/* The options of chunk starting at puzzle k of the output. */
static void chunk_opts(const struct gen_cli *o, uint64_t k, struct sudoku_client_generate_opts *g)
{
    uint64_t left = o->count - k;
    memset(g, 0, sizeof(*g));
    g->size = o->size;
    g->count = left < GEN_CHUNK ? (unsigned)left : GEN_CHUNK;
    g->has_seed = o->has_seed;
    g->seed = o->has_seed ? gen_batch_seed(o->seed, k) : 0;
    g->symmetry = o->symmetry;
    g->is_not_minimal = o->is_no_minimal;
    g->difficulty = o->difficulty;
    g->min_rating = o->min_rating;
    g->has_min_rating = o->has_min;
    g->max_rating = o->max_rating;
    g->has_max_rating = o->has_max;
    g->solver = o->solver;
    g->timeout_ms = o->timeout_ms;
}

/* Send every chunk and wait for the answers.  Returns 0 or the
 * connection's negative errno (err says why). */
static int run_chunks(struct gen_run *r, struct sudoku_client_genbatch *b,
                      struct sudoku_client_error *err)
{
    struct sudoku_client_generate_opts g;
    for (uint64_t k = 0; k < r->o->count && !r->is_failed; k += g.count) {
        chunk_opts(r->o, k, &g);
        int rc = sudoku_client_genbatch_add_rules(b, &g, r->o->is_variant ? &r->o->rules.r : NULL,
                                                  g.count, err);
        if (rc < 0)
            return rc;
    }
    return sudoku_client_genbatch_finish(b, err);
}

static void summary(const struct gen_run *r)
{
    double secs = progress_secs(&r->bar, clock_now_us());
    fprintf(stderr, "sudoku: generate: %llu of %llu puzzle%s in %.3f s",
            (unsigned long long)r->printed, (unsigned long long)r->o->count,
            r->o->count == 1 ? "" : "s", secs);
    if (r->printed > 0 && secs > 0) /* none made: no rate to give */
        fprintf(stderr, " (%.0f/s)", (double)r->printed / secs);
    fputc('\n', stderr);
}

/* --local: every chunk made here, in order, through the same callback. */
static int generate_local(const struct gen_cli *o)
{
    struct gen_run r = {.o = o};
    progress_init(&r.bar, stderr, clock_now_us());
    picture_doc_init(&o->picture, &r.doc);
    picture_doc_init(&o->picture, &r.answers);
    struct sudoku_client_generate_opts g;
    struct local *l = NULL;

    if (local_open(o->plugin_dir, o->is_verbose, &l) < 0)
        return EXIT_NO_PLUGINS;
    r.bar.is_on = isatty(2) && o->count > GEN_CHUNK;
    for (uint64_t k = 0; k < o->count && !r.is_failed; k += g.count) {
        struct sudoku_client_puzzle *p = NULL;
        struct sudoku_client_error err;
        size_t len = 0;
        chunk_opts(o, k, &g);
        if (o->is_variant) {
            struct sudoku_client_variant *v = NULL;
            int rc = local_generate_rules(l, &g, &o->rules.r, &v, &len, &err);
            on_variants(&r, k / GEN_CHUNK, g.count, rc < 0 ? NULL : v, len, rc < 0 ? &err : NULL);
            free(v);
            continue;
        }
        int rc = local_generate(l, &g, &p, &len, &err);
        on_chunk(&r, k / GEN_CHUNK, g.count, rc < 0 ? NULL : p, len, rc < 0 ? &err : NULL);
        sudoku_client_puzzles_free(p);
    }
    fflush(stdout);
    progress_clear(&r.bar);
    if (r.is_failed)
        fprintf(stderr, "sudoku: generate: %s: %s\n", r.err.code, r.err.message);
    local_free(l);
    if (o->is_verbose || r.is_short)
        summary(&r);
    if (write_pictures(&r) < 0)
        r.is_failed = 1;
    return r.is_failed ? EXIT_SOME_FAILED : EXIT_ALL_SOLVED;
}

/* Connect, run, report.  Returns the exit status. */
static int generate(const struct gen_cli *o)
{
    struct tool_opts to = {.socket = o->socket, .can_local = 1};
    struct gen_run r = {.o = o};
    progress_init(&r.bar, stderr, clock_now_us());
    picture_doc_init(&o->picture, &r.doc);
    picture_doc_init(&o->picture, &r.answers);
    struct sudoku_client_genbatch *b = NULL;
    struct sudoku_client_error err = {{0}, {0}};
    struct sudoku_client *c = tool_connect(&to);
    int rc;

    if (!c)
        return EXIT_UNREACHABLE; /* the documents hold nothing yet */
    r.bar.is_on = isatty(2) && o->count > GEN_CHUNK;
    if (o->timeout_ms)
        sudoku_client_set_io_timeout(c, o->timeout_ms + TOOL_TIMEOUT_MARGIN_MS);
    if (o->is_variant)
        rc = sudoku_client_genbatch_new_rules(c, o->window ? o->window : GEN_WINDOW, on_variants,
                                              &r, &b);
    else
        rc = sudoku_client_genbatch_new(c, o->window ? o->window : GEN_WINDOW, on_chunk, &r, &b);
    if (rc == 0)
        rc = run_chunks(&r, b, &err);
    else
        snprintf(err.message, sizeof(err.message), "%s", strerror(-rc));
    fflush(stdout);
    progress_clear(&r.bar);
    if (rc < 0)
        fprintf(stderr, "sudoku: lost the daemon at %s: %s\n", sudoku_client_path(c), err.message);
    else if (r.is_failed)
        fprintf(stderr, "sudoku: generate: %s: %s\n", r.err.code, r.err.message);
    sudoku_client_genbatch_free(b);
    sudoku_client_free(c);
    if (o->is_verbose || r.is_short)
        summary(&r);
    if (write_pictures(&r) < 0)
        r.is_failed = 1;
    if (rc < 0)
        return EXIT_UNREACHABLE;
    return r.is_failed ? EXIT_SOME_FAILED : EXIT_ALL_SOLVED;
}

int tool_generate(const struct tool_command *c, int argc, char **argv)
{
    static struct gen_cli o; /* its rules: 17 KiB, off the stack */
    int rc = parse(c, argc, argv, &o);
    const char *env_local = getenv("SUDOKU_LOCAL");

    if (rc >= 0)
        return rc;
    if (env_local && strcmp(env_local, "1") == 0)
        o.is_local = 1;
    return o.is_local ? generate_local(&o) : generate(&o);
}
