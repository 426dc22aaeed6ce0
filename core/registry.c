/* registry.c -- the host object: its plugins in load order, its log, and
 * which plugin answers by default.
 *
 * Every other room of the host (host_impl.h lists them) reaches the loaded
 * plugins and the log through here.  Nothing here loads or calls a plugin:
 * the registry only holds entries that load.c made and hands out pointers
 * to them, valid until host_free().  Lookups read constant data once
 * loading is over, so they are thread-safe.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/host_impl.h"

/* ---------------------------------------------------------------- logging */

void host__logf(const struct host *h, int level, const char *fmt, ...)
{
    char line[HOST_LOG_LINE];
    va_list ap;

    if (!h->log)
        return;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    h->log(h->ctx, level, line);
}

/* ---------------------------------------------------------- host object */

struct host *host_new(host_log_fn *log, void *ctx)
{
    struct host *h = calloc(1, sizeof(*h));

    if (!h)
        return NULL;
    h->log = log;
    h->ctx = ctx;
    return h;
}

void host_free(struct host *h)
{
    if (!h)
        return;
    for (size_t i = h->len; i > 0; i--)
        host__entry_free(h->entries[i - 1]);
    free(h->entries);
    free(h);
}

size_t host_count(const struct host *h)
{
    return h ? h->len : 0;
}

const struct host_plugin *host_plugin_at(const struct host *h, size_t i)
{
    if (!h || i >= h->len)
        return NULL;
    return &h->entries[i]->pub;
}

const struct host_plugin *host_find(const struct host *h, const char *name)
{
    if (!h || !name)
        return NULL;
    for (size_t i = 0; i < h->len; i++) {
        if (strcmp(h->entries[i]->pub.desc->name, name) == 0)
            return &h->entries[i]->pub;
    }
    return NULL;
}

const struct host_plugin *host_default(const struct host *h)
{
    const struct host_plugin *p = h && h->forced ? h->forced : host_find(h, "bitmask");

    if (p)
        return p;
    return host_plugin_at(h, 0);
}

int host_set_default(struct host *h, const char *name)
{
    const struct host_plugin *p = host_find(h, name);

    if (!p)
        return -ENOENT;
    h->forced = p;
    return 0;
}

const struct host_plugin *host_default_for(const struct host *h, int side)
{
    const struct host_plugin *p = side == 25 ? host_find(h, "sat") : NULL;

    if (h && h->forced)
        return h->forced;
    if (p && (p->desc->sizes & sdk_size_bit((uint32_t)side)))
        return p;
    return host_default(h);
}

/* ---------------------------------------------------------- explainers */

/* Does p have explain() (ABI minor 1)?  Read through the descriptor's own
 * size, so a minor-0 descriptor is never read past its end. */
int host_plugin_has_explain(const struct host_plugin *p)
{
    return p && p->desc && sdk_plugin_has_explain(p->desc);
}

const struct host_plugin *host_explainer_for(const struct host *h, unsigned n)
{
    for (size_t i = 0; i < host_count(h); i++) {
        const struct host_plugin *p = host_plugin_at(h, i);
        if (host_plugin_has_explain(p) && (p->desc->explain_sizes & sdk_size_bit(n)))
            return p;
    }
    return NULL;
}
