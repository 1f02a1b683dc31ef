"""The benchmarks: one package on top of the others, on one runner.

`runner.py` measures wall, CPU (children included) and peak memory of a child process tree
(or of work in this process); `report.py` writes the one kind of table (markdown) and the
raw rows (JSON, with the machine line). Each benchmark is a small module on top of them:

- `split.py`: `ember bench`, the serial vs split back end vs `opt + llc` on generated or given modules;
- `corpus.py`: `ember bench --corpus`, Ember against LLVM's own tools on the real-world corpus;
- `power.py`: campaign throughput and the power check (programs until each fault is caught);
- `throughput.py`: the default campaign's checks/s, one build at a time vs lanes;
- `fleet.py`: concurrent campaigns against one local Redis;
- `reduce.py`: `ember reduce` vs `llvm-reduce`; `reduce_cache.py`: a reduction with and without its task cache;
- `verify.py`: `ember verify`'s proofs; `tv.py`: translation validation per function;
- `offload.py`: all-kernel vs per-kernel offload compilation.

Run one as `.venv/bin/python -m bench.NAME --help`. The docs quote their tables; the raw
rows are under `docs/bench/`. Nothing in the product imports this package.
"""
