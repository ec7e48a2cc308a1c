#!/usr/bin/python3
"""Kill/resume soak test for `rushhour classify`: multi-hour jobs you can trust.

Runs one classification uninterrupted (the reference), then the same classification in another
directory, killing it with SIGKILL at K moments and restarting it each time with --resume;
finally lets it finish and checks that its classification.h5 equals the reference's: every
root attribute except timings, peak RSS and the recorded option text, and every dataset except
/layers/seconds (counts, BDD node counts, dominance, samples). Exits 1 on any mismatch (or if a
kill leaves an unreadable classification.h5), 0 otherwise.

Kill moments are chosen on the reference's own timeline, so they spread over the whole job
however much a resumed process skips: a moment t that falls while the reference was computing
layer m is reproduced in the resumed process by waiting until it reports layer m-1 finished
(or, if that layer was already on disk, until it has loaded the finished layers) and then
sleeping for the time the reference spent between the two. A moment in the dominance pass is
anchored the same way on the last dominance index reported (or loaded from the checkpoint).
Every fourth kill
(by default) is a *write* kill: from that moment on, the directory is polled and the process
is killed as soon as a `.tmp` file (a layer file or classification.h5 being written) appears.

    scripts/kill_resume.py [--size 5] [--kills 20] [--seed 1] [--work DIR]
                           [--binary build/rushhour] [--report FILE.md] [-- EXTRA CLASSIFY ARGS]

Needs Debian's python3 with h5py (python3-h5py).
"""
import argparse
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time

import h5py
import numpy as np

LAYER_LINE = re.compile(r"^layer +(\d+):")
RESUME_LINE = re.compile(r"^resuming after (\d+) finished layers")
DOMINANCE_LINE = re.compile(r"^dominance index (\d+):")
DOMINANCE_RESUME_LINE = re.compile(r"^dominance resumed below index (\d+)")
IGNORED_ATTRIBUTES = {"seconds", "peak_rss_bytes", "configuration"}
IGNORED_DATASETS = {"layers/seconds"}


class Run:
    """One `rushhour classify` process whose stderr lines are timestamped as they arrive."""

    def __init__(self, command):
        self.start = time.monotonic()
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                        text=True, bufsize=1)
        self.layer_done = {}  # layer index -> seconds since start when its line arrived
        self.resumed = None  # (seconds since start, layers loaded) once the layers are loaded
        self.dominance_done = {}  # dominance index -> seconds since start when its line arrived
        self.dominance_resumed = None  # (seconds since start, lowest index done) from a checkpoint
        self.lines = []
        self.lock = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.process.stderr:
            now = time.monotonic() - self.start
            with self.lock:
                self.lines.append((now, line.rstrip("\n")))
                match = LAYER_LINE.match(line)
                if match:
                    self.layer_done[int(match.group(1))] = now
                match = RESUME_LINE.match(line)
                if match:
                    self.resumed = (now, int(match.group(1)))
                match = DOMINANCE_LINE.match(line)
                if match:
                    self.dominance_done[int(match.group(1))] = now
                match = DOMINANCE_RESUME_LINE.match(line)
                if match:
                    self.dominance_resumed = (now, int(match.group(1)))
                self.lock.notify_all()
        with self.lock:
            self.lock.notify_all()

    def _wait(self, reached):
        """Seconds since start returned by reached() (called under the lock, None while the
        event is still to come) once it is not None; None if the process ended first."""
        with self.lock:
            while True:
                when = reached()
                if when is not None:
                    return when
                if self.process.poll() is not None and not self.reader.is_alive():
                    return None
                self.lock.wait(0.002)

    def wait_for_layer(self, index):
        """When layer `index` was reported, or when the finished layers were loaded if it was
        among them."""
        def reached():
            if index in self.layer_done:
                return self.layer_done[index]
            if self.resumed is not None and index < self.resumed[1]:
                return self.resumed[0]
            return None
        return self._wait(reached)

    def wait_for_dominance(self, index):
        """When dominance index `index` was reported, or when a checkpoint at or below it was
        loaded."""
        def reached():
            if index in self.dominance_done:
                return self.dominance_done[index]
            if self.dominance_resumed is not None and index >= self.dominance_resumed[1]:
                return self.dominance_resumed[0]
            return None
        return self._wait(reached)

    def finish(self):
        status = self.process.wait()
        self.reader.join()
        return status


