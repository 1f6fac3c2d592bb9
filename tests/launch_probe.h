// The per-device caches of kernels/launch.cuh (cf_device_facts,
// cf_occupancy on a kernel of our own) for test_launch_gpu.cpp, which is
// compiled by the host compiler and so cannot include launch.cuh itself.
// The occupancy functions ask about the current device.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

// cf_device_facts.
cudaError_t probe_device_facts(int device, int *sms, int *major);
// cf_device_fast_fp64.
cudaError_t probe_device_fast_fp64(int device, bool *fast);
// cf_occupancy for the probe kernel, with `device` as the cache's key.
cudaError_t probe_occupancy_kept(int device, int threads, size_t shared, int *blocks);
// The runtime's own answer for the probe kernel, asked every time.
cudaError_t probe_occupancy_asked(int threads, size_t shared, int *blocks);
