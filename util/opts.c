/* opts.c -- table-driven command lines: getopt_long and --help from one table.
 *
 * opts_parse() turns a program's table into getopt_long's long options and
 * short-option string, then applies each option as its row says.  Every
 * option has a getopt value that maps back to its row: its short letter, or
 * OPTS_LONG_ONLY plus its row index.  The short-option string starts with
 * ':' so that a missing argument is told apart from an unknown option, and
 * opterr is 0: every message is ours and names the option as it was typed.
 *
 * What is not here: checks that involve several options or the operands
 * (each main.c makes them, reporting through opts_usage_error()).
 */
#include "util/opts.h"

#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define OPTS_LONG_ONLY 256 /* getopt value of row i without a short letter: this + i */
#define ERR_SIZE       160 /* what a handler may say about a bad value */

/* ---------------------------------------------------------------- numbers */

static void range_text(int base, unsigned long long min, unsigned long long max, char *err,
                       size_t err_size)
{
    if (base == 8)
        snprintf(err, err_size, "want an octal mode %#llo..%#llo", min, max);
    else if (max == UINT64_MAX || max == UINT32_MAX)
        snprintf(err, err_size, "want a number >= %llu", min);
    else
        snprintf(err, err_size, "want %llu..%llu", min, max);
}

int opts_number(const char *s, int base, unsigned long long min, unsigned long long max,
                unsigned long long *out, char *err, size_t err_size)
{
    unsigned long long v;
    char *end;

    /* strtoull would take leading space, a sign, and "0x" in base 16. */
    if (!s || *s < '0' || *s > (base == 8 ? '7' : '9'))
        goto fail;
    errno = 0;
    v = strtoull(s, &end, base);
    if (errno || *end || v < min || v > max)
        goto fail;
    *out = v;
    return 0;
fail:
    range_text(base, min, max, err, err_size);
    return -EINVAL;
}

/* ---------------------------------------------------------------- messages */

int opts_usage_error(const struct opts_prog *p, const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "%s: ", p->name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry '%s --help'.\n", p->name);
    return -EINVAL;
}

/* The option of row s as the user typed it, written into buf: "--name" or
 * "-c".  It is argv[optind - 1], or the word before when that word is the
 * option's separate argument (has_arg). */
static const char *typed_name(const struct opts_spec *s, char **argv, int has_arg, char *buf,
                              size_t size)
{
    int i = optind - (has_arg && optarg && optind >= 2 && optarg == argv[optind - 1] ? 2 : 1);

    if (s->short_name && !(i > 0 && strncmp(argv[i], "--", 2) == 0))
        snprintf(buf, size, "-%c", s->short_name);
    else
        snprintf(buf, size, "--%s", s->name);
    return buf;
}

/* ---------------------------------------------------------------- the table */

static int getopt_value(const struct opts_prog *p, size_t i)
{
    while (i > 0 && p->specs[i].is_alias)
        i--; /* an alias is its row's other name */
    return p->specs[i].short_name ? p->specs[i].short_name : OPTS_LONG_ONLY + (int)i;
}

/* The row i stands for: itself, or the row an alias names. */
static const struct opts_spec *real_row(const struct opts_prog *p, size_t i)
{
    while (i > 0 && p->specs[i].is_alias)
        i--;
    return &p->specs[i];
}

/* The row whose getopt value is val (never an alias), or NULL. */
static const struct opts_spec *find_row(const struct opts_prog *p, int val)
{
    for (size_t i = 0; i < p->specs_len; i++)
        if (p->specs[i].kind != OPTS_SECTION && !p->specs[i].is_alias && getopt_value(p, i) == val)
            return &p->specs[i];
    return NULL;
}

/* getopt_long's view of the table.  longs has OPTS_MAX + 1 rows, shorts
 * room for 2 * OPTS_MAX + 2 bytes. */
static void build_getopt(const struct opts_prog *p, struct option *longs, char *shorts)
{
    size_t n = 0, k = 0;

    shorts[k++] = ':';
    for (size_t i = 0; i < p->specs_len; i++) {
        const struct opts_spec *s = &p->specs[i];
        if (s->kind == OPTS_SECTION)
            continue;
        longs[n].name = s->name;
        longs[n].has_arg = !real_row(p, i)->arg              ? no_argument
                           : real_row(p, i)->is_arg_optional ? optional_argument
                                                             : required_argument;
        assert(!(s->short_name && s->is_arg_optional)); /* "-c" could not say which */
        longs[n].flag = NULL;
        longs[n++].val = getopt_value(p, i);
        if (s->short_name) {
            shorts[k++] = (char)s->short_name;
            if (s->arg)
                shorts[k++] = ':';
        }
    }
    memset(&longs[n], 0, sizeof(longs[n]));
    shorts[k] = '\0';
}

