#!/usr/bin/env python3
"""Mutation testing of the files whose lines are figures (make mutate; docs/testing.md).

usage: mutate.py [-n MAX] [-s SEED] [-t SECONDS] [-l] [FILE...]

Copies the tree into build/mutate/tree (the real sources are never written, so an interrupted
run leaves nothing mutated), then applies one mutation at a time to the copy: a comparison or
arithmetic operator swapped, a decimal constant off by one, a statement dropped, the two
arguments of a call swapped, && for || and back. Each is built and the tests that cover its file
(MAP below, fast ones first) run until one fails: the mutation is killed; when all pass it
survived and is printed with its file and line. A mutation that does not compile is not counted.
Survivors listed in tools/mutate-equivalent.txt, with why they cannot change a result, are
counted apart. -n caps the mutations run (a sample spread over the files, -s picks which; 0:
all), -t bounds one test command (a mutation that hangs counts as killed; a command may take
five times its unmutated time, at least 20 s), -l only lists them.
Exits 1 when a mutation survived that the equivalent list does not explain.
"""
import argparse
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, "build", "mutate")
TREE = os.path.join(WORK, "tree")
EQUIV = os.path.join(ROOT, "tools", "mutate-equivalent.txt")

# run.bats' tests of what a run counts (its timing tests are left out: they fail on a loaded
# machine, mutated or not).
RUN_COUNTS = ("a new test file is created|counts add up|several targets are measured|"
	"fsync every N|seed, two runs|CSV has a header|--latency-target")

# File -> the tests that cover it, fastest first: "unit:NAME" is build/tests/NAME (cmocka);
# "san:NAME" the same test under ASan+UBSan (build/tests-san/NAME: a leak or an overrun no
# figure shows; its library is built the first time one is needed); "bats:FILE" or
# "bats:FILE:REGEX" runs tests/cli/FILE (only the tests REGEX names).
MAP = {
	"src/core/stats.c": ["unit:test_stats", "unit:test_result", "unit:test_result_json",
		"unit:test_runner", "san:test_stats"],
	"src/core/worker.c": ["unit:test_runner", "unit:test_worker_async", "unit:test_worker_trim",
		"unit:test_verify", "bats:run.bats:" + RUN_COUNTS, "san:test_runner",
		"bats:trim.bats:sequential trims of a whole file"],
	"src/core/worker_lat.c": ["unit:test_runner", "unit:test_latency_target",
		"bats:run.bats:" + RUN_COUNTS],
	"src/core/throttle.c": ["unit:test_throttle", "unit:test_runner", "bats:caps.bats"],
	"src/core/result.c": ["unit:test_result", "unit:test_stats", "unit:test_result_json",
		"unit:test_report"],
	"src/result/result_set.c": ["unit:test_result", "unit:test_report", "unit:test_history",
		"unit:test_fio_json", "bats:jobs.bats", "san:test_result"],
	"src/core/verify.c": ["unit:test_verify", "bats:verify.bats", "san:test_verify"],
	"src/model/predict.c": ["unit:test_predict", "unit:test_posts_2015", "unit:test_plan",
		"unit:test_emulate", "unit:test_cost", "unit:test_examples_aws",
		"unit:test_examples_azure", "unit:test_examples_gcp", "bats:model.bats",
		"san:test_predict"],
	"src/model/disk.c": ["unit:test_disk", "unit:test_predict", "unit:test_posts_2015",
		"unit:test_plan",
		"unit:test_emulate", "unit:test_catalog", "unit:test_examples_aws",
		"unit:test_examples_azure", "unit:test_examples_gcp", "bats:model.bats"],
	"src/compat/fio_job.c": ["unit:test_fio", "unit:test_compat", "bats:fio.bats"],
	"src/compat/fio_num.c": ["unit:test_fio_num", "unit:test_fio", "unit:test_compat",
		"bats:fio.bats"],
	"src/compat/fio_words.c": ["unit:test_fio_words", "unit:test_fio", "unit:test_compat",
		"bats:fio.bats", "bats:fio_logs.bats", "san:test_fio_words"],
	"src/compat/diskspd_job.c": ["unit:test_compat", "bats:diskspd.bats"],
	"src/compat/diskspd.c": ["unit:test_compat", "bats:diskspd.bats"],
}
DEFAULT_FILES = ["src/core/stats.c", "src/core/worker.c", "src/core/throttle.c",
	"src/model/predict.c", "src/model/disk.c", "src/compat/fio_job.c", "src/compat/fio_num.c",
	"src/compat/fio_words.c", "src/compat/diskspd_job.c", "src/core/verify.c",
	"src/result/result_set.c"]


