#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The registry table lives in kernels/filters.c: one line per filter. */
extern const cf_filter_desc *const cf_filter_table[];
extern const int cf_filter_table_size;

/* What a plan was made for: parameters (by their change count) and shapes. */
typedef struct plan_key {
    unsigned version;
    cf_format src, dst;
    int width, height;
    int out_width, out_height;
} plan_key;

struct cf_filter {
    const cf_filter_desc *desc;
    double *values; /* one per desc->params entry */
    bool *set;      /* one per desc->params entry: given a value by the user */
    unsigned version; /* counts parameter changes */
    void *plan;       /* desc->impl->plan_size bytes */
    bool plan_valid;
    plan_key plan_for;
    cf_scratch host_scratch, device_scratch;
};

int cf_filter_registry_count(void)
{
    return cf_filter_table_size;
}

const cf_filter_desc *cf_filter_registry_get(int index)
{
    return index >= 0 && index < cf_filter_table_size ? cf_filter_table[index] : NULL;
}

const cf_filter_desc *cf_filter_registry_find(const char *name)
{
    for (int i = 0; name && i < cf_filter_table_size; i++)
        if (strcmp(cf_filter_table[i]->name, name) == 0)
            return cf_filter_table[i];
    return NULL;
}

int cf_filter_desc_find_param(const cf_filter_desc *desc, const char *name)
{
    for (int i = 0; desc && name && i < desc->n_params; i++)
        if (strcmp(desc->params[i].name, name) == 0)
            return i;
    return -1;
}

bool cf_filter_desc_accepts(const cf_filter_desc *desc, cf_format format)
{
    for (int i = 0; desc && i < desc->n_formats; i++)
        if (desc->formats[i] == format)
            return true;
    return false;
}

cf_filter *cf_filter_new(const char *name)
{
    const cf_filter_desc *desc = cf_filter_registry_find(name);
    if (!desc) {
        cf_set_error(CF_ERROR_NOT_FOUND, "unknown filter '%s'", name ? name : "(null)");
        return NULL;
    }
    cf_filter *f = calloc(1, sizeof *f);
    double *values = calloc((size_t)desc->n_params + 1, sizeof *values);
    bool *set = calloc((size_t)desc->n_params + 1, sizeof *set);
    void *plan = calloc(1, desc->impl->plan_size ? desc->impl->plan_size : 1);
    if (!f || !values || !set || !plan) {
        free(f);
        free(values);
        free(set);
        free(plan);
        cf_set_error(CF_ERROR_OUT_OF_MEMORY, "cf_filter_new: out of memory");
        return NULL;
    }
    f->desc = desc;
    f->values = values;
    f->set = set;
    f->plan = plan;
    for (int i = 0; i < desc->n_params; i++)
        f->values[i] = desc->params[i].default_value;
    return f;
}

void cf_filter_release_scratch(cf_filter *filter)
{
    if (!filter)
        return;
    cf_scratch_release(&filter->host_scratch);
    cf_scratch_release(&filter->device_scratch);
}

cf_status cf_filter_set_cpu_threads(cf_filter *filter, int threads)
{
    if (!filter)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "cf_filter_set_cpu_threads: NULL filter");
    if (threads < 0 || threads > CF_MAX_CPU_THREADS)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT,
                            "%s: %d CPU threads: must be 0 (all cores) to %d",
                            filter->desc->name, threads, CF_MAX_CPU_THREADS);
    filter->host_scratch.threads = threads;
    return CF_OK;
}

int cf_filter_get_cpu_threads(const cf_filter *filter)
{
    return filter ? filter->host_scratch.threads : 0;
}

void cf_filter_free(cf_filter **filter)
{
    if (!filter || !*filter)
        return;
    cf_filter_release_scratch(*filter);
    if ((*filter)->desc->impl->free_plan)
        (*filter)->desc->impl->free_plan((*filter)->plan);
    free((*filter)->values);
    free((*filter)->set);
    free((*filter)->plan);
    free(*filter);
    *filter = NULL;
}

const cf_filter_desc *cf_filter_get_desc(const cf_filter *filter)
{
    return filter ? filter->desc : NULL;
}

static cf_status find_param(const cf_filter *filter, const char *param, int *index)
{
    if (!filter)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "filter is NULL");
    *index = cf_filter_desc_find_param(filter->desc, param);
    if (*index < 0)
        return cf_set_error(CF_ERROR_NOT_FOUND, "filter '%s' has no parameter '%s'",
                            filter->desc->name, param ? param : "(null)");
    return CF_OK;
}

static int enum_count(const cf_param_desc *p)
{
    int n = 0;
    while (p->choices && p->choices[n])
        n++;
    return n;
}

