/* trust.h -- is a plugin file what the admin installed?  sshd's StrictModes.
 *
 * The plugin host runs whatever code a plugin file holds, so the file, and
 * every directory that leads to it, must be out of reach of anyone but root
 * and the daemon's own user.  The rules (docs/reliability.md, "Plugin
 * files"), checked on the resolved path (realpath):
 *
 *   - the file is a regular file, owned by root or the effective uid, and
 *     neither its group nor others may write to it;
 *   - the directory holding it, and a directory the host lists, are owned by
 *     root or the effective uid and are not writable by group or others;
 *   - every directory above, up to "/", is owned by root or the effective
 *     uid, and is either not writable by group or others, or has the sticky
 *     bit (like /tmp: others may add entries, but only an entry's owner, the
 *     directory's owner or root may rename or remove one, and the next
 *     directory down is itself checked by these rules);
 *   - when the path as named ends in a symbolic link, the link is owned by
 *     root or the effective uid and the directories holding it pass the
 *     rule just above.  Links in the middle of a path are judged only by
 *     where they lead, as sshd does.
 *
 * Nothing here allocates what it returns or logs: a refusal's reason goes
 * into a buffer the caller supplies.  Thread-safe (no state).
 */
#ifndef SUDOKU_TRUST_H
#define SUDOKU_TRUST_H

#include <stddef.h>

/* Open the plugin file path for loading: resolve it, refuse anything but a
 * regular file without opening it (a FIFO would block), open the resolved
 * path with O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, check the
 * descriptor (regular, owner, mode), then the directories of the resolved
 * path and of the path as given.  Returns the descriptor (>= 0, the
 * caller closes it), or a negative errno with the reason in why:
 *   -ENOENT (or another open/realpath errno)  cannot be resolved or opened;
 *   -ENOEXEC  not a regular file;
 *   -EPERM    an owner or a mode breaks the rules above. */
int trust_open_file(const char *path, char *why, size_t why_size);

/* Check dir as a plugin directory whose entries the host will load: dir,
 * resolved, and every directory above it.  Returns 0 or a negative errno
 * with the reason in why (-EPERM as above, or realpath's errno). */
int trust_check_dir(const char *dir, char *why, size_t why_size);

#endif /* SUDOKU_TRUST_H */
