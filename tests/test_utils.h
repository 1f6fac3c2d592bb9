// cudafilters tests: frames with guard bytes, random data, GPU skip helper.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

extern "C" {
#include "cudafilters/cudafilters.h"
}

namespace cftest {

constexpr size_t kGuard = 64; // bytes of guard before and after every plane

// True if a CUDA device is usable; tests needing one call CF_REQUIRE_GPU().
inline bool gpu_available()
{
    int n = 0;
    return cf_device_count(&n) == CF_OK && n > 0;
}

#define CF_REQUIRE_GPU()                                                                      \
    do {                                                                                      \
        if (!cftest::gpu_available())                                                         \
            GTEST_SKIP() << "no CUDA GPU: " << cf_device_unavailable_reason();                \
    } while (0)

#define CF_ASSERT_OK(expr)                                                                    \
    do {                                                                                      \
        cf_status st_ = (expr);                                                               \
        ASSERT_EQ(st_, CF_OK) << #expr << ": " << cf_status_name(st_) << ": "                \
                              << cf_last_error();                                             \
    } while (0)

// Copies raw bytes between host and device through the public API: a block
// of n bytes is a GRAY8 frame n pixels wide and 1 row high.
inline cf_status copy_bytes(void *dst, cf_memory dst_mem, const void *src, cf_memory src_mem,
                            size_t n)
{
    cf_frame s{}, d{};
    s.format = d.format = CF_FORMAT_GRAY8;
    s.width = d.width = (int)n;
    s.height = d.height = 1;
    s.data[0] = (uint8_t *)src;
    d.data[0] = (uint8_t *)dst;
    s.pitch[0] = d.pitch[0] = n;
    s.memory = src_mem;
    d.memory = dst_mem;
    cf_status st = cf_frame_copy(&s, &d, nullptr);
    return st == CF_OK && (src_mem == CF_MEMORY_DEVICE || dst_mem == CF_MEMORY_DEVICE)
               ? cf_stream_synchronize(nullptr)
               : st;
}

// A frame in one block of host or device memory, every plane with a random
// extra pitch and guard bands before and after it, all filled with random
// bytes. `host` always mirrors the block, so a device frame is checked by
// downloading the block and comparing guards and padding with the original.
class GuardedFrame {
public:
    // `align`: pitches and plane offsets are multiples of it (1 = any), so
    // both the aligned fast paths and the unaligned ones get exercised.
    GuardedFrame(cf_format format, int width, int height, cf_memory memory, std::mt19937 &rng,
                 size_t align = 1)
    {
        const cf_format_info *info = cf_format_get_info(format);
        frame_.format = format;
        frame_.width = width;
        frame_.height = height;
        frame_.memory = memory;
        frame_.device = memory == CF_MEMORY_DEVICE ? 0 : -1;
        size_t offset[CF_MAX_PLANES] = {};
        size_t total = 0;
        for (int p = 0; p < info->n_planes; p++) {
            size_t row = cf_format_plane_row_bytes(format, p, width);
            // Random padding, a whole number of samples (16-bit formats need
            // even pitches).
            frame_.pitch[p] = row + info->sample_bytes *
                                        std::uniform_int_distribution<int>(0, 20)(rng);
            frame_.pitch[p] = (frame_.pitch[p] + align - 1) / align * align;
            total += kGuard;
            total = (total + align - 1) / align * align;
            offset[p] = total;
            total += frame_.pitch[p] * cf_format_plane_height(format, p, height) + kGuard;
        }
        original_.resize(total);
        for (auto &b : original_) b = (uint8_t)rng();
        host_ = original_;
        uint8_t *base = host_.data();
        if (memory == CF_MEMORY_DEVICE) {
            void *dev = nullptr;
            if (cf_device_alloc(&dev, total) != CF_OK) throw std::runtime_error(cf_last_error());
            device_block_ = (uint8_t *)dev;
            if (copy_bytes(dev, CF_MEMORY_DEVICE, host_.data(), CF_MEMORY_HOST, total) != CF_OK)
                throw std::runtime_error(cf_last_error());
            base = device_block_;
        }
        for (int p = 0; p < info->n_planes; p++) frame_.data[p] = base + offset[p];
        for (int p = 0; p < info->n_planes; p++) offset_[p] = offset[p];
        n_planes_ = info->n_planes;
    }
    ~GuardedFrame() { cf_device_free(device_block_); }
    GuardedFrame(const GuardedFrame &) = delete;
    GuardedFrame &operator=(const GuardedFrame &) = delete;

