/* protocol.c -- the one spelling of every name in wire protocol v1.
 *
 * Three tables: keys (from PROTO_KEYS), error codes and methods.  Lookups are
 * linear: the tables are short, and the hot keys of a solve come first.
 */
#include "proto/protocol.h"

#include <errno.h>
#include <float.h>
#include <string.h>

struct name {
    const char *str;
    size_t len;
};

#define NAME(s)                                                                                    \
    {                                                                                              \
        s, sizeof(s) - 1                                                                           \
    }

static const struct name key_names[PROTO_KEY_COUNT] = {
#define PROTO_KEY_NAME(id, str) [PROTO_K_##id] = NAME(str),
    PROTO_KEYS(PROTO_KEY_NAME)
#undef PROTO_KEY_NAME
};

static const struct name code_names[RPC_CODE_COUNT] = {
    [RPC_OK] = NAME("ok"),
    [RPC_BAD_REQUEST] = NAME("bad_request"),
    [RPC_UNKNOWN_METHOD] = NAME("unknown_method"),
    [RPC_BAD_PUZZLE] = NAME("bad_puzzle"),
    [RPC_UNKNOWN_SOLVER] = NAME("unknown_solver"),
    [RPC_UNSUPPORTED] = NAME("unsupported"),
    [RPC_TIMEOUT] = NAME("timeout"),
    [RPC_CANCELLED] = NAME("cancelled"),
    [RPC_OVERLOADED] = NAME("overloaded"),
    [RPC_TOO_LARGE] = NAME("too_large"),
    [RPC_INTERNAL] = NAME("internal"),
    [RPC_NOT_UNIQUE] = NAME("not_unique"),
};

static const struct name method_names[RPC_M_COUNT] = {
    [RPC_M_UNKNOWN] = {NULL, 0},       [RPC_M_SOLVE] = NAME("solve"),
    [RPC_M_SOLVERS] = NAME("solvers"), [RPC_M_STATS] = NAME("stats"),
    [RPC_M_PING] = NAME("ping"),       [RPC_M_CANCEL] = NAME("cancel"),
    [RPC_M_ERROR] = NAME("error"),     [RPC_M_EXPLAIN] = NAME("explain"),
    [RPC_M_RATE] = NAME("rate"),       [RPC_M_GENERATE] = NAME("generate"),
    [RPC_M_VERSION] = NAME("version"),
};

/* Upper ends of the bands, inclusive; the last has none. */
static const struct band {
    struct name name;
    double top;
} bands[] = {
    {NAME("easy"), 2.3},   {NAME("medium"), 3.4},      {NAME("hard"), 5.4},
    {NAME("expert"), 7.0}, {NAME("extreme"), DBL_MAX},
};

#define BANDS (sizeof(bands) / sizeof(bands[0]))

/* The first bytes are compared before memcmp is called: most names that
 * are not the one differ there (the tables are scanned name by name). */
static int name_is(const struct name *n, const char *s, size_t len)
{
    return n->str && n->len == len && (len == 0 || n->str[0] == s[0]) &&
           memcmp(n->str, s, len) == 0;
}

const char *proto_key(enum proto_key k)
{
    return (unsigned)k < PROTO_KEY_COUNT ? key_names[k].str : "";
}

size_t proto_key_len(enum proto_key k)
{
    return (unsigned)k < PROTO_KEY_COUNT ? key_names[k].len : 0;
}

enum proto_key proto_key_of(const msgpack_object *o)
{
    if (o->type != MSGPACK_OBJECT_STR)
        return PROTO_KEY_COUNT;
    for (unsigned k = 0; k < PROTO_KEY_COUNT; k++)
        if (name_is(&key_names[k], o->via.str.ptr, o->via.str.size))
            return (enum proto_key)k;
    return PROTO_KEY_COUNT;
}

int proto_is(const msgpack_object *o, enum proto_key k)
{
    return o->type == MSGPACK_OBJECT_STR && (unsigned)k < PROTO_KEY_COUNT &&
           name_is(&key_names[k], o->via.str.ptr, o->via.str.size);
}

const msgpack_object *proto_map_get(const msgpack_object *o, enum proto_key k)
{
    if (!o || o->type != MSGPACK_OBJECT_MAP)
        return NULL;
    for (uint32_t i = 0; i < o->via.map.size; i++)
        if (proto_is(&o->via.map.ptr[i].key, k))
            return &o->via.map.ptr[i].val;
    return NULL;
}

int proto_pack_key(msgpack_packer *pk, enum proto_key k)
{
    size_t len = proto_key_len(k);
    int rc = msgpack_pack_str(pk, len);
    return rc < 0 ? rc : msgpack_pack_str_body(pk, proto_key(k), len);
}

int proto_pack_cstr(msgpack_packer *pk, const char *s)
{
    size_t len = strlen(s);
    if (msgpack_pack_str(pk, len) < 0 || msgpack_pack_str_body(pk, s, len) < 0)
        return -ENOMEM;
    return 0;
}

const char *proto_code_name(enum rpc_code code)
{
    return (unsigned)code < RPC_CODE_COUNT ? code_names[code].str : "internal";
}

enum rpc_code proto_code_of(const char *s, size_t len)
{
    for (unsigned c = 0; c < RPC_CODE_COUNT; c++)
        if (name_is(&code_names[c], s, len))
            return (enum rpc_code)c;
    return RPC_CODE_COUNT;
}

const char *proto_method_name(enum rpc_method m)
{
    return (unsigned)m < RPC_M_COUNT ? method_names[m].str : NULL;
}

enum rpc_method proto_method_of(const msgpack_object *o)
{
    if (o->type != MSGPACK_OBJECT_STR)
        return RPC_M_UNKNOWN;
    for (unsigned m = RPC_M_SOLVE; m < RPC_M_COUNT; m++)
        if (name_is(&method_names[m], o->via.str.ptr, o->via.str.size))
            return (enum rpc_method)m;
    return RPC_M_UNKNOWN;
}

const char *proto_difficulty_of(double rating)
{
    size_t b = 0;

    while (b + 1 < BANDS && rating > bands[b].top)
        b++;
    return bands[b].name.str;
}

int proto_difficulty_band(const char *s, size_t len, double *lo, double *hi)
{
    for (size_t b = 0; b < BANDS; b++)
        if (name_is(&bands[b].name, s, len)) {
            /* Ratings step by tenths: just above the band below is its floor. */
            *lo = b == 0 ? 0.0 : bands[b - 1].top + 1e-9;
            *hi = bands[b].top;
            return 0;
        }
    return -EINVAL;
}
