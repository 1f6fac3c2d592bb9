/* cudafilters: CPU levels, the forcing switch and the pick of an optimized
 * version (cudafilters/cpu.h, cpu_dispatch.h). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "cpu_dispatch.h"
#include "parallel.h"

/* What kernels/meson.build compiles SIMD code for (CF_SIMD_MAX_LEVEL). */
#ifndef CF_SIMD_MAX_LEVEL
#define CF_SIMD_MAX_LEVEL 0
#endif

static const char *const level_names[CF_CPU_LEVELS] = {
    "reference",
#if defined(__aarch64__)
    "neon",
#else
    "sse2",
#endif
    "avx2",
    "avx512",
};

static atomic_int current = -1; /* cf_cpu_level in effect; -1 until first read */
static _Thread_local int last_ran = -1;

static cf_cpu_level detect(void)
{
    int best = CF_SIMD_MAX_LEVEL >= CF_CPU_BASELINE ? CF_CPU_BASELINE : CF_CPU_REFERENCE;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    /* __builtin_cpu_supports also checks that the OS saves the AVX and
     * AVX-512 registers (XGETBV), not only the CPUID bits. */
    __builtin_cpu_init();
    if (CF_SIMD_MAX_LEVEL >= CF_CPU_AVX2 && __builtin_cpu_supports("avx2") &&
        __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi2"))
        best = CF_CPU_AVX2;
    if (best == CF_CPU_AVX2 && CF_SIMD_MAX_LEVEL >= CF_CPU_AVX512 &&
        __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl"))
        best = CF_CPU_AVX512;
#endif
    return (cf_cpu_level)best;
}

cf_cpu_level cf_cpu_best_level(void)
{
    static gsize once = 0;
    static cf_cpu_level best;
    if (g_once_init_enter(&once)) {
        best = detect();
        g_once_init_leave(&once, 1);
    }
    return best;
}

const char *cf_cpu_level_name(cf_cpu_level level)
{
    return (unsigned)level < CF_CPU_LEVELS ? level_names[level] : NULL;
}

cf_status cf_cpu_parse_level(const char *name, cf_cpu_level *level)
{
    if (!name || !level)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "cf_cpu_parse_level: NULL argument");
    for (int l = 0; l < CF_CPU_LEVELS; l++)
        if (!strcmp(name, level_names[l]) || (l == CF_CPU_BASELINE && !strcmp(name, "baseline"))) {
            *level = (cf_cpu_level)l;
            return CF_OK;
        }
    return cf_set_error(CF_ERROR_INVALID_ARGUMENT,
                        "CPU level \"%s\": must be reference, %s, avx2 or avx512", name,
                        level_names[CF_CPU_BASELINE]);
}

cf_cpu_level cf_cpu_get_level(void)
{
    int l = atomic_load(&current);
    if (l >= 0)
        return (cf_cpu_level)l;
    cf_cpu_level best = cf_cpu_best_level(), wanted = best;
    const char *env = getenv("CF_CPU");
    if (env && *env && cf_cpu_parse_level(env, &wanted) != CF_OK)
        g_warning("cudafilters: CF_CPU=%s is no CPU level (reference, %s, avx2, avx512); "
                  "using %s", env, level_names[CF_CPU_BASELINE], level_names[best]);
    l = wanted < best ? wanted : best;
    int unset = -1; /* a cf_cpu_set_level() that came first wins */
    atomic_compare_exchange_strong(&current, &unset, l);
    return (cf_cpu_level)atomic_load(&current);
}

cf_status cf_cpu_set_level(cf_cpu_level level)
{
    if ((unsigned)level >= CF_CPU_LEVELS)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "cf_cpu_set_level: %d is no cf_cpu_level",
                            (int)level);
    if (level > cf_cpu_best_level())
        return cf_set_error(CF_ERROR_UNSUPPORTED_FORMAT,
                            "cf_cpu_set_level: %s is beyond this processor or build (best: %s)",
                            level_names[level], level_names[cf_cpu_best_level()]);
    atomic_store(&current, (int)level);
    return CF_OK;
}

const void *cf_cpu_pick(const void *const table[CF_CPU_LEVELS], cf_cpu_level *level)
{
    for (int l = cf_cpu_get_level(); l >= CF_CPU_BASELINE; l--)
        if (table[l]) {
            *level = (cf_cpu_level)l;
            return table[l];
        }
    *level = CF_CPU_REFERENCE;
    return NULL;
}

void cf_cpu_note_ran(cf_cpu_level level)
{
    last_ran = (int)level;
}

int cf_cpu_last_level(void)
{
    return last_ran;
}

int cf_cpu_count(void)
{
    return cf_parallel_threads(0);
}
