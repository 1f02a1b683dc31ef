"""The fleet store on a real redis-server: dedup across processes, a kill mid-upload, Redis down,
`findings list --redis` from a process that found nothing, untrusted records and candidates,
and the coverage picture (`--status`, `--html`) checked against the store."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from fuzz import findings, properties, shards
from fuzz.fleet import connection, records
from fuzz.fleet.localserver import free_port
from fuzz.fleet.session import PENDING, FleetSession
from fuzz.fleet.store import FleetStore, RunRecord
from fuzz.properties import BuildConfig, CheckPlan
from fuzz.strategies import FuzzCase
from tests.redis_support import RedisServer
from tests.test_fuzz_properties import LLC, PRINTS_42

ROOT = Path(__file__).parent.parent
WRONG = f"sh -c \"sed 's/i64 40/i64 41/' {{in}} > m.ll && {LLC} m.ll -o {{out}}\""
#: a second program with the same bug (the same failure signature), different text
PRINTS_43 = PRINTS_42.replace("@anchor(i64 2)", "@anchor(i64 3)")
CRASHING = 'sh -c "cp {in} {out}.ll; exit 3"'


@pytest.fixture(scope="module")
def two_findings(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two local findings of one bug (a --candidate that miscompiles) on two different programs."""
    root = tmp_path_factory.mktemp("local")
    plan = CheckPlan(opt=2, cost=1, configs=(BuildConfig(opt=2, candidate=WRONG),), opt_check=False)
    paths = []
    for module in (PRINTS_42, PRINTS_43):
        report = properties.check(FuzzCase(module, None, "test"), plan)
        assert report.classification == "wrong-output", report.summary()
        paths.append(findings.save(report, root=root, seed=5, test="unit"))
    assert paths[0] != paths[1]
    return paths[0], paths[1]


@pytest.fixture
def server(tmp_path: Path) -> Any:
    srv = RedisServer(tmp_path).start()
    yield srv
    srv.stop()


def _copy_store(finding: Path, root: Path) -> Path:
    """A findings store holding one finding (as the machine that found it has it)."""
    root.mkdir(parents=True, exist_ok=True)
    shutil.copytree(finding, root / finding.name)
    return root / finding.name


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in (connection.URL_ENV, connection.PASSWORD_ENV)}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    env.update(extra)
    return env


UPLOAD = """
import sys
from pathlib import Path
from fuzz.fleet.session import FleetSession
root, url, name, seed = Path(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
s = FleetSession(url, name='test', strategy='callgraph', seed=seed, root=root)
class R:  # what a campaign result offers the hook
    examples_to_failure = seed
    class stats: examples = seed
s.finding_saved(root / name, R)
print('uploaded', s.uploaded)
"""


