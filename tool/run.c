/* run.c -- the sudoku tool's solve front: inputs -> pipelined batch -> stdout.
 *
 * One connection, one batch across all inputs, so a million-line file keeps
 * window requests in flight and window answers in the reorder buffer: memory
 * does not depend on the input's length.  Answers come back in input order
 * through on_answer(), which prints them (plain or JSON), reports failures on
 * stderr with file and line, counts, and redraws the progress bar.
 *
 * Each puzzle's tag packs what on_answer needs to know about its input:
 *
 *   63        42 41               4    3       2     1      0
 *   [ file idx ][ line number    ][json][compact][grid][lower]
 *
 * A puzzle's rules and (JSON lines) its text are kept until its answer in
 * r->kept, a ring of window + 1 entries indexed by the batch's seq: an add
 * may deliver the answers of the window before it, never its own before
 * it returns... but one entry more costs nothing and makes that moot.
 * A JSON-lines puzzle is answered in JSON lines, carrying its rules; on a
 * terminal a puzzle with a jigsaw layout or cages is drawn (vgrid.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "proto/codec.h"
#include "tool/local.h"
#include "tool/progress.h"
#include "tool/tool.h"
#include "tool/vgrid.h"
#include "util/clock.h"
#include "util/json.h"

#define TAG_LOWER      1u
#define TAG_GRID       2u
#define TAG_COMPACT    4u /* a grid of rows like "53..7....": answered so */
#define TAG_JSON       8u /* a JSON-lines record: answered in JSON, with its rules */
#define TAG_LINE_SHIFT 4
#define TAG_LINE_BITS  38
#define TAG_FILE_SHIFT 42

/* What an answer needs of its puzzle, kept from its add. */
struct kept {
    struct sudoku_client_rules *rules; /* a JSON line's (tool_rules_dup), or NULL */
    char *puzzle;                      /* a JSON line's puzzle text, or NULL */
};

/* State of one run of the tool. */
struct run {
    const struct tool_opts *o;
    char **files;            /* borrowed from argv */
    struct sudoku_client *c; /* the connection, to tell a broken one */
    struct local *local;     /* --local: the plugins in this process, else NULL */
    uint64_t solved, unsolvable, failed, multiple;
    uint64_t records;       /* puzzles read from the inputs (counted on after a loss) */
    int is_count_partial;   /* a loss left an input that cannot be counted (a pipe) */
    uint64_t shutting_down; /* refused because the daemon is stopping */
    uint64_t errors_shown;  /* error lines printed */
    uint64_t errors_hidden; /* error lines held back past TOOL_ERRORS_SHOWN */
    uint64_t grids_printed; /* answers printed as grids: a blank line before the next */
    struct progress bar;    /* on stderr when it is a terminal and no input is; t0_us: start */
    uint64_t bytes_total;   /* sum of regular input sizes, 0 when unknown */
    uint64_t bytes_before;  /* bytes of inputs already finished */
    struct input in;        /* the input being read */
    int is_reading;         /* in is open */
    struct kept *kept;      /* kept_len entries, by seq */
    unsigned kept_len;      /* window + 1 */
    uint64_t added;         /* puzzles added: the next one's seq */
    int is_tty_out;         /* stdout is a terminal: draw variant grids */
};

static const char *file_name(const struct run *r, uint64_t tag)
{
    const char *f = r->files[tag >> TAG_FILE_SHIFT];
    return strcmp(f, "-") == 0 ? "<stdin>" : f;
}

static uint64_t tag_line(uint64_t tag)
{
    return (tag >> TAG_LINE_SHIFT) & ((UINT64_C(1) << TAG_LINE_BITS) - 1);
}

/* ------------------------------------------------------------------------ */
/* Progress bar */

/* "s" after a count that is not one. */
static const char *plural(uint64_t count)
{
    return count == 1 ? "" : "s";
}