/* ---------------------------------------------------------------- applying */

static void store_number(void *field, size_t size, unsigned long long v)
{
    if (size == sizeof(uint32_t)) {
        uint32_t v32 = (uint32_t)v;
        memcpy(field, &v32, sizeof(v32));
    } else {
        uint64_t v64 = v;
        memcpy(field, &v64, sizeof(v64));
    }
}

/* Apply row s with arg to cfg.  Returns 0 or -EINVAL with what was wanted in
 * err. */
static int apply(const struct opts_spec *s, const char *arg, void *cfg, char *err, size_t size)
{
    char *field = (char *)cfg + s->offset;
    unsigned long long v;

    switch (s->kind) {
    case OPTS_FLAG:
        assert(s->size == sizeof(int));
        *(int *)(void *)field = 1;
        return 0;
    case OPTS_STRING:
        *(const char **)(void *)field = arg;
        return 0;
    case OPTS_NUMBER:
        assert(s->size == 8 || (s->size == 4 && s->max <= UINT32_MAX));
        if (opts_number(arg, s->base, s->min, s->max, &v, err, size) < 0)
            return -EINVAL;
        store_number(field, s->size, v);
        return 0;
    case OPTS_CALL:
        return s->fn(cfg, arg, err, size) < 0 ? -EINVAL : 0;
    default:
        return 0;
    }
}

/* How many long names start with what word ("--name" or "--name=value")
 * names: more than one makes getopt_long call it ambiguous. */
static size_t prefix_matches(const struct opts_prog *p, const char *word)
{
    size_t len, n = 0;

    if (strncmp(word, "--", 2) != 0)
        return 0;
    word += 2;
    len = strcspn(word, "=");
    for (size_t i = 0; i < p->specs_len; i++)
        if (p->specs[i].name && strncmp(p->specs[i].name, word, len) == 0)
            n++;
    return n;
}

/* getopt_long returned '?' or ':': say what is wrong.  Returns -EINVAL. */
static int bad_option(const struct opts_prog *p, int ch, char **argv)
{
    const struct opts_spec *s = optopt ? find_row(p, optopt) : NULL;

    if (ch == ':' && s) {
        char name[80];
        return opts_usage_error(p, "option '%s' needs an argument",
                                typed_name(s, argv, 0, name, sizeof(name)));
    }
    if (s) /* '?' for a known row: "--flag=value" on an option without one */
        return opts_usage_error(p, "option '--%s' takes no argument", s->name);
    if (optopt && optopt < OPTS_LONG_ONLY)
        return opts_usage_error(p, "unknown option '-%c'", optopt);
    /* optind has moved past an unknown or ambiguous long option. */
    if (prefix_matches(p, argv[optind - 1]) > 1)
        return opts_usage_error(p, "ambiguous option '%s'", argv[optind - 1]);
    return opts_usage_error(p, "unknown option '%s'", argv[optind - 1]);
}

/* apply() refused arg for row s, saying why in err.  Returns -EINVAL. */
static int bad_value(const struct opts_prog *p, const struct opts_spec *s, char **argv,
                     const char *arg, const char *err)
{
    char name[80];

    return opts_usage_error(p, "invalid value for %s: '%s'%s%s%s",
                            typed_name(s, argv, 1, name, sizeof(name)), arg, err[0] ? " (" : "",
                            err, err[0] ? ")" : "");
}

