"""A finding as a fleet record, and the checks every record read back from Redis must pass.

A finding in Redis is keyed by its *failure signature* (`properties.signature`: the
classification, reference build, candidate build and cause of each failure, plus the
deliberate faults it was made with), so the same bug found by ten machines on ten
different programs is one finding. Its reproducer directory travels as one packed blob
(zlib-compressed JSON of relative path -> base64 contents).

Everything read from Redis is untrusted: any process that can reach the server can write
there. `unpack` and `parse_*` refuse oversized, malformed or path-escaping data with a
one-line `RecordError`, never a traceback and never a file outside the destination.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fuzz import properties

#: limits on what is written to and accepted from Redis
MAX_META_BYTES = 256 * 1024
MAX_PACKED_BYTES = 16 * 1024 * 1024
MAX_UNPACKED_BYTES = 64 * 1024 * 1024
MAX_FILES = 2000
MAX_SIGHTING_BYTES = 4096
_PART = re.compile(r"^[A-Za-z0-9._+-]{1,128}$")
_SIG_ID = re.compile(r"^[0-9a-f]{16}$")


class RecordError(ValueError):
    """A record that cannot be written or must not be trusted (the message is one line)."""


def signature_of(meta: dict[str, Any]) -> tuple[str, str]:
    """(rendered signature, 16-hex id) of a finding's metadata (`finding.json`)."""
    try:
        sig = frozenset(
            (str(f["classification"]), str(f["reference"]), str(f["candidate"]), str(f.get("cause", "")))
            for f in meta["failures"]
        )
        faults = sorted(str(f) for f in meta.get("faults", []) or [])
    except (KeyError, TypeError, AttributeError) as exc:
        raise RecordError(f"no usable failures in the finding ({type(exc).__name__})") from None
    text = properties.render_signature(sig) + (f" [faults: {','.join(faults)}]" if faults else "")
    return text, hashlib.sha256(text.encode()).hexdigest()[:16]


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_CONTROL_OR_NEWLINE = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def clean(text: object, *, lines: bool = False) -> str:
    """`text` safe to print: control characters (terminal escapes among them) become `?`;
    newlines and tabs survive only with `lines=True`."""
    return (_CONTROL if lines else _CONTROL_OR_NEWLINE).sub("?", str(text))


def is_plain_name(text: str) -> bool:
    """A single safe path component (letters, digits, `._+-`), as a local finding id must be."""
    return bool(_PART.match(text)) and text not in (".", "..")


def is_sig_id(text: str) -> bool:
    return bool(_SIG_ID.match(text))


# ------------------------------------------------------------------ the reproducer blob


def pack(directory: Path) -> bytes:
    """Every file under a finding directory, packed; over the limits is a RecordError."""
    files: dict[str, bytes] = {}
    total = 0
    for path in sorted(p for p in directory.rglob("*") if p.is_file() and not p.is_symlink()):
        rel = path.relative_to(directory).as_posix()
        files[rel] = path.read_bytes()
        total += len(files[rel])
        if total > MAX_UNPACKED_BYTES or len(files) > MAX_FILES:
            raise RecordError(f"reproducer too large to share (over {MAX_UNPACKED_BYTES >> 20} MiB or {MAX_FILES} files)")
    return pack_files(files)


def pack_files(files: dict[str, bytes]) -> bytes:
    """Files (relative path -> contents) as one blob; over `MAX_PACKED_BYTES` is a RecordError."""
    for rel in files:
        _check_path(rel)
    doc = {rel: base64.b64encode(data).decode("ascii") for rel, data in files.items()}
    blob = zlib.compress(json.dumps({"files": doc}, sort_keys=True).encode(), 6)
    if len(blob) > MAX_PACKED_BYTES:
        raise RecordError(f"reproducer too large to share ({len(blob)} bytes packed, limit {MAX_PACKED_BYTES})")
    return blob


def unpack(blob: bytes) -> dict[str, bytes]:
    """The files of a packed reproducer, checked: size (also after decompression), paths, encoding."""
    if len(blob) > MAX_PACKED_BYTES:
        raise RecordError(f"reproducer blob of {len(blob)} bytes is over the limit of {MAX_PACKED_BYTES}")
    inflater = zlib.decompressobj()
    try:
        raw = inflater.decompress(blob, MAX_UNPACKED_BYTES * 2)
    except zlib.error as exc:
        raise RecordError(f"reproducer blob is not zlib data ({exc})") from None
    if inflater.unconsumed_tail:
        raise RecordError("reproducer blob unpacks to more than the size limit")
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RecordError(f"reproducer blob is not JSON ({type(exc).__name__})") from None
    files = doc.get("files") if isinstance(doc, dict) else None
    if not isinstance(files, dict) or not files:
        raise RecordError("reproducer blob has no files")
    if len(files) > MAX_FILES:
        raise RecordError(f"reproducer has {len(files)} files (limit {MAX_FILES})")
    out: dict[str, bytes] = {}
    total = 0
    for rel, data in files.items():
        if not isinstance(rel, str) or not isinstance(data, str):
            raise RecordError("reproducer blob has a non-text entry")
        _check_path(rel)
        try:
            content = base64.b64decode(data, validate=True)
        except (binascii.Error, ValueError):
            raise RecordError(f"reproducer file {rel!r} is not base64") from None
        total += len(content)
        if total > MAX_UNPACKED_BYTES:
            raise RecordError("reproducer unpacks to more than the size limit")
        out[rel] = content
    if "finding.json" not in out:
        raise RecordError("reproducer has no finding.json")
    return out


