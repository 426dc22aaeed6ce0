/* plugin_path.c -- where the plugins are when nobody says: the default
 * plugin directory.
 *
 * Build tree and installed tree alike keep the plugins at
 * ../SUDOKU_PLUGIN_SUBDIR from the running executable, so that is looked
 * for first; else the compiled-in SUDOKU_INSTALL_PLUGIN_DIR.  Both names
 * come from core/CMakeLists.txt.  Only the path is found here: load.c
 * judges and loads what is in it.  No state; thread-safe.
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/host.h"

static int is_dir(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Copy src into out.  Returns 0 or -ENAMETOOLONG. */
static int copy_path(char *out, size_t out_size, const char *src)
{
    if (strlen(src) >= out_size)
        return -ENAMETOOLONG;
    strcpy(out, src);
    return 0;
}

/* <dir of the running executable>/../SUDOKU_PLUGIN_SUBDIR, resolved, when it
 * is a directory.  Returns 1 (found, in out), 0 (not there) or -ENAMETOOLONG. */
static int exe_relative_dir(char *out, size_t out_size)
{
    char exe[4096];
    char cand[4096 + sizeof("/../" SUDOKU_PLUGIN_SUBDIR)];
    char *real;
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    int rc = 0;

    if (n <= 0)
        return 0;
    exe[n] = '\0';
    snprintf(cand, sizeof(cand), "%s/../%s", dirname(exe), SUDOKU_PLUGIN_SUBDIR);
    real = realpath(cand, NULL);
    if (real && is_dir(real))
        rc = copy_path(out, out_size, real) == 0 ? 1 : -ENAMETOOLONG;
    free(real);
    return rc;
}

int host_default_plugin_dir(char *out, size_t out_size)
{
    int rc = exe_relative_dir(out, out_size);

    if (rc != 0)
        return rc < 0 ? rc : 0;
    return copy_path(out, out_size, SUDOKU_INSTALL_PLUGIN_DIR);
}
