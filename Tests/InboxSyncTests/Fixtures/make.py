#!/usr/bin/env python3
"""Writes the archives PassArchiveTests reads (run again to remake them; fixed dates, so the same
bytes every run): a pass, an archive without pass.json, one whose pass.json is not an object, one
whose pass.json inflates to 64 MiB (a zip bomb), one whose pass.json fails its CRC, and a file that
is no zip at all."""

import io
import json
import os
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATE = (2026, 1, 1, 0, 0, 0)


def archive(name: str, members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as out:
        for member, data in members.items():
            out.writestr(zipfile.ZipInfo(member, date_time=DATE), data, zipfile.ZIP_DEFLATED)
    data = buffer.getvalue()
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)
    return data


PASS = json.dumps({"formatVersion": 1, "passTypeIdentifier": "pass.com.example.loyalty", "serialNumber": "abc123"}).encode()
archive("pass.pkpass", {"pass.json": PASS, "icon.png": b"\x89PNG\r\n\x1a\n" + bytes(64)})
archive("no-pass-json.zip", {"manifest.json": b"{}"})
archive("pass-json-array.zip", {"pass.json": b"[1, 2]"})
archive("zip-bomb.zip", {"pass.json": b" " * (64 << 20)})
# The CRC-32 field of pass.json's local header and central directory entry changed after the fact.
good = bytearray(archive("bad-crc.zip", {"pass.json": PASS}))
crc = zipfile.ZipFile(io.BytesIO(bytes(good))).getinfo("pass.json").CRC.to_bytes(4, "little")
bad = bytes(good).replace(crc, bytes(b ^ 0xFF for b in crc))
with open(os.path.join(HERE, "bad-crc.zip"), "wb") as f:
    f.write(bad)
with open(os.path.join(HERE, "not-a-zip.pkpass"), "wb") as f:
    f.write(b"<html><body>Add to Wallet</body></html>")
