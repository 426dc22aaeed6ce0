/* pool.c -- worker threads, a bounded FIFO and completions posted back.
 *
 *   loop thread                     workers
 *   pool_submit --> [queue] ------> work()
 *                                      |
 *   done() <----- on_async <-- [done list] + uv_async_send
 *
 * One mutex guards the queue, the done list and every job's state; a job's
 * own fields belong to whoever holds it in that state (the worker while
 * RUNNING, the loop thread otherwise).
 */
#include "daemon/pool.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

struct pool {
    uv_async_t async;                       /* wakes the loop for completions */
    pthread_mutex_t mu;                     /* guards everything below */
    pthread_cond_t cv;                      /* workers wait here for jobs */
    struct pool_job *head, *tail;           /* queued jobs, FIFO */
    size_t queued, max_queued;              /* queue length and bound */
    struct pool_job *done_head, *done_tail; /* finished, not yet delivered */
    int stop;                               /* workers exit when set */
    unsigned threads_len;                   /* started workers */
    pthread_t *threads;                     /* their ids */
};

static struct pool_job *take_next(struct pool *p)
{
    struct pool_job *job;

    while (!p->stop && !p->head)
        pthread_cond_wait(&p->cv, &p->mu);
    if (p->stop)
        return NULL;
    job = p->head;
    p->head = job->next;
    if (p->head)
        p->head->prev = NULL;
    else
        p->tail = NULL;
    p->queued--;
    job->prev = job->next = NULL;
    job->state = POOL_RUNNING;
    return job;
}

static void *worker_main(void *arg)
{
    struct pool *p = arg;
    struct pool_job *job;

    pthread_mutex_lock(&p->mu);
    while ((job = take_next(p)) != NULL) {
        pthread_mutex_unlock(&p->mu);
        job->work(job);
        pthread_mutex_lock(&p->mu);
        job->state = POOL_DONE;
        if (p->done_tail)
            p->done_tail->next = job;
        else
            p->done_head = job;
        p->done_tail = job;
        pthread_mutex_unlock(&p->mu);
        uv_async_send(&p->async);
        pthread_mutex_lock(&p->mu);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static void on_async(uv_async_t *handle)
{
    struct pool *p = handle->data;
    struct pool_job *job, *next;

    pthread_mutex_lock(&p->mu);
    job = p->done_head;
    p->done_head = p->done_tail = NULL;
    pthread_mutex_unlock(&p->mu);
    for (; job; job = next) {
        next = job->next;
        job->next = NULL;
        job->state = POOL_IDLE;
        job->done(job);
    }
}

static void on_async_closed(uv_handle_t *handle)
{
    struct pool *p = handle->data;
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
    free(p->threads);
    free(p);
}

static void stop_workers(struct pool *p)
{
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    for (unsigned i = 0; i < p->threads_len; i++)
        pthread_join(p->threads[i], NULL);
    p->threads_len = 0;
}

int pool_new(uv_loop_t *loop, unsigned threads, size_t max_queued, struct pool **out)
{
    struct pool *p = calloc(1, sizeof(*p));
    int rc = -ENOMEM;

    if (!p || !(p->threads = calloc(threads, sizeof(pthread_t))))
        goto fail;
    p->max_queued = max_queued;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    p->async.data = p;
    rc = uv_async_init(loop, &p->async, on_async);
    if (rc < 0)
        goto fail;
    for (; p->threads_len < threads; p->threads_len++) {
        rc = -pthread_create(&p->threads[p->threads_len], NULL, worker_main, p);
        if (rc < 0) {
            stop_workers(p);
            uv_close((uv_handle_t *)&p->async, on_async_closed);
            return rc;
        }
    }
    *out = p;
    return 0;
fail:
    if (p)
        free(p->threads);
    free(p);
    return rc;
}

int pool_submit(struct pool *p, struct pool_job *job)
{
    pthread_mutex_lock(&p->mu);
    if (p->queued >= p->max_queued) {
        pthread_mutex_unlock(&p->mu);
        return -EAGAIN;
    }
    job->next = NULL;
    job->prev = p->tail;
    if (p->tail)
        p->tail->next = job;
    else
        p->head = job;
    p->tail = job;
    p->queued++;
    job->state = POOL_QUEUED;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
    return 0;
}

int pool_remove(struct pool *p, struct pool_job *job)
{
    int rc = -EBUSY;

    pthread_mutex_lock(&p->mu);
    if (job->state == POOL_QUEUED) {
        if (job->prev)
            job->prev->next = job->next;
        else
            p->head = job->next;
        if (job->next)
            job->next->prev = job->prev;
        else
            p->tail = job->prev;
        job->prev = job->next = NULL;
        job->state = POOL_IDLE;
        p->queued--;
        rc = 0;
    }
    pthread_mutex_unlock(&p->mu);
    return rc;
}

size_t pool_queued(struct pool *p)
{
    size_t n;
    pthread_mutex_lock(&p->mu);
    n = p->queued;
    pthread_mutex_unlock(&p->mu);
    return n;
}

void pool_close(struct pool *p)
{
    if (!p)
        return;
    stop_workers(p);
    uv_close((uv_handle_t *)&p->async, on_async_closed);
}
