/* jsonread.c -- the tools' JSON reader (jsonread.h).
 *
 * A recursive-descent parser over the text that appends one token per
 * value; the depth is bounded by JSON_MAX_DEPTH and the tokens by the
 * caller's array.  It checks the whole grammar (RFC 8259) except that
 * strings are only scanned: a string's escapes are checked for their form,
 * undone later by json_string_copy when a reader wants the text.
 */
#include "util/jsonread.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* The parse in progress. */
struct json_parser {
    const char *text;
    size_t len, pos;
    struct json_token *tok;
    uint32_t cap, used;
    char *err;
    size_t err_size;
};

static int fail(struct json_parser *p, const char *what)
{
    snprintf(p->err, p->err_size, "column %zu: %s", p->pos + 1, what);
    return -1;
}

static void skip_space(struct json_parser *p)
{
    while (p->pos < p->len && strchr(" \t\r\n", p->text[p->pos]) && p->text[p->pos])
        p->pos++;
}

static int peek(const struct json_parser *p)
{
    return p->pos < p->len ? (unsigned char)p->text[p->pos] : -1;
}

/* A new token of type at the current position, or NULL (said). */
static struct json_token *add(struct json_parser *p, enum json_type type)
{
    struct json_token *t;

    if (p->used >= p->cap) {
        fail(p, "too many values");
        return NULL;
    }
    t = &p->tok[p->used++];
    memset(t, 0, sizeof(*t));
    t->type = type;
    t->start = p->pos;
    return t;
}

static int parse_value(struct json_parser *p, int depth);

static int parse_string(struct json_parser *p)
{
    struct json_token *t;

    p->pos++; /* the opening quote */
    t = add(p, JSON_STRING);
    if (!t)
        return -1;
    while (p->pos < p->len && p->text[p->pos] != '"') {
        unsigned char c = (unsigned char)p->text[p->pos];
        if (c < 0x20)
            return fail(p, "a control character in a string");
        if (c == '\\') {
            if (p->pos + 1 >= p->len || !strchr("\"\\/bfnrtu", p->text[p->pos + 1]))
                return fail(p, "a bad escape in a string");
            p->pos++;
        }
        p->pos++;
    }
    if (p->pos >= p->len)
        return fail(p, "a string without its closing quote");
    t->len = p->pos - t->start;
    p->pos++;
    return 0;
}

static int parse_number(struct json_parser *p)
{
    struct json_token *t = add(p, JSON_NUMBER);
    size_t digits = 0;

    if (!t)
        return -1;
    if (peek(p) == '-')
        p->pos++;
    while (isdigit(peek(p)) && ++digits)
        p->pos++;
    if (!digits)
        return fail(p, "expected a value");
    if (peek(p) == '.') {
        p->pos++;
        if (!isdigit(peek(p)))
            return fail(p, "expected a digit after '.'");
        while (isdigit(peek(p)))
            p->pos++;
    }
    if (peek(p) == 'e' || peek(p) == 'E') {
        p->pos++;
        if (peek(p) == '+' || peek(p) == '-')
            p->pos++;
        if (!isdigit(peek(p)))
            return fail(p, "expected a digit in the exponent");
        while (isdigit(peek(p)))
            p->pos++;
    }
    t->len = p->pos - t->start;
    return 0;
}

static int parse_word(struct json_parser *p)
{
    static const struct {
        const char *word;
        enum json_type type;
    } words[] = {{"true", JSON_TRUE}, {"false", JSON_FALSE}, {"null", JSON_NULL}};

    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
        size_t n = strlen(words[i].word);
        if (p->len - p->pos >= n && memcmp(p->text + p->pos, words[i].word, n) == 0) {
            struct json_token *t = add(p, words[i].type);
            if (!t)
                return -1;
            t->len = n;
            p->pos += n;
            return 0;
        }
    }
    return parse_number(p);
}

