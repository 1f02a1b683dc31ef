"""Ember compiler: offload."""
