/* Numbers in filter strings and parameter strings, read the same in every
 * locale. */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

static locale_t c_numeric;
static pthread_once_t c_numeric_once = PTHREAD_ONCE_INIT;

static void make_c_numeric(void)
{
    c_numeric = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
}

static size_t skip_digits(const char *s)
{
    size_t n = 0;
    while (s[n] >= '0' && s[n] <= '9')
        n++;
    return n;
}

/* True for a plain decimal number: an optional '-', digits with an
 * optional '.' (digits on at least one side), an optional exponent. No '+',
 * no hexadecimal, no inf or nan, nothing around it: what a user writes in a
 * filter string, read the same in every locale. */
static bool is_decimal(const char *s)
{
    s += *s == '-';
    size_t whole = skip_digits(s), frac = 0;
    s += whole;
    if (*s == '.') {
        frac = skip_digits(s + 1);
        s += 1 + frac;
    }
    if (whole + frac == 0)
        return false;
    if (*s == 'e' || *s == 'E') {
        s++;
        s += *s == '-' || *s == '+';
        size_t exp = skip_digits(s);
        if (exp == 0)
            return false;
        s += exp;
    }
    return *s == '\0';
}

/* strtod in the "C" locale of this thread alone, whatever locale the
 * application chose (setlocale would change every thread's). */
cf_number_result cf_parse_number(const char *text, double *value)
{
    if (!is_decimal(text))
        return CF_NUMBER_MALFORMED;
    pthread_once(&c_numeric_once, make_c_numeric);
    if (c_numeric == (locale_t)0)
        return CF_NUMBER_NO_MEMORY;
    locale_t previous = uselocale(c_numeric);
    errno = 0;
    double v = strtod(text, NULL);
    int e = errno;
    uselocale(previous);
    /* ERANGE also flags an underflow (1e-400), whose nearest double is fine. */
    if (e == ERANGE && isinf(v))
        return CF_NUMBER_OUT_OF_RANGE;
    *value = v == 0 ? 0 : v;
    return CF_NUMBER_OK;
}

/* The first %g form of v, from 6 significant digits up to 17, that reads
 * back as v, in the "C" locale as cf_parse_number reads: a value just past
 * a bound never prints as the bound (128.0000001, where "%g" gives 128).
 * Not always the shortest form (1e-320 prints as 9.99989e-321). Returns
 * buf; "?" if the locale cannot be made. */
const char *cf_format_number(char buf[CF_NUMBER_CHARS], double v)
{
    pthread_once(&c_numeric_once, make_c_numeric);
    if (c_numeric == (locale_t)0) {
        snprintf(buf, CF_NUMBER_CHARS, "?");
        return buf;
    }
    locale_t previous = uselocale(c_numeric);
    for (int digits = 6; digits <= 17; digits++) {
        snprintf(buf, CF_NUMBER_CHARS, "%.*g", digits, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    uselocale(previous);
    return buf;
}
