/* log.c -- stderr logging that never blocks the caller, with rate limits.
 *
 * Each line is formatted into a stack buffer and appended, whole, to a ring
 * of LOG_RING_SIZE bytes under a mutex; one writer thread takes what is
 * there and write(2)s it.  So the event loop and the workers never wait for
 * whoever reads stderr: a reader that stalls (a full pipe, a frozen journal)
 * fills the ring, and the lines that do not fit are dropped and counted.
 * Once the writer gets bytes out again it writes "dropped N log lines".
 * A line is copied in whole or not at all, so lines never interleave.
 *
 * Before log_init() starts the thread, and after log_close() stopped it, a
 * line is written directly (start-up errors, a failed thread start); while
 * log_close() waits for the writer, new lines are dropped.
 *
 * Rate limits (struct log_limit) are token buckets owned by their callers
 * and used on one thread each (the loop): a line past the budget is only
 * counted, and the next line the bucket allows is preceded by
 * "suppressed N similar lines".
 */
#include "daemon/log.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/clock.h"

#define LOG_RING_SIZE 65536 /* bytes of lines waiting for the writer */
#define LOG_LINE_SIZE 1024  /* one line at most, newline included */
#define LOG_CLOSE_MS  1000  /* log_close waits this long for a stalled reader */
#define LIMIT_RATE    10    /* refused-request lines per second ... */
#define LIMIT_BURST   20    /* ... after a burst of this many */
#define NS_PER_TOKEN  (1000000000u / LIMIT_RATE)

/* The ring: bytes [head, head + len) modulo LOG_RING_SIZE wait to be
 * written.  Everything below is guarded by lock. */
static struct {
    pthread_mutex_t lock;
    pthread_cond_t wake;         /* writer: lines came, or stop */
    pthread_cond_t drained;      /* log_close: the ring is empty */
    pthread_t thread;            /* the writer */
    char ring[LOG_RING_SIZE];    /* lines */
    size_t head, len;            /* unwritten bytes */
    uint64_t dropped;            /* lines that did not fit since the last report */
    int is_running, is_stopping; /* writer started / asked to end */
    int is_writing;              /* the writer holds bytes outside the lock */
} w = {.lock = PTHREAD_MUTEX_INITIALIZER,
       .wake = PTHREAD_COND_INITIALIZER,
       .drained = PTHREAD_COND_INITIALIZER};

static int use_journal;    /* JOURNAL_STREAM set: "<N>" prefixes */
static atomic_int verbose; /* -v: debug lines wanted (SIGHUP may change it) */

