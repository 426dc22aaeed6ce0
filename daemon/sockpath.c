/* sockpath.c -- the lock beside the socket, and a socket file we can prove is ours.
 *
 * Two daemons on one path would each believe they serve it; the second
 * used to find out only by connecting to the socket file, which is not
 * there once someone deleted it.  So the first takes PATH.lock with
 * flock(LOCK_EX | LOCK_NB) and keeps it until it exits; the kernel drops
 * it when the process dies, so a crash leaves no stale lock to clear.  The
 * lock file is removed on the way out while still held; a daemon that
 * opened it just before may then lock an unlinked file, so after locking
 * it checks that the path still names the file it locked and starts over
 * when not.
 *
 * The socket is bound here (socket, bind under a umask, chmod, listen) and
 * its device and inode recorded: the server watches the path and makes the
 * socket again when it is deleted or replaced, and removes it at exit only
 * when it is still ours.  An existing socket file is replaced only when
 * nothing accepts on it; a live one, or a file that is not a socket, is
 * left alone.  Errors are written into the caller's buffer; only a
 * replaced stale socket is logged here.
 */
#include "daemon/sockpath.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "daemon/log.h"

#define LOCK_TRIES 5 /* a lock file removed under us this often in a row: give up */

/* ------------------------------------------------------------------ lock */

/* The pid the holder wrote into the lock file, or 0. */
static long holder_pid(int fd)
{
    char text[32];
    ssize_t n = pread(fd, text, sizeof(text) - 1, 0);

    if (n <= 0)
        return 0;
    text[n] = '\0';
    return strtol(text, NULL, 10);
}

/* Say why a file beside path cannot be made: a missing directory is worth
 * naming, since an admin acts on it differently from "permission denied". */
static void explain_dir(const char *path, int rc, char *err, size_t err_size)
{
    char dir[4096];
    char *slash;
    struct stat st;

    snprintf(dir, sizeof(dir), "%s", path);
    slash = strrchr(dir, '/');
    if (slash && slash != dir)
        *slash = '\0';
    else
        snprintf(dir, sizeof(dir), "%s", slash ? "/" : ".");
    if (stat(dir, &st) < 0 && errno == ENOENT)
        snprintf(err, err_size, "cannot bind %s: directory %s does not exist", path, dir);
    else if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode))
        snprintf(err, err_size, "cannot bind %s: %s is not a directory", path, dir);
    else
        snprintf(err, err_size, "cannot bind %s: %s", path, strerror(-rc));
}

static int open_lock(const char *lock_path)
{
    int fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);

    /* Another user's lock file: reading is enough to lock it and learn its pid. */
    if (fd < 0 && errno == EACCES)
        fd = open(lock_path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    return fd < 0 ? -errno : fd;
}

/* 1 when fd is still the file lock_path names. */
static int is_same_file(int fd, const char *lock_path)
{
    struct stat a, b;

    return fstat(fd, &a) == 0 && stat(lock_path, &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}

static void write_pid(int fd)
{
    char text[32];
    int len = snprintf(text, sizeof(text), "%ld\n", (long)getpid());

    /* Only for the refusal message of the next daemon: failure is harmless. */
    if (ftruncate(fd, 0) == 0 && pwrite(fd, text, (size_t)len, 0) < 0)
        return;
}

int sockpath_lock(struct sockpath *sp, const char *path, char *err, size_t err_size)
{
    int len = snprintf(sp->lock_path, sizeof(sp->lock_path), "%s%s", path, SOCKPATH_LOCK_SUFFIX);

    sp->lock_fd = -1;
    if (len < 0 || (size_t)len >= sizeof(sp->lock_path)) {
        snprintf(err, err_size, "socket path too long for its lock file: %s", path);
        return -ENAMETOOLONG;
    }
    for (int i = 0; i < LOCK_TRIES; i++) {
        int fd = open_lock(sp->lock_path);
        if (fd < 0) {
            explain_dir(path, fd, err, err_size); /* the socket's directory */
            return fd;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
            int rc = errno == EWOULDBLOCK ? -EADDRINUSE : -errno;
            if (rc == -EADDRINUSE)
                snprintf(err, err_size, "another sudokud is listening on %s (pid %ld holds %s)",
                         path, holder_pid(fd), sp->lock_path);
            else
                snprintf(err, err_size, "cannot lock %s: %s", sp->lock_path, strerror(-rc));
            close(fd);
            return rc;
        }
        if (is_same_file(fd, sp->lock_path)) {
            write_pid(fd);
            sp->lock_fd = fd;
            return 0;
        }
        close(fd); /* its holder removed it as we opened it: take the new one */
    }
    snprintf(err, err_size, "cannot lock %s: it keeps being removed", sp->lock_path);
    return -EAGAIN;
}

void sockpath_unlock(struct sockpath *sp)
{
    if (sp->lock_fd < 0)
        return;
    unlink(sp->lock_path);
    close(sp->lock_fd);
    sp->lock_fd = -1;
}

/* ---------------------------------------------------------------- socket */

/* 1 when something accepts connections on path, 0 when not, <0 unknown. */
static int socket_is_live(const char *path)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int rc;

    if (fd < 0)
        return -errno;
    memcpy(sa.sun_path, path, strlen(path) + 1);
    rc = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0 ? 1 : -errno;
    close(fd);
    if (rc == -ECONNREFUSED || rc == -ENOENT)
        return 0;
    return rc;
}