def _check_path(rel: str) -> None:
    parts = rel.split("/")
    if rel.startswith("/") or len(parts) > 4 or not all(_PART.match(p) and p not in (".", "..") for p in parts):
        raise RecordError(f"reproducer path {rel[:80]!r} is not a plain relative path")


def write_files(files: dict[str, bytes], dest: Path) -> None:
    """Write checked files under `dest` (which exists and is empty); `reproduce.sh` stays executable."""
    for rel, content in files.items():
        target = dest.joinpath(*rel.split("/"))
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
        if rel == "reproduce.sh":
            target.chmod(0o755 & ~_umask())


def _umask() -> int:
    import os

    mask = os.umask(0)
    os.umask(mask)
    return mask


# ------------------------------------------------------------------ records read back


@dataclass
class FleetFinding:
    """One fleet finding as read from Redis (`problem` says why a bad record is refused)."""

    id: str
    signature: str = ""
    classification: str = "?"
    summary: str = ""
    first_seen: float = 0.0
    last_seen: float = 0.0
    sightings: int = 0
    machines: tuple[str, ...] = ()
    meta: dict[str, Any] = field(default_factory=dict)
    problem: str | None = None


def parse_finding(sig_id: str, fields: dict[bytes, bytes]) -> FleetFinding:
    """A finding's hash fields, checked; raises RecordError (one line) on anything malformed."""
    if not fields:
        raise RecordError("no such finding")
    try:
        text = {k.decode(): v.decode("utf-8") for k, v in fields.items()}
    except UnicodeDecodeError:
        raise RecordError("record is not UTF-8 text") from None
    if len(text.get("meta", "")) > MAX_META_BYTES:
        raise RecordError(f"record metadata is over {MAX_META_BYTES} bytes")
    try:
        meta = json.loads(text["meta"])
        first, last, count = float(text["first_seen"]), float(text["last_seen"]), int(text["sightings"])
        signature = text["signature"]
    except KeyError as exc:
        raise RecordError(f"record lacks {exc.args[0]}") from None
    except (ValueError, json.JSONDecodeError) as exc:
        raise RecordError(f"record field is malformed ({type(exc).__name__})") from None
    if not isinstance(meta, dict) or not isinstance(meta.get("plan"), dict) or not isinstance(meta.get("failures"), list):
        raise RecordError("record metadata is not a finding (plan, failures)")
    _, expected = signature_of(meta)
    if expected != sig_id:
        raise RecordError("record signature does not match its key")
    return FleetFinding(
        id=sig_id,
        signature=clean(signature[:2000]),
        classification=clean(str(meta.get("classification", "?"))[:40]),
        summary=clean(str(meta.get("summary", ""))[:2000]),
        first_seen=first,
        last_seen=last,
        sightings=count,
        meta=meta,
    )


def parse_sighting(raw: bytes) -> dict[str, Any] | None:
    """One sighting, or None when it is oversized or not a JSON object (skipped, not trusted)."""
    if len(raw) > MAX_SIGHTING_BYTES:
        return None
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None
    return doc if isinstance(doc, dict) else None


def known(meta: dict[str, Any], module: str | None = None) -> str | None:
    """The known open bug (`fuzz/regressions`) that explains every failure of a finding, as
    locally (`known_bug`); None when it is new or its failures cannot be read. `module`: the
    finding's program text; without it (a listing reads no reproducers) the symbols its
    diffs name stand in for the program's own names."""
    from fuzz.regressions import known_bug
    from fuzz.strategies import FuzzCase

    try:
        failures = [
            properties.Failure(**{k: str(f.get(k, "")) for k in ("classification", "reference", "candidate", "summary", "detail", "cause")})
            for f in meta["failures"]
        ]
        plan = properties.CheckPlan.from_json(meta["plan"])
    except (KeyError, TypeError, ValueError, AttributeError, AssertionError):
        return None
    # the recognisers judge the failures (their diffs), not the program text
    if module is None:
        module = " ".join("@" + ln.split(" UND ", 1)[1].split()[0] for f in failures for ln in f.detail.splitlines() if " UND " in ln)
    report = properties.Report(FuzzCase(module, None, str(meta.get("origin", "fleet"))), plan, frozenset(), failures=failures)
    return known_bug(report)
