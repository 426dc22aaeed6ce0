/* progress.h -- the sudoku tool's progress line on stderr.
 *
 * Long runs of the tool (solve, generate) redraw one line on the terminal:
 * after PROGRESS_AFTER_US from the start, at most every PROGRESS_EVERY_US,
 * and cleared before any other text is written to the same stream.  The
 * line is "\r", a 30-column bar and a percentage when the fraction done is
 * known, the caller's text, then "\033[K" (erase to the end of the line).
 * The caller decides whether there is a terminal (is_on); nothing here
 * calls isatty.  Part of the tool, not of the client library.
 */
#ifndef SUDOKU_CLIENT_PROGRESS_H
#define SUDOKU_CLIENT_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

#define PROGRESS_AFTER_US 1000000u /* before the line first shows */
#define PROGRESS_EVERY_US 200000u  /* between redraws */

/* One progress line. */
struct progress {
    FILE *f;           /* where the line goes (stderr), borrowed */
    uint64_t t0_us;    /* the run's start (clock_now_us) */
    uint64_t drawn_us; /* the last redraw */
    int is_on;         /* draw at all: f is a terminal and the run wants a line */
    int is_shown;      /* a line is on screen: clear it before other text */
};

/* Start p on stream f at t0_us, off (set is_on to draw). */
void progress_init(struct progress *p, FILE *f, uint64_t t0_us);

/* 1 when p is on and a redraw is due now (then *now_us is the clock it read),
 * else 0.  Reads the clock only when p is on. */
int progress_is_due(const struct progress *p, uint64_t *now_us);

/* Seconds from p's start to now_us. */
double progress_secs(const struct progress *p, uint64_t now_us);

/* Draw the line at now_us: the bar for frac (0..1; < 0: no bar, the fraction
 * is unknown), then fmt formatted with the arguments, in one write. */
void progress_draw(struct progress *p, uint64_t now_us, double frac, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Erase the line if one is shown. */
void progress_clear(struct progress *p);

#endif