static void draw_bar(struct run *r, uint64_t now)
{
    uint64_t done = r->solved + r->unsolvable + r->failed;
    double secs = progress_secs(&r->bar, now);
    double rate = secs > 0 ? (double)done / secs : 0;
    uint64_t bytes = r->bytes_before + (r->is_reading ? r->in.bytes : 0);
    if (r->bytes_total > 0 && bytes <= r->bytes_total) {
        double frac = (double)bytes / (double)r->bytes_total;
        double eta = frac > 0 ? secs / frac - secs : 0;
        progress_draw(&r->bar, now, frac, "%llu puzzle%s, %.0f/s, ETA %.0fs",
                      (unsigned long long)done, plural(done), rate, eta);
    } else {
        progress_draw(&r->bar, now, -1, "%llu puzzle%s, %.0f/s", (unsigned long long)done,
                      plural(done), rate);
    }
}

static void maybe_progress(struct run *r)
{
    uint64_t now;
    if (progress_is_due(&r->bar, &now))
        draw_bar(r, now);
}

/* ------------------------------------------------------------------------ */
/* Printing answers */

static void json_grid(unsigned n, const uint8_t *cells)
{
    putchar('[');
    for (unsigned i = 0; i < n; i++) {
        putchar('[');
        for (unsigned j = 0; j < n; j++)
            printf(j ? ",%u" : "%u", cells[i * n + j]);
        fputs(i + 1 < n ? "]," : "]", stdout);
    }
    putchar(']');
}

/* The last key of every object, and its end: the file the puzzle came from
 * ("<stdin>" for standard input; "line" is the puzzle's line in it). */
static void json_end(const struct run *r, uint64_t tag)
{
    fputs(",\"file\":", stdout);
    json_put_string(stdout, file_name(r, tag));
    puts("}");
}

/* The rules of the answer to seq: its JSON line's, else the command line's. */
static const struct sudoku_client_rules *rules_of(const struct run *r, uint64_t seq, uint64_t tag)
{
    const struct kept *k = &r->kept[seq % r->kept_len];
    return (tag & TAG_JSON) ? k->rules : r->o->rules;
}

/* A JSON line's puzzle and rules, or --rules, carried into its answer. */
static void json_rules(const struct run *r, uint64_t seq, uint64_t tag)
{
    const struct sudoku_client_rules *rules = rules_of(r, seq, tag);
    const char *puzzle = r->kept[seq % r->kept_len].puzzle;

    if ((tag & TAG_JSON) && puzzle) {
        fputs(",\"puzzle\":", stdout);
        json_put_string(stdout, puzzle);
    }
    if ((tag & TAG_JSON) || rules) {
        fputs(",\"rules\":", stdout);
        tool_rules_put_json(stdout, rules);
    }
}

static void print_json(const struct run *r, uint64_t seq, uint64_t tag,
                       const struct sudoku_client_result *res, const char *solution)
{
    printf("{\"line\":%llu", (unsigned long long)tag_line(tag));
    json_rules(r, seq, tag);
    printf(",\"status\":\"%s\"", sudoku_client_status_name(res->status));
    if (res->status == SUDOKU_CLIENT_FAILED) {
        fputs(",\"code\":", stdout);
        json_put_string(stdout, res->error.code);
        fputs(",\"message\":", stdout);
        json_put_string(stdout, res->error.message);
        json_end(r, tag);
        return;
    }
    fputs(",\"solution\":", stdout);
    if (res->status != SUDOKU_CLIENT_SOLVED)
        fputs("null", stdout);
    else if (tag & TAG_GRID)
        json_grid(res->n, res->cells);
    else
        json_put_string(stdout, solution);
    printf(",\"count\":%llu,", (unsigned long long)res->count);
    if (r->o->is_unique) /* --unique: exactly one solution */
        printf("\"unique\":%s,",
               res->status == SUDOKU_CLIENT_SOLVED && res->count == 1 ? "true" : "false");
    fputs("\"solver\":", stdout);
    json_put_string(stdout, res->solver);
    printf(",\"elapsed_us\":%llu", (unsigned long long)res->elapsed_us);
    json_end(r, tag);
}

/* "2" or, when the count reached the limit, "2+" (there may be more). */
static void count_text(const struct run *r, const struct sudoku_client_result *res, char *out,
                       size_t size)
{
    snprintf(out, size, "%llu%s", (unsigned long long)res->count,
             res->count >= r->o->solve.limit ? "+" : "");
}

