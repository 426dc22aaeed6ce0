/* seccomp.h -- what a plugin worker may still do once it serves jobs.
 *
 * seccomp_lock_down() sets PR_SET_NO_NEW_PRIVS and installs a seccomp BPF
 * filter that lets a worker compute, allocate, read the clock, read and
 * write its socket and stderr, and nothing else of note: no socket(),
 * connect() or bind(), no exec, no fork, no open for writing, no writes to
 * any other descriptor, no ptrace, no kill of another process.  A call
 * outside the list kills the worker (SIGSYS), which the daemon treats as a
 * crash.  x86-64 and aarch64; elsewhere only NO_NEW_PRIVS is set.
 */
#ifndef SUDOKUD_SECCOMP_H
#define SUDOKUD_SECCOMP_H

/* Lock the calling process down; sock is the one descriptor besides
 * stderr it may write to.  Returns 0 or a negative errno. */
int seccomp_lock_down(int sock);

#endif /* SUDOKUD_SECCOMP_H */
