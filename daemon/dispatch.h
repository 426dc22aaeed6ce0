/* dispatch.h -- the methods of protocol v1 and the life of a solve job.
 *
 * dispatch_message() answers ping, solvers and stats at once and turns a
 * valid solve into a job for the worker pool; the job's completion, back on
 * the loop thread, packs the answer into its connection.  Loop thread only.
 */
#ifndef SUDOKUD_DISPATCH_H
#define SUDOKUD_DISPATCH_H

#include "proto/rpc.h"

struct conn;
struct server;

/* Handle one decoded message of c (req->code may carry an error to answer,
 * with its reason in err). */
void dispatch_message(struct conn *c, const struct rpc_request *req, const char *err);

/* c is going away: drop its queued solves, cancel its running ones and
 * discard their results when they come back. */
void dispatch_drop_jobs(struct conn *c);

/* Shutdown: answer every queued solve with `overloaded` and, when
 * cancel_running, ask the running ones to stop (answered `overloaded` too). */
void dispatch_stop(struct server *s, int cancel_running);

/* Pack an error response into c and count it; logs the refusal once. */
void dispatch_error(struct conn *c, uint32_t msgid, const char *method, enum rpc_code code,
                    const char *message);

#endif /* SUDOKUD_DISPATCH_H */
