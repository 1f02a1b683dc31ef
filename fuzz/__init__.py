"""Differential fuzzing harness: strategies, properties, findings, reducer."""
