#!/usr/bin/python3
"""Tests of the batch beyond one machine and of existing outputs: --shard,
--skip-existing, --overwrite, --report and `report merge`, --devices all,
--dry-run, on small real files (made from Debian opencv-doc's vtest.avi).

Usage: test_cli_scale.py CUDAFILTERS [--junit REPORT.xml]
Exit status: 0 all passed, 1 a failure, 77 every case skipped.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_cli import VTEST, ffmpeg, frame_count, make_work, run, run_suites, tool_and_junit  # noqa: E402

TOOL = None
WORK = None
SKIP_WHY = None
NAMES = ["c.mp4", "a.mp4", "g.mp4", "b.mp4", "e.mp4", "d.mp4", "f.mp4"]  # not sorted on purpose


def make_inputs(d):
    """Seven 1 s clips of 160x120 (10 frames each), and an 8 s 768x576 one
    that takes a few seconds to filter on the CPU."""
    for i, name in enumerate(sorted(NAMES)):
        ffmpeg("-ss", str(i), "-i", VTEST, "-t", "1", "-vf", "scale=160:120", "-c:v", "libx264",
               "-preset", "veryfast", os.path.join(d, name))
    ffmpeg("-i", VTEST, "-t", "8", "-c:v", "libx264", "-preset", "veryfast",
           os.path.join(d, "long.mp4"))


def setUpModule():
    global WORK, SKIP_WHY
    WORK, SKIP_WHY = make_work("cudafilters-scale-", make_inputs)


def tearDownModule():
    if WORK:
        shutil.rmtree(WORK, ignore_errors=True)


def no_gpu():
    rc, out, _ = run([TOOL, "devices", "--json"])
    return rc == 0 and json.loads(out)["devices"] == []


def slurm_free_env(**extra):
    """This environment without Slurm's array variables, plus `extra`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLURM_")}
    env.update(extra)
    return env


class Case(unittest.TestCase):
    def setUp(self):
        if SKIP_WHY:
            self.skipTest(SKIP_WHY)
        self.dir = tempfile.mkdtemp(dir=WORK)
        self.out = os.path.join(self.dir, "out")

    def src(self, name):
        return os.path.join(WORK, name)

    def tool(self, *args, env=None, timeout=180):
        p = subprocess.run([TOOL, *args], capture_output=True, text=True, timeout=timeout,
                           env=env or slurm_free_env())
        return p.returncode, p.stdout, p.stderr

    def batch(self, *args, env=None):
        return self.tool("batch", "--out-dir", self.out, "--quiet", *args, env=env)

    def assert_no_parts(self, directory):
        if os.path.isdir(directory):
            self.assertEqual([f for f in os.listdir(directory) if ".part-" in f], [])

    def plan(self, spec, names, env=None):
        """--dry-run of one shard: {input: action}."""
        rc, out, err = self.batch("--shard", spec, "--dry-run", *names, env=env)
        self.assertEqual(rc, 0, err)
        lines = out.splitlines()
        self.assertRegex(lines[0], r"^shard \d+/\d+: \d+ of %d files$" % len(names))
        actions = {}
        for line in lines[1:]:
            action, rest = line.split(None, 1)
            actions[rest.split(" -> ")[0].split(": ")[0]] = action
        return actions


