/* log.h -- one line per event on stderr, with a level; never blocks.
 *
 * Levels are syslog's (SDK_LOG_ERR ... SDK_LOG_DEBUG).  When stderr is the
 * journal (JOURNAL_STREAM is set) each line starts with the sd-daemon "<N>"
 * priority prefix; otherwise with a level word.  Lines go through a bounded
 * ring to a writer thread, so a caller never waits for stderr's reader:
 * lines that do not fit are dropped, counted, and reported as "dropped N
 * log lines" once writing resumes.  Lines never interleave.  Thread-safe.
 *
 * struct log_limit rate-limits one kind of line (per-request refusals, accept
 * errors): 10 a second after a burst of 20, then "suppressed N similar
 * lines" before the next line let through.  A limit belongs to one thread.
 */
#ifndef SUDOKUD_LOG_H
#define SUDOKUD_LOG_H

#include <stdint.h>

#include <sudoku/plugin.h>

#define LOG_LVL_NOTICE 5 /* between warning and info, as syslog has it */

/* A token bucket for one kind of line. */
struct log_limit {
    unsigned tokens;     /* lines that may go now */
    uint64_t last_ns;    /* clock_now_ns() the tokens were counted at */
    uint64_t suppressed; /* lines held back since the last one let through */
};

/* Read JOURNAL_STREAM, remember verbosity and start the writer thread
 * (log_close runs at exit).  Call once before logging from more than one
 * thread. */
void log_init(int verbose);

/* Write what is queued (waiting at most a second for a stalled reader) and
 * stop the writer; later lines are written directly.  Registered with
 * atexit() by log_init(); calling it earlier is harmless. */
void log_close(void);

/* 1 when -v was given: per-request lines are wanted. */
int log_is_verbose(void);

/* Turn debug lines on or off (a reload); any thread may log meanwhile. */
void log_set_verbose(int is_verbose);

/* Log one line at level (SDK_LOG_*); debug lines only with -v. */
void log_msg(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* host_log_fn for the plugin host: forwards plugin and loader lines. */
void log_host_sink(void *ctx, int level, const char *msg);

/* A full bucket. */
void log_limit_init(struct log_limit *l);

/* 1 when one more line may go now (after logging the suppressed count, if
 * any), else 0 and the line is counted as suppressed. */
int log_limit_take(struct log_limit *l);

/* log_msg under l's budget. */
void log_limited(struct log_limit *l, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif /* SUDOKUD_LOG_H */
