/* sdnotify.h -- the small part of systemd the daemon speaks.
 *
 * Socket activation (LISTEN_FDS), readiness and status (NOTIFY_SOCKET) and
 * the watchdog (WATCHDOG_USEC).  With libsystemd at build time these wrap
 * sd-daemon; without it, socket activation still works (the protocol is a few
 * environment variables) and notifications are sent by hand or not at all.
 * Every function is a cheap no-op when not run under systemd.
 */
#ifndef SUDOKU_SDNOTIFY_H
#define SUDOKU_SDNOTIFY_H

#include <stdint.h>

/* The inherited listening socket, when started by socket activation with
 * exactly one AF_UNIX stream socket (fd 3).  Returns the fd (>= 3), -1 when
 * not socket-activated, or a negative errno (< -1) when the inherited fds are
 * unusable (wrong count or type).  Clears LISTEN_* from the environment. */
int sdn_listen_fd(void);

/* Send a notification such as "READY=1", "STOPPING=1", "STATUS=...",
 * "WATCHDOG=1".  Returns 0 (also when there is no NOTIFY_SOCKET) or a
 * negative errno. */
int sdn_notify(const char *state);

/* The watchdog interval in microseconds when WatchdogSec= is set for this
 * process, else 0.  Ping with sdn_notify("WATCHDOG=1") at half this. */
uint64_t sdn_watchdog_usec(void);

#endif /* SUDOKU_SDNOTIFY_H */
