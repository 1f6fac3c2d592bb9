#!/usr/bin/env python3
"""Peers for bench/run-bench.sh on the GPU host: CuPy (the classic
ElementwiseKernel gray, cupyx gaussian_filter) and OpenCV on the CPU, on the
same 4K frames as cf-bench (random data, inputs rotated over more than the
L2, warm-up, stream hold, medians).

A cupyx case costs about 2.5 s on the H200 host, most of it NVRTC compiling
the filter's kernels for each new size (the host keeps no kernel cache
between calls): the whole sweep (100 cases) takes about 4 minutes.
PEERS_SIGMAS (say "8,16,32,64"), PEERS_UNEQUAL (pairs sigma/sigma-y as
cf-bench names them, say "3/1,32/8"; "-" for none) and PEERS_CASES (say
"GRAY8,NV12", names as the rows print them, before any space) pick a part
of it."""
import os
import time

import numpy as np

W, H, REPS = 3840, 2160, 50
SIGMAS = tuple(float(x) for x in os.environ.get("PEERS_SIGMAS", "").split(",") if x) or (
    0.5, 1, 1.5, 2, 3, 4, 5, 6, 8, 12, 16, 24, 32, 48, 64)
# cf-bench's unequal cases (horizontal sigma, vertical sigma-y).
UNEQUAL = tuple(tuple(float(v) for v in x.split("/")) for x in
                os.environ.get("PEERS_UNEQUAL", "3/1,8/2,2/8,32/8,64/16").split(",")
                if x and x != "-")
CASES = [x for x in os.environ.get("PEERS_CASES", "").split(",") if x]


_hold = None  # (kernel, address, flags) once made, or the exception that stopped it


def stream_hold():
    """bench/hold.cuh's stream hold in CuPy (its kernel, compiled here): a
    one-thread kernel that spins on a flag in mapped pinned host memory
    until the host, done queuing a batch, sets it (or 2 s pass). Returns
    (kernel, address, flags)."""
    global _hold
    if _hold is None:
        try:
            import ctypes
            import cupy as cp
            path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hold.cuh")
            with open(path) as f:
                module = cp.RawModule(code=f.read(), name_expressions=["bench::hold_stream"])
            kernel = module.get_function("bench::hold_stream")
            rt = cp.cuda.runtime
            addr = rt.hostAlloc(8, getattr(rt, "hostAllocMapped", 2))  # cudaHostAllocMapped
            # Unified addressing: the mapped host address is the device address.
            flags = np.ctypeslib.as_array((ctypes.c_int * 2).from_address(addr))
            _hold = (kernel, addr, flags)
        except Exception as e:  # made once: every case then times without it
            _hold = e
    if isinstance(_hold, Exception):
        raise _hold
    return _hold


