"""The differential campaign as pytest tests: `EMBER_PROFILE=campaign pytest -n auto fuzz/`.

Every `ember fuzz` strategy (but `mixed`, the union of the first three) has a campaign
test, parametrised by shard (`fuzz.shards`): under the `campaign` profile there are as
many shards of each as xdist has workers (or `$EMBER_SHARDS`), each its own seed stream,
so every core runs campaigns. Under the default `ci` profile there is one shard, the
callgraph, linkage and ember campaigns run a few derandomised examples each (the README's
test command stays short) and the others skip. A failure is saved to the findings store
(`$EMBER_FINDINGS`, default ./findings) before the test reports it; with
`$EMBER_REDIS_URL` it also goes to the fleet store (`fuzz.fleet`).
"""

from __future__ import annotations

import pytest

from fuzz import shards

SHARDS = range(shards.shard_count())


#: split none vs subgraph / function / two-level at -j1/-j2 (behaviour + symdiff), bytes across
#: -j, and -O0 vs -O2 behaviour, on call-graph programs
@pytest.mark.parametrize("shard", SHARDS)
def test_callgraph_programs_split_equals_unsplit(shard: int) -> None:
    shards.run_shard("callgraph", shard)


#: the same properties on modules exercising every linkage and symbol kind
@pytest.mark.parametrize("shard", SHARDS)
def test_linkage_modules_split_equals_unsplit(shard: int) -> None:
    shards.run_shard("linkage", shard)


#: Ember programs: the reference interpreter == --split none at -O0..-O3 == every split mode and -j
@pytest.mark.parametrize("shard", SHARDS)
def test_ember_programs_interpreter_equals_compiled(shard: int) -> None:
    shards.run_shard("ember", shard)


#: Ember programs with @kernel functions: the GPU slice on the CPU grid emulator, split == unsplit
@pytest.mark.parametrize("shard", SHARDS)
def test_kernel_programs_split_equals_unsplit(shard: int) -> None:
    shards.run_shard("kernels", shard)


#: call graphs or linkage modules, drawn from one strategy (as `ember fuzz --strategy llvm-ir`)
@pytest.mark.parametrize("shard", SHARDS)
def test_llvm_ir_modules_split_equals_unsplit(shard: int) -> None:
    shards.run_shard("llvm-ir", shard)


#: slices of the real-world corpus (needs `bash ci/fetch_corpus.sh`): symbols and building
@pytest.mark.parametrize("shard", SHARDS)
def test_corpus_slices_split_equals_unsplit(shard: int) -> None:
    shards.run_shard("corpus", shard)
