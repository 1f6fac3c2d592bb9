#!/usr/bin/python3
"""pipelines/slurm-array.sh on a real Slurm: Debian's slurm-wlm (munge,
slurmctld, slurmd) as a single-node cluster on this machine, set up in a
temporary folder, started and stopped by this test (as root).

An array of 3 tasks over 7 small files, one of them long: task 1 is
cancelled while it transcodes the long one; the merge job after the array
counts it. Then the same two commands are submitted again: the tasks skip
every finished output and do the long file only. Checked: every output
exactly once and complete, nothing redone, the reports and their merge.

Where Slurm cannot be installed or started (not root, no package network),
every case is skipped, saying why. Every wait is bounded; the daemons are
stopped whatever happens (and run in the test's own process group, so
meson's timeout ends them too).

Usage: test_slurm.py CUDAFILTERS [--junit REPORT.xml]
Exit status: 0 passed, 1 a failure, 77 skipped.
"""
import ctypes
import errno
import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from test_cli import VTEST, ffmpeg, frame_count, run_suites, tool_and_junit  # noqa: E402

ARRAY = os.path.join(HERE, "..", "pipelines", "slurm-array.sh")
MERGE = os.path.join(HERE, "..", "pipelines", "slurm-merge.sh")
SBIN = "/usr/sbin:/usr/bin:/sbin:/bin"
NAMES = ["a.mp4", "b.mp4", "c.mp4", "d.mp4", "e.mp4", "f.mp4", "g.mp4"]
LONG = "e.mp4"          # task 1's second file (b.mp4, e.mp4): the one it is killed in
LONG_SECONDS = 12       # of vtest: 120 frames, several seconds of CPU blur
FILTERS = "gray,blur=sigma=2"
TOOL = None


def sh(args, timeout=60, env=None, check=False):
    """Runs a command with a bound; returns (status, stdout, stderr)."""
    p = subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=env)
    if check and p.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr.strip()))
    return p.returncode, p.stdout, p.stderr


