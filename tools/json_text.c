/* cudafilters tool: JSON text of a json-glib node, numbers written short. */
#include "json_text.h"

#include <math.h>

static void write_node(GString *s, JsonNode *node);

/* JSON text is UTF-8, and a file name need not be (a Latin-1 'caf\xe9.mp4'):
 * each byte that does not begin a valid UTF-8 sequence is written as
 * U+FFFD, so the line stays readable by every JSON parser (json-glib's,
 * which batch reads its children's summaries with, refuses it otherwise). */
static void write_string(GString *s, const char *str)
{
    g_string_append_c(s, '"');
    for (const unsigned char *p = (const unsigned char *)str; *p; p++) {
        if (*p >= 0x80) {
            /* One character: valid (copied) or not (U+FFFD for its first byte). */
            gunichar c = g_utf8_get_char_validated((const gchar *)p, -1);
            if (c == (gunichar)-1 || c == (gunichar)-2) {
                g_string_append(s, "\\ufffd");
                continue;
            }
            int n = g_unichar_to_utf8(c, NULL);
            g_string_append_len(s, (const gchar *)p, n);
            p += n - 1;
            continue;
        }
        switch (*p) {
        case '"': g_string_append(s, "\\\""); break;
        case '\\': g_string_append(s, "\\\\"); break;
        case '\b': g_string_append(s, "\\b"); break;
        case '\f': g_string_append(s, "\\f"); break;
        case '\n': g_string_append(s, "\\n"); break;
        case '\r': g_string_append(s, "\\r"); break;
        case '\t': g_string_append(s, "\\t"); break;
        default:
            if (*p < 0x20)
                g_string_append_printf(s, "\\u%04x", *p);
            else
                g_string_append_c(s, (char)*p);
        }
    }
    g_string_append_c(s, '"');
}

/* The shortest of %.1g .. %.17g that reads back as `v` (17 always does). */
static void write_double(GString *s, double v)
{
    if (!isfinite(v)) {
        g_string_append(s, "null");
        return;
    }
    char buf[G_ASCII_DTOSTR_BUF_SIZE], fmt[8];
    for (int digits = 1; digits <= 17; digits++) {
        g_snprintf(fmt, sizeof fmt, "%%.%dg", digits);
        g_ascii_formatd(buf, sizeof buf, fmt, v);
        if (g_ascii_strtod(buf, NULL) == v)
            break;
    }
    g_string_append(s, buf);
}

static void write_value(GString *s, JsonNode *node)
{
    GType type = json_node_get_value_type(node);
    if (type == G_TYPE_INT64)
        g_string_append_printf(s, "%" G_GINT64_FORMAT, json_node_get_int(node));
    else if (type == G_TYPE_DOUBLE)
        write_double(s, json_node_get_double(node));
    else if (type == G_TYPE_BOOLEAN)
        g_string_append(s, json_node_get_boolean(node) ? "true" : "false");
    else
        write_string(s, json_node_get_string(node) ? json_node_get_string(node) : "");
}

static void write_object(GString *s, JsonObject *o)
{
    g_string_append_c(s, '{');
    GList *members = json_object_get_members(o);
    for (GList *m = members; m; m = m->next) {
        if (m != members)
            g_string_append_c(s, ',');
        write_string(s, m->data);
        g_string_append_c(s, ':');
        write_node(s, json_object_get_member(o, m->data));
    }
    g_list_free(members);
    g_string_append_c(s, '}');
}

static void write_node(GString *s, JsonNode *node)
{
    switch (node ? json_node_get_node_type(node) : JSON_NODE_NULL) {
    case JSON_NODE_OBJECT:
        write_object(s, json_node_get_object(node));
        break;
    case JSON_NODE_ARRAY: {
        JsonArray *a = json_node_get_array(node);
        g_string_append_c(s, '[');
        for (guint i = 0; i < json_array_get_length(a); i++) {
            if (i)
                g_string_append_c(s, ',');
            write_node(s, json_array_get_element(a, i));
        }
        g_string_append_c(s, ']');
        break;
    }
    case JSON_NODE_VALUE:
        write_value(s, node);
        break;
    case JSON_NODE_NULL:
        g_string_append(s, "null");
        break;
    }
}

char *cli_json_text(JsonNode *node)
{
    GString *s = g_string_new(NULL);
    write_node(s, node);
    return g_string_free(s, FALSE);
}
