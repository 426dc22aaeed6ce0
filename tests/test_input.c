/* test_input.c -- the puzzle-file reader (proto/input.c) on grids as people
 * write them.
 *
 * Each case is a file's text and what the reader must make of it: the
 * records' forms, and for good records the cells, compared with what the
 * line-form parser makes of the same puzzle written as one line (so the
 * expectation is an independent spelling, not stored cells); for bad
 * records the line they are reported at and a part of the message.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proto/codec.h"
#include "proto/input.h"

#define P9 "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
#define P4 "1.3..4.......2.4"

/* What one record must be: the line form it equals, or an error. */
struct want {
    const char *line_form; /* NULL: a bad record */
    unsigned line;         /* the line it is reported at */
    const char *error;     /* bad records: part of the message */
};

static const struct {
    const char *comment;
    const char *text;
    struct want want[3];
} cases[] = {
    {"digits without spaces, a byte order mark first",
     "\xef\xbb\xbf"
     "530070000\n600195000\n098000060\n800060003\n400803001\n700020006\n060000280\n000419005\n"
     "000080079\n",
     {{P9, 1, NULL}}},
    {"qqwing's readable form: '.' blanks, '|' and rule lines",
     " 5 3 . | . 7 . | . . .\n 6 . . | 1 9 5 | . . .\n . 9 8 | . . . | . 6 .\n"
     "-------+-------+-------\n 8 . . | . 6 . | . . 3\n 4 . . | 8 . 3 | . . 1\n"
     " 7 . . | . 2 . | . . 6\n-------+-------+-------\n . 6 . | . . . | 2 8 .\n"
     " . . . | 4 1 9 | . . 5\n . . . | . 8 . | . 7 9\n",
     {{P9, 1, NULL}}},
    {"qqwing's compact form: rows of '.' and digits",
     "53..7....\n6..195...\n.98....6.\n8...6...3\n4..8.3..1\n7...2...6\n.6....28.\n...419..5\n"
     "....8..79\n",
     {{P9, 1, NULL}}},
    {"digits grouped by box",
     "530 070 000\n600 195 000\n098 000 060\n800 060 003\n400 803 001\n700 020 006\n"
     "060 000 280\n000 419 005\n000 080 079\n",
     {{P9, 1, NULL}}},
    {"the judge form still reads, two grids back to back",
     "1 0 3 0\n0 4 0 0\n0 0 0 0\n0 2 0 4\n1 0 3 0\n0 4 0 0\n0 0 0 0\n0 2 0 4\n",
     {{P4, 1, NULL}, {P4, 5, NULL}}},
    {"a row with a missing number is reported at its own line, the next grid still reads",
     "5 3 0 0 7 0 0 0 0\n6 0 0 1 9 5 0 0 0\n0 9 8 0 0 0 0 6 0\n8 0 0 0 6 0 0 3\n"
     "4 0 0 8 0 3 0 0 1\n7 0 0 0 2 0 0 0 6\n0 6 0 0 0 0 2 8 0\n0 0 0 4 1 9 0 0 5\n"
     "0 0 0 0 8 0 0 7 9\n\n530070000\n600195000\n098000060\n800060003\n400803001\n700020006\n"
     "060000280\n000419005\n000080079\n",
     {{NULL, 4, "row 4 has 8 numbers, 9 expected"}, {P9, 11, NULL}}},
    {"a 16-symbol line is a 4x4 puzzle in the line form",
     P4 "\n" P4 "\n",
     {{P4, 1, NULL}, {P4, 2, NULL}}},
    {"line form with a byte order mark", "\xef\xbb\xbf" P9 "\n", {{P9, 1, NULL}}},
    {"auto detection for each puzzle: a line, a grid, a line",
     P9 "\n1 0 3 0\n0 4 0 0\n0 0 0 0\n0 2 0 4\n" P4 "\n",
     {{P9, 1, NULL}, {P4, 2, NULL}, {P4, 6, NULL}}},
    {"among line puzzles, a lone grid row is one bad record",
     P9 "\n123456789\n" P9 "\n",
     {{P9, 1, NULL}, {NULL, 2, "lone grid row"}, {P9, 3, NULL}}},
    {"qqwing's --csv output: the header skipped, the first field the puzzle",
     "Puzzle,Solution,Difficulty\n" P9
     ",534678912672195348198342567859761423426853791713924856961537284"
     "287419635345286179,Easy\n" P4 ",\n",
     {{P9, 2, NULL}, {P4, 3, NULL}}},
    {"a grid cut short", "1 0 3 0\n0 4 0 0\n\n", {{NULL, 1, "grid has 2 rows, 4 expected"}}},
};

static void check_record(const struct input_record *r, const struct want *w)
{
    uint8_t want_cells[625];
    unsigned want_n = 0;

    assert_int_equal(r->line, w->line);
    if (!w->line_form) {
        assert_non_null(strstr(r->error, w->error));
        return;
    }
    assert_string_equal(r->error, "");
    assert_int_equal(
        codec_parse_line(w->line_form, strlen(w->line_form), &want_n, want_cells, NULL, 0), 0);
    if (r->format == INPUT_LINE) {
        uint8_t cells[625];
        unsigned n = 0;
        assert_int_equal(codec_parse_line(r->text, r->len, &n, cells, NULL, 0), 0);
        assert_int_equal(n, want_n);
        assert_memory_equal(cells, want_cells, (size_t)n * n);
    } else {
        assert_int_equal(r->n, want_n);
        assert_memory_equal(r->cells, want_cells, (size_t)want_n * want_n);
    }
}

static void test_grids_as_people_write_them(void **state)
{
    static struct input in;
    static struct input_record rec;
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char path[] = "/tmp/sudoku-input-XXXXXX";
        int fd = mkstemp(path);
        size_t k = 0;
        print_message("case: %s\n", cases[i].comment);
        assert_true(fd >= 0);
        assert_int_equal(write(fd, cases[i].text, strlen(cases[i].text)),
                         (ssize_t)strlen(cases[i].text));
        close(fd);
        assert_int_equal(input_open(&in, path, INPUT_AUTO), 0);
        while (input_next(&in, &rec) > 0) {
            assert_true(k < 3 && cases[i].want[k].line != 0);
            check_record(&rec, &cases[i].want[k++]);
        }
        assert_true(k == 3 || cases[i].want[k].line == 0); /* every record came */
        input_close(&in);
        unlink(path);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grids_as_people_write_them),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
