# SPDX-License-Identifier: GPL-2.0-only
"""Input checks shared by the utils/ result scripts (adc-plot.py, ilb-plot.py, cs-plot.py,
slb-plot.py, gslb-plot.py, adc-merge-ranks.py, adc-sweep.py).

Bad input ends a script with one line on stderr, `SCRIPT: error: WHAT`, and exit status 2
(BAD_INPUT), never a traceback: WHAT names the file, and the line when a row is at fault
(`FILE:LINE: reason`, the form compilers use). The scripts run their main() through run(),
which turns InputError and the operating system's errors on their inputs and outputs (a
missing file, an unwritable folder) into that line; any other exception is a bug in the
script and keeps its traceback.

read_csv() checks a CSV file against the columns a script uses: the header names them, every
row has as many fields as the header, and typed columns hold what they must (a finite number,
a count, one of a few words). It returns the rows as dicts of converted values, each knowing
its file and line (where()), so later checks can name them too.
"""
import csv
import math
import os
import pathlib
import sys

BAD_INPUT = 2

# Values shown in messages are cut to this many characters: a 2 MB field stays readable.
SHOWN = 60
HEADER_SHOWN = 200


class InputError(Exception):
    """Bad input; the message says where (file, line) and what is wrong."""


def show(value, limit=SHOWN):
    """A value as a message quotes it: control bytes escaped, long values cut."""
    text = str(value)
    cut = len(text) > limit
    text = text[:limit]
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return "'" + text + ("...' (cut)" if cut else "'")


def run(prog, main, argv=None):
    """Calls main(argv); bad input becomes `prog: error: ...` and exit status 2."""
    try:
        status = main(sys.argv[1:] if argv is None else argv)
    except InputError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return BAD_INPUT
    except OSError as e:
        # A file that cannot be read or written (missing, a folder, no permission, disk full).
        where = e.filename if e.filename is not None else ""
        reason = e.strerror or str(e)
        print(f"{prog}: error: {where}: {reason}" if where else f"{prog}: error: {reason}",
              file=sys.stderr)
        return BAD_INPUT
    except KeyboardInterrupt:
        return 130
    return status or 0


def usage_error(prog, doc, message=None):
    """Wrong arguments: the message (if any) and the usage on stderr, exit status 2."""
    if message:
        print(f"{prog}: error: {message}", file=sys.stderr)
    # The docstring's usage block (from "Usage:" to the blank line); --help prints it all.
    lines = doc.strip().splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("Usage:")), 0)
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    print("\n".join(lines[start:end]), file=sys.stderr)
    return BAD_INPUT


# --------------------------------------------------------------------------- kinds of values
class Kind:
    """What a typed column holds: a converter that raises ValueError, and its description."""

    def __init__(self, description, convert):
        self.description = description
        self.convert = convert


def _number(text):
    v = float(text)
    if not math.isfinite(v):
        raise ValueError(text)
    return v


def _count(text):
    v = int(text)
    if v < 0:
        raise ValueError(text)
    return v


TEXT = Kind("text", str)
NUMBER = Kind("a finite number", _number)
COUNT = Kind("a whole number >= 0", _count)


def share():
    """A fraction between 0 and 1."""

    def convert(text):
        v = _number(text)
        if not 0.0 <= v <= 1.0:
            raise ValueError(text)
        return v

    return Kind("a number from 0 to 1", convert)


def one_of(*names):
    def convert(text):
        if text not in names:
            raise ValueError(text)
        return text

    return Kind("one of " + ", ".join(names), convert)


def or_words(kind, *words):
    """kind, or one of the given words (kept as text): e.g. a time or 'never'."""

    def convert(text):
        return text if text in words else kind.convert(text)

    return Kind(kind.description + " or " + " or ".join(repr(w) for w in words), convert)


# --------------------------------------------------------------------------- files
class Row(dict):
    """One CSV row: column -> value (converted for typed columns), and where it came from."""

    __slots__ = ("path", "line")

    def where(self):
        return f"{self.path}:{self.line}"


def need_folder(folder, what="results folder"):
    """The folder exists and holds at least one CSV file; returns it as a Path."""
    d = pathlib.Path(folder)
    if not d.exists():
        raise InputError(f"{d}: no such {what}")
    if not d.is_dir():
        raise InputError(f"{d}: not a folder (expected a {what})")
    if not any(p.is_file() for p in d.glob("*.csv")):
        raise InputError(f"{d}: no CSV file in it (is it an experiment's {what}?)")
    return d


def read_text(path):
    """A file's text (UTF-8); a missing or undecodable file is an InputError naming it."""
    path = pathlib.Path(path)
    _need_file(path)
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise InputError(f"{path}:{line}: not UTF-8 text (byte 0x{data[e.start]:02x})") from None


