// A kernel that keeps the GPU busy for a while and then writes a flag, for
// test_event_gpu.cpp (compiled by the host compiler, so it cannot hold a
// kernel itself).
#pragma once

#include <cuda_runtime.h>

// Queues on `stream` one thread that spins for `cycles` GPU clock cycles
// and then sets *flag (device memory) to `value`.
cudaError_t probe_spin_then_set(cudaStream_t stream, int *flag, int value, long long cycles);
