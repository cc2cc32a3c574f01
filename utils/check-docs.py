#!/usr/bin/env python3
"""Check that README.md and doc/*.rst say what the repository has.

  check-docs.py [--root DIR]        every doc page linked (README, doc/adc.rst's toctree); the
                                    README's package lists equal the adc script's PACKAGES and
                                    INTEROP_PACKAGES (an apt-get line in the docs PACKAGES); its
                                    fuzz list fuzz/targets.txt; every repository path named
                                    exists; the status and experiments tables; doc/adc.rst's
                                    Examples; doc/design.rst's layer drawing; one MPI set-up
                                    time; sections named in cross-references exist
  check-docs.py [--root DIR] --options --program NAME=PATH ...
                                    every option the docs give a program is in its --PrintHelp
                                    (an option table's numeric defaults too); an option named
                                    without its program is some program's, script's or tool's
Each problem prints as FILE:LINE: problem; the exit status is 1 when there is any, else 0.
"""
import argparse
import collections
import fnmatch
import glob
import os
import re
import subprocess
import sys
import tempfile

SUBJECTS = ["CRD", "ILB", "CS", "SLB", "GSLB"]
# Pages the README and doc/adc.rst must link even before they exist (written elsewhere).
EXPECTED_PAGES = ["doc/emulation.rst"]
# Top-level names that look like repository folders but are kept outside it.
OUTSIDE_REPO = {"spec", "seeds", "shared", "notes"}
# Bare file names checked when a docs literal names one (generated outputs are not checked).
CHECKED_SUFFIXES = (".h", ".cc", ".py", ".rst", ".md", ".sh", ".cmake", ".supp", ".ilbadm",
                    ".slb", ".ns.conf")
GENERIC_NAMES = {"ns.conf", "ilb.conf", "README.md"}
# A bare file name is the project's when it starts like the project's files.
PROJECT_PREFIXES = ("adc-", "crd-", "ilb-", "ilbadm-", "cs-", "slb-", "gslb-", "check-")
# Options of the other tools the docs show commands of (cmake, ctest, ns3, apt-get, mpirun,
# GNU parallel, sbatch, GoogleTest, tshark, unshare).
TOOL_OPTIONS = {
    "build", "target", "test-dir", "output-on-failure", "timeout", "parallel", "enable-examples",
    "enable-tests", "enable-modules", "enable-werror", "filter-module-examples-and-tests",
    "download-only", "no-install-recommends", "oversubscribe", "allow-run-as-root", "np",
    "halt", "sshloginfile", "jobs", "array", "gtest_filter", "help", "version", "net",
}
# The defaults a program's --PrintHelp shows ([value]), by program path and option.
DEFAULTS = {}
LAUNCHERS = {"mpirun", "mpiexec", "env", "time", "/usr/bin/time", "sudo", "gdb", "valgrind"}


class Problems:
    def __init__(self):
        self.items = []

    def add(self, path, line, text):
        self.items.append(f"{path}:{line}: {text}")


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


# A literal of a document: inline (``x``, `x`) or a block line (a command).
Span = collections.namedtuple("Span", "line text block section")


def rst_blocks(lines):
    """Line numbers (0-based) of rst literal blocks and code directives."""
    inside = set()
    i = 0
    while i < len(lines):
        s = lines[i].rstrip()
        directive = re.match(r"\s*\.\. (sourcecode|code-block|code)::", s)
        if s.endswith("::") and not s.lstrip().startswith(".. ") or directive:
            body = s.lstrip()
            indent = len(s) - len(body)
            if re.match(r"[*-] |#\. |\d+\. ", body):
                indent += len(re.match(r"([*-] |#\. |\d+\. )", body).group(1))
            j = i + 1
            while j < len(lines):
                t = lines[j]
                if t.strip() and len(t) - len(t.lstrip()) <= indent:
                    break
                inside.add(j)
                j += 1
            i = j
            continue
        i += 1
    return inside


def md_blocks(lines):
    inside, fence = set(), False
    for i, s in enumerate(lines):
        if s.lstrip().startswith("```"):
            fence = not fence
            inside.add(i)
        elif fence:
            inside.add(i)
    return inside