/* Clear the way for bind: nothing there, or a socket nobody accepts on. */
static int clear_stale(const char *path, char *err, size_t err_size)
{
    struct stat st;
    int live;

    if (lstat(path, &st) < 0)
        return errno == ENOENT ? 0 : -errno;
    if (!S_ISSOCK(st.st_mode)) {
        snprintf(err, err_size, "%s exists and is not a socket: refusing to replace it", path);
        return -EEXIST;
    }
    live = socket_is_live(path);
    if (live > 0)
        snprintf(err, err_size, "another program is listening on %s: leaving it alone", path);
    else if (live < 0)
        snprintf(err, err_size, "cannot tell whether %s is in use: %s", path, strerror(-live));
    if (live != 0)
        return -EADDRINUSE;
    if (unlink(path) < 0 && errno != ENOENT) {
        snprintf(err, err_size, "cannot remove stale socket %s: %s", path, strerror(errno));
        return -errno;
    }
    log_msg(LOG_LVL_NOTICE, "replaced stale socket %s", path);
    return 0;
}

/* Bind and listen; the socket file gets mode from the start (umask), and
 * chmod makes sure of it. */
static int bind_listen(int fd, const char *path, unsigned mode, int backlog, char *err,
                       size_t err_size)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    mode_t old;
    int rc;

    memcpy(sa.sun_path, path, strlen(path) + 1);
    old = umask(0777 & ~mode);
    rc = bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ? -errno : 0;
    umask(old);
    if (rc < 0) {
        explain_dir(path, rc, err, err_size);
        return rc;
    }
    if (chmod(path, mode) < 0) {
        rc = -errno;
        snprintf(err, err_size, "cannot chmod %s: %s", path, strerror(errno));
        return rc;
    }
    if (listen(fd, backlog) < 0) {
        rc = -errno;
        snprintf(err, err_size, "cannot listen on %s: %s", path, strerror(errno));
        return rc;
    }
    return 0;
}

int sockpath_bind(struct sockpath *sp, const char *path, unsigned mode, int backlog, char *err,
                  size_t err_size)
{
    struct stat st;
    int fd, rc;

    if (strlen(path) >= sizeof(((struct sockaddr_un *)0)->sun_path)) {
        snprintf(err, err_size, "socket path too long: %s", path);
        return -ENAMETOOLONG;
    }
    rc = clear_stale(path, err, err_size);
    if (rc < 0)
        return rc;
    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        rc = -errno;
        snprintf(err, err_size, "cannot make a socket: %s", strerror(errno));
        return rc;
    }
    rc = bind_listen(fd, path, mode, backlog, err, err_size);
    if (rc == 0 && lstat(path, &st) < 0) {
        rc = -errno;
        snprintf(err, err_size, "%s vanished as it was made: %s", path, strerror(errno));
    }
    if (rc < 0) {
        close(fd);
        return rc;
    }
    sp->dev = st.st_dev;
    sp->ino = st.st_ino;
    return fd;
}

int sockpath_check(const struct sockpath *sp, const char *path)
{
    struct stat st;

    if (lstat(path, &st) < 0)
        return errno == ENOENT ? 0 : -errno;
    return st.st_dev == sp->dev && st.st_ino == sp->ino ? 1 : -EEXIST;
}

void sockpath_unlink(struct sockpath *sp, const char *path)
{
    if (sp->ino != 0 && sockpath_check(sp, path) == 1)
        unlink(path);
    sp->ino = 0;
}
