"""Mutation analysis of the harness: realistic compiler mistakes, each run against a fixed-seed campaign."""
