// Shared by the convert and scale suites (test_convert_scale.cpp,
// test_convert_scale_fused.cpp, test_convert_scale_gpu.cpp): every format
// convert takes, its name in filter strings, a random integer.
#ifndef CUDAFILTERS_TESTS_CONVERT_SCALE_UTILS_H
#define CUDAFILTERS_TESTS_CONVERT_SCALE_UTILS_H

#include <random>

#include "test_utils.h"

namespace {

// kChoice[i] is kAll[i]'s value of convert's `format` parameter.
const cf_format kAll[] = { CF_FORMAT_GRAY8,     CF_FORMAT_RGBA,      CF_FORMAT_BGRA,
                           CF_FORMAT_RGBX,      CF_FORMAT_BGRX,      CF_FORMAT_RGB,
                           CF_FORMAT_BGR,       CF_FORMAT_NV12,      CF_FORMAT_I420,
                           CF_FORMAT_GRAY16_LE, CF_FORMAT_P010_10LE, CF_FORMAT_I420_10LE };
const char *const kChoice[] = { "gray8", "rgba", "bgra", "rgbx", "bgrx", "rgb",
                                "bgr",   "nv12", "i420", "gray16", "p010", "i420_10" };
static_assert(sizeof kAll / sizeof kAll[0] == sizeof kChoice / sizeof kChoice[0],
              "one name a format");

// kChoice's name of `f`, one of kAll.
inline const char *choice_of(cf_format f)
{
    for (size_t i = 0; i < sizeof kAll / sizeof kAll[0]; i++)
        if (kAll[i] == f)
            return kChoice[i];
    ADD_FAILURE() << "not a format of convert: " << cf_format_name(f);
    return "";
}

inline int pick(std::mt19937 &rng, int lo, int hi)
{
    return std::uniform_int_distribution<int>(lo, hi)(rng);
}

} // namespace

#endif
