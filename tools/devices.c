/* cudafilters tool: which GPUs a command uses and which one runs each file. */
#include "devices.h"

#include <stdbool.h>
#include <string.h>

#include <glib.h>

static bool parse_ordinal(const char *s, int count, const char *reason, const char *takes,
                          int *out, char **msg)
{
    guint64 v = 0;
    if (!(s[0] >= '0' && s[0] <= '9') || !g_ascii_string_to_unsigned(s, 10, 0, 1024, &v, NULL)) {
        *msg = g_strdup_printf("'%s' is not a GPU ordinal (0, 1, ...)%s%s", s, takes ? "; " : "",
                               takes ? takes : "");
        return false;
    }
    if ((int)v >= count) {
        *msg = count ? g_strdup_printf("GPU %d does not exist (this machine has %d: 0..%d)",
                                       (int)v, count, count - 1)
                     : g_strdup_printf("GPU %d: no GPU (%s)", (int)v, reason);
        return false;
    }
    *out = (int)v;
    return true;
}

int cli_devices_parse(const char *spec, int count, const char *no_gpu_reason, const char *takes,
                      int *ords, int max, char **msg)
{
    if (!strcmp(spec, "cpu"))
        return 0;
    if (!strcmp(spec, "gpu")) { /* "a GPU", as users say it: the first, and there must be one */
        if (count == 0) {
            *msg = g_strdup_printf("no GPU (%s)", no_gpu_reason);
            return -1;
        }
        ords[0] = 0;
        return max > 0 ? 1 : 0;
    }
    if (!strcmp(spec, "all")) {
        int n = count < max ? count : max;
        for (int i = 0; i < n; i++)
            ords[i] = i;
        return n;
    }
    char **parts = g_strsplit(spec, ",", -1);
    int n = 0;
    for (int i = 0; parts[i] && !*msg; i++) {
        int ord = -1;
        if (!parse_ordinal(g_strstrip(parts[i]), count, no_gpu_reason, takes, &ord, msg))
            break;
        for (int k = 0; k < n; k++)
            if (ords[k] == ord)
                *msg = g_strdup_printf("GPU %d is listed twice in '%s'", ord, spec);
        if (!*msg && n == max)
            *msg = g_strdup_printf("'%s' lists more than %d GPUs", spec, max);
        if (!*msg)
            ords[n++] = ord;
    }
    g_strfreev(parts);
    return *msg ? -1 : n;
}

int cli_devices_pick(const int *load, int n)
{
    int best = 0;
    for (int i = 1; i < n; i++)
        if (load[i] < load[best])
            best = i;
    return best;
}