def _ember(*args: str, env: dict[str, str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`ember ARGS` in a fresh process (what another machine or a later run is)."""
    return subprocess.run([sys.executable, "-m", "compiler.cli", *args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=300)


@pytest.fixture
def ember_here(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Any:
    """`ember ARGS` in this process (cheaper), with `env` set for the call."""
    from compiler import cli

    def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        with monkeypatch.context() as m:
            for key in (connection.URL_ENV, connection.PASSWORD_ENV, "EMBER_FINDINGS"):
                m.delenv(key, raising=False)
            for key, value in (env or {}).items():
                if key != "PYTHONPATH":
                    m.setenv(key, value)
            try:
                status = cli.main(list(args))
            except SystemExit as exc:
                status = int(exc.code or 0)
        out = capsys.readouterr()
        return subprocess.CompletedProcess(list(args), status, out.out, out.err)

    return run


def test_same_bug_from_two_racing_processes_is_one_finding_listed_by_a_third(
    tmp_path: Path, server: RedisServer, two_findings: tuple[Path, Path], ember_here: Any
) -> None:
    procs = []
    for i, finding in enumerate(two_findings):
        root = tmp_path / f"machine{i}"
        _copy_store(finding, root)
        procs.append(subprocess.Popen(
            [sys.executable, "-c", UPLOAD, str(root), server.url, finding.name, str(10 + i)],
            env=_env(EMBER_MACHINE=f"box{i}"), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        ))
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0 and "uploaded ['" in out, err
    store = FleetStore(server.client())
    ids = store.finding_ids()
    assert len(ids) == 1, ids
    f = store.finding(ids[0], with_sightings=True)
    assert f.sightings == 2 and f.machines == ("box0", "box1") and f.classification == "wrong-output"
    sightings = sorted(f.meta["_sightings"], key=lambda s: s["machine"])
    assert [(s["seed"], s["examples_to_find"]) for s in sightings] == [(10, 10), (11, 11)]
    assert f.first_seen <= f.last_seen
    assert not list((tmp_path / "machine0" / PENDING).glob("*.json")), "uploaded sighting still queued"

    # a third machine that found nothing lists the fleet's findings
    nothing = tmp_path / "empty"
    nothing.mkdir()
    res = _ember("findings", "list", "--redis", server.url, env=_env(EMBER_FINDINGS=str(nothing / "findings")), cwd=nothing)
    assert res.returncode == 0, res.stderr
    row = next(line for line in res.stdout.splitlines() if line.startswith(ids[0]))
    assert "wrong-output" in row and " 2 " in row and "box0,box1" in row
    res = ember_here("findings", "show", ids[0][:6], "--redis", server.url, env=_env())
    assert res.returncode == 0 and "seen      2 time(s) on box0, box1" in res.stdout and "v=43" in res.stdout, res.stderr


KILL = UPLOAD.replace("s = FleetSession", """
import os
from redis.connection import AbstractConnection
orig = AbstractConnection.send_packed_command
def cut(self, command, check_health=True):
    data = command if isinstance(command, bytes) else b''.join(bytes(c) for c in command)
    if len(data) > 4000:  # the upload: half of it reaches Redis, then the process dies
        self.connect()
        self._sock.sendall(data[: len(data) // 2])
        os._exit(9)
    return orig(self, command, check_health)
AbstractConnection.send_packed_command = cut
s = FleetSession""")


def test_kill_mid_upload_leaves_nothing_and_the_next_run_uploads_once(
    tmp_path: Path, server: RedisServer, two_findings: tuple[Path, Path]
) -> None:
    root = tmp_path / "store"
    finding = _copy_store(two_findings[0], root)
    p = subprocess.run([sys.executable, "-c", KILL, str(root), server.url, finding.name, "3"], env=_env(),
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 9, p.stderr
    client = server.client()
    assert not client.keys("ember-fleet:*"), "a killed upload left a partial finding"
    assert (root / PENDING / f"{finding.name}.json").is_file(), "the killed upload is no longer queued"

    first = FleetSession(server.url, name="next run", strategy="callgraph", seed=1, root=root)  # uploads the queue
    assert first.uploaded == [finding.name]
    # the queue marker survives a kill after Redis ran the script: uploading it again counts nothing twice
    (root / PENDING / f"{finding.name}.json").write_text(json.dumps({"machine": first.machine, "seen": 1.0}))
    FleetSession(server.url, name="again", strategy="callgraph", seed=1, root=root)
    store = FleetStore(client)
    (sig,) = store.finding_ids()
    assert store.finding(sig).sightings == 1
    assert set(store.reproducer(sig)) == {str(p.relative_to(finding)) for p in finding.rglob("*") if p.is_file()}


def test_redis_down_mid_campaign_goes_on_locally_and_uploads_when_back(
    tmp_path: Path, two_findings: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    srv = RedisServer(tmp_path)
    srv.start()
    url = f"redis://:s3cret-pw@127.0.0.1:{srv.port}/0"
    srv.client().config_set("requirepass", "s3cret-pw")
    root = tmp_path / "store"
    finding = _copy_store(two_findings[0], root)
    try:
        session = FleetSession(url, name="c", strategy="callgraph", seed=1, root=root)
        assert session.up
        srv.stop()  # mid-campaign
        session.finding_saved(finding, None)
        session.progress(_Result())
        session.finish(_Result())
        err = capsys.readouterr().err
        lines = [ln for ln in err.splitlines() if ln.strip()]
        assert len(lines) == 1 and "unreachable" in lines[0] and "going on locally" in lines[0], err
        assert "s3cret" not in err and "redis://:***@127.0.0.1" in lines[0]
        assert (root / finding.name / "finding.json").is_file() and session.pending() == [finding.name]

        srv.start()
        srv.client().config_set("requirepass", "s3cret-pw")
        nxt = FleetSession(url, name="next", strategy="callgraph", seed=2, root=root)
        assert nxt.uploaded == [finding.name] and nxt.pending() == []
        import redis

        dump = _everything(redis.Redis(host="127.0.0.1", port=srv.port, password="s3cret-pw"))
        assert b"crash" in dump or b"wrong-output" in dump  # the dump does see the records
        assert b"s3cret" not in dump and b"s3cret" not in b"".join(p.read_bytes() for p in root.rglob("*") if p.is_file())
    finally:
        srv.stop()


def _everything(client: Any) -> bytes:
    """Every value under the fleet's keys, as bytes (to search for secrets)."""
    out = []
    for key in client.keys("ember-fleet:*"):
        kind = client.type(key)
        if kind == b"hash":
            out += [k + b"=" + v for k, v in client.hgetall(key).items()]
        elif kind == b"string":
            out.append(client.get(key))
        elif kind == b"list":
            out += client.lrange(key, 0, -1)
        elif kind in (b"set", b"zset"):
            out += list(client.smembers(key)) if kind == b"set" else client.zrange(key, 0, -1)
    return b"\n".join(out)


class _Result:
    """What a campaign result offers the progress hooks."""

    class stats:  # noqa: N801
        examples = 4
        checks = 24

    coverage = {"calls": 3, "loops": 1}


def test_ember_fuzz_with_redis_down_from_the_start_then_next_run_uploads(tmp_path: Path) -> None:
    srv = RedisServer(tmp_path)  # not started yet
    store = tmp_path / "findings"
    args = ("fuzz", "--strategy", "callgraph", "--examples", "2", "--no-database", "--seed", "1", "--modes", "two-level",
            "-j", "1", "--shrink-seconds", "1", "--candidate", CRASHING, "--findings", str(store), "--redis", srv.url)
    res = _ember(*args, env=_env())
    assert res.returncode == 1, res.stderr
    notes = [ln for ln in res.stderr.splitlines() if ln.startswith("ember fleet:")]
    assert len(notes) == 1 and "unreachable" in notes[0], res.stderr
    assert "Traceback" not in res.stderr
    local = [p for p in store.iterdir() if not p.name.startswith(".")]
    assert local and [m.stem for m in (store / PENDING).glob("*.json")] == [p.name for p in local]
    srv.start()
    try:
        res = _ember(*args[:-2], "--redis", srv.url, "--examples", "1", env=_env())
        assert "unreachable" not in res.stderr, res.stderr
        assert not list((store / PENDING).glob("*.json"))
        fleet = FleetStore(srv.client())
        (sig,) = fleet.finding_ids()
        f = fleet.finding(sig)
        assert f.classification == "crash" and f.sightings >= 1
        # the campaign's coverage went up too
        runs = fleet.runs()
        assert runs and runs[-1].examples >= 1 and runs[-1].checks >= 1
    finally:
        srv.stop()


def test_fleet_candidate_never_runs_without_trust(
    tmp_path: Path, server: RedisServer, two_findings: tuple[Path, Path], ember_here: Any
) -> None:
    root = tmp_path / "store"
    finding = _copy_store(two_findings[0], root)
    FleetSession(server.url, name="c", strategy="callgraph", seed=1, root=root).finding_saved(finding, None)
    (sig,) = FleetStore(server.client()).finding_ids()
    mine = tmp_path / "mine"
    env = _env(EMBER_FINDINGS=str(mine))
    res = ember_here("findings", "reproduce", sig, "--redis", server.url, env=env)
    assert res.returncode == 2 and "sed 's/i64 40/i64 41/'" in res.stderr and "--trust-candidate" in res.stderr, res.stderr
    assert len(res.stderr.strip().splitlines()) == 1
    res = ember_here("findings", "reproduce", sig, "--redis", server.url, "--trust-candidate", env=env)
    assert res.returncode == 1 and "v=43" in res.stdout, res.stderr
    # pulled into the local store, it is still the fleet's: the same rule
    res = ember_here("findings", "pull", sig, "--redis", server.url, env=env)
    assert res.returncode == 0, res.stderr
    (pulled,) = [p for p in mine.iterdir() if not p.name.startswith(".")]
    meta = json.loads((pulled / "finding.json").read_text())
    assert meta["fleet"]["id"] == sig and meta["reproduce"] == f"ember findings reproduce {pulled}"
    res = ember_here("findings", "reproduce", pulled.name, env=env)
    assert res.returncode == 2 and "--trust-candidate" in res.stderr, res.stderr


def test_malformed_and_oversized_records_are_refused_in_one_line(
    tmp_path: Path, server: RedisServer, two_findings: tuple[Path, Path], ember_here: Any
) -> None:
    client = server.client()
    bad = "0123456789abcdef"
    client.zadd("ember-fleet:findings", {bad: 1.0})
    client.hset(f"ember-fleet:finding:{bad}", mapping={"meta": "{not json", "signature": "x", "first_seen": "1",
                                                       "last_seen": "1", "sightings": "1"})
    res = ember_here("findings", "list", "--redis", server.url, env=_env())
    assert res.returncode == 0 and f"{bad}  CORRUPT" in res.stdout, res.stdout + res.stderr
    res = ember_here("findings", "show", bad, "--redis", server.url, env=_env())
    assert res.returncode == 1 and len(res.stderr.strip().splitlines()) == 1 and "refused" in res.stderr, res.stderr
    # terminal escapes in what another machine wrote never reach the terminal
    client.rpush(f"ember-fleet:sightings:{bad}", json.dumps({"machine": "evil\x1b]0;pwned\x07"}))
    client.zadd("ember-fleet:runs", {"r\x1b[2J": 1.0})
    client.hset("ember-fleet:run:r\x1b[2J", mapping={"machine": "m\x1b[31m", "strategy": "s", "seed": "", "started": "1",
                                                     "updated": "1", "examples": "1", "checks": "1", "seconds": "1",
                                                     "coverage": json.dumps({"f\x1b[0m": 1})})
    for args in (("findings", "list", "--redis", server.url), ("fuzz", "--status", "--redis", server.url)):
        res = ember_here(*args, env=_env())
        assert res.returncode == 0 and "\x1b" not in res.stdout + res.stderr, res.stdout

    # a well-formed record whose reproducer is oversized, or escapes its directory
    root = tmp_path / "store"
    finding = _copy_store(two_findings[0], root)
    FleetSession(server.url, name="c", strategy="callgraph", seed=1, root=root).finding_saved(finding, None)
    sig = next(i for i in FleetStore(client).finding_ids() if i != bad)
    import zlib

    for blob, reason in (
        (b"\0" * (records.MAX_PACKED_BYTES + 1), "over the limit"),
        (zlib.compress(json.dumps({"files": {"../../evil.sh": "ZWNobw==", "finding.json": "e30="}}).encode()), "plain relative"),
        (zlib.compress(b"\0" * (records.MAX_UNPACKED_BYTES * 3)), "size limit"),
    ):
        client.set(f"ember-fleet:repro:{sig}", blob)
        res = ember_here("findings", "pull", sig, "--redis", server.url, env=_env(EMBER_FINDINGS=str(tmp_path / "pulled")))
        assert res.returncode == 1 and reason in res.stderr and len(res.stderr.strip().splitlines()) == 1, res.stderr
        assert "Traceback" not in res.stderr
    assert not (tmp_path / "evil.sh").exists() and not (tmp_path / "pulled").exists()

    # a record another writer left malformed does not stop uploads: the next sighting repairs it
    client.hset(f"ember-fleet:finding:{sig}", mapping={"first_seen": "x", "last_seen": "", "size": "junk"})
    assert FleetStore(client).finding(sig).problem is not None
    again = FleetSession(server.url, name="c", strategy="callgraph", seed=2, root=root, note=pytest.fail)
    (root / PENDING).mkdir(exist_ok=True)
    (root / PENDING / f"{finding.name}.json").write_text(json.dumps({"machine": "other", "seen": 7.0}))
    again.flush()
    repaired = FleetStore(client).finding(sig)
    assert repaired.problem is None and repaired.sightings == 2 and repaired.first_seen == 7.0


class _Tables(HTMLParser):
    """Every <table id=...> of a page as rows of cell texts, and the <img> sources."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.images: list[str] = []
        self.links: list[str] = []
        self._table: str | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "table":
            self._table = a.get("id") or ""
            self.tables[self._table] = []
        elif tag == "tr" and self._table is not None:
            self.tables[self._table].append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "img":
            self.images.append(a.get("src") or "")
        elif tag == "a":
            self.links.append(a.get("href") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._table is not None:
            self.tables[self._table][-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def test_status_and_html_page_show_what_the_store_holds(
    tmp_path: Path, server: RedisServer, two_findings: tuple[Path, Path], ember_here: Any
) -> None:
    store = FleetStore(server.client())
    for i, (machine, checks) in enumerate((("box0", 120), ("box1", 45))):
        run = RunRecord(id=f"{machine}-run", machine=machine, strategy="callgraph", seed=i, started=1000.0 + i,
                        updated=2000.0, examples=checks // 6, checks=checks, seconds=10.0 + i,
                        coverage={"calls": 3 + i, "loops": i})
        store.put_run(run)
    root = tmp_path / "store"
    FleetSession(server.url, name="c", strategy="callgraph", seed=1, root=root).finding_saved(
        _copy_store(two_findings[0], root), None
    )
    (sig,) = store.finding_ids()
    page = tmp_path / "fleet.html"
    res = ember_here("fuzz", "--redis", server.url, "--status", "--html", str(page), env=_env())
    assert res.returncode == 0, res.stderr
    assert "2 campaign(s) on 2 machine(s)" in res.stdout and "165 checks" in res.stdout, res.stdout
    assert "calls 7" in res.stdout and sig in res.stdout

    parsed = _Tables()
    parsed.feed(page.read_text())
    runs = store.runs()
    (header, totals) = parsed.tables["totals"]
    row = dict(zip(header, totals, strict=True))
    assert int(row["checks"]) == sum(r.checks for r in runs) and int(row["programs"]) == sum(r.examples for r in runs)
    assert int(row["campaigns"]) == len(runs) and int(row["findings"]) == 1
    machines = {r[0]: r for r in parsed.tables["machines"][1:]}
    assert machines["box0"][3] == "120" and float(machines["box0"][4]) == pytest.approx(12.0, abs=0.01)
    coverage = {r[0]: int(r[1]) for r in parsed.tables["coverage"][1:]}
    expected: dict[str, int] = {}
    for r in runs:
        for k, v in r.coverage.items():
            expected[k] = expected.get(k, 0) + v
    assert coverage == expected and coverage["calls"] == 7
    (found,) = parsed.tables["findings"][1:]
    assert found[0] == sig and found[1] == "wrong-output" and found[2] == "1"
    assert any(h.startswith("data:application/gzip;base64,") for h in parsed.links), "no embedded reproducer"
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert "matplotlib is not installed" in page.read_text() and not parsed.images
    else:
        assert len(parsed.images) == 3 and all(s.startswith("data:image/png;base64,") for s in parsed.images)
    assert "http://" not in page.read_text() and "https://" not in page.read_text()


def test_known_open_bug_is_marked_known(server: RedisServer, ember_here: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from fuzz import regressions

    bug = regressions.KnownBug("dead-external-ref", regressions.REPRODUCERS[0], "test", regressions.RECOGNISERS["extra-undefined"])
    monkeypatch.setattr(regressions, "KNOWN_BUGS", (bug,))
    meta = {
        "id": "x", "classification": "symbol-difference", "summary": "extra undefined", "plan": {"opt": 2, "configs": []},
        "reproduce": "ember findings reproduce x", "faults": [],
        "failures": [{"classification": "symbol-difference", "reference": "--split none -O2",
                      "candidate": "--split subgraph -j2 -O2", "summary": "s", "detail": "+ foo  GLOBAL NOTYPE DEFAULT UND 0\n"}],
    }
    assert records.known(meta) == "dead-external-ref"
    FleetStore(server.client()).upload(meta, records.pack_files({"finding.json": json.dumps(meta).encode()}),
                                       {"machine": "m", "seen": 5.0}, "m:x")
    res = ember_here("findings", "list", "--redis", server.url)
    assert "[known: dead-external-ref]" in res.stdout, res.stdout + res.stderr


def test_redact_hides_the_password() -> None:
    assert connection.redact("redis://:pw@h:6379/0") == "redis://:***@h:6379/0"
    assert connection.redact("redis://user:pw@h/1") == "redis://user:***@h/1"
    assert connection.redact("redis://h:6379/0") == "redis://h:6379/0"
    err = connection.describe_error(RuntimeError("AUTH pw failed for redis://:pw@h:6379/0"), "redis://:pw@h:6379/0")
    assert "pw" not in err.replace("***", "")


def test_bad_redis_url_is_usage_and_a_dead_one_one_line(tmp_path: Path, ember_here: Any) -> None:
    res = ember_here("findings", "list", "--redis", "http://:secret@h/", env=_env())
    assert res.returncode == 2 and "secret" not in res.stderr and "expected redis://" in res.stderr
    res = ember_here("fuzz", "--status", env=_env(EMBER_REDIS_URL="redis://:secret@h:port/0"))
    assert res.returncode == 2 and "secret" not in res.stderr and "Port could not be cast" in res.stderr, res.stderr
    dead = f"redis://:secret@127.0.0.1:{free_port()}/0"
    for args in (("findings", "list", "--redis", dead), ("fuzz", "--redis", dead, "--status")):
        res = ember_here(*args, env=_env())
        assert res.returncode == 1 and len(res.stderr.strip().splitlines()) == 1, res.stderr
        assert "cannot use Redis redis://:***@127.0.0.1" in res.stderr and "secret" not in res.stderr


@pytest.mark.parametrize(
    ("env", "expected"),
    [({}, 1), ({"PYTEST_XDIST_WORKER_COUNT": "8"}, 1), ({"PYTEST_XDIST_WORKER_COUNT": "8", "EMBER_PROFILE": "campaign"}, 8),
     ({"EMBER_SHARDS": "3"}, 3), ({"EMBER_SHARDS": "3", "PYTEST_XDIST_WORKER_COUNT": "8", "EMBER_PROFILE": "campaign"}, 3)],
)
def test_shard_count(env: dict[str, str], expected: int) -> None:
    assert shards.shard_count(env) == expected


def test_shards_have_their_own_seeds_and_bad_counts_are_refused() -> None:
    seeds = {shards.shard_seed("ember", k, 7) for k in range(16)}
    assert len(seeds) == 16 and shards.shard_seed("ember", 3, 7) == shards.shard_seed("ember", 3, 7)
    assert shards.shard_seed("ember", 3, 7) != shards.shard_seed("linkage", 3, 7)
    assert shards.shard_name("ember", 0) == "fuzz/test_campaign.py::ember"  # shard 0 keeps its database key
    for bad in ("0", "x"):
        with pytest.raises(ValueError, match="EMBER_SHARDS"):
            shards.shard_count({"EMBER_SHARDS": bad})


def test_every_fuzz_strategy_has_a_pytest_campaign() -> None:
    from fuzz.strategy_names import STRATEGIES as STRATEGY_CHOICES

    text = (ROOT / "fuzz" / "test_campaign.py").read_text()
    for s in STRATEGY_CHOICES:
        if s != "mixed":
            assert f'run_shard("{s}", shard)' in text


def test_sharded_pytest_campaign_reports_each_shard_to_the_fleet(tmp_path: Path, server: RedisServer) -> None:
    env = _env(EMBER_SHARDS="2", EMBER_REDIS_URL=server.url, EMBER_PROFILE="ci", EMBER_MACHINE="runner", EMBER_CAMPAIGN_SECONDS="2",
               EMBER_HYPOTHESIS_DIR=str(tmp_path / "db"), EMBER_FINDINGS=str(tmp_path / "findings"))
    res = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "-q", str(ROOT / "fuzz" / "test_campaign.py"),
         "-k", "callgraph"],
        capture_output=True, text=True, env=env, timeout=600, cwd=tmp_path,
    )
    assert res.returncode == 0 and "2 passed" in res.stdout, res.stdout[-3000:]
    runs = FleetStore(server.client()).runs()
    assert len(runs) == 2 and all(r.machine == "runner" and r.strategy == "callgraph" for r in runs)
    assert all(r.examples >= 1 and r.checks >= 1 for r in runs), runs
    assert {r.campaign for r in runs} == {"fuzz/test_campaign.py::callgraph", "fuzz/test_campaign.py::callgraph#shard1"}
