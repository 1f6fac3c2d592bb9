// See launch_probe.h.
#include "launch.cuh"
#include "launch_probe.h"

namespace {

// Its occupancy depends on the block size and the dynamic shared memory,
// which is what the cache is keyed on.
__global__ void probe_kernel(int *out)
{
    extern __shared__ int s[];
    s[threadIdx.x] = (int)threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}

} // namespace

cudaError_t probe_device_facts(int device, int *sms, int *major)
{
    return cf_device_facts(device, sms, major);
}

cudaError_t probe_device_fast_fp64(int device, bool *fast)
{
    return cf_device_fast_fp64(device, fast);
}

cudaError_t probe_occupancy_kept(int device, int threads, size_t shared, int *blocks)
{
    return cf_occupancy<probe_kernel>(device, threads, shared, blocks);
}

cudaError_t probe_occupancy_asked(int threads, size_t shared, int *blocks)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, probe_kernel, threads, shared);
}
