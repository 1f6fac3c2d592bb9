/* cudafilters tool: the `filters` and `devices` commands. */
#include "info.h"

#include <stdio.h>
#include <string.h>

#include <cudafilters/cudafilters.h>
#include <glib.h>

#include "gpu.h"
#include "util.h"

#define WRAP 78

/* Prints `text` word-wrapped at WRAP columns, every line indented. */
static void print_wrapped(const char *text, int indent)
{
    int col = 0;
    const char *p = text;
    while (*p) {
        size_t word = strcspn(p, " ");
        if (col > indent && col + 1 + (int)word > WRAP) {
            putchar('\n');
            col = 0;
        }
        if (col == 0)
            col = printf("%*s", indent, "");
        else
            col += printf(" ");
        col += printf("%.*s", (int)word, p);
        p += word;
        p += strspn(p, " ");
    }
    putchar('\n');
}

static const char *type_name(cf_param_type t)
{
    return t == CF_PARAM_DOUBLE ? "double" : t == CF_PARAM_INT ? "int" : "enum";
}

/* "double, 0.01 to 128 pixels; default 1" or "enum: a, b, c; default a". */
static char *describe_value(const cf_param_desc *p)
{
    GString *s = g_string_new(type_name(p->type));
    if (p->type == CF_PARAM_ENUM) {
        g_string_append(s, ":");
        for (int c = 0; p->choices && p->choices[c]; c++)
            g_string_append_printf(s, "%s %s", c ? "," : "", p->choices[c]);
        g_string_append_printf(s, "; default %s", p->choices[(int)p->default_value]);
    } else {
        g_string_append_printf(s, ", %g to %g%s%s; default %g", p->min, p->max,
                               p->unit[0] ? " " : "", p->unit, p->default_value);
    }
    if (p->role != CF_PARAM_ROLE_NONE && p->role != CF_PARAM_ROLE_OUTPUT_FORMAT)
        g_string_append(s, "; set from the stream");
    return g_string_free(s, FALSE);
}

static void print_filter_text(const cf_filter_desc *d)
{
    printf("\n%s: %s\n", d->name, d->summary);
    print_wrapped(d->description, 2);
    printf("  Input formats:");
    for (int i = 0; i < d->n_formats; i++)
        printf(" %s", cf_format_name(d->formats[i]));
    printf("\n  Parameters:\n");
    for (int i = 0; i < d->n_params; i++) {
        const cf_param_desc *p = &d->params[i];
        char *value = describe_value(p);
        printf("    %-14s %s\n", p->name, value);
        g_free(value);
        print_wrapped(p->summary, 19);
        if (p->role == CF_PARAM_ROLE_COLOR_RANGE)
            print_wrapped("(the command line sets it from the decoded video's colour range)", 19);
        if (p->role == CF_PARAM_ROLE_COLOR_MATRIX || p->role == CF_PARAM_ROLE_CHROMA_SITE)
            print_wrapped("(the command line sets it from the decoded video's colour description)",
                          19);
    }
}

static void param_json(JsonBuilder *b, const cf_param_desc *p)
{
    json_builder_begin_object(b);
    cli_json_set_string(b, "name", p->name);
    cli_json_set_string(b, "type", type_name(p->type));
    if (p->type == CF_PARAM_ENUM) {
        json_builder_begin_array(json_builder_set_member_name(b, "choices"));
        for (int c = 0; p->choices && p->choices[c]; c++)
            json_builder_add_string_value(b, p->choices[c]);
        json_builder_end_array(b);
        cli_json_set_string(b, "default", p->choices[(int)p->default_value]);
    } else {
        /* Parameters have a few decimals at most (sigma's 0.01). */
        cli_json_set_number(b, "min", p->min, 6);
        cli_json_set_number(b, "max", p->max, 6);
        cli_json_set_number(b, "default", p->default_value, 6);
    }
    cli_json_set_string(b, "unit", p->unit);
    cli_json_set_string(b, "summary", p->summary);
    json_builder_add_boolean_value(json_builder_set_member_name(b, "set_from_stream"),
                                   p->role != CF_PARAM_ROLE_NONE &&
                                       p->role != CF_PARAM_ROLE_OUTPUT_FORMAT);
    json_builder_end_object(b);
}

