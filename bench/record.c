/* record.c -- one record of a puzzle file, as givens a runner can time.
 *
 * The in-process runners (inproc.c solves, rate.c rates) read their files
 * with the tool's reader (proto/input.c) and must turn each record into a
 * grid of givens the same way: an error record, a line that does not parse
 * and givens that break a rule are all the file's errors, never the
 * solver's.  None of this is timed.
 */
#include <errno.h>
#include <string.h>

#include "bench/bench.h"
#include "core/grid.h"
#include "proto/codec.h"
#include "proto/input.h"

int bench_record_cells(const struct input_record *rec, unsigned *n, uint8_t *cells)
{
    *n = rec->n;
    if (rec->error[0])
        return -EINVAL;
    if (rec->format == INPUT_LINE) {
        if (codec_parse_line(rec->text, rec->len, n, cells, NULL, 0) != 0)
            return -EINVAL;
    } else {
        memcpy(cells, rec->cells, (size_t)*n * *n);
    }
    if (grid_check_givens(*n, cells, NULL, 0) != 0)
        return -EINVAL;
    return 0;
}
