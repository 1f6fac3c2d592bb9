#!/usr/bin/python3
"""The demo pipeline on the real video: pipelines/demo.sh must write an MP4
with every input frame, gray (neutral chroma), and a side-by-side PNG; a
missing input, or one whose frames have no timestamps, must fail with a clear
message and leave no output."""
import os
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEMO = os.path.join(ROOT, "pipelines", "demo.sh")
DEFAULT_VIDEO = "/usr/share/doc/opencv-doc/examples/data/vtest.avi"
VIDEO = os.environ.get("CF_DEMO_INPUT", DEFAULT_VIDEO)
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def decode_i420(path, out):
    """Decodes a video to raw I420; returns (width, height, frame count)."""
    res = subprocess.run(
        ["gst-launch-1.0", "-v", "filesrc", f"location={path}", "!", "decodebin", "!",
         "videoconvert", "!", "video/x-raw,format=I420", "!", "filesink", f"location={out}"],
        capture_output=True, text=True, check=True)
    caps = [l for l in res.stdout.splitlines() if "filesink" in l and "caps =" in l][0]
    w = int(caps.split("width=(int)")[1].split(",")[0])
    h = int(caps.split("height=(int)")[1].split(",")[0])
    frame = w * h + 2 * ((w + 1) // 2) * ((h + 1) // 2)
    size = os.path.getsize(out)
    return w, h, size // frame, size % frame


def main():
    if not os.path.exists(VIDEO):
        print(f"FAIL {VIDEO} missing: apt-get install opencv-doc")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        res = subprocess.run([DEMO, out], capture_output=True, text=True)
        print(res.stdout + res.stderr)
        check(res.returncode == 0, "demo.sh exits 0")
        mp4 = os.path.join(out, "demo.mp4")
        check(os.path.exists(mp4) and not os.path.exists(mp4 + ".part"), "demo.mp4 written")
        if failures:
            return 1
        w_in, h_in, n_in, rest_in = decode_i420(VIDEO, os.path.join(tmp, "in.yuv"))
        w, h, n, rest = decode_i420(mp4, os.path.join(tmp, "out.yuv"))
        check((w, h) == (w_in, h_in) == (768, 576), f"size kept: {w}x{h}")
        check(n == n_in == 795 and rest == rest_in == 0, f"frame count: {n} out, {n_in} in")
        # Gray: every chroma sample of every frame is neutral.
        luma = w * h
        chroma = 2 * ((w + 1) // 2) * ((h + 1) // 2)
        worst, dark, bright = 0, 255, 0
        with open(os.path.join(tmp, "out.yuv"), "rb") as f:
            for _ in range(n):
                frame = f.read(luma + chroma)
                uv = frame[luma:]
                worst = max(worst, max(abs(b - 128) for b in (min(uv), max(uv))))
                dark, bright = min(dark, min(frame[:luma])), max(bright, max(frame[:luma]))
        check(worst <= 2, f"output is gray: chroma within 128+-{worst}")
        check(bright - dark > 100, f"luma has content: {dark}..{bright}")
        png = os.path.join(out, "contact-sheet.png")
        with open(png, "rb") as f:
            head = f.read(24)
        pw, ph = struct.unpack(">II", head[16:24])
        check(head[:8] == b"\x89PNG\r\n\x1a\n" and (pw, ph) == (2 * w, h),
              f"contact sheet PNG {pw}x{ph}")

        bad = subprocess.run([DEMO, os.path.join(tmp, "bad")], capture_output=True, text=True,
                             env=dict(os.environ, CF_DEMO_INPUT="/nonexistent/video.avi"))
        check(bad.returncode != 0 and "not found" in bad.stderr,
              "missing input fails clearly: " + bad.stderr.strip())
        check(not os.path.exists(os.path.join(tmp, "bad", "demo.mp4")), "no output on failure")

        # A raw MJPEG stream decodes to frames without timestamps: said so.
        raw = os.path.join(tmp, "raw.mjpeg")
        subprocess.run(["gst-launch-1.0", "-q", "videotestsrc", "num-buffers=10", "!",
                        "video/x-raw,width=320,height=240", "!", "jpegenc", "!", "filesink",
                        f"location={raw}"], check=True)
        nopts = subprocess.run([DEMO, os.path.join(tmp, "raw")], capture_output=True, text=True,
                               env=dict(os.environ, CF_DEMO_INPUT=raw))
        check(nopts.returncode != 0 and "decodes to frames without timestamps" in nopts.stderr
              and "ffmpeg -r 25 -i" in nopts.stderr,
              "input without timestamps fails saying why: " + nopts.stderr.strip().splitlines()[-2])
        check(not os.path.exists(os.path.join(tmp, "raw", "demo.mp4")), "no output without PTS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