class ExistingOutputs(Case):
    """Issue 15 item 4 and issue 18 item 2: no output is overwritten unless asked."""

    def write_placeholder(self, path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write("an earlier result\n")
        return os.stat(path)

    def assert_untouched(self, path, st):
        with open(path) as f:
            self.assertEqual(f.read(), "an earlier result\n")
        self.assertEqual(os.stat(path).st_mtime_ns, st.st_mtime_ns)

    def test_transcode_refuses_an_existing_output(self):
        dst = os.path.join(self.out, "a.mp4")
        st = self.write_placeholder(dst)
        rc, out, err = self.tool("transcode", self.src("a.mp4"), dst, "--vf", "gray", "--json")
        self.assertEqual(rc, 1, err)
        self.assertIn("cudafilters: %s: the output %s exists already: left alone "
                      "(--skip-existing skips such files, --overwrite replaces them)"
                      % (self.src("a.mp4"), dst), err)
        summary = json.loads(out)
        self.assertEqual((summary["ok"], summary["frames_out"]), (False, 0))
        self.assert_untouched(dst, st)
        self.assertEqual(os.listdir(self.out), ["a.mp4"])

    def test_transcode_overwrite_replaces_it(self):
        dst = os.path.join(self.out, "a.mp4")
        self.write_placeholder(dst)
        for flag in ("--overwrite", "-y"):
            rc, _, err = self.tool("transcode", self.src("a.mp4"), dst, "--vf", "gray", flag)
            self.assertEqual(rc, 0, err)
            self.assertEqual(frame_count(dst), 10)
        self.assertEqual(os.listdir(self.out), ["a.mp4"])

    def test_transcode_skip_existing_keeps_it(self):
        dst = os.path.join(self.out, "a.mp4")
        st = self.write_placeholder(dst)
        rc, out, err = self.tool("transcode", self.src("a.mp4"), dst, "--skip-existing", "--json")
        self.assertEqual(rc, 0, err)
        self.assertEqual(json.loads(out), {"input": self.src("a.mp4"), "output": dst, "ok": True,
                                           "skipped": True, "error": None})
        self.assertIn("skipped: its output %s exists" % dst, err)
        self.assert_untouched(dst, st)
        # Nothing there: it runs.
        fresh = os.path.join(self.out, "b.mp4")
        rc, _, err = self.tool("transcode", self.src("b.mp4"), fresh, "--skip-existing")
        self.assertEqual(rc, 0, err)
        self.assertEqual(frame_count(fresh), 10)

    def test_both_options_are_a_usage_error(self):
        for cmd in (["transcode", self.src("a.mp4"), os.path.join(self.out, "a.mp4")],
                    ["batch", "--out-dir", self.out, self.src("a.mp4")]):
            rc, _, err = self.tool(*cmd, "--overwrite", "--skip-existing")
            self.assertEqual(rc, 2, err)
            self.assertIn("--overwrite and --skip-existing: give one of them, not both", err)
        self.assertFalse(os.path.exists(self.out))

    def test_an_output_that_appears_meanwhile_is_not_replaced(self):
        # The long file takes seconds to blur on the CPU; its output appears
        # from elsewhere in the meantime. The finished file must not replace
        # it (the final rename refuses), and no temporary file stays.
        os.makedirs(self.out)
        dst = os.path.join(self.out, "long.mp4")
        p = subprocess.Popen([TOOL, "transcode", self.src("long.mp4"), dst, "--quiet",
                              "--vf", "gray,blur=sigma=2"], stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 30
        while not any(".part-" in f for f in os.listdir(self.out)):
            self.assertLess(time.monotonic(), deadline, "the transcode never started writing")
            time.sleep(0.05)
        st = self.write_placeholder(dst)
        _, err = p.communicate(timeout=120)
        if p.returncode == 0:
            self.fail("the transcode finished before the output appeared; nothing was tested")
        self.assertEqual(p.returncode, 1, err)
        self.assertIn("the output %s appeared while this file ran: left alone" % dst, err)
        self.assert_untouched(dst, st)
        self.assert_no_parts(self.out)

    def test_batch_refuses_existing_outputs_and_does_the_rest(self):
        st = self.write_placeholder(os.path.join(self.out, "a.mp4"))
        rc, _, err = self.tool("batch", "--out-dir", self.out, self.src("a.mp4"),
                               self.src("b.mp4"))
        self.assertEqual(rc, 1, err)  # a failed, b done
        self.assertIn("%s: the output %s exists already" % (self.src("a.mp4"),
                                                            os.path.join(self.out, "a.mp4")), err)
        self.assertIn("1 output existed already and was left alone; --skip-existing skips such "
                      "files, --overwrite replaces them", err)
        self.assert_untouched(os.path.join(self.out, "a.mp4"), st)
        self.assertEqual(frame_count(os.path.join(self.out, "b.mp4")), 10)

    def test_batch_skip_existing_resumes_and_overwrite_redoes(self):
        st = self.write_placeholder(os.path.join(self.out, "a.mp4"))
        rc, out, err = self.batch("--skip-existing", "--json", self.src("a.mp4"),
                                  self.src("b.mp4"))
        self.assertEqual(rc, 0, err)
        summary = json.loads(out)
        self.assertEqual((summary["total"], summary["failed"], summary["skipped"]), (2, 0, 1))
        by = {os.path.basename(f["input"]): f for f in summary["files"]}
        self.assertEqual((by["a.mp4"]["ok"], by["a.mp4"]["skipped"]), (True, True))
        self.assertEqual((by["b.mp4"]["skipped"], by["b.mp4"]["frames_out"]), (False, 10))
        self.assert_untouched(os.path.join(self.out, "a.mp4"), st)
        b_st = os.stat(os.path.join(self.out, "b.mp4"))
        rc, out, err = self.batch("--overwrite", "--json", self.src("a.mp4"), self.src("b.mp4"))
        self.assertEqual(rc, 0, err)
        self.assertEqual(json.loads(out)["skipped"], 0)
        self.assertEqual(frame_count(os.path.join(self.out, "a.mp4")), 10)
        self.assertNotEqual(os.stat(os.path.join(self.out, "b.mp4")).st_ino, b_st.st_ino)

    def test_skip_existing_never_takes_the_input_for_its_output(self):
        # --out-dir is the inputs' own folder: each output would be its input.
        d = os.path.join(self.dir, "in")
        os.makedirs(d)
        shutil.copy(self.src("a.mp4"), d)
        rc, out, err = self.tool("batch", "--out-dir", d, "--skip-existing", "--json", "--quiet",
                                 os.path.join(d, "a.mp4"))
        self.assertEqual(rc, 1, err)
        self.assertIn("is the input file", err)
        self.assertEqual(json.loads(out)["skipped"], 0)
        self.assertEqual(frame_count(os.path.join(d, "a.mp4")), 10)

    def test_an_output_that_is_a_directory_is_refused_before_any_work(self):
        # --overwrite could never rename over it: refused up front, the
        # directory and what it holds left alone, no temporary file.
        d = os.path.join(self.dir, "d.mp4")
        os.makedirs(d)
        keep = os.path.join(d, "keep")
        self.write_placeholder(keep)
        for extra in ((), ("--overwrite",), ("--skip-existing",)):
            rc, out, err = self.tool("transcode", self.src("a.mp4"), d, "--quiet", *extra)
            self.assertEqual(rc, 1, (extra, err))
            self.assertIn("the output %s is a directory" % d, err)
            self.assertEqual(os.listdir(d), ["keep"])
            self.assert_no_parts(self.dir)
        # A batch whose output name is a directory: that file fails, not skipped.
        os.makedirs(os.path.join(self.out, "a.mp4"))
        rc, out, err = self.batch("--skip-existing", "--json", self.src("a.mp4"), self.src("b.mp4"))
        self.assertEqual(rc, 1, err)
        by = {os.path.basename(f["input"]): f for f in json.loads(out)["files"]}
        self.assertEqual((by["a.mp4"]["ok"], by["a.mp4"]["skipped"]), (False, False))
        self.assertEqual(by["b.mp4"]["frames_out"], 10)


class Shards(Case):
    def test_shards_cover_the_list_exactly_once_in_any_order(self):
        names = [self.src(n) for n in NAMES]
        seen = {}
        for i in range(3):
            # Each shard gets the list in another order, as other machines might.
            order = names[i:] + names[:i]
            for name, action in self.plan("%d/3" % i, list(reversed(order)) if i == 1 else order
                                          ).items():
                self.assertEqual(action, "run")
                self.assertNotIn(name, seen, "%s in two shards" % name)
                seen[name] = i
        self.assertEqual(sorted(seen), sorted(names))
        for rank, name in enumerate(sorted(names)):
            self.assertEqual(seen[name], rank % 3, name)
        self.assertFalse(os.path.exists(self.out), "--dry-run made the output folder")

    def test_shard_auto_reads_the_slurm_array(self):
        names = [self.src(n) for n in NAMES]
        env = slurm_free_env(SLURM_ARRAY_TASK_ID="11", SLURM_ARRAY_TASK_MIN="10",
                             SLURM_ARRAY_TASK_MAX="12", SLURM_ARRAY_TASK_STEP="1",
                             SLURM_ARRAY_TASK_COUNT="3")
        self.assertEqual(self.plan("auto", names, env=env), self.plan("1/3", names))
        self.assertEqual(sorted(self.plan("1/3", names)), [self.src("b.mp4"), self.src("e.mp4")])

    def test_bad_shards_are_usage_errors_and_nothing_runs(self):
        cases = {
            ("3/3",): "--shard 3/3: INDEX must be 0 to 2 (shards count from 0)",
            ("1/0",): "--shard 1/0: COUNT must be 1 to",
            ("two",): "--shard 'two': expected INDEX/COUNT (e.g. 0/4, shards count from 0) or "
                      "auto",
            ("auto",): "--shard auto: SLURM_ARRAY_TASK_ID is not set, so this is not a task of "
                       "a Slurm job array",
        }
        for args, message in cases.items():
            # Names on standard input too: the shard is refused before they are read.
            p = subprocess.run([TOOL, "batch", "--out-dir", self.out, "--shard", *args],
                               input=self.src("a.mp4") + "\n", capture_output=True, text=True,
                               timeout=60, env=slurm_free_env())
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertIn("cudafilters batch: " + message, p.stderr)
            self.assertIn("Try 'cudafilters batch --help'.", p.stderr)
        self.assertFalse(os.path.exists(self.out))

    def test_a_shard_runs_only_its_files(self):
        names = [self.src(n) for n in NAMES]
        rc, out, err = self.batch("--shard", "2/3", "--vf", "gray", "--json", *names)
        self.assertEqual(rc, 0, err)
        self.assertEqual(sorted(os.listdir(self.out)), ["c.mp4", "f.mp4"])
        self.assertEqual(json.loads(out)["total"], 2)
        # A second input writing the same output fails in its own shard,
        # whichever shard holds the first one.
        twin = os.path.join(self.dir, "twin")
        os.makedirs(twin)
        shutil.copy(self.src("a.mp4"), os.path.join(twin, "a.mp4"))
        both = [self.src("a.mp4"), os.path.join(twin, "a.mp4")]
        owner = [i for i in range(2) if os.path.join(twin, "a.mp4") in self.plan("%d/2" % i, both)]
        self.assertEqual(len(owner), 1)
        rc, out, err = self.batch("--shard", "%d/2" % owner[0], "--dry-run", *both)
        self.assertIn("fail  %s: its output %s would also be the output of %s" % (
            both[1], os.path.join(self.out, "a.mp4"), both[0]), out)


class Reports(Case):
    def merge(self, *paths, json_out=False):
        args = ["report", "merge", *paths] + (["--json"] if json_out else [])
        rc, out, err = self.tool(*args)
        return rc, (json.loads(out) if json_out and out else out), err

    def test_shard_reports_merge_into_one_summary(self):
        names = [self.src(n) for n in NAMES] + [self.src("missing.mp4")]
        reports = os.path.join(self.dir, "reports")
        for i in range(2):
            self.batch("--shard", "%d/2" % i, "--vf", "gray", "--report",
                       os.path.join(reports, "shard-%d.jsonl" % i), *names)
        lines = [json.loads(l) for f in sorted(os.listdir(reports))
                 for l in open(os.path.join(reports, f))]
        starts = [l for l in lines if l.get("run") == "start"]
        ends = [l for l in lines if l.get("run") == "end"]
        files = [l for l in lines if "input" in l]
        self.assertEqual([s["shard"] for s in starts], ["0/2", "1/2"])
        self.assertEqual(sorted(i for s in starts for i in s["inputs"]), sorted(names))
        self.assertEqual(sorted(f["input"] for f in files), sorted(names))
        self.assertEqual(sum(e["failed"] for e in ends), 1)
        self.assertEqual([e["interrupted"] for e in ends], [False, False])
        rc, summary, err = self.merge(reports, json_out=True)
        self.assertEqual(rc, 1, err)  # one input failed
        self.assertEqual({k: summary[k] for k in ("reports", "runs", "runs_interrupted",
                                                  "runs_unfinished", "files", "done",
                                                  "transcoded", "skipped", "failed",
                                                  "not_reported", "frames")},
                         {"reports": 2, "runs": 2, "runs_interrupted": 0, "runs_unfinished": 0,
                          "files": 8, "done": 7, "transcoded": 7, "skipped": 0, "failed": 1,
                          "not_reported": 0, "frames": 70})
        self.assertEqual(len(summary["failures"]), 1)
        self.assertEqual(summary["failures"][0]["input"], self.src("missing.mp4"))
        self.assertIn("No such file or directory", summary["failures"][0]["error"])
        seconds = sum(f["seconds"] for f in files if f["ok"])
        self.assertAlmostEqual(summary["seconds"], seconds, places=3)
        # Written to 3 decimals: no float noise (0.30000000000000004).
        text = self.tool("report", "merge", "--json", reports)[1]
        for key in ("seconds", "fps"):
            self.assertRegex(text, r'"%s":\d+(\.\d{1,3})?[,}]' % key)
        self.assertAlmostEqual(summary["fps"], 70 / seconds, delta=70 / seconds * 1e-3)
        rc, text, _ = self.merge(reports)
        self.assertIn("8 files: 7 done (7 transcoded, 0 skipped: their outputs existed), 1 failed",
                      text)
        self.assertIn("failed:\n  %s: cannot open" % self.src("missing.mp4"), text)

    def test_a_rerun_counts_each_file_once(self):
        names = [self.src(n) for n in ("a.mp4", "b.mp4", "c.mp4")]
        report = os.path.join(self.dir, "r.jsonl")
        self.assertEqual(self.batch("--report", report, *names)[0], 0)
        os.unlink(os.path.join(self.out, "b.mp4"))
        rc, out, err = self.batch("--report", report, "--skip-existing", "--json", *names)
        self.assertEqual((rc, json.loads(out)["skipped"]), (0, 2), err)
        rc, summary, _ = self.merge(report, json_out=True)
        self.assertEqual(rc, 0)
        self.assertEqual((summary["runs"], summary["files"], summary["transcoded"],
                          summary["skipped"], summary["frames"]), (2, 3, 3, 0, 30))
        # Merged alone, the rerun's report says what the rerun saw.
        second = os.path.join(self.dir, "second.jsonl")
        with open(report) as f:
            lines = f.readlines()
        with open(second, "w") as f:
            f.writelines(lines[len(lines) // 2:])
        rc, summary, _ = self.merge(second, json_out=True)
        self.assertEqual((summary["transcoded"], summary["skipped"], summary["frames"]),
                         (1, 2, 10))

    def test_merge_names_inputs_of_runs_that_did_not_end(self):
        report = os.path.join(self.dir, "killed.jsonl")
        with open(report, "w") as f:
            f.write(json.dumps({"run": "start", "shard": "1/3", "host": "node7", "pid": 42,
                                "started": "2026-01-02T03:04:05.000Z", "slurm_job": "9_1",
                                "inputs": ["x.mp4", "y.mp4"]}) + "\n")
            f.write(json.dumps({"input": "x.mp4", "output": "o/x.mp4", "ok": True,
                                "frames_out": 25, "seconds": 0.5}) + "\n")
            f.write('{"input": "y.mp4", "ok": tr\n')  # a torn line
        rc, text, err = self.merge(report)
        self.assertEqual(rc, 1)
        self.assertIn("killed.jsonl:3: not a report line (left out)", err)
        self.assertIn("1 report file, 1 run (0 interrupted, 1 did not finish)", text)
        self.assertIn("2 files: 1 done (1 transcoded, 0 skipped: their outputs existed), "
                      "0 failed, 1 not reported", text)
        self.assertIn("25 frames transcoded in 0.5 s of file time: 50.0 frames/s", text)
        self.assertIn("not reported (their runs did not end):\n  y.mp4 (shard 1/3 on node7 "
                      "(Slurm job 9_1), started 2026-01-02T03:04:05.000Z)", text)

    def test_merge_leaves_out_lines_of_other_shapes(self):
        report = os.path.join(self.dir, "odd.jsonl")
        with open(report, "w") as f:
            f.write('{"run": "start", "inputs": [1, {"a": 2}, "z.mp4"]}\n'
                    '{"input": "z.mp4", "ok": "yes", "frames_out": "x", "seconds": [1]}\n'
                    '{"input": {"x": 1}}\n[1, 2]\n{"run": "end", "interrupted": 3}\n')
        rc, summary, err = self.merge(report, json_out=True)
        self.assertEqual(rc, 1)
        self.assertEqual(err.count("not a report line (left out)"), 2, err)
        self.assertNotIn("CRITICAL", err)
        self.assertEqual((summary["files"], summary["failed"], summary["frames"],
                          summary["unreadable_lines"]), (1, 1, 0, 2))

    def test_merge_takes_no_impossible_amounts(self):
        # Numbers json-glib reads as infinity (1e400) or that no run writes
        # (negative): each counts as 0. 1e400 frames made -2^63 frames
        # (the double's conversion to int64, undefined) and "inf s".
        report = os.path.join(self.dir, "edited.jsonl")
        with open(report, "w") as f:
            for name, frames, seconds in (("a.mp4", 10, 0.5), ("b.mp4", "1e400", "1e400"),
                                          ("c.mp4", -5, -1), ("d.mp4", "1e300", 0)):
                f.write('{"input": "%s", "output": "o/%s", "ok": true, "frames_out": %s, '
                        '"seconds": %s}\n' % (name, name, frames, seconds))
        rc, summary, err = self.merge(report, json_out=True)
        self.assertEqual(rc, 0, err)
        self.assertEqual((summary["transcoded"], summary["frames"], summary["seconds"],
                          summary["fps"]), (4, 10, 0.5, 20))
        rc, text, _ = self.merge(report)
        self.assertIn("10 frames transcoded in 0.5 s of file time: 20.0 frames/s", text)

    def test_merge_usage_errors(self):
        self.assertEqual(self.merge(os.path.join(self.dir, "nothing-here.jsonl"))[0], 2)
        self.assertEqual(self.tool("report")[0], 2)
        self.assertEqual(self.tool("report", "merge")[0], 2)
        rc, _, err = self.tool("report", "sum", "x")
        self.assertEqual(rc, 2)
        self.assertIn("unknown subcommand 'sum' (there is: merge)", err)
        rc, out, _ = self.tool("report", "--help")
        self.assertEqual(rc, 0)
        self.assertIn("cudafilters report", out)
        self.assertIn("merge REPORT|DIR", out)

    def test_a_stopped_batch_starts_nothing_new_and_says_so(self):
        report = os.path.join(self.dir, "r.jsonl")
        p = subprocess.Popen([TOOL, "batch", "--out-dir", self.out, "--quiet", "--vf",
                              "gray,blur=sigma=2", "--report", report, self.src("long.mp4"),
                              self.src("a.mp4"), self.src("b.mp4")],
                             stderr=subprocess.PIPE, text=True, env=slurm_free_env())
        deadline = time.monotonic() + 30
        while not (os.path.isdir(self.out) and os.listdir(self.out)):
            self.assertLess(time.monotonic(), deadline)
            time.sleep(0.05)
        p.send_signal(signal.SIGTERM)
        _, err = p.communicate(timeout=60)
        self.assertEqual(p.returncode, 130, err)
        self.assertEqual(os.listdir(self.out), [])
        lines = [json.loads(l) for l in open(report)]
        self.assertEqual([l.get("run") for l in lines], ["start", None, None, None, "end"])
        self.assertEqual([(l["input"], l["error"]) for l in lines[1:4]],
                         [(self.src("long.mp4"), "interrupted"),
                          (self.src("a.mp4"), "interrupted before it started"),
                          (self.src("b.mp4"), "interrupted before it started")])
        self.assertEqual((lines[4]["interrupted"], lines[4]["failed"]), (True, 3))
        self.assertIn("cudafilters: %s: interrupted" % self.src("long.mp4"), err)
        self.assertIn("cudafilters batch: interrupted: 2 files not started", err)
        self.assertNotIn("%s: interrupted" % self.src("a.mp4"), err)


class Devices(Case):
    def test_devices_all_runs_on_the_cpu_without_a_gpu(self):
        if not no_gpu():
            self.skipTest("this machine has a GPU (the two-GPU run is its own test)")
        rc, out, err = self.tool("batch", "--out-dir", self.out, "--devices", "all", "--jobs",
                                 "2", "--vf", "gray", "--json", self.src("a.mp4"),
                                 self.src("b.mp4"), self.src("c.mp4"))
        self.assertEqual(rc, 0, err)
        self.assertEqual(err.count("no GPU ("), 1, err)
        self.assertIn("filters run on the CPU", err)
        files = json.loads(out)["files"]
        self.assertEqual([f["filter_device"] for f in files], ["cpu"] * 3)
        self.assertEqual(sorted(os.listdir(self.out)), ["a.mp4", "b.mp4", "c.mp4"])

    def test_bad_device_lists_are_usage_errors(self):
        for spec, message in (("0,0", "listed twice" if not no_gpu() else "no GPU"),
                              ("gpu1", "'gpu1' is not a GPU ordinal (0, 1, ...)"),
                              ("99", "GPU 99")):
            rc, _, err = self.tool("batch", "--out-dir", self.out, "--devices", spec,
                                   self.src("a.mp4"))
            self.assertEqual(rc, 2, err)
            self.assertIn(message, err)
        self.assertFalse(os.path.exists(self.out))

    def test_batch_help_documents_the_options(self):
        rc, out, _ = self.tool("batch", "--help")
        self.assertEqual(rc, 0)
        for text in ("--shard=INDEX/COUNT|auto", "--skip-existing", "--overwrite", "--report=FILE",
                     "--devices=all|LIST", "--dry-run", "--jobs=N", "on each GPU",
                     "$JOB_COMPLETION_INDEX/COUNT", "sbatch --array=0-N", "report merge"):
            self.assertIn(text, out)
        rc, out, _ = self.tool("transcode", "--help")
        self.assertIn("--overwrite", out)
        self.assertIn("--skip-existing", out)
        rc, out, _ = self.tool("--help")
        self.assertIn("report merge", out)


def main():
    global TOOL
    TOOL, junit = tool_and_junit(__doc__)
    return run_suites((ExistingOutputs, Shards, Reports, Devices), junit, "cli-scale")[0]


if __name__ == "__main__":
    sys.exit(main())