def sections(lines, rst):
    """The section title in force at each line."""
    out, title = [], ""
    for i, s in enumerate(lines):
        if rst:
            if i + 1 < len(lines) and re.fullmatch(r"([-=*#~^])\1{3,}", lines[i + 1].strip()) \
                    and s.strip() and not re.fullmatch(r"([-=*#~^])\1+", s.strip()):
                title = s.strip()
        elif s.startswith("#"):
            title = s.lstrip("#").strip()
        out.append(title)
    return out


def logical_block_lines(lines, blocks, titles):
    """Block lines joined at trailing backslashes: one command each."""
    out, i = [], 0
    while i < len(lines):
        if i in blocks:
            start, text = i, lines[i].rstrip()
            while text.endswith("\\") and i + 1 < len(lines) and i + 1 in blocks:
                i += 1
                text = text[:-1] + " " + lines[i].strip()
            out.append(Span(start + 1, text.strip(), True, titles[start]))
        i += 1
    return out


def load_doc(path):
    text = read(path)
    lines = text.split("\n")
    rst = path.endswith(".rst")
    blocks = rst_blocks(lines) if rst else md_blocks(lines)
    titles = sections(lines, rst)
    masked = "\n".join("" if i in blocks else s for i, s in enumerate(lines))
    spans = logical_block_lines(lines, blocks, titles)
    pattern = r"``(.+?)``" if rst else r"``(.+?)``|`([^`\n]+)`"
    for m in re.finditer(pattern, masked, re.S):
        body = m.group(1) if m.group(1) is not None else m.group(2)
        ln = line_of(masked, m.start())
        spans.append(Span(ln, body.replace("\n", " "), False, titles[ln - 1]))
    spans.sort(key=lambda s: s.line)
    # The prose: the text without blocks and literals (newlines kept, for line numbers).
    prose = re.sub(pattern, lambda m: re.sub(r"[^\n]", " ", m.group(0)), masked, flags=re.S)
    return {"text": text, "lines": lines, "blocks": blocks, "spans": spans, "titles": titles,
            "rst": rst, "prose": prose}


def bash_array(text, name):
    m = re.search(r"^" + name + r"=\((.*?)\)", text, re.S | re.M)
    if not m:
        return None, 0
    words = [w for w in re.sub(r"#.*", "", m.group(1)).split()]
    return words, line_of(text, m.start())


def adc_experiments(adc_text):
    m = re.search(r"^EXPERIMENTS=\((.*?)^\)", adc_text, re.S | re.M)
    out = {}
    for entry in re.findall(r'"([^"]*)"', m.group(1) if m else ""):
        name, prog, defaults = entry.split("|")[:3]
        out[name] = (prog, defaults)
    return out


def fuzz_targets(root):
    names = []
    for s in read(os.path.join(root, "fuzz/targets.txt")).splitlines():
        if s.strip() and not s.startswith("#"):
            names.append(s.split("|")[0].strip())
    return names


def doc_pages(root):
    pages = sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "doc/*.rst")))
    return sorted(set(pages) | set(EXPECTED_PAGES))


def check_links(root, docs, problems):
    readme = docs["README.md"]
    linked = {}
    for m in re.finditer(r"\]\(([^)\s#]+)(#[^)]*)?\)", readme["text"]):
        linked.setdefault(m.group(1), line_of(readme["text"], m.start()))
    for target, ln in linked.items():
        if "://" in target:
            continue
        if not os.path.exists(os.path.join(root, target)):
            problems.add("README.md", ln, f"link to {target}, which does not exist")
    for page in doc_pages(root):
        if page not in linked:
            problems.add("README.md", 1, f"does not link the doc page {page}")
    adc = docs["doc/adc.rst"]
    m = re.search(r"^\.\. toctree::\n((?:[ \t]+.*\n|\n)+)", adc["text"], re.M)
    if not m:
        problems.add("doc/adc.rst", 1, "has no toctree of the other doc pages")
        return
    entries = {}
    for k, s in enumerate(m.group(1).split("\n")):
        s = s.strip()
        if s and not s.startswith(":"):
            entries["doc/" + s + ("" if s.endswith(".rst") else ".rst")] = \
                line_of(adc["text"], m.start()) + 1 + k
    for page, ln in entries.items():
        if not os.path.exists(os.path.join(root, page)):
            problems.add("doc/adc.rst", ln, f"toctree names {page}, which does not exist")
    for page in doc_pages(root):
        if page != "doc/adc.rst" and page not in entries:
            problems.add("doc/adc.rst", line_of(adc["text"], m.start()),
                         f"toctree does not list {page}")


