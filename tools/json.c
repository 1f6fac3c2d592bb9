/* cudafilters tool: the few JSON helpers --json needs (GString based). */
#include "json.h"

void cli_json_string(GString *out, const char *s)
{
    if (!s) {
        g_string_append(out, "null");
        return;
    }
    g_string_append_c(out, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            g_string_append_printf(out, "\\%c", *p);
        else if (*p == '\n')
            g_string_append(out, "\\n");
        else if (*p < 0x20)
            g_string_append_printf(out, "\\u%04x", *p);
        else
            g_string_append_c(out, (char)*p);
    }
    g_string_append_c(out, '"');
}

void cli_json_key(GString *out, const char *key)
{
    cli_json_string(out, key);
    g_string_append(out, ": ");
}

void cli_json_kv_string(GString *out, const char *key, const char *value)
{
    cli_json_key(out, key);
    cli_json_string(out, value);
}

void cli_json_kv_int(GString *out, const char *key, gint64 value)
{
    cli_json_key(out, key);
    g_string_append_printf(out, "%" G_GINT64_FORMAT, value);
}

void cli_json_kv_double(GString *out, const char *key, double value)
{
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    cli_json_key(out, key);
    /* Locale-independent, so a decimal comma never breaks the JSON. */
    g_string_append(out, g_ascii_formatd(buf, sizeof buf, "%.6g", value));
}

void cli_json_kv_bool(GString *out, const char *key, gboolean value)
{
    cli_json_key(out, key);
    g_string_append(out, value ? "true" : "false");
}
