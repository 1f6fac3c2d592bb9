/* cudafilters: filter descriptors, filter instances and filter strings.
 *
 * Every filter is described once (name, parameters, formats) and the same
 * description drives the GStreamer element properties, the command line's
 * filter strings and this C API. */
#ifndef CUDAFILTERS_FILTER_H
#define CUDAFILTERS_FILTER_H

#include <stdbool.h>

#include "device.h"
#include "export.h"
#include "format.h"
#include "frame.h"
#include "status.h"

CF_BEGIN_DECLS

typedef enum cf_param_type {
    CF_PARAM_DOUBLE, /* real number */
    CF_PARAM_INT,    /* integer */
    CF_PARAM_ENUM,   /* one of `choices`, stored as its index */
} cf_param_type;

/* What a parameter describes beyond its value. Front ends that know the
 * stream fill such parameters themselves instead of asking the user:
 * GStreamer elements from the negotiated caps, the command line from the
 * decoder. The C API sets them like any other parameter. */
typedef enum cf_param_role {
    CF_PARAM_ROLE_NONE = 0,
    CF_PARAM_ROLE_COLOR_RANGE, /* enum {limited, full}: the input's quantisation range */
    CF_PARAM_ROLE_COLOR_MATRIX, /* enum {bt601, bt709, bt2020}: the YUV matrix */
    CF_PARAM_ROLE_CHROMA_SITE,  /* enum {left, center}: 4:2:0 chroma siting (MPEG-2, JPEG) */
    /* Not from the stream: an enum of the output formats, the one the filter
     * prefers (cf_filter_get_output_formats lists it first). A front end
     * that picks formats itself (the command line) keeps a value the user
     * set as the only choice; GStreamer elements offer it as a property and
     * negotiate any. */
    CF_PARAM_ROLE_OUTPUT_FORMAT,
} cf_param_role;

typedef struct cf_param_desc {
    const char *name;          /* "sigma", "kernel-size": also the GStreamer property name */
    const char *summary;       /* one line for --help and gst-inspect */
    const char *unit;          /* "pixels", or "" */
    cf_param_type type;
    double min, max;           /* valid range, both ends inclusive */
    double default_value;      /* for CF_PARAM_ENUM: index into choices */
    const char *const *choices;/* CF_PARAM_ENUM: NULL-terminated names */
    cf_param_role role;        /* CF_PARAM_ROLE_NONE for ordinary parameters */
} cf_param_desc;

struct cf_filter_impl;

/* cf_filter_desc.flags */
enum {
    /* Output pixels depend on neighbouring pixels (blur): an interlaced
     * frame, two fields woven together, cannot be filtered as one picture. */
    CF_FILTER_SPATIAL = 1 << 0,
    /* The output may have another size than the input (scale): the output
     * frame's size is what the filter makes, cf_filter_get_output_size()
     * the size it proposes. */
    CF_FILTER_RESIZES = 1 << 1,
};

typedef struct cf_filter_desc {
    const char *name;          /* "gray": filter-string name; element "cuda" + name */
    const char *summary;       /* one line */
    const char *description;   /* a paragraph for element docs */
    const cf_param_desc *params;
    int n_params;
    const cf_format *formats;  /* accepted input formats */
    int n_formats;
    unsigned flags;            /* CF_FILTER_* */
    const struct cf_filter_impl *impl; /* private */
} cf_filter_desc;

/* ---- registry (static data, thread-safe) ---- */

/* Number of filters and the i-th descriptor (0 <= i < count, else NULL). */
CF_API int cf_filter_registry_count(void);
CF_API const cf_filter_desc *cf_filter_registry_get(int index);
/* Descriptor by name, or NULL. */
CF_API const cf_filter_desc *cf_filter_registry_find(const char *name);
/* Index of a parameter in desc->params, or -1. */
CF_API int cf_filter_desc_find_param(const cf_filter_desc *desc, const char *name);
/* True if the filter accepts `format` as input. */
CF_API bool cf_filter_desc_accepts(const cf_filter_desc *desc, cf_format format);

/* ---- instances ---- */

/* A configured filter: its parameter values plus scratch memory reused
 * between frames. Not thread-safe: use one instance per thread (different
 * instances are independent). GPU scratch memory is allocated, on the first
 * GPU run, in the CUDA context current then; free the instance with the same
 * context current. */
typedef struct cf_filter cf_filter;

/* New instance of the named filter with default parameters, or NULL with
 * cf_last_error() set (unknown name: CF_ERROR_NOT_FOUND). Caller owns it. */
CF_API cf_filter *cf_filter_new(const char *name);
/* Frees *filter and sets it to NULL. NULL or *filter == NULL is a no-op. */
CF_API void cf_filter_free(cf_filter **filter);
/* Frees the instance's scratch memory (host and GPU) and keeps its
 * parameters; the next run allocates again. Call it with the CUDA context
 * current that was current at the first GPU run, e.g. before that context
 * goes away. NULL is a no-op. */
CF_API void cf_filter_release_scratch(cf_filter *filter);

CF_API const cf_filter_desc *cf_filter_get_desc(const cf_filter *filter);

#define CF_MAX_CPU_THREADS 1024

/* Threads the instance's CPU runs may use: 0 (the default) for all cores,
 * else 1 .. CF_MAX_CPU_THREADS (more than the processors count as all of
 * them). They come from the one process-wide pool, which every instance
 * and pipeline shares, so setting several instances to all cores never
 * starts more threads than there are processors. Applies from the next
 * run; not while one runs. Errors: CF_ERROR_INVALID_ARGUMENT (NULL filter,
 * count out of range). The level of SIMD code is process-wide
 * (cudafilters/cpu.h). */
