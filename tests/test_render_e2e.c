/* test_render_e2e.c -- the built sudoku's pictures, as a user makes them.
 *
 * Runs the real tool with --local (the plugins of the build, no daemon):
 * sudoku render to PNG, PDF and SVG, with --solution; hint and explain
 * drawing their steps; generate's puzzle book; and the command lines that
 * must be refused.  A PNG is read back with cairo and looked at where
 * render_doc_grid_at says the cells are (the same layout the tool used):
 * a blank of the puzzle is blank in the puzzle's picture and blue in the
 * solution's.  Without cairo the PNG and PDF cases check that the tool
 * says so and skip.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/tool_run.h"
#include "tool/render.h"
#ifdef RENDER_HAS_CAIRO
#include <cairo.h>
#endif

/* The first puzzle of tests/data/client_lines.txt's 9x9s, and an easy one
 * whose first step is a hidden single (a placement, circled). */
static const char puzzle[] =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n";

static char dir[64];
static struct tool_run run; /* 2 MiB of output: off the stack */

static int setup(void **state)
{
    char path[128];
    (void)state;
    snprintf(dir, sizeof(dir), "/tmp/test_render_e2e.XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(path, sizeof(path), "%s/puzzle.txt", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(puzzle, f);
    return fclose(f);
}

static int teardown(void **state)
{
    char cmd[128];
    (void)state;
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *in_dir(const char *name)
{
    static char paths[8][128];
    static unsigned next;
    char *p = paths[next++ % 8];
    snprintf(p, 128, "%s/%s", dir, name);
    return p;
}

/* Run sudoku with args after "--local -P DIR" where the subcommand wants
 * them (args[0] is the subcommand). */
static void sudoku(const char *const *args)
{
    const char *argv[32];
    const char *head[] = {"sudoku", NULL};
    size_t len = tool_run_argv(argv, 32, head, args);
    assert_true(len + 3 < 32);
    argv[len++] = "--local";
    argv[len++] = "-P";
    argv[len++] = SUDOKU_BUILD_PLUGIN_DIR;
    argv[len] = NULL;
    tool_run_prog(&run, dir, NULL, "sudoku", argv);
}

/* The first n bytes of path into buf (NUL-terminated); how many there were. */
static size_t head_of(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "rb");
    size_t len = 0;
    if (f) {
        len = fread(buf, 1, n, f);
        fclose(f);
    }
    buf[len] = '\0';
    return len;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && st.st_size > 0;
}

/* ------------------------------------------------------------------------ */
/* PNG */

#ifdef RENDER_HAS_CAIRO
/* How many blue pixels cell i of the (only) grid of png has. */
static unsigned blue_in(const char *png, unsigned i)
{
    struct render_doc d; /* laid out as the tool lays out one 9x9 */
    double x, y;
    unsigned cell, blue = 0;
    render_doc_init(&d, RENDER_PNG);
    assert_non_null(render_doc_add(&d, 9));
    assert_int_equal(render_doc_grid_at(&d, 0, &x, &y, &cell), 0);
    render_doc_close(&d);

    cairo_surface_t *s = cairo_image_surface_create_from_png(png);
    assert_int_equal(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
    unsigned char *data = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s);
    int x0 = (int)x + (int)((i % 9) * cell), y0 = (int)y + (int)((i / 9) * cell);
    for (int py = y0 + 3; py < y0 + (int)cell - 3; py++) {
        for (int px = x0 + 3; px < x0 + (int)cell - 3; px++) {
            uint32_t v;
            memcpy(&v, data + (size_t)py * (size_t)stride + (size_t)px * 4, 4);
            int r = (int)((v >> 16) & 0xff), b = (int)(v & 0xff);
            blue += b > r + 60 && b > 120;
        }
    }
    cairo_surface_destroy(s);
    return blue;
}
#endif

/* render to PNG: a valid PNG; with --solution the blanks are filled blue. */
static void test_render_png(void **state)
{
    const char *plain[] = {"render",        "--format",           "png", "-o",
                           in_dir("p.png"), in_dir("puzzle.txt"), NULL};
    const char *solved[] = {"render", "--solution",    "--format",           "png",
                            "-o",     in_dir("s.png"), in_dir("puzzle.txt"), NULL};
    char head[16];
    (void)state;
    sudoku(plain);
    if (!render_has_cairo()) {
        assert_int_equal(run.status, 2);
        assert_non_null(strstr(run.err, "cairo"));
        skip();
    }
    assert_int_equal(run.status, 0);
    assert_int_equal(head_of(in_dir("p.png"), head, 8), 8);
    assert_memory_equal(head, "\x89PNG\r\n\x1a\n", 8);
    sudoku(solved);
    assert_int_equal(run.status, 0);
#ifdef RENDER_HAS_CAIRO
    assert_int_equal(blue_in(in_dir("p.png"), 2), 0); /* r1c3 is blank ... */
    assert_true(blue_in(in_dir("s.png"), 2) > 20);    /* ... and solved: a blue 4 */
    assert_int_equal(blue_in(in_dir("s.png"), 0), 0); /* a given stays black */
#endif
}

/* render to PDF, and to SVG on stdout. */
static void test_render_pdf_svg(void **state)
{
    const char *pdf[] = {"render",        "--format",           "pdf", "-o",
                         in_dir("p.pdf"), in_dir("puzzle.txt"), NULL};
    const char *svg[] = {"render", in_dir("puzzle.txt"), NULL};
    char head[16];
    (void)state;
    sudoku(svg);
    assert_int_equal(run.status, 0);
    assert_true(strncmp(run.out, "<?xml", 5) == 0);
    assert_non_null(strstr(run.out, "</svg>"));
    sudoku(pdf);
    if (!render_has_cairo()) {
        assert_int_equal(run.status, 2);
        skip();
    }
    assert_int_equal(run.status, 0);
    head_of(in_dir("p.pdf"), head, 5);
    assert_string_equal(head, "%PDF-");
}

/* hint draws its step (the placement circled) instead of saying it; with
 * -o it says it too. */
static void test_hint_picture(void **state)
{
    const char *to_stdout[] = {"hint", "--format", "svg", in_dir("puzzle.txt"), NULL};
    const char *to_file[] = {"hint",          "--format",           "svg", "-o",
                             in_dir("h.svg"), in_dir("puzzle.txt"), NULL};
    char svg[4096];
    (void)state;
    sudoku(to_stdout);
    assert_int_equal(run.status, 0);
    assert_true(strncmp(run.out, "<?xml", 5) == 0);
    assert_non_null(strstr(run.out, "<circle"));
    sudoku(to_file);
    assert_int_equal(run.status, 0);
    assert_non_null(strstr(run.out, "single")); /* the sentence, as without a picture */
    assert_true(head_of(in_dir("h.svg"), svg, sizeof(svg) - 1) > 100);
    assert_true(strncmp(svg, "<?xml", 5) == 0);
}

/* explain: one picture a step, numbered files. */
static void test_explain_pictures(void **state)
{
    const char *args[] = {
        "explain", "--steps", "3", "--format", "svg", "-o", in_dir("e.svg"), in_dir("puzzle.txt"),
        NULL};
    (void)state;
    sudoku(args);
    assert_int_equal(run.status, 0);
    assert_true(exists(in_dir("e-1.svg")));
    assert_true(exists(in_dir("e-2.svg")));
    assert_true(exists(in_dir("e-3.svg")));
    assert_false(exists(in_dir("e-4.svg")));
}

/* generate: the puzzles drawn, and printed as well with -o. */
static void test_generate_book(void **state)
{
    const char *args[] = {"generate",   "-n", "3",  "--seed",        "5", "--format", "svg",
                          "--per-page", "3",  "-o", in_dir("g.svg"), NULL};
    char svg[256];
    (void)state;
    sudoku(args);
    assert_int_equal(run.status, 0);
    size_t lines = 0;
    for (const char *p = run.out; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 3);
    head_of(in_dir("g.svg"), svg, sizeof(svg) - 1);
    assert_true(strncmp(svg, "<?xml", 5) == 0);
}

/* -o without a picture takes the text. */
static void test_output_file(void **state)
{
    const char *args[] = {"-o", in_dir("sol.txt"), in_dir("puzzle.txt"), NULL};
    char text[256];
    (void)state;
    sudoku(args);
    assert_int_equal(run.status, 0);
    assert_string_equal(run.out, "");
    head_of(in_dir("sol.txt"), text, sizeof(text) - 1);
    assert_true(strncmp(text, "534678912", 9) == 0);
}

/* What is refused, with exit 2. */
static void test_usage(void **state)
{
    static const struct {
        const char *args[6];
        const char *says;
    } rows[] = {
        {{"--format", "svg", "x", NULL}, "render, hint and explain"}, /* solving draws nothing */
        {{"rate", "--format", "png", "x", NULL}, "render, hint and explain"},
        {{"render", "--format", "bmp", NULL}, "--format"}, /* no such picture */
        {{"hint", "--solution", "x", NULL}, "--solution is for render"},
        {{"render", "--per-page", "0", NULL}, "per-page"}, /* 1..64 */
        {{"render", "--size", "10", NULL}, "size"},        /* too small to read */
    };
    (void)state;
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        sudoku(rows[i].args);
        assert_int_equal(run.status, 2);
        if (!strstr(run.err, rows[i].says))
            fail_msg("row %zu: stderr says '%s'", i, run.err);
    }
}

/* A bad puzzle is named, the others still drawn; exit 1. */
static void test_bad_puzzle(void **state)
{
    const char *args[] = {"render", in_dir("mixed.txt"), NULL};
    FILE *f = fopen(in_dir("mixed.txt"), "w");
    (void)state;
    assert_non_null(f);
    fputs(puzzle, f);
    fputs("55..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..7\n", f);
    fclose(f);
    sudoku(args);
    assert_int_equal(run.status, 1);
    assert_non_null(strstr(run.err, "mixed.txt:2"));
    assert_non_null(strstr(run.out, "</svg>"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_render_png),    cmocka_unit_test(test_render_pdf_svg),
        cmocka_unit_test(test_hint_picture),  cmocka_unit_test(test_explain_pictures),
        cmocka_unit_test(test_generate_book), cmocka_unit_test(test_output_file),
        cmocka_unit_test(test_usage),         cmocka_unit_test(test_bad_puzzle),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