def listed_after(text, marker):
    """The words of the literal after the first colon after `marker`: the list it names."""
    i = text.find(marker)
    if i < 0:
        return None, 0
    m = re.compile(r":\s*`([^`]+)`").search(text, i + len(marker))
    if not m or m.start() - i > 600:
        return None, line_of(text, i)
    return m.group(1).split(), line_of(text, m.start(1))


def compare_lists(problems, path, line, what, said, real):
    if said is None:
        problems.add(path, line, f"does not list {what}")
        return
    missing = [w for w in real if w not in said]
    extra = [w for w in said if w not in real]
    if missing:
        problems.add(path, line, f"{what}: missing {' '.join(missing)}")
    if extra:
        problems.add(path, line, f"{what}: not in the adc script: {' '.join(extra)}")


def check_packages(root, docs, problems):
    adc_text = read(os.path.join(root, "adc"))
    readme = docs["README.md"]["text"]
    for name in ("PACKAGES", "INTEROP_PACKAGES"):
        real, _ = bash_array(adc_text, name)
        if real is None:
            problems.add("adc", 1, f"has no {name} array")
            continue
        said, ln = listed_after(readme, f"`{name}`")
        compare_lists(problems, "README.md", ln or 1, f"the adc script's {name}", said, real)
    real, _ = bash_array(adc_text, "PACKAGES")
    for path, doc in docs.items():
        for span in doc["spans"]:
            m = re.search(r"apt-get install (.*)", span.text) if span.block else None
            if m and real:
                said = [w for w in m.group(1).split() if not w.startswith("-")]
                compare_lists(problems, path, span.line, "the adc script's PACKAGES", said, real)


def check_fuzz(root, docs, problems):
    readme = docs["README.md"]["text"]
    real = fuzz_targets(root)
    # The list: `fuzz/targets.txt`, a few words, a colon, then `name`, `name`, ... up to a stop.
    m = re.search(r"`fuzz/targets\.txt`[^:`\n]{0,80}:(.*?)\.(?:\s|$)", readme, re.S)
    if not m:
        problems.add("README.md", 1, "does not list the fuzz targets after `fuzz/targets.txt`")
        return
    said = re.findall(r"`([^`]+)`", m.group(1))
    ln = line_of(readme, m.start())
    missing = [t for t in real if t not in said]
    extra = [t for t in said if t not in real]
    if missing:
        problems.add("README.md", ln, f"fuzz target list lacks {', '.join(missing)}")
    if extra:
        problems.add("README.md", ln, f"fuzz target list names {', '.join(extra)}, "
                     "not in fuzz/targets.txt")


def expand_braces(token):
    m = re.search(r"\{([^{}]*)\}", token)
    if not m:
        return [token]
    out = []
    for alt in m.group(1).split(","):
        out += expand_braces(token[:m.start()] + alt + token[m.end():])
    return out


def path_exists(root, candidate):
    def hit(pattern):
        full = os.path.join(root, pattern)
        return bool(glob.glob(full)) if any(c in pattern for c in "*?[") else \
            os.path.exists(full)

    if hit(candidate):
        return True
    # A program named by its path (examples/slb-contoso, bench/crd-bench): its source.
    if candidate.split("/")[0] in ("examples", "bench") and hit(candidate + ".cc"):
        return True
    # Placeholders: <name>, NAME, V (an upper-case word between separators).
    loose = re.sub(r"<[^>]*>", "*", candidate)
    loose = re.sub(r"(?<![A-Za-z])[A-Z][A-Z0-9_]*(?![a-z])", "*", loose)
    return loose != candidate and hit(loose)


def repo_top(root):
    """The repository's top-level names (build output and results left out)."""
    return {n for n in os.listdir(root) if n not in ("build", "results")}