CF_API cf_status cf_filter_set_cpu_threads(cf_filter *filter, int threads);
/* The count set by cf_filter_set_cpu_threads (0: all cores); 0 for NULL. */
CF_API int cf_filter_get_cpu_threads(const cf_filter *filter);

/* Sets a parameter. Doubles and ints are checked against the range (ints
 * must be whole; -0 is stored as 0); enums take their index. Errors:
 * CF_ERROR_NOT_FOUND (no such parameter), CF_ERROR_INVALID_ARGUMENT (out of
 * range, not whole, or refused by the filter's own check, e.g. an even
 * kernel-size). */
CF_API cf_status cf_filter_set_double(cf_filter *filter, const char *param, double value);
CF_API cf_status cf_filter_set_int(cf_filter *filter, const char *param, int value);
/* Parses `value` as the parameter's type: an enum choice name
 * ("replicate"), or a plain decimal number, read the same whatever the
 * process locale: an optional '-', digits with an optional '.', an optional
 * exponent ("2", "0.5", ".5", "-1e-3"); -0 is stored as 0. Errors as above
 * plus CF_ERROR_PARSE (not one of the choices, the message lists them; not a
 * plain decimal: a leading '+', hexadecimal and hex-float, inf and nan are
 * refused) and CF_ERROR_INVALID_ARGUMENT for a number beyond any double
 * ("1e309": out of range). Thread-safe for distinct filters. */
CF_API cf_status cf_filter_set_string(cf_filter *filter, const char *param, const char *value);
/* True if the parameter was given a value (cf_filter_set_* or a filter
 * string) since the instance was made, so a front end filling
 * stream-described parameters (CF_PARAM_ROLE_*) can leave a value the user
 * chose alone. False for unknown names. */
CF_API bool cf_filter_param_is_set(const cf_filter *filter, const char *param);

/* Current value (enum: its index). Errors: CF_ERROR_NOT_FOUND. */
CF_API cf_status cf_filter_get_double(const cf_filter *filter, const char *param, double *value);

/* The preferred output format for `input` (gray: GRAY8; blur: the input's).
 * Errors: CF_ERROR_UNSUPPORTED_FORMAT (input not accepted). */
CF_API cf_status cf_filter_get_output_format(const cf_filter *filter, cf_format input,
                                             cf_format *output);
/* Every output format the filter can produce for `input`, preferred first,
 * into out[0 .. max-1]; returns how many there are (0 if the input is not
 * accepted), which may exceed max. gray on RGBA gives GRAY8, RGBA. */
CF_API int cf_filter_get_output_formats(const cf_filter *filter, cf_format input,
                                        cf_format *out, int max);

/* The output size the filter proposes for a width x height input (pixels):
 * the input's, except for filters with CF_FILTER_RESIZES (scale: its w and
 * h, or the input's where they are 0). Errors: CF_ERROR_INVALID_ARGUMENT
 * (NULL argument, size < 1). */
CF_API cf_status cf_filter_get_output_size(const cf_filter *filter, int width, int height,
                                           int *out_width, int *out_height);

/* True if, with the current parameters, the filter leaves `input` unchanged
 * when it produces `output` (at the input's size) (gray GRAY8 -> GRAY8, blur with one-tap
 * kernels), so a front end may pass frames through untouched. */
CF_API bool cf_filter_is_identity(const cf_filter *filter, cf_format input, cf_format output);

/* Runs the filter from src into dst. Both frames must be in the same kind of
 * memory: host (either kind) runs the CPU code synchronously (the optimized
 * version, bit-identical to the reference; cudafilters/cpu.h), device
 * runs the CUDA kernels asynchronously on `stream` (finish with
 * cf_stream_synchronize or an event before reading dst). dst must have the
 * size of src (any size >= 1 for a CF_FILTER_RESIZES filter, which scales
 * to it) and one of the formats cf_filter_get_output_formats() gives,
 * and must not overlap src. Errors: CF_ERROR_INVALID_ARGUMENT,
 * CF_ERROR_UNSUPPORTED_FORMAT, CF_ERROR_NO_DEVICE, CF_ERROR_OUT_OF_MEMORY,
 * CF_ERROR_CUDA. */
CF_API cf_status cf_filter_run(cf_filter *filter, const cf_frame *src, cf_frame *dst,
                               cf_stream stream);

/* ---- filter strings ---- */

/* A parsed chain of filters, in order. */
typedef struct cf_chain cf_chain;

/* Parses an FFmpeg-style filter string:
 *   chain  := filter ("," filter)*
 *   filter := name ["=" option (":" option)*]
 *   option := param "=" value | value      (a bare value fills the next
 *                                           parameter in declaration order)
 * e.g. "gray,blur=sigma=2:border=replicate" or "blur=2". Whitespace around
 * tokens is ignored; values are read as cf_filter_set_string() reads them
 * (numbers the same in every locale). A parameter given twice in one filter
 * ("blur=sigma=2:sigma=3", "blur=2:sigma=3") is refused. Returns NULL on
 * error with cf_last_error() naming the bad token and its 1-based character
 * position, e.g. "unknown filter 'blurr' at character 6" (the message is
 * never cut, however long the token). Caller owns the chain. Thread-safe. */
CF_API cf_chain *cf_chain_parse(const char *description);
CF_API void cf_chain_free(cf_chain **chain);
CF_API int cf_chain_length(const cf_chain *chain);
/* The i-th filter, owned by the chain (do not free), or NULL. */
CF_API cf_filter *cf_chain_get(const cf_chain *chain, int index);

CF_END_DECLS

#endif