cf_status cf_filter_set_double(cf_filter *filter, const char *param, double value)
{
    int i = -1;
    CF_TRY(find_param(filter, param, &i));
    const cf_param_desc *p = &filter->desc->params[i];
    const char *f = filter->desc->name;
    double max = p->type == CF_PARAM_ENUM ? enum_count(p) - 1 : p->max;
    char v[CF_NUMBER_CHARS], lo[CF_NUMBER_CHARS], hi[CF_NUMBER_CHARS];
    if (isnan(value) || value < p->min || value > max)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "%s: %s=%s is out of range [%s, %s]", f,
                            p->name, cf_format_number(v, value), cf_format_number(lo, p->min),
                            cf_format_number(hi, max));
    if (p->type != CF_PARAM_DOUBLE && value != floor(value))
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "%s: %s=%s must be a whole number", f,
                            p->name, cf_format_number(v, value));
    if (filter->desc->impl->check_param)
        CF_TRY(filter->desc->impl->check_param(i, value));
    value = value == 0 ? 0 : value; /* -0 is stored as 0 */
    if (filter->values[i] != value)
        filter->version++;
    filter->values[i] = value;
    filter->set[i] = true;
    return CF_OK;
}

bool cf_filter_param_is_set(const cf_filter *filter, const char *param)
{
    int i = filter ? cf_filter_desc_find_param(filter->desc, param) : -1;
    return i >= 0 && filter->set[i];
}

cf_status cf_filter_set_int(cf_filter *filter, const char *param, int value)
{
    return cf_filter_set_double(filter, param, (double)value);
}

cf_status cf_filter_set_string(cf_filter *filter, const char *param, const char *value)
{
    int i = -1;
    CF_TRY(find_param(filter, param, &i));
    const cf_param_desc *p = &filter->desc->params[i];
    if (!value || !*value)
        return cf_set_error(CF_ERROR_PARSE, "%s: %s has an empty value", filter->desc->name,
                            p->name);
    if (p->type == CF_PARAM_ENUM) {
        for (int c = 0; p->choices[c]; c++)
            if (strcmp(p->choices[c], value) == 0)
                return cf_filter_set_double(filter, param, c);
        char list[256] = "";
        for (int c = 0; p->choices[c]; c++) {
            strncat(list, c ? ", " : "", sizeof list - strlen(list) - 1);
            strncat(list, p->choices[c], sizeof list - strlen(list) - 1);
        }
        return cf_set_error(CF_ERROR_PARSE, "%s: %s='%s' is not one of: %s", filter->desc->name,
                            p->name, value, list);
    }
    double v = 0;
    char lo[CF_NUMBER_CHARS], hi[CF_NUMBER_CHARS];
    switch (cf_parse_number(value, &v)) {
    case CF_NUMBER_OK:
        return cf_filter_set_double(filter, param, v);
    case CF_NUMBER_OUT_OF_RANGE:
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "%s: %s=%s is out of range [%s, %s]",
                            filter->desc->name, p->name, value, cf_format_number(lo, p->min),
                            cf_format_number(hi, p->max));
    case CF_NUMBER_NO_MEMORY:
        return cf_set_error(CF_ERROR_OUT_OF_MEMORY, "%s: %s: out of memory", filter->desc->name,
                            p->name);
    case CF_NUMBER_MALFORMED:
        break;
    }
    return cf_set_error(CF_ERROR_PARSE,
                        "%s: %s='%s' is not a number (decimal, e.g. 2, 0.5 or 1e-3)",
                        filter->desc->name, p->name, value);
}

cf_status cf_filter_get_double(const cf_filter *filter, const char *param, double *value)
{
    int i = -1;
    CF_TRY(find_param(filter, param, &i));
    if (!value)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "cf_filter_get_double: value is NULL");
    *value = filter->values[i];
    return CF_OK;
}

int cf_filter_get_output_formats(const cf_filter *filter, cf_format input, cf_format *out,
                                 int max)
{
    if (!filter || !cf_filter_desc_accepts(filter->desc, input))
        return 0;
    cf_format all[CF_MAX_OUTPUT_FORMATS];
    int n = filter->desc->impl->output_formats(filter->values, input, all);
    for (int i = 0; out && i < n && i < max; i++)
        out[i] = all[i];
    return n;
}

cf_status cf_filter_get_output_format(const cf_filter *filter, cf_format input, cf_format *output)
{
    if (!filter || !output)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "cf_filter_get_output_format: NULL argument");
    if (cf_filter_get_output_formats(filter, input, output, 1) == 0)
        return cf_set_error(CF_ERROR_UNSUPPORTED_FORMAT, "filter '%s' does not accept %s",
                            filter->desc->name, cf_format_name(input));
    return CF_OK;
}

