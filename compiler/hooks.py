"""The test seams of a build, in one typed object a harness builds and passes in
(`BuildOptions.hooks`): the compiler never makes one, the `ember` CLI cannot ask for one,
and a build without hooks (`None`) is exactly the product.

What a harness may change (fuzz/faults.py builds the power check's deliberate faults and the
workers that crash or hang; fuzz/buildserver.py adds its lowering cache):

- `plan`: rewrite the level-1 split plan before the workers see it;
- `worker`: called in each worker with a subgraph's text before it is compiled (module-level
  functions: they travel to `spawn` workers by reference);
- `optimised`: called in each worker on an optimised subgraph's module, after the dead
  definitions are deleted and just before its code is generated (module-level functions, as
  `worker`): a fault that must see the optimiser's work (specialised copies, inlined rows);
- `objects`: rewrite the pieces' objects just before the object link merges them (driver side,
  after the tasks: a task cache's results do not depend on it);
- `object_names`: rewrite what the object link is told (`objlink.ObjectNames`, harness-only
  flags included);
- `lowering`: a cache of the front end and midend's LLVM IR (`LoweringCache`);
- `tasks`: a cache of the split back end's subgraph tasks (`TaskCache`: a reducer's candidates
  share most subgraphs, and a subgraph whose inputs were compiled before is not compiled again);
- `in_process`: run `-j1` back-end tasks in the building process (a reducer's per-candidate
  script, where the script is the unit of parallelism); tasks LLVM may abort on still get
  a forked child.
- `whole_module_prefix`: False builds as if `--split-prefix off` (the split back end before the
  whole-module prefix: a reduction benchmark keeps the real differences it had);
- `plan_assignment`: a fixed level-1 plan, function name (the module's own spelling) ->
  subgraph index, instead of packing by cost (`planner.PlanPolicy.assignment`: a reducer keeps
  the boundaries of the failing build's plan while the module shrinks).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from compiler.backend import engine
    from compiler.backend.objlink import ObjectNames, ObjectPiece
    from compiler.backend.planner import SplitPlan
    from compiler.backend.split import Optimised, TaskResult


class LoweringCache(Protocol):
    """Where a build may find, or leave, the LLVM IR an Ember/MLIR input lowers to."""

    def lower(self, key: tuple[object, ...], produce: Callable[[], str], notes: list[str]) -> str:
        """The lowering for `key`: remembered, or `produce()`d and remembered; a reuse is
        said in `notes` (the time report's lines)."""
        ...


class TaskCache(Protocol):
    """Where a split build may find, or leave, what one subgraph's worker task produced.

    `key` is a digest of everything the task reads (`split.task_key`: the subgraph's text,
    members, index, level and the worker's configuration), so a hit is the same result a
    fresh task would give: the cache changes the build's cost, never its output."""

    def get(self, key: str) -> TaskResult | Optimised | None:
        """The result stored under `key`, or None."""
        ...

    def put(self, key: str, result: TaskResult | Optimised) -> None:
        """Remember a task's result (only finished tasks: a crash or hang is never stored)."""
        ...


@dataclass(frozen=True)
class BuildHooks:
    """A harness's changes to one build (see the module docstring); each field applies in order."""

    #: what the hooks are, in the harness's words (reports and findings name them)
    names: tuple[str, ...] = ()
    plan: tuple[Callable[[SplitPlan], SplitPlan], ...] = ()
    worker: tuple[Callable[[str], None], ...] = ()
    optimised: tuple[Callable[[engine.Module], None], ...] = ()
    objects: tuple[Callable[[list[ObjectPiece]], list[ObjectPiece]], ...] = ()
    object_names: tuple[Callable[[ObjectNames], ObjectNames], ...] = ()
    lowering: LoweringCache | None = None
    tasks: TaskCache | None = None
    in_process: bool = False
    whole_module_prefix: bool = True
    plan_assignment: dict[str, int] | None = None

    @property
    def changes_the_back_end(self) -> bool:
        """Whether any hook changes what the split back end produces (a fault, not a cache)."""
        return bool(self.plan or self.worker or self.optimised or self.objects or self.object_names)