def reference_timeline(lines, pattern=LAYER_LINE):
    """Seconds when each layer (or dominance index) was reported, from a reference run's lines."""
    done = {}
    for when, line in lines:
        match = pattern.match(line)
        if match:
            done[int(match.group(1))] = when
    return done


def tmp_files(directory):
    """{relative path: mtime in ns} of the .tmp files under `directory`."""
    found = {}
    for root, _, files in os.walk(directory):
        for f in files:
            if f.endswith(".tmp"):
                path = os.path.join(root, f)
                try:
                    found[os.path.relpath(path, directory)] = os.stat(path).st_mtime_ns
                except FileNotFoundError:  # renamed onto its target meanwhile
                    pass
    return found


def fresh_tmp(directory, stale):
    """True when a .tmp file is being written now: new, or rewritten since `stale` was taken
    (a kill can leave a stale one behind, which the next write overwrites)."""
    return any(stale.get(path) != mtime for path, mtime in tmp_files(directory).items())


def layer_files(directory):
    layers = os.path.join(directory, "layers")
    if not os.path.isdir(layers):
        return 0
    count = 0
    while os.path.exists(os.path.join(layers, "layer-%04d.bdd" % count)):
        count += 1
    return count


def load(path):
    """Every attribute and dataset of a classification.h5 as plain Python/numpy values."""
    content = {}
    with h5py.File(path, "r") as f:
        for key, value in f.attrs.items():
            content["@" + key] = value.decode() if isinstance(value, bytes) else value
        def visit(name, obj):
            if isinstance(obj, h5py.Dataset):
                data = obj[()]
                if data.dtype.kind in "SO":
                    data = np.array([d.decode() if isinstance(d, bytes) else d for d in data.tolist()])
                content[name] = data
        f.visititems(visit)
    return content


