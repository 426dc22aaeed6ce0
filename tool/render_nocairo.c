/* render_nocairo.c -- the cairo half of the pictures, for a build without
 * cairo.
 *
 * Linked instead of render_cairo.c when pkg-config finds no cairo (or
 * SUDOKU_WITH_CAIRO is off): PNG and PDF are refused with -ENOTSUP, which
 * render_doc_write turns into "png needs cairo"; SVG needs none of this.
 */
#include <errno.h>

#include "tool/render.h"

int render_has_cairo(void)
{
    return 0;
}

int render_cairo_write(const struct render_doc *d, size_t first, size_t last, FILE *f)
{
    (void)d, (void)first, (void)last, (void)f;
    return -ENOTSUP;
}

void render_cairo_release(void)
{
}
