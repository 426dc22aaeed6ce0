/* hint.c -- the sudoku tool's hint, explain and rate subcommands.
 *
 *   sudoku hint [FILE]         the next step of each puzzle, in words
 *   sudoku explain [FILE]      every step, numbered, then a summary line
 *   sudoku rate [FILE...]      "rating difficulty hardest", one line a puzzle
 *
 * The inputs are read as for solving (proto/input.c: judge grids, one
 * puzzle a line, ...).  hint and explain ask one puzzle at a time (an
 * explanation is many lines: there is nothing to gain from pipelining
 * someone reading them); rate streams every input through one rating batch
 * (sudoku_client_batch_new_rate), window requests in flight, answers in input
 * order.  With --local, local.c explains and rates them in this process
 * instead, with the daemon's checks and words.  With
 * --progress FILE, the k-th grid of FILE is the player's grid for the k-th
 * puzzle; with --marks @FILE, the k-th line of FILE its pencil marks
 * (--marks STRING: the same marks for every puzzle).  --level 1..3 prints
 * a graded hint ("naked pair in row 3") in place of the step's sentence.  Failures go to stderr as
 * "sudoku: FILE:LINE: CODE: MESSAGE"; a lost daemon ends the run with exit 3.  With --format
 * svg|png|pdf hint and explain draw the grid before each step
 * (picture.c) instead of printing it, or besides when -o names the file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proto/codec.h"
#include "tool/local.h"
#include "tool/tool.h"
#include "util/json.h"

#define RATE_FILE_SHIFT 42 /* a rating's tag: file index above, line number below */

/* ------------------------------------------------------------------------ */
/* Inputs */

/* Open file for its puzzles, telling a user at a terminal how to end.
 * *is_tty (may be NULL): 1 when the input is a terminal.  Returns 0, or 1 (said on
 * stderr) when it cannot be opened. */
static int open_input(struct input *in, const char *file, enum input_format format, int *is_tty)
{
    int rc = input_open(in, file, format);
    if (rc < 0) {
        fprintf(stderr, "sudoku: cannot open %s: %s\n", file, strerror(-rc));
        return 1;
    }
    in->takes_json = 1; /* {"puzzle": ..., "rules": ...} lines: tool_record_rules */
    int tty = isatty(fileno(in->f));
    if (is_tty)
        *is_tty = tty;
    if (tty)
        fputs("sudoku: reading puzzles from the terminal; Ctrl-D ends\n", stderr);
    return 0;
}

/* Close in once its records are read; rc is how the reading ended.  A read
 * error (-EIO) is said on stderr and becomes 1; any other rc is returned. */
static int close_input(struct input *in, int rc)
{
    if (rc == -EIO) {
        fprintf(stderr, "sudoku: error reading %s\n", input_name(in));
        rc = 1;
    }
    input_close(in);
    return rc;
}

/* The line form of a record: its own text, or its grid formatted. */
static int record_text(const struct input_record *rec, char *buf, size_t size, const char **text,
                       size_t *len)
{
    if (rec->format != INPUT_GRID) {
        *text = rec->text;
        *len = rec->len;
        return 0;
    }
    int n = codec_format_line(rec->n, rec->cells, CODEC_BLANK_DOT, buf, size);
    if (n < 0)
        return n;
    *text = buf;
    *len = (size_t)n;
    return 0;
}