    cf_frame *frame() { return &frame_; }

    // Brings a device block back into host_ (no-op for host frames).
    void sync_to_host()
    {
        if (device_block_) {
            ASSERT_EQ(copy_bytes(host_.data(), CF_MEMORY_HOST, device_block_, CF_MEMORY_DEVICE,
                                 host_.size()),
                      CF_OK)
                << cf_last_error();
        }
    }

    // Pixel bytes of plane p, rows packed (pitch padding dropped), from host_.
    std::vector<uint8_t> pixels(int p) const
    {
        size_t row = cf_format_plane_row_bytes(frame_.format, p, frame_.width);
        int rows = cf_format_plane_height(frame_.format, p, frame_.height);
        std::vector<uint8_t> out(row * rows);
        for (int y = 0; y < rows; y++)
            std::memcpy(&out[row * y], &host_[offset_[p] + y * frame_.pitch[p]], row);
        return out;
    }

    // Number of bytes outside the pixels (guards and pitch padding) that
    // differ from what was written at construction; must be 0.
    size_t damaged_guard_bytes() const
    {
        std::vector<bool> is_pixel(host_.size(), false);
        for (int p = 0; p < n_planes_; p++) {
            size_t row = cf_format_plane_row_bytes(frame_.format, p, frame_.width);
            int rows = cf_format_plane_height(frame_.format, p, frame_.height);
            for (int y = 0; y < rows; y++)
                for (size_t x = 0; x < row; x++) is_pixel[offset_[p] + y * frame_.pitch[p] + x] = true;
        }
        size_t bad = 0;
        for (size_t i = 0; i < host_.size(); i++)
            if (!is_pixel[i] && host_[i] != original_[i]) bad++;
        return bad;
    }

private:
    cf_frame frame_{};
    std::vector<uint8_t> original_, host_;
    uint8_t *device_block_ = nullptr;
    size_t offset_[CF_MAX_PLANES] = {};
    int n_planes_ = 0;
};

// Host frame wrapping a packed buffer (pitch = row bytes), for small
// hand-written cases.
inline cf_frame wrap_gray(std::vector<uint8_t> &pixels, int width, int height)
{
    cf_frame f{};
    f.format = CF_FORMAT_GRAY8;
    f.width = width;
    f.height = height;
    f.data[0] = pixels.data();
    f.pitch[0] = (size_t)width;
    f.memory = CF_MEMORY_HOST;
    f.device = -1;
    return f;
}

// Every plane of a frame (host or device), rows packed, read back to the host.
inline std::vector<uint8_t> packed_pixels(const cf_frame &f)
{
    cf_frame host;
    EXPECT_EQ(cf_frame_alloc(&host, f.format, f.width, f.height, CF_MEMORY_HOST), CF_OK);
    EXPECT_EQ(cf_frame_copy(&f, &host, nullptr), CF_OK) << cf_last_error();
    if (f.memory == CF_MEMORY_DEVICE) {
        EXPECT_EQ(cf_stream_synchronize(nullptr), CF_OK);
    }
    std::vector<uint8_t> out;
    const cf_format_info *info = cf_format_get_info(f.format);
    for (int p = 0; p < info->n_planes; p++) {
        size_t row = cf_format_plane_row_bytes(f.format, p, f.width);
        for (int y = 0; y < cf_format_plane_height(f.format, p, f.height); y++)
            out.insert(out.end(), host.data[p] + y * host.pitch[p], host.data[p] + y * host.pitch[p] + row);
    }
    cf_frame_free(&host);
    return out;
}

// A chain parsed from a filter string ("" is the empty chain, which
// cf_chain_parse refuses), with its filters as an array for a scheduler.
struct Chain {
    explicit Chain(const char *text) : chain(*text ? cf_chain_parse(text) : nullptr)
    {
        EXPECT_TRUE(chain || !*text) << cf_last_error();
        for (int i = 0; chain && i < cf_chain_length(chain); i++) filters.push_back(cf_chain_get(chain, i));
    }
    ~Chain() { cf_chain_free(&chain); }
    Chain(const Chain &) = delete;
    Chain &operator=(const Chain &) = delete;
    // The format the chain ends in for `in`, each filter's preferred output.
    cf_format output(cf_format in) const
    {
        for (cf_filter *f : filters) EXPECT_EQ(cf_filter_get_output_format(f, in, &in), CF_OK);
        return in;
    }
    // What running the filters one after the other on the CPU gives (host
    // `src`): every plane, rows packed.
    std::vector<uint8_t> reference(const cf_frame *src) const
    {
        cf_frame cur{};
        const cf_frame *in = src;
        for (cf_filter *f : filters) {
            cf_format out;
            EXPECT_EQ(cf_filter_get_output_format(f, in->format, &out), CF_OK);
            cf_frame next;
            EXPECT_EQ(cf_frame_alloc(&next, out, src->width, src->height, CF_MEMORY_HOST), CF_OK);
            EXPECT_EQ(cf_filter_run(f, in, &next, nullptr), CF_OK) << cf_last_error();
            cf_frame_free(&cur);
            cur = next;
            in = &cur;
        }
        auto out = packed_pixels(*in);
        cf_frame_free(&cur);
        return out;
    }
    cf_chain *chain;
    std::vector<cf_filter *> filters;
};

// Runs filter f from a sw x sh `fmt` frame into a dw x dh `out_fmt` one on
// the CPU and on the GPU over the same random input, and compares every
// output plane and every guard byte. Rows are 16-byte aligned or not at
// random unless `align` (bytes) says. Needs a GPU (CF_REQUIRE_GPU first).
inline void expect_cpu_gpu_equal(cf_filter *f, cf_format fmt, int sw, int sh, cf_format out_fmt,
                                 int dw, int dh, std::mt19937 &rng, size_t align = 0)
{
    std::mt19937 data_rng(rng());
    std::mt19937 data_rng_copy = data_rng;
    if (align == 0)
        align = rng() % 2 ? 16 : 1; // aligned rows take the vectorised paths
    GuardedFrame host_src(fmt, sw, sh, CF_MEMORY_HOST, data_rng, align);
    GuardedFrame dev_src(fmt, sw, sh, CF_MEMORY_DEVICE, data_rng_copy, align);
    GuardedFrame host_dst(out_fmt, dw, dh, CF_MEMORY_HOST, rng, align);
    GuardedFrame dev_dst(out_fmt, dw, dh, CF_MEMORY_DEVICE, rng, align);
    // Same seed, same layout: the two sources hold the same pixels.
    ASSERT_EQ(host_src.pixels(0), dev_src.pixels(0));

    CF_ASSERT_OK(cf_filter_run(f, host_src.frame(), host_dst.frame(), nullptr));
    cf_stream stream = nullptr;
    CF_ASSERT_OK(cf_stream_create(&stream));
    CF_ASSERT_OK(cf_filter_run(f, dev_src.frame(), dev_dst.frame(), stream));
    CF_ASSERT_OK(cf_stream_synchronize(stream));
    cf_stream_destroy(&stream);
    dev_dst.sync_to_host();
    dev_src.sync_to_host();

    const cf_format_info *info = cf_format_get_info(out_fmt);
    for (int p = 0; p < info->n_planes; p++) {
        auto a = host_dst.pixels(p), b = dev_dst.pixels(p);
        ASSERT_EQ(a.size(), b.size());
        size_t first = 0;
        while (first < a.size() && a[first] == b[first]) first++;
        EXPECT_EQ(first, a.size()) << "plane " << p << " differs first at byte " << first
                                   << ": cpu " << int(a[first]) << " gpu " << int(b[first]);
    }
    EXPECT_EQ(dev_dst.damaged_guard_bytes(), 0u);
    EXPECT_EQ(dev_src.damaged_guard_bytes(), 0u);
    EXPECT_EQ(host_dst.damaged_guard_bytes(), 0u);
}

// This process's resident set (VmRSS) in KiB, -1 if unknown.
inline long rss_kib()
{
    std::ifstream f("/proc/self/status");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
    return -1;
}

} // namespace cftest
