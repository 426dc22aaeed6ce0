/* sanitizer.h -- which sanitizer this test is built with, to scale its work.
 *
 * Under ASan a test's work costs two to five times what it costs in the
 * Release build, under TSan up to ten.  Bounds that hold a daemon to a time
 * or a size widen there, and the heavy corpus tests take a sample (the first
 * seed, the first forum puzzle) while the Release build runs all of it:
 * the sanitized runs are there to find memory and thread errors on every
 * path, which a sample walks, not to repeat the answers' checks.  gcc says
 * __SANITIZE_ADDRESS__ / __SANITIZE_THREAD__; clang says __has_feature.
 */
#ifndef SUDOKU_TESTS_SANITIZER_H
#define SUDOKU_TESTS_SANITIZER_H

#if defined(__SANITIZE_ADDRESS__)
#define TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_ASAN 1
#endif
#endif
#ifndef TEST_ASAN
#define TEST_ASAN 0
#endif

#if defined(__SANITIZE_THREAD__)
#define TEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TEST_TSAN 1
#endif
#endif
#ifndef TEST_TSAN
#define TEST_TSAN 0
#endif

#define TEST_SANITIZED (TEST_ASAN || TEST_TSAN)

#endif
