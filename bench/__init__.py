"""Benchmarks: `python -m bench` runs them all and prints their figures; `python -m bench
service` runs one. Targets are printed beside the figures; nothing here is a pass/fail test."""
