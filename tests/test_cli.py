#!/usr/bin/python3
"""Tests of the cudafilters command-line tool on real files.

Inputs are made in a temporary directory from Debian opencv-doc's videos
(vtest.avi: street scene, MS-MPEG4; Megamind.avi: MPEG-4 with AC-3 audio):
a short H.264 MP4, an MKV with a 1/1000 time base and uneven frame durations
(variable frame rate), an AVI with audio, and broken files (missing, empty,
truncated, corrupt, not a video at all). ffprobe checks frame counts, exact
timestamps, stream copy and gray output.

Usage: test_cli.py CUDAFILTERS [--group cli|cli-batch] [--junit REPORT.xml]
Each test case goes into the JUnit report that tests/summary.py counts.
Exit status: 0 all passed, 1 a failure, 77 every case skipped (no ffmpeg or
no opencv-doc).
"""
import argparse
import fractions
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
import xml.etree.ElementTree as ET

DATA = "/usr/share/doc/opencv-doc/examples/data"
VTEST = os.path.join(DATA, "vtest.avi")
MEGAMIND = os.path.join(DATA, "Megamind.avi")

TOOL = None      # path of the cudafilters binary, from the command line
WORK = None      # temporary directory with the generated inputs
SKIP_WHY = None  # set when the inputs cannot be made here


