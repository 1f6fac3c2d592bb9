#!/usr/bin/env python3
"""Issue 17's table from one GPU call (bench/diag/s25-final.sh): every row
of cf-bench's blur sweep beside cupyx gaussian_filter and NPP
FilterGaussAdvancedBorder from the same call, with the floor ratio and
the peers' times as multiples of ours and "x copy" (cf-bench's time
against the larger of the arithmetic floor and a device copy of the
case's own bytes); then the issue's other targets (cost against sigma
8, `sigma=3 sigma-y=1` against `sigma=3`, sigma 2-8 against the times
when the issue was filed); then, for the rows on the
tensor-core method, two more floors: the tensor-core products the kernels
issue (band zeros included: 64 MACs a sample per rows step, 128 per
columns step; kernels/blur_tensor.cu's row_steps and col_steps) at the
int8 ceiling cf-bench measured, and the paired 32-bit IMADs a scalar
method needs (the two-pass method's count) at the IMAD ceiling. Those
two floors model the 8-bit passes only: rows of 16-bit frames on the
tensor-core method (whose passes split samples into more bytes) are left
out of that second table.

usage: s25-peer-table.py SWEEP.txt CUPYX.txt NPP.txt > table.md

Peers are matched by format, frame size and sigmas. cupyx and NPP blur
only the luma of P010 (our rows blur both planes, 1.5x the samples); NPP
has one kernel for both axes, so no unequal rows, and bench/npp_peer.cu
runs RGBA, 8K and P010 up to sigma 16 only. A missing peer is "-"."""
import re
import sys


def sweep_rows(path):
    pat = re.compile(r"^\| blur sigma ([\d.]+)(?: sigma-y ([\d.]+))? (\S+) (\d+x\d+) \(([\dx]+) taps\) \[(\w+(?:\+\w+)*)\] \|"
                     r"\s*([\d.]+) \|(?:[^|]*\|){4}\s*([\d.]+)x \|[^|]*\|\s*([\d.]+)x \|")
    for line in open(path):
        m = pat.match(line)
        if m:
            sx, sy, fmt, size, taps, method, ms, xfloor, xcopy = m.groups()
            yield (float(sx), float(sy or sx), fmt, size, taps, method, float(ms), float(xfloor),
                   float(xcopy))


def cupyx_times(path):
    pat = re.compile(r"^\| cupyx gaussian_filter sigma ([\d.]+)(?: sigma-y ([\d.]+))? (.+?) \|\s*([\d.]+) \|")
    names = {"GRAY8": ("GRAY8", "3840x2160"), "RGBA": ("RGBA", "3840x2160"),
             "NV12 (Y, then UV)": ("NV12", "3840x2160"), "P010 luma (uint16)": ("P010_10LE", "3840x2160"),
             "GRAY8 7680x4320": ("GRAY8", "7680x4320")}
    out = {}
    for line in open(path):
        m = pat.match(line)
        if m and m.group(3) in names:
            sx = float(m.group(1))
            out[(sx, float(m.group(2) or sx)) + names[m.group(3)]] = float(m.group(4))
    return out


def npp_times(path):
    pat = re.compile(r"^\| NPP FilterGaussAdvancedBorder sigma ([\d.]+) (GRAY8|RGBA|P010 luma) (\d+x\d+) "
                     r"\(\d+ taps\)[^|]*\|\s*([\d.]+) \|")
    out = {}
    for line in open(path):
        m = pat.match(line)
        if m:
            s = float(m.group(1))
            fmt = "P010_10LE" if m.group(2) == "P010 luma" else m.group(2)
            out[(s, s, fmt, m.group(3))] = float(m.group(4))
    return out


def ceilings(path):
    """(IMAD, int8 tensor-core) ceilings of the sweep's header, per second."""
    text = open(path).read()
    imad = float(re.search(r"32-bit IMAD (\d+) G/s", text).group(1))
    mma = float(re.search(r"int8 tensor-core multiply-adds (\d+) G/s", text).group(1))
    return imad * 1e9, mma * 1e9


def round4(r):
    return (r + 3) // 4 * 4


def row_steps(r):
    return (2 * r + 31 + (round4(r) - r)) // 32 + 1


def col_steps(r):
    return (2 * r + 15 + (round4(r) - r)) // 32 + 1