/* Print this answer as a grid: --output grid, else as its puzzle came. */
static int as_grid(const struct run *r, uint64_t tag)
{
    if (r->o->output == TOOL_OUT_GRID || r->o->output == TOOL_OUT_READABLE)
        return 1;
    return r->o->output == TOOL_OUT_LINE ? 0 : (tag & TAG_GRID) != 0;
}

/* The side of a box of an n x n grid (n is 4, 9, 16 or 25). */
static unsigned box_side(unsigned n)
{
    unsigned b = 2;
    while (b * b < n)
        b++;
    return b;
}

/* A grid boxed as qqwing's readable form: " 5 3 4 | 6 7 8 | 9 1 2", a rule
 * line ("-------|-------|-------") between bands of boxes; values over 9
 * take two columns.  The input reader takes it back. */
static void print_readable(unsigned n, const uint8_t *cells)
{
    unsigned b = box_side(n), w = n > 9 ? 2 : 1;

    for (unsigned i = 0; i < n; i++) {
        if (i > 0 && i % b == 0) {
            for (unsigned k = 0; k < b; k++) {
                for (unsigned c = 0; c < b * (w + 1) + 1; c++)
                    putchar('-');
                if (k + 1 < b)
                    putchar('|');
            }
            putchar('\n');
        }
        for (unsigned j = 0; j < n; j++) {
            if (j > 0 && j % b == 0)
                fputs(" |", stdout);
            printf(" %*u", (int)w, cells[i * n + j]);
        }
        putchar('\n');
    }
}

/* One answer as a grid: a blank line after the one before, then rows of
 * digits as its puzzle came ("534678912", --output grid: never) or the
 * judge form's numbers. */
static void print_grid(struct run *r, uint64_t tag, const struct sudoku_client_result *res)
{
    char text[SUDOKU_CLIENT_MAX_CELLS * 3 + 1];

    if (r->grids_printed++ > 0)
        putchar('\n');
    if (r->o->output == TOOL_OUT_READABLE) {
        print_readable(res->n, res->cells);
        return;
    }
    if ((tag & TAG_COMPACT) && r->o->output == TOOL_OUT_AS_INPUT) {
        for (unsigned i = 0; i < res->n; i++) {
            for (unsigned j = 0; j < res->n; j++)
                putchar('0' + res->cells[i * res->n + j]);
            putchar('\n');
        }
        return;
    }
    if (codec_format_judge(res->n, res->cells, text, sizeof(text)) > 0)
        fputs(text, stdout);
}

/* Draw this answer with its regions and cages: --output readable, or a
 * terminal and a puzzle with a layout or cages. */
static int as_vgrid(const struct run *r, const struct sudoku_client_rules *rules)
{
    if (!rules || (!rules->regions && !rules->cages_len))
        return 0;
    return r->o->output == TOOL_OUT_READABLE ||
           (r->is_tty_out && r->o->output == TOOL_OUT_AS_INPUT);
}

static void print_plain(struct run *r, uint64_t tag, const struct sudoku_client_result *res,
                        const char *solution, const struct sudoku_client_rules *rules)
{
    const char *verdict = res->count == 1 ? "unique" : "multiple";
    char count[32];

    count_text(r, res, count, sizeof(count));
    if (r->o->is_count) { /* sudoku count: the number alone */
        puts(count);
        return;
    }
    if (as_vgrid(r, rules)) {
        if (r->grids_printed++ > 0)
            putchar('\n');
        vgrid_print(stdout, res->n, res->cells, rules);
        if (r->o->is_unique || r->o->solve.limit > 1)
            printf("count: %s%s%s\n", count, r->o->is_unique ? " " : "",
                   r->o->is_unique ? verdict : "");
        return;
    }
    if (!r->o->is_unique && r->o->solve.limit > 1) { /* --limit N: the count too */
        if (as_grid(r, tag)) {
            print_grid(r, tag, res);
            printf("count: %s\n", count);
        } else {
            printf("%s %s\n", solution, count);
        }
        return;
    }
    if (as_grid(r, tag)) {
        print_grid(r, tag, res);
        if (r->o->is_unique)
            puts(verdict);
    } else if (r->o->is_unique) {
        printf("%s %s\n", solution, verdict);
    } else {
        puts(solution);
    }
}

