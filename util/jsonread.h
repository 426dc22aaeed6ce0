/* jsonread.h -- a small JSON reader for the tools' JSON-lines input.
 *
 * json_parse() reads one JSON text into a flat array of tokens the caller
 * supplies, in document order: a container's members follow it, and each
 * token says where its subtree ends (next), so a reader walks an object's
 * values without recursion.  Nothing is allocated; a text with more tokens
 * than the array holds, or nested deeper than JSON_MAX_DEPTH, is refused
 * with a message, so hostile input cannot grow memory or the stack.
 * Strings are kept as spans of the text (escapes undone only by
 * json_string_copy).  Internal: not an installed API.  Thread-safe.
 */
#ifndef SUDOKU_JSONREAD_H
#define SUDOKU_JSONREAD_H

#include <stddef.h>
#include <stdint.h>

#define JSON_MAX_DEPTH 16 /* nesting refused beyond this */

enum json_type {
    JSON_NULL = 0,
    JSON_FALSE,
    JSON_TRUE,
    JSON_NUMBER, /* start..start+len: the number's text */
    JSON_STRING, /* start..start+len: the text between the quotes, escapes as written */
    JSON_ARRAY,  /* size: its elements, which follow */
    JSON_OBJECT  /* size: its members, each a key (a JSON_STRING) then its value */
};

/* One value of the text. */
struct json_token {
    enum json_type type;
    size_t start;  /* offset of the value's text (a string's: after the quote) */
    size_t len;    /* bytes of it (numbers, strings) */
    uint32_t size; /* arrays: elements; objects: members */
    uint32_t next; /* index of the first token after this one's subtree */
};

/* Parse text[0..len) as exactly one JSON value (whitespace around it
 * allowed) into tok[0..cap).  Returns the number of tokens used, or -1
 * with a message in err naming the byte offset (1-based column), e.g.
 * "column 14: expected ',' or '}'". */
int json_parse(const char *text, size_t len, struct json_token *tok, uint32_t cap, char *err,
               size_t err_size);

/* 1 when token t (a JSON_STRING of text) spells the NUL-terminated s. */
int json_string_is(const char *text, const struct json_token *t, const char *s);

/* Copy string token t of text into out (out_size bytes, NUL-terminated),
 * escapes undone (\uXXXX only below 0x80).  Returns the length, or -1 when
 * it does not fit or holds an escape it cannot undo. */
long json_string_copy(const char *text, const struct json_token *t, char *out, size_t out_size);

/* The value of number token t when it is a whole number in 0..max: 0 with
 * *out set, or -1. */
int json_uint(const char *text, const struct json_token *t, uint64_t max, uint64_t *out);

/* The value of key in object token obj (index), or -1 when absent. */
long json_member(const char *text, const struct json_token *tok, uint32_t obj, const char *key);

#endif /* SUDOKU_JSONREAD_H */
