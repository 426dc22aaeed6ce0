/* test_render.c -- the pictures (tool/render.c), checked on the picture.
 *
 * PNG: a grid is drawn through cairo into a file, read back with
 * cairo_image_surface_create_from_png, and its pixels are looked at where
 * render_doc_grid_at says the cells are: a given's cell is dark where the
 * digit is, an empty cell is blank, a shaded cell is shaded, a filled digit
 * is blue, a struck candidate red, a placement circled green, box lines are
 * wider dark runs than cell lines, a cage has a dashed outline, and jigsaw
 * regions move the thick lines.  Without cairo those tests skip.  SVG: the
 * text is checked for well-formedness by a small tag checker and its digit
 * <text> elements counted.  Then the files: numbered pages, a PDF's magic.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tool/render.h"
#ifdef RENDER_HAS_CAIRO
#include <cairo.h>
#endif

/* ------------------------------------------------------------------------ */
/* Helpers */

static char tmpdir[64];

static int setup_dir(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_render.XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_dir(void **state)
{
    char cmd[128];
    (void)state;
    snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static void path_of(char *out, size_t size, const char *name)
{
    snprintf(out, size, "%s/%s", tmpdir, name);
}

/* The whole SVG of page 0 of d, malloc'ed. */
static char *svg_text(const struct render_doc *d)
{
    static char *buf; /* the stream's: static, so no pointer outlives it */
    static size_t len;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(render_svg_write(d, 0, f), 0);
    fclose(f);
    return buf;
}

static size_t count_of(const char *s, const char *what)
{
    size_t k = 0;
    for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
        k++;
    return k;
}

/* 1 when s is well-formed enough: every element closed in order, every
 * attribute value quoted, '&' only in an entity, nothing after the root. */
static int is_well_formed(const char *s)
{
    char stack[16][32];
    int depth = 0, has_root = 0;
    while (*s) {
        if (*s == '&') {
            if (strncmp(s, "&lt;", 4) && strncmp(s, "&gt;", 4) && strncmp(s, "&amp;", 5) &&
                strncmp(s, "&quot;", 6))
                return 0;
            s++;
            continue;
        }
        if (*s != '<') {
            if (depth == 0 && has_root && *s != '\n')
                return 0;
            s++;
            continue;
        }
        const char *end = strchr(s, '>');
        if (!end)
            return 0;
        if (s[1] == '?') {
            s = end + 1;
            continue;
        }
        size_t quotes = 0;
        for (const char *p = s; p < end; p++)
            quotes += *p == '"';
        if (quotes % 2)
            return 0;
        char name[32];
        size_t len = strcspn(s + 1 + (s[1] == '/'), " />");
        if (len == 0 || len >= sizeof(name))
            return 0;
        memcpy(name, s + 1 + (s[1] == '/'), len);
        name[len] = '\0';
        if (s[1] == '/') {
            if (depth == 0 || strcmp(stack[depth - 1], name) != 0)
                return 0;
            depth--;
        } else if (end[-1] != '/') {
            if (depth == 16)
                return 0;
            snprintf(stack[depth++], sizeof(stack[0]), "%s", name);
            has_root = 1;
        }
        s = end + 1;
    }
    return depth == 0 && has_root;
}

/* ------------------------------------------------------------------------ */
/* The model */

/* Symbols as the tool prints them: 1-9, then A-P. */
static void test_symbols(void **state)
{
    static const struct {
        unsigned v;
        char c;
    } rows[] = {
        {1, '1'},  /* first digit */
        {9, '9'},  /* last digit */
        {10, 'A'}, /* 16x16 and 25x25 go on in letters */
        {16, 'G'}, /* the last of 16x16 */
        {25, 'P'}, /* the last of 25x25 */
        {0, '?'},  /* no value */
        {26, '?'}, /* out of range */
    };
    (void)state;
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
        assert_int_equal(render_symbol(rows[i].v), rows[i].c);
    assert_int_equal(render_box_side(4), 2);
    assert_int_equal(render_box_side(25), 5);
    assert_int_equal(render_box_side(10), 0);
}

/* Pencil marks: what no digit of the row, column or region holds. */
static void test_candidates(void **state)
{
    static struct render_grid g;
    (void)state;
    render_grid_init(&g, 9);
    for (unsigned v = 1; v <= 8; v++)
        g.givens[v - 1] = (uint8_t)v; /* row 1: 1..8, r1c9 empty */
    g.filled[9 * 4 + 4] = 9;          /* r5c5 = 9: no unit of r1c9's */
    render_grid_candidates(&g);
    assert_true(g.has_cands);
    assert_int_equal(g.cands[8], 1u << 8); /* only 9 is left for r1c9... */
    g.filled[9 * 4 + 4] = 0;
    g.filled[9 * 4 + 8] = 9; /* ... until a 9 is in its column (filled counts too) */
    render_grid_candidates(&g);
    assert_int_equal(g.cands[8], 0);
    assert_int_equal(g.cands[0], 0); /* a cell with a digit has none */
    /* r2c1 sees 1, 2, 3 in its box and 9 in no unit of it. */
    assert_int_equal(g.cands[9] & 0x7, 0);
    assert_int_equal(g.cands[9] & (1u << 8), 1u << 8);

    /* Jigsaw: with rows as regions, r2c1 no longer sees r1c2 and r1c3. */
    for (unsigned i = 0; i < 81; i++)
        g.regions[i] = (uint8_t)(i / 9);
    g.has_regions = 1;
    render_grid_candidates(&g);
    assert_int_equal(g.cands[9] & 0x7, 0x6);
}

/* ------------------------------------------------------------------------ */
/* PNG through cairo: the picture itself */

#ifdef RENDER_HAS_CAIRO

#define LUM_DARK  100 /* a digit's or a line's pixel */
#define LUM_BLANK 235 /* paper */

/* One grid's picture, read back. */
struct png {
    cairo_surface_t *s;
    unsigned char *data;
    int stride, w, h;
    double x, y; /* the grid's corner */
    unsigned cell;
};

static void png_draw(struct png *p, struct render_doc *d, const char *name)
{
    char path[128], err[256];
    path_of(path, sizeof(path), name);
    assert_int_equal(render_doc_write(d, path, err, sizeof(err)), 0);
    p->s = cairo_image_surface_create_from_png(path);
    assert_int_equal(cairo_surface_status(p->s), CAIRO_STATUS_SUCCESS);
    p->data = cairo_image_surface_get_data(p->s);
    p->stride = cairo_image_surface_get_stride(p->s);
    p->w = cairo_image_surface_get_width(p->s);
    p->h = cairo_image_surface_get_height(p->s);
    assert_int_equal(render_doc_grid_at(d, 0, &p->x, &p->y, &p->cell), 0);
    assert_true(p->x + p->cell * d->grids[0].n < p->w);
}

static void png_free(struct png *p)
{
    cairo_surface_destroy(p->s);
}

static void rgb_at(const struct png *p, int x, int y, int *r, int *g, int *b)
{
    uint32_t px;
    assert_true(x >= 0 && y >= 0 && x < p->w && y < p->h);
    memcpy(&px, p->data + (size_t)y * (size_t)p->stride + (size_t)x * 4, 4);
    *r = (int)((px >> 16) & 0xff);
    *g = (int)((px >> 8) & 0xff);
    *b = (int)(px & 0xff);
}

static int lum_at(const struct png *p, int x, int y)
{
    int r, g, b;
    rgb_at(p, x, y, &r, &g, &b);
    return (r * 30 + g * 59 + b * 11) / 100;
}

/* What the interior of cell i holds (inset px from its lines). */
struct census {
    unsigned total, dark, blank, blue, red, green, shade;
};

static void census_of(const struct png *p, unsigned n, unsigned i, int inset, struct census *c)
{
    int x0 = (int)p->x + (int)((i % n) * p->cell), y0 = (int)p->y + (int)((i / n) * p->cell);
    memset(c, 0, sizeof(*c));
    for (int y = y0 + inset; y < y0 + (int)p->cell - inset; y++) {
        for (int x = x0 + inset; x < x0 + (int)p->cell - inset; x++) {
            int r, g, b, lum = lum_at(p, x, y);
            rgb_at(p, x, y, &r, &g, &b);
            c->total++;
            c->dark += lum < LUM_DARK;
            c->blank += lum > LUM_BLANK;
            c->blue += b > r + 60 && b > 120;
            c->red += r > 160 && g < 110 && b < 110;
            c->green += g > r + 40 && g > b + 20 && g > 90;
            c->shade += r > 235 && g > 195 && g < 240 && b < 170;
        }
    }
}

/* The widths of the dark runs along row y from x0 to x1 (or, is_down,
 * along column x0 from y to x1) into w[]; returns how many. */
static size_t dark_runs(const struct png *p, int x0, int y, int x1, int is_down, int *w, size_t cap)
{
    size_t k = 0;
    int run = 0;
    for (int t = is_down ? y : x0; t <= x1; t++) {
        int dark = is_down ? lum_at(p, x0, t) < 128 : lum_at(p, t, y) < 128;
        if (dark) {
            run++;
        } else if (run) {
            if (k < cap)
                w[k] = run;
            k++;
            run = 0;
        }
    }
    return k;
}

/* A 9x9 with one of everything, and where each thing is. */
#define CELL_GIVEN  0  /* 5, bold black */
#define CELL_EMPTY  1  /* nothing at all */
#define CELL_FILLED 2  /* 7, blue */
#define CELL_SHADED 10 /* a pattern cell */
#define CELL_STRUCK 20 /* 3 struck */
#define CELL_PLACED 30 /* 4, circled */
#define CAGE_A      60 /* cage of 60, 61, 69: sum 15 */
#define CAGE_B      61
#define CAGE_C      69
#define NOT_CAGED   52 /* the cell above CAGE_B, out of the cage */

static void fill_sample(struct render_grid *g)
{
    g->givens[CELL_GIVEN] = 5;
    g->filled[CELL_FILLED] = 7;
    g->shaded[CELL_SHADED] = 1;
    g->struck[CELL_STRUCK] = 1u << 2;
    g->placed[CELL_PLACED] = 4;
    g->cage[CAGE_A] = g->cage[CAGE_B] = g->cage[CAGE_C] = 1;
    g->cage_sum[1] = 15;
}

static void test_png_cells(void **state)
{
    struct render_doc d;
    struct census c;
    struct png p;
    (void)state;
    render_doc_init(&d, RENDER_PNG);
    fill_sample(render_doc_add(&d, 9));
    png_draw(&p, &d, "cells.png");

    census_of(&p, 9, CELL_GIVEN, 4, &c);
    assert_true(c.dark > c.total / 20); /* the 5's strokes */
    census_of(&p, 9, CELL_EMPTY, 3, &c);
    assert_int_equal(c.blank, c.total); /* paper, all of it */
    census_of(&p, 9, CELL_FILLED, 4, &c);
    assert_true(c.blue > c.total / 30); /* a blue 7 ... */
    assert_true(c.dark < c.blue);       /* ... not a black one */
    census_of(&p, 9, CELL_SHADED, 3, &c);
    assert_true(c.shade > c.total * 9 / 10);
    census_of(&p, 9, CELL_STRUCK, 2, &c);
    assert_true(c.red > 10); /* the 3 and its stroke */
    census_of(&p, 9, CELL_PLACED, 2, &c);
    assert_true(c.green > 20); /* the circle */
    assert_true(c.blue > 10);  /* the 4 inside it */
    png_free(&p);
    render_doc_close(&d);
}

/* Box lines are wider dark runs than cell lines, both ways. */
static void test_png_lines(void **state)
{
    struct render_doc d;
    struct png p;
    int w[16];
    (void)state;
    render_doc_init(&d, RENDER_PNG);
    render_doc_add(&d, 9); /* empty: nothing but lines */
    png_draw(&p, &d, "lines.png");
    for (int is_down = 0; is_down <= 1; is_down++) {
        int mid = (int)(is_down ? p.x : p.y) + (int)(p.cell * 4 + p.cell / 2);
        int from = (int)(is_down ? p.y : p.x) - 8, to = from + (int)(p.cell * 9) + 16;
        size_t k = is_down ? dark_runs(&p, mid, from, to, 1, w, 16)
                           : dark_runs(&p, from, mid, to, 0, w, 16);
        assert_int_equal(k, 10); /* ten lines across nine cells */
        for (size_t i = 0; i < 10; i++) {
            if (i % 3 == 0)
                continue;
            assert_true(w[i] >= 1);
            assert_true(w[0] > w[i] && w[3] > w[i] && w[6] > w[i] && w[9] > w[i]);
        }
    }
    png_free(&p);
    render_doc_close(&d);
}

/* Jigsaw regions (here: the rows) draw thick lines between regions only. */
static void test_png_regions(void **state)
{
    struct render_doc d;
    struct png p;
    int across[16], down[16];
    (void)state;
    render_doc_init(&d, RENDER_PNG);
    struct render_grid *g = render_doc_add(&d, 9);
    for (unsigned i = 0; i < 81; i++)
        g->regions[i] = (uint8_t)(i / 9);
    g->has_regions = 1;
    png_draw(&p, &d, "regions.png");
    int mid_y = (int)p.y + (int)(p.cell * 4 + p.cell / 2);
    int mid_x = (int)p.x + (int)(p.cell * 4 + p.cell / 2);
    size_t ka = dark_runs(&p, (int)p.x - 8, mid_y, (int)p.x + (int)(p.cell * 9) + 8, 0, across, 16);
    size_t kd = dark_runs(&p, mid_x, (int)p.y - 8, (int)p.y + (int)(p.cell * 9) + 8, 1, down, 16);
    assert_int_equal(ka, 10);
    assert_int_equal(kd, 10);
    for (size_t i = 1; i < 9; i++) {
        assert_true(across[i] < across[0]); /* within a row: all thin, boxes too */
        assert_int_equal(down[i], down[0]); /* between rows: all thick */
    }
    png_free(&p);
    render_doc_close(&d);
}

/* A cage: a dashed outline inside its cells, none outside. */
static void test_png_cage(void **state)
{
    struct render_doc d;
    struct png p;
    (void)state;
    render_doc_init(&d, RENDER_PNG);
    fill_sample(render_doc_add(&d, 9));
    png_draw(&p, &d, "cage.png");
    /* The top edge of CAGE_B is the cage's: a tenth of a cell inside. */
    int y = (int)p.y + (int)((CAGE_B / 9) * p.cell) + (int)(p.cell / 10);
    int x0 = (int)p.x + (int)((CAGE_B % 9) * p.cell);
    unsigned dark = 0, span = 0;
    for (int x = x0 + (int)p.cell / 4; x < x0 + (int)p.cell * 3 / 4; x++, span++)
        dark += lum_at(&p, x, y) < 200 || lum_at(&p, x, y + 1) < 200;
    assert_true(dark > span / 4); /* drawn ... */
    assert_true(dark < span);     /* ... dashed */
    /* The same line in NOT_CAGED's cell has nothing. */
    y = (int)p.y + (int)((NOT_CAGED / 9) * p.cell) + (int)(p.cell / 10);
    for (int x = x0 + (int)p.cell / 4; x < x0 + (int)p.cell * 3 / 4; x++)
        assert_true(lum_at(&p, x, y) > LUM_BLANK);
    /* The sum sits in the first cell's corner. */
    struct census c;
    census_of(&p, 9, CAGE_A, 2, &c);
    assert_true(c.dark > 5);
    png_free(&p);
    render_doc_close(&d);
}

/* Every side: the largest symbol is drawn, an empty cell stays blank, and
 * pencil marks of a 4x4 fill its empty cells. */
static void test_png_sides(void **state)
{
    static const unsigned sides[] = {4, 9, 16, 25};
    (void)state;
    for (size_t k = 0; k < 4; k++) {
        unsigned n = sides[k];
        struct render_doc d;
        struct census c;
        struct png p;
        char name[32];
        render_doc_init(&d, RENDER_PNG);
        struct render_grid *g = render_doc_add(&d, n);
        g->givens[0] = (uint8_t)n; /* 4, 9, G or P */
        snprintf(name, sizeof(name), "side%u.png", n);
        png_draw(&p, &d, name);
        census_of(&p, n, 0, 3, &c);
        assert_true(c.dark > c.total / 25);
        census_of(&p, n, n + 1, 3, &c);
        assert_int_equal(c.blank, c.total);
        png_free(&p);
        render_doc_close(&d);
    }
}

static void test_png_candidates(void **state)
{
    struct render_doc d;
    struct census c;
    struct png p;
    (void)state;
    render_doc_init(&d, RENDER_PNG);
    struct render_grid *g = render_doc_add(&d, 4);
    g->givens[0] = 1;
    render_grid_candidates(g);
    png_draw(&p, &d, "cands.png");
    census_of(&p, 4, 5, 3, &c); /* r2c2: 2, 3, 4 pencilled in */
    assert_true(c.blank < c.total);
    assert_true(c.dark + (c.total - c.blank) > 10);
    png_free(&p);
    render_doc_close(&d);
}

#else

static void skip_no_cairo(void **state)
{
    (void)state;
    assert_int_equal(render_has_cairo(), 0);
    skip();
}
#define test_png_cells      skip_no_cairo
#define test_png_lines      skip_no_cairo
#define test_png_regions    skip_no_cairo
#define test_png_cage       skip_no_cairo
#define test_png_sides      skip_no_cairo
#define test_png_candidates skip_no_cairo

#endif

/* ------------------------------------------------------------------------ */
/* SVG */

/* One <text> a digit: bold the givens, the rest not. */
static void test_svg_digits(void **state)
{
    static const char puzzle[] = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28"
                                 "....419..5....8..79";
    struct render_doc d;
    unsigned givens = 0;
    (void)state;
    render_doc_init(&d, RENDER_SVG);
    struct render_grid *g = render_doc_add(&d, 9);
    for (unsigned i = 0; i < 81; i++) {
        g->givens[i] = puzzle[i] == '.' ? 0 : (uint8_t)(puzzle[i] - '0');
        givens += g->givens[i] != 0;
    }
    g->filled[2] = 4; /* one filled digit */
    char *svg = svg_text(&d);
    assert_true(is_well_formed(svg));
    assert_int_equal(count_of(svg, "font-weight=\"bold\""), givens);
    assert_int_equal(count_of(svg, "<text"), givens + 1);
    assert_int_equal(count_of(svg, "<circle"), 0);
    free(svg);

    /* Pencil marks: one <text> a candidate, and a struck one is a line too. */
    render_grid_candidates(g);
    unsigned cands = 0;
    for (unsigned i = 0; i < 81; i++)
        cands += (unsigned)__builtin_popcount(g->cands[i]);
    svg = svg_text(&d);
    assert_int_equal(count_of(svg, "<text"), givens + 1 + cands);
    free(svg);
    render_doc_close(&d);
}

/* Captions are escaped: the picture stays well-formed whatever they say. */
static void test_svg_escaping(void **state)
{
    struct render_doc d;
    (void)state;
    render_doc_init(&d, RENDER_SVG);
    struct render_grid *g = render_doc_add(&d, 4);
    snprintf(g->caption, sizeof(g->caption), "a<b & \"c\" >d\x01");
    char *svg = svg_text(&d);
    assert_true(is_well_formed(svg));
    assert_non_null(strstr(svg, "a&lt;b &amp; &quot;c&quot; &gt;d<"));
    assert_false(is_well_formed("<svg><text>a & b</text></svg>")); /* the checker checks */
    assert_false(is_well_formed("<svg><text>ab</svg></text>"));
    free(svg);
    render_doc_close(&d);
}

/* ------------------------------------------------------------------------ */
/* Files */

static int exists(const char *name)
{
    char path[128];
    struct stat st;
    path_of(path, sizeof(path), name);
    return stat(path, &st) == 0 && st.st_size > 0;
}

/* Several pages of SVG or PNG: one file a page, numbered; not to stdout. */
static void test_pages(void **state)
{
    struct render_doc d;
    char path[128], err[256];
    (void)state;
    render_doc_init(&d, RENDER_SVG);
    d.per_page = 2;
    for (int i = 0; i < 3; i++)
        render_doc_add(&d, 9);
    assert_int_equal(render_doc_pages(&d), 2);
    path_of(path, sizeof(path), "book.svg");
    assert_int_equal(render_doc_write(&d, path, err, sizeof(err)), 0);
    assert_true(exists("book-1.svg"));
    assert_true(exists("book-2.svg"));
    assert_false(exists("book-3.svg"));
    assert_false(exists("book.svg"));
    assert_int_equal(render_doc_write(&d, NULL, err, sizeof(err)), -EINVAL);
    assert_non_null(strstr(err, "-o"));
    render_doc_close(&d);

    render_doc_init(&d, RENDER_SVG); /* nothing to draw */
    assert_int_equal(render_doc_write(&d, path, err, sizeof(err)), -EINVAL);
}

/* A PDF is one file with a page a page. */
static void test_pdf(void **state)
{
    struct render_doc d;
    char path[128], err[256], head[8] = "";
    (void)state;
    render_doc_init(&d, RENDER_PDF);
    for (int i = 0; i < 3; i++)
        render_doc_add(&d, 9)->givens[i] = 1;
    path_of(path, sizeof(path), "steps.pdf");
    int rc = render_doc_write(&d, path, err, sizeof(err));
    if (!render_has_cairo()) {
        assert_int_equal(rc, -ENOTSUP);
        render_doc_close(&d);
        skip();
    }
    assert_int_equal(rc, 0);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fread(head, 1, 5, f), 5);
    fclose(f);
    assert_string_equal(head, "%PDF-");
    assert_false(exists("steps-1.pdf"));
    render_doc_close(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_symbols),     cmocka_unit_test(test_candidates),
        cmocka_unit_test(test_png_cells),   cmocka_unit_test(test_png_lines),
        cmocka_unit_test(test_png_regions), cmocka_unit_test(test_png_cage),
        cmocka_unit_test(test_png_sides),   cmocka_unit_test(test_png_candidates),
        cmocka_unit_test(test_svg_digits),  cmocka_unit_test(test_svg_escaping),
        cmocka_unit_test(test_pages),       cmocka_unit_test(test_pdf),
    };
    return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
