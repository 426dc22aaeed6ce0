/* test_rpc.c -- the daemon side of the wire (proto/rpc.c): what is a
 * notification.
 *
 * Messages are built with msgpack-c and read back through rpc_read(), the
 * function the daemon runs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <string.h>

#include "proto/rpc.h"

/* ---------------------------------------------------------- notifications */

enum shape { EMPTY, INT, STR, ARR_EMPTY, ARR_ONE }; /* what pack_shape() packs */

static void pack_shape(msgpack_packer *pk, enum shape s, const char *str)
{
    switch (s) {
    case EMPTY:
        break;
    case INT:
        msgpack_pack_uint32(pk, 5);
        break;
    case STR:
        msgpack_pack_str(pk, strlen(str));
        msgpack_pack_str_body(pk, str, strlen(str));
        break;
    case ARR_EMPTY:
        msgpack_pack_array(pk, 0);
        break;
    case ARR_ONE:
        msgpack_pack_array(pk, 1);
        msgpack_pack_uint32(pk, 7);
        break;
    }
}

/* One message: an array of type, then up to three more elements. */
struct msg_row {
    unsigned type;         /* element 0 */
    unsigned len;          /* array length */
    enum shape e1, e2, e3; /* the elements after it */
    const char *name;      /* string for STR elements */
    int want_type;         /* RPC_MSG_REQUEST or RPC_MSG_NOTIFY */
    enum rpc_code want;    /* code */
};

static const struct msg_row msg_rows[] = {
    /* the valid notification: cancel 7 */
    {2, 3, STR, ARR_ONE, EMPTY, "cancel", RPC_MSG_NOTIFY, RPC_OK},
    /* [2]: too short, still a notification, never answered */
    {2, 1, EMPTY, EMPTY, EMPTY, "", RPC_MSG_NOTIFY, RPC_BAD_REQUEST},
    /* [2, "cancel"]: no params */
    {2, 2, STR, EMPTY, EMPTY, "cancel", RPC_MSG_NOTIFY, RPC_BAD_REQUEST},
    /* [2, 5, []]: method not a string */
    {2, 3, INT, ARR_EMPTY, EMPTY, "", RPC_MSG_NOTIFY, RPC_BAD_REQUEST},
    /* [2, "cancel", [7], 5]: one element too many */
    {2, 4, STR, ARR_ONE, INT, "cancel", RPC_MSG_NOTIFY, RPC_BAD_REQUEST},
    /* [2, "cancel", "x"]: params not an array */
    {2, 3, STR, STR, EMPTY, "cancel", RPC_MSG_NOTIFY, RPC_BAD_REQUEST},
    /* [2, "cancel", []]: cancel takes [msgid] */
    {2, 3, STR, ARR_EMPTY, EMPTY, "cancel", RPC_MSG_NOTIFY, RPC_BAD_REQUEST},
    /* [2, "ping", []]: not a notification method */
    {2, 3, STR, ARR_EMPTY, EMPTY, "ping", RPC_MSG_NOTIFY, RPC_UNKNOWN_METHOD},
    /* [0, 5, "ping", []]: a request, for contrast */
    {0, 4, INT, STR, ARR_EMPTY, "ping", RPC_MSG_REQUEST, RPC_OK},
    /* [3, 5, "ping"]: neither: a bad request, answered */
    {3, 3, INT, STR, EMPTY, "ping", RPC_MSG_REQUEST, RPC_BAD_REQUEST},
};

static void test_notification_shapes(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(msg_rows) / sizeof(msg_rows[0]); i++) {
        const struct msg_row *row = &msg_rows[i];
        msgpack_sbuffer sb;
        msgpack_packer pk;
        struct rpc_request req;
        char err[RPC_ERR_SIZE];
        ssize_t n;

        msgpack_sbuffer_init(&sb);
        msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
        msgpack_pack_array(&pk, row->len);
        msgpack_pack_uint32(&pk, row->type);
        pack_shape(&pk, row->e1, row->name);
        pack_shape(&pk, row->e2, row->name);
        pack_shape(&pk, row->e3, row->name);
        n = rpc_read((const uint8_t *)sb.data, sb.size, 4096, &req, err, sizeof(err));
        assert_int_equal(n, (ssize_t)sb.size);
        assert_int_equal(req.type, row->want_type);
        assert_int_equal(req.code, row->want);
        if (row->want == RPC_OK && row->want_type == RPC_MSG_NOTIFY)
            assert_int_equal(req.cancel_msgid, 7);
        msgpack_sbuffer_destroy(&sb);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_notification_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
