/* desc.c -- what a plugin's descriptor must say before the host calls it.
 *
 * A descriptor is the one thing a plugin hands the host before any call:
 * its ABI, its size, its solve(), its name, its free text and the sizes it
 * takes.  Each is checked here against ABI 1, so that nothing a refused
 * plugin says is ever called, logged or sent to a client.  The name rule
 * also judges an explanation's technique names (verify.c).  Pure
 * functions: no state, thread-safe.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "core/host_impl.h"

#define HOST_VERSION_MAX 31  /* sdk_plugin.version: bytes (a client keeps 31) */
#define HOST_DESC_MAX    159 /* sdk_plugin.description: bytes (a client keeps 159) */

/* Smallest descriptor the host can use: ABI 1.0 ends with solve. */
#define HOST_MIN_DESC_SIZE (offsetof(struct sdk_plugin, solve) + sizeof(void (*)(void)))

int host__name_is_valid(const char *name)
{
    size_t len;

    if (!name)
        return 0;
    len = strlen(name);
    if (len == 0 || len > HOST_NAME_MAX_LEN)
        return 0;
    for (size_t i = 0; i < len; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
            return 0;
    }
    return 1;
}

/* Length of the UTF-8 sequence starting at s, or 0 when it is not valid
 * (overlong, surrogate, above U+10FFFF, truncated) or is a control
 * character (C0, DEL, C1). */
static size_t utf8_printable_len(const unsigned char *s)
{
    unsigned c = s[0];
    size_t len = c < 0x80             ? 1
                 : (c & 0xe0) == 0xc0 ? 2
                 : (c & 0xf0) == 0xe0 ? 3
                 : (c & 0xf8) == 0xf0 ? 4
                                      : 0;
    uint32_t cp;

    if (len == 0)
        return 0;
    cp = len == 1 ? c : c & (0x7fu >> len);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3fu);
    }
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000))
        return 0; /* overlong */
    if ((cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
        return 0;
    if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f))
        return 0;
    return len;
}

/* Free text from a plugin reaches clients and log lines: it must be NULL
 * (none) or at most max bytes of valid UTF-8 without control characters. */
static int text_is_valid(const char *text, size_t max)
{
    size_t len, step;

    if (!text)
        return 1;
    len = strlen(text);
    if (len > max)
        return 0;
    for (size_t i = 0; i < len; i += step) {
        step = utf8_printable_len((const unsigned char *)text + i);
        if (step == 0)
            return 0;
    }
    return 1;
}

/* Check a descriptor against ABI 1.  Returns 0, or -EPROTO with the reason in
 * why (a static string). */
int host__desc_check(const struct sdk_plugin *d, const char **why)
{
    if (d->abi_major != SDK_ABI_MAJOR) {
        *why = "wrong ABI major";
        return -EPROTO;
    }
    if (d->struct_size < HOST_MIN_DESC_SIZE) {
        *why = "descriptor too small (struct_size)";
        return -EPROTO;
    }
    if (!d->solve) {
        *why = "missing solve()";
        return -EPROTO;
    }
    if (!host__name_is_valid(d->name)) {
        *why = "bad or empty name (want [a-z0-9_-]{1,31})";
        return -EPROTO;
    }
    if (!text_is_valid(d->version, HOST_VERSION_MAX)) {
        *why = "bad version (want at most 31 bytes of UTF-8, no control characters)";
        return -EPROTO;
    }
    if (!text_is_valid(d->description, HOST_DESC_MAX)) {
        *why = "bad description (want at most 159 bytes of UTF-8, no control characters)";
        return -EPROTO;
    }
    if ((d->sizes & SDK_SIZE_ALL) == 0) {
        *why = "supports no grid size (sizes == 0)";
        return -EPROTO;
    }
    return 0;
}