/* 1 when res failed only because the connection broke: said once, at the end. */
static int is_unanswered(const struct run *r, const struct sudoku_client_result *res)
{
    struct sudoku_client_error why;

    return res->status == SUDOKU_CLIENT_FAILED && r->c && sudoku_client_broken(r->c, &why) < 0 &&
           strcmp(res->error.code, why.code) == 0 && strcmp(res->error.message, why.message) == 0;
}

static void report_failure(struct run *r, uint64_t tag, const struct sudoku_client_result *res)
{
    /* A stopping daemon refuses every request it has not started: one line. */
    if (res->status == SUDOKU_CLIENT_FAILED && strcmp(res->error.code, "overloaded") == 0 &&
        r->shutting_down++ > 0)
        return;
    /* Random bytes make one error a line: a screenful says it, a count the rest. */
    if (r->o->is_quiet || (!r->o->is_verbose && r->errors_shown >= TOOL_ERRORS_SHOWN)) {
        r->errors_hidden++;
        return;
    }
    r->errors_shown++;
    progress_clear(&r->bar);
    if (res->status == SUDOKU_CLIENT_UNSOLVABLE)
        fprintf(stderr, "sudoku: %s:%llu: unsolvable: the puzzle has no solution\n",
                file_name(r, tag), (unsigned long long)tag_line(tag));
    else
        fprintf(stderr, "sudoku: %s:%llu: %s: %s\n", file_name(r, tag),
                (unsigned long long)tag_line(tag), res->error.code, res->error.message);
}

static void on_answer(void *arg, uint64_t seq, uint64_t tag, const struct sudoku_client_result *res)
{
    struct run *r = arg;
    char solution[SUDOKU_CLIENT_MAX_CELLS + 1];
    snprintf(solution, sizeof(solution), "%s", res->solution);
    for (char *p = solution; (tag & TAG_LOWER) && *p; p++)
        *p = (char)tolower((unsigned char)*p);
    if (res->status == SUDOKU_CLIENT_SOLVED ||
        (res->status == SUDOKU_CLIENT_UNSOLVABLE && r->o->is_count)) { /* 0 is a count */
        r->solved++;
        r->multiple += res->count > 1;
    } else if (!is_unanswered(r, res)) { /* lost ones are said once, in the summary */
        r->unsolvable += res->status == SUDOKU_CLIENT_UNSOLVABLE;
        r->failed += res->status == SUDOKU_CLIENT_FAILED;
        report_failure(r, tag, res);
    }
    if (r->o->is_json || ((tag & TAG_JSON) && r->o->output == TOOL_OUT_AS_INPUT &&
                          !as_vgrid(r, rules_of(r, seq, tag))))
        print_json(r, seq, tag, res, solution);
    else if (res->status == SUDOKU_CLIENT_SOLVED)
        print_plain(r, tag, res, solution, rules_of(r, seq, tag));
    else if (res->status == SUDOKU_CLIENT_UNSOLVABLE && r->o->is_count)
        puts("0"); /* counted: none */
    maybe_progress(r);
}

/* ------------------------------------------------------------------------ */
/* Feeding the batch */

static uint64_t make_tag(int file_idx, const struct input_record *rec)
{
    uint64_t line = rec->line & ((UINT64_C(1) << TAG_LINE_BITS) - 1);
    return ((uint64_t)file_idx << TAG_FILE_SHIFT) | (line << TAG_LINE_SHIFT) |
           (rec->format == INPUT_GRID ? TAG_GRID : 0) | (rec->is_lower ? TAG_LOWER : 0) |
           (rec->format == INPUT_GRID && rec->is_compact ? TAG_COMPACT : 0) |
           (rec->format == INPUT_JSON ? TAG_JSON : 0);
}

