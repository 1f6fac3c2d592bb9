#!/usr/bin/python3
"""Corrupt media through `cudafilters batch`: a few hundred mutated variants of
real files (flipped bits, overwritten runs, zeroed, repeated and deleted
blocks, truncations) must each end in a clear per-file answer: no crash, no
hang beyond the stall timeout, no partial output, an exit status that counts
the failures, and every output the summary calls good readable with the
frames it reports.

The sources are short stream copies of Debian opencv-doc's videos, so the
real encoders' bitstreams are mutated (MS-MPEG4 and MPEG-4 in AVI with AC-3,
H.264 with AAC in MP4, H.264 with Vorbis in MKV). The mutations are seeded:
a failure names the variant, and --keep DIR keeps the files to replay it.

Usage: test_corrupt_media.py CUDAFILTERS [--variants N] [--seed S] [--keep DIR]
       [--junit REPORT.xml]
Exit status: 0 passed, 1 failed, 77 skipped (no ffmpeg or opencv-doc).
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

DATA = "/usr/share/doc/opencv-doc/examples/data"
STALL_TIMEOUT = 10  # seconds, --stall-timeout of the batch


def ffmpeg(*args):
    subprocess.run(["ffmpeg", "-v", "error", "-y", *args], check=True, capture_output=True)


def make_sources(d):
    """Short real files: (name, bytes)."""
    vtest, megamind = os.path.join(DATA, "vtest.avi"), os.path.join(DATA, "Megamind.avi")
    out = {}
    ffmpeg("-i", vtest, "-t", "2", "-c", "copy", os.path.join(d, "msmpeg4.avi"))
    ffmpeg("-i", megamind, "-t", "1.5", "-c", "copy", os.path.join(d, "mpeg4-ac3.avi"))
    small = ["-vf", "scale=320:240", "-c:v", "libx264", "-preset", "veryfast", "-g", "12"]
    ffmpeg("-i", vtest, "-f", "lavfi", "-i", "sine=frequency=300:duration=1.5", "-t", "1.5",
           *small, "-c:a", "aac", os.path.join(d, "h264-aac.mp4"))
    ffmpeg("-i", vtest, "-f", "lavfi", "-i", "sine=frequency=500:duration=1.5", "-t", "1.5",
           *small, "-c:a", "libvorbis", os.path.join(d, "h264-vorbis.mkv"))
    for name in ("msmpeg4.avi", "mpeg4-ac3.avi", "h264-aac.mp4", "h264-vorbis.mkv"):
        with open(os.path.join(d, name), "rb") as f:
            out[name] = f.read()
    return out


def mutate(data, rng):
    """One damaged copy of `data` and a short description of the damage."""
    b = bytearray(data)
    n = len(b)
    kind = rng.choice(["flip", "flip", "overwrite", "zero", "repeat", "delete", "truncate"])
    # Leave the first bytes alone half of the time so most variants still open.
    lo = 0 if rng.random() < 0.5 else min(n - 1, 64)
    at = rng.randrange(lo, n)
    if kind == "flip":
        bits = rng.randint(1, 8)
        for _ in range(bits):
            i = rng.randrange(lo, n)
            b[i] ^= 1 << rng.randrange(8)
        return bytes(b), f"{bits} flipped bits"
    size = rng.choice([1, 4, 16, 256, 4096, 16384])
    size = min(size, n - at)
    if kind == "overwrite":
        b[at:at + size] = bytes(rng.randrange(256) for _ in range(size))
    elif kind == "zero":
        b[at:at + size] = bytes(size)
    elif kind == "repeat":
        b[at:at] = b[max(0, at - size):at]
    elif kind == "delete":
        del b[at:at + size]
    else:
        return bytes(b[:at]), f"truncated at {at} of {n}"
    return bytes(b), f"{kind} {size} bytes at {at}"


def frame_count(path):
    p = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
                        "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", path],
                       capture_output=True, text=True)
    try:
        return int(p.stdout.strip().splitlines()[0])
    except (ValueError, IndexError):
        return -1


class Result:
    def __init__(self):
        self.cases = []  # (name, seconds, failure message or None)

    def check(self, name, seconds, problems):
        self.cases.append((name, seconds, "\n".join(problems) if problems else None))
        print(("ok   " if not problems else "FAIL ") + name)
        for p in problems:
            print("     " + p)


def run_batch(tool, inputs, out_dir, jobs):
    start = time.monotonic()
    # Each file may take the stall timeout, plus the watchdog's grace; two at a time.
    limit = 60 + (STALL_TIMEOUT + 10) * len(inputs) / jobs
    p = subprocess.run([tool, "batch", "--out-dir", out_dir, "--jobs", str(jobs), "--json",
                        "--stall-timeout", str(STALL_TIMEOUT), "--vf", "gray,blur=sigma=1",
                        "--codec", "mpeg4", "--from", "-"],
                       input="".join(i + "\n" for i in inputs), capture_output=True, text=True,
                       timeout=limit)
    return p, time.monotonic() - start


def check_batch(result, label, p, seconds, names, out_dir, messages):
    """The batch's answers against what it left on disk."""
    problems = []
    try:
        summary = json.loads(p.stdout)
    except json.JSONDecodeError:
        result.check(label + ": JSON summary", seconds, ["no JSON summary:\n" + p.stderr[-2000:]])
        return
    files = {os.path.basename(f["input"]): f for f in summary["files"]}
    failed = sorted(n for n in names if not files[n]["ok"])
    if p.returncode != min(len(failed), 125):
        problems.append(f"exit status {p.returncode}, {len(failed)} files failed")
    if summary["failed"] != len(failed) or summary["total"] != len(names):
        problems.append(f"summary counts {summary['failed']}/{summary['total']}")
    left = sorted(f for f in os.listdir(out_dir) if ".part-" in f)
    if left:
        problems.append("partial outputs left: " + ", ".join(left))
    outputs = set(os.listdir(out_dir))
    for n in names:
        f = files[n]
        line = [l for l in p.stderr.splitlines() if l.startswith("cudafilters: ") and n in l]
        if "crashed" in p.stderr and any("crashed" in l for l in line):
            problems.append(f"{n} ({messages[n]}): crashed: {line}")
        if "no report for" in " ".join(line) or "no progress" in " ".join(line):
            problems.append(f"{n} ({messages[n]}): hung: {line}")
        if f["ok"]:
            if n not in outputs:
                problems.append(f"{n}: ok but no output")
            else:
                got = frame_count(os.path.join(out_dir, n))
                if got != f["frames_out"]:
                    problems.append(f"{n} ({messages[n]}): output holds {got} frames, "
                                    f"the summary says {f['frames_out']}")
        else:
            if n in outputs:
                problems.append(f"{n}: failed but its output exists")
            if len(line) != 1:
                problems.append(f"{n}: {len(line)} messages instead of one: {line}")
    result.check(label, seconds, problems)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tool")
    ap.add_argument("--variants", type=int, default=75, help="per source file")
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep")
    ap.add_argument("--junit")
    args = ap.parse_args()
    tool = os.path.abspath(args.tool)
    if not shutil.which("ffmpeg") or not os.path.exists(os.path.join(DATA, "Megamind.avi")):
        print("SKIP ffmpeg or opencv-doc's videos not installed")
        return 77
    work = args.keep or tempfile.mkdtemp(prefix="cudafilters-corrupt-")
    os.makedirs(work, exist_ok=True)
    result = Result()
    try:
        sources = make_sources(work)
        rng = random.Random(args.seed)
        inputs, messages = [], {}
        for name, data in sources.items():
            stem, ext = os.path.splitext(name)
            for i in range(args.variants):
                damaged, what = mutate(data, rng)
                path = os.path.join(work, f"{stem}-{i:03d}{ext}")
                with open(path, "wb") as f:
                    f.write(damaged)
                inputs.append(path)
                messages[os.path.basename(path)] = what
        out_dir = os.path.join(work, "out")
        p, seconds = run_batch(tool, inputs, out_dir, args.jobs)
        names = [os.path.basename(i) for i in inputs]
        check_batch(result, f"batch of {len(inputs)} mutated files", p, seconds, names,
                    out_dir, messages)
        try:
            summary = json.loads(p.stdout)
            bad = sum(not f["ok"] for f in summary["files"])
            print(f"{len(inputs)} variants in {seconds:.0f} s: {len(inputs) - bad} transcoded, "
                  f"{bad} refused; crashes: {p.stderr.count('crashed')}")
        except json.JSONDecodeError:
            pass
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    if args.junit:
        root = ET.Element("testsuite", name="corrupt-media", tests=str(len(result.cases)))
        for name, seconds, failure in result.cases:
            case = ET.SubElement(root, "testcase", classname="corrupt_media", name=name,
                                 time="%.3f" % seconds)
            if failure:
                ET.SubElement(case, "failure", message=failure.splitlines()[0]).text = failure
        os.makedirs(os.path.dirname(os.path.abspath(args.junit)), exist_ok=True)
        ET.ElementTree(root).write(args.junit, encoding="utf-8", xml_declaration=True)
    return 1 if any(f for _, _, f in result.cases) else 0


if __name__ == "__main__":
    sys.exit(main())
