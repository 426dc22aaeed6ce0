/* seccomp.c -- lock a plugin worker down (seccomp.h).
 *
 * The filter is a classic BPF program built at run time, because two of
 * its constants are only known then: the worker's socket and its pid (a
 * signal to anything else is refused).  Its shape:
 *
 *   arch != ours                        -> kill
 *   nr: execve, execveat                -> kill
 *   nr: clone      flags & CLONE_THREAD -> allow, else EPERM
 *   nr: open(at)   flags & (O_ACCMODE | O_CREAT | O_TRUNC | O_APPEND)
 *                                       -> EPERM, else allow
 *   nr: write-like fd is 2 or sock      -> allow, else EPERM
 *   nr: kill, tgkill  pid is ours       -> allow, else EPERM
 *   nr: fcntl      F_DUPFD(_CLOEXEC)    -> EPERM, else allow
 *   nr: clone3, openat2                 -> ENOSYS
 *   nr on the list                      -> allow
 *   anything else                       -> EPERM
 *
 * Each block that loads an argument ends in a return on every path, so
 * the next block can assume nothing about the accumulator but reloads the
 * call number.  Only the low 32 bits of an argument are compared: the
 * kernel reads descriptors, pids and open or clone flags as 32-bit values
 * (clone's upper flags are none that make a thread a process).
 *
 * The list is what a solve needs (memory, futexes, the clock, reading)
 * and what the sanitizer runtimes do while a worker runs or dies; see
 * worker.c for why LeakSanitizer never gets to run in a worker.
 */
#define _GNU_SOURCE /* CLONE_THREAD */
#include "daemon/seccomp.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#if defined(__x86_64__)
#define SC_ARCH      AUDIT_ARCH_X86_64
#define SC_ARCH_NAME "x86-64"
#else
#define SC_ARCH      AUDIT_ARCH_AARCH64
#define SC_ARCH_NAME "aarch64"
#endif

#define SC_MAX     256 /* instructions: the program below has about 180 */
#define SC_EPERM   (SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA))
#define SC_ENOSYS  (SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA))
#define SC_WRITING (O_ACCMODE | O_CREAT | O_TRUNC | O_APPEND) /* an open that may write */

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SC_ARG_LO(i) (offsetof(struct seccomp_data, args) + 8 * (i))
#else
#define SC_ARG_LO(i) (offsetof(struct seccomp_data, args) + 8 * (i) + 4)
#endif

/* Calls allowed whatever their arguments. */
static const int allowed[] = {
    /* the worker's own loop first: the list is read in order */
    __NR_recvfrom,
    /* memory */
    __NR_brk,
    __NR_mmap,
    __NR_munmap,
    __NR_mprotect,
    __NR_mremap,
    __NR_madvise,
    __NR_mincore,
    /* threads and their synchronisation */
    __NR_futex,
    __NR_set_robust_list,
    __NR_get_robust_list,
    __NR_set_tid_address,
    __NR_sched_yield,
    __NR_sched_getaffinity,
    __NR_membarrier,
#ifdef __NR_rseq
    __NR_rseq,
#endif
#ifdef __NR_arch_prctl
    __NR_arch_prctl,
#endif
    /* time */
    __NR_clock_gettime,
    __NR_clock_getres,
    __NR_gettimeofday,
    __NR_nanosleep,
    __NR_clock_nanosleep,
    __NR_getrusage,
    __NR_times,
#ifdef __NR_time
    __NR_time,
#endif
    /* reading what it holds, or a file opened read-only */
    __NR_read,
    __NR_readv,
    __NR_pread64,
    __NR_preadv,
    __NR_recvmsg,
    __NR_close,
    __NR_fstat,
    __NR_newfstatat,
    __NR_statx,
    __NR_lseek,
    __NR_getdents64,
    __NR_readlinkat,
    __NR_faccessat,
    __NR_getcwd,
    __NR_ppoll,
#ifdef __NR_faccessat2
    __NR_faccessat2,
#endif
#ifdef __NR_stat
    __NR_stat,
    __NR_lstat,
    __NR_readlink,
    __NR_access,
    __NR_poll,
#endif
    /* who and where it is */
    __NR_getpid,
    __NR_gettid,
    __NR_getppid,
    __NR_getuid,
    __NR_geteuid,
    __NR_getgid,
    __NR_getegid,
    __NR_uname,
    __NR_sysinfo,
    __NR_getrandom,
#ifdef __NR_getrlimit
    __NR_getrlimit,
#endif
    /* signals to itself, and ending */
    __NR_rt_sigreturn,
    __NR_rt_sigprocmask,
    __NR_rt_sigaction,
    __NR_sigaltstack,
    __NR_exit,
    __NR_exit_group,
};

/* Calls that may only write to stderr or the socket (argument 0). */
static const int writing[] = {__NR_sendto, __NR_write, __NR_writev, __NR_sendmsg};

/* The filter being built. */
struct prog {
    struct sock_filter f[SC_MAX]; /* instructions */
    unsigned len;                 /* in f */
    int is_full;                  /* an instruction did not fit */
};