def code_mask(text):
	"""For each character of a C file: True where it is code (not a comment, string, char
	literal or preprocessor line)."""
	mask = [False] * len(text)
	i, n = 0, len(text)
	line_start = True
	while i < n:
		c = text[i]
		if line_start and c in " \t":
			i += 1
			continue
		if line_start and c == "#":
			# a preprocessor line, with its continuations
			while i < n and not (text[i] == "\n" and text[i - 1] != "\\"):
				i += 1
			continue
		line_start = False
		if text.startswith("/*", i):
			j = text.find("*/", i + 2)
			i = n if j < 0 else j + 2
			continue
		if text.startswith("//", i):
			j = text.find("\n", i)
			i = n if j < 0 else j
			continue
		if c in "\"'":
			j = i + 1
			while j < n and text[j] != c:
				j += 2 if text[j] == "\\" else 1
			i = j + 1
			continue
		if c == "\n":
			line_start = True
		else:
			mask[i] = True
		i += 1
	return mask


# (regex on code, replacement, kind): the operators are matched with a space either side, the
# project's style for binary operators, so a unary minus, a pointer's * or a -> never is.
SWAPS = [
	(r" < ", " <= ", "comparison"), (r" <= ", " < ", "comparison"),
	(r" > ", " >= ", "comparison"), (r" >= ", " > ", "comparison"),
	(r" == ", " != ", "comparison"), (r" != ", " == ", "comparison"),
	(r" \+ ", " - ", "arithmetic"), (r" - ", " + ", "arithmetic"),
	(r" \* ", " / ", "arithmetic"), (r" / ", " * ", "arithmetic"),
	(r" \+= ", " -= ", "arithmetic"), (r" -= ", " += ", "arithmetic"),
	(r" && ", " || ", "logical"), (r" \|\| ", " && ", "logical"),
]
# not the exponent of a real (1e-9: a tolerance, not a figure)
NUM = re.compile(r"(?<![\w.])(?<![eE][-+])(\d+)(?![\w.])")
STMT = re.compile(r"^\s+(?:[a-z_][\w.\->\[\]]*\s*(?:[-+*/|&]?=|\+\+|--)[^=].*|\w+\(.*\));\s*$")
DECL = re.compile(r"^\s+(?:const\s+|struct\s+|unsigned\s+|static\s+)*\w+\s+\**\w+\s*=")
ARRDECL = re.compile(r"^\s*(?:static\s+|const\s+|struct\s+|unsigned\s+)*\w+\s+"
	r"\**\w+\[\d+\](?:\s*,\s*\**\w+(?:\[\d+\])?)*;\s*$")
CALL2 = re.compile(r"\b(\w+)\(([\w.\->&*]+), ([\w.\->&*]+)\)")


def mutations(path, text):
	"""Every mutation of one file: (line number, start, end, replacement, kind)."""
	mask = code_mask(text)
	out = []
	pos = 0
	in_assert = False
	for ln, line in enumerate(text.split("\n"), 1):
		start = pos
		pos += len(line) + 1
		code = "".join(ch if mask[start + k] else " " for k, ch in enumerate(line))
		# a _Static_assert is checked by the compiler, never run
		if "_Static_assert" in code:
			in_assert = True
		if in_assert:
			in_assert = not code.rstrip().endswith(";")
			continue
		if not code.strip() or code.strip().startswith(("static const", "const ")):
			continue
		for rx, rep, kind in SWAPS:
			for m in re.finditer(rx, code):
				out.append((ln, start + m.start(), start + m.end(), rep, kind))
		for m in NUM.finditer(code):
			v = int(m.group(1))
			# an array's size is not a figure; bit widths and the like are
			if re.search(r"\[\s*$", code[:m.start()]) and DECL.match(code):
				continue
			# an array's size in a declaration ("struct gcra b[4];", "char a[32],
			# b[24];") holds no figure
			if ARRDECL.match(code) and code[m.start() - 1] == "[" and \
					code[m.end()] == "]":
				continue
			# __builtin_expect's second argument is a hint to the compiler, not a value
			if re.search(r"__builtin_expect\(.*,\s*$", code[:m.start()]):
				continue
			out.append((ln, start + m.start(), start + m.end(), str(v + 1), "constant"))
			if v > 0:
				out.append((ln, start + m.start(), start + m.end(), str(v - 1),
					"constant"))
		# a free() or close() dropped leaks, which no figure shows
		if STMT.match(code) and not DECL.match(code) and "return" not in code and \
				not re.search(r"\b(\w+_)?(free|close|destroy)\(", code):
			body = line.strip()
			out.append((ln, start + line.index(body), start + len(line), ";",
				"dropped"))
		for m in CALL2.finditer(code):
			a, b = m.group(2), m.group(3)
			# the atomics' memory orders are not arguments to swap, nor are fmin's and
			# fmax's, which give the same either way
			if a != b and not m.group(1).startswith("__") and not b.isupper() and \
					m.group(1) not in ("fmin", "fmax", "MIN", "MAX"):
				out.append((ln, start + m.start(2), start + m.end(3), b + ", " + a,
					"swapped"))
	return out


