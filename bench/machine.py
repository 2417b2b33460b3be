"""What machine a benchmark ran on, for the first line of its report (docs/benchmarks.md)."""

from __future__ import annotations

import os
import platform


def machine() -> str:
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            model = next((line.split(":", 1)[1].strip() for line in info
                          if line.startswith("model name")), model)
    except OSError:
        pass
    return f"{os.cpu_count()} cores (nproc), {model}, Python {platform.python_version()}"
