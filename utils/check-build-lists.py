#!/usr/bin/env python3
"""Fail when ns3-adc's one file list and its files disagree, or when the waf build would build
other files than the CMake build.

adc-files.cmake holds the source, header, test, example and benchmark lists; CMakeLists.txt
includes it, and wscript reads it. This checks that every listed file exists, that every
.cc/.h file under model/ and helper/ and every .cc file under test/, examples/ and bench/ is
listed (a file forgotten in the list would build nowhere), that every test file names its
subject (adc-, crd-, cs-, gslb-, ilb-, slb-, or a new one: test/CMakeLists.txt makes one
program per prefix), and runs the wscripts' build() against a stand-in for waf to see that they take
exactly the listed files.
Usage: check-build-lists.py [MODULE_DIR]   (exit status 1 and a report on any problem)
"""
import pathlib
import re
import sys
import types


def cmake_lists(text):
    return {
        m.group(1): [w for w in m.group(2).split() if not w.startswith("#")]
        for m in re.finditer(r"set\(\s*(ADC_[A-Z_]+)\s+(.*?)\)", text, re.S)
    }


class FakeNode:
    """The part of waf's Node the wscripts use."""

    def __init__(self, path):
        self.path = path

    @property
    def parent(self):
        return FakeNode(self.path.parent)

    def find_node(self, name):
        p = self.path / name
        return FakeNode(p) if p.exists() else None

    def read(self):
        return self.path.read_text()


class FakeTask(types.SimpleNamespace):
    pass


class FakeEnv:
    """waf's ConfigSet as the wscripts read it: examples, tests and GoogleTest all on."""

    ENABLE_EXAMPLES = True
    ENABLE_TESTS = True

    def __getitem__(self, key):
        return True


class FakeBuild:
    """The part of waf's build context the wscripts use; records what they would build."""

    def __init__(self, root, folder):
        self.root = root
        self.path = FakeNode(root / folder)
        self.folder = folder
        self.env = FakeEnv()
        self.programs = {}
        self.headers = []

    def __call__(self, **kw):  # bld(features='ns3header')
        task = FakeTask(source=[])
        self.headers.append(task)
        return task

    def create_ns3_module(self, name, deps):
        task = FakeTask(source=[], use=[], defines=[])
        self.module = task
        return task

    def create_ns3_program(self, name, deps):
        task = FakeTask(source=[], use=[])
        self.programs[name] = (self.folder, task)
        return task

    def recurse(self, folder):
        sub = FakeBuild(self.root, folder)
        sub.programs = self.programs
        run_wscript(self.root / folder / "wscript", "build", sub)


def run_wscript(path, function, ctx):
    module = {"__name__": "wscript"}
    exec(compile(path.read_text(), str(path), "exec"), module)
    return module[function](ctx)


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    problems = []
    lists = cmake_lists((root / "adc-files.cmake").read_text())
    needed = ("ADC_SOURCES", "ADC_HEADERS", "ADC_TEST_SOURCES", "ADC_EXAMPLES", "ADC_BENCHMARKS")
    for name in needed:
        if name not in lists:
            raise SystemExit(f"adc-files.cmake: list {name} not found")
    files = {
        "sources": lists["ADC_SOURCES"],
        "headers": lists["ADC_HEADERS"],
        "tests": lists["ADC_TEST_SOURCES"],
        "examples": [f"examples/{n}.cc" for n in lists["ADC_EXAMPLES"]],
        "bench": [f"bench/{n}.cc" for n in lists["ADC_BENCHMARKS"]],
    }
    listed = set()
    for what, names in files.items():
        if len(set(names)) != len(names):
            problems.append(f"{what}: a file is listed twice")
        for f in names:
            listed.add(f)
            if not (root / f).is_file():
                problems.append(f"{what}: listed file {f} does not exist")
    for t in files["tests"]:
        name = t.split("/")[-1]
        if not re.match(r"[a-z0-9]+-", name):
            problems.append(f"{t}: a test file's name starts with its subject and a '-' "
                            "(adc-, crd-, cs-, gslb-, ilb-, slb-, or a new subject's)")
    for folder, pattern in (("model", "**/*.cc"), ("model", "**/*.h"), ("helper", "**/*.cc"),
                            ("helper", "**/*.h"), ("test", "*.cc"), ("examples", "*.cc"),
                            ("bench", "*.cc")):
        for f in sorted((root / folder).glob(pattern)):
            rel = f.relative_to(root).as_posix()
            if rel not in listed:
                problems.append(f"{rel} is not listed: add it to adc-files.cmake")

    # What the waf build would build, from the same list.
    bld = FakeBuild(root, ".")
    run_wscript(root / "wscript", "build", bld)
    waf = {
        "sources": bld.module.source,
        "headers": [h for task in bld.headers for h in task.source],
        "tests": sorted({s for n, (_, t) in bld.programs.items() if n.startswith("adc-test-")
                         for s in t.source}),
        "examples": [f"examples/{t.source}" for n, (d, t) in bld.programs.items()
                     if d == "examples"],
        "bench": [f"bench/{t.source}" for n, (d, t) in bld.programs.items() if d == "bench"],
    }
    for what in files:
        if sorted(files[what]) != sorted(waf[what]):
            only_list = sorted(set(files[what]) - set(waf[what]))
            only_waf = sorted(set(waf[what]) - set(files[what]))
            problems.append(f"wscript {what}: not built by waf: {only_list}; "
                            f"built by waf, not listed: {only_waf}")

    if problems:
        print("build lists:")
        for p in problems:
            print("  " + p)
        return 1
    print(f"build lists: {len(listed)} files, the waf build takes the same")
    return 0


if __name__ == "__main__":
    sys.exit(main())
