/* seccomp.h -- what a plugin worker may still do once it serves jobs.
 *
 * seccomp_lock_down() sets PR_SET_NO_NEW_PRIVS and installs a seccomp BPF
 * filter, written by hand (seccomp.c), that lets a worker compute, start
 * threads, allocate, read the clock, read files, read anything it holds,
 * write to its socket and stderr, and signal itself.  Refused:
 *
 *   execve, execveat                 the worker is killed (SIGSYS): a plugin
 *                                    that tries to become another program has
 *                                    no business running on
 *   clone without CLONE_THREAD, fork,
 *   vfork (a new process)            EPERM
 *   clone3                           ENOSYS, so that libc falls back to clone(),
 *                                    whose flags the filter can see
 *   open/openat for writing, creating
 *   or truncating; creat; openat2    EPERM (openat2: ENOSYS, flags unseen)
 *   write, writev, send* to anything
 *   but stderr and the socket        EPERM
 *   kill and tgkill of another process,
 *   tkill                            EPERM
 *   dup, dup2, dup3, fcntl F_DUPFD   EPERM (so stderr's or the socket's
 *                                    number cannot be given another file)
 *   socket, connect, bind, listen,
 *   accept, ptrace, and every call
 *   not on the list                  EPERM
 *
 * A refused call thus fails like any failing call and the plugin carries
 * on (its answer is checked by the host as always); only exec kills.  The
 * architecture is checked first: a call made through another ABI (32-bit,
 * x32) kills the worker.  x86-64 and aarch64; elsewhere only NO_NEW_PRIVS
 * is set, and seccomp_describe() says so.
 */
#ifndef SUDOKUD_SECCOMP_H
#define SUDOKUD_SECCOMP_H

/* Lock the calling process down; sock is the one descriptor besides
 * stderr it may write to.  Call once everything the process needs is
 * open and mapped.  Returns 0 or a negative errno. */
int seccomp_lock_down(int sock);

/* One line saying what seccomp_lock_down() does on this build (static
 * text, not to be freed), for the daemon's log. */
const char *seccomp_describe(void);

#endif /* SUDOKUD_SECCOMP_H */
