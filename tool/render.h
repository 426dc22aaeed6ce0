/* render.h -- printable pictures of grids: the drawing model, the page
 * layout, and the canvas each picture format implements.
 *
 * A picture is a document of grids (struct render_doc), per_page of them a
 * page.  Each grid says what to draw, cell by cell: givens (bold, black),
 * filled digits (a solution's or a player's: lighter, blue), pencil marks
 * (small digits in a sub-grid of the cell), and a step's marks (pattern
 * cells shaded, eliminated candidates struck through, placements circled).
 * It is ready for the variants: jigsaw regions (a region id per cell:
 * thick lines between regions instead of boxes) and killer cages (a cage id
 * per cell and a sum per cage: a dashed outline with the sum in a corner).
 *
 * render.c lays the pages out and draws them through struct render_canvas:
 * render_svg.c writes SVG as text, render_cairo.c paints PNG and PDF with
 * cairo (built only when cairo is found: RENDER_HAS_CAIRO; else
 * render_nocairo.c refuses PNG and PDF).  So every
 * format draws the same picture.  Part of the sudoku tool only.
 */
#ifndef SUDOKU_TOOL_RENDER_H
#define SUDOKU_TOOL_RENDER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define RENDER_MAX_SIDE     25   /* largest grid side */
#define RENDER_MAX_CELLS    625  /* RENDER_MAX_SIDE squared */
#define RENDER_CAPTION_SIZE 128  /* room for a caption, with NUL */
#define RENDER_MAX_PER_PAGE 64   /* --per-page at most */
#define RENDER_MIN_PX       64   /* --size at least: a grid's side in pixels */
#define RENDER_MAX_PX       4096 /* --size at most */

enum render_format {
    RENDER_SVG = 0, /* text, written here */
    RENDER_PNG,     /* through cairo; one file a page */
    RENDER_PDF      /* through cairo; one page a page */
};

/* One grid as it will be drawn.  Zero it (render_grid_init) and fill what
 * applies; values are 1..n, cells row-major. */
struct render_grid {
    unsigned n;                              /* side: 4, 9, 16 or 25 */
    uint8_t givens[RENDER_MAX_CELLS];        /* 0: blank; drawn bold black */
    uint8_t filled[RENDER_MAX_CELLS];        /* digits not given (solution, player): lighter */
    uint32_t cands[RENDER_MAX_CELLS];        /* pencil marks, bit v-1 for v (has_cands) */
    int has_cands;                           /* draw cands in the cells without a digit */
    uint8_t shaded[RENDER_MAX_CELLS];        /* 1: a step's pattern cell, shaded */
    uint32_t struck[RENDER_MAX_CELLS];       /* eliminated candidates: drawn, struck through */
    uint8_t placed[RENDER_MAX_CELLS];        /* a step's placement: the digit, circled */
    uint8_t regions[RENDER_MAX_CELLS];       /* jigsaw: region id per cell (has_regions) */
    int has_regions;                         /* 0: the boxes are the regions */
    uint16_t cage[RENDER_MAX_CELLS];         /* killer: cage id per cell, 0 none */
    uint16_t cage_sum[RENDER_MAX_CELLS + 1]; /* killer: sum of cage id */
    char caption[RENDER_CAPTION_SIZE];       /* under the grid, "" for none */
};

/* A whole picture: grids, per_page a page, in order. */
struct render_doc {
    enum render_format format; /* what render_doc_write writes */
    unsigned size_px;          /* a grid's side (pixels; points in PDF), 0: by n */
    unsigned per_page;         /* grids a page, 1..RENDER_MAX_PER_PAGE (0: 1) */
    struct render_grid *grids; /* owned; grows by render_doc_add */
    size_t len;                /* grids in use */
    size_t cap;                /* grids allocated */
};

/* What a format draws with: one page at a time, in the page's coordinates
 * (origin top left, y down).  Colours are 0xRRGGBB. */
