// The fast CUDA kernels (kernels/convert_fast.cu, kernels/scale_fast.cu)
// compiled as host C++ and run thread by thread (emu/cuda_host.h) against
// the CPU reference, bit for bit, on random formats, parameters, sizes
// (1x1, odd, partial groups of columns, 4K), crops and data: their integer
// arithmetic, edges and tails checked on machines without a GPU. What only
// the GPU shows (alignment faults, out-of-bounds accesses outside the
// frames, launch errors) is the GPU suite's and compute-sanitizer's job
// (test_convert_scale_gpu.cpp). Every output byte is compared, row padding
// and the bytes between planes included, so a stray write shows.
#include "emu/cuda_host.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

// The kernels' sources, with their dispatch, in this translation unit.
#include "../kernels/convert_fast.cu"
#include "../kernels/convert_fast_rgb.cu"
#include "../kernels/convert_fast_yuv.cu"
#include "../kernels/scale_fast.cu"

// What the reference's objects call outside the ones this test links
// (convert_filter.c's descriptor, CF_CUDA_CHECK); never reached except
// cf_cuda_check, which sees only cudaSuccess here.
extern "C" {
cf_status cf_convert_cuda(const cf_convert_plan *, const cf_frame *, cf_frame *, cf_stream)
{
    std::abort();
}
void cf_rows_cpu_run(void) { std::abort(); }
void cf_convert_fast(void) { std::abort(); } // the optimized CPU path (convert_cpu_fast.c)
cf_status cf_cuda_check(int err, const char *, const char *, int)
{
    return err ? CF_ERROR_CUDA : CF_OK;
}
}

namespace {

// A host frame in one block of random bytes, planes and pitches on `align`
// bytes (pitches padded by up to two more steps).
struct Frame {
    cf_frame f{};
    std::vector<uint8_t> mem;
    size_t base = 0;