/* --local: answer the record here and now, as the daemon would. */
static void feed_local(struct run *r, uint64_t seq, uint64_t tag, const struct input_record *rec,
                       const struct sudoku_client_rules *rules)
{
    static struct sudoku_client_result res; /* 1.3 KiB of cells: off the stack */

    memset(&res, 0, sizeof(res));
    if (rec->error[0]) {
        res.status = SUDOKU_CLIENT_FAILED;
        tool_record_error(rec, &res.error);
    } else {
        local_solve(r->local, rec->format != INPUT_GRID ? rec->text : NULL, rec->len, rec->n,
                    rec->cells, &r->o->solve, rules, &res);
    }
    on_answer(r, seq, tag, &res);
}

void tool_record_error(const struct input_record *rec, struct sudoku_client_error *e)
{
    snprintf(e->code, sizeof(e->code), "%s",
             rec->format == INPUT_JSON ? "bad_request" : "bad_puzzle");
    snprintf(e->message, sizeof(e->message), "%s", rec->error);
}

const struct sudoku_client_rules *tool_record_rules(struct input_record *rec,
                                                    const struct tool_opts *o)
{
    static struct tool_rules json;                   /* the last JSON line's rules */
    static char puzzle[4 * SUDOKU_CLIENT_MAX_CELLS]; /* and its puzzle */

    if (rec->format != INPUT_JSON || rec->error[0])
        return rec->format == INPUT_JSON ? NULL : o->rules;
    if (tool_rules_from_json(rec->text, rec->len, puzzle, sizeof(puzzle), &json, rec->error,
                             sizeof(rec->error)) < 0)
        return NULL;
    rec->text = puzzle;
    rec->len = strlen(puzzle);
    return &json.r;
}

/* Keep what the answer to add seq needs (a JSON line's puzzle and
 * rules).  A copy that cannot be made is said in rec->error. */
static void keep(struct run *r, uint64_t seq, struct input_record *rec,
                 const struct sudoku_client_rules *rules)
{
    struct kept *k = &r->kept[seq % r->kept_len];

    free(k->rules);
    free(k->puzzle);
    k->rules = NULL;
    k->puzzle = NULL;
    if (rec->format != INPUT_JSON)
        return;
    k->rules = tool_rules_dup(rules);
    k->puzzle = rec->error[0] ? NULL : strndup(rec->text, rec->len);
    if ((rules && !k->rules) || (!rec->error[0] && !k->puzzle))
        snprintf(rec->error, sizeof(rec->error), "out of memory for the puzzle's rules");
}

int tool_batch_add(struct sudoku_client_batch *b, uint64_t tag, const struct input_record *rec,
                   const struct sudoku_client_rules *rules, struct sudoku_client_error *err)
{
    if (rec->error[0]) {
        struct sudoku_client_error e = {{0}, {0}};
        tool_record_error(rec, &e);
        return sudoku_client_batch_add_failed(b, tag, e.code, e.message, err);
    }
    if (rec->format == INPUT_GRID)
        return sudoku_client_batch_add_cells_rules(b, rec->n, rec->cells, rules, tag, err);
    return sudoku_client_batch_add_rules(b, rec->text, rec->len, rules, tag, err);
}

static int feed_record(struct run *r, struct sudoku_client_batch *b, int idx,
                       struct input_record *rec, struct sudoku_client_error *err)
{
    uint64_t tag = make_tag(idx, rec);
    const struct sudoku_client_rules *rules = tool_record_rules(rec, r->o);
    uint64_t seq = r->added++;

    keep(r, seq, rec, rules);
    if (r->local) {
        feed_local(r, seq, tag, rec, rules);
        return 0;
    }
    return tool_batch_add(b, tag, rec, rules, err);
}

/* After the daemon was lost: count the puzzles left in in, so the summary can
 * say how many got no answer.  Only a regular file is read on (a terminal or
 * a pipe might never end). */
static void count_rest(struct run *r, struct input *in)
{
    struct input_record rec;
    struct stat st;

    if (fstat(fileno(in->f), &st) < 0 || !S_ISREG(st.st_mode)) {
        r->is_count_partial = 1;
        return;
    }
    while (input_next(in, &rec) > 0)
        r->records++;
}

