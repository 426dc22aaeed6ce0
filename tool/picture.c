/* picture.c -- the sudoku tool's pictures: sudoku render, and the grids
 * that hint, explain and generate draw with --format svg|png|pdf.
 *
 *   sudoku render [FILE...]    each puzzle (or with --solution its solved
 *                              grid), per_page a page
 *
 * The inputs are read as for solving (proto/input.c: any form the tool
 * reads); --solution asks the daemon, or with --local the plugins of this
 * process.  A step's picture is the grid before the step: the candidates
 * are worked out here from the digits (render_grid_candidates), then every
 * step's placements and eliminations are applied in turn, so a struck
 * candidate is one a player would still have pencilled in.  Failures go to
 * stderr as "sudoku: FILE:LINE: CODE: MESSAGE", the rest is still drawn.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "proto/codec.h"
#include "tool/local.h"
#include "tool/picture.h"
#include "tool/tool.h"

/* ------------------------------------------------------------------------ */
/* Options and output */

int picture_set_format(struct picture_opts *p, const char *arg)
{
    if (render_format_parse(arg, &p->format) < 0)
        return -EINVAL;
    p->is_on = 1;
    return 0;
}

int picture_check(const struct picture_opts *p, char *err, size_t err_size)
{
    if (p->format != RENDER_SVG && !render_has_cairo()) {
        snprintf(err, err_size, "--format %s needs cairo, and this sudoku was built without it",
                 render_format_ext(p->format));
        return -EINVAL;
    }
    if (p->format != RENDER_SVG && !p->out && isatty(1)) {
        snprintf(err, err_size, "a %s picture is not for a terminal: name a file with -o",
                 render_format_ext(p->format));
        return -EINVAL;
    }
    return 0;
}

void picture_doc_init(const struct picture_opts *p, struct render_doc *d)
{
    render_doc_init(d, p->format);
    d->size_px = p->size_px;
    d->per_page = p->per_page ? p->per_page : PICTURE_DEFAULT_PER_PAGE;
}

