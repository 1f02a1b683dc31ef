"""The names of the program generators (`ember fuzz --strategy`), in a module of their own so
the `ember` parser can offer them without importing Hypothesis and the strategies
(fuzz/strategies/__init__.py maps each name to its strategy in `cases`)."""

from __future__ import annotations

STRATEGIES = ("callgraph", "linkage", "ember", "kernels", "llvm-ir", "corpus", "mixed")