/* Feed one input.  Returns 0, a negative errno from the batch (connection
 * lost: err says why) or 1 when the input could not be read. */
static int feed_file(struct run *r, struct sudoku_client_batch *b, int idx,
                     struct sudoku_client_error *err)
{
    struct input_record rec;
    int rc = input_open(&r->in, r->files[idx], r->o->format);
    if (rc < 0) {
        progress_clear(&r->bar);
        fprintf(stderr, "sudoku: cannot open %s: %s\n", r->files[idx], strerror(-rc));
        return 1;
    }
    r->is_reading = 1;
    r->in.takes_json = 1;
    int is_tty = isatty(fileno(r->in.f)), is_binary_said = 0;
    uint64_t records_before = r->records;
    if (is_tty && !r->o->is_quiet)
        fputs("sudoku: reading puzzles from the terminal; Ctrl-D ends\n", stderr);
    while ((rc = input_next(&r->in, &rec)) > 0) {
        r->records++;
        if (r->in.looks_binary && !is_binary_said++ && !r->o->is_quiet) {
            progress_clear(&r->bar);
            fprintf(stderr,
                    "sudoku: %s looks binary (control bytes near its start), "
                    "not a puzzle file\n",
                    input_name(&r->in));
        }
        rc = feed_record(r, b, idx, &rec, err);
        /* Someone is typing: answer this puzzle before reading the next. */
        if (rc == 0 && is_tty && b)
            rc = sudoku_client_batch_finish(b, err);
        if (rc < 0)
            break;
    }
    if (rc == 0 && r->records == records_before && !is_tty && !r->o->is_quiet)
        fprintf(stderr, "sudoku: no puzzles in %s\n", input_name(&r->in));
    if (rc < 0 && rc != -EIO)
        count_rest(r, &r->in);
    if (rc == -EIO) {
        progress_clear(&r->bar);
        fprintf(stderr, "sudoku: error reading %s\n", input_name(&r->in));
        rc = 1;
    }
    r->bytes_before += r->in.bytes;
    r->is_reading = 0;
    input_close(&r->in);
    return rc;
}

static uint64_t total_bytes(char **files, int nfiles)
{
    uint64_t total = 0;
    for (int i = 0; i < nfiles; i++) {
        struct stat st;
        int fd_ok = strcmp(files[i], "-") == 0 ? fstat(0, &st) == 0 : stat(files[i], &st) == 0;
        if (!fd_ok || !S_ISREG(st.st_mode))
            return 0;
        total += (uint64_t)st.st_size;
    }
    return total;
}

/* ------------------------------------------------------------------------ */
/* The whole run */

struct sudoku_client *tool_connect(const struct tool_opts *o)
{
    struct sudoku_client *c = NULL;
    struct sudoku_client_error err;
    char path[108];
    int rc = sudoku_client_connect(o->socket, &c, &err);
    if (rc == 0)
        return c;
    fprintf(stderr, "sudoku: %s\n", err.message);
    if ((rc == -EACCES || rc == -EPERM) && strstr(err.message, " lets in only "))
        fputs("sudoku: (run your own sudokud, or ask its owner for a socket group: "
              "--socket-mode 0660; docs/systemd.md)\n",
              stderr);
    else if (rc == -EACCES || rc == -EPERM)
        fputs("sudoku: (join the group, then log in again: sudo usermod -aG GROUP $USER; "
              "docs/systemd.md)\n",
              stderr);
    if (rc != -EACCES && rc != -EPERM &&
        sudoku_client_socket_path(o->socket, path, sizeof(path)) == 0)
        fprintf(stderr,
                "sudoku: start it with: sudokud -s %s\n"
                "sudoku: (or, as a service: systemctl start sudokud.socket)\n",
                path);
    if (rc != -EACCES && rc != -EPERM && !o->socket && o->can_local)
        fputs("sudoku: (or run without a daemon: add --local, the plugins in this process)\n",
              stderr);
    return NULL;
}