def tensor_table(path):
    imad, mma = ceilings(path)
    per_pixel = {"GRAY8": 1, "RGBA": 4, "NV12": 1.5}  # the 8-bit formats of the sweep
    pat = re.compile(r"^\| blur (sigma [\d.]+(?: sigma-y [\d.]+)? (\S+) (\d+)x(\d+) \((\d+)(?:x(\d+))? taps\)) "
                     r"\[tensor\] \|\s*([\d.]+) \|(?:[^|]*\|){2}\s*([\d.]+) \|[^|]*\|\s*([\d.]+)x \|")
    print("| case | ms | x floor | issued / useful products | issued-products floor us | "
          "x max(bytes, issued products) | x paired-IMAD floor |")
    print("|---|---|---|---|---|---|---|")
    for line in open(path):
        m = pat.match(line)
        if not m:
            continue
        case, fmt, w, h, kx, ky, ms, mem_floor, xfloor = m.groups()
        if fmt not in per_pixel:
            continue  # a 16-bit frame: its passes are not the ones modelled here
        kx = int(kx)
        ky = int(ky or kx)
        ms = float(ms)
        samples = int(w) * int(h) * per_pixel[fmt]
        issued = 64 * row_steps(kx // 2) + 128 * col_steps(ky // 2)
        useful = 2 * kx + 4 * ky
        issued_ms = samples * issued / mma * 1e3
        scalar_ms = samples * ((kx // 2 + 1) + (ky // 2 + 1)) / imad * 1e3
        print(f"| {case} | {ms:.4f} | {float(xfloor):.2f}x | {issued / useful:.2f} | {issued_ms * 1e3:.1f} | "
              f"{ms / max(issued_ms, float(mem_floor)):.2f}x | {ms / scalar_ms:.2f}x |")


# Issue 17's times "today" when it was filed (4K GRAY8; RGBA from the
# README's table of that day), for its target "sigma 1-8 no slower than
# today".
FILED = {(2.0, "GRAY8"): 0.020, (4.0, "GRAY8"): 0.031, (8.0, "GRAY8"): 0.061,
         (2.0, "RGBA"): 0.066, (8.0, "RGBA"): 0.263}


def targets(rows):
    """Issue 17's targets other than the floor, from the same sweep."""
    ms = {(r[0], r[1], r[2], r[3]): r[6] for r in rows}
    print("| format | size | sigma 16 / 8 (<= 2.2) | 32 / 8 (<= 4.4) | 64 / 8 (<= 8.8) | "
          "sigma=3 sigma-y=1 / sigma=3 (<= 1) |")
    print("|---|---|---|---|---|---|")
    for fmt, size in dict.fromkeys((r[2], r[3]) for r in rows):  # in the sweep's order
        base = ms.get((8.0, 8.0, fmt, size))
        cells = [f"{ms[(s, s, fmt, size)] / base:.2f}x" if base and (s, s, fmt, size) in ms else "-"
                 for s in (16.0, 32.0, 64.0)]
        a, b = ms.get((3.0, 1.0, fmt, size)), ms.get((3.0, 3.0, fmt, size))
        cells.append(f"{a / b:.2f}x" if a and b else "-")
        print(f"| {fmt} | {size} | " + " | ".join(cells) + " |")
    print()
    print("| case | filed ms | now ms |")
    print("|---|---|---|")
    for (s, fmt), t in FILED.items():
        now = ms.get((s, s, fmt, "3840x2160"))
        print(f"| sigma {s:g} {fmt} 3840x2160 | {t:.3f} | " + (f"{now:.4f}" if now else "-") + " |")


def main():
    rows = list(sweep_rows(sys.argv[1]))
    cupyx, npp = cupyx_times(sys.argv[2]), npp_times(sys.argv[3])
    print("| case | method | ms | x floor | x copy | cupyx ms | cupyx / ours | NPP ms | NPP / ours |")
    print("|---|---|---|---|---|---|---|---|---|")
    behind = []
    for sx, sy, fmt, size, taps, method, ms, xfloor, xcopy in rows:
        key = (sx, sy, fmt, size)
        case = f"sigma {sx:g}" + ("" if sy == sx else f" sigma-y {sy:g}") + f" {fmt} {size} ({taps} taps)"
        cells = []
        for peer in (cupyx, npp):
            t = peer.get(key)
            cells += [f"{t:.4f}", f"{t / ms:.1f}x"] if t is not None else ["-", "-"]
            if t is not None and t <= ms:
                behind.append(case)
        print(f"| {case} | {method} | {ms:.4f} | {xfloor:.2f}x | {xcopy:.2f}x | " + " | ".join(cells) + " |")
    n_c = sum(1 for r in rows if r[:2] + r[2:4] in cupyx)
    n_n = sum(1 for r in rows if r[:2] + r[2:4] in npp)
    within = sum(1 for r in rows if r[7] <= 2.0)
    within_copy = sum(1 for r in rows if r[8] <= 2.0)
    print()
    print(f"{len(rows)} rows; {n_c} with a cupyx time, {n_n} with an NPP time; "
          f"rows where a peer is as fast or faster: {len(behind)}{': ' + ', '.join(behind) if behind else ''}; "
          f"within 2x of the floor: {within}; within 2x of the larger of the arithmetic floor and "
          f"a device copy of the case's own bytes (x copy): {within_copy}")
    print()
    targets(rows)
    print()
    tensor_table(sys.argv[1])


if __name__ == "__main__":
    main()
