/* test_progress.c -- the tool's progress line (tool/progress.c).
 *
 * The line is drawn into a tmpfile() and read back byte for byte: the bar
 * and percentage for a known fraction, none for an unknown one, the erase
 * at the end even when the text is cut, and a clear only after a draw.
 * Whether a redraw is due is checked away from the thresholds (a run that
 * began long ago, one that has just begun), so a slow machine cannot turn
 * the answer.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tool/progress.h"
#include "util/clock.h"

/* What has been written to f since the last call (f is rewound). */
static const char *drawn(FILE *f)
{
    static char buf[1024];
    long end = ftell(f);
    assert_true(end >= 0 && (size_t)end < sizeof(buf));
    rewind(f);
    size_t n = fread(buf, 1, (size_t)end, f);
    buf[n] = '\0';
    rewind(f);
    assert_int_equal(ftruncate(fileno(f), 0), 0);
    return buf;
}

static void test_draw_and_clear(void **state)
{
    (void)state;
    struct progress p;
    FILE *f = tmpfile();
    assert_non_null(f);
    progress_init(&p, f, 0);
    progress_clear(&p);
    assert_string_equal(drawn(f), ""); /* nothing shown: nothing to erase */

    progress_draw(&p, 42, 0.5, "%d/%d puzzles, %.0f/s", 5, 10, 2.4);
    assert_string_equal(drawn(f),
                        "\r[###############               ]  50% 5/10 puzzles, 2/s\033[K");
    assert_true(p.is_shown);
    assert_int_equal(p.drawn_us, 42);

    progress_draw(&p, 43, 1.0, "done");
    assert_string_equal(drawn(f), "\r[##############################] 100% done\033[K");
    progress_draw(&p, 44, 0, "none");
    assert_string_equal(drawn(f), "\r[                              ]   0% none\033[K");
    progress_draw(&p, 45, -1, "%llu puzzles", 7ULL); /* fraction unknown: no bar */
    assert_string_equal(drawn(f), "\r7 puzzles\033[K");

    progress_clear(&p);
    assert_string_equal(drawn(f), "\r\033[K");
    assert_false(p.is_shown);
    progress_clear(&p);
    assert_string_equal(drawn(f), "");
    fclose(f);
}

/* A text longer than the line is cut, and the erase still ends it. */
static void test_long_text_is_cut(void **state)
{
    (void)state;
    static char text[2000];
    struct progress p;
    FILE *f = tmpfile();
    assert_non_null(f);
    memset(text, 'x', sizeof(text) - 1);
    progress_init(&p, f, 0);
    progress_draw(&p, 1, 0.25, "%s", text);
    const char *s = drawn(f);
    size_t len = strlen(s);
    assert_true(len > 100 && len < sizeof(text));
    assert_memory_equal(s, "\r[#######                       ]  25% xxx", 42);
    assert_string_equal(s + len - 4, "x\033[K");
    fclose(f);
}

static void test_is_due(void **state)
{
    (void)state;
    struct progress p;
    uint64_t now = 0, before = clock_now_us();

    progress_init(&p, stderr, before - 60 * PROGRESS_AFTER_US);
    assert_false(progress_is_due(&p, &now)); /* off */
    p.is_on = 1;
    assert_true(progress_is_due(&p, &now)); /* long begun, never drawn */
    assert_true(now >= before);
    p.drawn_us = before - 60 * PROGRESS_EVERY_US;
    assert_true(progress_is_due(&p, &now));

    progress_init(&p, stderr, clock_now_us()); /* just begun */
    p.is_on = 1;
    assert_false(progress_is_due(&p, &now));
    assert_true(progress_secs(&p, p.t0_us + 1500000) == 1.5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_draw_and_clear),
        cmocka_unit_test(test_long_text_is_cut),
        cmocka_unit_test(test_is_due),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
