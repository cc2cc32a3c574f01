#!/usr/bin/env python3
"""Fail when wscript and CMakeLists.txt disagree on what ns3-adc is made of.

Compares the source, header, test, example and benchmark lists of the CMake files with those
of the wscripts, checks that every listed file exists, and that every .cc/.h file under
model/, helper/ and test/ is listed (a file forgotten in both lists would build nowhere).
Usage: check-build-lists.py [MODULE_DIR]   (exit status 1 and a report on any mismatch)
"""
import ast
import pathlib
import re
import sys


def cmake_list(text, name):
    m = re.search(r"set\(\s*" + re.escape(name) + r"\s+(.*?)\)", text, re.S)
    if not m:
        raise SystemExit(f"CMake list {name} not found")
    return [w for w in m.group(1).split() if not w.startswith("#")]


def python_list(text, name):
    tree = ast.parse(text)
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            return list(ast.literal_eval(node.value))
    raise SystemExit(f"wscript list {name} not found")


def compare(what, cmake, waf, problems):
    only_cmake = sorted(set(cmake) - set(waf))
    only_waf = sorted(set(waf) - set(cmake))
    if only_cmake:
        problems.append(f"{what}: only in CMakeLists: {', '.join(only_cmake)}")
    if only_waf:
        problems.append(f"{what}: only in wscript: {', '.join(only_waf)}")
    if len(set(cmake)) != len(cmake):
        problems.append(f"{what}: duplicates in CMakeLists")
    if len(set(waf)) != len(waf):
        problems.append(f"{what}: duplicates in wscript")


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    problems = []
    top_cmake = (root / "CMakeLists.txt").read_text()
    top_waf = (root / "wscript").read_text()
    pairs = [
        ("sources", cmake_list(top_cmake, "ADC_SOURCES"), python_list(top_waf, "ADC_SOURCES")),
        ("headers", cmake_list(top_cmake, "ADC_HEADERS"), python_list(top_waf, "ADC_HEADERS")),
        ("tests", cmake_list(top_cmake, "ADC_TEST_SOURCES"),
         python_list(top_waf, "ADC_TEST_SOURCES")),
    ]
    for sub, var in (("examples", "ADC_EXAMPLES"), ("bench", "ADC_BENCHMARKS")):
        c = cmake_list((root / sub / "CMakeLists.txt").read_text(), var)
        w = python_list((root / sub / "wscript").read_text(), var)
        pairs.append((sub, [f"{sub}/{n}.cc" for n in c], [f"{sub}/{n}.cc" for n in w]))

    listed = set()
    for what, cmake, waf in pairs:
        compare(what, cmake, waf, problems)
        for f in set(cmake) | set(waf):
            listed.add(f)
            if not (root / f).is_file():
                problems.append(f"{what}: listed file {f} does not exist")

    for folder, pattern in (("model", "**/*.cc"), ("model", "**/*.h"), ("helper", "*.cc"),
                            ("helper", "*.h"), ("test", "*.cc"), ("examples", "*.cc"),
                            ("bench", "*.cc")):
        for f in sorted((root / folder).glob(pattern)):
            rel = f.relative_to(root).as_posix()
            if rel not in listed:
                problems.append(f"{rel} is in neither list: add it to CMakeLists.txt and wscript")

    if problems:
        print("wscript and CMakeLists.txt disagree:")
        for p in problems:
            print("  " + p)
        return 1
    print(f"build lists agree: {len(listed)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
