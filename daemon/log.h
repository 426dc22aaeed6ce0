/* log.h -- one line per event on stderr, with a level.
 *
 * Levels are syslog's (SDK_LOG_ERR ... SDK_LOG_DEBUG).  When stderr is the
 * journal (JOURNAL_STREAM is set) each line starts with the sd-daemon "<N>"
 * priority prefix; otherwise with a level word.  Lines are written with one
 * write(2), so threads never interleave inside a line.  Thread-safe.
 */
#ifndef SUDOKUD_LOG_H
#define SUDOKUD_LOG_H

#include <sudoku/plugin.h>

#define LOG_LVL_NOTICE 5 /* between warning and info, as syslog has it */

/* Read JOURNAL_STREAM and remember verbosity.  Call once before logging. */
void log_init(int verbose);

/* 1 when -v was given: per-request lines are wanted. */
int log_is_verbose(void);

/* Log one line at level (SDK_LOG_*); debug lines only with -v. */
void log_msg(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* host_log_fn for the plugin host: forwards plugin and loader lines. */
void log_host_sink(void *ctx, int level, const char *msg);

#endif /* SUDOKUD_LOG_H */
