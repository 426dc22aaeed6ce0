/* seccomp.c -- lock a plugin worker down (seccomp.h). */
#include "daemon/seccomp.h"

#include <errno.h>
#include <sys/prctl.h>

int seccomp_lock_down(int sock)
{
    (void)sock;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
        return -errno;
    return 0;
}