def path_candidates(top, text):
    """(token, kind) of the words of a literal that name a file: "repo" for a path under a
    top-level folder (or one kept outside), "name" for a bare file name like the project's."""
    words = []
    for part in re.split(r"[\s=;'\"]+", text):
        words += re.split(r",(?![^{]*\})", part)  # commas, but not inside {a,b}
    for raw in words:
        tok = raw.strip("()[]:.").removeprefix("./")
        tok = re.sub(r"\.(h|cc)/\.(h|cc)$", r".{\1,\2}", tok)
        if not tok or "://" in raw or tok.startswith(("$", "~", "-")):
            continue
        if "/" in tok:
            if not raw.lstrip("(").startswith("/") and \
                    (tok.split("/")[0] in top or tok.split("/")[0] in OUTSIDE_REPO):
                yield tok, "repo"
        elif tok.endswith(CHECKED_SUFFIXES) and tok not in GENERIC_NAMES \
                and re.fullmatch(r"[A-Za-z0-9_.*{},-]+", tok) \
                and (tok.startswith(PROJECT_PREFIXES) or tok.endswith((".rst", ".md"))):
            yield tok, "name"


def missing(problems, path, line, name):
    where = "kept outside this repository" if name.split("/")[0] in OUTSIDE_REPO \
        else "not in the repository"
    problems.add(path, line, f"names {name}, {where}")


def check_paths(root, docs, problems, names):
    top = repo_top(root)
    dirs = "|".join(re.escape(n) for n in sorted(top | OUTSIDE_REPO)
                    if os.path.isdir(os.path.join(root, n)) or n in OUTSIDE_REPO)
    prose_path = re.compile(r"(?<![\w/.~$-])((?:" + dirs + r")/[\w./*{},-]*)")
    for path, doc in docs.items():
        # Repository paths in the prose (model/x/y.h outside a literal).
        for m in prose_path.finditer(doc["prose"]):
            tok = re.sub(r"\.(h|cc)/\.(h|cc)$", r".{\1,\2}", m.group(1).rstrip(".,;:"))
            for v in expand_braces(tok):
                if not path_exists(root, v.rstrip("/") or v):
                    missing(problems, path, line_of(doc["prose"], m.start()), v)
        # Paths and file names in literals and blocks.
        for span in doc["spans"]:
            for tok, kind in path_candidates(top, span.text):
                for v in expand_braces(tok):
                    if (kind == "repo" and not path_exists(root, v.rstrip("/") or v)) or \
                            (kind == "name" and not any(fnmatch.fnmatch(n, v) for n in names)):
                        missing(problems, path, span.line, v)


def repo_file_names(root):
    names = set()
    for d, dirs, files in os.walk(root, followlinks=True):
        rel = os.path.relpath(d, root)
        if rel.split(os.sep)[0] in ("build", "results", ".git"):
            dirs[:] = []
            continue
        names.update(files)
    return names


def md_tables(text):
    """Markdown tables: (line of the header, header cells, [(line, cells)])."""
    lines, out, i = text.split("\n"), [], 0
    while i < len(lines):
        if lines[i].startswith("|") and i + 1 < len(lines) and re.match(r"\|[-| :]+\|$",
                                                                         lines[i + 1].strip()):
            head = [c.strip() for c in lines[i].strip().strip("|").split("|")]
            rows, j = [], i + 2
            while j < len(lines) and lines[j].startswith("|"):
                rows.append((j + 1, [c.strip() for c in
                                     re.split(r"(?<!\\)\|", lines[j].strip().strip("|"))]))
                j += 1
            out.append((i + 1, head, rows))
            i = j
        else:
            i += 1
    return out


