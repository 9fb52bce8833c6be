"""Build hook for the compiled search core; everything else lives in pyproject.toml."""

from glob import glob

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "scopone.solver._core",
            ["scopone/solver/_core.c"],
            # one translation unit: _core.c includes the parts of the core once each
            depends=sorted(glob("scopone/solver/*.h")),
            # Portable flags only: the wheel must run on any x86-64/arm64 machine.
            extra_compile_args=["-O3", "-std=c99", "-fno-strict-aliasing", "-Wall"],
        )
    ],
)
