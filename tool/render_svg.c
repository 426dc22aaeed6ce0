/* render_svg.c -- a page of grids as SVG text, no library needed.
 *
 * The canvas of render.c written out as SVG 1.1 elements, one a call:
 * <rect>, <line>, <circle>, <text>.  Digits are <text> elements (so a
 * picture stays searchable and its digits countable), in the generic
 * sans-serif family; text is escaped for XML.  Numbers are written with
 * at most two decimals, which is finer than any printer.
 */
#include <errno.h>
#include <stdio.h>

#include "tool/render.h"

/* The SVG canvas's state: where it writes. */
struct svg {
    FILE *f;
};

static void put_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '&':
            fputs("&amp;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        default:
            /* Control characters are not allowed in XML 1.0: drop them. */
            if ((unsigned char)*s >= 0x20 || *s == '\t')
                fputc(*s, f);
        }
    }
}

static int svg_begin(void *ctx, double w, double h)
{
    struct svg *s = ctx;
    fprintf(s->f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
            "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n"
            "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n",
            w, h, w, h, w, h);
    return 0;
}

static void svg_rect(void *ctx, double x, double y, double w, double h, uint32_t rgb)
{
    struct svg *s = ctx;
    fprintf(s->f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"#%06x\"/>\n",
            x, y, w, h, (unsigned)rgb);
}

static void svg_line(void *ctx, double x0, double y0, double x1, double y1, double width,
                     uint32_t rgb, int is_dashed)
{
    struct svg *s = ctx;
    fprintf(s->f,
            "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#%06x\" "
            "stroke-width=\"%.2f\"%s/>\n",
            x0, y0, x1, y1, (unsigned)rgb, width,
            is_dashed ? " stroke-dasharray=\"4 3\"" : " stroke-linecap=\"square\"");
}

static void svg_circle(void *ctx, double cx, double cy, double r, double width, uint32_t rgb)
{
    struct svg *s = ctx;
    fprintf(s->f,
            "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\" fill=\"none\" stroke=\"#%06x\" "
            "stroke-width=\"%.2f\"/>\n",
            cx, cy, r, (unsigned)rgb, width);
}

static void svg_text(void *ctx, double x, double y, double size, int is_bold, uint32_t rgb,
                     enum render_anchor anchor, const char *str)
{
    struct svg *s = ctx;
    /* Centred: the middle anchor, and the baseline a third of the size
     * below the centre (dominant-baseline is not honoured everywhere). */
    if (anchor == RENDER_CENTER)
        y += size * 0.36;
    else
        y += size * 0.8;
    fprintf(s->f,
            "<text x=\"%.2f\" y=\"%.2f\" font-family=\"DejaVu Sans, sans-serif\" "
            "font-size=\"%.2f\" font-weight=\"%s\" fill=\"#%06x\" text-anchor=\"%s\">",
            x, y, size, is_bold ? "bold" : "normal", (unsigned)rgb,
            anchor == RENDER_CENTER ? "middle" : "start");
    put_escaped(s->f, str);
    fputs("</text>\n", s->f);
}

static int svg_end(void *ctx)
{
    struct svg *s = ctx;
    fputs("</svg>\n", s->f);
    return ferror(s->f) ? -EIO : 0;
}

int render_svg_write(const struct render_doc *d, size_t page, FILE *f)
{
    struct svg s = {.f = f};
    struct render_canvas cv = {.ctx = &s,
                               .begin_page = svg_begin,
                               .rect = svg_rect,
                               .line = svg_line,
                               .circle = svg_circle,
                               .text = svg_text,
                               .end_page = svg_end};
    return render_doc_draw_page(d, page, &cv);
}
