"""Benchmarks (`make bench`): speed figures printed, never asserted in unit tests."""