def load_equivalent():
	"""tools/mutate-equivalent.txt: FILE, the line stripped, ORIG -> REPL, why (by tabs)."""
	eq = set()
	if not os.path.exists(EQUIV):
		return eq
	for raw in open(EQUIV):
		if not raw.strip() or raw.startswith("#"):
			continue
		f = raw.rstrip("\n").split("\t")
		if len(f) >= 4:
			eq.add((f[0], f[1].strip(), f[2].strip()))
	return eq


def run(cmd, timeout, cwd=TREE, env=None):
	"""Runs cmd in its own process group; returns (status, output). Status None: timed out."""
	p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
		stderr=subprocess.STDOUT, start_new_session=True)
	try:
		out, _ = p.communicate(timeout=timeout)
		return p.returncode, out.decode(errors="replace")
	except subprocess.TimeoutExpired:
		os.killpg(p.pid, signal.SIGKILL)
		p.communicate()
		return None, ""
	except BaseException:
		os.killpg(p.pid, signal.SIGKILL)
		p.wait()
		raise


def copy_tree():
	"""The working tree's tracked files into TREE, and build/'s objects so the first build there
	is a relink; a file unchanged since the last run is not copied again (its mtime kept)."""
	files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True,
		stdout=subprocess.PIPE).stdout.decode().split("\0")
	for f in files:
		if not f or not os.path.isfile(os.path.join(ROOT, f)):
			continue
		src, dst = os.path.join(ROOT, f), os.path.join(TREE, f)
		if os.path.exists(dst) and open(src, "rb").read() == open(dst, "rb").read():
			continue
		os.makedirs(os.path.dirname(dst), exist_ok=True)
		shutil.copy2(src, dst)
	src_build = os.path.join(ROOT, "build")
	for d in ("obj", "gen"):
		s, t = os.path.join(src_build, d), os.path.join(TREE, "build", d)
		if os.path.isdir(s) and not os.path.isdir(t):
			shutil.copytree(s, t, symlinks=True)


def targets_of(tests):
	t = set()
	for c in tests:
		kind, name = c.split(":")[:2]
		t.add({"unit": "build/tests/" + name, "san": "build/tests-san/" + name}.get(kind,
			"build/iorate"))
	return sorted(t)


def test_cmd(c):
	parts = c.split(":", 2)
	if parts[0] == "unit":
		return ["build/tests/" + parts[1]]
	if parts[0] == "san":
		return ["env", "ASAN_OPTIONS=detect_leaks=1:abort_on_error=1",
			"UBSAN_OPTIONS=halt_on_error=1", "build/tests-san/" + parts[1]]
	cmd = ["bats", "tests/cli/" + parts[1]]
	if len(parts) > 2:
		cmd += ["-f", parts[2]]
	return cmd


def put(f, text):
	"""The copy's file f with text."""
	with open(os.path.join(TREE, f), "w") as fh:
		fh.write(text)


def on_term(sig, frame):
	raise KeyboardInterrupt


