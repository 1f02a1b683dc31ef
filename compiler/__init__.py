"""Ember: a Pythonic systems language compiled through real MLIR and real LLVM."""
