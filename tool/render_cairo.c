/* render_cairo.c -- a page of grids as PNG or PDF, painted with cairo.
 *
 * The canvas of render.c on a cairo context: an image surface (ARGB, one
 * pixel a unit) written as PNG, or a PDF surface (one point a unit) with a
 * page per page.  Built only when pkg-config finds cairo
 * (RENDER_HAS_CAIRO); without it render_nocairo.c answers -ENOTSUP for PNG and
 * PDF.  Text uses cairo's own font API with the sans-serif family, which
 * fontconfig resolves (DejaVu Sans on Debian).  render_cairo_release
 * hands their caches back once a document is written.
 */
#include <cairo-pdf.h>
#include <cairo.h>
#include <errno.h>
#include <fontconfig/fontconfig.h>
#include <stdio.h>

#include "tool/render.h"

/* The cairo canvas's state. */
struct painter {
    const struct render_doc *doc;
    FILE *f;                  /* where the PNG or PDF goes */
    cairo_surface_t *surface; /* PNG: this page's image; PDF: the document */
    cairo_t *cr;              /* drawing on surface */
};

static cairo_status_t write_fn(void *closure, const unsigned char *data, unsigned int len)
{
    FILE *f = closure;
    return fwrite(data, 1, len, f) == len ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

static void set_rgb(cairo_t *cr, uint32_t rgb)
{
    cairo_set_source_rgb(cr, ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0,
                         (rgb & 0xff) / 255.0);
}

static int paint_begin(void *ctx, double w, double h)
{
    struct painter *p = ctx;
    if (p->doc->format == RENDER_PNG) {
        p->surface =
            cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)(w + 0.5), (int)(h + 0.5));
    } else if (!p->surface) {
        p->surface = cairo_pdf_surface_create_for_stream(write_fn, p->f, w, h);
    } else {
        cairo_pdf_surface_set_size(p->surface, w, h);
    }
    if (cairo_surface_status(p->surface) != CAIRO_STATUS_SUCCESS)
        return -ENOMEM;
    p->cr = cairo_create(p->surface);
    if (cairo_status(p->cr) != CAIRO_STATUS_SUCCESS)
        return -ENOMEM;
    set_rgb(p->cr, 0xffffff);
    cairo_paint(p->cr);
    return 0;
}

static void paint_rect(void *ctx, double x, double y, double w, double h, uint32_t rgb)
{
    struct painter *p = ctx;
    set_rgb(p->cr, rgb);
    cairo_rectangle(p->cr, x, y, w, h);
    cairo_fill(p->cr);
}

static void paint_line(void *ctx, double x0, double y0, double x1, double y1, double width,
                       uint32_t rgb, int is_dashed)
{
    struct painter *p = ctx;
    static const double dash[] = {4, 3};
    set_rgb(p->cr, rgb);
    cairo_set_line_width(p->cr, width);
    cairo_set_line_cap(p->cr, is_dashed ? CAIRO_LINE_CAP_BUTT : CAIRO_LINE_CAP_SQUARE);
    cairo_set_dash(p->cr, dash, is_dashed ? 2 : 0, 0);
    cairo_move_to(p->cr, x0, y0);
    cairo_line_to(p->cr, x1, y1);
    cairo_stroke(p->cr);
}

static void paint_circle(void *ctx, double cx, double cy, double r, double width, uint32_t rgb)
{
    struct painter *p = ctx;
    set_rgb(p->cr, rgb);
    cairo_set_line_width(p->cr, width);
    cairo_set_dash(p->cr, NULL, 0, 0);
    cairo_new_sub_path(p->cr);
    cairo_arc(p->cr, cx, cy, r, 0, 6.283185307179586);
    cairo_stroke(p->cr);
}

static void paint_text(void *ctx, double x, double y, double size, int is_bold, uint32_t rgb,
                       enum render_anchor anchor, const char *s)
{
    struct painter *p = ctx;
    cairo_text_extents_t te;
    cairo_font_extents_t fe;

    cairo_select_font_face(p->cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                           is_bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(p->cr, size);
    set_rgb(p->cr, rgb);
    if (anchor == RENDER_CENTER) {
        /* The ink's box centred on (x, y): digits sit in the middle. */
        cairo_text_extents(p->cr, s, &te);
        cairo_move_to(p->cr, x - te.x_bearing - te.width / 2, y - te.y_bearing - te.height / 2);
    } else {
        cairo_font_extents(p->cr, &fe);
        cairo_move_to(p->cr, x, y + fe.ascent * 0.9);
    }
    cairo_show_text(p->cr, s);
}

static int paint_end(void *ctx)
{
    struct painter *p = ctx;
    cairo_status_t st;

    if (p->doc->format == RENDER_PNG) {
        st = cairo_surface_write_to_png_stream(p->surface, write_fn, p->f);
        cairo_destroy(p->cr);
        cairo_surface_destroy(p->surface);
        p->surface = NULL;
    } else {
        cairo_show_page(p->cr);
        st = cairo_status(p->cr);
        cairo_destroy(p->cr);
    }
    p->cr = NULL;
    return st == CAIRO_STATUS_SUCCESS ? 0 : -EIO;
}

int render_has_cairo(void)
{
    return 1;
}

void render_cairo_release(void)
{
    /* cairo's font caches, then fontconfig's: otherwise they live to the
     * exit, and a leak checker rightly counts them. */
    cairo_debug_reset_static_data();
    FcFini();
}

int render_cairo_write(const struct render_doc *d, size_t first, size_t last, FILE *f)
{
    struct painter p = {.doc = d, .f = f};
    struct render_canvas cv = {.ctx = &p,
                               .begin_page = paint_begin,
                               .rect = paint_rect,
                               .line = paint_line,
                               .circle = paint_circle,
                               .text = paint_text,
                               .end_page = paint_end};
    int rc = 0;

    for (size_t page = first; page <= last && rc == 0; page++)
        rc = render_doc_draw_page(d, page, &cv);
    if (p.cr)
        cairo_destroy(p.cr);
    if (p.surface) {
        cairo_surface_finish(p.surface); /* a PDF is written out here */
        if (rc == 0 && cairo_surface_status(p.surface) != CAIRO_STATUS_SUCCESS)
            rc = -EIO;
        cairo_surface_destroy(p.surface);
    }
    return rc;
}
