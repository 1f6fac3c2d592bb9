// Error checks of the benchmark programs (cf_bench.cu, convert_scale_bench.cu,
// npp_peer.cu, npp_convert_scale_peer.cu): a failed call prints itself and
// its error, and the program exits with status 1. A benchmark has nothing to
// recover, and a number from a failed run would be wrong.
//   CHECK(cuda runtime call)   CF_CHECK(cudafilters call)   NPP(NPP call)
// Each macro needs its library's header only where it is used.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                             \
    do {                                                                                        \
        cudaError_t e_ = (call);                                                                \
        if (e_ != cudaSuccess) {                                                                \
            std::fprintf(stderr, "%s: %s (%s:%d)\n", #call, cudaGetErrorString(e_), __FILE__,   \
                         __LINE__);                                                             \
            std::exit(1);                                                                       \
        }                                                                                       \
    } while (0)
#define CF_CHECK(call)                                                                          \
    do {                                                                                        \
        cf_status s_ = (call);                                                                  \
        if (s_ != CF_OK) {                                                                      \
            std::fprintf(stderr, "%s: %s\n", #call, cf_last_error());                           \
            std::exit(1);                                                                       \
        }                                                                                       \
    } while (0)
#define NPP(call)                                                                               \
    do {                                                                                        \
        NppStatus s_ = (call);                                                                  \
        if (s_ != NPP_SUCCESS) {                                                                \
            std::fprintf(stderr, "%s: NPP status %d\n", #call, (int)s_);                        \
            std::exit(1);                                                                       \
        }                                                                                       \
    } while (0)
