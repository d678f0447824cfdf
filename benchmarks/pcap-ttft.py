#!/usr/bin/env python3
"""Per-request TTFT as the wire saw it, from a loopback capture (tcpdump -i lo -w F.pcap port P).

Every request of a client that connects per request (llama-server closes after each stream) is one
TCP connection; for each, the kernel's capture timestamps give:
  syn        the client's SYN (the client asked for a connection)
  req_first  the first request byte, req_last the last one (the request was on the wire)
  head       the first response byte (llama-server sends its head before the first token)
  first_data the first response segment holding an SSE 'data: {' event (the first chunk)
All in ms from syn. The medians of a run, set against the client's own median TTFT, separate the
client's share (client TTFT - wire TTFT) from the server's (first_data - req_last), so two clients
can be compared on a loaded machine where the server's own time varies from run to run.

usage: pcap-ttft.py FILE.pcap PORT [RESULT.json]   (prints one line of medians)
RESULT.json: the client's result saved with --save-detailed ('ttfts' in s, request order); at
conc 1 its last len(ttfts) connections are those requests, so the client's share is per request.
"""
import json
import statistics
import struct
import sys


def packets(path):
    with open(path, "rb") as f:
        head = f.read(24)
        magic = struct.unpack("<I", head[:4])[0]
        if magic == 0xA1B23C4D:
            scale = 1e-9
        elif magic == 0xA1B2C3D4:
            scale = 1e-6
        else:
            raise SystemExit(f"{path}: not a little-endian pcap file")
        linktype = struct.unpack("<I", head[20:24])[0]
        while True:
            h = f.read(16)
            if len(h) < 16:
                return
            sec, frac, incl, _orig = struct.unpack("<IIII", h)
            data = f.read(incl)
            t = sec + frac * scale
            if linktype == 1:      # Ethernet (Linux lo)
                if data[12:14] != b"\x08\x00":
                    continue
                ip = data[14:]
            elif linktype == 113:  # Linux cooked
                ip = data[16:]
            elif linktype == 276:  # Linux cooked v2
                ip = data[20:]
            else:
                raise SystemExit(f"link type {linktype} not handled")
            if not ip or ip[0] >> 4 != 4:
                continue
            ihl = (ip[0] & 15) * 4
            total = struct.unpack(">H", ip[2:4])[0]
            if ip[9] != 6:
                continue
            tcp = ip[ihl:total]
            sport, dport = struct.unpack(">HH", tcp[:4])
            off = (tcp[12] >> 4) * 4
            flags = tcp[13]
            yield t, sport, dport, flags, tcp[off:]


def main():
    path, port = sys.argv[1], int(sys.argv[2])
    ttfts = json.load(open(sys.argv[3]))["ttfts"] if len(sys.argv) > 3 else None
    conns = {}
    for t, sport, dport, flags, payload in packets(path):
        if dport == port:
            c = conns.setdefault(sport, {})
            if flags & 0x02 and not flags & 0x10:  # SYN
                conns[sport] = c = {"syn": t}
            if payload:
                c.setdefault("req_first", t)
                c["req_last"] = t
        elif sport == port:
            c = conns.get(dport)
            if c is None or not payload:
                continue
            c.setdefault("head", t)
            if "first_data" not in c and b"data: {" in payload:
                c["first_data"] = t
    rows = [c for c in conns.values() if "syn" in c and "first_data" in c and "req_last" in c]
    rows.sort(key=lambda c: c["syn"])
    if not rows:
        raise SystemExit("no complete request in the capture")
    med = lambda k: statistics.median((c[k] - c["syn"]) * 1e3 for c in rows)
    server = statistics.median((c["first_data"] - c["req_last"]) * 1e3 for c in rows)
    wire = med("first_data")
    line = (f"requests={len(rows)} median ms from SYN: req_first={med('req_first'):.3f}"
            f" req_last={med('req_last'):.3f} head={med('head'):.3f} first_data={wire:.3f}"
            f" | server (req_last->first_data)={server:.3f}")
    if ttfts:
        ttfts = [x * 1e3 for x in ttfts if x]
        mine = rows[-len(ttfts):]
        share = [x - (c["first_data"] - c["syn"]) * 1e3 for x, c in zip(ttfts, mine)]
        line += (f" | client TTFT {statistics.median(ttfts):.3f}, client share (TTFT - wire,"
                 f" per request) median {statistics.median(share):.3f}"
                 f" p10 {sorted(share)[len(share) // 10]:.3f}")
    print(line)


if __name__ == "__main__":
    main()
