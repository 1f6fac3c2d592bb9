/* cudafilters: library-internal declarations shared by core/ and kernels/. */
#ifndef CUDAFILTERS_INTERNAL_H
#define CUDAFILTERS_INTERNAL_H

#include <stddef.h>

#include "cudafilters/cudafilters.h"

CF_BEGIN_DECLS

/* Stores a printf-style message for cf_last_error() and returns `status`,
 * so failures read `return cf_set_error(CF_ERROR_PARSE, "...", ...);`. */
cf_status cf_set_error(cf_status status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

typedef enum cf_number_result {
    CF_NUMBER_OK,
    CF_NUMBER_MALFORMED,    /* not a plain decimal number */
    CF_NUMBER_OUT_OF_RANGE, /* beyond the largest double, e.g. 1e309 */
    CF_NUMBER_NO_MEMORY,
} cf_number_result;

/* Reads `text` as a plain decimal number, in every locale the same: an
 * optional '-', digits with an optional '.', an optional exponent
 * ("2", "-0.5", ".5", "1e-3"). Refused as malformed: a leading '+', hex and
 * hex-float ("0x10", "0x1p3"), inf, nan, anything around the number. On
 * CF_NUMBER_OK stores the value in *value (-0 as 0; an underflow such as
 * 1e-400 as its nearest double). Sets no error message. Thread-safe. */
cf_number_result cf_parse_number(const char *text, double *value);
/* Writes v into buf as the first "%g" form, from 6 significant digits up
 * to 17, that reads back as v (so 128.0000001 never prints as 128), in the
 * "C" locale whatever the application's; returns buf ("?" when that locale
 * cannot be made). Thread-safe. */
#define CF_NUMBER_CHARS 32 /* bytes: "-1.2345678901234567e-308" and its NUL fit */
const char *cf_format_number(char buf[CF_NUMBER_CHARS], double v);

/* Every CUDA runtime call goes through CF_CUDA_CHECK: on failure it records
 * the call, the error name and where, maps the error to a cf_status and
 * returns that; on success it returns CF_OK. `err` is a cudaError_t passed
 * as int so this header needs no CUDA headers. */
cf_status cf_cuda_check(int err, const char *call, const char *file, int line);

#define CF_CUDA_CHECK(call) cf_cuda_check((int)(call), #call, __FILE__, __LINE__)
/* Why there is no usable device when a CUDA call fails with `err` (no
 * driver, no device), else NULL: one wording for cf_device_count's reason
 * and for every call that fails that way (CF_ERROR_NO_DEVICE). */
const char *cf_cuda_no_device_reason(int err);
/* Returns from the calling function on failure. */
#define CF_TRY(expr)                                                          \
    do {                                                                      \
        cf_status cf_try_status_ = (expr);                                    \
        if (cf_try_status_ != CF_OK) return cf_try_status_;                   \
    } while (0)

/* Scratch memory a filter instance keeps between frames, so steady-state
 * runs allocate nothing. Grows, never shrinks, until released. */
typedef struct cf_scratch {
    void *ptr;
    size_t size;      /* bytes */
    cf_memory memory; /* CF_MEMORY_HOST or CF_MEMORY_DEVICE */
    /* The filter's own mark of what the block holds (scale: the plan whose
     * tables it has uploaded); 0 whenever the block is new. */
    unsigned long long tag;
    /* The instance's host scratch only: CPU threads its runs may use, 0 for
     * all cores (cf_filter_set_cpu_threads). Kept across releases. */
    int threads;
} cf_scratch;

/* Returns in *ptr at least `bytes` bytes of `memory` (host or device),
 * reusing the block when it is big enough and of the same kind. Growing a
 * device block synchronises the device (cudaFree/cudaMalloc).
 * Errors: CF_ERROR_OUT_OF_MEMORY, CF_ERROR_NO_DEVICE, CF_ERROR_CUDA. */
cf_status cf_scratch_reserve(cf_scratch *scratch, size_t bytes, cf_memory memory, void **ptr);
void cf_scratch_release(cf_scratch *scratch);

#define CF_MAX_OUTPUT_FORMATS 12 /* convert: every format */

/* What a filter implements; the front-end code in filter.c checks
 * arguments once and then calls these. `values` holds one double per
 * descriptor parameter, in declaration order (enums as their index). */
struct cf_filter_impl {
    /* Extra check of one value beyond its range (NULL: none). */
    cf_status (*check_param)(int index, double value);
    /* Output formats for an accepted input format, preferred first, into
     * out[0 .. CF_MAX_OUTPUT_FORMATS-1]; returns how many (>= 1). */
    int (*output_formats)(const double *values, cf_format input, cf_format *out);
    /* CF_FILTER_RESIZES filters: the proposed output size for an input of
     * width x height (NULL: the input's). */
    void (*output_size)(const double *values, int width, int height, int *out_width,
                        int *out_height);
    /* True if input -> output leaves every pixel as it is (NULL: never). */
    bool (*is_identity)(const double *values, cf_format input, cf_format output);
    /* Bytes of the filter's plan: what it derives once from its parameters
     * and the frames' formats and size (weights, tables, the method), kept
     * by the instance until one of them changes. */
    size_t plan_size;
    /* Fills `plan` (plan_size bytes) for frames shaped like src and dst
     * (already checked against the descriptor). Host code only. */
    cf_status (*make_plan)(const double *values, const cf_frame *src, const cf_frame *dst,
                           void *plan);
    /* Frees what make_plan allocated (NULL: nothing); called before a plan
     * is remade and when the instance is freed, on a zeroed plan too. */
    void (*free_plan)(void *plan);
    /* CPU version: the optimized one where the filter has it, else the
     * reference (which defines the result). Frames are host memory;
     * scratch->threads bounds its threads (cpu_dispatch.h). */
    cf_status (*run_cpu)(const void *plan, const cf_frame *src, cf_frame *dst,
                         cf_scratch *scratch);
    /* CUDA version, bit-identical to run_cpu; NULL in a build without CUDA.
     * Frames are device memory; work is queued on `stream`. */
    cf_status (*run_cuda)(const void *plan, const cf_frame *src, cf_frame *dst,
                          cf_stream stream, cf_scratch *scratch);
};

CF_END_DECLS

#endif
