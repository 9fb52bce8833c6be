"""Build hook for the compiled search core; everything else lives in pyproject.toml."""

import os
from glob import glob

from setuptools import Extension, setup

# Portable flags by default: the build must run on any x86-64/arm64 machine.
# SCOPONE_MARCH=native (or x86-64-v2, x86-64-v3, ...) builds the core for this
# machine's processor instead; the README gives what it measured (benchmarks/builds.py).
flags = ["-O3", "-std=c99", "-fno-strict-aliasing", "-Wall"]
march = os.environ.get("SCOPONE_MARCH", "").strip()
if march:
    flags.append(f"-march={march}")

setup(
    ext_modules=[
        Extension(
            "scopone.solver._core",
            ["scopone/solver/_core.c"],
            # one translation unit: _core.c includes the parts of the core once each
            depends=sorted(glob("scopone/solver/*.h")),
            extra_compile_args=flags,
        )
    ],
)
