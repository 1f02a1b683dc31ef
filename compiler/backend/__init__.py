"""Ember compiler: backend."""
