/* test_marks.c -- the explain option `candidates`: a player's pencil marks.
 *
 * The daemon's end of proto/explain.c reads the marks in either form (a
 * string of n*n*n symbols, or an array of per-cell digit lists) once the
 * puzzle's side is known.  Each case packs a whole explain params array
 * with msgpack-c, decodes it with rpc_decode_explain_params and checks
 * every cell's marks, or the bad_request and the cell its message names.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "proto/explain.h"

#define PUZZLE4 "1...........3..." /* a 4x4: r1c1 is 1, r3c4 is 3 */

/* Decode [PUZZLE4, {candidates: <pack(pk)>}] for method m. */
static enum rpc_code decode4(void (*pack)(msgpack_packer *pk), enum rpc_method m,
                             struct rpc_explain_params *e, char *err, size_t err_size)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_unpacked u;
    struct rpc_solve_params s;
    enum rpc_code code;

    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    msgpack_pack_array(&pk, 2);
    msgpack_pack_str_with_body(&pk, PUZZLE4, strlen(PUZZLE4));
    msgpack_pack_map(&pk, 1);
    msgpack_pack_str_with_body(&pk, "candidates", 10);
    pack(&pk);
    msgpack_unpacked_init(&u);
    assert_int_equal(msgpack_unpack_next(&u, sb.data, sb.size, NULL), MSGPACK_UNPACK_SUCCESS);
    err[0] = '\0';
    code = rpc_decode_explain_params(&u.data.via.array, m, &s, e, err, err_size);
    if (code == RPC_OK)
        assert_int_equal(s.n, 4);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    return code;
}

static void str(msgpack_packer *pk, const char *s)
{
    msgpack_pack_str_with_body(pk, s, strlen(s));
}

/* 16 cells of 4 symbols: cell i keeps digit (i % 4) + 1 only, except cell
 * 5 (all four, '0' for none) and cell 15 (none, with '0's). */
static void good_string(msgpack_packer *pk)
{
    char s[65];
    for (unsigned i = 0; i < 16; i++)
        for (unsigned d = 1; d <= 4; d++)
            s[i * 4 + d - 1] = d == i % 4 + 1 ? (char)('0' + d) : '.';
    memcpy(s + 5 * 4, "1234", 4);
    memcpy(s + 15 * 4, "0000", 4);
    s[64] = '\0';
    str(pk, s);
}

/* The same marks as lists. */
static void good_array(msgpack_packer *pk)
{
    msgpack_pack_array(pk, 16);
    for (unsigned i = 0; i < 16; i++) {
        if (i == 5) {
            msgpack_pack_array(pk, 4);
            for (unsigned d = 4; d >= 1; d--) /* any order */
                msgpack_pack_uint8(pk, (uint8_t)d);
        } else if (i == 15) {
            msgpack_pack_array(pk, 0);
        } else {
            msgpack_pack_array(pk, 1);
            msgpack_pack_uint8(pk, (uint8_t)(i % 4 + 1));
        }
    }
}

static void check_good(const struct rpc_explain_params *e)
{
    assert_true(e->has_candidates);
    for (unsigned i = 0; i < 16; i++) {
        uint32_t want = i == 5 ? 0xfu : i == 15 ? 0u : 1u << (i % 4);
        assert_int_equal(e->candidates[i], want);
    }
}

static void test_string_form(void **state)
{
    struct rpc_explain_params e;
    char err[RPC_ERR_SIZE];
    (void)state;
    assert_int_equal(decode4(good_string, RPC_M_EXPLAIN, &e, err, sizeof(err)), RPC_OK);
    check_good(&e);
}

static void test_array_form(void **state)
{
    struct rpc_explain_params e;
    char err[RPC_ERR_SIZE];
    (void)state;
    assert_int_equal(decode4(good_array, RPC_M_EXPLAIN, &e, err, sizeof(err)), RPC_OK);
    check_good(&e);
}

static void nil(msgpack_packer *pk)
{
    msgpack_pack_nil(pk);
}

/* nil is no marks; rate takes none (it rates the puzzle, not a player). */
static void test_none(void **state)
{
    struct rpc_explain_params e;
    char err[RPC_ERR_SIZE];
    (void)state;
    assert_int_equal(decode4(nil, RPC_M_EXPLAIN, &e, err, sizeof(err)), RPC_OK);
    assert_false(e.has_candidates);
    assert_int_equal(decode4(good_string, RPC_M_RATE, &e, err, sizeof(err)), RPC_OK);
    assert_false(e.has_candidates);
}

/* ------------------------------------------------------------ malformed */