/* Some puzzle failed: unsolvable, an error, or (--unique) not unique. */
static int is_failed(const struct run *r)
{
    return r->failed || r->unsolvable || (r->o->is_unique && r->multiple);
}

static void summary(const struct run *r)
{
    if (r->o->is_quiet)
        return;
    if (r->errors_hidden)
        fprintf(stderr, "sudoku: ... and %llu more error%s (-v shows all)\n",
                (unsigned long long)r->errors_hidden, r->errors_hidden == 1 ? "" : "s");
    double secs = progress_secs(&r->bar, clock_now_us());
    uint64_t done = r->solved + r->unsolvable + r->failed;
    fprintf(stderr, "sudoku: %llu solved, %llu unsolvable, %llu error%s",
            (unsigned long long)r->solved, (unsigned long long)r->unsolvable,
            (unsigned long long)r->failed, plural(r->failed));
    if (r->o->is_unique)
        fprintf(stderr, ", %llu not unique", (unsigned long long)r->multiple);
    if (r->shutting_down > 1)
        fprintf(stderr, " (%llu refused: overloaded)", (unsigned long long)r->shutting_down);
    if (r->records > done)
        fprintf(stderr, ", %s%llu got no answer", r->is_count_partial ? "at least " : "",
                (unsigned long long)(r->records - done));
    fprintf(stderr, " in %.3f s", secs);
    if (r->solved > 0 && secs > 0) /* a rate of failures says nothing */
        fprintf(stderr, ", %.0f puzzles/s", (double)done / secs);
    fputc('\n', stderr);
}

/* After a loss: count the puzzles of the inputs not yet opened. */
static void count_files(struct run *r, int from, int nfiles)
{
    for (int i = from; i < nfiles; i++) {
        struct input in;
        if (input_open(&in, r->files[i], r->o->format) < 0)
            continue;
        count_rest(r, &in);
        input_close(&in);
    }
}

/* Run every input through b.  Returns 0, 1 (an input was unreadable) or a
 * negative errno (the connection broke). */
static int feed_all(struct run *r, struct sudoku_client_batch *b, int nfiles,
                    struct sudoku_client_error *err)
{
    int status = 0;
    for (int i = 0; i < nfiles; i++) {
        int rc = feed_file(r, b, i, err);
        if (rc < 0) {
            count_files(r, i + 1, nfiles);
            return rc;
        }
        status |= rc;
    }
    int rc = b ? sudoku_client_batch_finish(b, err) : 0;
    return rc < 0 ? rc : status;
}

static unsigned pick_window(const struct tool_opts *o, char **files, int nfiles)
{
    if (o->window)
        return o->window;
    /* Someone typing puzzles wants each answer before the next line. */
    if (nfiles == 1 && strcmp(files[0], "-") == 0 && isatty(0))
        return 1;
    return TOOL_WINDOW;
}

int tool_check_solver(struct sudoku_client *c, struct local *l, const struct tool_opts *o)
{
    struct sudoku_client_solver list[SUDOKU_CLIENT_MAX_SOLVERS];
    struct sudoku_client_error err;
    char names[SUDOKU_CLIENT_MAX_SOLVERS * (SUDOKU_CLIENT_NAME_SIZE + 2)] = "";
    size_t len, used = 0;

    if (!o->solve.solver)
        return 0;
    if (l) {
        len = local_solvers(l, list, SUDOKU_CLIENT_MAX_SOLVERS);
    } else if (!c) {
        return EXIT_UNREACHABLE;
    } else if (sudoku_client_solvers(c, list, SUDOKU_CLIENT_MAX_SOLVERS, &len, &err) < 0) {
        fprintf(stderr, "sudoku: lost the daemon at %s: %s\n", sudoku_client_path(c), err.message);
        return EXIT_UNREACHABLE;
    }
    for (size_t i = 0; i < len && i < SUDOKU_CLIENT_MAX_SOLVERS; i++) {
        if (strcmp(list[i].name, o->solve.solver) == 0)
            return 0;
        used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s", i ? ", " : "",
                                 list[i].name);
    }
    fprintf(stderr, "sudoku: %s has no solver named \"%s\" (it has: %s)\n",
            l ? "--local" : "the daemon", o->solve.solver, names);
    return EXIT_USAGE;
}

