#!/usr/bin/python3
"""Tests of the chain planner's format conversions (issue 20): which
converter brings frames to the encoder's format (--json "converters": our
convert appended to the chain on the GPU or the CPU, or libswscale), and
that what it makes is right: bit for bit what `--vf convert=...` makes, a
lossless repack where the pair allows one, luma within 1 of libswscale.
Inputs are small clips made from Debian opencv-doc's vtest.avi.

Usage: test_cli_convert.py CUDAFILTERS [--junit REPORT.xml]
Exit status: 0 all passed, 1 a failure, 77 every case skipped.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_cli import (VTEST, ffmpeg, frame_count, make_work, packets, run, run_suites,  # noqa: E402
                      stream_of, tool_and_junit)

TOOL = None
WORK = None
SKIP_WHY = None
W, H, FRAMES = 160, 120, 10


def make_inputs(d):
    """10 frames of 160x120: RGB (FFV1, decodes as BGR0), H.264 4:2:0,
    FFV1 4:2:2, 4:4:4 and planar RGB (GBRP, no format of ours)."""
    scale = ["-i", VTEST, "-frames:v", str(FRAMES), "-vf", "scale=%d:%d" % (W, H)]
    ffmpeg(*scale, "-pix_fmt", "rgb24", "-c:v", "ffv1", os.path.join(d, "rgb.mkv"))
    ffmpeg(*scale, "-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "veryfast",
           os.path.join(d, "street.mp4"))
    ffmpeg(*scale, "-pix_fmt", "yuv422p", "-c:v", "ffv1", os.path.join(d, "y422.mkv"))
    ffmpeg(*scale, "-pix_fmt", "yuv444p", "-c:v", "ffv1", os.path.join(d, "y444.mkv"))
    # An RGB24 PNG sequence (no colour tags at all).
    ffmpeg(*scale, "-pix_fmt", "rgb24", os.path.join(d, "png-%03d.png"))
    # MJPEG decodes as full-range 4:2:0 (yuvj420p), as cameras write it.
    ffmpeg(*scale, "-pix_fmt", "yuvj420p", "-c:v", "mjpeg", os.path.join(d, "mjpeg.avi"))
    # (libx264rgb's H.264 decodes as GBRP.)
    ffmpeg(*scale, "-pix_fmt", "rgb24", "-c:v", "libx264rgb", "-qp", "0", "-preset", "veryfast",
           os.path.join(d, "gbrp.mkv"))


def setUpModule():
    global WORK, SKIP_WHY
    WORK, SKIP_WHY = make_work("cudafilters-convert-", make_inputs)


def tearDownModule():
    if WORK:
        shutil.rmtree(WORK, ignore_errors=True)


def gpu_count():
    rc, out, _ = run([TOOL, "devices", "--json"])
    return len(json.loads(out)["devices"]) if rc == 0 else 0


def raw(path, pix_fmt):
    """Every decoded frame of the video as one bytes object in pix_fmt."""
    return subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-pix_fmt", pix_fmt,
                           "-f", "rawvideo", "-"], capture_output=True, check=True).stdout


def frame_hashes(path):
    """The MD5 of each decoded frame (framemd5's last column), in order."""
    out = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-f", "framemd5", "-"],
                         capture_output=True, check=True, text=True).stdout
    return [line.rsplit(",", 1)[1].strip() for line in out.splitlines()
            if line and not line.startswith("#")]


def diff_stats(a, b, lo, hi):
    """(max, mean) of |a - b| over bytes [lo, hi) of each 4:2:0 frame."""
    frame = W * H * 3 // 2
    d = [abs(a[f + i] - b[f + i]) for f in range(0, len(a), frame) for i in range(lo, hi)]
    return max(d), sum(d) / len(d)