    Frame(cf_format fmt, int w, int h, std::mt19937 &rng, size_t align = 16)
    {
        f.format = fmt, f.width = w, f.height = h;
        f.memory = CF_MEMORY_HOST, f.device = -1;
        const cf_format_info *info = cf_format_get_info(fmt);
        size_t off[CF_MAX_PLANES], total = 0;
        for (int p = 0; p < info->n_planes; p++) {
            size_t rb = cf_format_plane_row_bytes(fmt, p, w);
            f.pitch[p] = (rb + align - 1) / align * align + align * (rng() % 3);
            total = (total + align - 1) / align * align + align * (rng() % 2);
            off[p] = total;
            total += f.pitch[p] * cf_format_plane_height(fmt, p, h);
        }
        mem.resize(total + 64);
        for (auto &b : mem) b = (uint8_t)rng();
        while ((uintptr_t)(mem.data() + base) % 64) base++;
        for (int p = 0; p < info->n_planes; p++) f.data[p] = mem.data() + base + off[p];
    }
    Frame(const Frame &o) : f(o.f), mem(o.mem), base(o.base)
    {
        for (int p = 0; p < CF_MAX_PLANES; p++)
            if (o.f.data[p]) f.data[p] = mem.data() + (o.f.data[p] - o.mem.data());
    }
};

void expect_same(const Frame &ref, const Frame &fast, const std::string &what)
{
    size_t i = 0;
    while (i < ref.mem.size() && ref.mem[i] == fast.mem[i]) i++;
    EXPECT_EQ(i, ref.mem.size()) << what << ": first difference at byte " << i << " of the block, "
                                 << "reference " << int(ref.mem[i]) << " fast " << int(fast.mem[i]);
}

int pick(std::mt19937 &rng, int lo, int hi)
{
    return std::uniform_int_distribution<int>(lo, hi)(rng);
}

struct Size {
    int w, h;
};

std::vector<Size> sizes(std::mt19937 &rng, int n)
{
    std::vector<Size> s = { { 1, 1 }, { 2, 2 }, { 3, 1 }, { 1, 3 }, { 4, 1 }, { 4, 2 },
                            { 5, 7 }, { 8, 8 }, { 9, 3 }, { 64, 2 }, { 127, 33 } };
    for (int i = 0; i < n; i++) s.push_back({ pick(rng, 1, 300), pick(rng, 1, 60) });
    return s;
}

// The convert shapes forced in turn (columns, rows a thread; 0: the
// dispatch's choice).
struct ForcedShape {
    int cols, rows;
};
const ForcedShape kShapes[] = { { 4, 1 }, { 4, 2 }, { 8, 1 }, { 8, 2 }, { 0, 0 } };

// The kernel convert_fast.cu names for shape sh: 8 columns need the
// 4:2:0 frame's luma and NV12 chroma planes on 8 bytes (pointer and
// pitch), I420's chroma on 4; 2 rows need linear chroma into RGB.
std::string expected_kernel(bool to_yuv, ForcedShape sh, const cf_frame &yuv, int filter)
{
    int cols = sh.cols ? sh.cols : 8, rows = sh.cols ? sh.rows : 2;
    bool nv12 = yuv.format == CF_FORMAT_NV12;
    for (int p = 0; p < (nv12 ? 2 : 3); p++) {
        size_t need = p == 0 || nv12 ? 8 : 4;
        if (((uintptr_t)yuv.data[p] | yuv.pitch[p]) % need)
            cols = 4;
    }
    if (to_yuv)
        return "rgb_to_yuv420_c" + std::to_string(cols);
    if (filter != CF_CHROMA_LINEAR)
        rows = 1;
    return "yuv420_to_rgb_c" + std::to_string(cols) + "r" + std::to_string(rows);
}

// Every source index of the plan's tables inside its class's crop (the
// kernels read each tap, weight 0 or not: an index past the crop reads
// past the frame, as area's padding taps did with a crop offset).
void expect_indices_inside(const cf_scale_plan &plan, cf_format fmt, int cx, int cy, int cw,
                           int ch, const std::string &what)
{
    const cf_format_info *fi = cf_format_get_info(fmt);
    for (int p = 0; p < plan.n_planes; p++) {
        int c = plan.planes[p].klass, xs = fi->x_shift[p], ys = fi->y_shift[p];
        for (int axis = 0; axis < 2; axis++) {
            const cf_scale_axis &a = axis ? plan.y[c] : plan.x[c];
            int s = axis ? ys : xs, o = axis ? cy : cx, n = axis ? ch : cw;
            int lo = o >> s, hi = ((o + n + (1 << s) - 1) >> s) - 1;
            const int32_t *idx = (const int32_t *)((const uint8_t *)plan.tables + a.index_offset);
            for (int i = 0; i < a.n * a.taps; i++) {
                ASSERT_GE(idx[i], lo) << what << " plane " << p << " axis " << axis;
                ASSERT_LE(idx[i], hi) << what << " plane " << p << " axis " << axis;
            }
        }
    }
}

} // namespace

TEST(FastKernelsEmu, ConvertEveryFastPairRandomParameters)
{
    std::mt19937 rng(20);
    const cf_format yuv[] = { CF_FORMAT_NV12, CF_FORMAT_I420 };
    const cf_format rgb[] = { CF_FORMAT_RGBA, CF_FORMAT_BGRA, CF_FORMAT_RGBX,
                              CF_FORMAT_BGRX, CF_FORMAT_RGB,  CF_FORMAT_BGR };
    std::vector<Size> all = sizes(rng, 12);
    all.push_back({ 3840, 2160 });
    for (Size s : all)
        for (cf_format y : yuv)
            for (cf_format r : rgb)
                for (int to_yuv = 0; to_yuv < 2; to_yuv++) {
                    if (s.w * s.h > 100000 && rng() % 6)
                        continue;
                    int matrix = pick(rng, 0, 2), range = pick(rng, 0, 1);
                    int site = pick(rng, 0, 1), filter = pick(rng, 0, 1);
                    int alpha = rng() % 2 ? -1 : pick(rng, 0, 255);
                    cf_format sf = to_yuv ? r : y, df = to_yuv ? y : r;
                    std::string what = std::string(cf_format_name(sf)) + " -> " + cf_format_name(df) +
                                       " " + std::to_string(s.w) + "x" + std::to_string(s.h) +
                                       " matrix " + std::to_string(matrix) + " range " +
                                       std::to_string(range) + " site " + std::to_string(site) +
                                       " filter " + std::to_string(filter) + " alpha " +
                                       std::to_string(alpha);
                    cf_convert_plan plan =
                        cf_convert_make_plan(sf, df, matrix, range, site, filter, alpha);
                    size_t align = rng() % 2 ? 16 : 4; // RGBA 16 bytes at a time or 4
                    Frame src(sf, s.w, s.h, rng, align), ref(df, s.w, s.h, rng, align);
                    Frame blank = ref;
                    ASSERT_EQ(cf_convert_cpu(&plan, &src.f, &ref.f), CF_OK);
                    // Every shape (columns, rows a thread), then the default.
                    for (const ForcedShape &sh : kShapes) {
                        cf_convert_cuda_force_shape(sh.cols, sh.rows);
                        Frame fast = blank;
                        cf_convert_planes in = cf_convert_planes_of(&src.f);
                        cf_convert_planes out = cf_convert_planes_of(&fast.f);
                        const char *name = cf_convert_fast_takes(&plan, &in, &out);
                        ASSERT_NE(name, nullptr) << what;
                        EXPECT_STREQ(name, expected_kernel(to_yuv, sh, to_yuv ? fast.f : src.f, filter).c_str())
                            << what;
                        ASSERT_EQ(cf_convert_fast_run(&plan, &in, &out, s.w, s.h, nullptr), CF_OK);
                        expect_same(ref, fast, what + " " + name);
                    }
                    cf_convert_cuda_force_shape(0, 0);
                }
}