static void emit(struct prog *p, struct sock_filter ins)
{
    if (p->len == SC_MAX) {
        p->is_full = 1;
        return;
    }
    p->f[p->len++] = ins;
}

static void ld_nr(struct prog *p)
{
    emit(p,
         (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)));
}

static void ld_arg(struct prog *p, unsigned i)
{
    emit(p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SC_ARG_LO(i)));
}

static void ret(struct prog *p, uint32_t action)
{
    emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, action));
}

/* If the call number is nr, go on with the next skip + 1 instructions, else
 * jump over them (nr loaded). */
static void if_nr(struct prog *p, int nr, uint8_t skip)
{
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, skip));
}

/* nr returns action whatever its arguments (nr loaded). */
static void nr_returns(struct prog *p, int nr, uint32_t action)
{
    if_nr(p, nr, 1);
    ret(p, action);
}

/* nr is allowed when argument arg is a or b (is_in) or neither (!is_in),
 * refused otherwise. */
static void nr_arg_in(struct prog *p, int nr, unsigned arg, uint32_t a, uint32_t b, int is_in)
{
    if_nr(p, nr, 5);
    ld_arg(p, arg);
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, a, 2, 0));
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, b, 1, 0));
    ret(p, is_in ? SC_EPERM : SECCOMP_RET_ALLOW);
    ret(p, is_in ? SECCOMP_RET_ALLOW : SC_EPERM);
}

/* nr is allowed when argument arg has any bit of mask set (want_set) or
 * none of them (!want_set), refused otherwise. */
static void nr_flags(struct prog *p, int nr, unsigned arg, uint32_t mask, int want_set)
{
    if_nr(p, nr, 4);
    ld_arg(p, arg);
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, mask, 0, 1));
    ret(p, want_set ? SECCOMP_RET_ALLOW : SC_EPERM);
    ret(p, want_set ? SC_EPERM : SECCOMP_RET_ALLOW);
}

/* The whole filter for a worker writing to sock, whose pid is self. */
static void build(struct prog *p, int sock, pid_t self)
{
    emit(p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                         offsetof(struct seccomp_data, arch)));
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SC_ARCH, 1, 0));
    ret(p, SECCOMP_RET_KILL_PROCESS);
    ld_nr(p);
#if defined(__x86_64__)
    /* x32 calls share the architecture but carry this bit */
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1));
    ret(p, SECCOMP_RET_KILL_PROCESS);
#endif
    nr_returns(p, __NR_execve, SECCOMP_RET_KILL_PROCESS);
    nr_returns(p, __NR_execveat, SECCOMP_RET_KILL_PROCESS);
    nr_flags(p, __NR_clone, 0, CLONE_THREAD, 1);
    nr_flags(p, __NR_openat, 2, SC_WRITING, 0);
#ifdef __NR_open
    nr_flags(p, __NR_open, 1, SC_WRITING, 0);
#endif
    for (size_t i = 0; i < sizeof(writing) / sizeof(writing[0]); i++)
        nr_arg_in(p, writing[i], 0, STDERR_FILENO, (uint32_t)sock, 1);
    nr_arg_in(p, __NR_kill, 0, (uint32_t)self, (uint32_t)self, 1);
    nr_arg_in(p, __NR_tgkill, 0, (uint32_t)self, (uint32_t)self, 1);
    /* no new descriptor numbers: stderr or the socket's number, closed and
     * taken again, would be writable (dup, dup2, dup3 are not on the list) */
    nr_arg_in(p, __NR_fcntl, 1, F_DUPFD, F_DUPFD_CLOEXEC, 0);
#ifdef __NR_clone3
    nr_returns(p, __NR_clone3, SC_ENOSYS);
#endif
#ifdef __NR_openat2
    nr_returns(p, __NR_openat2, SC_ENOSYS);
#endif
    for (size_t i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++)
        nr_returns(p, allowed[i], SECCOMP_RET_ALLOW);
    ret(p, SC_EPERM);
}

int seccomp_lock_down(int sock)
{
    struct prog p = {.len = 0}; /* 2 KiB on the stack, once */
    struct sock_fprog fprog;

    if (sock < 0)
        return -EINVAL;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
        return -errno;
    build(&p, sock, getpid());
    if (p.is_full)
        return -E2BIG;
    fprog.len = (unsigned short)p.len;
    fprog.filter = p.f;
    if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog, 0, 0) < 0)
        return -errno;
    return 0;
}

const char *seccomp_describe(void)
{
    return "seccomp filter (" SC_ARCH_NAME "): exec kills the worker; new processes, sockets, "
           "ptrace, opening files for writing and writes to anything but its socket and stderr "
           "fail with EPERM";
}

#else /* no filter for this architecture */

int seccomp_lock_down(int sock)
{
    (void)sock;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
        return -errno;
    return 0;
}

const char *seccomp_describe(void)
{
    return "no seccomp filter on this architecture: only no-new-privileges";
}

#endif
