// The launch helpers' per-device caches (kernels/launch.cuh): what they keep
// must be what the runtime says, for every shape asked in turn. Skips
// visibly without a GPU.
#include "launch_probe.h"
#include "test_utils.h"

namespace {

TEST(GpuLaunch, DeviceFactsAreTheRuntimesAndKept)
{
    CF_REQUIRE_GPU();
    int device = -1, count = 0;
    ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
    ASSERT_EQ(cudaGetDeviceCount(&count), cudaSuccess);
    int want_sms = 0, want_major = 0;
    ASSERT_EQ(cudaDeviceGetAttribute(&want_sms, cudaDevAttrMultiProcessorCount, device), cudaSuccess);
    ASSERT_EQ(cudaDeviceGetAttribute(&want_major, cudaDevAttrComputeCapabilityMajor, device),
              cudaSuccess);
    for (int round = 0; round < 3; round++) { // the first asks, the others read what was kept
        int sms = 0, major = 0;
        ASSERT_EQ(probe_device_facts(device, &sms, &major), cudaSuccess);
        EXPECT_EQ(sms, want_sms);
        EXPECT_EQ(major, want_major);
    }
    // A device that does not exist: the runtime's error, outputs untouched,
    // and nothing kept for it (it fails again).
    for (int round = 0; round < 2; round++) {
        int sms = -7, major = -7;
        EXPECT_EQ(probe_device_facts(count, &sms, &major), cudaErrorInvalidDevice);
        EXPECT_EQ(sms, -7);
        EXPECT_EQ(major, -7);
    }
    (void)cudaGetLastError(); // leave no error behind for later tests
}

TEST(GpuLaunch, FastFp64IsHoppersAndKept)
{
    // cf_device_fast_fp64: compute capability 9.0 with FP64 at half the
    // FP32 rate (every H100 and H200), asked once and kept; an H100 or H200
    // says yes whatever the attribute says.
    CF_REQUIRE_GPU();
    int device = -1, count = 0;
    ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
    ASSERT_EQ(cudaGetDeviceCount(&count), cudaSuccess);
    int ratio = 0, major = 0, minor = 0;
    ASSERT_EQ(cudaDeviceGetAttribute(&ratio, cudaDevAttrSingleToDoublePrecisionPerfRatio, device),
              cudaSuccess);
    ASSERT_EQ(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), cudaSuccess);
    ASSERT_EQ(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device), cudaSuccess);
    cudaDeviceProp prop;
    ASSERT_EQ(cudaGetDeviceProperties(&prop, device), cudaSuccess);
    const std::string name = prop.name;
    const bool want = major == 9 && minor == 0 && ratio >= 1 && ratio <= 2;
    if (name.find("H100") != std::string::npos || name.find("H200") != std::string::npos) {
        EXPECT_TRUE(want) << name << ": ratio " << ratio;
    }
    for (int round = 0; round < 3; round++) {
        bool fast = !want;
        ASSERT_EQ(probe_device_fast_fp64(device, &fast), cudaSuccess);
        EXPECT_EQ(fast, want) << name;
    }
    bool fast = true;
    EXPECT_EQ(probe_device_fast_fp64(count, &fast), cudaErrorInvalidDevice);
    EXPECT_TRUE(fast); // untouched
    (void)cudaGetLastError();
}

TEST(GpuLaunch, OccupancyKeptPerShapeMatchesTheRuntime)
{
    CF_REQUIRE_GPU();
    int device = 0;
    ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
    // Neighbours that differ in the block size alone, in the shared memory
    // alone, and (96 KiB without the opt-in for more than 48 KiB) a shape
    // no block fits, asked twice.
    struct Shape {
        int threads;
        size_t shared;
    } shapes[] = { { 128, 0 },     { 128, 0 },     { 1024, 0 },     { 128, 0 },      { 128, 16384 },
                   { 1024, 0 },    { 1024, 0 },    { 256, 40000 },  { 128, 16384 },  { 128, 0 },
                   { 512, 8192 },  { 256, 40000 }, { 128, 98304 },  { 128, 98304 },  { 128, 0 } };
    int distinct = 0, last = -1;
    for (const Shape &s : shapes) {
        int asked = -1, kept = -1, uncached = -1;
        const cudaError_t asked_err = probe_occupancy_asked(s.threads, s.shared, &asked);
        EXPECT_EQ(probe_occupancy_kept(device, s.threads, s.shared, &kept), asked_err);
        // A device index past the kept ones is asked every time.
        EXPECT_EQ(probe_occupancy_kept(64, s.threads, s.shared, &uncached), asked_err);
        if (asked_err != cudaSuccess)
            continue;
        EXPECT_EQ(kept, asked) << s.threads << " threads, " << s.shared << " bytes shared";
        EXPECT_EQ(uncached, asked);
        distinct += kept != last;
        last = kept;
    }
    (void)cudaGetLastError();
    // The shapes really give different answers, so a stale one would show.
    EXPECT_GE(distinct, 4);
    // A block larger than any GPU allows: whatever the runtime answers (an
    // error or no blocks), the kept path answers the same.
    int asked = -7, kept = -7;
    const cudaError_t asked_err = probe_occupancy_asked(4096, 0, &asked);
    EXPECT_EQ(probe_occupancy_kept(device, 4096, 0, &kept), asked_err);
    if (asked_err == cudaSuccess)
        EXPECT_EQ(kept, asked);
    else
        EXPECT_EQ(kept, -7);
    (void)cudaGetLastError(); // leave no error behind for later tests
}

} // namespace