// Planes off the word alignment are refused (the generic kernels take them).
TEST(FastKernelsEmu, ConvertRefusesMisalignedPlanes)
{
    std::mt19937 rng(2);
    cf_convert_plan plan = cf_convert_make_plan(CF_FORMAT_NV12, CF_FORMAT_RGBA, 1, 0, 0, 0, -1);
    Frame src(CF_FORMAT_NV12, 64, 8, rng), dst(CF_FORMAT_RGBA, 64, 8, rng);
    cf_convert_planes in = cf_convert_planes_of(&src.f), out = cf_convert_planes_of(&dst.f);
    EXPECT_NE(cf_convert_fast_takes(&plan, &in, &out), nullptr);
    out.data[0] += 4; // RGBA rows on 4 bytes, not 16: taken, 4 bytes at a time
    EXPECT_NE(cf_convert_fast_takes(&plan, &in, &out), nullptr);
    out.data[0] -= 2; // on 2 bytes
    EXPECT_EQ(cf_convert_fast_takes(&plan, &in, &out), nullptr);
    out.data[0] -= 2;
    in.pitch[1] += 2; // NV12 chroma rows not on 4 bytes
    EXPECT_EQ(cf_convert_fast_takes(&plan, &in, &out), nullptr);
    plan = cf_convert_make_plan(CF_FORMAT_P010_10LE, CF_FORMAT_RGBA, 1, 0, 0, 0, -1);
    EXPECT_EQ(cf_convert_fast_takes(&plan, &in, &out), nullptr); // 10-bit: not a fast shape
}