class Case(unittest.TestCase):
    def setUp(self):
        if SKIP_WHY:
            self.skipTest(SKIP_WHY)
        self.dir = tempfile.mkdtemp(dir=WORK)

    def src(self, name):
        return os.path.join(WORK, name)

    def transcode(self, src, dst, *opts):
        """Runs the tool; returns its --json summary after checking that
        every frame came out."""
        rc, out, err = run([TOOL, "transcode", self.src(src), dst, "--json", *opts])
        self.assertEqual(rc, 0, err)
        summary = json.loads(out)
        self.assertEqual((summary["ok"], summary["frames_in"], summary["frames_out"]),
                         (True, FRAMES, FRAMES), summary)
        self.assertEqual(frame_count(dst), FRAMES)
        return summary

    def out(self, name):
        return os.path.join(self.dir, name)


class Planner(Case):
    """Which converter the planner picks, and where it runs."""

    def test_rgb_input_to_x264_is_our_convert_not_libswscale(self):
        dst = self.out("rgb.mp4")
        s = self.transcode("rgb.mkv", dst, "--device", "cpu")
        self.assertEqual(s["converters"], {"decoder_output": "none",
                                           "encoder_input": "convert-cpu"})
        self.assertEqual(s["conversions"], "encoder input bgr0 to yuv420p (convert-cpu)")
        v = stream_of(dst, "video")[0]
        self.assertEqual(v["pix_fmt"], "yuv420p")
        # Limited range (what libswscale made too) and BT.601's tag, not the
        # RGB input's identity matrix (players would decode it as GBR).
        self.assertEqual((v.get("color_range"), v.get("color_space")), ("tv", "smpte170m"))
        self.assertEqual([p for p, _ in packets(dst, "v:0")[0]],
                         [p for p, _ in packets(self.src("rgb.mkv"), "v:0")[0]])

    def test_untagged_rgb_png_sequence_is_4_2_0_tagged_bt601(self):
        # Players take untagged HD video for BT.709: the tag says what convert used.
        dst = self.out("png.mp4")
        s = self.transcode("png-%03d.png", dst, "--device", "cpu")
        self.assertEqual(s["conversions"], "encoder input rgb24 to yuv420p (convert-cpu)")
        v = stream_of(dst, "video")[0]
        self.assertEqual((v["pix_fmt"], v.get("color_range"), v.get("color_space")),
                         ("yuv420p", "tv", "smpte170m"))

    def test_rgb_outside_our_formats_is_4_2_0_too(self):
        # GBRP is no format of ours: libswscale converts it, to 4:2:0 as
        # our convert does for RGB (libavcodec's own pick is 4:4:4), and
        # tagged BT.601, not with the input's identity matrix.
        dst = self.out("gbrp.mp4")
        s = self.transcode("gbrp.mkv", dst, "--device", "cpu")
        self.assertEqual(s["conversions"], "encoder input gbrp to yuv420p (libswscale)")
        self.assertIsNone(s["warning"])
        v = stream_of(dst, "video")[0]
        self.assertEqual((v["pix_fmt"], v.get("color_range"), v.get("color_space")),
                         ("yuv420p", "tv", "smpte170m"))

    def test_4_4_4_for_h264_warns_and_names_the_option(self):
        # 4:4:4 input stays 4:4:4 (as ffmpeg keeps it), with a warning that
        # names the --pix-fmt for 4:2:0; in the summary and on stderr.
        src = self.src("y444.mkv")
        warning = ("libx264 got yuv444p (4:4:4), which many players cannot play; "
                   "--pix-fmt yuv420p makes 4:2:0")
        dst = self.out("444.mp4")
        rc, out, err = run([TOOL, "transcode", src, dst, "--json", "--device", "cpu"])
        self.assertEqual(rc, 0, err)
        self.assertEqual(json.loads(out)["warning"], warning)
        self.assertIn("cudafilters: %s: %s\n" % (src, warning), err)
        self.assertEqual(stream_of(dst, "video")[0]["pix_fmt"], "yuv444p")
        # --quiet: the summary only.
        rc, out, err = run([TOOL, "transcode", src, self.out("q.mp4"), "--json", "--quiet"])
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(json.loads(out)["warning"], warning)
        # batch relays its files' warnings.
        rc, out, err = run([TOOL, "batch", "--out-dir", self.out("b"), "--ext", "mp4",
                            "--device", "cpu", src])
        self.assertEqual(rc, 0, err)
        self.assertEqual(err.count(warning), 1, err)
        # The option it names gives 4:2:0, and no warning.
        dst = self.out("420.mp4")
        s = self.transcode("y444.mkv", dst, "--pix-fmt", "yuv420p", "--device", "cpu")
        self.assertIsNone(s["warning"])
        self.assertEqual(stream_of(dst, "video")[0]["pix_fmt"], "yuv420p")
        # A codec whose 4:4:4 plays wherever the codec does: no warning.
        s = self.transcode("y444.mkv", self.out("444.mkv"), "--codec", "ffv1", "--device", "cpu")
        self.assertIsNone(s["warning"])

    def test_full_range_4_2_0_for_h264_is_no_warning(self):
        # yuvj420p (MJPEG's) is 4:2:0: libx264 takes it as it is and any
        # player plays it; the warning said "got yuvj420p (4:2:0), which
        # many players cannot play; --pix-fmt yuv420p makes 4:2:0".
        dst = self.out("mjpeg.mp4")
        s = self.transcode("mjpeg.avi", dst, "--device", "cpu")
        self.assertIsNone(s["warning"])
        self.assertEqual(stream_of(dst, "video")[0]["pix_fmt"], "yuvj420p")
        # Its 4:2:2 sibling still warns.
        dst = self.out("y422.mp4")
        s = self.transcode("y422.mkv", dst, "--device", "cpu")
        self.assertIn("got yuv422p (4:2:2)", s["warning"])

    def test_gray_output_for_a_4_2_0_only_encoder(self):
        # convert makes GRAY8; mpeg4 takes yuv420p only: the tail adds
        # neutral chroma (GRAY8 -> I420, our convert), not libswscale.
        dst = self.out("gray.avi")
        s = self.transcode("street.mp4", dst, "--vf", "convert=format=gray8", "--codec", "mpeg4",
                           "--device", "cpu")
        self.assertEqual(s["formats"], "I420 > convert > GRAY8")
        self.assertEqual(s["converters"]["encoder_input"], "convert-cpu")
        frames = raw(dst, "yuv420p")
        chroma = [frames[f + W * H + i] for f in range(0, len(frames), W * H * 3 // 2)
                  for i in range(W * H // 2)]
        self.assertTrue(all(126 <= c <= 130 for c in chroma), "the gray output has colour")

    def test_pairs_convert_does_not_cover_stay_with_libswscale(self):
        # 4:4:4 is no format of ours: libswscale makes it.
        s = self.transcode("street.mp4", self.out("444.mkv"), "--codec", "ffv1",
                           "--pix-fmt", "yuv444p", "--device", "cpu")
        self.assertEqual(s["converters"], {"decoder_output": "none",
                                           "encoder_input": "libswscale"})
        self.assertEqual(s["conversions"], "encoder input yuv420p to yuv444p (libswscale)")
        # 4:2:2 decoder output: libswscale brings it to 4:2:0 for the chain.
        s = self.transcode("y422.mkv", self.out("422.mp4"), "--vf", "gray", "--device", "cpu")
        self.assertEqual(s["converters"]["decoder_output"], "libswscale")
        self.assertTrue(s["conversions"].startswith("decoder output from yuv422p to "), s)

    def test_no_conversion_when_the_encoder_takes_the_format(self):
        s = self.transcode("street.mp4", self.out("plain.mkv"), "--device", "cpu")
        self.assertEqual(s["converters"], {"decoder_output": "none", "encoder_input": "none"})
        self.assertEqual(s["conversions"], "")

    def test_nvdec_frames_are_converted_on_the_gpu(self):
        """With a GPU: NVDEC's NV12 for mpeg4 (yuv420p) through our convert
        on the GPU, and the same frames as the CPU path's."""
        if gpu_count() == 0:
            self.skipTest("no CUDA GPU: the GPU planner path needs one")
        gpu, cpu = self.out("gpu.avi"), self.out("cpu.avi")
        s = self.transcode("street.mp4", gpu, "--codec", "mpeg4")
        if not s["hw_decode"]:
            self.skipTest("no NVDEC decoder for H.264 here")
        self.assertEqual(s["converters"]["encoder_input"], "convert-gpu")
        self.assertEqual(s["conversions"], "encoder input nv12 to yuv420p (convert-gpu)")
        self.transcode("street.mp4", cpu, "--codec", "mpeg4", "--device", "cpu")
        self.assertEqual(frame_hashes(gpu), frame_hashes(cpu))


class Exactness(Case):
    """What the planner's convert makes."""

    def test_tail_equals_the_convert_filter_bit_for_bit(self):
        tail, explicit = self.out("tail.mkv"), self.out("explicit.mkv")
        s = self.transcode("rgb.mkv", tail, "--codec", "ffv1", "--pix-fmt", "yuv420p",
                           "--device", "cpu")
        self.assertEqual(s["converters"]["encoder_input"], "convert-cpu")
        s = self.transcode("rgb.mkv", explicit, "--codec", "ffv1", "--vf", "convert=format=i420",
                           "--device", "cpu")
        self.assertEqual(s["converters"]["encoder_input"], "none")
        self.assertEqual(frame_hashes(tail), frame_hashes(explicit))

    def test_convertscale_equals_scale_then_convert(self):
        fused, chain = self.out("fused.mkv"), self.out("chain.mkv")
        s = self.transcode("street.mp4", fused, "--codec", "ffv1", "--device", "cpu", "--vf",
                           "convertscale=w=80:h=44:method=area:format=rgb")
        self.assertEqual(s["formats"], "I420 > convertscale > RGB")
        self.assertEqual(stream_of(fused, "video")[0]["width"], 80)
        self.transcode("street.mp4", chain, "--codec", "ffv1", "--device", "cpu", "--vf",
                       "scale=w=80:h=44:method=area,convert=format=rgb")
        self.assertEqual(frame_hashes(fused), frame_hashes(chain))

    def test_yuv_repack_is_lossless(self):
        # yuv420p -> nv12 moves samples only: equal to FFmpeg's own repack.
        dst = self.out("nv12.nut")
        s = self.transcode("street.mp4", dst, "--codec", "rawvideo", "--pix-fmt", "nv12",
                           "--device", "cpu")
        self.assertEqual(s["conversions"], "encoder input yuv420p to nv12 (convert-cpu)")
        self.assertEqual(stream_of(dst, "video")[0]["pix_fmt"], "nv12")
        self.assertEqual(raw(dst, "nv12"), raw(self.src("street.mp4"), "nv12"))

    def test_rgb_to_4_2_0_within_the_documented_tolerance_of_libswscale(self):
        # README ("The command-line tool's conversions"): luma within 1 of
        # libswscale (the tool's former flags); chroma differs by design
        # (MPEG-2 siting, 1:2:1 taps; libswscale filters it bicubically):
        # mean difference below 1.
        dst, ref = self.out("ours.mkv"), self.out("sws.mkv")
        self.transcode("rgb.mkv", dst, "--codec", "ffv1", "--pix-fmt", "yuv420p",
                       "--device", "cpu")
        ffmpeg("-i", self.src("rgb.mkv"), "-pix_fmt", "yuv420p", "-sws_flags",
               "bicubic+accurate_rnd+full_chroma_int", "-c:v", "ffv1", ref)
        a, b = raw(dst, "yuv420p"), raw(ref, "yuv420p")
        self.assertEqual(len(a), FRAMES * W * H * 3 // 2)
        self.assertEqual(len(a), len(b))
        y_max, _ = diff_stats(a, b, 0, W * H)
        self.assertLessEqual(y_max, 1)
        c_max, c_mean = diff_stats(a, b, W * H, W * H * 3 // 2)
        self.assertLess(c_mean, 1.0)
        self.assertGreater(c_max, 0)  # the siting really differs: the check is not vacuous


def main():
    global TOOL
    TOOL, junit = tool_and_junit(__doc__)
    return run_suites((Planner, Exactness), junit, "cli-convert")[0]


if __name__ == "__main__":
    sys.exit(main())
