"""Benchmarks; results and how to run them in docs/benchmarks.md."""