static void write_all(const char *p, size_t len)
{
    while (len > 0) {
        ssize_t n = write(STDERR_FILENO, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        p += n;
        len -= (size_t)n;
    }
}

static void write_dropped(uint64_t dropped)
{
    char line[128];
    int len = snprintf(line, sizeof(line), "%sdropped %llu log lines\n",
                       use_journal ? "<4>" : "sudokud: warning: ", (unsigned long long)dropped);

    if (len > 0)
        write_all(line, (size_t)len);
}

/* Take the ring's first contiguous run; the caller holds the lock. */
static size_t take_chunk(char *out, size_t out_size)
{
    size_t run = LOG_RING_SIZE - w.head < w.len ? LOG_RING_SIZE - w.head : w.len;

    if (run > out_size)
        run = out_size;
    memcpy(out, w.ring + w.head, run);
    w.head = (w.head + run) % LOG_RING_SIZE;
    w.len -= run;
    return run;
}

static void *writer_main(void *arg)
{
    static char chunk[LOG_RING_SIZE]; /* only this thread touches it */

    (void)arg;
    pthread_mutex_lock(&w.lock);
    for (;;) {
        uint64_t dropped;
        size_t n;

        while (w.len == 0 && w.dropped == 0 && !w.is_stopping) {
            pthread_cond_broadcast(&w.drained);
            pthread_cond_wait(&w.wake, &w.lock);
        }
        if (w.len == 0 && w.dropped == 0)
            break; /* stopping, everything written */
        n = take_chunk(chunk, sizeof(chunk));
        /* Lines dropped while the ring was full came after what is in it. */
        dropped = w.len == 0 ? w.dropped : 0;
        if (w.len == 0)
            w.dropped = 0;
        w.is_writing = 1;
        pthread_mutex_unlock(&w.lock);
        write_all(chunk, n);
        if (dropped)
            write_dropped(dropped);
        pthread_mutex_lock(&w.lock);
        w.is_writing = 0;
    }
    pthread_cond_broadcast(&w.drained);
    pthread_mutex_unlock(&w.lock);
    return NULL;
}

void log_init(int is_verbose)
{
    const char *js = getenv("JOURNAL_STREAM");

    use_journal = js && *js;
    atomic_store_explicit(&verbose, is_verbose, memory_order_relaxed);
    pthread_mutex_lock(&w.lock);
    if (!w.is_running && pthread_create(&w.thread, NULL, writer_main, NULL) == 0) {
        w.is_running = 1;
        atexit(log_close); /* every exit path writes what is queued */
    }
    pthread_mutex_unlock(&w.lock);
}

/* Deadline LOG_CLOSE_MS from now on CLOCK_REALTIME (pthread_cond_timedwait's). */
static void close_deadline(struct timespec *ts)
{
    clock_gettime(CLOCK_REALTIME, ts);
    ts->tv_sec += LOG_CLOSE_MS / 1000;
    ts->tv_nsec += (LOG_CLOSE_MS % 1000) * 1000000L;
    if (ts->tv_nsec >= 1000000000L) {
        ts->tv_sec++;
        ts->tv_nsec -= 1000000000L;
    }
}

void log_close(void)
{
    struct timespec ts;
    int rc = 0, is_done;

    pthread_mutex_lock(&w.lock);
    if (!w.is_running) {
        pthread_mutex_unlock(&w.lock);
        return;
    }
    w.is_stopping = 1;
    pthread_cond_signal(&w.wake);
    close_deadline(&ts);
    while ((w.len > 0 || w.dropped > 0 || w.is_writing) && rc == 0)
        rc = pthread_cond_timedwait(&w.drained, &w.lock, &ts);
    is_done = w.len == 0 && w.dropped == 0 && !w.is_writing;
    pthread_mutex_unlock(&w.lock);
    /* A reader that never reads again must not keep the daemon from
     * exiting: the writer is then left blocked, and exit() ends it. */
    if (!is_done)
        return;
    pthread_join(w.thread, NULL);
    pthread_mutex_lock(&w.lock);
    w.is_running = 0;
    w.is_stopping = 0;
    pthread_mutex_unlock(&w.lock);
}

int log_is_verbose(void)
{
    return atomic_load_explicit(&verbose, memory_order_relaxed);
}

void log_set_verbose(int is_verbose)
{
    atomic_store_explicit(&verbose, is_verbose, memory_order_relaxed);
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

/* One line with its prefix and newline into line; returns its length, or
 * -1 when there is nothing to write. */
static int format_line(char *line, size_t size, int level, const char *fmt, va_list ap)
{
    int head, len;

    if (use_journal)
        head = snprintf(line, size, "<%d>", level < 0 ? 0 : level > 7 ? 7 : level);
    else
        head = snprintf(line, size, "sudokud: %s: ", level_word(level));
    len = vsnprintf(line + head, size - (size_t)head - 1, fmt, ap);
    if (len < 0)
        return -1;
    len += head;
    if ((size_t)len > size - 2)
        len = (int)size - 2;
    /* One event, one line: a message with newlines would forge extra events. */
    for (int i = head; i < len; i++)
        if (line[i] == '\n' || line[i] == '\r')
            line[i] = ' ';
    line[len++] = '\n';
    return len;
}

/* Append a whole line to the ring, or count it dropped. */
static void enqueue(const char *line, size_t len)
{
    size_t tail;

    pthread_mutex_lock(&w.lock);
    if (!w.is_running) {
        pthread_mutex_unlock(&w.lock);
        write_all(line, len);
        return;
    }
    if (w.is_stopping || LOG_RING_SIZE - w.len < len) {
        w.dropped++;
        pthread_mutex_unlock(&w.lock);
        return;
    }
    tail = (w.head + w.len) % LOG_RING_SIZE;
    for (size_t i = 0; i < len; i++)
        w.ring[(tail + i) % LOG_RING_SIZE] = line[i];
    w.len += len;
    pthread_cond_signal(&w.wake);
    pthread_mutex_unlock(&w.lock);
}

static void log_vmsg(int level, const char *fmt, va_list ap)
{
    char line[LOG_LINE_SIZE];
    int len;

    if (level >= SDK_LOG_DEBUG && !log_is_verbose())
        return;
    len = format_line(line, sizeof(line), level, fmt, ap);
    if (len > 0)
        enqueue(line, (size_t)len);
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

/* ------------------------------------------------------------ rate limits */

void log_limit_init(struct log_limit *l)
{
    l->tokens = LIMIT_BURST;
    l->last_ns = clock_now_ns();
    l->suppressed = 0;
}

int log_limit_take(struct log_limit *l)
{
    uint64_t now = clock_now_ns();
    uint64_t earned = (now - l->last_ns) / NS_PER_TOKEN;

    if (earned > 0) {
        l->tokens = l->tokens + earned > LIMIT_BURST ? LIMIT_BURST : (unsigned)(l->tokens + earned);
        l->last_ns += earned * NS_PER_TOKEN;
    }
    if (l->tokens == LIMIT_BURST)
        l->last_ns = now; /* a full bucket earns nothing while it waits */
    if (l->tokens == 0) {
        l->suppressed++;
        return 0;
    }
    l->tokens--;
    if (l->suppressed > 0) {
        log_msg(LOG_LVL_NOTICE, "suppressed %llu similar lines", (unsigned long long)l->suppressed);
        l->suppressed = 0;
    }
    return 1;
}

void log_limited(struct log_limit *l, int level, const char *fmt, ...)
{
    va_list ap;

    if (level >= SDK_LOG_DEBUG && !log_is_verbose())
        return;
    if (!log_limit_take(l))
        return;
    va_start(ap, fmt);
    log_vmsg(level, fmt, ap);
    va_end(ap);
}
