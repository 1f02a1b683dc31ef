"""Delta passes over LLVM IR text, one per file (`table.py` lists them in order).

A pass turns a module into *chunks* (things it could remove or simplify) and applies a
subset of them; the reducer runs ddmin over the chunks. Every candidate is validated
(parses and verifies) before the property sees it.
"""
