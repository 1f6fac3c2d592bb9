/* cudafilters: the CPU backend's code paths and threads.
 *
 * Every filter has a CPU reference (plain C, the result every other path
 * must match bit for bit) and an optimized CPU version run in slices of
 * rows on the process-wide thread pool: for gray and blur SIMD code for the
 * instruction-set level picked at run time, for convert and scale (no SIMD
 * yet) the reference's own rows. The optimized version is used by default;
 * the reference can be forced for comparisons, and tests force each level.
 *
 * The level in effect starts as the best one the processor has, capped by
 * the environment variable CF_CPU when set (read once, at the first call
 * that needs it): "reference", "sse2" (or "baseline", also on Arm),
 * "avx2", "avx512"; a level the processor lacks is capped to its best. */
#ifndef CUDAFILTERS_CPU_H
#define CUDAFILTERS_CPU_H

#include "export.h"
#include "status.h"

CF_BEGIN_DECLS

typedef enum cf_cpu_level {
    CF_CPU_REFERENCE = 0, /* the plain C reference, one thread */
    CF_CPU_BASELINE = 1,  /* SIMD of the architecture's baseline: SSE2 on x86-64 (NEON on Arm) */
    CF_CPU_AVX2 = 2,      /* x86-64 AVX2 + FMA + BMI2 (Haswell, Zen) */
    CF_CPU_AVX512 = 3,    /* x86-64 AVX-512 F/BW/VL (Skylake-SP, Zen 4) */
    CF_CPU_LEVELS
} cf_cpu_level;

/* The best level this processor and this build support. Thread-safe. */
CF_API cf_cpu_level cf_cpu_best_level(void);

/* The level the CPU backend uses now (see the top of this file). Thread-safe. */
CF_API cf_cpu_level cf_cpu_get_level(void);

/* Caps the level for every filter in the process from the next frame on;
 * CF_CPU_REFERENCE forces the reference. Errors: CF_ERROR_INVALID_ARGUMENT
 * (not a cf_cpu_level), CF_ERROR_UNSUPPORTED_FORMAT (a level this processor
 * or build lacks, named in the message; the level stays as it was).
 * Thread-safe; frames already running finish on the level they started. */
CF_API cf_status cf_cpu_set_level(cf_cpu_level level);

/* "reference", "sse2" (x86-64) or "neon" (Arm), "avx2", "avx512"; NULL for
 * a value that is no level. */
CF_API const char *cf_cpu_level_name(cf_cpu_level level);

/* Reads a name as cf_cpu_level_name() writes it ("baseline" too) into
 * *level. Errors: CF_ERROR_INVALID_ARGUMENT (NULL, or no level of that name). */
CF_API cf_status cf_cpu_parse_level(const char *name, cf_cpu_level *level);

/* The level the last CPU filter run in the calling thread took
 * (CF_CPU_REFERENCE also for a filter without an optimized version), or -1
 * if none ran in this thread yet. For tests and diagnostics. */
CF_API int cf_cpu_last_level(void);

/* Processors the CPU backend uses when a filter is given 0 threads
 * (cf_filter_set_cpu_threads): all of them. Thread-safe. */
CF_API int cf_cpu_count(void);

CF_END_DECLS

#endif
