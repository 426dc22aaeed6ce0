/* test_protocol.c -- the name table of wire protocol v1 (proto/protocol.c).
 *
 * Every key, method and code spelled in the table must look itself up again
 * (no two entries share a spelling), and must appear in docs/protocol.md, the
 * contract: a name the code sends that the document does not define is a
 * contract change nobody reviewed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "proto/protocol.h"

#define PROTOCOL_MD SUDOKU_TEST_DATA_DIR "/../../docs/protocol.md"

/* The whole of docs/protocol.md, NUL-terminated; the caller frees it. */
static char *read_doc(void)
{
    FILE *f = fopen(PROTOCOL_MD, "r");
    static char buf[1 << 17];
    size_t n;

    assert_non_null(f);
    n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    assert_true(n > 0 && n < sizeof(buf) - 1);
    buf[n] = '\0';
    return strdup(buf);
}

/* 1 when doc holds name quoted as `name` or "name". */
static int doc_names(const char *doc, const char *name)
{
    char a[64], b[64];

    snprintf(a, sizeof(a), "`%s`", name);
    snprintf(b, sizeof(b), "\"%s\"", name);
    return strstr(doc, a) || strstr(doc, b);
}

static msgpack_object str_obj(const char *s)
{
    msgpack_object o = {.type = MSGPACK_OBJECT_STR};
    o.via.str.ptr = s;
    o.via.str.size = (uint32_t)strlen(s);
    return o;
}

static void test_keys_round_trip_and_documented(void **state)
{
    char *doc = read_doc();
    (void)state;
    for (unsigned k = 0; k < PROTO_KEY_COUNT; k++) {
        msgpack_object o = str_obj(proto_key((enum proto_key)k));
        assert_int_equal(proto_key_len((enum proto_key)k), o.via.str.size);
        assert_int_equal(proto_key_of(&o), k);
        assert_true(proto_is(&o, (enum proto_key)k));
        if (!doc_names(doc, proto_key((enum proto_key)k)))
            fail_msg("key \"%s\" is not in docs/protocol.md", proto_key((enum proto_key)k));
    }
    free(doc);
}

static void test_methods_round_trip_and_documented(void **state)
{
    char *doc = read_doc();
    (void)state;
    assert_null(proto_method_name(RPC_M_UNKNOWN));
    for (unsigned m = RPC_M_SOLVE; m < RPC_M_COUNT; m++) {
        msgpack_object o = str_obj(proto_method_name((enum rpc_method)m));
        assert_int_equal(proto_method_of(&o), m);
        if (!doc_names(doc, o.via.str.ptr))
            fail_msg("method \"%s\" is not in docs/protocol.md", o.via.str.ptr);
    }
    free(doc);
}

static void test_codes_round_trip_and_documented(void **state)
{
    char *doc = read_doc();
    (void)state;
    for (unsigned c = RPC_BAD_REQUEST; c < RPC_CODE_COUNT; c++) {
        const char *name = proto_code_name((enum rpc_code)c);
        assert_int_equal(proto_code_of(name, strlen(name)), c);
        if (!doc_names(doc, name))
            fail_msg("code \"%s\" is not in docs/protocol.md", name);
    }
    assert_string_equal(proto_code_name(RPC_CODE_COUNT), "internal");
    free(doc);
}

/* Lookups are exact: prefixes, case and other types do not match. */
static void test_lookups_are_exact(void **state)
{
    msgpack_object o = str_obj("solve"), n = {.type = MSGPACK_OBJECT_NIL};
    (void)state;
    o.via.str.size = 4; /* "solv" */
    assert_int_equal(proto_method_of(&o), RPC_M_UNKNOWN);
    o = str_obj("Solver");
    assert_int_equal(proto_key_of(&o), PROTO_KEY_COUNT);
    o = str_obj("solvers2");
    assert_int_equal(proto_key_of(&o), PROTO_KEY_COUNT);
    assert_int_equal(proto_key_of(&n), PROTO_KEY_COUNT);
    assert_int_equal(proto_method_of(&n), RPC_M_UNKNOWN);
    assert_null(proto_map_get(&n, PROTO_K_SOLVER));
    assert_int_equal(proto_code_of("time", 4), RPC_CODE_COUNT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keys_round_trip_and_documented),
        cmocka_unit_test(test_methods_round_trip_and_documented),
        cmocka_unit_test(test_codes_round_trip_and_documented),
        cmocka_unit_test(test_lookups_are_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