def main():
	# SIGTERM as Ctrl-C: the test running is killed and the copy's file put back.
	signal.signal(signal.SIGTERM, on_term)
	signal.signal(signal.SIGHUP, on_term)
	ap = argparse.ArgumentParser(description="mutation testing (docs/testing.md)")
	ap.add_argument("-n", type=int, default=60, help="mutations run at most (0: all)")
	ap.add_argument("-s", type=int, default=1, help="seed of the sample")
	ap.add_argument("-t", type=int, default=300, help="seconds one test command may take")
	ap.add_argument("-l", action="store_true", help="list the mutations, run none")
	ap.add_argument("files", nargs="*")
	a = ap.parse_args()
	files = a.files or DEFAULT_FILES
	for f in files:
		if f not in MAP:
			print("mutate: no tests mapped for %s (tools/mutate.py, MAP)" % f,
				file=sys.stderr)
			return 2
	make = os.environ.get("MAKE", "make").split()
	every = []
	for f in files:
		text = open(os.path.join(ROOT, f)).read()
		every += [(f,) + m for m in mutations(f, text)]
	chosen = every
	if a.n and len(every) > a.n:
		# a sample spread over the files: each file's share in proportion to its mutations
		rng = random.Random(a.s)
		chosen = rng.sample(every, a.n)
	chosen.sort(key=lambda m: (files.index(m[0]), m[1], m[2]))
	print("mutate: %d of %d mutations in %s" % (len(chosen), len(every), " ".join(files)))
	if a.l:
		for f, ln, s, e, rep, kind in chosen:
			text = open(os.path.join(ROOT, f)).read()
			print("%s:%d: %s: %r -> %r" % (f, ln, kind, text[s:e], rep))
		return 0
	os.makedirs(TREE, exist_ok=True)
	copy_tree()
	env = dict(os.environ, IORATE=os.path.join(TREE, "build", "iorate"))
	# the san: tests' library is built the first time one is needed, not before
	allt = sorted({t for f in files for t in targets_of(MAP[f]) if "tests-san" not in t})
	st, out = run(make + ["-s", "-j2"] + allt, 1800)
	if st != 0:
		print(out[-3000:])
		print("mutate: the unmutated copy did not build", file=sys.stderr)
		return 1
	# The unmutated tests must pass, or every mutation would look killed: each is run once
	# before the first mutation that needs it (most are killed by the first, fast one), and
	# one that fails twice is left out of this run, said. A mutated test command may take five
	# times its unmutated time (at least 20 s, at most -t): a mutant that hangs is cut short.
	passed = {}
	limit = {}

	def ready(c, f, orig, mutant):
		"""Whether c passes unmutated: the first time, the copy's file is put back and built
		for it, then mutated and built again."""
		if c not in passed:
			put(f, orig)
			run(make + ["-s", "-j2"] + targets_of(MAP[f]), 1800)
			for _ in range(2):
				t = time.time()
				passed[c] = run(test_cmd(c), a.t, env=env)[0] == 0
				limit[c] = min(a.t, max(20, 5 * (time.time() - t)))
				if passed[c]:
					break
			if not passed[c]:
				print("mutate: %s fails unmutated: left out" % c, file=sys.stderr)
			put(f, mutant)
			run(make + ["-s"] + targets_of(MAP[f]), 600)
		return passed[c]

	eq = load_equivalent()
	killed = survived = equivalent = stillborn = 0
	unexplained = []
	t0 = time.time()
	cur = None
	try:
		for i, (f, ln, s, e, rep, kind) in enumerate(chosen, 1):
			orig = open(os.path.join(ROOT, f)).read()
			cur = f
			mutant = orig[:s] + rep + orig[e:]
			put(f, mutant)
			line = orig.split("\n")[ln - 1].strip()
			what = "%s -> %s" % (orig[s:e].strip() or orig[s:e], rep.strip() or rep)
			if kind == "dropped":
				what = "dropped"
			st, out = run(make + ["-s"] + [t for t in targets_of(MAP[f])
				if "tests-san" not in t or any(c.startswith("san:") and c in passed
							       for c in MAP[f])], 600)
			if st != 0:
				stillborn += 1
				res = "stillborn"
			else:
				res = "survived"
				for c in MAP[f]:
					if not ready(c, f, orig, mutant):
						continue
					st, out = run(test_cmd(c), limit[c], env=env)
					if st != 0:
						res = "killed by %s%s" % (c,
							" (timed out)" if st is None else "")
						break
			if res.startswith("killed"):
				killed += 1
			elif res == "survived":
				if (f, line, what) in eq:
					equivalent += 1
					res = "equivalent (tools/mutate-equivalent.txt)"
				else:
					survived += 1
					unexplained.append((f, ln, kind, what, line))
			print("[%d/%d] %s:%d: %s: %s: %s" % (i, len(chosen), f, ln, kind, what,
				res),
				flush=True)
			put(f, orig)
			cur = None
	except KeyboardInterrupt:
		print("mutate: interrupted", file=sys.stderr)
	finally:
		# the copy's file back as it was (the real tree was never written)
		if cur:
			shutil.copy2(os.path.join(ROOT, cur), os.path.join(TREE, cur))
	scored = killed + survived
	print("mutate: %d killed, %d survived, %d equivalent, %d did not compile; %.1f %% killed "
		"(%d s)" % (killed, survived, equivalent, stillborn,
		100.0 * killed / scored if scored else 100.0, time.time() - t0))
	for f, ln, kind, what, line in unexplained:
		print("SURVIVED %s:%d: %s: %s\t%s" % (f, ln, kind, what, line))
		print("  equivalent? add: %s\t%s\t%s\t<why>" % (f, line, what))
	return 1 if unexplained else 0


if __name__ == "__main__":
	sys.exit(main())