TEST(FastKernelsEmu, ScaleEightBitFormatsEveryMethodSizesAndCrops)
{
    std::mt19937 rng(2160);
    const cf_format formats[] = { CF_FORMAT_GRAY8, CF_FORMAT_RGBA, CF_FORMAT_RGB,
                                  CF_FORMAT_NV12,  CF_FORMAT_I420, CF_FORMAT_BGRX };
    for (int it = 0; it < 700; it++) {
        cf_format fmt = formats[it % 6];
        int method = pick(rng, 0, 4);
        int sw = pick(rng, 1, 200), sh = pick(rng, 1, 80), dw = pick(rng, 1, 200), dh = pick(rng, 1, 80);
        if (it % 5 == 0) { // whole factors: box means
            int kx = pick(rng, 1, 4), ky = pick(rng, 1, 4);
            dw = pick(rng, 1, 60), dh = pick(rng, 1, 30), sw = dw * kx, sh = dh * ky;
            method = CF_SCALE_AREA;
        }
        if (it % 7 == 3) { // exactly 2:1, bilinear or area: 2 x 2 boxes (box2w, box8)
            dw = pick(rng, 1, 150), dh = pick(rng, 1, 40), sw = 2 * dw, sh = 2 * dh;
            method = rng() % 2 ? CF_SCALE_AREA : CF_SCALE_BILINEAR;
        }
        if (it < 6) // the 4K <-> 1080p shapes of the benchmark
            sw = it < 4 ? 3840 : 1920, sh = it < 4 ? 2160 : 1080, dw = it < 4 ? 1920 : 3840,
            dh = it < 4 ? 1080 : 2160, method = it % 2 ? CF_SCALE_AREA : CF_SCALE_BILINEAR;
        Frame src(fmt, sw, sh, rng), ref(fmt, dw, dh, rng);
        Frame blank = ref;
        int cx = 0, cy = 0, cw = sw, ch = sh;
        if (rng() % 3 == 0 && sw > 2 && sh > 2) {
            cx = pick(rng, 0, sw - 2), cy = pick(rng, 0, sh - 2);
            cw = pick(rng, 1, sw - cx), ch = pick(rng, 1, sh - cy);
        }
        std::string what = std::string(cf_format_name(fmt)) + " method " + std::to_string(method) +
                           " " + std::to_string(sw) + "x" + std::to_string(sh) + " -> " +
                           std::to_string(dw) + "x" + std::to_string(dh) + " crop " +
                           std::to_string(cx) + "," + std::to_string(cy) + " " +
                           std::to_string(cw) + "x" + std::to_string(ch);
        cf_scale_plan plan;
        ASSERT_EQ(cf_scale_make_plan(&plan, method, &src.f, &ref.f, cx, cy, cw, ch), CF_OK) << what;
        expect_indices_inside(plan, fmt, cx, cy, cw, ch, what);
        ASSERT_EQ(cf_scale_cpu(&plan, &src.f, &ref.f), CF_OK);
        const uint8_t *t = (const uint8_t *)plan.tables;
        cf_scale_fast_args args[3];
        for (int p = 0; p < plan.n_planes; p++) {
            ASSERT_TRUE(cf_scale_fast_takes(&plan, p)) << what << " plane " << p;
            const cf_scale_plane &pp = plan.planes[p];
            int k = pp.klass;
            cf_scale_fast_args &a = args[p];
            a = {};
            a.xi = (const int32_t *)(t + plan.x[k].index_offset);
            a.xw = (const int16_t *)(t + plan.x[k].weight_offset);
            a.yi = (const int32_t *)(t + plan.y[k].index_offset);
            a.yw = (const int16_t *)(t + plan.y[k].weight_offset);
            a.tx = plan.x[k].taps, a.ty = plan.y[k].taps, a.kx = plan.kx[k], a.ky = plan.ky[k];
            a.src = src.f.data[p];
            if (plan.box[k])
                a.src += (size_t)plan.y0[k] * src.f.pitch[p] + (size_t)plan.x0[k] * pp.cn;
            a.src_pitch = src.f.pitch[p];
            a.dst = blank.f.data[p], a.dst_pitch = blank.f.pitch[p];
            a.dw = pp.dw, a.dh = pp.dh, a.plane = p;
        }
        // All planes together (fused where they share a variant), and for
        // frames of several planes, also one plane at a time; 2 x 2 boxes
        // also with the word kernel forced off.
        for (int narrow = 0; narrow < 2; narrow++) {
            cf_scale_cuda_force_narrow(narrow == 1);
            Frame once = blank;
            for (int p = 0; p < plan.n_planes; p++)
                args[p].dst = once.f.data[p];
            const char *name = "";
            ASSERT_EQ(cf_scale_fast_run(&plan, args, plan.n_planes, nullptr, &name), CF_OK);
            std::string how = what + " " + name;
            expect_same(ref, once, how);
            if (narrow) {
                EXPECT_STRNE(name, "box2w") << how;
            } else if (it < 4 && fmt != CF_FORMAT_RGB && cw == sw && ch == sh) {
                EXPECT_STREQ(name, "box2w") << how; // 4K -> 1080p, 16-byte rows
            }
            if (plan.n_planes > 1) {
                Frame again = blank;
                for (int p = 0; p < plan.n_planes; p++) {
                    cf_scale_fast_args one = args[p];
                    one.dst = again.f.data[p];
                    ASSERT_EQ(cf_scale_fast_run(&plan, &one, 1, nullptr, &name), CF_OK);
                }
                expect_same(ref, again, how + " (plane by plane)");
            }
        }
        cf_scale_cuda_force_narrow(false);
        cf_scale_free_plan(&plan);
    }
}