/* An array or object: its members, then its closing bracket. */
static int parse_container(struct json_parser *p, int depth, int is_object)
{
    uint32_t at = p->used;
    int close = is_object ? '}' : ']';

    if (depth >= JSON_MAX_DEPTH)
        return fail(p, "nested too deep");
    if (!add(p, is_object ? JSON_OBJECT : JSON_ARRAY))
        return -1;
    p->pos++;
    skip_space(p);
    if (peek(p) == close) {
        p->pos++;
        return 0;
    }
    for (;;) {
        skip_space(p);
        if (is_object) {
            if (peek(p) != '"')
                return fail(p, "expected a key in quotes");
            if (parse_string(p) < 0)
                return -1;
            skip_space(p);
            if (peek(p) != ':')
                return fail(p, "expected ':'");
            p->pos++;
        }
        if (parse_value(p, depth + 1) < 0)
            return -1;
        p->tok[at].size++;
        skip_space(p);
        if (peek(p) == close) {
            p->pos++;
            return 0;
        }
        if (peek(p) != ',')
            return fail(p, is_object ? "expected ',' or '}'" : "expected ',' or ']'");
        p->pos++;
    }
}

static int parse_value(struct json_parser *p, int depth)
{
    uint32_t at = p->used;
    int rc;

    skip_space(p);
    switch (peek(p)) {
    case '{':
        rc = parse_container(p, depth, 1);
        break;
    case '[':
        rc = parse_container(p, depth, 0);
        break;
    case '"':
        rc = parse_string(p);
        break;
    case -1:
        return fail(p, "expected a value, found the end");
    default:
        rc = parse_word(p);
        break;
    }
    if (rc == 0)
        p->tok[at].next = p->used;
    return rc;
}

int json_parse(const char *text, size_t len, struct json_token *tok, uint32_t cap, char *err,
               size_t err_size)
{
    struct json_parser p = {text, len, 0, tok, cap, 0, err, err_size};

    if (parse_value(&p, 0) < 0)
        return -1;
    skip_space(&p);
    if (p.pos < p.len)
        return fail(&p, "more after the value");
    return (int)p.used;
}

int json_string_is(const char *text, const struct json_token *t, const char *s)
{
    return t->type == JSON_STRING && strlen(s) == t->len && memcmp(text + t->start, s, t->len) == 0;
}

/* The escape at s (after the backslash) as one byte, or -1. */
static int unescape(const char *s, size_t left, size_t *used)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    const char *at = strchr(from, s[0]);
    unsigned v = 0;

    *used = 1;
    if (s[0] != 'u')
        return at && s[0] ? to[at - from] : -1;
    if (left < 5)
        return -1;
    for (int i = 1; i <= 4; i++) {
        if (!isxdigit((unsigned char)s[i]))
            return -1;
        v = v * 16 + (unsigned)(isdigit((unsigned char)s[i])
                                    ? s[i] - '0'
                                    : tolower((unsigned char)s[i]) - 'a' + 10);
    }
    *used = 5;
    return v > 0 && v < 0x80 ? (int)v : -1;
}

long json_string_copy(const char *text, const struct json_token *t, char *out, size_t out_size)
{
    const char *s = text + t->start;
    size_t n = 0;

    for (size_t i = 0; i < t->len; n++) {
        int c = (unsigned char)s[i];
        size_t used = 1;
        if (c == '\\') {
            c = unescape(s + i + 1, t->len - i - 1, &used);
            used++;
        }
        if (c < 0 || n + 1 >= out_size)
            return -1;
        out[n] = (char)c;
        i += used;
    }
    if (out_size == 0)
        return -1;
    out[n] = '\0';
    return (long)n;
}

int json_uint(const char *text, const struct json_token *t, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;

    if (t->type != JSON_NUMBER || t->len == 0)
        return -1;
    for (size_t i = 0; i < t->len; i++) {
        unsigned d = (unsigned)(text[t->start + i] - '0');
        if (d > 9 || d > max || v > (max - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

long json_member(const char *text, const struct json_token *tok, uint32_t obj, const char *key)
{
    uint32_t k = obj + 1;

    if (tok[obj].type != JSON_OBJECT)
        return -1;
    for (uint32_t i = 0; i < tok[obj].size; i++) {
        uint32_t v = k + 1;
        if (json_string_is(text, &tok[k], key))
            return v;
        k = tok[v].next;
    }
    return -1;
}
