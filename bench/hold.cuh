// Holding a stream while a batch of runs is queued, for the benchmarks'
// timing (cf_bench.cu, npp_peer.cu; peers.py does the same in CuPy).
//
// A batch timed between two events from an idle stream also times the
// host: the first run starts only once the host has prepared and launched
// it, and while the host is slower than the GPU the GPU waits between runs.
// In a pipeline the stream is busy and none of that shows. So each batch is
// queued behind a one-thread kernel that spins until the host, done
// queuing, releases it: the events then time the GPU's work alone, back to
// back. (This is the "blocking kernel" NVIDIA's nvbench uses to time
// kernels without launch overhead.) The kernel gives up after a timeout,
// so a run that waits on the stream inside the batch (a synchronous copy
// from pageable memory, an allocation that synchronises) cannot hang the
// benchmark: held() then reports false and that timing is not valid.
//
// peers.py compiles this file's kernel with NVRTC (__CUDACC_RTC__), without
// the host side.
#pragma once

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#endif

namespace bench {

// Spins until *release is non-zero or timeout_ns (GPU global timer,
// nanoseconds) has passed; then *timed_out says which. Defined here with
// external linkage (NVRTC needs it so for peers.py): include this header in
// one source file of a program.
__global__ void hold_stream(const volatile int *release, volatile int *timed_out,
                            unsigned long long timeout_ns)
{
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    for (;;) {
        if (*release) {
            *timed_out = 0;
            return;
        }
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
        if (now - start > timeout_ns) {
            *timed_out = 1;
            return;
        }
    }
}

#ifndef __CUDACC_RTC__
// Two ints of mapped pinned host memory the hold kernel reads and writes.
// One per program; not thread-safe (the benchmarks queue from one thread).
class StreamHold {
  public:
    StreamHold()
    {
        check(cudaHostAlloc((void **)&flags_, 2 * sizeof(int), cudaHostAllocMapped));
        check(cudaHostGetDevicePointer((void **)&dev_flags_, (void *)flags_, 0));
    }
    ~StreamHold() { cudaFreeHost((void *)flags_); }
    StreamHold(const StreamHold &) = delete;
    StreamHold &operator=(const StreamHold &) = delete;

    // Queues the hold on `stream`; work queued after it waits until release().
    void begin(cudaStream_t stream)
    {
        flags_[0] = 0; // release
        flags_[1] = -1; // timed_out: not run yet
        std::atomic_thread_fence(std::memory_order_seq_cst);
        hold_stream<<<1, 1, 0, stream>>>(dev_flags_, dev_flags_ + 1, kTimeoutNs);
        check(cudaGetLastError());
    }
    // Lets the held stream go on.
    void release()
    {
        std::atomic_thread_fence(std::memory_order_seq_cst);
        flags_[0] = 1;
    }
    // After the batch has finished: whether the stream was still held when
    // release() came (false: the hold timed out, the batch's timing is not
    // valid).
    bool held() const { return flags_[1] == 0; }

  private:
    static constexpr unsigned long long kTimeoutNs = 2000000000ull; // 2 s
    static void check(cudaError_t e)
    {
        if (e != cudaSuccess) {
            std::fprintf(stderr, "stream hold: %s\n", cudaGetErrorString(e));
            std::exit(1);
        }
    }
    volatile int *flags_ = nullptr;
    int *dev_flags_ = nullptr;
};
#endif

} // namespace bench
