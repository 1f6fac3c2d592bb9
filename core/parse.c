/* The FFmpeg-style filter-string parser (grammar in filter.h). Errors name
 * the bad token and its 1-based character position in the whole string. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct cf_chain {
    cf_filter **filters;
    int n;
};

typedef struct token {
    const char *start; /* not NUL-terminated */
    size_t len;
    size_t pos;        /* 0-based offset in the whole string */
} token;

static token trim(const char *base, const char *start, size_t len)
{
    while (len && isspace((unsigned char)*start)) start++, len--;
    while (len && isspace((unsigned char)start[len - 1])) len--;
    return (token){ start, len, (size_t)(start - base) };
}

/* Splits [start, start+len) at the first `sep` outside nothing (no quoting in
 * this grammar): returns the length before it, or len if absent. */
static size_t span_until(const char *start, size_t len, char sep)
{
    const char *hit = memchr(start, sep, len);
    return hit ? (size_t)(hit - start) : len;
}

static char *dup_token(token t)
{
    char *s = malloc(t.len + 1);
    if (s) {
        memcpy(s, t.start, t.len);
        s[t.len] = '\0';
    }
    return s;
}

/* Sets one option of a filter the string names once: a second value for
 * the same parameter (sigma=2:sigma=3, or 2:sigma=3) is refused rather than
 * silently winning. `at` is where the option starts, `value` its value. */
static cf_status set_option(cf_filter *f, const char *name, const char *v, token at, token value)
{
    const char *filter = cf_filter_get_desc(f)->name;
    if (cf_filter_param_is_set(f, name))
        return cf_set_error(CF_ERROR_PARSE, "%s: option '%s' given twice, again at character %zu",
                            filter, name, at.pos + 1);
    cf_status st = cf_filter_set_string(f, name, v);
    if (st == CF_OK)
        return CF_OK;
    /* Keep the filter's message, add where the token is (cf_set_error takes
     * arguments from the message it replaces). */
    return cf_set_error(st == CF_ERROR_OUT_OF_MEMORY ? st : CF_ERROR_PARSE,
                        "%s (value '%s' at character %zu)", cf_last_error(), v, value.pos + 1);
}

static cf_status parse_option(const char *base, cf_filter *f, token opt, int *next_positional)
{
    const cf_filter_desc *desc = cf_filter_get_desc(f);
    size_t eq = span_until(opt.start, opt.len, '=');
    token key = { NULL, 0, opt.pos }, value = opt;
    if (eq < opt.len) {
        key = trim(base, opt.start, eq);
        value = trim(base, opt.start + eq + 1, opt.len - eq - 1);
    }
    if (value.len == 0 && key.start && key.len > 0) /* where the value would start */
        return cf_set_error(CF_ERROR_PARSE, "%s: empty option value for '%.*s' at character %zu",
                            desc->name, (int)key.len, key.start, opt.pos + eq + 2);
    if (value.len == 0)
        return cf_set_error(CF_ERROR_PARSE, "%s: empty option value at character %zu", desc->name,
                            opt.pos + 1);
    char *k = key.start ? dup_token(key) : NULL;
    char *v = dup_token(value);
    cf_status st = CF_OK;
    if (!v || (key.start && !k)) {
        st = cf_set_error(CF_ERROR_OUT_OF_MEMORY, "filter string: out of memory");
    } else if (key.start && cf_filter_desc_find_param(desc, k) < 0) {
        st = cf_set_error(CF_ERROR_PARSE, "%s: unknown option '%s' at character %zu", desc->name,
                          k, key.pos + 1);
    } else if (!key.start && *next_positional >= desc->n_params) {
        st = cf_set_error(CF_ERROR_PARSE, "%s: unexpected value '%s' at character %zu", desc->name,
                          v, value.pos + 1);
    } else {
        const char *name = key.start ? k : desc->params[*next_positional].name;
        st = set_option(f, name, v, key.start ? key : value, value);
        if (st == CF_OK)
            *next_positional = cf_filter_desc_find_param(desc, name) + 1;
    }
    free(k);
    free(v);
    return st;
}

static cf_status parse_filter(const char *base, token t, cf_filter **out)
{
    *out = NULL;
    size_t eq = span_until(t.start, t.len, '=');
    token name = trim(base, t.start, eq);
    if (name.len == 0)
        return cf_set_error(CF_ERROR_PARSE, "missing filter name at character %zu", t.pos + 1);
    char *n = dup_token(name);
    if (!n)
        return cf_set_error(CF_ERROR_OUT_OF_MEMORY, "filter string: out of memory");
    cf_filter *f = cf_filter_new(n);
    if (!f) {
        cf_set_error(CF_ERROR_PARSE, "unknown filter '%s' at character %zu", n, name.pos + 1);
        free(n);
        return CF_ERROR_PARSE;
    }
    free(n);
    int positional = 0;
    const char *p = t.start + eq + 1, *end = t.start + t.len;
    while (eq < t.len && p <= end) {
        size_t len = span_until(p, (size_t)(end - p), ':');
        cf_status st = parse_option(base, f, trim(base, p, len), &positional);
        if (st != CF_OK) {
            cf_filter_free(&f);
            return st;
        }
        p += len + 1;
    }
    *out = f;
    return CF_OK;
}

cf_chain *cf_chain_parse(const char *description)
{
    if (!description) {
        cf_set_error(CF_ERROR_INVALID_ARGUMENT, "filter string is NULL");
        return NULL;
    }
    cf_chain *chain = calloc(1, sizeof *chain);
    if (!chain) {
        cf_set_error(CF_ERROR_OUT_OF_MEMORY, "filter string: out of memory");
        return NULL;
    }
    const char *p = description, *end = description + strlen(description);
    if (trim(description, p, (size_t)(end - p)).len == 0) {
        cf_set_error(CF_ERROR_PARSE, "empty filter string");
        cf_chain_free(&chain);
        return NULL;
    }
    while (p <= end) {
        size_t len = span_until(p, (size_t)(end - p), ',');
        cf_filter **grown = realloc(chain->filters, (size_t)(chain->n + 1) * sizeof *grown);
        if (!grown) {
            cf_set_error(CF_ERROR_OUT_OF_MEMORY, "filter string: out of memory");
            cf_chain_free(&chain);
            return NULL;
        }
        chain->filters = grown;
        if (parse_filter(description, trim(description, p, len), &chain->filters[chain->n]) !=
            CF_OK) {
            cf_chain_free(&chain);
            return NULL;
        }
        chain->n++;
        p += len + 1;
    }
    return chain;
}

void cf_chain_free(cf_chain **chain)
{
    if (!chain || !*chain)
        return;
    for (int i = 0; i < (*chain)->n; i++)
        cf_filter_free(&(*chain)->filters[i]);
    free((*chain)->filters);
    free(*chain);
    *chain = NULL;
}

int cf_chain_length(const cf_chain *chain)
{
    return chain ? chain->n : 0;
}

cf_filter *cf_chain_get(const cf_chain *chain, int index)
{
    return chain && index >= 0 && index < chain->n ? chain->filters[index] : NULL;
}
