"""simplify-functions: LLVM's function simplification (instcombine, simplifycfg, ...) on a
function."""

from __future__ import annotations

from fuzz.reduce.engine import DeltaPass
from fuzz.reduce.ir.common import defined_function_chunks, with_llvm_passes


def _simplify_functions(text: str, keep: set[int]) -> str:
    """instcombine + simplifycfg + aggressive DCE on the functions outside `keep`."""
    names = {n for i, n in enumerate(defined_function_chunks(text)) if i not in keep}

    def passes(pm: object) -> None:
        pm.add_instruction_combine_pass()  # type: ignore[attr-defined]
        pm.add_simplify_cfg_pass()  # type: ignore[attr-defined]
        pm.add_aggressive_dce_pass()  # type: ignore[attr-defined]

    return with_llvm_passes(text, passes, names) if names else text


PASS = DeltaPass("simplify-functions", defined_function_chunks, _simplify_functions)