def check_tables(root, docs, problems, experiments):
    readme = docs["README.md"]["text"]
    tables = md_tables(readme)
    subject = [t for t in tables if t[1][0].lower() == "subject" and "state" in
               " ".join(t[1]).lower()]
    if not subject:
        problems.add("README.md", 1, "has no status table (columns subject ... state)")
    else:
        ln, head, rows = subject[0]
        seen = [r[1][0].strip("*` ") for r in rows]
        for s in SUBJECTS:
            if seen.count(s) != 1:
                problems.add("README.md", ln, f"status table: subject {s} appears "
                             f"{seen.count(s)} times, not once")
        for rln, cells in rows:
            row = " | ".join(cells)
            if not re.search(r"\]\(doc/[a-z-]+\.rst\)", row):
                problems.add("README.md", rln, "status table: the row links no doc page")
            for name in re.findall(r"`([a-z][a-z-]+)`", row):
                if name not in experiments and name.startswith(tuple(
                        s.lower() + "-" for s in SUBJECTS)):
                    problems.add("README.md", rln, f"status table: {name} is no experiment "
                                 "of the adc script")
            state = cells[-1].lower()
            if not any(w in state for w in ("gap", "done", "built")):
                problems.add("README.md", rln, "status table: the state says neither built, "
                             "done nor known gaps")
    exp = [t for t in tables if t[1][0].lower() in ("experiment", "name") and
           any("time" in c.lower() for c in t[1])]
    if not exp:
        problems.add("README.md", 1, "has no experiments table with a run time column")
        return
    ln, head, rows = exp[0]
    tcol = next(k for k, c in enumerate(head) if "time" in c.lower())
    named = {}
    for rln, cells in rows:
        m = re.match(r"`([a-z-]+)`", cells[0])
        if m:
            named[m.group(1)] = (rln, cells)
    for name, (prog, _) in experiments.items():
        if name not in named:
            problems.add("README.md", ln, f"experiments table lacks {name}")
            continue
        rln, cells = named[name]
        if f"`{prog}.cc`" not in " ".join(cells):
            problems.add("README.md", rln, f"experiments table: {name}'s program is {prog}.cc")
        if len(cells) <= tcol or not re.search(r"\d", cells[tcol]):
            problems.add("README.md", rln, f"experiments table: {name} has no run time")
    for name, (rln, _) in named.items():
        if name not in experiments:
            problems.add("README.md", rln, f"experiments table: {name} is not in the adc "
                         "script's EXPERIMENTS")


def check_examples_list(root, docs, problems):
    doc = docs["doc/adc.rst"]
    titles = doc["titles"]
    start = next((i for i, t in enumerate(titles) if t == "Examples"), None)
    if start is None:
        problems.add("doc/adc.rst", 1, "has no Examples section")
        return
    end = next((i for i in range(start, len(titles)) if titles[i] != "Examples"), len(titles))
    body = "\n".join(doc["lines"][start:end])
    for f in sorted(glob.glob(os.path.join(root, "examples/*.cc"))):
        name = os.path.basename(f)[:-3]
        if f"``{name}``" not in body:
            problems.add("doc/adc.rst", start + 1, f"Examples does not name ``{name}``")


def check_layers(root, docs, problems):
    doc = docs["doc/design.rst"]
    lines = doc["lines"]
    block = [i for i in sorted(doc["blocks"]) if doc["titles"][i] == "Layers"]
    drawing = "\n".join(lines[i] for i in block)
    words = set(re.findall(r"[a-z]+", drawing))
    for d in sorted(os.listdir(os.path.join(root, "model"))):
        if os.path.isdir(os.path.join(root, "model", d)) and d not in words:
            problems.add("doc/design.rst", (block[0] + 1) if block else 1,
                         f"the layer drawing does not name model/{d}")


def norm(title):
    return " ".join(title.replace("``", "").split())


def check_section_refs(root, docs, problems):
    """A section named in quotes after its page (``doc/x.rst``, "Title") or after "below,"
    or "above," exists on that page."""
    titles = {p: {norm(t) for t in d["titles"] if t} for p, d in docs.items()}
    page_ref = re.compile(r"`{1,2}(doc/[a-z-]+\.rst)`{1,2},?\s*\(?\s*\"([^\"]+)\"", re.S)
    here_ref = re.compile(r"\b(?:below|above),\s*\"([^\"]+)\"", re.S)
    for path, doc in docs.items():
        text = doc["text"]
        for m in page_ref.finditer(text):
            page, title = m.group(1), norm(m.group(2))
            if page in titles and title not in titles[page]:
                problems.add(path, line_of(text, m.start()), f"{page} has no section "
                             f"\"{title}\"")
        for m in here_ref.finditer(text):
            title = norm(m.group(1))
            if title not in titles[path]:
                problems.add(path, line_of(text, m.start()), f"no section \"{title}\" on "
                             "this page")