def gpu_median(fn, n):
    """Median ms a run, timed as cf-bench times: warm-up runs, then samples
    of runs queued behind a stream hold: 50 samples of 10 runs, fewer for
    slow runs (one run timed first: batches of about 20 ms, about 0.5 s a
    case, at least 3 samples of 1 run). If a run waits on the stream inside
    the hold, the case is timed again from an idle stream. Returns (ms,
    note for the row)."""
    import cupy as cp
    start, end = cp.cuda.Event(), cp.cuda.Event()
    fn(0)
    start.record()
    fn(1 % n)
    end.record()
    end.synchronize()
    one = max(cp.cuda.get_elapsed_time(start, end), 1e-3)
    batch = min(10, max(1, int(20 / one)))  # runs back to back per sample
    reps = min(REPS, max(3, int(500 / (one * batch))))
    for i in range(0 if one > 50 else min(5, 2 * batch)):
        fn(i % n)
    try:
        kernel, addr, flags = stream_hold()
        modes = (True, False)
        idle = " (from an idle stream: it waited inside the hold)"
    except Exception as e:  # no hold: still time the peer, and say how
        modes = (False,)
        idle = f" (from an idle stream: no hold, {type(e).__name__})"
    for hold in modes:
        times = []
        for i in range(reps):
            if hold:
                flags[0], flags[1] = 0, -1
                kernel((1,), (1,), (np.uint64(addr), np.uint64(addr + 4), np.uint64(2 * 10**9)))
            start.record()
            for k in range(batch):
                fn((i * batch + k) % n)
            end.record()
            if hold:
                flags[0] = 1
            end.synchronize()
            if hold and flags[1] != 0:
                break
            times.append(cp.cuda.get_elapsed_time(start, end) / batch)
        else:
            return sorted(times)[len(times) // 2], "" if hold else idle
    raise AssertionError("unreachable")


def cpu_median(fn, reps=20):
    fn()
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return sorted(times)[len(times) // 2]


def cupy_rows():
    import cupy as cp
    import cupyx.scipy.ndimage as ndi
    rng = cp.random.default_rng(1)
    n = 16
    rgba = [rng.integers(0, 256, (H, W, 4), dtype=cp.uint8) for _ in range(n)]
    gray = [rng.integers(0, 256, (H, W), dtype=cp.uint8) for _ in range(n)]
    kernel = cp.ElementwiseKernel("uint8 r, uint8 g, uint8 b", "uint8 y",
                                  "y = (unsigned char)(0.299f * r + 0.587f * g + 0.114f * b)",
                                  "classic_gray")
    out = cp.empty((H, W), cp.uint8)
    ms, note = gpu_median(lambda i: kernel(rgba[i][..., 0], rgba[i][..., 1], rgba[i][..., 2], out), n)
    print(f"| CuPy ElementwiseKernel gray RGBA{note} | {ms:8.4f} |")
    # cf-bench's blur sweep (truncate=3: OpenCV's 6 sigma + 1 taps for
    # 8-bit; 4 for the 16-bit luma, its 8 sigma + 1), mirror = reflect101;
    # NV12 as its two planes, the UV plane's channels apart (sigma 0), as
    # cudablur blurs them. Every sigma of the sweep on every case.
    gray16 = [rng.integers(0, 1024, (H, W), dtype=cp.uint16) << 6 for _ in range(4)]
    gray8k = [rng.integers(0, 256, (2 * H, 2 * W), dtype=cp.uint8) for _ in range(4)]
    nv12 = [(rng.integers(0, 256, (H, W), dtype=cp.uint8),
             rng.integers(0, 256, (H // 2, W // 2, 2), dtype=cp.uint8)) for _ in range(8)]

    def blur(x, s, truncate):
        return ndi.gaussian_filter(x, s, mode="mirror", truncate=truncate)

    # (sigma, sigma-y): cupyx takes a sigma per axis, rows (y) first.
    for sx, sy in [(s, s) for s in SIGMAS] + list(UNEQUAL):
        yx = (sy, sx)
        cases = [("GRAY8", lambda i: blur(gray[i], yx, 3.0), len(gray)),
                 ("RGBA", lambda i: blur(rgba[i], yx + (0,), 3.0), len(rgba)),
                 ("NV12 (Y, then UV)", lambda i: (blur(nv12[i][0], yx, 3.0),
                                                  blur(nv12[i][1], yx + (0,), 3.0)),
                  len(nv12)),
                 ("P010 luma (uint16)", lambda i: blur(gray16[i], yx, 4.0), len(gray16)),
                 ("GRAY8 7680x4320", lambda i: blur(gray8k[i], yx, 3.0), len(gray8k))]
        label = f"sigma {sx:g}" + ("" if sy == sx else f" sigma-y {sy:g}")
        for name, fn, n_frames in cases:
            if CASES and name.split(" ")[0] not in CASES:
                continue
            ms, note = gpu_median(fn, n_frames)
            print(f"| cupyx gaussian_filter {label} {name}{note} | {ms:8.4f} |", flush=True)


def opencv_rows():
    import cv2
    cv2.setNumThreads(os.cpu_count())
    rng = np.random.default_rng(1)
    rgba = rng.integers(0, 256, (H, W, 4), dtype=np.uint8)
    ms = cpu_median(lambda: cv2.cvtColor(rgba, cv2.COLOR_RGBA2GRAY))
    print(f"| OpenCV CPU ({os.cpu_count()} threads) cvtColor RGBA2GRAY | {ms:8.4f} |")
    ms = cpu_median(lambda: cv2.GaussianBlur(rgba, (0, 0), 2))
    print(f"| OpenCV CPU ({os.cpu_count()} threads) GaussianBlur sigma 2 RGBA | {ms:8.4f} |")


if __name__ == "__main__":
    print("| peer | ms |\n|---|---|")
    for rows in (cupy_rows, opencv_rows):
        try:
            rows()
        except Exception as e:  # a missing peer must not hide the others
            print(f"| {rows.__name__} failed: {e} | |")
