"""One Z3 query with a time limit: what the pattern verifier and translation validation both ask."""

from __future__ import annotations

import z3


def solve(query: z3.BoolRef, timeout_s: float) -> tuple[z3.CheckSatResult, z3.Solver]:
    """Check `query` within `timeout_s` seconds (at least 1 ms); the solver holds the model when sat."""
    solver = z3.Solver()
    solver.set("timeout", max(1, int(timeout_s * 1000)))
    solver.add(query)
    return solver.check(), solver
