/* fuzz_check.h -- invariant checks shared by the fuzz targets.
 *
 * The targets state what must hold for every input; a broken invariant is a
 * bug, so it must stop the run with a crash that libFuzzer (or the replay
 * driver in the test suite) reports.  assert() would vanish under NDEBUG, so
 * the check is explicit and always compiled in.
 */
#ifndef SUDOKU_FUZZ_CHECK_H
#define SUDOKU_FUZZ_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Stop with a message naming the broken invariant. */
#define FUZZ_CHECK(cond)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__, #cond);           \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/* The libFuzzer entry point every target defines. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif /* SUDOKU_FUZZ_CHECK_H */
