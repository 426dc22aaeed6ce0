/* test_jsonread.c -- the tools' JSON reader (util/jsonread.h).
 *
 * A table of texts, each read or refused with the column and words the
 * user will see; the token tree of a JSON line as the tool reads it; the
 * bounds (depth, token count) that keep hostile input from growing
 * anything; string copies with their escapes and numbers in range.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <string.h>

#include "util/jsonread.h"

/* Texts read (tokens >= 0) or refused (-1 with words in the message). */
static void test_parse_table(void **state)
{
    static const struct {
        const char *text;
        int tokens;        /* tokens used, or -1 */
        const char *words; /* in the message when refused */
    } cases[] = {
        {"{}", 1, NULL},                                      /* empty object */
        {" [1, -2.5e3, true, false, null, \"a\"] ", 7, NULL}, /* every scalar */
        {"{\"a\": {\"b\": [[]]}}", 6, NULL},                  /* nested: keys count too */
        {"{\"a\" 1}", -1, "column 6: expected ':'"},          /* missing colon */
        {"{\"puzzle\": \"1\" \"rules\"}", -1, "column 16: expected ',' or '}'"},
        {"[1,]", -1, "column 4: expected a value"},                       /* trailing comma */
        {"\"abc", -1, "without its closing quote"},                       /* open string */
        {"\"a\\qb\"", -1, "a bad escape"},                                /* unknown escape */
        {"\"a\tb\"", -1, "a control character"},                          /* raw tab in a string */
        {"{} x", -1, "column 4: more after the value"},                   /* trailing garbage */
        {"", -1, "found the end"},                                        /* nothing */
        {"1.", -1, "expected a digit after '.'"},                         /* bad number */
        {"[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]", -1, "nested too deep"}, /* depth 18 */
    };
    struct json_token tok[32];
    char err[128];
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        int n;
        err[0] = '\0';
        n = json_parse(cases[i].text, strlen(cases[i].text), tok, 32, err, sizeof(err));
        if (n != cases[i].tokens || (cases[i].words && !strstr(err, cases[i].words)))
            fail_msg("case %zu (%s): %d tokens, \"%s\"", i, cases[i].text, n, err);
    }
}

/* More values than the caller's array holds: refused, nothing past it written. */
static void test_token_cap(void **state)
{
    struct json_token tok[5];
    char err[128];
    (void)state;
    memset(tok, 0x5a, sizeof(tok));
    assert_int_equal(json_parse("[1,2,3,4,5]", 11, tok, 4, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "too many values"));
    assert_int_equal(((const unsigned char *)&tok[4])[0], 0x5a);
}

/* A JSON line as the tool walks it: members, next, strings and numbers. */
static void test_walk(void **state)
{
    const char *t = "{\"rules\": {\"cages\": [[17, [0, 1]]]}, \"puzzle\": \"1\\u0032\\n\\\"\"}";
    struct json_token tok[32];
    char out[16], err[128];
    uint64_t v = 0;
    long p, r;
    (void)state;
    assert_true(json_parse(t, strlen(t), tok, 32, err, sizeof(err)) > 0);
    p = json_member(t, tok, 0, "puzzle");
    r = json_member(t, tok, 0, "rules");
    assert_true(p > 0 && r > 0);
    assert_int_equal(json_member(t, tok, 0, "nothing"), -1);
    assert_int_equal(json_string_copy(t, &tok[p], out, sizeof(out)), 4);
    assert_string_equal(out, "12\n\"");
    assert_int_equal(json_string_copy(t, &tok[p], out, 4), -1); /* does not fit */
    long c = json_member(t, tok, (uint32_t)r, "cages");
    assert_int_equal(tok[c].type, JSON_ARRAY);
    assert_int_equal(tok[c + 1].size, 2);                   /* [17, [0, 1]] */
    assert_int_equal(json_uint(t, &tok[c + 2], 45, &v), 0); /* 17 */
    assert_int_equal(v, 17);
    assert_int_equal(json_uint(t, &tok[c + 2], 16, &v), -1); /* over max */
    assert_int_equal(tok[c].next, tok[c + 1].next);          /* the cage ends the array */
}

/* Numbers that are not whole and in range are refused by json_uint. */
static void test_uint(void **state)
{
    const char *texts[] = {"-1", "1.5", "1e2", "18446744073709551616"};
    struct json_token tok[2];
    char err[128];
    uint64_t v;
    (void)state;
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
        assert_int_equal(json_parse(texts[i], strlen(texts[i]), tok, 2, err, sizeof(err)), 1);
        assert_int_equal(json_uint(texts[i], &tok[0], UINT64_MAX, &v), -1);
    }
    assert_int_equal(json_parse("18446744073709551615", 20, tok, 2, err, sizeof(err)), 1);
    assert_int_equal(json_uint("18446744073709551615", &tok[0], UINT64_MAX, &v), 0);
    assert_true(v == UINT64_MAX);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_table),
        cmocka_unit_test(test_token_cap),
        cmocka_unit_test(test_walk),
        cmocka_unit_test(test_uint),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
