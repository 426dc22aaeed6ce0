/* fuzz_input.c -- fuzz target for the sudoku tool's input reader
 * (proto/input.c).
 *
 * The first byte forces a format (auto, line or grid); the rest is the file,
 * read through fmemopen() exactly as the tool reads a real file.  Checks:
 * records come in input order with line numbers that never pass the lines
 * read; a line record's text lies inside the reader's buffer, is at most
 * INPUT_LINE_MAX long and starts with no blank; a good grid record holds a
 * supported side and cells 0..n; a bad record says why; the reader stops.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/grid.h"
#include "fuzz/fuzz_check.h"
#include "proto/input.h"

static void check_record(const struct input *in, const struct input_record *r, uint64_t prev)
{
    FUZZ_CHECK(r->line > prev && r->line <= in->line_no);
    FUZZ_CHECK(memchr(r->error, '\0', sizeof(r->error)) != NULL);
    FUZZ_CHECK(r->format == INPUT_LINE || r->format == INPUT_GRID);
    if (r->error[0])
        return;
    if (r->format == INPUT_LINE) {
        FUZZ_CHECK(r->text >= in->line && r->text + r->len <= in->line + sizeof(in->line));
        FUZZ_CHECK(r->len > 0 && r->len <= INPUT_LINE_MAX);
        FUZZ_CHECK(!isspace((unsigned char)r->text[0]) && r->text[0] != '#');
        return;
    }
    FUZZ_CHECK(grid_side_ok(r->n));
    for (unsigned i = 0; i < r->n * r->n; i++)
        FUZZ_CHECK(r->cells[i] <= r->n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const enum input_format formats[] = {INPUT_AUTO, INPUT_LINE, INPUT_GRID};
    static struct input in;         /* big line buffer: keep it off the stack */
    static struct input_record rec; /* likewise */
    uint64_t prev = 0, records = 0;
    int rc;

    if (size < 2)
        return 0;
    memset(&in, 0, sizeof(in));
    in.name = "fuzz";
    in.format = formats[data[0] % 3];
    in.f = fmemopen((void *)(data + 1), size - 1, "r");
    if (!in.f)
        return 0;
    while ((rc = input_next(&in, &rec)) == 1) {
        check_record(&in, &rec, prev);
        prev = rec.line;
        FUZZ_CHECK(++records <= size); /* every record costs at least a byte */
    }
    FUZZ_CHECK(rc == 0);
    /* Every byte is counted, NUL bytes included. */
    FUZZ_CHECK(in.bytes == size - 1);
    input_close(&in);
    return 0;
}