static const char *shown_name(const char *path)
{
    return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

/* A number as JSON: the shortest form that reads back as the same value. */
static void json_number(double v)
{
    printf("%.15g", v);
}

/* The last key of every object, and its end: the file the puzzle came from
 * ("<stdin>" for standard input; "line" is the puzzle's line in it). */
static void json_end(const char *file)
{
    fputs(",\"file\":", stdout);
    json_put_string(stdout, shown_name(file));
    puts("}");
}

static void json_error(uint64_t line, const char *file, const char *status,
                       const struct sudoku_client_error *e)
{
    printf("{\"line\":%llu,\"status\":\"%s\",\"code\":", (unsigned long long)line, status);
    json_put_string(stdout, e->code);
    fputs(",\"message\":", stdout);
    json_put_string(stdout, e->message);
    json_end(file);
}

/* 1 when e is only the echo of a broken connection (said once, at the end). */
static int is_connection_error(struct sudoku_client *c, const struct sudoku_client_error *e)
{
    struct sudoku_client_error why;
    return c && sudoku_client_broken(c, &why) < 0 && strcmp(e->code, why.code) == 0 &&
           strcmp(e->message, why.message) == 0;
}

/* ------------------------------------------------------------------------ */
/* hint and explain: printing */

static void json_pairs(const struct sudoku_client_cell_value *p, size_t len)
{
    putchar('[');
    for (size_t i = 0; i < len; i++)
        printf(i ? ",[%u,%u]" : "[%u,%u]", p[i].cell, p[i].value);
    putchar(']');
}

static void json_cells(const struct sudoku_client_step *s)
{
    fputs(",\"cells\":[", stdout);
    for (size_t i = 0; i < s->cells_len; i++)
        printf(i ? ",%u" : "%u", s->cells[i]);
    putchar(']');
}

/* A graded step (--level 1..3): the keys the daemon gave at that level. */
static void json_graded_step(const struct sudoku_client_step *s, unsigned level)
{
    if (level >= 2 && s->house_type[0]) {
        fputs(",\"house\":{\"type\":", stdout);
        json_put_string(stdout, s->house_type);
        printf(",\"index\":%u}", s->house_index);
    }
    if (level >= 3)
        json_cells(s);
    putchar('}');
}

static void json_step(const struct sudoku_client_step *s, unsigned level)
{
    fputs("{\"technique\":", stdout);
    json_put_string(stdout, s->technique);
    fputs(",\"rating\":", stdout);
    json_number(s->rating);
    if (level && level < 4) {
        json_graded_step(s, level);
        return;
    }
    fputs(",\"placements\":", stdout);
    json_pairs(s->placements, s->placements_len);
    fputs(",\"eliminations\":", stdout);
    json_pairs(s->eliminations, s->eliminations_len);
    json_cells(s);
    fputs(",\"text\":", stdout);
    json_put_string(stdout, s->text);
    putchar('}');
}

/* Sudoku Explainer's pearl and diamond, when the daemon rated them (a
 * daemon before them, or a plugin that does not rate them, leaves 0). */
static void json_pearl(double ep, double ed)
{
    if (ep <= 0.0 && ed <= 0.0)
        return;
    fputs(",\"ep\":", stdout);
    json_number(ep);
    fputs(",\"ed\":", stdout);
    json_number(ed);
}

static void json_explanation(uint64_t line, const char *file,
                             const struct sudoku_client_explanation *e, unsigned level)
{
    printf("{\"line\":%llu,\"status\":\"%s\",\"rating\":", (unsigned long long)line,
           sudoku_client_explain_status_name(e->status));
    json_number(e->rating);
    fputs(",\"difficulty\":", stdout);
    json_put_string(stdout, e->difficulty);
    fputs(",\"hardest\":", stdout);
    json_put_string(stdout, e->hardest);
    json_pearl(e->ep, e->ed);
    fputs(",\"solver\":", stdout);
    json_put_string(stdout, e->solver);
    printf(",\"elapsed_us\":%llu,\"steps\":[", (unsigned long long)e->elapsed_us);
    for (size_t i = 0; i < e->steps_len; i++) {
        if (i)
            putchar(',');
        json_step(&e->steps[i], level);
    }
    putchar(']');
    json_end(file);
}

/* A house in words, rows and columns from 1 as in the steps' text: "row
 * 3", "box 5", "the main diagonal". */
static void print_house(const struct sudoku_client_step *s)
{
    if (strcmp(s->house_type, "diagonal") == 0)
        fputs(s->house_index ? " on the anti-diagonal" : " on the main diagonal", stdout);
    else
        printf(" in %s %u", s->house_type, s->house_index + 1);
}

/* One step as --level says: the daemon's sentence (level 4), or the
 * technique's name in words, then its house (2), then its cells (3):
 * "naked pair in row 3: r3c1 r3c5". */
static void print_step(const struct sudoku_client_step *s, unsigned level, unsigned n)
{
    if (!level || level >= 4) {
        puts(s->text);
        return;
    }
    for (const char *c = s->technique; *c; c++)
        putchar(*c == '_' ? ' ' : *c);
    if (level >= 2 && s->house_type[0])
        print_house(s);
    for (size_t i = 0; level >= 3 && i < s->cells_len; i++)
        printf("%sr%uc%u", i ? " " : ": ", s->cells[i] / n + 1, s->cells[i] % n + 1);
    putchar('\n');
}

/* sudoku hint: each step's sentence ("already solved" when none is left). */
static void print_hint(const struct sudoku_client_explanation *e, unsigned level)
{
    if (e->steps_len == 0)
        puts("solved: nothing is left to place");
    for (size_t i = 0; i < e->steps_len; i++)
        print_step(&e->steps[i], level, e->n);
}

/* sudoku explain: "1. text" a step, then the summary line. */
static void print_explanation(const struct sudoku_client_explanation *e, unsigned level)
{
    for (size_t i = 0; i < e->steps_len; i++) {
        printf("%zu. ", i + 1);
        print_step(&e->steps[i], level, e->n);
    }
    printf("%s: %zu step%s, rating %.1f, difficulty %s, hardest %s\n",
           sudoku_client_explain_status_name(e->status), e->steps_len, e->steps_len == 1 ? "" : "s",
           e->rating, e->difficulty, e->hardest[0] ? e->hardest : "none");
}

/* ------------------------------------------------------------------------ */
/* hint and explain: the run */

/* State of one hint or explain run. */
struct explain_run {
    const struct tool_opts *o;
    int is_hint;             /* hint: the next steps only */
    struct sudoku_client *c; /* the connection; NULL with --local */
    struct local *local;     /* --local: the plugins in this process, else NULL */
    struct input progress;   /* --progress: the players' grids, else f NULL */
    FILE *marks;             /* --marks @FILE: a line of pencil marks a puzzle, else NULL */
    char *marks_line;        /* the last line read from it (getline's) */
    size_t marks_cap;        /* its allocation */
    uint64_t done;           /* puzzles explained (for the blank line between) */
    int failed;              /* some puzzle failed */
    struct render_doc doc;   /* --format svg|png|pdf: a grid a step */
};

/* The player's grid for the next puzzle, in line form into buf.  Returns 0,
 * 1 when there is no --progress, or -1 (printed) when it cannot be had. */
static int next_progress(struct explain_run *r, char *buf, size_t size, const char **text,
                         size_t *len)
{
    static struct input_record rec; /* 625 cells and a message: off the stack */
    if (!r->progress.f)
        return 1;
    int rc = input_next(&r->progress, &rec);
    if (rc <= 0 || rec.error[0]) {
        fprintf(stderr, "sudoku: %s: %s\n", input_name(&r->progress),
                rc < 0    ? "cannot read the progress grid"
                : rc == 0 ? "no progress grid left for this puzzle"
                          : rec.error);
        return -1;
    }
    return record_text(&rec, buf, size, text, len) < 0 ? -1 : 0;
}

/* The pencil marks for the next puzzle: --marks STRING itself, or the next
 * line of --marks @FILE (its line end and trailing blanks cut; blank lines
 * and '#' comment lines skipped, as in a puzzle file).  Returns 0 (*text
 * NULL: no --marks) or -1 (printed) when there is no line left. */
static int next_marks(struct explain_run *r, const char **text, size_t *len)
{
    ssize_t got;

    *text = NULL;
    *len = 0;
    if (!r->o->marks)
        return 0;
    if (!r->marks) {
        *text = r->o->marks;
        *len = strlen(r->o->marks);
        return 0;
    }
    do {
        got = getline(&r->marks_line, &r->marks_cap, r->marks);
        if (got < 0) {
            fprintf(stderr, "sudoku: %s: no line of pencil marks left for this puzzle\n",
                    r->o->marks + 1);
            return -1;
        }
        while (got > 0 && (r->marks_line[got - 1] == '\n' || r->marks_line[got - 1] == '\r' ||
                           r->marks_line[got - 1] == ' ' || r->marks_line[got - 1] == '\t'))
            got--;
    } while (got == 0 || r->marks_line[0] == '#');
    *text = r->marks_line;
    *len = (size_t)got;
    return 0;
}

static void report(struct explain_run *r, const char *file, uint64_t line,
                   const struct sudoku_client_error *e)
{
    r->failed = 1;
    if (!r->o->is_quiet)
        fprintf(stderr, "sudoku: %s:%llu: %s: %s\n", shown_name(file), (unsigned long long)line,
                e->code, e->message);
    if (r->o->is_json)
        json_error(line, file, strcmp(e->code, "not_unique") == 0 ? "not_unique" : "error", e);
}

/* --format svg|png|pdf: a picture a step of e, on the puzzle text and the
 * player's grid (progress, NULL: none), both in the line form.  Returns 0
 * or -ENOMEM. */
static int draw_steps(struct explain_run *r, const char *text, size_t len, const char *progress,
                      size_t progress_len, const struct sudoku_client_explanation *e)
{
    uint8_t cells[SUDOKU_CLIENT_MAX_CELLS], mine[SUDOKU_CLIENT_MAX_CELLS];
    unsigned n, pn = 0;
    char err[256];

    if (codec_parse_line(text, len, &n, cells, err, sizeof(err)) < 0)
        return 0; /* the daemon took it: cannot happen */
    if (progress &&
        (codec_parse_line(progress, progress_len, &pn, mine, err, sizeof(err)) < 0 || pn != n))
        progress = NULL;
    return picture_add_steps(&r->doc, &r->o->picture, n, cells, progress ? mine : NULL, e, "");
}

/* Explain one record.  Returns 0, or the negative errno of a lost daemon. */
static int explain_one(struct explain_run *r, const char *file, struct input_record *rec)
{
    const struct sudoku_client_rules *rules = tool_record_rules(rec, r->o);
    char buf[SUDOKU_CLIENT_MAX_CELLS + 1], pbuf[SUDOKU_CLIENT_MAX_CELLS + 1];
    struct sudoku_client_explain_opts eo = {.solver = r->o->solve.solver,
                                            .timeout_ms = r->o->solve.timeout_ms};
    struct sudoku_client_explanation *e = NULL;
    struct sudoku_client_error err;
    const char *text;
    size_t len;

    eo.steps = r->is_hint && !r->o->steps ? 1 : r->o->steps;
    if (rec->error[0] || record_text(rec, buf, sizeof(buf), &text, &len) < 0) {
        struct sudoku_client_error bad = {{0}, {0}};
        tool_record_error(rec, &bad);
        report(r, file, rec->line, &bad);
        return 0;
    }
    eo.level = r->o->level;
    int rc = next_progress(r, pbuf, sizeof(pbuf), &eo.progress, &eo.progress_len);
    if (rc == 0 || rc == 1)
        rc = next_marks(r, &eo.candidates, &eo.candidates_len);
    if (rc < 0) {
        r->failed = 1;
        return 0;
    }
    rc = r->local ? local_explain(r->local, text, len, &eo, rules, &e, &err)
                  : sudoku_client_explain_rules(r->c, text, len, &eo, rules, &e, &err);
    if (rc < 0) {
        if (r->c && sudoku_client_broken(r->c, NULL) < 0)
            return rc;
        report(r, file, rec->line, &err);
        return 0;
    }
    if (r->o->picture.is_on && draw_steps(r, text, len, eo.progress, eo.progress_len, e) < 0) {
        fputs("sudoku: out of memory for the pictures\n", stderr);
        r->failed = 1;
    }
    r->done++;
    if (r->o->picture.is_on && !r->o->picture.out) {
        sudoku_client_explanation_free(e);
        return 0; /* stdout is the picture's */
    }
    if (!r->o->is_json && r->done > 1) /* a blank line between puzzles */
        putchar('\n');
    if (r->o->is_json)
        json_explanation(rec->line, file, e, r->o->level);
    else if (r->is_hint)
        print_hint(e, r->o->level);
    else
        print_explanation(e, r->o->level);
    sudoku_client_explanation_free(e);
    return 0;
}

/* Every record of one input.  Returns 0, 1 (unreadable) or a lost daemon's errno. */
static int explain_file(struct explain_run *r, const char *file)
{
    static struct input in; /* holds an 8 KiB line: off the stack */
    static struct input_record rec;
    int rc;
    if (open_input(&in, file, r->o->format, NULL) != 0)
        return 1;
    while ((rc = input_next(&in, &rec)) > 0) {
        rc = explain_one(r, file, &rec);
        fflush(stdout);
        if (rc < 0)
            break;
    }
    return close_input(&in, rc);
}

/* Where the explanations come from: the daemon, or with --local the
 * plugins of this process.  Returns 0 or the exit status. */
static int explain_open(struct explain_run *r)
{
    const struct tool_opts *o = r->o;
    int rc;

    if (o->is_local) {
        if (local_open(o->plugin_dir, o->is_verbose, &r->local) < 0)
            return EXIT_NO_PLUGINS;
        return tool_check_solver(NULL, r->local, o);
    }
    r->c = tool_connect(o);
    if (!r->c)
        return EXIT_UNREACHABLE;
    rc = tool_check_solver(r->c, NULL, o);
    if (rc == 0 && o->solve.timeout_ms)
        sudoku_client_set_io_timeout(r->c, o->solve.timeout_ms + TOOL_TIMEOUT_MARGIN_MS);
    return rc;
}

static void explain_close(struct explain_run *r)
{
    render_doc_close(&r->doc);
    sudoku_client_free(r->c);
    local_free(r->local);
    input_close(&r->progress);
    if (r->marks)
        fclose(r->marks);
    free(r->marks_line);
}

int tool_explain(const struct tool_opts *o, int is_hint, char **files, int nfiles)
{
    struct explain_run r = {.o = o, .is_hint = is_hint};
    int status = 0, rc = 0;

    picture_doc_init(&o->picture, &r.doc);
    if (o->progress) {
        rc = input_open(&r.progress, o->progress, INPUT_AUTO);
        if (rc < 0) {
            fprintf(stderr, "sudoku: cannot open %s: %s\n", o->progress, strerror(-rc));
            return EXIT_USAGE;
        }
    }
    if (o->marks && o->marks[0] == '@') {
        r.marks = fopen(o->marks + 1, "r");
        if (!r.marks) {
            fprintf(stderr, "sudoku: cannot open %s: %s\n", o->marks + 1, strerror(errno));
            explain_close(&r);
            return EXIT_USAGE;
        }
    }
    rc = explain_open(&r);
    if (rc != 0) {
        explain_close(&r);
        return rc;
    }
    for (int i = 0; i < nfiles && rc >= 0; i++) {
        rc = explain_file(&r, files[i]);
        status |= rc > 0;
    }
    if (rc < 0) {
        struct sudoku_client_error why;
        sudoku_client_broken(r.c, &why);
        fprintf(stderr, "sudoku: lost the daemon at %s: %s\n", sudoku_client_path(r.c),
                why.message);
    }
    if (rc >= 0 && o->picture.is_on && r.doc.len > 0 && picture_write(&o->picture, &r.doc) < 0)
        status = 1;
    explain_close(&r);
    if (rc < 0)
        return EXIT_UNREACHABLE;
    return status || r.failed ? EXIT_SOME_FAILED : EXIT_ALL_SOLVED;
}

/* ------------------------------------------------------------------------ */
/* rate */

/* State of one rate run. */
struct rate_run {
    const struct tool_opts *o;
    char **files;            /* borrowed from argv */
    struct sudoku_client *c; /* to tell a broken connection; NULL with --local */
    struct local *local;     /* --local: the plugins in this process, else NULL */
    int failed;              /* some puzzle failed */
};

static void on_rating(void *arg, uint64_t seq, uint64_t tag, const struct sudoku_client_rating *res)
{
    struct rate_run *r = arg;
    uint64_t line = tag & ((UINT64_C(1) << RATE_FILE_SHIFT) - 1);
    (void)seq;
    if (res->status != SUDOKU_CLIENT_SOLVED) {
        if (is_connection_error(r->c, &res->error))
            return; /* said once, when the run ends */
        r->failed = 1;
        if (!r->o->is_quiet)
            fprintf(stderr, "sudoku: %s:%llu: %s: %s\n",
                    shown_name(r->files[tag >> RATE_FILE_SHIFT]), (unsigned long long)line,
                    res->error.code, res->error.message);
        if (r->o->is_json)
            json_error(line, r->files[tag >> RATE_FILE_SHIFT],
                       sudoku_client_status_name(res->status), &res->error);
        return;
    }
    if (!r->o->is_json) {
        /* No step at all: "stuck" when the techniques could not start. */
        printf("%.1f %s %s\n", res->rating, res->difficulty,
               res->hardest[0] ? res->hardest
               : res->is_logic ? "none"
                               : "stuck");
        return;
    }
    printf("{\"line\":%llu,\"rating\":", (unsigned long long)line);
    json_number(res->rating);
    fputs(",\"difficulty\":", stdout);
    json_put_string(stdout, res->difficulty);
    fputs(",\"hardest\":", stdout);
    json_put_string(stdout, res->hardest);
    json_pearl(res->ep, res->ed);
    printf(",\"steps\":%llu,\"logic\":%s,\"solver\":", (unsigned long long)res->steps,
           res->is_logic ? "true" : "false");
    json_put_string(stdout, res->solver);
    printf(",\"elapsed_us\":%llu", (unsigned long long)res->elapsed_us);
    json_end(r->files[tag >> RATE_FILE_SHIFT]);
}

/* --local: rate the record here and now, as the daemon would. */
static void rate_local(struct rate_run *r, uint64_t tag, const struct input_record *rec,
                       const struct sudoku_client_rules *rules)
{
    struct sudoku_client_options so = {.solver = r->o->solve.solver,
                                       .timeout_ms = r->o->solve.timeout_ms};
    struct sudoku_client_rating res;

    if (rec->error[0]) {
        memset(&res, 0, sizeof(res));
        res.status = SUDOKU_CLIENT_FAILED;
        tool_record_error(rec, &res.error);
    } else {
        local_rate(r->local, rec->format != INPUT_GRID ? rec->text : NULL, rec->len, rec->n,
                   rec->cells, &so, rules, &res);
    }
    on_rating(r, 0, tag, &res);
}

static int rate_record(struct rate_run *r, struct sudoku_client_batch *b, uint64_t tag,
                       struct input_record *rec, struct sudoku_client_error *err)
{
    const struct sudoku_client_rules *rules = tool_record_rules(rec, r->o);

    if (r->local) {
        rate_local(r, tag, rec, rules);
        return 0;
    }
    return tool_batch_add(b, tag, rec, rules, err);
}

/* Feed one input.  Returns 0, 1 (unreadable) or the batch's negative errno. */
static int rate_file(struct rate_run *r, struct sudoku_client_batch *b, int idx,
                     struct sudoku_client_error *err)
{
    static struct input in;
    static struct input_record rec;
    int is_tty, rc;
    if (open_input(&in, r->files[idx], r->o->format, &is_tty) != 0)
        return 1;
    while ((rc = input_next(&in, &rec)) > 0) {
        uint64_t tag = ((uint64_t)idx << RATE_FILE_SHIFT) |
                       (rec.line & ((UINT64_C(1) << RATE_FILE_SHIFT) - 1));
        rc = rate_record(r, b, tag, &rec, err);
        if (rc == 0 && is_tty && b) /* someone is typing: answer before the next */
            rc = sudoku_client_batch_finish(b, err);
        if (rc < 0)
            break;
    }
    return close_input(&in, rc);
}

/* sudoku rate --local: every input through the plugins of this process. */
static int rate_all_local(struct rate_run *r, int nfiles)
{
    struct sudoku_client_error err;
    int status = 0;
    int rc = local_open(r->o->plugin_dir, r->o->is_verbose, &r->local);

    if (rc < 0)
        return EXIT_NO_PLUGINS;
    rc = tool_check_solver(NULL, r->local, r->o);
    for (int i = 0; i < nfiles && rc == 0; i++)
        status |= rate_file(r, NULL, i, &err) != 0;
    local_free(r->local);
    if (rc != 0)
        return rc;
    return status || r->failed ? EXIT_SOME_FAILED : EXIT_ALL_SOLVED;
}

int tool_rate(const struct tool_opts *o, char **files, int nfiles)
{
    struct rate_run r = {.o = o, .files = files};
    struct sudoku_client_explain_opts eo = {.solver = o->solve.solver,
                                            .timeout_ms = o->solve.timeout_ms};
    struct sudoku_client_error err;
    struct sudoku_client_batch *b = NULL;
    int status = 0;
    unsigned window = o->window                                                ? o->window
                      : nfiles == 1 && strcmp(files[0], "-") == 0 && isatty(0) ? 1
                                                                               : TOOL_WINDOW;

    if (o->is_local)
        return rate_all_local(&r, nfiles);
    r.c = tool_connect(o);
    if (!r.c)
        return EXIT_UNREACHABLE;
    int rc = tool_check_solver(r.c, NULL, o);
    if (rc != 0) {
        sudoku_client_free(r.c);
        return rc;
    }
    if (o->solve.timeout_ms)
        sudoku_client_set_io_timeout(r.c, o->solve.timeout_ms + TOOL_TIMEOUT_MARGIN_MS);
    rc = sudoku_client_batch_new_rate(r.c, window, &eo, on_rating, &r, &b);
    for (int i = 0; i < nfiles && rc == 0; i++) {
        rc = rate_file(&r, b, i, &err);
        status |= rc > 0;
        rc = rc > 0 ? 0 : rc;
    }
    if (rc == 0)
        rc = sudoku_client_batch_finish(b, &err);
    else if (!b)
        snprintf(err.message, sizeof(err.message), "%s", strerror(-rc));
    fflush(stdout);
    if (rc < 0)
        fprintf(stderr, "sudoku: lost the daemon at %s: %s\n", sudoku_client_path(r.c),
                err.message);
    sudoku_client_batch_free(b);
    sudoku_client_free(r.c);
    if (rc < 0)
        return EXIT_UNREACHABLE;
    return status || r.failed ? EXIT_SOME_FAILED : EXIT_ALL_SOLVED;
}
