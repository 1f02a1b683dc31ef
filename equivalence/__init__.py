"""SMT semantics of IR ops, rewrite verification, translation validation."""
