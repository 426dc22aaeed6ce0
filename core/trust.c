/* trust.c -- is a plugin file what the admin installed?  sshd's StrictModes.
 *
 * trust.h states the rules.  A path is judged in its resolved form
 * (realpath), from the file up to "/", one lstat() a directory.  The file
 * itself is judged on the descriptor the caller then loads from, so a file
 * swapped in after the check is never the one loaded.  The directories need
 * no descriptor: each one is out of reach of anyone untrusted, so nobody
 * untrusted can change what they lead to between the check and the load.
 *
 * Unlike sshd's safe_path(), which stops at the user's home directory and
 * otherwise refuses any writable directory, a sticky directory above the one
 * holding the plugin is accepted: a build tree cloned under /tmp loads its
 * own plugins, and nobody but root or the tree's owner can rename it away.
 */
#include "core/trust.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TRUST_OPEN_FLAGS (O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)

static const char *type_name(mode_t mode)
{
    switch (mode & S_IFMT) {
    case S_IFREG:
        return "regular file";
    case S_IFDIR:
        return "directory";
    case S_IFIFO:
        return "FIFO";
    case S_IFSOCK:
        return "socket";
    case S_IFCHR:
        return "character device";
    case S_IFBLK:
        return "block device";
    case S_IFLNK:
        return "symbolic link";
    default:
        return "special file";
    }
}

/* Why a system call on path failed: returns -errno with why set. */
static int errno_why(const char *what, const char *path, char *why, size_t why_size)
{
    int rc = -errno;

    snprintf(why, why_size, "cannot %s %s: %s", what, path, strerror(-rc));
    return rc;
}

static int not_regular(const char *path, mode_t mode, char *why, size_t why_size)
{
    snprintf(why, why_size, "%s is a %s, not a regular file", path, type_name(mode));
    return -ENOEXEC;
}

/* Owner of st, the inode at path: root or the effective uid.  Returns 0 or
 * -EPERM with the reason in why. */
static int owner_ok(const struct stat *st, const char *path, char *why, size_t why_size)
{
    uid_t euid = geteuid();

    if (st->st_uid == 0 || st->st_uid == euid)
        return 0;
    snprintf(why, why_size, "%s is owned by uid %ld, not by root or uid %ld", path,
             (long)st->st_uid, (long)euid);
    return -EPERM;
}

/* Owner and mode of st, the inode at path.  With sticky_ok a directory
 * that has the sticky bit may be writable by group and others.  Returns 0
 * or -EPERM with the reason in why. */
static int owner_mode_ok(const struct stat *st, const char *path, int sticky_ok, char *why,
                         size_t why_size)
{
    if (owner_ok(st, path, why, why_size) < 0)
        return -EPERM;
    if (!(st->st_mode & (S_IWGRP | S_IWOTH)))
        return 0;
    if (sticky_ok && S_ISDIR(st->st_mode) && (st->st_mode & S_ISVTX))
        return 0;
    snprintf(why, why_size, "%s is writable by %s (mode %04o); run chmod go-w %s", path,
             st->st_mode & S_IWOTH ? "others" : "its group", (unsigned)(st->st_mode & 07777), path);
    return -EPERM;
}

/* Cut an absolute path at its last slash: "/a/b" -> "/a", "/a" -> "/". */
static void cut_last(char *path)
{
    char *slash = strrchr(path, '/');

    if (slash)
        slash[slash == path ? 1 : 0] = '\0';
}

/* Check dir, an absolute resolved path, and every directory above it: the
 * ones above with the sticky exception, dir itself too when sticky_ok.  dir
 * is cut down to "/" on the way.  Returns 0 or a negative errno with the
 * reason in why. */
static int chain_ok(char *dir, int sticky_ok, char *why, size_t why_size)
{
    for (;;) {
        struct stat st;
        int rc;

        if (lstat(dir, &st) < 0)
            return errno_why("examine", dir, why, why_size);
        if (!S_ISDIR(st.st_mode)) {
            snprintf(why, why_size, "%s is a %s, not a directory", dir, type_name(st.st_mode));
            return -EPERM;
        }
        rc = owner_mode_ok(&st, dir, sticky_ok, why, why_size);
        if (rc < 0 || strcmp(dir, "/") == 0 || !strchr(dir, '/'))
            return rc;
        cut_last(dir);
        sticky_ok = 1;
    }
}

/* realpath(path) into a malloc'ed string in *out (the caller frees it).
 * Returns 0 or a negative errno with the reason in why. */
static int resolve(const char *path, char **out, char *why, size_t why_size)
{
    *out = realpath(path, NULL);
    return *out ? 0 : errno_why("resolve", path, why, why_size);
}

/* The file at real, resolved: judged by lstat() before it is opened
 * (opening a FIFO or a device can block or act), then opened and judged
 * again on the descriptor.  Returns the descriptor or a negative errno with
 * the reason in why. */
static int open_regular(const char *real, char *why, size_t why_size)
{
    struct stat st;
    int fd, rc;

    if (lstat(real, &st) < 0)
        return errno_why("examine", real, why, why_size);
    if (!S_ISREG(st.st_mode))
        return not_regular(real, st.st_mode, why, why_size);
    fd = open(real, TRUST_OPEN_FLAGS);
    if (fd < 0)
        return errno_why("open", real, why, why_size);
    if (fstat(fd, &st) < 0)
        rc = errno_why("examine", real, why, why_size);
    else if (!S_ISREG(st.st_mode))
        rc = not_regular(real, st.st_mode, why, why_size);
    else
        rc = owner_mode_ok(&st, real, 0, why, why_size);
    if (rc < 0) {
        close(fd);
        return rc;
    }
    return fd;
}

/* When path, as named, is a symbolic link: whoever can replace it can point
 * it elsewhere, so its owner and the directories that hold it must be
 * trusted (a sticky directory will do: others cannot replace a link they do
 * not own).  Returns 0 or a negative errno with the reason in why. */
static int named_link_ok(const char *path, char *why, size_t why_size)
{
    struct stat st;
    char *named, *named_real = NULL;
    int rc;

    if (lstat(path, &st) < 0)
        return errno_why("examine", path, why, why_size);
    if (!S_ISLNK(st.st_mode))
        return 0;
    rc = owner_ok(&st, path, why, why_size); /* a link's own mode means nothing */
    if (rc < 0)
        return rc;
    named = strdup(path);
    if (!named) {
        snprintf(why, why_size, "out of memory");
        return -ENOMEM;
    }
    rc = resolve(dirname(named), &named_real, why, why_size);
    if (rc == 0)
        rc = chain_ok(named_real, 1, why, why_size);
    free(named_real);
    free(named);
    return rc;
}

int trust_check_dir(const char *dir, char *why, size_t why_size)
{
    char *real = NULL;
    int rc = resolve(dir, &real, why, why_size);

    if (rc == 0)
        rc = named_link_ok(dir, why, why_size);
    if (rc == 0)
        rc = chain_ok(real, 0, why, why_size);
    free(real);
    return rc;
}

int trust_open_file(const char *path, char *why, size_t why_size)
{
    char *real = NULL;
    int fd, rc = resolve(path, &real, why, why_size);

    if (rc < 0)
        return rc;
    fd = open_regular(real, why, why_size);
    if (fd >= 0) {
        rc = named_link_ok(path, why, why_size);
        cut_last(real);
        if (rc == 0)
            rc = chain_ok(real, 0, why, why_size);
        if (rc < 0) {
            close(fd);
            fd = rc;
        }
    }
    free(real);
    return fd;
}