def check_mpi_time(root, docs, problems):
    """The MPI build's set-up time is one figure in the docs and the adc script."""
    said = []
    files = [(p, d["text"]) for p, d in docs.items()] + [("adc", read(os.path.join(root, "adc")))]
    for path, text in files:
        for m in re.finditer(r"setup --mpi", text):
            # The figure in the same sentence, table row or usage entry: before a blank line,
            # a new table row or a new usage entry.
            ends = r"\n  [a-z]|\n\s*\n" if path == "adc" else r"\n\s*\n|\n\|"
            window = re.split(ends, text[m.end():m.end() + 600])[0]
            f = re.search(r"about (\d+) min", window)
            entry = (path, line_of(text, m.end() + f.start()), f.group(1)) if f else None
            if entry and entry not in said:
                said.append(entry)
    if len({s[2] for s in said}) > 1:
        first = next((s for s in said if s[0] == "README.md"), said[0])
        for path, ln, fig in said:
            if fig != first[2]:
                problems.add(path, ln, f"the MPI set-up takes about {fig} minutes here, "
                             f"about {first[2]} in {first[0]}:{first[1]}")


def program_options(path):
    """The options a program's --PrintHelp and --PrintGlobals list, or None and why not."""
    names, said = set(), ""
    with tempfile.TemporaryDirectory() as tmp:
        for arg in ("--PrintHelp", "--PrintGlobals"):
            try:
                r = subprocess.run([path, arg], cwd=tmp, capture_output=True, text=True,
                                   timeout=120)
            except (OSError, subprocess.TimeoutExpired) as e:
                return None, f"{arg}: {e}"
            names |= set(re.findall(r"--([A-Za-z][A-Za-z0-9_-]*)", r.stdout + r.stderr))
            for m in re.finditer(r"^\s*--([A-Za-z][\w-]*):.*\[([^\]\n]*)\]\s*$", r.stdout,
                                 re.M):
                DEFAULTS.setdefault(path, {})[m.group(1)] = m.group(2)
            said = said or f"{arg}: exit status {r.returncode}, " + \
                ((r.stdout + r.stderr).strip().split("\n")[0][:160] or "no output")
    return (names, "") if names else (None, said)


def attribute_exists(path, attr, cache):
    type_id = attr.rsplit("::", 1)[0]
    if type_id not in cache:
        with tempfile.TemporaryDirectory() as tmp:
            try:
                r = subprocess.run([path, f"--PrintAttributes={type_id}"], cwd=tmp,
                                   capture_output=True, text=True, timeout=120)
                cache[type_id] = r.stdout + r.stderr
            except (OSError, subprocess.TimeoutExpired):
                cache[type_id] = ""
    return f"--{attr}=" in cache[type_id] or f"--{attr}:" in cache[type_id]


OPTION = re.compile(r"(?<![\w-])--([A-Za-z][A-Za-z0-9_-]*(?:::[A-Za-z0-9_:]+)?)")


def split_commands(text):
    """A command line cut at ;, |, && and a # comment into word lists."""
    out, cur = [], []
    for w in text.split():
        if w.startswith("#"):
            break
        if w in (";", "|", "&&", "||"):
            out.append(cur)
            cur = []
            continue
        cur.append(w)
    out.append(cur)
    return [c for c in out if c]


def program_of(word, programs):
    w = word.strip("`(),")
    base = os.path.basename(w)
    return base if base in programs else None


def command_options(words, programs, experiments):
    """(owner, option) pairs of one command (owner a program, a script, or None), and the
    program the command runs."""
    pairs, k = [], 0
    while k < len(words) and (os.path.basename(words[k]) in LAUNCHERS or
                              (k and os.path.basename(words[0]) in LAUNCHERS and
                               (words[k].startswith("-") or words[k].isdigit()))):
        k += 1
    words = words[k:]
    if not words:
        return pairs, None
    first = words[0].removeprefix("./")
    owner, direct = None, False
    if program_of(first, programs):
        owner, direct = program_of(first, programs), True
    elif first == "adc" and len(words) > 2 and words[1] in ("run", "sweep"):
        prog = experiments.get(words[2], (None,))[0]
        owner = os.path.basename(prog) if prog else None
        for w in words[1:]:
            if w == "--":
                break
            if words[1] == "sweep" and re.fullmatch(r"[A-Za-z]\w*=\S+", w):
                pairs.append((owner, w.split("=")[0]))
    script = first if first == "adc" or first.startswith("utils/") else None
    if first in ("python3", "/usr/bin/python3") and len(words) > 1:
        script = words[1].removeprefix("./")
    dd = False
    for w in words[0 if first.startswith("-") else 1:]:
        if w == "--":
            dd = True
            continue
        if not direct and owner is None and program_of(w, programs):
            owner = program_of(w, programs)
        for m in OPTION.finditer(w if w.startswith("-") else ""):
            if direct or (dd and owner):
                pairs.append((owner, m.group(1)))
            elif script:
                pairs.append(("script:" + script, m.group(1)))
            else:
                pairs.append((None, m.group(1)))
    return pairs, owner


