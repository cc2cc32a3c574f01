#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Make the seed corpus of the fuzz targets (fuzz/corpus/NAME/, NAME from fuzz/targets.txt).

Seeds come from three places:
  - pcaps the experiments wrote (tshark reassembles each TCP direction): HTTP heads for
    "http", whole TCP payload streams (cut to --max-stream bytes) for "http-stream",
    X-Forwarded-For values and header names for "client-ip";
  - the literal inputs of the tests (C string literals in test/*.cc);
  - hand-made edge cases (chunked coding, obs-fold, bare LF, huge Content-Length, pipelining,
    limits, non-client addresses, port and name edge cases).
Files are named by the SHA-1 of their content, as libFuzzer names its corpus; inputs of the
same shape (equal once digits are zeroed) are kept once, so the corpus stays small.

Usage (from the repository root; the pcaps come from runs of the built examples):
  build/optimized/examples/crd-flows --pcap=true --outputDir=/tmp/fz/flows
  build/optimized/examples/adc-core-baseline --accessNets=2 --clientsPerNet=5 --duration=4 \\
      --methods=ROUNDROBIN --outputDir=/tmp/fz/core
  build/optimized/examples/ilb-topologies --duration=2 --pcapAll=true --outputDir=/tmp/fz/ilb
  utils/make-fuzz-corpus.py --clean /tmp/fz/flows /tmp/fz/core /tmp/fz/ilb
Each PCAP argument is a pcap file or a folder searched for *.pcap. --clean empties the
corpus folders first (regressions/ is never touched).
"""
import argparse
import hashlib
import pathlib
import re
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

# Per-target cap on the seeds taken from pcaps (the tests' and hand-made ones always go in).
PCAP_LIMIT = 40


def targets():
    """The target names of fuzz/targets.txt."""
    names = []
    for line in (ROOT / "fuzz" / "targets.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            names.append(line.split("|", 1)[0].strip())
    return names


# ------------------------------------------------------------------------------------ pcaps


def tcp_streams(pcap):
    """Reassembled TCP payload of every direction of every connection in PCAP, as bytes."""
    out = subprocess.run(
        ["tshark", "-n", "-r", str(pcap), "-Y", "tcp.len > 0", "-T", "fields",
         "-e", "tcp.stream", "-e", "ip.src", "-e", "tcp.srcport", "-e", "tcp.seq",
         "-e", "tcp.payload"],
        check=True, capture_output=True, text=True)
    segments = {}
    for line in out.stdout.splitlines():
        parts = line.split("\t")
        if len(parts) != 5 or not parts[4]:
            continue
        stream, src, sport, seq, payload = parts
        segments.setdefault((stream, src, sport), []).append(
            (int(seq), bytes.fromhex(payload.replace(":", ""))))
    streams = []
    for key in sorted(segments):
        data = bytearray()
        start = None
        for seq, payload in sorted(segments[key], key=lambda s: s[0]):
            if start is None:
                start = seq
            offset = seq - start
            if offset + len(payload) <= len(data):
                continue  # a retransmission
            if offset > len(data):
                break  # a hole (capture started late): stop at the gap
            data += payload[len(data) - offset:]
        streams.append(bytes(data))
    return streams


def http_messages(stream):
    """The heads in STREAM, one after the other, skipping Content-Length bodies."""
    heads = []
    pos = 0
    while pos < len(stream):
        end = stream.find(b"\r\n\r\n", pos)
        if end < 0:
            break
        head = stream[pos:end + 4]
        heads.append(head)
        if re.search(rb"(?im)^transfer-encoding:", head):
            break
        m = re.search(rb"(?im)^content-length:[ \t]*([0-9]+)", head)
        pos = end + 4 + (int(m.group(1)) if m else 0)
    return heads


def header_fields(head):
    """(name, value) of every header line of HEAD."""
    fields = []
    for line in head.split(b"\r\n")[1:]:
        if b":" in line:
            name, value = line.split(b":", 1)
            fields.append((name, value.strip(b" \t")))
    return fields


def from_pcaps(paths, max_stream):
    """Seeds per target from the pcaps under PATHS."""
    files = []
    for p in paths:
        p = pathlib.Path(p)
        files += sorted(p.rglob("*.pcap")) if p.is_dir() else [p]
    if files and not shutil.which("tshark"):
        sys.exit("make-fuzz-corpus: tshark is needed to read pcaps (apt-get install tshark)")
    seeds = {"http": [], "http-stream": [], "client-ip": []}
    for pcap in files:
        for stream in tcp_streams(pcap):
            heads = http_messages(stream)
            if not heads:
                continue
            seeds["http"] += heads
            seeds["http-stream"].append(stream_input(stream[:max_stream]))
            for name, value in (f for h in heads for f in header_fields(h)):
                if name.lower() in (b"x-forwarded-for", b"client-ip", b"x-client-ip", b"via"):
                    seeds["client-ip"] += [value, name]
    print(f"make-fuzz-corpus: {len(files)} pcaps", file=sys.stderr)
    return seeds


def stream_input(stream, splits=None, flags=0):
    """An http-stream input: flags byte (low 4 bits = number of split bytes), splits, stream.

    Without SPLITS, the segment sizes are chosen from the stream's hash, so that seeds vary."""
    if splits is None:
        h = hashlib.sha1(stream).digest()
        splits = [h[1] % 64, h[2], h[3] % 16][: 1 + h[0] % 3]
    return bytes([flags | len(splits)]) + bytes(splits) + stream


# ------------------------------------------------------------------------------------ tests

ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "0": "\0", "\\": "\\", '"': '"', "'": "'",
           "a": "\a", "b": "\b", "f": "\f", "v": "\v", "?": "?"}


def c_string_literals(text):
    """The string literals of C++ source TEXT, adjacent literals concatenated, as bytes."""
    literals = []
    # A run of literals separated only by white space (and line comments) is one string.
    run = re.compile(r'"((?:[^"\\\n]|\\.)*)"(?:(?:\s|//[^\n]*)*"((?:[^"\\\n]|\\.)*)")*')
    piece = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
    for m in run.finditer(text):
        literals.append(b"".join(decode_c(p) for p in piece.findall(m.group(0))))
    return literals


def decode_c(body):
    """The bytes of a C string literal's BODY (between the quotes)."""
    out = bytearray()
    i = 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out += c.encode()
            i += 1
            continue
        e = body[i + 1]
        if e == "x":
            m = re.match(r"[0-9a-fA-F]+", body[i + 2:])
            out.append(int(m.group(0), 16) & 0xFF)
            i += 2 + len(m.group(0))
        elif e in "01234567" and re.match(r"[0-7]{1,3}", body[i + 1:]):
            m = re.match(r"[0-7]{1,3}", body[i + 1:])
            out.append(int(m.group(0), 8) & 0xFF)
            i += 1 + len(m.group(0))
        else:
            out += ESCAPES.get(e, e).encode()
            i += 2
    return bytes(out)


def test_literals(names):
    """String literals of the test files NAMES (under test/)."""
    lits = []
    for n in names:
        path = ROOT / "test" / n
        if path.exists():
            lits += c_string_literals(path.read_text())
    return lits


def from_tests():
    """Seeds per target from the tests' literal inputs."""
    seeds = {t: [] for t in targets()}
    http_tests = ["adc-http-message-test.cc", "adc-http-apps-test.cc", "adc-http-apps-responses-test.cc",
                  "crd-cache-server-test.cc",
                  "crd-lower-tier-test.cc", "adc-health-monitor-test.cc"]
    for lit in test_literals(http_tests):
        if re.search(rb"HTTP/\d", lit) and len(lit) > 8:
            seeds["http"].append(lit)
            seeds["http-stream"].append(stream_input(lit))
    for lit in test_literals(["adc-port-range-test.cc", "crd-lower-tier-test.cc",
                              "crd-flows-test.cc", "ilb-appliance-test.cc", "ilb-appliance-nat-test.cc",
                              "ilb-appliance-service-test.cc"]):
        if re.fullmatch(rb"[ 0-9+\-][ 0-9a-z+\-]{0,23}", lit) and re.search(rb"[0-9]", lit):
            seeds["port-range"].append(lit)
    for lit in test_literals(["crd-lower-tier-test.cc", "crd-cache-server-test.cc",
                              "crd-flows-test.cc", "adc-http-apps-test.cc",
                              "adc-http-apps-responses-test.cc"]):
        if re.fullmatch(rb"[0-9., \t]{1,40}", lit) and b"." in lit:
            seeds["client-ip"].append(lit)
        elif re.fullmatch(rb"[A-Za-z][A-Za-z0-9-]*-(For|IP|Ip)", lit):
            seeds["client-ip"].append(lit)
    for lit in test_literals(["adc-lb-method-test.cc", "adc-persistence-table-test.cc",
                              "adc-policy-routing-test.cc", "adc-policy-routing-local-test.cc",
                              "ilb-appliance-test.cc", "ilb-appliance-nat-test.cc",
                              "ilb-appliance-service-test.cc", "crd-lower-tier-test.cc"]):
        if re.fullmatch(rb"[A-Za-z][A-Za-z_/,\-]{1,39}", lit) and (
                lit.upper() == lit or lit.startswith(b"hash-") or b"," in lit):
            seeds["method-name"].append(lit)
    return seeds


# ------------------------------------------------------------------------------- hand-made


def model_names():
    """Configuration names the model's sources list (LB methods, persistence, services)."""
    names = set()
    lb = (ROOT / "model" / "adc-lb-method.cc").read_text()
    names.update(re.findall(r'\{"([A-Za-z-]+)",', lb))
    pers = (ROOT / "model" / "adc-persistence-table.cc").read_text()
    for m in re.finditer(r"(?:kTypeNames|kServiceTypes)\s*=\s*\{([^}]*)\}", pers):
        names.update(re.findall(r'"([^"]+)"', m.group(1)))
    ilb = (ROOT / "model" / "ilb-appliance.cc").read_text()
    m = re.search(r"kAlgorithms\s*=\s*\{([^}]*)\}", ilb)
    if m:
        names.update(re.findall(r'"([^"]+)"', m.group(1)))
    return sorted(n.encode() for n in names)


def hand_made():
    """Edge cases written by hand, per target."""
    req = b"GET /obj/1 HTTP/1.1\r\nHost: www.example.com\r\n"
    resp = b"HTTP/1.1 200 OK\r\nServer: origin\r\n"
    limit = 16384
    http = [
        req + b"\r\n",
        req + b"Transfer-Encoding: chunked\r\n\r\n",
        resp + b"Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        resp + b"Transfer-Encoding: gzip, chunked\r\n\r\n",
        req + b"X-Folded: a\r\n  b\r\n\r\n",                 # obs-fold
        req + b"X-Folded: a\r\n\tb\r\n\r\n",
        b"GET / HTTP/1.1\nHost: a\n\n",                          # bare LF
        b"GET / HTTP/1.1\r\nHost: a\n\r\n",
        b"GET / HTTP/1.1\rHost: a\r\n\r\n",                      # bare CR
        req + b"Content-Length: 1099511627776\r\n\r\n",          # 2^40, the limit
        req + b"Content-Length: 1099511627777\r\n\r\n",          # 2^40 + 1
        req + b"Content-Length: 99999999999999999999999999\r\n\r\n",
        req + b"Content-Length: 18446744073709551616\r\n\r\n",   # 2^64
        req + b"Content-Length: 5\r\nContent-Length: 005\r\n\r\n",
        req + b"Content-Length: 5, 5\r\n\r\n",
        req + b"Content-Length: +5\r\n\r\n",
        req + b"Content-Length:5\r\nX:y\r\n\r\n",                # canonical form is longer
        req + b"X-Forwarded-For: 10.0.0.2, 192.0.2.7\r\n\r\n",
        req + b"Name : v\r\n\r\n",
        req + b": empty-name\r\n\r\n",
        req + b"X: \x80\xff obs-text\r\n\r\n",
        b"HTTP/1.1 204\r\n\r\n",
        b"HTTP/1.0 599 \r\n\r\n",
        b"HTTP/1.1 600 Too High\r\n\r\n",
        b"HTTP/1.1 200  two spaces\r\n\r\n",
        b"HTTP/2 200 OK\r\n\r\n",
        b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
        b"CONNECT origin:443 HTTP/1.1\r\nHost: origin:443\r\n\r\n",
        b"OPTIONS * HTTP/1.1\r\n\r\n",
        b"GET http://a/b?c=d#e HTTP/1.1\r\n\r\n",
        b"\r\nGET / HTTP/1.1\r\n\r\n",                          # leading empty line
        # the head size limit: exactly at it, one byte over, and "a:b" heads that grow when
        # re-serialized in canonical form past it
        b"GET / HTTP/1.1\r\nX: " + b"a" * (limit - 23) + b"\r\n\r\n",
        b"GET / HTTP/1.1\r\nX: " + b"a" * (limit - 22) + b"\r\n\r\n",
        b"GET / HTTP/1.1\r\n" + b"".join(b"H%d:%s\r\n" % (i, b"v" * 157) for i in range(100))
        + b"\r\n",
        b"GET / HTTP/1.1\r\n" + b"".join(b"H%d: v\r\n" % i for i in range(101)) + b"\r\n",
    ]
    pipelined = (b"GET /a HTTP/1.1\r\nHost: h\r\n\r\n"
                 b"POST /b HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello"
                 b"HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\n0123456789ab")
    http.append(pipelined)  # a head followed by more messages: only the first is parsed
    stream = [
        stream_input(pipelined, []),                                  # byte by byte
        stream_input(pipelined, [0, 6, 27, 255]),
        stream_input(pipelined, [9], flags=0x10),                     # ignore bodies (HEAD)
        stream_input(pipelined, [2, 3], flags=0x20),                  # pop after each segment
        stream_input(pipelined + b"GET /c HTTP/1.1\r\nBAD\r\n\r\nGET /d HTTP/1.1\r\n\r\n", [4]),
        stream_input(resp + b"Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
                     + pipelined, [7, 1]),
        stream_input(resp + b"Transfer-Encoding: chunked\r\n\r\n1;ext=1\r\na\r\n0\r\n"
                     b"Trailer: x\r\n\r\n", [3]),
        stream_input(resp + b"Content-Length: 1099511627776\r\n\r\n" + b"z" * 100, [50]),
        stream_input(req + b"Content-Length: 3\r\n\r\nabcGET / HTTP/1.1\n\n", [1, 2]),
        stream_input(b"GET / HTTP/1.1\r\nX: " + b"a" * 5000, [255, 255]),
        stream_input(b"HTTP/1.1 304 Not Modified\r\nContent-Length: 4\r\n\r\n" * 3, [15],
                     flags=0x30),
    ]
    client_ip = [
        b"10.0.0.2", b"10.1.0.9, 192.0.2.7", b" \t10.0.0.2 \t, x", b"10.0.0.2,", b",10.0.0.2",
        b"0.0.0.0", b"255.255.255.255", b"224.0.0.1", b"239.255.255.255", b"223.255.255.255",
        b"1.2.3.256", b"01.02.03.004", b"001.002.003.004", b"1.2.3.0001", b"1.2.3", b"1.2.3.4.5",
        b"1..3.4", b"1.2.3.4 ", b"1.2.3.4:80", b"[2001:db8::1]", b"2001:db8::1", b"unknown",
        b"", b" ", b"\t", b"10.0.0.2\x00", b"\xff\xff\xff\xff",
        b"X-Forwarded-For", b"x-forwarded-for", b"Client-IP", b"X Forwarded", b"X-Forwarded-For:",
        b"Content-Length", b"Transfer-Encoding", b"Host", b"!#$%&'*+-.^_`|~", b"\x7f", b"\xc3\xa9",
    ]
    port_range = [
        b"1024-65535", b"1-65535", b"1", b"65535", b"65536", b"0", b"0-0", b"00080", b"000080",
        b"80-80", b" 80 - 81 ", b"\t80\n", b"80-", b"-80", b"-", b"", b"1-2-3", b"+5-9", b"5--9",
        b"2048-1024", b"1024-16383", b"17152-33279", b"99999-1", b"4294967377", b"1e3",
        b"0x50", b"80 81", b"\xff-\xff", b"80\x00-81",
    ]
    names = model_names()
    method_name = names + [n.lower() for n in names] + [
        b"RoundRobin", b"Hash-IP-Port", b"sourceiphash", b"UDP/IP", b"udp/ip", b"SSL_BRIDGE",
        b"ROUNDROBIN,URLHASH", b"ROUNDROBIN,,URLHASH,", b",", b"MAGLEV,FOO", b"ROUND ROBIN",
        b"ROUNDROBIN ", b" ROUNDROBIN", b"FASTESTRESPONSE", b"RULE", b"", b"LEASTCONNECTIONS",
        b"\xc4\xb1", b"SOURCEIP\x00", b"hash-ip-vip,hash-ip,hash-ip-port,SOURCEIPHASH",
    ]
    return {"http": http, "http-stream": stream, "client-ip": client_ip,
            "port-range": port_range, "method-name": method_name}


# ------------------------------------------------------------------------------------- main


def shape(data):
    """Pcap inputs equal once every digit run is zeroed are kept once."""
    return re.sub(rb"[0-9]+", b"0", data)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pcaps", nargs="*", help="pcap files or folders holding *.pcap")
    ap.add_argument("--out", default=str(ROOT / "fuzz" / "corpus"), help="corpus root")
    ap.add_argument("--max-stream", type=int, default=4096,
                    help="cut http-stream seeds to this many bytes (default 4096)")
    ap.add_argument("--clean", action="store_true", help="empty the corpus folders first")
    args = ap.parse_args()

    out = pathlib.Path(args.out)
    pcap = from_pcaps(args.pcaps, args.max_stream)
    tests = from_tests()
    hand = hand_made()
    for name in targets():
        folder = out / name
        if args.clean and folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True, exist_ok=True)
        chosen = {}
        for data in tests.get(name, []) + hand.get(name, []):
            chosen.setdefault(hashlib.sha1(data).hexdigest(), data)
        shapes = {shape(d) for d in chosen.values()}
        taken = 0
        for data in sorted(set(pcap.get(name, [])), key=lambda d: hashlib.sha1(d).hexdigest()):
            if taken >= PCAP_LIMIT or shape(data) in shapes:
                continue
            shapes.add(shape(data))
            chosen.setdefault(hashlib.sha1(data).hexdigest(), data)
            taken += 1
        for digest, data in chosen.items():
            (folder / digest).write_bytes(data)
        print(f"make-fuzz-corpus: {name}: {len(chosen)} seeds ({taken} from pcaps) in {folder}",
              file=sys.stderr)


if __name__ == "__main__":
    main()
