/* libFuzzer target: cf_chain_parse on any bytes.
 *
 * Beyond not crashing, what a parsed or refused string must satisfy:
 * a refusal has a message, and its "at character N" lies inside the string;
 * every value parsed is within its parameter's range and never -0; and the
 * chain printed back with exact values parses to the same values. A broken
 * promise aborts, which libFuzzer reports like a crash. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cudafilters/cudafilters.h>

#define REQUIRE(cond)                                                                    \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "fuzz_filter_string: %s broken (message: %s)\n", #cond,     \
                    cf_last_error());                                                    \
            abort();                                                                     \
        }                                                                                \
    } while (0)

/* A refusal has a message; the position the parser appends at its end
 * ("... at character N" or "(value '...' at character N)") lies inside the
 * string. (Quoted tokens may hold those words too: only the last counts.) */
static void check_refusal(size_t len)
{
    const char *msg = cf_last_error(), *last = NULL;
    REQUIRE(msg[0] != '\0');
    for (const char *at = strstr(msg, "at character "); at; at = strstr(at + 1, "at character "))
        last = at;
    if (!last)
        return;
    char *end = NULL;
    unsigned long pos = strtoul(last + 13, &end, 10);
    if (end != last + 13 && (!strcmp(end, "") || !strcmp(end, ")")))
        REQUIRE(pos >= 1 && pos <= len + 1);
}

/* Prints the chain with every parameter at its exact value (caller frees). */
static char *print_chain(const cf_chain *chain)
{
    char *s = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&s, &len);
    REQUIRE(out != NULL);
    for (int i = 0; i < cf_chain_length(chain); i++) {
        const cf_filter *f = cf_chain_get(chain, i);
        const cf_filter_desc *d = cf_filter_get_desc(f);
        fprintf(out, "%s%s", i ? "," : "", d->name);
        for (int p = 0; p < d->n_params; p++) {
            const cf_param_desc *param = &d->params[p];
            double v = 0;
            REQUIRE(cf_filter_get_double(f, param->name, &v) == CF_OK);
            REQUIRE(v >= param->min && !(v == 0 && signbit(v)));
            REQUIRE(param->type == CF_PARAM_ENUM || v <= param->max);
            if (param->type == CF_PARAM_ENUM)
                fprintf(out, "%s%s=%s", p ? ":" : "=", param->name, param->choices[(int)v]);
            else
                fprintf(out, "%s%s=%.17g", p ? ":" : "=", param->name, v);
        }
    }
    REQUIRE(fclose(out) == 0);
    return s;
}

static void check_round_trip(const cf_chain *chain)
{
    char *printed = print_chain(chain);
    cf_chain *again = cf_chain_parse(printed);
    REQUIRE(again != NULL);
    REQUIRE(cf_chain_length(again) == cf_chain_length(chain));
    char *printed_again = print_chain(again);
    REQUIRE(strcmp(printed, printed_again) == 0);
    free(printed_again);
    free(printed);
    cf_chain_free(&again);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0'; /* a NUL inside ends the string, as for any C caller */
    cf_chain *chain = cf_chain_parse(text);
    if (chain) {
        REQUIRE(cf_chain_length(chain) >= 1);
        check_round_trip(chain);
        cf_chain_free(&chain);
        REQUIRE(chain == NULL);
    } else {
        check_refusal(strlen(text));
    }
    free(text);
    return 0;
}
