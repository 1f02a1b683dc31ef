"""Peers on trial: LLVM's own ways of splitting a module as candidate commands (docs/peers.md)."""