int picture_write(const struct picture_opts *p, const struct render_doc *d)
{
    char err[256];
    fflush(stdout);
    if (render_doc_write(d, p->out, err, sizeof(err)) < 0) {
        fprintf(stderr, "sudoku: %s\n", err);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Grids */

struct render_grid *picture_add_puzzle(struct render_doc *d, const struct picture_opts *p,
                                       unsigned n, const uint8_t *cells, const uint8_t *solution,
                                       const char *caption)
{
    struct render_grid *g = render_doc_add(d, n);
    if (!g)
        return NULL;
    memcpy(g->givens, cells, (size_t)n * n);
    for (unsigned i = 0; solution && i < n * n; i++)
        g->filled[i] = cells[i] ? 0 : solution[i];
    if (p->is_candidates && !solution)
        render_grid_candidates(g);
    snprintf(g->caption, sizeof(g->caption), "%s", caption ? caption : "");
    return g;
}

/* Place v in cell of g, the grid as a player has it: fill it, and take v
 * off the cell's and its peers' candidates. */
static void state_place(struct render_grid *g, unsigned cell, unsigned v)
{
    unsigned n = g->n, b = render_box_side(n);
    if (g->givens[cell])
        return;
    g->filled[cell] = (uint8_t)v;
    g->cands[cell] = 0;
    for (unsigned j = 0; j < n * n; j++) {
        int same_box = b && (j / n) / b == (cell / n) / b && (j % n) / b == (cell % n) / b;
        if (j / n == cell / n || j % n == cell % n || same_box)
            g->cands[j] &= ~(1u << (v - 1));
    }
}

/* One picture of step k of e: the state s, with the step's marks; its
 * caption numbered unless it is the only step (is_one). */
static int add_step(struct render_doc *d, const struct picture_opts *p, const struct render_grid *s,
                    const struct sudoku_client_step *st, size_t k, int is_one, const char *prefix)
{
    struct render_grid *g = render_doc_add(d, s->n);
    if (!g)
        return -ENOMEM;
    *g = *s;
    g->has_cands = p->is_candidates;
    for (size_t i = 0; i < st->cells_len; i++)
        g->shaded[st->cells[i]] = 1;
    for (size_t i = 0; i < st->eliminations_len; i++)
        g->struck[st->eliminations[i].cell] |= 1u << (st->eliminations[i].value - 1);
    for (size_t i = 0; i < st->placements_len; i++)
        if (!g->givens[st->placements[i].cell])
            g->placed[st->placements[i].cell] = st->placements[i].value;
    for (size_t i = 0; i < st->placements_len; i++) /* a placement over a wrong entry shows */
        if (g->placed[st->placements[i].cell])
            g->filled[st->placements[i].cell] = 0;
    if (is_one)
        snprintf(g->caption, sizeof(g->caption), "%s%s", prefix, st->text);
    else
        snprintf(g->caption, sizeof(g->caption), "%s%zu. %s", prefix, k + 1, st->text);
    return 0;
}

int picture_add_steps(struct render_doc *d, const struct picture_opts *p, unsigned n,
                      const uint8_t *cells, const uint8_t *progress,
                      const struct sudoku_client_explanation *e, const char *prefix)
{
    static struct render_grid s; /* the grid as the player has it; 10 KiB */
    render_grid_init(&s, n);
    memcpy(s.givens, cells, (size_t)n * n);
    for (unsigned i = 0; progress && i < n * n; i++)
        s.filled[i] = cells[i] ? 0 : progress[i];
    render_grid_candidates(&s);
    if (e->steps_len == 0) {
        struct render_grid *g = render_doc_add(d, n);
        if (!g)
            return -ENOMEM;
        *g = s;
        g->has_cands = 0;
        snprintf(g->caption, sizeof(g->caption), "%ssolved: nothing is left to place", prefix);
        return 0;
    }
    for (size_t k = 0; k < e->steps_len; k++) {
        const struct sudoku_client_step *st = &e->steps[k];
        if (add_step(d, p, &s, st, k, e->steps_len == 1, prefix) < 0)
            return -ENOMEM;
        for (size_t i = 0; i < st->eliminations_len; i++)
            s.cands[st->eliminations[i].cell] &= ~(1u << (st->eliminations[i].value - 1));
        for (size_t i = 0; i < st->placements_len; i++)
            state_place(&s, st->placements[i].cell, st->placements[i].value);
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* sudoku render */

/* State of one render run. */
struct render_run {
    const struct tool_opts *o;
    struct render_doc doc;
    struct sudoku_client *c; /* --solution through the daemon, else NULL */
    struct local *local;     /* --solution --local, else NULL */
    int failed;              /* some puzzle could not be drawn */
};

static const char *shown_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return strcmp(path, "-") == 0 ? "<stdin>" : slash ? slash + 1 : path;
}

static void report(struct render_run *r, const char *file, uint64_t line, const char *code,
                   const char *message)
{
    r->failed = 1;
    fprintf(stderr, "sudoku: %s:%llu: %s: %s\n", strcmp(file, "-") == 0 ? "<stdin>" : file,
            (unsigned long long)line, code, message);
}

/* The solution of n, cells into res.  Returns 0 or -1 (reported). */
static int solve_one(struct render_run *r, const char *file, uint64_t line, unsigned n,
                     const uint8_t *cells, struct sudoku_client_result *res)
{
    struct sudoku_client_options so = {.solver = r->o->solve.solver,
                                       .timeout_ms = r->o->solve.timeout_ms};
    if (r->local)
        local_solve(r->local, NULL, 0, n, cells, &so, NULL, res);
    else if (sudoku_client_solve_cells(r->c, n, cells, &so, res) < 0 &&
             sudoku_client_broken(r->c, NULL) < 0)
        return -2;
    if (res->status == SUDOKU_CLIENT_SOLVED && res->n == n)
        return 0;
    report(r, file, line, res->status == SUDOKU_CLIENT_UNSOLVABLE ? "unsolvable" : res->error.code,
           res->status == SUDOKU_CLIENT_UNSOLVABLE ? "the puzzle has no solution"
                                                   : res->error.message);
    return -1;
}

/* Draw one record.  Returns 0, or -2 when the daemon is lost. */
static int render_record(struct render_run *r, const char *file, const struct input_record *rec)
{
    static struct sudoku_client_result res; /* 1.3 KiB of cells: off the stack */
    uint8_t cells[RENDER_MAX_CELLS];
    char caption[RENDER_CAPTION_SIZE];
    unsigned n = rec->n;

    if (rec->error[0]) {
        report(r, file, rec->line, "bad_puzzle", rec->error);
        return 0;
    }
    if (rec->format == INPUT_LINE) {
        char err[256];
        if (codec_parse_line(rec->text, rec->len, &n, cells, err, sizeof(err)) < 0) {
            report(r, file, rec->line, "bad_puzzle", err);
            return 0;
        }
    } else {
        memcpy(cells, rec->cells, (size_t)n * n);
    }
    if (r->o->is_solution) {
        int rc = solve_one(r, file, rec->line, n, cells, &res);
        if (rc < 0)
            return rc == -2 ? -2 : 0;
    }
    snprintf(caption, sizeof(caption), "%s:%llu", shown_name(file), (unsigned long long)rec->line);
    if (!picture_add_puzzle(&r->doc, &r->o->picture, n, cells, r->o->is_solution ? res.cells : NULL,
                            caption))
        return -ENOMEM;
    return 0;
}

/* Every record of one input.  Returns 0, 1 (unreadable) or -2 (lost). */
static int render_file(struct render_run *r, const char *file)
{
    static struct input in; /* holds an 8 KiB line: off the stack */
    static struct input_record rec;
    int rc = input_open(&in, file, r->o->format);

    if (rc < 0) {
        fprintf(stderr, "sudoku: cannot open %s: %s\n", file, strerror(-rc));
        return 1;
    }
    while ((rc = input_next(&in, &rec)) > 0 && (rc = render_record(r, file, &rec)) == 0)
        ;
    if (rc == -EIO)
        fprintf(stderr, "sudoku: error reading %s\n", input_name(&in));
    else if (rc == -ENOMEM)
        fputs("sudoku: out of memory for the pictures\n", stderr);
    input_close(&in);
    if (rc == -2)
        return -2;
    return rc != 0;
}

/* With --solution: the daemon, or the plugins of this process.  Returns 0
 * or an exit status. */
static int render_open(struct render_run *r)
{
    if (!r->o->is_solution)
        return 0;
    if (r->o->is_local) {
        if (local_open(r->o->plugin_dir, r->o->is_verbose, &r->local) < 0)
            return EXIT_UNREACHABLE;
        return tool_check_solver(NULL, r->local, r->o);
    }
    r->c = tool_connect(r->o);
    if (!r->c)
        return EXIT_UNREACHABLE;
    if (r->o->solve.timeout_ms)
        sudoku_client_set_io_timeout(r->c, r->o->solve.timeout_ms + TOOL_TIMEOUT_MARGIN_MS);
    return tool_check_solver(r->c, NULL, r->o);
}

int tool_render(const struct tool_opts *o, char **files, int nfiles)
{
    struct render_run r = {.o = o};
    int status = 0, rc;

    picture_doc_init(&o->picture, &r.doc);
    rc = render_open(&r);
    for (int i = 0; i < nfiles && rc == 0; i++) {
        int frc = render_file(&r, files[i]);
        if (frc == -2) {
            struct sudoku_client_error why;
            sudoku_client_broken(r.c, &why);
            fprintf(stderr, "sudoku: lost the daemon at %s: %s\n", sudoku_client_path(r.c),
                    why.message);
            rc = EXIT_UNREACHABLE;
        }
        status |= frc > 0;
    }
    sudoku_client_free(r.c);
    local_free(r.local);
    if (rc == 0 && r.doc.len == 0 && !status && !r.failed) {
        fputs("sudoku: render: no puzzles to draw\n", stderr);
        status = 1;
    }
    if (r.doc.len == 1 && r.doc.per_page == 1)
        r.doc.grids[0].caption[0] = '\0'; /* one puzzle: no need to say which */
    if (rc == 0 && r.doc.len > 0 && picture_write(&o->picture, &r.doc) < 0)
        status = 1;
    render_doc_close(&r.doc);
    if (rc != 0)
        return rc;
    return status || r.failed ? EXIT_SOME_FAILED : EXIT_ALL_SOLVED;
}
