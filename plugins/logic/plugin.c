/* plugin.c -- the logic plugin: descriptor, shared shapes, entry point.
 *
 * `logic` solves the way a person does, one technique at a time from the
 * easiest (the ladder in explain.c), and reports every step through the
 * optional explain() entry of ABI minor 1.  It is also an ordinary solver:
 * solve() (solve.c) propagates singles and searches where logic alone would
 * be stuck, so it honours any limit.  Sizes 4, 9 and 16; 25 is refused.
 * explain() also takes the variant rules of LG_RULES (variant.c).
 *
 * State: init() builds the three shapes (units, peers) once; afterwards they
 * are only read, so solve() and explain() are reentrant.  No mutable globals.
 */
#include <errno.h>
#include <stdlib.h>

#include "lg.h"

#define LG_SIZES (SDK_SIZE_4 | SDK_SIZE_9 | SDK_SIZE_16)

/* What init() builds: one shape per supported side. */
struct lg_state {
    struct lg_geom geo[3]; /* n = 4, 9, 16 */
};

/* The shape for side n from state, or NULL when n is not supported. */
const struct lg_geom *lg_state_geom(const void *state, uint32_t n)
{
    const struct lg_state *st = state;

    if (!st)
        return NULL;
    switch (n) {
    case 4:
        return &st->geo[0];
    case 9:
        return &st->geo[1];
    case 16:
        return &st->geo[2];
    default:
        return NULL;
    }
}

static int lg_init(const struct sdk_host *host, void **state)
{
    static const uint32_t sides[3] = {4, 9, 16};
    struct lg_state *st = malloc(sizeof(*st));

    (void)host;
    if (!st)
        return -ENOMEM;
    for (int i = 0; i < 3; i++) {
        if (lg_geom_init(&st->geo[i], sides[i], true) != 0) {
            free(st);
            return -EINVAL;
        }
    }
    *state = st;
    return 0;
}

static void lg_fini(void *state)
{
    free(state);
}

static const struct sdk_plugin lg_plugin = {
    .abi_major = SDK_ABI_MAJOR,
    .abi_minor = SDK_ABI_MINOR,
    .struct_size = sizeof(struct sdk_plugin),
    .name = "logic",
    .version = "1.0",
    .description = "human techniques step by step (explain, rate), search where logic is stuck",
    .sizes = LG_SIZES,
    .caps = SDK_CAP_COUNT | SDK_CAP_REENTRANT | SDK_CAP_CANCEL,
    .init = lg_init,
    .fini = lg_fini,
    .solve = lg_solve,
    .explain = lg_explain,
    .explain_sizes = LG_SIZES,
    .rules = 0, /* solve() is classic only */
    .explain_rules = LG_RULES,
};

SDK_PLUGIN_EXPORT const struct sdk_plugin *sudoku_plugin_entry(void);

/* The one exported symbol.  Returns a constant descriptor owned by the plugin. */
SDK_PLUGIN_EXPORT const struct sdk_plugin *sudoku_plugin_entry(void)
{
    return &lg_plugin;
}
