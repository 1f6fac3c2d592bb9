#!/usr/bin/python3
"""Makes the OpenCV reference vectors in this folder (run it with Debian's
python3-opencv; the outputs are committed so the tests need no OpenCV).

Inputs are odd-sized crops of real photos from Debian's opencv-doc package,
saved as binary PPM (RGB). For each input the expected results are binary
PGM/PPM files named in MANIFEST, one line each:
  <output file> <input file> <filter string for cudafilters>
made with cv2.cvtColor(RGB2GRAY) and cv2.GaussianBlur. Our gray must equal
them exactly, our blur within 1 (tests/test_vectors.cpp)."""
import os
import sys

import cv2

DATA = "/usr/share/doc/opencv-doc/examples/data"
HERE = os.path.dirname(os.path.abspath(__file__))
PHOTOS = [("baboon.jpg", (40, 31, 231, 173)), ("fruits.jpg", (100, 53, 177, 131))]
BORDERS = {"reflect101": cv2.BORDER_REFLECT_101, "replicate": cv2.BORDER_REPLICATE,
           "reflect": cv2.BORDER_REFLECT, "constant": cv2.BORDER_CONSTANT}
# (sigma, sigma_y, kernel_size, border); 0 = derived like our defaults.
BLURS = [(2.0, 0, 0, "reflect101"), (1.3, 0, 0, "replicate"), (3.7, 0, 0, "reflect"),
         (2.0, 0, 0, "constant"), (6.0, 0, 0, "reflect101"), (0.8, 0, 7, "reflect101"),
         (2.0, 4.5, 0, "replicate"), (0.3, 0, 0, "reflect101")]


def main():
    lines = []
    print("OpenCV", cv2.__version__)
    for name, (x, y, w, h) in PHOTOS:
        bgr = cv2.imread(os.path.join(DATA, name), cv2.IMREAD_COLOR)[y:y + h, x:x + w]
        rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
        stem = os.path.splitext(name)[0]
        src = f"{stem}.ppm"
        cv2.imwrite(os.path.join(HERE, src), bgr)  # imwrite takes BGR, stores RGB
        gray = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
        cv2.imwrite(os.path.join(HERE, f"{stem}-gray.pgm"), gray)
        lines.append(f"{stem}-gray.pgm {src} gray")
        for i, (sx, sy, k, border) in enumerate(BLURS):
            for kind, img in (("gray", gray), ("rgb", rgb)):
                out = cv2.GaussianBlur(img, (k, k), sigmaX=sx, sigmaY=sy, borderType=BORDERS[border])
                fname = f"{stem}-blur{i}-{kind}.{'pgm' if kind == 'gray' else 'ppm'}"
                cv2.imwrite(os.path.join(HERE, fname),
                            out if kind == "gray" else cv2.cvtColor(out, cv2.COLOR_RGB2BGR))
                chain = f"blur=sigma={sx}:sigma-y={sy}:kernel-size={k}:border={border}"
                if kind == "gray":
                    chain = "gray," + chain
                lines.append(f"{fname} {src} {chain}")
    # All 2^24 RGB values, R slowest, through cvtColor: too big to commit, so
    # only its FNV-1a 64-bit hash is kept (tests/test_vectors.cpp redoes it).
    import numpy as np
    r, g, b = np.meshgrid(np.arange(256), np.arange(256), np.arange(256), indexing="ij")
    every = np.stack([r, g, b], -1).astype(np.uint8).reshape(4096, 4096, 3)
    h = 0xcbf29ce484222325
    for byte in cv2.cvtColor(every, cv2.COLOR_RGB2GRAY).tobytes():
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    with open(os.path.join(HERE, "rgb2gray-all.fnv1a64"), "w") as f:
        f.write(f"{h:016x}\n")
    with open(os.path.join(HERE, "MANIFEST"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