def rst_tables(lines):
    """rst simple tables as lists of their border lines (0-based): top, [under the header,]
    bottom; a border followed by a blank line (or the end) closes the table."""
    tables, cur = [], None
    for i, s in enumerate(lines):
        if re.fullmatch(r"=+( +=+)+", s.strip()):
            cur = (cur or []) + [i]
            if len(cur) > 1 and (i + 1 == len(lines) or not lines[i + 1].strip()):
                tables.append(cur)
                cur = None
    return tables


def rst_option_defaults(lines):
    """{line: (option, default)} of rst tables whose first columns are "option" and "default"."""
    out = {}
    for borders in rst_tables(lines):
        head = lines[borders[0] + 1].split()
        if len(borders) < 3 or len(head) < 2 or head[0].lower() != "option" \
                or head[1].lower() != "default":
            continue
        cols = [m.span() for m in re.finditer(r"=+", lines[borders[0]])]
        for i in range(borders[1] + 1, borders[-1]):
            row = lines[i]
            m = re.match(r"``--([A-Za-z][\w-]*)``", row[cols[0][0]:cols[0][1]].strip())
            if m:
                out[i + 1] = (m.group(1), row[cols[1][0]:cols[1][1]].strip())
    return out


def number(text):
    return float(text) if re.fullmatch(r"-?\d+(\.\d+)?", text) else None


def check_table_defaults(docs, uses, program_paths, problems):
    """A numeric default in an option table equals the one the program's --PrintHelp shows."""
    owners = {(u[0], u[1], u[3]): u[2] for u in uses}
    for path, doc in docs.items():
        if not doc["rst"]:
            continue
        for line, (opt, said) in rst_option_defaults(doc["lines"]).items():
            owner = owners.get((path, line, opt))
            shown = DEFAULTS.get(program_paths.get(owner, ""), {}).get(opt)
            if shown is None or number(said) is None or number(shown) is None:
                continue
            if number(said) != number(shown):
                problems.add(path, line, f"--{opt}: the table says default {said}, {owner}'s "
                             f"--PrintHelp says {shown}")


def option_uses(docs, programs, experiments):
    """Every (file, line, owner, option) the docs show."""
    uses = []
    for path, doc in docs.items():
        last_prog = {}
        tables = {i + 1 for b in rst_tables(doc["lines"]) for i in range(b[0], b[-1] + 1)} \
            if doc["rst"] else set()
        for span in doc["spans"]:
            # A row of an option table (``--option`` in its first column) under a program's
            # command in the same section: that program's option.
            row_owner = None
            if span.line in tables and span.text.startswith("--") and \
                    doc["lines"][span.line - 1].startswith("``" + span.text.split()[0]):
                row_owner = last_prog.get(span.section)
            for words in split_commands(span.text):
                pairs, prog = command_options(words, programs, experiments)
                for owner, opt in pairs:
                    uses.append((path, span.line, owner or row_owner, opt, span.section))
                if prog and (span.block or len(words) > 1):  # a command, not a mere mention
                    last_prog[span.section] = prog
        if not doc["rst"]:
            for _, _, rows in md_tables(doc["text"]):
                for rln, cells in rows:
                    m = re.match(r"`([a-z-]+)`", cells[0])
                    name = m.group(1) if m else ""
                    prog = os.path.basename(experiments[name][0]) if name in experiments \
                        else name if name in programs else None
                    if not prog:
                        continue
                    for k, u in enumerate(uses):
                        if u[0] == path and u[1] == rln and u[2] is None:
                            uses[k] = (path, rln, prog, u[3], u[4])
    return uses