int opts_parse(const struct opts_prog *p, int argc, char **argv, void *cfg, int *operands)
{
    struct option longs[OPTS_MAX + 1];
    char shorts[2 * OPTS_MAX + 2];
    int action = OPTS_RUN, ch;

    assert(p->specs_len <= OPTS_MAX);
    build_getopt(p, longs, shorts);
    opterr = 0;
    optind = 0; /* 0, not 1: glibc and musl then reset their own state too */
    while ((ch = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        const struct opts_spec *s = ch == '?' || ch == ':' ? NULL : find_row(p, ch);
        char err[ERR_SIZE] = "";
        if (!s)
            return bad_option(p, ch, argv);
        if (s->kind == OPTS_HELP && action == OPTS_RUN)
            action = OPTS_SHOW_HELP;
        if (s->kind == OPTS_VERSION && action == OPTS_RUN)
            action = OPTS_SHOW_VERSION;
        if (apply(s, optarg, cfg, err, sizeof(err)) < 0)
            return bad_value(p, s, argv, optarg, err);
    }
    *operands = optind;
    return action;
}

/* ---------------------------------------------------------------- operands */

/* 1 when long option word ("--name", no "=") names a row that takes an
 * argument: its exact name, or the one row it is a prefix of. */
static int long_takes_arg(const struct opts_prog *p, const char *word)
{
    const struct opts_spec *hit = NULL;
    size_t len = strlen(word), hits = 0;

    for (size_t i = 0; i < p->specs_len; i++) {
        const struct opts_spec *s = &p->specs[i];
        if (!s->name || strncmp(s->name, word, len) != 0)
            continue;
        if (s->name[len] == '\0')
            return real_row(p, i)->arg != NULL && !real_row(p, i)->is_arg_optional;
        hits += hit != real_row(p, i); /* a row and its alias are one */
        hit = real_row(p, i);
    }
    return hits == 1 && hit->arg != NULL && !hit->is_arg_optional;
}

/* 1 when short option cluster word ("-vw", "-w4") leaves the next word as
 * the argument of its last letter. */
static int short_takes_next(const struct opts_prog *p, const char *word)
{
    for (const char *c = word + 1; *c; c++) {
        const struct opts_spec *s = find_row(p, (unsigned char)*c);
        if (s && s->arg)
            return c[1] == '\0'; /* else the rest of the word is its argument */
    }
    return 0;
}

int opts_first_operand(const struct opts_prog *p, int argc, char *const *argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || a[1] == '\0')
            return i;
        if (strcmp(a, "--") == 0)
            return i + 1;
        if (a[1] == '-' ? !strchr(a, '=') && long_takes_arg(p, a + 2) : short_takes_next(p, a))
            i++;
    }
    return argc;
}

/* ---------------------------------------------------------------- help */

/* Help text of one row from column col on, continuation lines indented. */
static void put_help(FILE *f, const char *help, int col)
{
    for (const char *nl; (nl = strchr(help, '\n')); help = nl + 1)
        fprintf(f, "%.*s\n%*s", (int)(nl - help), help, col, "");
    fprintf(f, "%s\n", help);
}

static void put_row(FILE *f, const struct opts_spec *s, int has_short, int col)
{
    int len;

    if (s->short_name)
        len = fprintf(f, "  -%c, --%s", s->short_name, s->name);
    else
        len = fprintf(f, "  %s--%s", has_short ? "    " : "", s->name);
    if (s->arg)
        len += fprintf(f, s->is_arg_optional ? "[=%s]" : " %s", s->arg);
    if (!s->help) {
        fputc('\n', f);
        return;
    }
    if (len + 2 > col) { /* too long: the help goes on the next line */
        fputc('\n', f);
        len = 0;
    }
    fprintf(f, "%*s", col - len, "");
    put_help(f, s->help, col);
}

void opts_help(const struct opts_prog *p, FILE *f)
{
    int has_short = 0;

    for (size_t i = 0; i < p->specs_len; i++)
        has_short |= p->specs[i].short_name != 0;
    fputs(p->usage, f);
    for (size_t i = 0; i < p->specs_len; i++) {
        if (p->specs[i].kind == OPTS_SECTION)
            fprintf(f, "\n%s\n", p->specs[i].help);
        else if (!p->specs[i].is_alias) /* the row before says it */
            put_row(f, &p->specs[i], has_short, p->help_column);
    }
    if (p->footer)
        fputs(p->footer, f);
}

/* ---------------------------------------------------------------- config files */

/* The row whose long name is key[0..len), for a config file. */
static const struct opts_spec *find_long(const struct opts_prog *p, const char *key, size_t len)
{
    for (size_t i = 0; i < p->specs_len; i++) {
        const struct opts_spec *s = &p->specs[i];
        if (s->name && !s->is_alias && strlen(s->name) == len && memcmp(s->name, key, len) == 0 &&
            s->kind != OPTS_HELP && s->kind != OPTS_VERSION)
            return s;
    }
    return NULL;
}

static char *trim(char *s)
{
    char *end = s + strlen(s);

    while (*s == ' ' || *s == '\t')
        s++;
    while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n' || end[-1] == '\r'))
        *--end = '\0';
    return s;
}

/* One "key = value" line into "--key=value" (or "--key" for a flag set to
 * yes, true or 1; nothing for a flag set to no, false or 0), with its row in
 * *row and where the value starts in the word in *value (NULL for a flag).
 * Returns 1 when *out was made, 0 for nothing, or -EINVAL with err set. */