static void bad_len(msgpack_packer *pk)
{
    str(pk, "1234");
}
static void bad_len_9x9(msgpack_packer *pk) /* a 9x9's 729 for a 4x4 */
{
    char s[730];
    memset(s, '.', 729);
    s[729] = '\0';
    str(pk, s);
}
static void bad_symbol(msgpack_packer *pk) /* r2c3 (cell 6), digit 2 is 'x' */
{
    char s[65];
    memset(s, '.', 64);
    s[6 * 4 + 1] = 'x';
    s[64] = '\0';
    str(pk, s);
}
static void bad_place(msgpack_packer *pk) /* r4c4 (cell 15), digit 1 written '3' */
{
    char s[65];
    memset(s, '0', 64);
    s[15 * 4] = '3';
    s[64] = '\0';
    str(pk, s);
}
static void bad_big_digit(msgpack_packer *pk) /* '5' is no digit of a 4x4 */
{
    char s[65];
    memset(s, '.', 64);
    s[3] = '5';
    s[64] = '\0';
    str(pk, s);
}
static void bad_lists(msgpack_packer *pk) /* 15 lists */
{
    msgpack_pack_array(pk, 15);
    for (unsigned i = 0; i < 15; i++)
        msgpack_pack_array(pk, 0);
}
static void bad_zero(msgpack_packer *pk) /* r1c2 holds a 0 */
{
    msgpack_pack_array(pk, 16);
    for (unsigned i = 0; i < 16; i++) {
        msgpack_pack_array(pk, i == 1 ? 1 : 0);
        if (i == 1)
            msgpack_pack_uint8(pk, 0);
    }
}
static void bad_negative(msgpack_packer *pk) /* r1c3 holds a -1 */
{
    msgpack_pack_array(pk, 16);
    for (unsigned i = 0; i < 16; i++) {
        msgpack_pack_array(pk, i == 2 ? 1 : 0);
        if (i == 2)
            msgpack_pack_int(pk, -1);
    }
}
static void bad_twice(msgpack_packer *pk) /* r3c1 says 2 twice */
{
    msgpack_pack_array(pk, 16);
    for (unsigned i = 0; i < 16; i++) {
        msgpack_pack_array(pk, i == 8 ? 2 : 0);
        if (i == 8) {
            msgpack_pack_uint8(pk, 2);
            msgpack_pack_uint8(pk, 2);
        }
    }
}
static void bad_long_list(msgpack_packer *pk) /* r1c1 lists five digits */
{
    msgpack_pack_array(pk, 16);
    for (unsigned i = 0; i < 16; i++) {
        msgpack_pack_array(pk, i == 0 ? 5 : 0);
        for (unsigned k = 0; i == 0 && k < 5; k++)
            msgpack_pack_uint8(pk, 1);
    }
}
static void bad_entry(msgpack_packer *pk) /* r4c1 is a string, not a list */
{
    msgpack_pack_array(pk, 16);
    for (unsigned i = 0; i < 16; i++)
        if (i == 12)
            str(pk, "12");
        else
            msgpack_pack_array(pk, 0);
}
static void bad_type(msgpack_packer *pk)
{
    msgpack_pack_true(pk);
}

static void test_malformed(void **state)
{
    static const struct {
        void (*pack)(msgpack_packer *pk);
        const char *says; /* in the message */
    } cases[] = {
        {bad_len, "4 characters, want 64"},
        {bad_len_9x9, "729 characters, want 64"},
        {bad_symbol, "r2c3, digit 2: 'x'"},
        {bad_place, "r4c4, digit 1: '3'"},
        {bad_big_digit, "r1c1, digit 4: '5'"},
        {bad_lists, "15 lists, want one per cell (16)"},
        {bad_zero, "r1c2: want digits 1..4"},
        {bad_negative, "r1c3: want digits 1..4"},
        {bad_twice, "r3c1: digit 2 twice"},
        {bad_long_list, "r1c1: want a list of at most 4 digits"},
        {bad_entry, "r4c1: want a list"},
        {bad_type, "want a string of 64 characters or an array of 16"},
    };
    (void)state;

    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        struct rpc_explain_params e;
        char err[RPC_ERR_SIZE];
        enum rpc_code code = decode4(cases[k].pack, RPC_M_EXPLAIN, &e, err, sizeof(err));
        if (code != RPC_BAD_REQUEST || !strstr(err, "option candidates: ") ||
            !strstr(err, cases[k].says))
            fail_msg("case %zu: code %d, \"%s\" does not say \"%s\"", k, (int)code, err,
                     cases[k].says);
        assert_false(e.has_candidates);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_string_form),
        cmocka_unit_test(test_array_form),
        cmocka_unit_test(test_none),
        cmocka_unit_test(test_malformed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
