/* log.c -- stderr logging with levels and optional journal prefixes.
 *
 * Each line is formatted into a stack buffer and written with a single
 * write(2): worker threads (plugin log callbacks) and the loop thread may log
 * at once, and a single write keeps their lines whole.
 */
#include "daemon/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int use_journal; /* JOURNAL_STREAM set: "<N>" prefixes */
static int verbose;     /* -v: debug lines wanted */

void log_init(int is_verbose)
{
    const char *js = getenv("JOURNAL_STREAM");
    use_journal = js && *js;
    verbose = is_verbose;
}

int log_is_verbose(void)
{
    return verbose;
}

static const char *level_word(int level)
{
    if (level <= SDK_LOG_ERR)
        return "error";
    if (level == SDK_LOG_WARNING)
        return "warning";
    if (level == LOG_LVL_NOTICE)
        return "notice";
    if (level == SDK_LOG_INFO)
        return "info";
    return "debug";
}

static void log_vmsg(int level, const char *fmt, va_list ap)
{
    char line[1024];
    int head, len;

    if (level >= SDK_LOG_DEBUG && !verbose)
        return;
    if (use_journal)
        head = snprintf(line, sizeof(line), "<%d>", level < 0 ? 0 : level > 7 ? 7 : level);
    else
        head = snprintf(line, sizeof(line), "sudokud: %s: ", level_word(level));
    len = vsnprintf(line + head, sizeof(line) - (size_t)head - 1, fmt, ap);
    if (len < 0)
        return;
    len += head;
    if ((size_t)len > sizeof(line) - 2)
        len = (int)sizeof(line) - 2;
    /* One event, one line: a message with newlines would forge extra events. */
    for (int i = head; i < len; i++)
        if (line[i] == '\n' || line[i] == '\r')
            line[i] = ' ';
    line[len++] = '\n';
    if (write(STDERR_FILENO, line, (size_t)len) < 0)
        return;
}

void log_msg(int level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    log_vmsg(level, fmt, ap);
    va_end(ap);
}

void log_host_sink(void *ctx, int level, const char *msg)
{
    (void)ctx;
    log_msg(level, "%s", msg);
}
