#!/usr/bin/env python3
"""Peers for bench/run-bench.sh on the GPU host: CuPy (the classic
ElementwiseKernel gray, cupyx gaussian_filter) and OpenCV on the CPU, on the
same 4K frames as cf-bench (random data, inputs rotated over more than the
L2, warm-up, medians)."""
import os
import time

import numpy as np

W, H, REPS = 3840, 2160, 50


def gpu_median(fn, n):
    import cupy as cp
    for i in range(5):
        fn(i % n)
    start, end = cp.cuda.Event(), cp.cuda.Event()
    times = []
    batch = 10  # runs back to back per sample, as cf-bench times
    for i in range(REPS):
        start.record()
        for k in range(batch):
            fn((i * batch + k) % n)
        end.record()
        end.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, end) / batch)
    return sorted(times)[len(times) // 2]


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
    ms = gpu_median(lambda i: kernel(rgba[i][..., 0], rgba[i][..., 1], rgba[i][..., 2], out), n)
    print(f"| CuPy ElementwiseKernel gray RGBA | {ms:8.4f} |")
    for sigma in (2, 8):
        ms = gpu_median(lambda i: ndi.gaussian_filter(gray[i], sigma, mode="mirror", truncate=3.0), n)
        print(f"| cupyx gaussian_filter sigma {sigma} GRAY8 | {ms:8.4f} |")
        ms = gpu_median(lambda i: ndi.gaussian_filter(rgba[i], (sigma, sigma, 0), mode="mirror",
                                                      truncate=3.0), n)
        print(f"| cupyx gaussian_filter sigma {sigma} RGBA | {ms:8.4f} |")


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
