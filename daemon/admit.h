/* admit.h -- who gets a connection slot: the per-uid limit and eviction.
 *
 * A newcomer is served when its uid (SO_PEERCRED) holds fewer than
 * --max-connections-per-uid connections (the daemon's own uid is not
 * limited) and the table has room.  With the table full, the connection
 * that has been idle longest among those of the uid holding the most gives
 * way: idle means nothing owed, nothing unsent, and no complete message read
 * and no answer written for ADMIT_EVICT_IDLE_MS (a client dribbling a message
 * a byte at a time is idle).  Loop thread only.
 */
#ifndef SUDOKUD_ADMIT_H
#define SUDOKUD_ADMIT_H

#include <stddef.h>

#include "daemon/conn.h"

#define ADMIT_EVICT_IDLE_MS 5000 /* a connection idle less than this is never evicted */

/* The per-uid limit in force: --max-connections-per-uid, or a quarter of
 * --max-connections (at least 1). */
unsigned admit_per_uid(const struct conn_set *set);

/* May newcomer c (in set->all, not served yet, its peer read) be served?
 * Returns 0, after closing one idle connection (logged) when the table was
 * full; -EUSERS (its uid is at its limit) or -EAGAIN (table full, nobody
 * idle enough to give way) with why saying so. */
int admit_take_slot(struct conn_set *set, const struct conn *c, char *why, size_t why_size);

#endif /* SUDOKUD_ADMIT_H */