def run(args, timeout=120, stdin=None, cwd=None):
    """Runs a command; returns (exit status, stdout, stderr) as text."""
    p = subprocess.run(args, capture_output=True, text=True, timeout=timeout, input=stdin,
                       cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def ffmpeg(*args):
    rc, _, err = run(["ffmpeg", "-v", "error", "-y", *args])
    if rc != 0:
        raise RuntimeError("ffmpeg %s: %s" % (" ".join(args), err))


def probe(path, *args):
    """ffprobe's JSON for the path."""
    rc, out, err = run(["ffprobe", "-v", "error", "-of", "json", *args, path])
    if rc != 0:
        raise RuntimeError("ffprobe %s: %s" % (path, err))
    return json.loads(out)


def streams(path):
    return probe(path, "-show_streams")["streams"]


def stream_of(path, kind):
    return [s for s in streams(path) if s["codec_type"] == kind]


def packets(path, select):
    """Packets of one stream ("v:0", "a:0") with exact times as Fractions, in pts order."""
    info = probe(path, "-select_streams", select, "-show_entries",
                 "stream=time_base:packet=pts,duration")
    tb = fractions.Fraction(info["streams"][0]["time_base"])
    out = []
    for p in info["packets"]:
        pts = fractions.Fraction(int(p["pts"])) * tb if "pts" in p else None
        dur = fractions.Fraction(int(p["duration"])) * tb if "duration" in p else None
        out.append((pts, dur))
    return sorted(out, key=lambda x: (x[0] is None, x[0] or 0)), info["streams"][0]["time_base"]


def frame_count(path):
    s = probe(path, "-count_frames", "-select_streams", "v:0",
              "-show_entries", "stream=nb_read_frames")["streams"][0]
    return int(s["nb_read_frames"])


def packet_count(path, select):
    s = probe(path, "-count_packets", "-select_streams", select,
              "-show_entries", "stream=nb_read_packets")["streams"][0]
    return int(s["nb_read_packets"])


class _FloatText(str):
    """A float of a JSON text, as it was written."""


def json_number_texts(text):
    """{key: [each float member `key` as written, ...]} of a JSON text."""
    found = {}

    def pairs(items):
        for k, v in items:
            if isinstance(v, _FloatText):
                found.setdefault(k, []).append(str(v))
        return dict(items)
    json.loads(text, parse_float=_FloatText, object_pairs_hook=pairs)
    return found


def assert_short_numbers(case, text, keys):
    """Every float of `keys` in the JSON text has at most 3 decimals, plainly written."""
    texts = json_number_texts(text)
    for key in keys:
        for t in texts.get(key, []):
            case.assertRegex(t, r"^-?\d+(\.\d{1,3})?$", "%s in %s" % (key, text))


def no_gpu():
    rc, out, _ = run([TOOL, "devices", "--json"])
    return rc == 0 and json.loads(out)["devices"] == []


def make_inputs(d):
    """The test inputs, a few seconds each so the whole file runs fast."""
    ffmpeg("-i", VTEST, "-t", "3", "-c:v", "libx264", "-preset", "veryfast",
           "-pix_fmt", "yuv420p", os.path.join(d, "street.mp4"))
    # 1/1000 time base; pts 0,123,246,300,423,... so the frame durations are
    # uneven (variable frame rate), with B-frames reordering them.
    ffmpeg("-i", VTEST, "-t", "3", "-vf", "settb=1/1000,setpts='N*100+mod(N,3)*23'",
           "-fps_mode", "passthrough", "-enc_time_base", "1/1000", "-c:v", "libx264",
           "-preset", "veryfast", os.path.join(d, "vfr.mkv"))
    # Megamind.avi is documented to have sound; make sure, and add a tone
    # where it has none, so the copy test always has an audio stream.
    megamind = os.path.join(d, "megamind.avi")
    if stream_of(MEGAMIND, "audio"):
        ffmpeg("-i", MEGAMIND, "-t", "3", "-c", "copy", megamind)
    else:
        ffmpeg("-i", MEGAMIND, "-f", "lavfi", "-i", "sine=frequency=440:duration=3", "-t", "3",
               "-c:v", "copy", "-c:a", "ac3", megamind)
    # Audio, a subtitle track and metadata (title, language, a chapter).
    srt = os.path.join(d, "subs.srt")
    with open(srt, "w") as f:
        f.write("1\n00:00:00,500 --> 00:00:01,500\nHello\n\n"
                "2\n00:00:02,000 --> 00:00:02,800\nWorld\n\n")
    meta = os.path.join(d, "chapters.txt")
    with open(meta, "w") as f:
        f.write(";FFMETADATA1\ntitle=Street test\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\n"
                "END=1500\ntitle=Start\n")
    # (genpts: the AVI's video packets have no pts, which MKV needs.)
    ffmpeg("-fflags", "+genpts", "-i", megamind, "-i", srt, "-i", meta,
           "-map", "0", "-map", "1", "-map_metadata", "2", "-map_chapters", "2",
           "-c", "copy", "-c:s", "srt", "-metadata:s:a:0", "language=fra",
           "-metadata:s:s:0", "language=eng", os.path.join(d, "subtitled.mkv"))
    make_broken(d)


def make_broken(d):
    street = open(os.path.join(d, "street.mp4"), "rb").read()
    vfr = open(os.path.join(d, "vfr.mkv"), "rb").read()
    open(os.path.join(d, "empty.mp4"), "wb").close()
    # MKV cut in the middle of its clusters: the header promises 3 s.
    open(os.path.join(d, "truncated.mkv"), "wb").write(vfr[: len(vfr) // 2])
    # MP4 whose index (moov, written last) is cut off.
    open(os.path.join(d, "truncated.mp4"), "wb").write(street[: len(street) // 2])
    # Valid container, video data overwritten with noise in the middle.
    corrupt = bytearray(street)
    state = 12345
    for i in range(len(corrupt) // 3, len(corrupt) // 3 + 20000):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        corrupt[i] = state >> 16 & 0xFF
    open(os.path.join(d, "corrupt.mp4"), "wb").write(bytes(corrupt))
    open(os.path.join(d, "notavideo.mkv"), "wb").write(b"this is not a video file\n" * 400)


def make_work(prefix, make, videos=(VTEST,)):
    """(folder, None): a new temporary folder holding make(folder)'s inputs;
    or (None, why the module's tests skip): no ffmpeg/ffprobe, or not all of
    `videos` (opencv-doc's) installed. Each CLI test module's setUpModule."""
    if not shutil.which("ffmpeg") or not shutil.which("ffprobe"):
        return None, "ffmpeg/ffprobe not installed (apt-get install ffmpeg)"
    if not all(os.path.exists(v) for v in videos):
        return None, "opencv-doc's videos not installed (apt-get install opencv-doc)"
    work = tempfile.mkdtemp(prefix=prefix)
    make(work)
    return work, None


def setUpModule():
    global WORK, SKIP_WHY
    WORK, SKIP_WHY = make_work("cudafilters-cli-", make_inputs, (VTEST, MEGAMIND))


def tearDownModule():
    if WORK:
        shutil.rmtree(WORK, ignore_errors=True)


class CliCase(unittest.TestCase):
    def setUp(self):
        if SKIP_WHY:
            self.skipTest(SKIP_WHY)
        self.dir = tempfile.mkdtemp(dir=WORK)

    def path(self, name):
        return os.path.join(WORK, name)

    def out(self, name):
        return os.path.join(self.dir, name)

    def transcode(self, src, dst, *opts, expect=0):
        rc, out, err = run([TOOL, "transcode", self.path(src), dst, *opts])
        self.assertEqual(rc, expect, "exit status; stderr:\n" + err)
        return out, err

    def assert_no_leftovers(self, directory):
        left = [f for f in os.listdir(directory) if ".part-" in f]
        self.assertEqual(left, [], "temporary files left behind")


class Info(CliCase):
    """Commands that need no input files."""

    def test_version(self):
        rc, out, _ = run([TOOL, "--version"])
        self.assertEqual(rc, 0)
        self.assertRegex(out, r"^cudafilters \d+\.\d+\.\d+\n")
        self.assertIn("libavcodec", out)

    def test_help_of_each_command(self):
        rc, out, _ = run([TOOL, "--help"])
        self.assertEqual(rc, 0)
        for cmd in ("transcode", "batch", "filters", "devices"):
            self.assertIn(cmd, out)
            rc, out_cmd, err = run([TOOL, cmd, "--help"])
            self.assertEqual(rc, 0, err)
            self.assertIn("cudafilters " + cmd, out_cmd)
        rc, out, _ = run([TOOL, "transcode", "--help"])
        self.assertIn("--vf", out)
        self.assertIn("--codec", out)
        rc, out, _ = run([TOOL, "batch", "--help"])
        for opt in ("--out-dir", "--jobs", "--devices", "--from"):
            self.assertIn(opt, out)

    def test_unknown_command(self):
        rc, _, err = run([TOOL, "frobnicate"])
        self.assertEqual(rc, 2)
        self.assertIn("unknown command 'frobnicate'", err)

    def test_filters_lists_parameters(self):
        rc, out, _ = run([TOOL, "filters"])
        self.assertEqual(rc, 0)
        self.assertIn("gray: ", out)
        self.assertIn("blur: ", out)
        self.assertRegex(out, r"sigma\s+double, 0\.01 to 128 pixels; default 1\n")
        self.assertRegex(out, r"border\s+enum: reflect101, replicate, reflect, constant; "
                              r"default reflect101")
        self.assertRegex(out, r"range\s+enum: limited, full; default limited; set from the stream")

    def test_filters_json(self):
        rc, out, _ = run([TOOL, "filters", "--json"])
        self.assertEqual(rc, 0)
        self.assertIn('"name":"sigma","type":"double","min":0.01,"max":128,"default":1,', out)
        filters = {f["name"]: f for f in json.loads(out)["filters"]}
        sigma = [p for p in filters["blur"]["params"] if p["name"] == "sigma"][0]
        self.assertEqual((sigma["min"], sigma["max"], sigma["default"], sigma["unit"]),
                         (0.01, 128, 1, "pixels"))
        rng = [p for p in filters["gray"]["params"] if p["name"] == "range"][0]
        self.assertTrue(rng["set_from_stream"])
        self.assertEqual(rng["choices"], ["limited", "full"])

    def test_devices(self):
        rc, out, _ = run([TOOL, "devices"])
        self.assertEqual(rc, 0)
        if no_gpu():
            # Plainly: the first line says there is none and why.
            self.assertRegex(out, r"^No GPU: \S.*\.\n")
            self.assertIn("runs its filters on the CPU", out)
        else:
            self.assertRegex(out, r"^CUDA devices: \d+\n  0: ")

    def test_asking_for_a_missing_gpu_is_an_error(self):
        if not no_gpu():
            self.skipTest("this machine has a GPU")
        rc, _, err = run([TOOL, "transcode", "in.mp4", self.out("x.mp4"), "--device", "0"])
        self.assertEqual(rc, 2)
        self.assertIn("GPU 0: no GPU (", err)
        rc, _, err = run([TOOL, "batch", "--out-dir", self.dir, "--devices", "0,1", "a.mp4"])
        self.assertEqual(rc, 2)
        self.assertIn("no GPU", err)

    def test_device_values_are_named_and_listed(self):
        # "gpu" is GPU 0 (an error without one); an unknown word lists the
        # values the option takes.
        rc, _, err = run([TOOL, "transcode", "in.mp4", self.out("x.mp4"), "--device", "cuda"])
        self.assertEqual(rc, 2)
        self.assertIn("--device cuda: 'cuda' is not a GPU ordinal (0, 1, ...); it takes a GPU "
                      "ordinal (0, 1, ...), gpu (GPU 0), cpu or auto", err)
        rc, _, err = run([TOOL, "batch", "--out-dir", self.dir, "--devices", "cuda", "a.mp4"])
        self.assertEqual(rc, 2)
        self.assertIn("--devices cuda: 'cuda' is not a GPU ordinal (0, 1, ...); it takes all, "
                      "cpu, gpu (GPU 0) or GPU ordinals such as 0,2", err)
        if no_gpu():
            rc, _, err = run([TOOL, "transcode", "in.mp4", self.out("x.mp4"), "--device", "gpu"])
            self.assertEqual(rc, 2)
            self.assertIn("--device gpu: no GPU (", err)
        else:
            dst = self.out("gpu.mkv")
            rc, out, err = run([TOOL, "transcode", self.path("street.mp4"), dst, "--device",
                                "gpu", "--vf", "gray", "--json"])
            self.assertEqual(rc, 0, err)
            self.assertEqual(json.loads(out)["filter_device"], "cuda:0")

    def test_empty_option_values_are_named(self):
        for args, name, expected in ((["--codec="], "codec", "NAME"),
                                     (["--vf", ""], "vf", "FILTERS"),
                                     (["--pix-fmt="], "pix-fmt", "NAME"),
                                     (["--device", ""], "device", "N|gpu|cpu|auto")):
            rc, _, err = run([TOOL, "transcode", "in.mp4", self.out("x.mp4"), *args])
            self.assertEqual(rc, 2, err)
            self.assertIn("--%s: the value is empty (expected %s)" % (name, expected), err)
        rc, _, err = run([TOOL, "batch", "--out-dir", "", "a.mp4"])
        self.assertEqual(rc, 2, err)
        self.assertIn("--out-dir: the value is empty (expected DIR)", err)
        self.assertEqual(os.listdir(self.dir), [])

    def test_bad_filter_string_names_the_token(self):
        rc, _, err = run([TOOL, "transcode", "in.mp4", self.out("x.mp4"), "--vf", "gray,blurr=2"])
        self.assertEqual(rc, 2)
        self.assertIn("unknown filter 'blurr' at character 6", err)
        rc, _, err = run([TOOL, "batch", "--out-dir", self.dir, "--vf", "blur=sigma=500", "a.mp4"])
        self.assertEqual(rc, 2)
        self.assertIn("sigma=500 is out of range [0.01, 128]", err)
        self.assertEqual(os.listdir(self.dir), [])

    def test_too_many_filters_is_a_usage_error(self):
        # The chain parses, but the tool takes 32 filters: each file of a
        # batch failed with it (exit status 1 for one), after opening it.
        rc, _, err = run([TOOL, "transcode", self.path("street.mp4"), self.out("x.mp4"),
                          "--vf", ",".join(["gray"] * 33)])
        self.assertEqual(rc, 2, err)
        self.assertIn("--vf: 33 filters, more than 32", err)
        self.assertEqual(os.listdir(self.dir), [])
        rc, _, err = run([TOOL, "transcode", self.path("street.mp4"), self.out("x.mp4"),
                          "--quiet", "--vf", ",".join(["gray"] * 32)])
        self.assertEqual(rc, 0, err)


class Transcode(CliCase):
    def test_h264_mp4_gray_blur(self):
        dst = self.out("street.mp4")
        out, err = self.transcode("street.mp4", dst, "--vf", "gray,blur=sigma=2", "--json")
        summary = json.loads(out)
        n = frame_count(self.path("street.mp4"))
        self.assertEqual((summary["ok"], summary["frames_in"], summary["frames_out"]),
                         (True, n, n))
        self.assertEqual(frame_count(dst), n)
        self.assertEqual(stream_of(dst, "video")[0]["codec_name"], "h264")
        # Same instants. (ffprobe shows no per-packet durations for x264 streams
        # with a fine time base in MP4; the sample table holds them.)
        self.assertEqual([p for p, _ in packets(dst, "v:0")[0]],
                         [p for p, _ in packets(self.path("street.mp4"), "v:0")[0]])
        if no_gpu():
            self.assertEqual(err.count("no GPU"), 1, err)  # said once, and said
        self.assert_gray(dst)
        self.assert_no_leftovers(self.dir)

    def test_cpu_threads_change_nothing_in_the_output(self):
        """--threads sets the CPU filters' threads; 1 and 3 give the same frames (lossless)."""
        frames = []
        for threads in ("1", "3"):
            dst = self.out("threads%s.mkv" % threads)
            self.transcode("street.mp4", dst, "--vf", "gray,blur=sigma=3", "--codec", "ffv1",
                           "--threads", threads, "--device", "cpu")
            frames.append(subprocess.run(["ffmpeg", "-v", "error", "-i", dst, "-f", "framemd5",
                                          "-"], capture_output=True, check=True).stdout)
        self.assertEqual(frames[0], frames[1])
        rc, _, err = run([TOOL, "transcode", self.path("street.mp4"), self.out("x.mkv"),
                          "--threads", "-2"])
        self.assertEqual(rc, 2)
        self.assertIn("--threads -2: must be 0 (all cores) to 1024", err)

    def assert_gray(self, path):
        """Every chroma sample of the decoded output is neutral (128, +-2 for coding)."""
        s = stream_of(path, "video")[0]
        if s["pix_fmt"] in ("gray", "gray10le"):
            return
        w, h = s["width"], s["height"]
        raw = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-frames:v", "5",
                              "-pix_fmt", "yuv420p", "-f", "rawvideo", "-"],
                             capture_output=True, check=True).stdout
        frame = w * h * 3 // 2
        self.assertEqual(len(raw), 5 * frame)
        for i in range(5):
            chroma = raw[i * frame + w * h:(i + 1) * frame]
            self.assertTrue(all(126 <= c <= 130 for c in chroma), "frame %d has colour" % i)

    def test_vfr_mkv_timestamps_exact(self):
        src = self.path("vfr.mkv")
        want, tb = packets(src, "v:0")
        self.assertEqual(tb, "1/1000")
        self.assertGreater(len({b[0] - a[0] for a, b in zip(want, want[1:])}), 1,
                           "the input should have uneven frame durations")
        dst = self.out("vfr.mkv")
        self.transcode("vfr.mkv", dst, "--vf", "gray")
        got, tb_out = packets(dst, "v:0")
        self.assertEqual(tb_out, "1/1000")
        self.assertEqual(got, want)  # pts and durations, every packet
        self.assertEqual(frame_count(dst), frame_count(src))
        # Into MP4 (another time base): the same instants.
        dst_mp4 = self.out("vfr.mp4")
        self.transcode("vfr.mkv", dst_mp4, "--vf", "gray")
        self.assertEqual([p for p, _ in packets(dst_mp4, "v:0")[0]], [p for p, _ in want])

    def test_audio_copied(self):
        src = self.path("megamind.avi")
        audio_in = stream_of(src, "audio")
        self.assertEqual(len(audio_in), 1, "the test input needs audio")
        dst = self.out("megamind.mkv")
        out, _ = self.transcode("megamind.avi", dst, "--vf", "gray,blur=sigma=1.5", "--json")
        self.assertEqual(json.loads(out)["streams_copied"], 1)
        audio_out = stream_of(dst, "audio")
        self.assertEqual(len(audio_out), 1)
        for key in ("codec_name", "sample_rate", "channels"):
            self.assertEqual(audio_out[0][key], audio_in[0][key], key)
        self.assertEqual(packet_count(dst, "a:0"), packet_count(src, "a:0"))
        self.assertEqual([p for p, _ in packets(dst, "a:0")[0]],
                         [p for p, _ in packets(src, "a:0")[0]])
        self.assertEqual(frame_count(dst), frame_count(src))
        # MP4 too: the same audio packets as FFmpeg's own stream copy keeps.
        dst_mp4, ref = self.out("megamind.mp4"), self.out("reference.mp4")
        self.transcode("megamind.avi", dst_mp4, "--vf", "gray")
        ffmpeg("-i", src, "-c", "copy", ref)
        self.assertEqual(stream_of(dst_mp4, "audio")[0]["codec_name"], audio_in[0]["codec_name"])
        self.assertEqual(packet_count(dst_mp4, "a:0"), packet_count(ref, "a:0"))

    def test_subtitles_and_metadata_copied(self):
        src = self.path("subtitled.mkv")
        dst = self.out("subtitled.mkv")
        out, _ = self.transcode("subtitled.mkv", dst, "--vf", "gray", "--json")
        self.assertEqual(json.loads(out)["streams_copied"], 2)
        info = probe(dst, "-show_streams", "-show_format", "-show_chapters")
        kinds = {s["codec_type"]: s for s in info["streams"]}
        self.assertEqual(kinds["subtitle"]["codec_name"], "subrip")
        self.assertEqual(kinds["subtitle"]["tags"]["language"], "eng")
        self.assertEqual(kinds["audio"]["tags"]["language"], "fra")
        self.assertEqual(packets(dst, "s:0")[0], packets(src, "s:0")[0])
        self.assertEqual(info["format"]["tags"]["title"], "Street test")
        self.assertEqual([c["tags"]["title"] for c in info["chapters"]], ["Start"])
        # MP4 cannot hold SubRip: left out, and the summary says so.
        out, _ = self.transcode("subtitled.mkv", self.out("subtitled.mp4"), "--vf", "gray",
                                "--json")
        self.assertIn("subrip", json.loads(out)["streams_dropped"])

    def test_mpeg4_encoder_and_quality(self):
        dst = self.out("street.avi")
        out, _ = self.transcode("street.mp4", dst, "--vf", "gray", "--codec", "mpeg4",
                                "--quality", "4", "--json")
        self.assertEqual(json.loads(out)["encoder"], "mpeg4")
        self.assertEqual(stream_of(dst, "video")[0]["codec_name"], "mpeg4")
        self.assertEqual(frame_count(dst), frame_count(self.path("street.mp4")))
        self.assert_gray(dst)

    def test_default_codec_follows_a_container_without_h264(self):
        # WebM holds VP8/VP9/AV1 only: without --codec the tool takes the
        # container's own (VP9), as ffmpeg does; MKV keeps H.264.
        if "libvpx-vp9" not in run(["ffmpeg", "-v", "error", "-encoders"])[1]:
            self.skipTest("this ffmpeg has no libvpx-vp9")
        dst = self.out("street.webm")
        out, _ = self.transcode("street.mp4", dst, "--vf", "gray", "--json")
        self.assertEqual(json.loads(out)["encoder"], "libvpx-vp9")
        self.assertEqual(stream_of(dst, "video")[0]["codec_name"], "vp9")
        self.assertEqual(frame_count(dst), frame_count(self.path("street.mp4")))
        out, _ = self.transcode("street.mp4", self.out("street.mkv"), "--json")
        self.assertEqual(json.loads(out)["encoder"], "libx264")
        rc, out, err = run([TOOL, "batch", "--out-dir", self.out("b"), "--ext", "webm", "--json",
                            self.path("street.mp4")])
        self.assertEqual(rc, 0, err)
        self.assertEqual(json.loads(out.strip().splitlines()[-1])["files"][0]["encoder"],
                         "libvpx-vp9")

    def test_missing_output_folder_is_named_as_given(self):
        # The folder the user gave, not our temporary OUT.part-PID name.
        dst = os.path.join(self.dir, "no", "such", "out.mp4")
        _, err = self.transcode("street.mp4", dst, expect=1)
        self.assertIn("cannot create %s: the folder %s does not exist"
                      % (dst, os.path.dirname(dst)), err)
        self.assertNotIn(".part", err)
        open(self.out("file"), "w").close()
        _, err = self.transcode("street.mp4", self.out("file/out.mp4"), expect=1)
        self.assertIn("cannot create %s: %s is not a folder"
                      % (self.out("file/out.mp4"), self.out("file")), err)
        self.assertEqual(os.listdir(self.dir), ["file"])
        # batch makes --out-dir; one it cannot make stops it before anything runs.
        out_dir = self.out("file/sub")
        rc, _, err = run([TOOL, "batch", "--out-dir", out_dir, self.path("street.mp4")])
        self.assertEqual(rc, 2, err)
        self.assertIn("--out-dir %s: cannot create it: Not a directory" % out_dir, err)

    def test_failure_leaves_nothing(self):
        dst = self.out("x.mkv")
        _, err = self.transcode("truncated.mkv", dst, "--vf", "gray", expect=1)
        self.assertIn("cudafilters: %s: truncated" % self.path("truncated.mkv"), err)
        self.assertEqual(os.listdir(self.dir), [])

    def test_scale_and_convert_filters(self):
        # scale changes the size the encoder gets; convert to RGB and back
        # to 4:2:0 on the way (our filters, not libswscale, between them).
        dst = self.out("small.mp4")
        out, _ = self.transcode("street.mp4", dst, "--vf",
                                "scale=w=96:h=54:method=area,convert=format=rgba,"
                                "convert=format=i420", "--json")
        summary = json.loads(out)
        n = frame_count(self.path("street.mp4"))
        self.assertEqual((summary["ok"], summary["frames_out"]), (True, n))
        s = stream_of(dst, "video")[0]
        self.assertEqual((s["width"], s["height"]), (96, 54))
        self.assertEqual(frame_count(dst), n)

    def test_convert_to_rgb_keeps_colour_for_a_yuv_encoder(self):
        # format=rgba is what convert makes; libswscale then converts it for
        # libx264, rather than the planner picking convert's GRAY8 (which
        # libx264 takes as it is) and losing the colour.
        dst = self.out("rgb.mp4")
        out, _ = self.transcode("street.mp4", dst, "--vf", "convert=format=rgba", "--json")
        summary = json.loads(out)
        self.assertTrue(summary["formats"].endswith("convert > RGBA"), summary["formats"])
        self.assertIn("rgba", summary["conversions"])
        self.assertNotEqual(stream_of(dst, "video")[0]["pix_fmt"], "gray")

    def test_a_filter_refusing_the_first_frame_is_no_encoder_error(self):
        # The crop lies outside the input: the filter's own error, not
        # "no encoder for --codec h264 works: ..." as if the encoders failed.
        dst = self.out("crop.mp4")
        _, err = self.transcode("street.mp4", dst, "--vf", "scale=crop-x=5000", expect=1)
        self.assertIn("scale: crop-x=5000 is outside the", err)
        self.assertNotIn("no encoder", err)
        self.assertEqual(os.listdir(self.dir), [])

    def test_json_numbers_have_a_fixed_precision(self):
        # Seconds and frames/s to 3 decimals (json-glib alone wrote
        # 0.034173000000000002); a name with quotes, a backslash and a tab
        # stays valid JSON.
        name = os.path.join(self.dir, 'we"ird\\name\t.mp4')
        shutil.copy(self.path("street.mp4"), name)
        rc, out, err = run([TOOL, "transcode", name, self.out("x.mkv"), "--json", "--quiet"])
        self.assertEqual(rc, 0, err)
        self.assertEqual(json.loads(out)["input"], name)
        self.assertIn(r'"input":"%s/we\"ird\\name\t.mp4"' % self.dir, out)
        assert_short_numbers(self, out, ("seconds", "fps"))
        rc, out, err = run([TOOL, "batch", "--out-dir", self.out("b"), "--json", "--quiet",
                            self.path("street.mp4"), self.path("vfr.mkv")])
        self.assertEqual(rc, 0, err)
        assert_short_numbers(self, out, ("seconds", "fps"))
        self.assertEqual(json.loads(out)["total"], 2)

    def test_json_of_a_name_that_is_not_utf8(self):
        # A Latin-1 file name: its bytes were written into the JSON as they
        # are, which no JSON parser reads (UTF-8), and batch, which reads
        # its children's summaries, reported the file done (exit status 0)
        # as failed with an empty error. Now each invalid byte is U+FFFD.
        name = os.fsencode(self.dir) + b"/caf\xe9.mp4"
        shutil.copy(self.path("street.mp4"), name)
        p = subprocess.run([TOOL.encode(), b"transcode", name, self.out("x.mkv").encode(),
                            b"--json", b"--quiet"], capture_output=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(json.loads(p.stdout)["input"], self.dir + "/caf\ufffd.mp4")
        p = subprocess.run([TOOL.encode(), b"batch", b"--out-dir", self.out("b").encode(),
                            b"--json", b"--quiet", name], capture_output=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        summary = json.loads(p.stdout)
        self.assertEqual((summary["failed"], summary["files"][0]["ok"]), (0, True))
        self.assertEqual(os.listdir(self.out("b").encode()), [b"caf\xe9.mp4"])

    def test_name_with_a_leading_dash(self):
        # After "--", as a shell user gives it; batch runs each file with
        # "--" before its names, which failed every such file with a usage
        # error ("needs two arguments": GLib leaves the "--" in argv when an
        # argument after it begins with '-').
        name = os.path.join(self.dir, "-dash.mp4")
        shutil.copy(self.path("street.mp4"), name)
        rc, _, err = run([TOOL, "transcode", "--quiet", "--", "-dash.mp4", "-out.mkv"],
                         cwd=self.dir)
        self.assertEqual(rc, 0, err)
        self.assertIn("-out.mkv", os.listdir(self.dir))
        rc, _, err = run([TOOL, "batch", "--quiet", "--out-dir", "b", "--", "-dash.mp4"],
                         cwd=self.dir)
        self.assertEqual(rc, 0, err)
        self.assertEqual(os.listdir(self.out("b")), ["-dash.mp4"])
        # A "--" among the names is no name.
        rc, _, err = run([TOOL, "batch", "--quiet", "--out-dir", "c", self.path("vfr.mkv"),
                          "--", "-dash.mp4"], cwd=self.dir)
        self.assertEqual(rc, 0, err)
        self.assertEqual(sorted(os.listdir(self.out("c"))), ["-dash.mp4", "vfr.mkv"])

    def test_output_name_near_the_longest_a_file_can_have(self):
        # 251 bytes + ".mkv": a valid name (ffmpeg writes it), but OUT.part-PID
        # passed 255 bytes and the output "could not be created: File name too
        # long". The temporary name keeps the start of the name instead.
        name = "n" * 251 + ".mkv"
        out, err = self.transcode("street.mp4", self.out(name), "--quiet")
        self.assertEqual(os.listdir(self.dir), [name])
        rc, _, err = run([TOOL, "batch", "--quiet", "--out-dir", self.out("b"), "--ext", "mkv",
                          self.out(name)])
        self.assertEqual((rc, os.listdir(self.out("b"))), (0, [name]), err)
        # One too long in itself fails at once, named, and leaves nothing.
        name = "n" * 256 + ".mkv"
        _, err = self.transcode("street.mp4", self.out(name), "--quiet", expect=1)
        self.assertIn("cannot create %s: File name too long" % self.out(name), err)
        self.assertEqual(sorted(os.listdir(self.dir)), ["b", "n" * 251 + ".mkv"])

    @unittest.skipUnless(os.path.exists("/dev/full"), "no /dev/full")
    def test_json_that_cannot_be_written_is_a_failure(self):
        # stdout on a full disk: the summary was lost with exit status 0.
        for args in (["transcode", "--quiet", "--json", self.path("street.mp4"),
                      self.out("x.mkv")],
                     ["batch", "--quiet", "--json", "--out-dir", self.out("b"),
                      self.path("street.mp4")],
                     ["filters"]):
            with open("/dev/full", "w") as full:
                p = subprocess.run([TOOL, *args], stdout=full, stderr=subprocess.PIPE,
                                   text=True, timeout=120)
            self.assertEqual(p.returncode, 1, args)
            self.assertIn("cudafilters: cannot write to standard output", p.stderr)

    def test_no_filters_is_a_plain_transcode(self):
        dst = self.out("plain.mkv")
        out, _ = self.transcode("street.mp4", dst, "--json")
        self.assertEqual(json.loads(out)["filters"], "")
        self.assertEqual(frame_count(dst), frame_count(self.path("street.mp4")))


class Batch(CliCase):
    GOOD = ["street.mp4", "vfr.mkv"]
    BAD = {  # file: what its message must say
        "missing.mp4": "No such file or directory",
        "empty.mp4": "empty file",
        "truncated.mkv": "truncated",
        "truncated.mp4": "moov atom not found",
        "corrupt.mp4": "corrupt data",
        "notavideo.mkv": "cannot open",
    }

    def batch(self, *args, stdin=None, timeout=180):
        return run([TOOL, "batch", "--out-dir", self.dir, *args], stdin=stdin, timeout=timeout)

    def test_good_and_bad_files(self):
        names = ["street.mp4", "missing.mp4", "empty.mp4", "truncated.mkv", "vfr.mkv",
                 "truncated.mp4", "corrupt.mp4", "notavideo.mkv"]
        start = time.monotonic()
        rc, out, err = self.batch("--vf", "gray", "--jobs", "2", "--json",
                                  *[self.path(n) for n in names])
        self.assertLess(time.monotonic() - start, 120)
        self.assertEqual(rc, len(self.BAD), err)  # exit status = files that failed
        for name, why in self.BAD.items():
            line = [l for l in err.splitlines() if l.startswith("cudafilters: " + self.path(name))]
            self.assertEqual(len(line), 1, "one message naming %s:\n%s" % (name, err))
            self.assertIn(why, line[0])
        self.assertEqual(sorted(os.listdir(self.dir)), sorted(self.GOOD))
        summary = json.loads(out)
        self.assertEqual((summary["total"], summary["failed"]), (len(names), len(self.BAD)))
        by_name = {os.path.basename(f["input"]): f for f in summary["files"]}
        for name in self.GOOD:
            self.assertTrue(by_name[name]["ok"])
            self.assertEqual(by_name[name]["frames_out"], frame_count(self.path(name)))
        for name in self.BAD:
            self.assertFalse(by_name[name]["ok"])
            self.assertIsNone(by_name[name]["output"])
        if no_gpu():
            self.assertEqual(err.count("no GPU"), 1, err)

    def test_names_from_list_file_stdin_and_from(self):
        lst = self.out("list.txt")
        with open(lst, "w") as f:
            f.write(self.path("street.mp4") + "\n\n")
        sub = os.path.join(self.dir, "a")
        rc, _, err = run([TOOL, "batch", "--out-dir", sub, "--ext", "mkv", "--quiet", "@" + lst])
        self.assertEqual((rc, os.listdir(sub)), (0, ["street.mkv"]), err)
        sub = os.path.join(self.dir, "b")
        rc, _, err = run([TOOL, "batch", "--out-dir", sub, "--quiet"],
                         stdin=self.path("vfr.mkv") + "\n" + self.path("missing.mp4") + "\n")
        self.assertEqual((rc, os.listdir(sub)), (1, ["vfr.mkv"]), err)
        self.assertIn("missing.mp4: cannot open", err)
        sub = os.path.join(self.dir, "c")
        rc, _, err = run([TOOL, "batch", "--out-dir", sub, "--quiet", "--from", lst, "-"],
                         stdin=self.path("vfr.mkv") + "\n")
        self.assertEqual((rc, sorted(os.listdir(sub))), (0, ["street.mp4", "vfr.mkv"]), err)

    def test_a_folder_given_as_the_list_is_named(self):
        # fopen() takes a folder; its read fails (EISDIR), which was an
        # empty list: "no input files".
        for args in (["--from", WORK], ["@" + WORK]):
            rc, _, err = self.batch("--quiet", *args)
            self.assertEqual(rc, 2, err)
            self.assertIn("cannot read the list %s: Is a directory" % WORK, err)
        self.assertEqual(os.listdir(self.dir), [])

    def test_same_output_twice_fails_the_second(self):
        rc, _, err = self.batch("--quiet", self.path("street.mp4"), self.path("street.mp4"))
        self.assertEqual(rc, 1)
        self.assertIn("would also be the output of", err)
        self.assertEqual(os.listdir(self.dir), ["street.mp4"])

    def test_stalled_input_fails_in_bounded_time(self):
        fifo = self.out("stalled.mp4")
        os.mkfifo(fifo)  # opened for reading, it never delivers a byte
        out_dir = os.path.join(self.dir, "out")
        start = time.monotonic()
        # 3 s: a loaded 2-core machine has paused the good file's process
        # for more than 1 s (its 30 frames took 2 s there).
        rc, _, err = run([TOOL, "batch", "--out-dir", out_dir, "--stall-timeout", "3",
                          fifo, self.path("street.mp4")], timeout=60)
        self.assertLess(time.monotonic() - start, 30)
        self.assertEqual(rc, 1, err)
        self.assertIn("cudafilters: %s: no progress" % fifo, err)
        self.assertEqual(os.listdir(out_dir), ["street.mp4"])


class JUnitResult(unittest.TextTestResult):
    """Also keeps (class, name, seconds, outcome, message) for the JUnit report."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.records = []

    def startTest(self, test):
        self._start = time.monotonic()
        super().startTest(test)

    def _record(self, test, outcome, message=""):
        # Module set-up errors come as "setUpModule (__main__)", with no class.
        test_id = test.id().replace("__main__", "cli", 1)
        cls, _, name = test_id.rpartition(".")
        start = getattr(self, "_start", time.monotonic())
        self.records.append((cls or "cli", name, time.monotonic() - start, outcome, message))

    def addSuccess(self, test):
        super().addSuccess(test)
        self._record(test, "passed")

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._record(test, "failure", self._exc_info_to_string(err, test))

    def addError(self, test, err):
        super().addError(test, err)
        self._record(test, "failure", self._exc_info_to_string(err, test))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._record(test, "skipped", reason)


def tool_and_junit(doc):
    """The command line of a CLI test module that takes the tool and
    --junit REPORT.xml only (its docstring's first line describes it):
    (the tool's absolute path, the report path or None)."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("tool")
    ap.add_argument("--junit")
    args = ap.parse_args()
    return os.path.abspath(args.tool), args.junit


def write_junit(path, suite_name, records):
    root = ET.Element("testsuite", name=suite_name, tests=str(len(records)),
                      failures=str(sum(r[3] == "failure" for r in records)),
                      skipped=str(sum(r[3] == "skipped" for r in records)))
    for cls, name, seconds, outcome, message in records:
        case = ET.SubElement(root, "testcase", classname=cls, name=name, time="%.3f" % seconds)
        if outcome != "passed":
            ET.SubElement(case, outcome, message=message.splitlines()[0] if message else "").text = message
    os.makedirs(os.path.dirname(path), exist_ok=True)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)


def run_suites(classes, junit, suite_name):
    """Runs the test cases of `classes`, writes the JUnit report to `junit`
    (if given) as suite `suite_name`, and returns (exit status, result): 0
    passed, 1 failed, 77 every case skipped (meson's skip)."""
    loader = unittest.TestLoader()
    suite = unittest.TestSuite(loader.loadTestsFromTestCase(c) for c in classes)
    # unittest runs each module's setUpModule() once, so inputs are made once per run.
    result = unittest.TextTestRunner(resultclass=JUnitResult, verbosity=2).run(suite)
    if junit:
        write_junit(junit, suite_name, result.records)
    if not result.wasSuccessful():
        return 1, result
    all_skipped = result.records and all(r[3] == "skipped" for r in result.records)
    return (77 if all_skipped else 0), result


GROUPS = {"cli": [Info, Transcode], "cli-batch": [Batch]}


def main():
    global TOOL
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tool")
    ap.add_argument("--group", choices=sorted(GROUPS), default=None)
    ap.add_argument("--junit")
    args = ap.parse_args()
    TOOL = os.path.abspath(args.tool)
    classes = GROUPS[args.group] if args.group else [c for g in GROUPS.values() for c in g]
    return run_suites(classes, args.junit, args.group or "cli")[0]


if __name__ == "__main__":
    sys.exit(main())
