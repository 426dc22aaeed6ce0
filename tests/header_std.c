/* header_std.c -- <sudoku/plugin.h>, <sudoku/plugin_rules.h> in strict C11, C17, C++17.
 *
 * Compiled (not run) by ctest header_std (header_std.cmake) with
 * -pedantic-errors -Werror in each language mode: a third-party plugin in any
 * of them can include the ABI header and use its inline helpers.  Valid C
 * and C++ at once.
 */
#include <sudoku/plugin.h>
#include <sudoku/plugin_rules.h>

static int demo_solve(void *state, const struct sdk_host *host, struct sdk_job *job)
{
    (void)state;
    (void)host;
    if (sdk_box_side(job->n) == 0)
        return SDK_FAILED;
    if (job->rules && !(sdk_rules_head_ok(job->rules, job->n, SDK_RULE_ALL) &&
                        sdk_rules_houses_ok(job->rules, job->n, 4 * job->n, 6) &&
                        sdk_rules_rows_cols_first(job->rules, job->n) &&
                        sdk_rules_pairs_ok(job->rules->differ, job->rules->differ_len, 81) &&
                        sdk_rules_cages_ok(job->rules, job->n)))
        return SDK_FAILED;
    if (sdk_job_should_stop(job))
        return sdk_job_should_stop(job);
    return sdk_now_ns() > 0 ? SDK_UNSOLVABLE : SDK_FAILED;
}

int header_std_demo(struct sdk_job *job);
int header_std_demo(struct sdk_job *job)
{
    return demo_solve(NULL, NULL, job);
}
