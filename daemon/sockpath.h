/* sockpath.h -- one daemon per socket path: the lock beside it, and the
 * socket file we bound, watched so that it can be made again.
 *
 * The lock is PATH.lock, flock(LOCK_EX | LOCK_NB) held for the daemon's
 * life, so a second daemon on the same path refuses even when the socket
 * file is gone.  The socket is bound here, not by libuv, so that nothing
 * unlinks a file that is not the one we made: sockpath_is_ours() compares
 * the path's device and inode with the ones recorded at bind time.  A path
 * inherited from systemd (socket activation) uses none of this.
 */
#ifndef SUDOKUD_SOCKPATH_H
#define SUDOKUD_SOCKPATH_H

#include <stddef.h>
#include <sys/types.h>

#define SOCKPATH_LOCK_SUFFIX ".lock" /* the lock file is the socket path plus this */

/* The lock and the identity of the socket file we bound. */
struct sockpath {
    char lock_path[4096 + sizeof(SOCKPATH_LOCK_SUFFIX)]; /* PATH.lock */
    int lock_fd;                                         /* held with LOCK_EX, or -1 */
    dev_t dev;                                           /* the bound socket file's device */
    ino_t ino;                                           /* ... and inode (0: none bound) */
};

/* Take PATH.lock for the life of the daemon and write our pid into it.
 * Returns 0, -EADDRINUSE when another process holds it, or another
 * negative errno; on failure err says why (naming the holder's pid). */
int sockpath_lock(struct sockpath *sp, const char *path, char *err, size_t err_size);

/* Remove PATH.lock (while still holding it) and release it.  Safe to call
 * without the lock held. */
void sockpath_unlock(struct sockpath *sp);

/* Bind a listening Unix socket at path with permission bits mode, replacing
 * what is there only if it is a socket nobody accepts on (logged); a file
 * that is not a socket, or a live socket, is left alone (-EEXIST,
 * -EADDRINUSE).  Records the new file's device and inode in sp.  Returns
 * the listening fd (the caller owns and closes it), or a negative errno
 * with err saying why. */
int sockpath_bind(struct sockpath *sp, const char *path, unsigned mode, int backlog, char *err,
                  size_t err_size);

/* 1 when path is still the socket file sockpath_bind() made, 0 when it is
 * gone, -EEXIST when something else is there now. */
int sockpath_check(const struct sockpath *sp, const char *path);

/* Unlink path if it is still the socket file we bound (never another). */
void sockpath_unlink(struct sockpath *sp, const char *path);

#endif /* SUDOKUD_SOCKPATH_H */
