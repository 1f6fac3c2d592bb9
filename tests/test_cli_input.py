#!/usr/bin/python3
"""The command-line tool on real inputs that caught it out: each case a clear
answer and nothing lost (issue 15).

Inputs are made in a temporary directory from Debian opencv-doc's videos: an
AVI whose index holds empty "repeat the previous frame" entries, interlaced
H.264, an MP4 cut right after its header, MPEG-4 and MS-MPEG4 AVIs with a lost,
a repeated or a damaged frame or cut inside a frame, an MKV whose Vorbis setup
header is corrupt, a transport stream whose audio timestamps go back. The helpers and the JUnit
report come from test_cli.py.

Usage: test_cli_input.py CUDAFILTERS [--junit REPORT.xml]
"""
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import unittest

import test_cli as base

WORK = None
SKIP_WHY = None


def avi_video_chunks(data):
    """(offset, size) of each video chunk ('00dc') in an AVI's movi list."""
    i = data.find(b"movi") + 4
    end = struct.unpack("<I", data[i - 8:i - 4])[0] + i - 4
    chunks = []
    while i + 8 <= end:
        fourcc, size = data[i:i + 4], struct.unpack("<I", data[i + 4:i + 8])[0]
        if fourcc == b"LIST":
            i += 12
            continue
        if fourcc[2:] == b"dc":
            chunks.append((i, size))
        i += 8 + size + (size & 1)
    return chunks


def ts_pes_pts(data, stream_id):
    """(offset of the PTS field, flags) of every PES header of `stream_id`."""
    found = []
    for i in range(0, len(data) - 187, 188):
        p = data[i:i + 188]
        if p[0] != 0x47 or not p[1] & 0x40:  # sync byte, payload unit start
            continue
        o = 4 + (1 + p[4] if p[3] & 0x20 else 0)
        if p[3] & 0x10 and p[o:o + 4] == b"\0\0\1" + bytes([stream_id]) and p[o + 7] & 0x80:
            found.append((i + o + 9, p[o + 7]))
    return found


def ts_read_pts(b, off):
    return ((b[off] >> 1) & 7) << 30 | b[off + 1] << 22 | (b[off + 2] >> 1) << 15 | \
        b[off + 3] << 7 | b[off + 4] >> 1


def ts_write_pts(b, off, v, prefix):
    b[off:off + 5] = bytes([(prefix << 4) | ((v >> 30) & 7) << 1 | 1, (v >> 22) & 0xFF,
                            ((v >> 15) & 0x7F) << 1 | 1, (v >> 7) & 0xFF, (v & 0x7F) << 1 | 1])