def compare(reference, candidate):
    """List of differences (empty when equal), timings and peak RSS aside."""
    problems = []
    for key in sorted(set(reference) | set(candidate)):
        if key.lstrip("@") in IGNORED_ATTRIBUTES or key in IGNORED_DATASETS:
            continue
        if key not in reference or key not in candidate:
            problems.append("%s: only in %s" % (key, "reference" if key in reference else "resumed run"))
            continue
        a, b = reference[key], candidate[key]
        same = np.array_equal(np.asarray(a), np.asarray(b)) if not isinstance(a, str) else a == b
        if not same:
            problems.append("%s: reference %r, resumed %r" % (key, a, b))
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default="build/rushhour")
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--write-kill-every", type=int, default=4,
                        help="every K-th kill waits for a .tmp file (0 = none)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--work", default=None, help="work directory (default: a fresh one in /tmp)")
    parser.add_argument("--report", default=None, help="also write a markdown report here")
    parser.add_argument("extra", nargs="*", help="further classify options (after --)")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    work = args.work or "/tmp/rushhour_kill_resume_%d" % os.getpid()
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    reference_dir = os.path.join(work, "reference")
    killed_dir = os.path.join(work, "killed")
    base = [args.binary, "classify", "--size", str(args.size)] + args.extra
    report = []

    def say(text=""):
        print(text, flush=True)
        report.append(text)

    say("# kill/resume run")
    say()
    say("Command: `%s`" % " ".join(shlex.quote(a) for a in sys.argv))
    say()
    ref = Run(base + ["--out", reference_dir])
    if ref.finish() != 0:
        sys.exit("reference run failed:\n" + "\n".join(line for _, line in ref.lines))
    total = time.monotonic() - ref.start
    ref_done = reference_timeline(ref.lines)
    ref_dominance = reference_timeline(ref.lines, DOMINANCE_LINE)
    last_layer = max(ref_done)
    say("Reference: `%s` took %.2f s: layers 0..%d, last layer reported at %.2f s."
        % (" ".join(base + ["--out", "DIR"]), total, last_layer, ref_done[last_layer]))

    # K kill moments on the reference timeline, one uniformly in each of K equal slices.
    moments = [(k + rng.random()) * total / args.kills for k in range(args.kills)]
    say()
    say("| kill | moment (ref. s) | mode | target | killed after (s) | layers on disk before → after | .tmp left | classification.h5 after |")
    say("|---|---|---|---|---|---|---|---|")
    failures = []
    finished_early = 0
    for k, moment in enumerate(moments, 1):
        # The layer the reference was computing at `moment`: m = first layer reported later.
        later = [i for i in sorted(ref_done) if ref_done[i] > moment]
        before = layer_files(killed_dir)
        write_kill = args.write_kill_every > 0 and k % args.write_kill_every == 0
        stale = tmp_files(killed_dir)
        run = Run(base + ["--out", killed_dir, "--resume"])
        if later and later[0] > 0:
            m = later[0]
            anchor = ref_done[m - 1]
            target = "layer %d + %.2f s" % (m - 1, moment - anchor)
            reached = run.wait_for_layer(m - 1)
        elif later:  # during setup, before layer 0
            anchor, reached, target = 0.0, 0.0, "start + %.2f s" % moment
        else:
            # After the last layer: the dominance pass (from the top index down; each index is
            # checkpointed), then samples and the file. Anchor on the last dominance index the
            # reference had reported by `moment`, or on the last layer.
            reported = [d for d in ref_dominance if ref_dominance[d] <= moment]
            if reported:
                d = min(reported)
                anchor = ref_dominance[d]
                target = "dominance %d + %.2f s" % (d, moment - anchor)
                reached = run.wait_for_dominance(d)
            else:
                anchor = ref_done[last_layer]
                target = "layer %d + %.2f s" % (last_layer, moment - anchor)
                reached = run.wait_for_layer(last_layer)
        if reached is not None:
            deadline = run.start + reached + (moment - anchor)
            while time.monotonic() < deadline and run.process.poll() is None:
                time.sleep(min(0.002, max(0.0, deadline - time.monotonic())))
            if write_kill:
                while run.process.poll() is None and not fresh_tmp(killed_dir, stale):
                    time.sleep(0.0005)
        killed_at = time.monotonic() - run.start
        if run.process.poll() is None:
            run.process.send_signal(signal.SIGKILL)
            outcome = "%.3f" % killed_at
        else:
            outcome = "finished (status %d) before the kill" % run.process.returncode
            finished_early += 1
        status = run.finish()
        if status not in (-signal.SIGKILL, 0):
            failures.append("kill %d: resumed run exited with %d:\n%s"
                            % (k, status, "\n".join(line for _, line in run.lines[-5:])))
        leftovers = tmp_files(killed_dir)
        h5 = os.path.join(killed_dir, "classification.h5")
        if os.path.exists(h5):
            try:
                complete = int(load(h5)["@complete"])
                h5_state = "readable, complete=%d" % complete
            except Exception as error:  # a torn result file is exactly what must not happen
                h5_state = "UNREADABLE"
                failures.append("kill %d: classification.h5 unreadable: %s" % (k, error))
        else:
            h5_state = "absent"
        say("| %d | %.2f | %s | %s | %s | %d → %d | %s | %s |"
            % (k, moment, "write" if write_kill else "time", target, outcome, before,
               layer_files(killed_dir), ", ".join(sorted(leftovers)) or "-", h5_state))

    final = Run(base + ["--out", killed_dir, "--resume"])
    status = final.finish()
    say()
    if status != 0:
        failures.append("final resume exited with %d:\n%s"
                        % (status, "\n".join(line for _, line in final.lines[-5:])))
    else:
        say("Final `--resume` finished in %.2f s (status 0)." % (time.monotonic() - final.start))
        reference = load(os.path.join(reference_dir, "classification.h5"))
        resumed = load(os.path.join(killed_dir, "classification.h5"))
        problems = compare(reference, resumed)
        compared = [k for k in sorted(reference) if k.lstrip("@") not in IGNORED_ATTRIBUTES
                    and k not in IGNORED_DATASETS]
        if int(resumed.get("@complete", 0)) != 1:
            problems.append("resumed result has complete=%r" % resumed.get("@complete"))
        if problems:
            failures += ["mismatch: " + p for p in problems]
        else:
            say("classification.h5 equals the reference's in %d attributes and datasets (%s); "
                "ignored: %s." % (len(compared), ", ".join(k for k in compared if not k.startswith("@")),
                                  ", ".join(sorted(IGNORED_ATTRIBUTES | IGNORED_DATASETS))))
    say()
    say("%d kills, %d of them after the process had already finished." % (args.kills, finished_early))
    if failures:
        say()
        say("**FAILED**:")
        for failure in failures:
            say("- " + failure.replace("\n", "\n  "))
    else:
        say("**OK**: every kill left a resumable directory and the final result matches.")
    if args.report:
        with open(args.report, "w") as f:
            f.write("\n".join(report) + "\n")
    if not args.work and not failures:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