def wait_for(what, predicate, timeout, step=0.2):
    """Polls predicate() until true; fails naming `what` after `timeout` s."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("gave up after %d s waiting for %s" % (timeout, what))
        time.sleep(step)


# ---- installing ---------------------------------------------------------------

def have_slurm():
    path = SBIN + ":" + os.environ.get("PATH", "")
    return all(shutil.which(p, path=path) for p in ("munged", "slurmctld", "slurmd", "sbatch",
                                                   "squeue", "scancel", "scontrol"))


def install_slurm():
    """apt-get install slurm-wlm munge, with their services kept from starting
    (policy-rc.d), so nothing runs that this test did not start. Returns None,
    or why it cannot."""
    if have_slurm():
        return None
    if os.geteuid() != 0:
        return "Slurm is not installed and installing it needs root (apt-get install slurm-wlm munge)"
    if not shutil.which("apt-get"):
        return "Slurm is not installed and there is no apt-get"
    policy = "/usr/sbin/policy-rc.d"
    made_policy = not os.path.exists(policy)
    if made_policy:
        with open(policy, "w") as f:
            f.write("#!/bin/sh\n# test_slurm.py: no service starts while it installs Slurm\nexit 101\n")
        os.chmod(policy, 0o755)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    cmd = ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "slurm-wlm", "munge"]
    try:
        rc, _, err = sh(cmd, timeout=600, env=env)
        if rc != 0:  # the package lists may be missing or old
            sh(["apt-get", "update", "-qq"], timeout=300, env=env)
            rc, _, err = sh(cmd, timeout=600, env=env)
    except subprocess.TimeoutExpired:
        return "installing slurm-wlm took more than 10 minutes"
    finally:
        if made_policy:
            os.unlink(policy)
    if rc != 0:
        return "cannot install slurm-wlm: " + (err.strip().splitlines() or ["?"])[-1]
    return None if have_slurm() else "slurm-wlm installed but its programs are missing"


# ---- the cluster ------------------------------------------------------------

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """munged, slurmctld and slurmd in `root` (a fresh folder), one node
    "cftest1" on 127.0.0.1 with 4 CPUs and 3 GPUs (gres/gpu on stand-in
    device files: Slurm gives each task one and sets CUDA_VISIBLE_DEVICES;
    cudafilters finds no CUDA driver and runs on the CPU)."""

    def __init__(self, root):
        self.root = root
        self.procs = []
        self.env = dict(os.environ, SLURM_CONF=os.path.join(root, "slurm.conf"),
                        PATH=SBIN + ":" + os.environ.get("PATH", ""))
        for k in list(self.env):
            if k.startswith("SLURM_") and k != "SLURM_CONF":
                del self.env[k]

    def path(self, *parts):
        return os.path.join(self.root, *parts)

    def configure(self):
        for d in ("munge", "state", "spool", "log", "dev"):
            os.makedirs(self.path(d))
        os.chmod(self.path("munge"), 0o755)  # munged wants its socket's folder reachable
        with open(self.path("munge", "munge.key"), "wb") as f:
            f.write(os.urandom(128))
        os.chmod(self.path("munge", "munge.key"), 0o600)
        for i in range(3):
            os.mknod(self.path("dev", "gpu%d" % i), 0o600 | stat.S_IFCHR, os.makedev(1, 3))
        host = socket.gethostname().split(".")[0]
        conf = {
            "ClusterName": "cftest",
            "SlurmctldHost": "%s(127.0.0.1)" % host,
            "SlurmctldPort": free_port(), "SlurmdPort": free_port(),
            "SlurmUser": "root", "SlurmdUser": "root",
            "AuthType": "auth/munge", "CredType": "cred/munge",
            "AuthInfo": "socket=" + self.path("munge", "socket"),
            "StateSaveLocation": self.path("state"), "SlurmdSpoolDir": self.path("spool"),
            "SlurmctldPidFile": self.path("slurmctld.pid"),
            "SlurmdPidFile": self.path("slurmd.pid"),
            "SlurmctldLogFile": self.path("log", "slurmctld.log"),
            "SlurmdLogFile": self.path("log", "slurmd.log"),
            "ProctrackType": "proctrack/linuxproc", "TaskPlugin": "task/none",
            "MpiDefault": "none", "SwitchType": "switch/none",
            "SchedulerType": "sched/backfill", "SelectType": "select/cons_tres",
            "SelectTypeParameters": "CR_Core", "ReturnToService": 2,
            # A cancelled task gets SIGTERM, then SIGKILL after 5 s.
            "KillWait": 5, "SlurmdParameters": "config_overrides",
            "JobAcctGatherType": "jobacct_gather/none",
            "AccountingStorageType": "accounting_storage/none", "JobCompType": "jobcomp/none",
            "MailProg": "/bin/true", "GresTypes": "gpu",
        }
        with open(self.path("slurm.conf"), "w") as f:
            for k, v in conf.items():
                f.write("%s=%s\n" % (k, v))
            f.write("NodeName=cftest1 NodeHostname=%s NodeAddr=127.0.0.1 CPUs=4 Gres=gpu:3 "
                    "State=UNKNOWN\n" % host)
            f.write("PartitionName=test Nodes=ALL Default=YES MaxTime=30 State=UP\n")
        with open(self.path("gres.conf"), "w") as f:
            f.write("NodeName=cftest1 Name=gpu File=%s\n" % self.path("dev", "gpu[0-2]"))

    def spawn(self, name, args):
        log = open(self.path("log", name + ".out"), "w")
        # Same process group as the test: a timeout that ends the test ends them.
        p = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, env=self.env)
        log.close()
        self.procs.append((name, p))
        return p

    def start(self):
        # slurmstepd daemonizes: as the subreaper this process gets the
        # orphans, so it can reap them (this machine's init does not) and
        # end any that outlive their job.
        PR_SET_CHILD_SUBREAPER = 36
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
        self.configure()
        m = self.path("munge")
        self.spawn("munged", ["munged", "--foreground", "--force", "--socket", m + "/socket",
                              "--key-file", m + "/munge.key", "--pid-file", m + "/munged.pid",
                              "--seed-file", m + "/munged.seed", "--log-file", m + "/munged.log"])
        wait_for("munged's socket", lambda: os.path.exists(m + "/socket"), 30)
        conf = self.path("slurm.conf")
        self.spawn("slurmctld", ["slurmctld", "-D", "-i", "-f", conf])
        self.spawn("slurmd", ["slurmd", "-D", "-N", "cftest1", "-f", conf])

        def idle():
            for name, p in self.procs:
                if p.poll() is not None:
                    raise RuntimeError("%s exited (%d): %s" % (name, p.returncode,
                                                               self.log_tail(name + ".out")))
            rc, out, _ = sh(["sinfo", "-h", "-o", "%T"], env=self.env, timeout=20)
            return rc == 0 and out.strip() == "idle"
        wait_for("the node to be idle", idle, 60, step=0.5)

    def log_tail(self, name, lines=15):
        try:
            with open(self.path("log", name), errors="replace") as f:
                return "".join(f.readlines()[-lines:])
        except OSError:
            return ""

    def logs(self):
        return "\n".join("--- %s\n%s" % (n, self.log_tail(n))
                         for n in ("slurmctld.log", "slurmd.log", "slurmctld.out", "slurmd.out"))

    def stop(self, job_ids):
        """Cancels what is left of our jobs, waits for them to leave, then
        ends the daemons it started: SIGTERM, then SIGKILL after 15 s."""
        try:
            if job_ids and all(p.poll() is None for _, p in self.procs):
                sh(["scancel", *job_ids], env=self.env, timeout=20)
                wait_for("the cancelled jobs to end", lambda: not self.queue(job_ids), 30)
        except (AssertionError, RuntimeError, subprocess.TimeoutExpired, OSError):
            pass  # the daemons go below in any case
        for _, p in reversed(self.procs):
            if p.poll() is None:
                p.terminate()
        for _, p in reversed(self.procs):
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(timeout=15)
        self.reap_orphans()

    @staticmethod
    def children():
        """PIDs of this process's children (the orphaned slurmstepd among them)."""
        me, pids = os.getpid(), []
        for entry in os.listdir("/proc"):
            try:
                with open("/proc/%s/stat" % entry) as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                if entry.isdigit() and int(fields[1]) == me:
                    pids.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
        return pids

    def reap_orphans(self, timeout=10):
        """Waits for the adopted orphans to exit (SIGTERM, then SIGKILL, to
        those that outlive `timeout`) and reaps them."""
        deadline, signalled = time.monotonic() + timeout, 0
        while True:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid:
                continue
            left = self.children()
            if not left:
                return
            if time.monotonic() > deadline and signalled < 2:
                for pid in left:
                    try:
                        os.kill(pid, signal.SIGTERM if not signalled else signal.SIGKILL)
                    except OSError as e:
                        if e.errno != errno.ESRCH:
                            raise
                signalled += 1
                deadline = time.monotonic() + 5
            elif time.monotonic() > deadline:
                return
            time.sleep(0.1)

    def queue(self, job_ids):
        """Lines of squeue for those jobs (empty when they have all ended)."""
        rc, out, err = sh(["squeue", "-h", "-j", ",".join(job_ids), "-o", "%i %T"],
                          env=self.env, timeout=20)
        if rc != 0 and "Invalid job id" in err:
            return []
        return out.split("\n") if out.strip() else []

    def sbatch(self, *args):
        _, out, _ = sh(["sbatch", "--parsable", *args], env=self.env, timeout=30, check=True)
        return out.strip().split(";")[0]

    def states(self, job_id):
        """{task or job id: state} from scontrol (ended jobs stay there 5 min)."""
        _, out, _ = sh(["scontrol", "-o", "show", "job", job_id], env=self.env, timeout=20)
        states = {}
        for line in out.splitlines():
            fields = dict(f.split("=", 1) for f in line.split() if "=" in f)
            key = fields.get("ArrayTaskId", fields.get("JobId"))
            states[key] = (fields.get("JobState"), fields.get("ExitCode"))
        return states


