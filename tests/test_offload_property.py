"""Properties over random kernel programs (`fuzz.strategies.kernels`): the interpreter ==
the CPU grid emulator (compiled at -O0/-O2 and with every split mode); the per-kernel and
all-kernel flows give the same PTX for every kernel; `ptxas` accepts it (when installed).
`EMBER_KERNEL_EXAMPLES=N` runs more examples."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings

from compiler.backend import split_mode
from compiler.frontend import emit_mlir_text
from compiler.frontend.checker import check_source
from compiler.offload import flows, ptxas
from fuzz import properties
from fuzz.properties import BuildConfig, CheckPlan
from fuzz.strategies import FuzzCase, kernel_cases
from fuzz.strategies.kernels import KernelProgram, kernel_programs
from oracle import interp
from tests import offload_compare as compare

EXAMPLES = int(os.environ.get("EMBER_KERNEL_EXAMPLES", "4"))
FEW = settings(
    max_examples=EXAMPLES, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck)
)


@settings(max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(prog=kernel_programs())
def test_generated_kernel_programs_type_check_and_run_to_exit_0(prog: KernelProgram) -> None:
    source = prog.render()
    check_source(source, "k.em")
    result = interp.run_source(source, "k.em", fuel=properties.INTERP_FUEL)
    assert result.outcome == "exit" and result.exit_status == 0, (result, source)
    lines = result.stdout.decode().splitlines()
    assert [ln.split()[0] for ln in lines[-prog.n :]] == [str(i) for i in range(prog.n)]


@FEW
@given(case=kernel_cases())
def test_interpreter_equals_the_emulator_at_O0_O2_and_every_split_mode(case: FuzzCase) -> None:
    configs = tuple(BuildConfig(mode, 1, 2, 1) for mode in split_mode.SPLITTING)
    report = properties.check(case, CheckPlan(2, 1, configs, opt_check=True))
    assert report.ok, report.diff_text()
    assert properties.INTERP_LABEL in report.builds


@FEW
@given(prog=kernel_programs())
def test_flows_give_the_same_ptx_for_every_kernel(prog: KernelProgram) -> None:
    mlir = emit_mlir_text(prog.render(), "k.em")
    per = flows.compile_kernels(mlir, "k.em", "per-kernel", ("sm_80",), 2, 1)
    whole = flows.compile_kernels(mlir, "k.em", "all-kernel", ("sm_80",), 2, 2)
    assert list(per.ptx) == list(whole.ptx) == [f"k{i}" for i in range(len(prog.kernels))]
    for name in per.ptx:
        a, b = per.ptx[name]["sm_80"], whole.ptx[name]["sm_80"]
        assert compare.normalise_ptx(a) == compare.normalise_ptx(b), name
        if ptxas.find_ptxas() is not None:
            assert ptxas.check(a, "sm_80") == "", name