def check_options(root, docs, problems, program_paths, verbose=False):
    experiments = adc_experiments(read(os.path.join(root, "adc")))
    known, unreadable, attr_cache = {}, {}, {}
    for name, path in program_paths.items():
        opts, why = program_options(path)
        if opts is None:
            unreadable[name] = why
        else:
            known[name] = opts
    union = set().union(*known.values()) if known else set()
    # An option named without its program is checked against every program's options, so
    # only when every program of examples/ and bench/ was given and read.
    every = {os.path.basename(f)[:-3] for f in glob.glob(os.path.join(root, "examples/*.cc")) +
             glob.glob(os.path.join(root, "bench/*.cc"))}
    complete = every <= set(known)
    script_text = {}
    for f in glob.glob(os.path.join(root, "utils/*")) + [os.path.join(root, "adc")]:
        if os.path.isfile(f):
            script_text[os.path.relpath(f, root)] = read(f)
    script_opts = set()
    for text in script_text.values():
        script_opts |= set(re.findall(r"--([A-Za-z][A-Za-z0-9_-]*)", text))
    reported = set()
    uses = option_uses(docs, set(program_paths), experiments)
    check_table_defaults(docs, uses, program_paths, problems)
    for path, line, owner, opt, _ in uses:
        name = opt.split("::")[0]
        if verbose:
            print(f"{path}:{line}: --{opt} -> {owner or '(any)'}", file=sys.stderr)
        if re.fullmatch(r"[A-Z][A-Z0-9_]*", name):
            continue  # a placeholder: --NAME=V
        if opt.startswith("ns3::"):
            prog = owner if owner in known else \
                next((k for k, v in known.items() if "PrintAttributes" in v), None)
            if prog and not attribute_exists(program_paths[prog], opt, attr_cache):
                problems.add(path, line, f"--{opt}: no such attribute ({prog} "
                             "--PrintAttributes)")
        elif owner and owner.startswith("script:"):
            text = script_text.get(owner[7:])
            if text is not None and f"--{name}" not in text:
                problems.add(path, line, f"--{name} is not an option of {owner[7:]}")
        elif owner in known:
            if name not in known[owner]:
                problems.add(path, line, f"--{name} is not an option of {owner} "
                             "(not in its --PrintHelp)")
        elif owner in unreadable:
            if owner not in reported:
                reported.add(owner)
                problems.add(path, line, f"--{name} of {owner}: cannot read {owner}'s options "
                             f"({program_paths[owner]} {unreadable[owner]})")
        elif owner:
            print(f"{path}:{line}: note: --{name} of {owner} not checked: {owner} not given",
                  file=sys.stderr)
        elif name not in union and name not in script_opts and name not in TOOL_OPTIONS:
            if complete:
                problems.add(path, line, f"--{name} is an option of no program, script or tool")
            else:
                print(f"{path}:{line}: note: --{name} not checked: not every program of "
                      "examples/ and bench/ was given and read", file=sys.stderr)
    for name, why in sorted(unreadable.items()):
        if name not in reported:
            print(f"note: {name}: no options read ({why})", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."))
    ap.add_argument("--options", action="store_true",
                    help="check the options the docs name against the programs' --PrintHelp")
    ap.add_argument("--program", action="append", default=[], metavar="NAME=PATH",
                    help="a program whose options the docs may name (repeatable)")
    ap.add_argument("--verbose", action="store_true",
                    help="with --options: print every option found and whose it is taken to be")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    problems = Problems()
    docs = {}
    for rel in ["README.md"] + sorted(os.path.relpath(p, root) for p in
                                      glob.glob(os.path.join(root, "doc/*.rst"))):
        if not os.path.isfile(os.path.join(root, rel)):
            print(f"{rel}:1: missing")
            return 1
        docs[rel] = load_doc(os.path.join(root, rel))
    for required in ("doc/adc.rst", "doc/design.rst"):
        if required not in docs:
            print(f"{required}:1: missing")
            return 1
    experiments = adc_experiments(read(os.path.join(root, "adc")))
    if args.options:
        paths = {}
        for p in args.program:
            name, _, path = p.partition("=")
            if not path:
                ap.error(f"--program {p}: expected NAME=PATH")
            paths[name] = path
        check_options(root, docs, problems, paths, args.verbose)
    else:
        check_links(root, docs, problems)
        check_packages(root, docs, problems)
        check_fuzz(root, docs, problems)
        check_paths(root, docs, problems, repo_file_names(root))
        check_tables(root, docs, problems, experiments)
        check_examples_list(root, docs, problems)
        check_layers(root, docs, problems)
        check_mpi_time(root, docs, problems)
        check_section_refs(root, docs, problems)
    for p in problems.items:
        print(p)
    if problems.items:
        print(f"check-docs: {len(problems.items)} problem(s)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