static bool produces(const cf_filter *filter, cf_format input, cf_format output)
{
    cf_format all[CF_MAX_OUTPUT_FORMATS];
    int n = cf_filter_get_output_formats(filter, input, all, CF_MAX_OUTPUT_FORMATS);
    for (int i = 0; i < n; i++)
        if (all[i] == output)
            return true;
    return false;
}

bool cf_filter_is_identity(const cf_filter *filter, cf_format input, cf_format output)
{
    return filter && produces(filter, input, output) && filter->desc->impl->is_identity &&
           filter->desc->impl->is_identity(filter->values, input, output);
}

cf_status cf_filter_get_output_size(const cf_filter *filter, int width, int height,
                                    int *out_width, int *out_height)
{
    if (!filter || !out_width || !out_height)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "cf_filter_get_output_size: NULL argument");
    if (width < 1 || height < 1)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "%s: input size %dx%d is not at least 1x1",
                            filter->desc->name, width, height);
    *out_width = width;
    *out_height = height;
    if (filter->desc->impl->output_size)
        filter->desc->impl->output_size(filter->values, width, height, out_width, out_height);
    return CF_OK;
}

/* Makes the plan for these frames unless the kept one is for them. */
static cf_status ensure_plan(cf_filter *filter, const cf_frame *src, const cf_frame *dst)
{
    plan_key key = { filter->version, src->format, dst->format, src->width, src->height,
                     dst->width, dst->height };
    const plan_key *kept = &filter->plan_for;
    if (filter->plan_valid && kept->version == key.version && kept->src == key.src &&
        kept->dst == key.dst && kept->width == key.width && kept->height == key.height &&
        kept->out_width == key.out_width && kept->out_height == key.out_height)
        return CF_OK;
    filter->plan_valid = false;
    if (filter->desc->impl->free_plan)
        filter->desc->impl->free_plan(filter->plan);
    memset(filter->plan, 0, filter->desc->impl->plan_size);
    CF_TRY(filter->desc->impl->make_plan(filter->values, src, dst, filter->plan));
    filter->plan_for = key;
    filter->plan_valid = true;
    return CF_OK;
}

cf_status cf_filter_run(cf_filter *filter, const cf_frame *src, cf_frame *dst, cf_stream stream)
{
    if (!filter || !src || !dst)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "cf_filter_run: NULL argument");
    CF_TRY(cf_frame_validate(src));
    CF_TRY(cf_frame_validate(dst));
    const char *name = filter->desc->name;
    cf_format out;
    CF_TRY(cf_filter_get_output_format(filter, src->format, &out));
    bool resizes = filter->desc->flags & CF_FILTER_RESIZES;
    if (!produces(filter, src->format, dst->format) ||
        (!resizes && (dst->width != src->width || dst->height != src->height)))
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT,
                            "%s: %s %dx%d input needs a %s %dx%d output, got %s %dx%d", name,
                            cf_format_name(src->format), src->width, src->height,
                            cf_format_name(out), src->width, src->height,
                            cf_format_name(dst->format), dst->width, dst->height);
    bool src_dev = src->memory == CF_MEMORY_DEVICE, dst_dev = dst->memory == CF_MEMORY_DEVICE;
    if (src_dev != dst_dev)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT,
                            "%s: input and output must both be host or both device memory", name);
    const struct cf_filter_impl *impl = filter->desc->impl;
    if (src_dev && !impl->run_cuda)
        return cf_set_error(CF_ERROR_NO_DEVICE, "%s: built without CUDA", name);
    CF_TRY(ensure_plan(filter, src, dst));
    if (!src_dev)
        return impl->run_cpu(filter->plan, src, dst, &filter->host_scratch);
    return impl->run_cuda(filter->plan, src, dst, stream, &filter->device_scratch);
}

cf_status cf_scratch_reserve(cf_scratch *scratch, size_t bytes, cf_memory memory, void **ptr)
{
    if (scratch->ptr && scratch->size >= bytes && scratch->memory == memory) {
        *ptr = scratch->ptr;
        return CF_OK;
    }
    cf_scratch_release(scratch);
    if (memory == CF_MEMORY_DEVICE) {
        CF_TRY(cf_device_alloc(&scratch->ptr, bytes));
    } else {
        scratch->ptr = malloc(bytes ? bytes : 1);
        if (!scratch->ptr)
            return cf_set_error(CF_ERROR_OUT_OF_MEMORY, "scratch: %zu host bytes", bytes);
    }
    scratch->size = bytes;
    scratch->memory = memory;
    scratch->tag = 0;
    *ptr = scratch->ptr;
    return CF_OK;
}

void cf_scratch_release(cf_scratch *scratch)
{
    if (scratch->ptr) {
        if (scratch->memory == CF_MEMORY_DEVICE)
            cf_device_free(scratch->ptr);
        else
            free(scratch->ptr);
    }
    scratch->ptr = NULL;
    scratch->size = 0;
    scratch->tag = 0;
}
