"""Ember compiler: midend."""