/* The ring of what answers need of their puzzles, window + 1 entries.
 * Returns 0 or -ENOMEM (said). */
static int kept_new(struct run *r, unsigned window)
{
    r->kept_len = window + 1;
    r->kept = calloc(r->kept_len, sizeof(*r->kept));
    if (!r->kept)
        fputs("sudoku: out of memory\n", stderr);
    return r->kept ? 0 : -ENOMEM;
}

static void kept_free(struct run *r)
{
    for (unsigned i = 0; r->kept && i < r->kept_len; i++) {
        free(r->kept[i].rules);
        free(r->kept[i].puzzle);
    }
    free(r->kept);
    r->kept = NULL;
}

/* --local: every input through the plugins of this process. */
static int solve_local(struct run *r, int nfiles)
{
    struct sudoku_client_error err;
    int rc = kept_new(r, 1);

    if (rc < 0)
        return EXIT_SOME_FAILED;
    rc = local_open(r->o->plugin_dir, r->o->is_verbose, &r->local);
    if (rc < 0) {
        kept_free(r);
        return EXIT_NO_PLUGINS;
    }
    rc = tool_check_solver(NULL, r->local, r->o);
    if (rc == 0)
        rc = feed_all(r, NULL, nfiles, &err);
    fflush(stdout);
    progress_clear(&r->bar);
    local_free(r->local);
    kept_free(r);
    if (rc == EXIT_USAGE)
        return rc;
    if (r->o->is_verbose || is_failed(r) || rc != 0)
        summary(r);
    return rc || is_failed(r) ? EXIT_SOME_FAILED : EXIT_ALL_SOLVED;
}

/* 1 when an input is a terminal: someone types there, and a progress line
 * would be drawn over what they type. */
static int reads_terminal(char **files, int nfiles)
{
    for (int i = 0; i < nfiles; i++)
        if (strcmp(files[i], "-") == 0 && isatty(0))
            return 1;
    return 0;
}

int tool_solve(const struct tool_opts *o, char **files, int nfiles)
{
    static struct run r; /* holds the input's line buffer: keep it off the stack */
    memset(&r, 0, sizeof(r));
    r.o = o;
    r.files = files;
    progress_init(&r.bar, stderr, clock_now_us());
    r.bar.is_on = isatty(2) && !reads_terminal(files, nfiles) && !o->is_quiet;
    struct sudoku_client_error err;
    struct sudoku_client_batch *b = NULL;
    r.bytes_total = total_bytes(files, nfiles);
    r.is_tty_out = isatty(1);
    if (o->is_local)
        return solve_local(&r, nfiles);
    struct sudoku_client *c = tool_connect(o);
    if (!c)
        return EXIT_UNREACHABLE;
    r.c = c;
    int rc = tool_check_solver(c, NULL, o);
    if (rc != 0) {
        sudoku_client_free(c);
        return rc;
    }
    if (o->solve.timeout_ms)
        sudoku_client_set_io_timeout(c, o->solve.timeout_ms + TOOL_TIMEOUT_MARGIN_MS);
    rc = kept_new(&r, pick_window(o, files, nfiles));
    if (rc == 0)
        rc = sudoku_client_batch_new(c, r.kept_len - 1, &o->solve, on_answer, &r, &b);
    if (rc == 0)
        rc = feed_all(&r, b, nfiles, &err);
    else
        snprintf(err.message, sizeof(err.message), "%s", strerror(-rc));
    fflush(stdout);
    progress_clear(&r.bar);
    if (rc < 0)
        fprintf(stderr, "sudoku: lost the daemon at %s: %s\n", sudoku_client_path(c), err.message);
    sudoku_client_batch_free(b);
    sudoku_client_free(c);
    kept_free(&r);
    if (o->is_verbose || is_failed(&r) || rc != 0)
        summary(&r);
    if (rc < 0)
        return EXIT_UNREACHABLE;
    return rc || is_failed(&r) ? EXIT_SOME_FAILED : EXIT_ALL_SOLVED;
}
