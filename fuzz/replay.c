/* replay.c -- run a fuzz target over files, without libFuzzer.
 *
 * The test suite builds each target with this main() so that the seed
 * corpus and every crash ever found (fuzz/regress/<target>/) run on every
 * ctest, with any compiler and under the sanitizers of the build.  Arguments
 * are files or directories (each regular file inside is one input).  Exit
 * status: 0 when every input ran (a broken invariant aborts), 1 when an
 * argument cannot be read or no input was found.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz/fuzz_check.h"

#define REPLAY_MAX_INPUT (1u << 20) /* inputs are small; refuse anything over 1 MiB */

/* Run one file.  The buffer is exactly the file's size, so ASan sees any
 * read past the end.  Returns 0 or a negative errno. */
static int run_file(const char *path)
{
    uint8_t *buf = NULL;
    struct stat st;
    int rc = -EIO;
    FILE *f = fopen(path, "rb");

    if (!f)
        return -errno;
    if (fstat(fileno(f), &st) < 0 || st.st_size < 0 || (size_t)st.st_size > REPLAY_MAX_INPUT)
        goto fail;
    buf = malloc(st.st_size ? (size_t)st.st_size : 1);
    if (!buf) {
        rc = -ENOMEM;
        goto fail;
    }
    if (fread(buf, 1, (size_t)st.st_size, f) != (size_t)st.st_size)
        goto fail;
    LLVMFuzzerTestOneInput(buf, (size_t)st.st_size);
    rc = 0;
fail:
    free(buf);
    fclose(f);
    return rc;
}

/* Run a file, or every regular file of a directory.  Adds to *count. */
static int run_path(const char *path, unsigned *count)
{
    struct stat st;
    char child[4096];
    struct dirent *e;
    DIR *d;
    int rc = 0;

    if (stat(path, &st) < 0)
        return -errno;
    if (!S_ISDIR(st.st_mode)) {
        rc = run_file(path);
        *count += rc == 0;
        return rc;
    }
    if (!(d = opendir(path)))
        return -errno;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(child, sizeof(child), "%s/%s", path, e->d_name);
        if (stat(child, &st) == 0 && S_ISREG(st.st_mode)) {
            rc = run_file(child);
            *count += rc == 0;
        }
    }
    closedir(d);
    return rc;
}

int main(int argc, char **argv)
{
    unsigned count = 0;

    for (int i = 1; i < argc; i++) {
        int rc = run_path(argv[i], &count);
        if (rc < 0 && rc != -ENOENT) {
            fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(-rc));
            return 1;
        }
    }
    printf("replay: %u inputs ran\n", count);
    return count > 0 ? 0 : 1;
}
