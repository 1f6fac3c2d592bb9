// See event_probe.h.
#include "event_probe.h"

namespace {

__global__ void spin_then_set(int *flag, int value, long long cycles)
{
    long long start = clock64();
    while (clock64() - start < cycles) {
    }
    *flag = value;
}

} // namespace

cudaError_t probe_spin_then_set(cudaStream_t stream, int *flag, int value, long long cycles)
{
    spin_then_set<<<1, 1, 0, stream>>>(flag, value, cycles);
    return cudaGetLastError();
}
