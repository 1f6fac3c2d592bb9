/* cudafilters tool: the few JSON helpers --json needs (GString based). */
#ifndef CLI_JSON_H
#define CLI_JSON_H

#include <glib.h>

/* Appends `s` as a JSON string literal (NULL: null). Bytes are copied as
 * they are except quotes, backslashes and control characters. */
void cli_json_string(GString *out, const char *s);

/* Appends `"key": ` then the value. Numbers are printed with %.6g (doubles)
 * or as integers. */
void cli_json_key(GString *out, const char *key);
void cli_json_kv_string(GString *out, const char *key, const char *value);
void cli_json_kv_int(GString *out, const char *key, gint64 value);
void cli_json_kv_double(GString *out, const char *key, double value);
void cli_json_kv_bool(GString *out, const char *key, gboolean value);

#endif
