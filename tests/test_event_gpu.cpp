// cf_event_synchronize polls (core/device.c): it must return only once the
// work before the event's record is done, and at once for an event never
// recorded. Skips visibly without a GPU.
#include "event_probe.h"
#include "test_utils.h"

namespace {

TEST(GpuEvent, SynchronizeReturnsOnlyAfterTheWork)
{
    CF_REQUIRE_GPU();
    int clock_khz = 0, device = 0;
    ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
    ASSERT_EQ(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device), cudaSuccess);
    cf_stream work = nullptr, reader = nullptr;
    CF_ASSERT_OK(cf_stream_create(&work));
    CF_ASSERT_OK(cf_stream_create(&reader));
    cf_event done = nullptr;
    CF_ASSERT_OK(cf_event_create(&done));
    int *flag = nullptr;
    ASSERT_EQ(cudaMalloc(&flag, sizeof(int)), cudaSuccess);
    // Waits from 0 (done before the first poll) to about 30 ms (many sleeps
    // of the longest kind).
    const double waits_ms[] = {0.0, 0.05, 1.0, 30.0};
    for (int i = 0; i < 4; i++) {
        ASSERT_EQ(cudaMemsetAsync(flag, 0, sizeof(int), work), cudaSuccess);
        long long cycles = (long long)(waits_ms[i] * clock_khz);
        ASSERT_EQ(probe_spin_then_set(work, flag, 100 + i, cycles), cudaSuccess);
        CF_ASSERT_OK(cf_event_record(done, work));
        CF_ASSERT_OK(cf_event_synchronize(done));
        EXPECT_EQ(cf_event_query(done), CF_OK) << waits_ms[i] << " ms";
        // Read the flag on another stream that does not wait for `work`:
        // had the wait returned early, the kernel would still be spinning
        // and the flag still 0.
        int got = -1;
        ASSERT_EQ(cudaMemcpyAsync(&got, flag, sizeof(int), cudaMemcpyDeviceToHost, reader),
                  cudaSuccess);
        CF_ASSERT_OK(cf_stream_synchronize(reader));
        EXPECT_EQ(got, 100 + i) << "the wait for " << waits_ms[i] << " ms of work returned early";
    }
    // An event never recorded has nothing to wait for.
    cf_event fresh = nullptr;
    CF_ASSERT_OK(cf_event_create(&fresh));
    CF_ASSERT_OK(cf_event_synchronize(fresh));
    EXPECT_EQ(cf_event_query(fresh), CF_OK);
    cf_event_destroy(&fresh);
    cudaFree(flag);
    cf_event_destroy(&done);
    cf_stream_destroy(&reader);
    cf_stream_destroy(&work);
}

} // namespace