static int config_line(const struct opts_prog *p, char *line, char **out,
                       const struct opts_spec **row, const char **value_at, char *err, size_t size)
{
    char *eq = strchr(line, '='), *key = line, *value = eq ? eq + 1 : (char *)"";
    const struct opts_spec *s;

    if (eq)
        *eq = '\0';
    key = trim(key);
    value = trim(value);
    s = find_long(p, key, strlen(key));
    if (!s) {
        snprintf(err, size, "unknown option '%s'", key);
        return -EINVAL;
    }
    if (!s->arg) {
        if (!*value || !strcmp(value, "yes") || !strcmp(value, "true") || !strcmp(value, "1"))
            value = NULL;
        else if (!strcmp(value, "no") || !strcmp(value, "false") || !strcmp(value, "0"))
            return 0;
        else {
            snprintf(err, size, "option '%s' is yes or no, not '%s'", key, value);
            return -EINVAL;
        }
    } else if (!*value && s->is_arg_optional) {
        value = NULL; /* "key =" or "key": the row without its argument */
    } else if (!*value) {
        snprintf(err, size, "option '%s' needs a value", key);
        return -EINVAL;
    }
    size_t len = strlen(key) + (value ? strlen(value) + 1 : 0) + 3;
    *out = malloc(len);
    if (!*out)
        return -ENOMEM;
    snprintf(*out, len, value ? "--%s=%s" : "--%s", key, value ? value : "");
    *row = s;
    *value_at = value ? *out + strlen(key) + 3 : NULL;
    return 1;
}

/* Apply a config word's row to cfg as the command line would.  Returns 0
 * or -EINVAL with "invalid value for 'key': 'value' (want ...)" in err. */
static int config_apply(const struct opts_spec *s, const char *value, void *cfg, char *err,
                        size_t size)
{
    char why[ERR_SIZE] = "";

    if (apply(s, value, cfg, why, sizeof(why)) == 0)
        return 0;
    snprintf(err, size, "invalid value for '%s': '%s'%s%s%s", s->name, value ? value : "",
             why[0] ? " (" : "", why, why[0] ? ")" : "");
    return -EINVAL;
}

/* Append word to *args (which grows by one).  Returns 0 or -ENOMEM (word
 * is freed then). */
static int config_keep(char ***args, int *len, char *word)
{
    char **grown = realloc(*args, (size_t)(*len + 1) * sizeof(*grown));

    if (!grown) {
        free(word);
        return -ENOMEM;
    }
    *args = grown;
    (*args)[(*len)++] = word;
    return 0;
}

/* Read path line by line into words; with cfg, apply each to it as well.
 * See opts_config_load() and opts_config_apply(). */
static int config_read(const struct opts_prog *p, const char *path, void *cfg, char ***args,
                       int *len, char *err, size_t err_size)
{
    char line[1024], why[256];
    unsigned line_no = 0;
    int rc = 0;
    FILE *f = fopen(path, "r");

    *args = NULL;
    *len = 0;
    if (!f) {
        rc = -errno;
        snprintf(err, err_size, "%s: %s", path, strerror(errno));
        return rc;
    }
    while (rc == 0 && fgets(line, sizeof(line), f)) {
        char *l = trim(line), *word = NULL;
        const struct opts_spec *row = NULL;
        const char *value = NULL;
        line_no++;
        if (!*l || *l == '#')
            continue;
        rc = config_line(p, l, &word, &row, &value, why, sizeof(why));
        if (rc == 1 && cfg && config_apply(row, value, cfg, why, sizeof(why)) < 0) {
            free(word);
            rc = -EINVAL;
        }
        if (rc == -ENOMEM)
            snprintf(err, err_size, "%s: out of memory", path);
        else if (rc < 0)
            snprintf(err, err_size, "%s:%u: %s", path, line_no, why);
        if (rc <= 0)
            continue;
        rc = config_keep(args, len, word);
        if (rc < 0)
            snprintf(err, err_size, "%s: out of memory", path);
    }
    fclose(f);
    if (rc < 0) {
        opts_config_free(*args, *len);
        *args = NULL;
        *len = 0;
    }
    return rc;
}

int opts_config_load(const struct opts_prog *p, const char *path, char ***args, int *len, char *err,
                     size_t err_size)
{
    return config_read(p, path, NULL, args, len, err, err_size);
}

int opts_config_apply(const struct opts_prog *p, const char *path, void *cfg, char ***args,
                      int *len, char *err, size_t err_size)
{
    return config_read(p, path, cfg, args, len, err, err_size);
}

void opts_config_free(char **args, int len)
{
    for (int i = 0; i < len; i++)
        free(args[i]);
    free(args);
}