static void filter_json(JsonBuilder *b, const cf_filter_desc *d)
{
    json_builder_begin_object(b);
    cli_json_set_string(b, "name", d->name);
    cli_json_set_string(b, "summary", d->summary);
    cli_json_set_string(b, "description", d->description);
    json_builder_begin_array(json_builder_set_member_name(b, "formats"));
    for (int i = 0; i < d->n_formats; i++)
        json_builder_add_string_value(b, cf_format_name(d->formats[i]));
    json_builder_end_array(b);
    json_builder_begin_array(json_builder_set_member_name(b, "params"));
    for (int i = 0; i < d->n_params; i++)
        param_json(b, &d->params[i]);
    json_builder_end_array(b);
    json_builder_end_object(b);
}

int cli_print_filters(bool json)
{
    int n = cf_filter_registry_count();
    if (json) {
        JsonBuilder *b = json_builder_new();
        json_builder_begin_object(b);
        json_builder_begin_array(json_builder_set_member_name(b, "filters"));
        for (int i = 0; i < n; i++)
            filter_json(b, cf_filter_registry_get(i));
        json_builder_end_array(b);
        json_builder_end_object(b);
        char *text = cli_json_finish(b);
        puts(text);
        g_free(text);
        return 0;
    }
    printf("Filters for --vf \"NAME[=PARAM=VALUE[:PARAM=VALUE...]][,NAME...]\", "
           "e.g. --vf \"gray,blur=sigma=2\".\n"
           "A bare value fills the next parameter in the order listed (\"blur=2\").\n");
    for (int i = 0; i < n; i++)
        print_filter_text(cf_filter_registry_get(i));
    return 0;
}

static void device_line(const cf_device_info *info, const cli_gpu *gpu, JsonBuilder *json)
{
    double gib = (double)info->total_memory / (1024.0 * 1024.0 * 1024.0);
    if (!json) {
        printf("  %d: %s, %.1f GiB, compute capability %d.%d, %d multiprocessors\n",
               info->index, info->name, gib, info->compute_major, info->compute_minor,
               info->multiprocessors);
        printf("     NVDEC decoding through FFmpeg: %s%s\n", gpu->hw_device ? "yes" : "no: ",
               gpu->hw_device ? "" : gpu->hw_error);
        return;
    }
    json_builder_begin_object(json);
    json_builder_add_int_value(json_builder_set_member_name(json, "index"), info->index);
    cli_json_set_string(json, "name", info->name);
    json_builder_add_int_value(json_builder_set_member_name(json, "memory_bytes"),
                               (gint64)info->total_memory);
    char cc[16];
    snprintf(cc, sizeof cc, "%d.%d", info->compute_major, info->compute_minor);
    cli_json_set_string(json, "compute_capability", cc);
    json_builder_add_int_value(json_builder_set_member_name(json, "multiprocessors"),
                               info->multiprocessors);
    json_builder_add_boolean_value(json_builder_set_member_name(json, "nvdec"),
                                   gpu->hw_device != NULL);
    json_builder_end_object(json);
}

int cli_print_devices(bool json)
{
    const char *reason = "";
    int n = cli_gpu_count(&reason);
    JsonBuilder *out = json ? json_builder_new() : NULL;
    if (json) {
        json_builder_begin_object(out);
        json_builder_add_boolean_value(json_builder_set_member_name(out, "cuda_build"),
                                       cf_have_cuda());
        cli_json_set_string(out, "no_gpu_reason", n ? NULL : reason);
        json_builder_begin_array(json_builder_set_member_name(out, "devices"));
    } else if (n == 0) {
        printf("No GPU: %s.\ncudafilters runs its filters on the CPU.\n", reason);
    } else {
        printf("CUDA devices: %d\n", n);
    }
    for (int i = 0; i < n; i++) {
        cf_device_info info;
        cli_gpu gpu;
        cli_gpu_open(&gpu, i); /* before anything else makes the context current */
        if (cf_device_get_info(i, &info) == CF_OK)
            device_line(&info, &gpu, out);
        else if (!json)
            printf("  %d: %s\n", i, cf_last_error());
        cli_gpu_close(&gpu);
    }
    if (json) {
        json_builder_end_array(out);
        json_builder_end_object(out);
        char *text = cli_json_finish(out);
        puts(text);
        g_free(text);
    }
    return 0;
}