def make_inputs(d):
    vtest, megamind = base.VTEST, base.MEGAMIND
    # Capture-tool AVI: every 6th frame kept, the others written as empty
    # index entries (the AVI muxer fills gaps in the timestamps that way).
    base.ffmpeg("-i", vtest, "-t", "8", "-vf", "select='not(mod(n\\,6))',scale=320:240",
                "-fps_mode", "passthrough", "-c:v", "cinepak", os.path.join(d, "sparse.avi"))
    inter = ["-vf", "scale=320:240,tinterlace=interleave_top,setfield=tff", "-flags",
             "+ildct+ilme", "-c:v", "libx264", "-preset", "veryfast", "-x264opts", "tff=1"]
    base.ffmpeg("-i", vtest, "-t", "2", *inter, os.path.join(d, "interlaced.mp4"))
    base.ffmpeg("-i", vtest, "-t", "2", *inter, os.path.join(d, "interlaced.mkv"))
    # The index first, then the file cut after 500 bytes: only a header.
    base.ffmpeg("-i", vtest, "-t", "2", "-vf", "scale=320:240", "-c:v", "libx264", "-preset",
                "veryfast", "-movflags", "+faststart", os.path.join(d, "faststart.mp4"))
    with open(os.path.join(d, "faststart.mp4"), "rb") as f:
        head = f.read(500)
    with open(os.path.join(d, "cut-after-header.mp4"), "wb") as f:
        f.write(head)
    # The same MP4 cut right before its last video frame's data.
    rc, out, err = base.run(["ffprobe", "-v", "error", "-select_streams", "v", "-show_entries",
                             "packet=pos", "-of", "csv=p=0", os.path.join(d, "faststart.mp4")])
    last = max(int(p) for p in out.split())
    with open(os.path.join(d, "faststart.mp4"), "rb") as f:
        whole = f.read()
    with open(os.path.join(d, "cut-before-last.mp4"), "wb") as f:
        f.write(whole[:last])
    # A 40 s MKV (small frames, so it transcodes fast) cut at 97% of its
    # bytes: about 1.2 s gone, which the duration check's former margin
    # (0.5 s plus 2%) let pass as the whole file.
    base.ffmpeg("-f", "lavfi", "-i", "testsrc=size=160x120:rate=25", "-t", "40", "-c:v",
                "libx264", "-preset", "ultrafast", "-g", "25", os.path.join(d, "long.mkv"))
    with open(os.path.join(d, "long.mkv"), "rb") as f:
        whole = f.read()
    with open(os.path.join(d, "long-cut.mkv"), "wb") as f:
        f.write(whole[:len(whole) * 97 // 100])
    # MS-MPEG4 AVI (10 s of vtest as it is): one frame's chunk zeroed, one repeated.
    base.ffmpeg("-i", vtest, "-t", "10", "-c", "copy", os.path.join(d, "msmpeg4.avi"))
    with open(os.path.join(d, "msmpeg4.avi"), "rb") as f:
        avi = f.read()
    offset, size = avi_video_chunks(avi)[40]
    span = 8 + size + (size & 1)
    lost = bytearray(avi)
    lost[offset:offset + span] = bytes(span)
    with open(os.path.join(d, "lost-frame.avi"), "wb") as f:
        f.write(lost)
    repeated = bytearray(avi[:offset + span] + avi[offset:])
    for at in (4, avi.find(b"movi") - 4):  # RIFF and movi LIST sizes
        struct.pack_into("<I", repeated, at, struct.unpack("<I", repeated[at:at + 4])[0] + span)
    with open(os.path.join(d, "repeated-frame.avi"), "wb") as f:
        f.write(repeated)
    # The same AVI cut in the middle of its 41st frame's data (no index).
    with open(os.path.join(d, "cut.avi"), "wb") as f:
        f.write(avi[:offset + 8 + size // 2])
    # And cut right before the 61st or the last frame's chunk: no packet is
    # cut short.
    with open(os.path.join(d, "cut-between.avi"), "wb") as f:
        f.write(avi[:avi_video_chunks(avi)[60][0]])
    with open(os.path.join(d, "cut-before-last.avi"), "wb") as f:
        f.write(avi[:avi_video_chunks(avi)[-1][0]])
    # MPEG-4 AVI with one zeroed byte in its third frame: FFmpeg 5.1's decoder
    # aborted on it with exploding errors and frame threads.
    base.ffmpeg("-i", megamind, "-t", "1.5", "-c", "copy", os.path.join(d, "mpeg4.avi"))
    with open(os.path.join(d, "mpeg4.avi"), "rb") as f:
        mp4v = bytearray(f.read())
    offset, size = avi_video_chunks(mp4v)[2]
    mp4v[offset + 8 + size * 72 // 100] = 0
    with open(os.path.join(d, "mpeg4-damaged.avi"), "wb") as f:
        f.write(mp4v)
    # Vorbis in MKV with its setup header (the third header packet) spoilt.
    base.ffmpeg("-i", os.path.join(d, "faststart.mp4"), "-f", "lavfi", "-i",
                "sine=frequency=440:duration=2", "-c:v", "copy", "-c:a", "libvorbis",
                "-shortest", os.path.join(d, "vorbis.mkv"))
    with open(os.path.join(d, "vorbis.mkv"), "rb") as f:
        mkv = bytearray(f.read())
    setup = mkv.find(b"\x05vorbis") + 7
    for i in range(setup, setup + 40):
        mkv[i] ^= 0xFF
    with open(os.path.join(d, "bad-vorbis-setup.mkv"), "wb") as f:
        f.write(mkv)
    # Transport stream whose 11th audio packet goes back to the 7th's time.
    base.ffmpeg("-i", os.path.join(d, "faststart.mp4"), "-f", "lavfi", "-i",
                "sine=frequency=440:duration=2", "-c:v", "copy", "-c:a", "mp2", "-shortest",
                os.path.join(d, "audio.ts"))
    with open(os.path.join(d, "audio.ts"), "rb") as f:
        ts = bytearray(f.read())
    pes = ts_pes_pts(ts, 0xC0)
    back = ts_read_pts(ts, pes[6][0])
    off, flags = pes[10]
    ts_write_pts(ts, off, back, 3 if flags & 0x40 else 2)
    if flags & 0x40:
        ts_write_pts(ts, off + 5, back, 1)
    with open(os.path.join(d, "audio-back.ts"), "wb") as f:
        f.write(ts)


def setUpModule():
    global WORK, SKIP_WHY
    WORK, SKIP_WHY = base.make_work("cudafilters-cli-input-", make_inputs,
                                    (base.VTEST, base.MEGAMIND))


def tearDownModule():
    if WORK:
        shutil.rmtree(WORK, ignore_errors=True)


class Case(unittest.TestCase):
    def setUp(self):
        if SKIP_WHY:
            self.skipTest(SKIP_WHY)
        self.dir = tempfile.mkdtemp(dir=WORK)

    def path(self, name):
        return os.path.join(WORK, name)

    def out(self, name):
        return os.path.join(self.dir, name)

    def transcode(self, src, dst, *opts, expect=0):
        rc, out, err = base.run([base.TOOL, "transcode", "--quiet", "--json", self.path(src),
                                 dst, *opts])
        self.assertEqual(rc, expect, "exit status; stderr:\n" + err)
        return json.loads(out), err

    def assert_nothing_left(self):
        self.assertEqual(os.listdir(self.dir), [])


class Completeness(Case):
    def test_avi_with_empty_index_entries_is_complete(self):
        src = self.path("sparse.avi")
        header = int(base.streams(src)[0]["nb_frames"])
        frames = base.frame_count(src)
        self.assertGreater(header, 4 * frames, "the input should be mostly empty entries")
        dst = self.out("sparse.mkv")
        summary, _ = self.transcode("sparse.avi", dst, "--vf", "gray")
        self.assertEqual((summary["ok"], summary["frames_out"], summary["damaged"]),
                         (True, frames, 0))
        # Frames keep their times: the output plays as long as the input.
        self.assertEqual([p for p, _ in base.packets(dst, "v:0")[0]],
                         [p for p, _ in base.packets(src, "v:0")[0]])
        length = lambda p: float(base.probe(p, "-show_format")["format"]["duration"])
        self.assertAlmostEqual(length(dst), length(src), delta=0.11)

    def test_lost_frame_is_damage(self):
        summary, err = self.transcode("lost-frame.avi", self.out("x.mkv"), expect=1)
        self.assertIn("corrupt data: the index lists 100 video frames, 99 could be read", err)
        self.assertEqual(summary["damaged"], 1)
        self.assert_nothing_left()
        summary, _ = self.transcode("lost-frame.avi", self.out("y.mkv"), "--max-errors", "1")
        self.assertEqual((summary["ok"], summary["frames_out"], summary["damaged"]),
                         (True, 99, 1))

    def test_avi_cut_in_a_frame_is_truncated_not_corrupt(self):
        # libav returns the cut frame's packet flagged corrupt, at the end of
        # the file: that is a truncation, said with where it ends, and
        # --max-errors does not make it a success.
        why = "cut.avi: truncated: the file ends inside video frame 41 of 100, at 4.00 s"
        for opts in ((), ("--max-errors", "5")):
            summary, err = self.transcode("cut.avi", self.out("x.mkv"), "--vf", "gray", *opts,
                                          expect=1)
            self.assertIn(why, err)
            self.assertNotIn("corrupt", err)
            self.assertFalse(summary["ok"])
            self.assert_nothing_left()
        # In a batch: that file fails, the other is done.
        out_dir = self.out("b")
        rc, _, err = base.run([base.TOOL, "batch", "--quiet", "--out-dir", out_dir,
                               self.path("cut.avi"), self.path("lost-frame.avi"),
                               "--max-errors", "1"])
        self.assertEqual(rc, 1, err)
        self.assertIn(why, err)
        self.assertEqual(os.listdir(out_dir), ["lost-frame.avi"])

    def test_avi_cut_between_frames_is_truncated(self):
        # Its index is gone and libavformat scales its duration down with
        # the file's size (to about 6.5 s here): the header's 100 frames
        # say 10 s. It passed as a complete 60-frame file.
        why = ("cut-between.avi: truncated: the header says 10.00 s (100 video frames), "
               "the data ends at 6.00 s")
        summary, err = self.transcode("cut-between.avi", self.out("x.mkv"), expect=1)
        self.assertIn(why, err)
        self.assertFalse(summary["ok"])
        self.assert_nothing_left()
        # An AVI read without its index is still complete when its data
        # reaches the header's end (the empty entries count in the times).
        with open(self.path("sparse.avi"), "rb") as f:
            sparse = f.read()
        noidx = self.out("sparse-noidx.avi")
        with open(noidx, "wb") as f:
            f.write(sparse[:sparse.rfind(b"idx1")])
        rc, out, err = base.run([base.TOOL, "transcode", "--quiet", "--json", noidx,
                                 self.out("y.mkv")])
        self.assertEqual(rc, 0, err)
        self.assertEqual(json.loads(out)["frames_out"], base.frame_count(self.path("sparse.avi")))

    def test_cut_before_the_last_frame_is_truncated(self):
        # One frame short, within the duration check's tolerance: the AVI
        # passed as complete, and the MP4 (its index lists the frame, past
        # the end of the file) as corrupt, which --max-errors 1 let through.
        cases = (("cut-before-last.avi", "truncated: the header says 10.00 s (100 video "
                  "frames), the data ends at 9.90 s"),
                 ("cut-before-last.mp4", "truncated: the file ends before video frame 20 of "
                  "20, at 2.00 s"))
        for src, why in cases:
            for opts in ((), ("--max-errors", "1")):
                summary, err = self.transcode(src, self.out("x.mkv"), *opts, expect=1)
                self.assertIn(src + ": " + why, err)
                self.assertNotIn("corrupt", err)
                self.assert_nothing_left()

    def test_mkv_cut_near_its_end_is_truncated(self):
        summary, _ = self.transcode("long.mkv", self.out("whole.mkv"), "--vf", "gray")
        self.assertEqual((summary["ok"], summary["frames_out"]), (True, 1000))
        summary, err = self.transcode("long-cut.mkv", self.out("x.mkv"), "--vf", "gray",
                                      expect=1)
        self.assertRegex(err, r"long-cut\.mkv: truncated: the header says 40\.00 s, the data "
                              r"ends at 3[89]\.\d\d s")
        self.assertFalse(summary["ok"])
        self.assertEqual(os.listdir(self.dir), ["whole.mkv"])

    def test_repeated_frame_is_damage(self):
        summary, err = self.transcode("repeated-frame.avi", self.out("x.mkv"), expect=1)
        self.assertIn("the header lists 100 video frames, the file holds 101 (repeated data)",
                      err)
        self.assertEqual(summary["damaged"], 1)
        self.assert_nothing_left()

    def test_corrupt_vorbis_setup_is_damage(self):
        summary, err = self.transcode("bad-vorbis-setup.mkv", self.out("x.mkv"), expect=1)
        self.assertIn("corrupt data: audio stream #1 (vorbis) cannot be decoded", err)
        self.assertIn("Setup header corrupt", err)
        self.assert_nothing_left()
        # Tolerated, it is copied as it is and counted.
        summary, _ = self.transcode("bad-vorbis-setup.mkv", self.out("y.mkv"), "--max-errors", "1")
        self.assertEqual((summary["ok"], summary["damaged"], summary["streams_copied"]),
                         (True, 1, 1))


class Crashes(Case):
    """Inputs that crashed the per-file process (exit 134/139)."""

    def test_mp4_cut_after_its_header(self):
        _, err = self.transcode("cut-after-header.mp4", self.out("x.mkv"), expect=1)
        self.assertIn("cut-after-header.mp4: truncated: the file ends inside its header", err)
        self.assertNotIn("crashed", err)
        self.assert_nothing_left()

    def test_damaged_mpeg4_is_refused_not_aborted(self):
        summary, err = self.transcode("mpeg4-damaged.avi", self.out("x.mkv"), expect=1)
        self.assertIn("corrupt data: decoding:", err)
        self.assertNotIn("crashed", err)
        self.assert_nothing_left()
        # Tolerated, each damaged packet costs at most its own frame.
        summary, _ = self.transcode("mpeg4-damaged.avi", self.out("y.mkv"), "--max-errors", "5")
        self.assertGreaterEqual(summary["damaged"], 1)
        self.assertGreaterEqual(summary["frames_out"],
                                base.frame_count(self.path("mpeg4.avi")) - summary["damaged"])


class Interlaced(Case):
    def test_spatial_filter_refused_with_the_elements_words(self):
        for name, order in (("interlaced.mp4", "tt"), ("interlaced.mkv", "tb")):
            self.assertEqual(base.stream_of(self.path(name), "video")[0]["field_order"], order)
            _, err = self.transcode(name, self.out("x.mkv"), "--vf", "gray,blur=sigma=2",
                                    expect=1)
            self.assertIn(
                "blur cannot filter interlaced video (field order %s): its result depends on "
                "neighbouring rows, which belong to the other field. Deinterlace first "
                "(e.g. ffmpeg -vf yadif before cudafilters)." % order, err)
            self.assert_nothing_left()

    def test_gray_keeps_fields_and_their_order(self):
        for name in ("interlaced.mp4", "interlaced.mkv"):
            src = self.path(name)
            dst = self.out(name)
            self.transcode(name, dst, "--vf", "gray")
            self.assertEqual(base.stream_of(dst, "video")[0]["field_order"],
                             base.stream_of(src, "video")[0]["field_order"])
            frames = base.probe(dst, "-select_streams", "v:0", "-show_entries",
                                "frame=interlaced_frame,top_field_first")["frames"]
            self.assertEqual(len(frames), base.frame_count(src))
            self.assertTrue(all(f["interlaced_frame"] == 1 and f["top_field_first"] == 1
                                for f in frames))


class Timestamps(Case):
    def test_copied_audio_going_back_is_fixed_as_ffmpeg_does(self):
        src = self.path("audio-back.ts")
        pts = [p for p, _ in base.packets(src, "a:0")[0]]
        dst = self.out("x.mkv")
        summary, err = self.transcode("audio-back.ts", dst, "--vf", "gray")
        self.assertNotIn("writing", err)
        self.assertGreaterEqual(summary["timestamps_fixed"], 1)
        self.assertEqual(base.packet_count(dst, "a:0"), len(pts))
        # MKV allows equal timestamps (so does FFmpeg's fix there); MP4 does not.
        dts = [int(p["dts"]) for p in base.probe(dst, "-select_streams", "a:0", "-show_entries",
                                                  "packet=dts")["packets"]]
        self.assertTrue(all(a <= b for a, b in zip(dts, dts[1:])), dts)
        dst = self.out("x.mp4")
        self.transcode("audio-back.ts", dst, "--vf", "gray")
        self.assertEqual(base.packet_count(dst, "a:0"), len(pts))
        dts = [int(p["dts"]) for p in base.probe(dst, "-select_streams", "a:0", "-show_entries",
                                                  "packet=dts")["packets"]]
        self.assertTrue(all(a < b for a, b in zip(dts, dts[1:])), dts)


class Signals(Case):
    """Closing the terminal (SIGHUP) cleans up as Ctrl-C and SIGTERM do."""

    def wait_for_part(self, directory, proc):
        for _ in range(400):
            if os.path.isdir(directory) and any(".part-" in f for f in os.listdir(directory)):
                return
            if proc.poll() is not None:
                self.fail("finished before the signal: " + proc.communicate()[1])
            time.sleep(0.05)
        self.fail("no temporary output appeared")

    def test_transcode_stops_and_cleans_up(self):
        for sig in (signal.SIGHUP, signal.SIGTERM, signal.SIGINT):
            proc = subprocess.Popen([base.TOOL, "transcode", "--quiet", self.path("msmpeg4.avi"),
                                     self.out("x.mkv"), "--vf", "blur=sigma=8"],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            self.wait_for_part(self.dir, proc)
            proc.send_signal(sig)
            _, err = proc.communicate(timeout=30)
            self.assertEqual(proc.returncode, 130, "%s: %s" % (sig.name, err))
            self.assertIn("interrupted", err)
            self.assert_nothing_left()

    def test_batch_stops_and_cleans_up(self):
        out_dir = self.out("out")
        proc = subprocess.Popen([base.TOOL, "batch", "--quiet", "--out-dir", out_dir,
                                 "--vf", "blur=sigma=8", self.path("msmpeg4.avi"),
                                 self.path("sparse.avi")],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.wait_for_part(out_dir, proc)
        proc.send_signal(signal.SIGHUP)
        _, err = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 130, err)
        self.assertEqual([f for f in os.listdir(out_dir) if ".part-" in f], [])


def main():
    base.TOOL, junit = base.tool_and_junit(__doc__)
    return base.run_suites((Completeness, Crashes, Interlaced, Timestamps, Signals), junit,
                           "cli-input")[0]


if __name__ == "__main__":
    sys.exit(main())
