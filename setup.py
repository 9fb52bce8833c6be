"""Build hook for the compiled search core; everything else lives in pyproject.toml."""

import os
import platform
import sys
from glob import glob

from setuptools import Extension, setup

SOURCES = ["scopone/solver/_core.c"]
# one translation unit: _core.c includes the parts of the core once each
DEPENDS = sorted(glob("scopone/solver/*.h"))
# The second build of the core on x86-64: its level and module, named here only (every
# module gets them: scopone/solver/core.py reads them from the portable one).
LEVEL = "x86-64-v2"
LEVEL_MODULE = "_core_v2"
FLAGS = ["-O3", "-std=c99", "-fno-strict-aliasing", "-Wall",
         f'-DCORE_LEVEL="{LEVEL}"', f'-DCORE_LEVEL_MODULE="{LEVEL_MODULE}"']

march = os.environ.get("SCOPONE_MARCH", "").strip()
if march:
    # SCOPONE_MARCH=native (or x86-64-v2, ...): one core, built for this machine's processor
    extensions = [Extension("scopone.solver._core", SOURCES, depends=DEPENDS,
                            extra_compile_args=FLAGS + [f"-march={march}", f'-DCORE_ISA="{march}"'])]
else:
    # Portable flags by default: the build must run on any x86-64/arm64 machine.  On
    # x86-64 a second module is built for LEVEL (Intel since 2008, AMD since 2011), and
    # scopone.solver.core imports it where the processor has that level; optional, so
    # a compiler that cannot build it leaves the portable core alone.
    extensions = [Extension("scopone.solver._core", SOURCES, depends=DEPENDS, extra_compile_args=FLAGS)]
    if platform.machine().lower() in ("x86_64", "amd64") and sys.platform != "win32":
        # its own source file (which includes _core.c) gives it its own object file and module name
        extensions.append(Extension(f"scopone.solver.{LEVEL_MODULE}", [f"scopone/solver/{LEVEL_MODULE}.c"],
                                    depends=DEPENDS + SOURCES, optional=True,
                                    extra_compile_args=FLAGS + [f"-march={LEVEL}", f"-DCORE_NAME={LEVEL_MODULE}",
                                                                f'-DCORE_ISA="{LEVEL}"']))

setup(ext_modules=extensions)