enum render_anchor {
    RENDER_CENTER = 0, /* text centred on (x, y), both ways */
    RENDER_TOP_LEFT    /* text's top left corner at (x, y) */
};
struct render_canvas {
    void *ctx;                                        /* the format's state */
    int (*begin_page)(void *ctx, double w, double h); /* a white page */
    void (*rect)(void *ctx, double x, double y, double w, double h, uint32_t rgb); /* fill */
    void (*line)(void *ctx, double x0, double y0, double x1, double y1, double width, uint32_t rgb,
                 int is_dashed); /* a straight stroke */
    void (*circle)(void *ctx, double cx, double cy, double r, double width, uint32_t rgb);
    void (*text)(void *ctx, double x, double y, double size, int is_bold, uint32_t rgb,
                 enum render_anchor anchor, const char *s); /* sans-serif */
    int (*end_page)(void *ctx);                             /* 0 or a negative errno */
};

/* Zero g as an empty grid of side n. */
void render_grid_init(struct render_grid *g, unsigned n);

/* Pencil marks of every cell without a digit (given, filled or placed):
 * the values no digit of its row, column or region holds.  Sets has_cands. */
void render_grid_candidates(struct render_grid *g);

/* The symbol of value v (1..25) as the tool prints it: 1-9, then A-P. */
char render_symbol(unsigned v);

/* The side of box of an n grid (2, 3, 4 or 5), or 0 when n is no square. */
unsigned render_box_side(unsigned n);

/* Parse "svg", "png" or "pdf" into *out.  Returns 0 or -EINVAL. */
int render_format_parse(const char *s, enum render_format *out);

/* The file name ending of f, "svg", "png" or "pdf". */
const char *render_format_ext(enum render_format f);

/* 1 when PNG and PDF can be written (the tool was built with cairo). */
int render_has_cairo(void);

/* Initialise d for format f; free with render_doc_close. */
void render_doc_init(struct render_doc *d, enum render_format f);

/* Free d's grids.  Accepts a zeroed struct. */
void render_doc_close(struct render_doc *d);

/* Add an empty grid of side n to d.  Returns it (owned by d, valid until
 * the next add), or NULL when out of memory. */
struct render_grid *render_doc_add(struct render_doc *d, unsigned n);

/* Pages d has: ceil(len / per_page). */
size_t render_doc_pages(const struct render_doc *d);

/* Where grid k of d is drawn on its page: top left corner (*x, *y) and
 * a cell's side *cell, in pixels (points in a PDF).  Returns 0, or -EINVAL
 * when there is no grid k. */
int render_doc_grid_at(const struct render_doc *d, size_t k, double *x, double *y, unsigned *cell);

/* Draw page `page` of d on canvas cv.  Returns 0 or cv's negative errno. */
int render_doc_draw_page(const struct render_doc *d, size_t page, const struct render_canvas *cv);

/* Write d to path (NULL: to stdout).  A PDF has every page; SVG and PNG
 * write one file a page: with several pages, path "x.png" becomes
 * x-1.png, x-2.png, ... (stdout takes only one page).  Returns 0, or a
 * negative errno with why in err: -EINVAL (several pages to stdout),
 * -ENOTSUP (PNG or PDF without cairo), -EIO, -ENOMEM. */
int render_doc_write(const struct render_doc *d, const char *path, char *err, size_t err_size);

/* The formats' writers, for render_doc_write: every page of d to f
 * (SVG and PNG: pages first..last inclusive, one only).  Return 0 or a
 * negative errno. */
int render_svg_write(const struct render_doc *d, size_t page, FILE *f);
int render_cairo_write(const struct render_doc *d, size_t first, size_t last, FILE *f);

/* Free cairo's and fontconfig's caches; only when no cairo object lives
 * (render_doc_write calls it when it is done). */
void render_cairo_release(void);

#endif /* SUDOKU_TOOL_RENDER_H */