# ---- the test ---------------------------------------------------------------

class SlurmArray(unittest.TestCase):
    cluster = None
    jobs = []

    @classmethod
    def setUpClass(cls):
        if not shutil.which("ffmpeg") or not os.path.exists(VTEST):
            raise unittest.SkipTest("needs ffmpeg and opencv-doc's vtest.avi")
        if os.geteuid() != 0:
            raise unittest.SkipTest("starting Slurm's daemons (slurmd) needs root: run as root")
        why = install_slurm()
        if why:
            raise unittest.SkipTest(why)
        cls.work = tempfile.mkdtemp(prefix="cudafilters-slurm-")
        os.chmod(cls.work, 0o755)
        cls.inputs = os.path.join(cls.work, "in")
        cls.out = os.path.join(cls.work, "out")
        cls.reports = os.path.join(cls.out, "reports")
        cls.logs = os.path.join(cls.work, "logs")
        os.makedirs(cls.inputs)
        os.makedirs(cls.logs)
        for i, name in enumerate(NAMES):
            if name == LONG:
                ffmpeg("-i", VTEST, "-t", str(LONG_SECONDS), "-c:v", "libx264", "-preset",
                       "veryfast", os.path.join(cls.inputs, name))
            else:
                ffmpeg("-ss", str(i), "-i", VTEST, "-t", "1", "-vf", "scale=160:120", "-c:v",
                       "libx264", "-preset", "veryfast", os.path.join(cls.inputs, name))
        cls.frames = {n: frame_count(os.path.join(cls.inputs, n)) for n in NAMES}
        cls.list = os.path.join(cls.work, "list.txt")
        with open(cls.list, "w") as f:
            f.writelines(os.path.join(cls.inputs, n) + "\n" for n in NAMES)
        cls.cluster = Cluster(os.path.join(cls.work, "slurm"))
        try:
            cls.cluster.start()
        except (AssertionError, RuntimeError, OSError, subprocess.TimeoutExpired) as e:
            logs = cls.cluster.logs()
            cls.cluster.stop([])
            raise unittest.SkipTest("Slurm does not start here: %s\n%s" % (e, logs))
        cls.cluster.env["CUDAFILTERS"] = TOOL

    @classmethod
    def tearDownClass(cls):
        if cls.cluster:
            cls.cluster.stop(cls.jobs)
        if getattr(cls, "work", None):
            shutil.rmtree(cls.work, ignore_errors=True)

    def submit(self, round_name):
        """The two commands of slurm-array.sh's header, with the test's
        array size, one CPU a task, and logs into the test's folder."""
        jid = self.cluster.sbatch("--array=0-2", "--cpus-per-task=1", "--time=10",
                                  "--chdir", self.work,
                                  "--output", os.path.join(self.logs, round_name + "-%A_%a.log"),
                                  ARRAY, self.list, self.out, FILTERS)
        mid = self.cluster.sbatch("--dependency=afterany:" + jid, "--chdir", self.work,
                                  "--output", os.path.join(self.logs, round_name + "-merge.log"),
                                  MERGE, self.reports)
        type(self).jobs += [jid, mid]
        return jid, mid

    def wait_ended(self, jid, mid):
        wait_for("the array and its merge job to end", lambda: not self.cluster.queue([jid, mid]),
                 240, step=0.5)

    def report_lines(self, task):
        path = os.path.join(self.reports, "shard-%d.jsonl" % task)
        if not os.path.exists(path):
            return []
        with open(path) as f:
            return [json.loads(l) for l in f if l.strip()]

    def outputs(self):
        return sorted(f for f in os.listdir(self.out) if f != "reports")

    def check_complete(self, names):
        for n in names:
            self.assertEqual(frame_count(os.path.join(self.out, n)), self.frames[n], n)

    def summary(self):
        with open(os.path.join(self.reports, "summary.json")) as f:
            return json.load(f)

    def dump(self):
        text = []
        for name in sorted(os.listdir(self.logs)):
            with open(os.path.join(self.logs, name), errors="replace") as f:
                text.append("--- %s\n%s" % (name, f.read()[-3000:]))
        return "\n".join(text) + "\n" + self.cluster.logs()

    def test_1_array_with_a_task_cancelled_in_the_middle(self):
        t0 = time.monotonic()
        jid, mid = self.submit("first")
        long_part = os.path.join(self.out, LONG + ".part-")

        # Task 1 has done b.mp4 and is transcoding e.mp4: cancel it there.
        def in_the_middle():
            lines = self.report_lines(1)
            done = [l["input"] for l in lines if l.get("ok")]
            parts = os.path.isdir(self.out) and any(
                os.path.join(self.out, f).startswith(long_part) for f in os.listdir(self.out))
            return done == [os.path.join(self.inputs, "b.mp4")] and parts
        try:
            wait_for("task 1 to be in the middle of %s" % LONG, in_the_middle, 120, step=0.1)
        except AssertionError:
            self.fail("task 1 was never seen transcoding %s:\n%s" % (LONG, self.dump()))
        sh(["scancel", "%s_1" % jid], env=self.cluster.env, timeout=20, check=True)
        self.wait_ended(jid, mid)
        print("first round (3 tasks, one cancelled, and the merge): %.1f s"
              % (time.monotonic() - t0), file=sys.stderr)

        states = self.cluster.states(jid)
        self.assertEqual({k: v[0] for k, v in states.items()},
                         {"0": "COMPLETED", "1": "CANCELLED", "2": "COMPLETED"}, self.dump())
        done = [n for n in NAMES if n != LONG]
        self.assertEqual(self.outputs(), done, self.dump())  # no e.mp4, no e.mp4.part-*
        self.check_complete(done)
        # The shares: sorted names, the k-th to task k mod 3.
        for task, names in ((0, ["a.mp4", "d.mp4", "g.mp4"]), (1, ["b.mp4", LONG]),
                            (2, ["c.mp4", "f.mp4"])):
            lines = self.report_lines(task)
            self.assertEqual(lines[0]["run"], "start")
            self.assertEqual(lines[0]["shard"], "%d/3" % task)
            self.assertEqual(lines[0]["slurm_job"], "%s_%d" % (jid, task))
            self.assertEqual(lines[0]["inputs"], [os.path.join(self.inputs, n) for n in names])
        # Task 1 stopped cleanly on SIGTERM: e.mp4 interrupted, its last line says so.
        lines = self.report_lines(1)
        files = {os.path.basename(l["input"]): l for l in lines if "input" in l}
        self.assertEqual(files["b.mp4"]["frames_out"], self.frames["b.mp4"])
        self.assertFalse(files[LONG]["ok"])
        self.assertEqual(files[LONG]["error"], "interrupted")
        self.assertEqual((lines[-1]["run"], lines[-1]["interrupted"]), ("end", True))
        # The merge job ran after the cancelled array, and says what is missing.
        s = self.summary()
        self.assertEqual({k: s[k] for k in ("files", "done", "transcoded", "failed", "runs",
                                            "runs_interrupted", "not_reported", "frames")},
                         {"files": 7, "done": 6, "transcoded": 6, "failed": 1, "runs": 3,
                          "runs_interrupted": 1, "not_reported": 0,
                          "frames": sum(self.frames[n] for n in done)})
        self.assertEqual(s["failures"], [{"input": os.path.join(self.inputs, LONG),
                                          "error": "interrupted"}])
        self.assertEqual(self.cluster.states(mid)[mid][1], "1:0")  # merge: some file failed
        type(self).first_outputs = {n: os.stat(os.path.join(self.out, n)) for n in done}

    def test_2_resubmitted_array_does_only_what_is_missing(self):
        if not hasattr(self, "first_outputs"):
            self.skipTest("the first round did not get through")
        t0 = time.monotonic()
        jid, mid = self.submit("second")
        self.wait_ended(jid, mid)
        print("second round (resubmitted array and merge): %.1f s" % (time.monotonic() - t0),
              file=sys.stderr)
        states = self.cluster.states(jid)
        self.assertEqual({k: v for k, v in states.items()},
                         {"0": ("COMPLETED", "0:0"), "1": ("COMPLETED", "0:0"),
                          "2": ("COMPLETED", "0:0")}, self.dump())
        # Every output exactly once, complete.
        self.assertEqual(self.outputs(), NAMES, self.dump())
        self.check_complete(NAMES)
        # Nothing redone: the first round's outputs are the same files, and
        # the second round's lines skip them.
        for n, st in self.first_outputs.items():
            now = os.stat(os.path.join(self.out, n))
            self.assertEqual((now.st_ino, now.st_mtime_ns), (st.st_ino, st.st_mtime_ns), n)
        second = {}
        for task in range(3):
            lines = self.report_lines(task)
            start = max(i for i, l in enumerate(lines) if l.get("run") == "start")
            for l in lines[start + 1:]:
                if "input" in l:
                    second[os.path.basename(l["input"])] = l
            self.assertEqual((lines[-1]["run"], lines[-1]["interrupted"]), ("end", False))
        self.assertEqual(sorted(second), NAMES)
        for n in NAMES:
            self.assertTrue(second[n]["ok"], n)
            self.assertEqual(second[n]["skipped"], n != LONG, n)
        self.assertEqual(second[LONG]["frames_out"], self.frames[LONG])
        # The merged report: all 7 done, each once, with their frames.
        s = self.summary()
        self.assertEqual({k: s[k] for k in ("reports", "files", "done", "transcoded", "skipped",
                                            "failed", "not_reported", "runs",
                                            "runs_interrupted", "runs_unfinished", "frames",
                                            "failures", "unreadable_lines")},
                         {"reports": 3, "files": 7, "done": 7, "transcoded": 7, "skipped": 0,
                          "failed": 0, "not_reported": 0, "runs": 6, "runs_interrupted": 1,
                          "runs_unfinished": 0, "frames": sum(self.frames.values()),
                          "failures": [], "unreadable_lines": 0})
        self.assertGreater(s["fps"], 0)
        self.assertEqual(self.cluster.states(mid)[mid], ("COMPLETED", "0:0"))
        with open(os.path.join(self.reports, "summary.txt")) as f:
            self.assertIn("7 files: 7 done (7 transcoded, 0 skipped: their outputs existed), "
                          "0 failed, 0 not reported", f.read())

    def test_3_daemons_stop_and_leave_nothing_running(self):
        self.cluster.stop(self.jobs)
        for name, p in self.cluster.procs:
            self.assertIsNotNone(p.poll(), name + " still runs")
        self.assertEqual(self.cluster.children(), [], "processes of the jobs outlived them")
        type(self).jobs = []


