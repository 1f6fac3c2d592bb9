// A device copy of a benchmark case's own bytes (cf_bench.cu,
// convert_scale_bench.cu): cudaMemcpyAsync of bytes / 2 (so bytes read +
// written), the source and destination rotating over working_set bytes each
// (beyond the L2), timed by the benchmark's own `median` (a function of a
// run function void(int i), returning ms a run). It is what a copy costs at
// the case's size, where fixed launch and ramp costs weigh as they do for
// the case: a 4K GRAY8 frame's 16.6 MB move well under the rate of the
// 1 GiB copy that sets a benchmark's copy ceiling. The buffers are
// allocated at the first call and kept; not thread-safe.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "check.cuh"

namespace bench {

template <typename Median>
double same_bytes_copy_ms(double bytes, size_t working_set, Median median)
{
    static uint8_t *from = nullptr, *to = nullptr;
    if (!from) {
        CHECK(cudaMalloc(&from, working_set));
        CHECK(cudaMalloc(&to, working_set));
        CHECK(cudaMemset(from, 0x5a, working_set));
    }
    const size_t half = (size_t)(bytes / 2), stride = (half + 4095) / 4096 * 4096;
    const size_t n = std::max<size_t>(1, working_set / stride);
    return median([&](int i) {
        const size_t off = (size_t)(i % n) * stride;
        CHECK(cudaMemcpyAsync(to + off, from + off, half, cudaMemcpyDeviceToDevice, 0));
    });
}

} // namespace bench