def _need_file(path):
    if not path.exists():
        raise InputError(f"{path}: no such file")
    if path.is_dir():
        raise InputError(f"{path}: a folder, not a file")


def _text_lines(path, f):
    """The file's lines as text, one at a time (a large trace is never whole in memory); a
    line that is not UTF-8 is an InputError naming it."""
    for n, raw in enumerate(f, 1):
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise InputError(f"{path}:{n}: not UTF-8 text (byte 0x{raw[e.start]:02x})") from None


def read_csv(path, columns=None, need_rows=True, keep=None, declared_only=False):
    """The rows of a CSV file whose header names every column of `columns` (name -> Kind).

    Every row must have as many fields as the header; typed columns are converted. Columns
    the header has beyond `columns` are kept as text (a newer program may add some), or
    dropped with declared_only (less memory for a large trace). Rows for which keep(row) is
    false are checked but not returned. With need_rows, a file with a header and no row is an
    error. Returns (header, rows)."""
    path = pathlib.Path(path)
    columns = columns or {}
    _need_file(path)
    rows, count = [], 0
    with open(path, "rb") as f:
        reader = csv.reader(_text_lines(path, f))
        try:
            header = next(reader, None)
        except csv.Error as e:
            raise InputError(f"{path}:1: malformed CSV header: {e}") from None
        if header is None:
            raise InputError(f"{path}: empty file (no header line)")
        check_header(path, header, columns)
        line = reader.line_num
        while True:
            start = line + 1
            try:
                fields = next(reader)
            except StopIteration:
                break
            except csv.Error as e:
                raise InputError(f"{path}:{reader.line_num}: malformed CSV: {e}") from None
            line = reader.line_num
            row = make_row(path, start, header, fields, columns, declared_only)
            count += 1
            if keep is None or keep(row):
                rows.append(row)
    if need_rows and not count:
        raise InputError(f"{path}: no data rows, only the header line")
    return header, rows


def check_header(path, header, columns):
    if not header or header == [""]:
        raise InputError(f"{path}:1: empty header line (expected column names: "
                         f"{','.join(columns)})")
    seen = set()
    for name in header:
        if name in seen:
            raise InputError(f"{path}:1: column {show(name)} appears twice in the header")
        seen.add(name)
    missing = [c for c in columns if c not in seen]
    if missing:
        raise InputError(f"{path}:1: no column {', '.join(show(c) for c in missing)} in the "
                         f"header {show(','.join(header), HEADER_SHOWN)}; needed: "
                         f"{','.join(columns)}")


def make_row(path, line, header, fields, columns, declared_only=False):
    if len(fields) != len(header):
        what = "an empty line" if not fields else f"{len(fields)} fields"
        raise InputError(f"{path}:{line}: {what} where the header has {len(header)}: a "
                         "truncated or malformed row")
    if declared_only:
        row = Row((h, v) for h, v in zip(header, fields) if h in columns)
    else:
        row = Row(zip(header, fields))
    row.path, row.line = path, line
    for name, kind in columns.items():
        try:
            row[name] = kind.convert(row[name])
        except ValueError:
            raise InputError(f"{path}:{line}: column '{name}': {show(row[name])} is not "
                             f"{kind.description}") from None
    return row


def check_writable(folder):
    """The plots go into folder: it must be writable (an error names it before any work)."""
    if not os.access(folder, os.W_OK | os.X_OK):
        raise InputError(f"{folder}: folder not writable (the plots are written into it)")


def setup_matplotlib():
    """matplotlib without a display, with the scripts' deterministic defaults."""
    try:
        import matplotlib
    except ImportError:
        raise InputError("matplotlib is not installed: apt-get install python3-matplotlib "
                         "(and run the script with /usr/bin/python3)") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"figure.dpi": 110, "savefig.bbox": "tight", "svg.hashsalt": "adc"})
    return plt


def legend_outside(ax, **kwargs):
    """A legend to the right of the axes, where it can hide no data (savefig's tight bounding
    box widens the figure to hold it). Does nothing when nothing is labelled."""
    handles, labels = ax.get_legend_handles_labels()
    if not handles:
        return None
    options = {"fontsize": 8, "loc": "upper left", "bbox_to_anchor": (1.01, 1.0),
               "borderaxespad": 0.0}
    options.update(kwargs)
    return ax.legend(**options)


def no_data_note(ax, text):
    """Says in the axes why they are empty, so an empty figure is never mistaken for data."""
    ax.text(0.5, 0.5, text, transform=ax.transAxes, ha="center", va="center", fontsize=10,
            color="grey")


def integer_ticks(axis):
    """Whole-number ticks on an axis of counts (no 2.5 requests)."""
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True))