class OutsideSlurm(unittest.TestCase):
    def test_array_script_outside_an_array_says_what_is_wrong(self):
        env = {k: v for k, v in os.environ.items() if not k.startswith("SLURM_")}
        env["CUDAFILTERS"] = TOOL
        d = tempfile.mkdtemp(prefix="cudafilters-slurm-")
        try:
            lst = os.path.join(d, "list.txt")
            with open(lst, "w") as f:
                f.write(VTEST + "\n")
            rc, _, err = sh(["sh", ARRAY, lst, os.path.join(d, "out")], env=env)
            self.assertEqual(rc, 2, err)
            self.assertIn("--shard auto: SLURM_ARRAY_TASK_ID is not set", err)
            self.assertFalse(os.path.exists(os.path.join(d, "out")))
        finally:
            shutil.rmtree(d, ignore_errors=True)


def main():
    global TOOL
    TOOL, junit = tool_and_junit(__doc__)
    # A bound on the whole test below meson's timeout: the alarm raises in
    # the test, whose tearDownClass then stops the daemons.
    def on_alarm(signum, frame):
        raise TimeoutError("test_slurm.py ran past its 15-minute bound")
    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(900)
    t0 = time.monotonic()
    status, result = run_suites((OutsideSlurm, SlurmArray), junit, "slurm")
    print("test_slurm.py: %.1f s" % (time.monotonic() - t0), file=sys.stderr)
    for _, reason in result.skipped:
        print("SKIPPED: " + reason, file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
