/* progress.c -- the sudoku tool's progress line on stderr.
 *
 * One home for the bar that solve (run.c) and generate (generate.c) draw:
 * the timing (first after PROGRESS_AFTER_US, then every PROGRESS_EVERY_US),
 * the bar itself and the clearing.  Each line is formatted into a buffer and
 * written with one call, so an unbuffered stderr gets it in one write and
 * the terminal never shows half a line.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tool/progress.h"
#include "util/clock.h"

#define BAR_WIDTH 30 /* columns of the bar: the length of BAR */
#define BAR       "##############################"
#define LINE_SIZE 512 /* one drawn line at the most */

void progress_init(struct progress *p, FILE *f, uint64_t t0_us)
{
    *p = (struct progress){.f = f, .t0_us = t0_us};
}

int progress_is_due(const struct progress *p, uint64_t *now_us)
{
    if (!p->is_on)
        return 0;
    uint64_t now = clock_now_us();
    if (now - p->t0_us < PROGRESS_AFTER_US || now - p->drawn_us < PROGRESS_EVERY_US)
        return 0;
    *now_us = now;
    return 1;
}

double progress_secs(const struct progress *p, uint64_t now_us)
{
    return (double)(now_us - p->t0_us) / 1e6;
}

void progress_draw(struct progress *p, uint64_t now_us, double frac, const char *fmt, ...)
{
    static const char erase[] = "\033[K";
    char line[LINE_SIZE];
    size_t room = sizeof(line) - sizeof(erase); /* the text's share, erase always fits */
    int n = 1;
    va_list ap;

    line[0] = '\r';
    if (frac >= 0) {
        int fill = (int)(frac * BAR_WIDTH);
        n = snprintf(line, room, "\r[%.*s%*s] %3d%% ", fill, BAR, BAR_WIDTH - fill, "",
                     (int)(frac * 100));
        if (n < 0 || (size_t)n >= room)
            return;
    }
    va_start(ap, fmt);
    int m = vsnprintf(line + n, room - (size_t)n, fmt, ap);
    va_end(ap);
    if (m < 0)
        return;
    size_t len = (size_t)n + ((size_t)m < room - (size_t)n ? (size_t)m : room - (size_t)n - 1);
    memcpy(line + len, erase, sizeof(erase));
    fputs(line, p->f);
    p->is_shown = 1;
    p->drawn_us = now_us;
}

void progress_clear(struct progress *p)
{
    if (p->is_shown)
        fputs("\r\033[K", p->f);
    p->is_shown = 0;
}
