"""Build hook for the compiled search core; everything else lives in pyproject.toml."""

import os
import platform
import shutil
import subprocess
import sys
import tempfile
from glob import glob

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SOURCES = ["scopone/solver/_core.c"]
# one translation unit: _core.c includes the parts of the core once each
DEPENDS = sorted(glob("scopone/solver/*.h"))
# The second build of the core on x86-64: its level and module, named here only (every
# module gets them: scopone/solver/core.py reads them from the portable one).
LEVEL = "x86-64-v2"
LEVEL_MODULE = "_core_v2"
# The build for the standard rules and default options (CORE_STANDARD: they are constants
# there, 0.92-0.95 the time): on x86-64 for the x86-64-v3 level (Intel since 2013, AMD since
# 2015; 0.98 the time of v2, docs/solver-notebook.md), imported where the processor has it (CORE_STANDARD_CHECK);
# for SCOPONE_MARCH when it is set; else portable.
STANDARD_MODULE = "_core_std"
STANDARD_LEVEL = "x86-64-v3"
x86 = platform.machine().lower() in ("x86_64", "amd64") and sys.platform != "win32"
march = os.environ.get("SCOPONE_MARCH", "").strip()
STANDARD_ISA = march or (STANDARD_LEVEL if x86 else "portable")
FLAGS = ["-O3", "-std=c99", "-fno-strict-aliasing", "-Wall",
         f'-DCORE_LEVEL="{LEVEL}"', f'-DCORE_LEVEL_MODULE="{LEVEL_MODULE}"',
         f'-DCORE_STANDARD_MODULE="{STANDARD_MODULE}"', f'-DCORE_STANDARD_ISA="{STANDARD_ISA}"'] + \
    (["-DCORE_STANDARD_CHECK"] if STANDARD_ISA == STANDARD_LEVEL else [])
STANDARD_FLAGS = ["-DCORE_STANDARD", f"-DCORE_NAME={STANDARD_MODULE}", f'-DCORE_ISA="{STANDARD_ISA}"'] + \
    ([f"-march={STANDARD_ISA}"] if STANDARD_ISA != "portable" else [])
# its own source file (which includes _core.c) gives each further module its own object file and name
standard = Extension(f"scopone.solver.{STANDARD_MODULE}", [f"scopone/solver/{STANDARD_MODULE}.c"],
                     depends=DEPENDS + SOURCES, optional=True, extra_compile_args=FLAGS + STANDARD_FLAGS)

if march:
    # SCOPONE_MARCH=native (or x86-64-v2, ...): one core, built for this machine's processor
    extensions = [Extension("scopone.solver._core", SOURCES, depends=DEPENDS,
                            extra_compile_args=FLAGS + [f"-march={march}", f'-DCORE_ISA="{march}"']), standard]
else:
    # Portable flags by default: the build must run on any x86-64/arm64 machine.  On
    # x86-64 a second module is built for LEVEL (Intel since 2008, AMD since 2011), and
    # scopone.solver.core imports it where the processor has that level; optional, so
    # a compiler that cannot build it leaves the portable core alone.
    extensions = [Extension("scopone.solver._core", SOURCES, depends=DEPENDS, extra_compile_args=FLAGS)]
    if x86:
        extensions.append(Extension(f"scopone.solver.{LEVEL_MODULE}", [f"scopone/solver/{LEVEL_MODULE}.c"],
                                    depends=DEPENDS + SOURCES, optional=True,
                                    extra_compile_args=FLAGS + [f"-march={LEVEL}", f"-DCORE_NAME={LEVEL_MODULE}",
                                                                f'-DCORE_ISA="{LEVEL}"']))
    extensions.append(standard)


class ProfiledBuild(build_ext):
    """By default (SCOPONE_PGO=0 turns it off), a profile-guided build of the core (gcc):
    built once instrumented, run on random endgames (tools/pgo_train.py, which needs
    nothing but the module it loads), built again from what that run measured.  The
    same search, 0.95-0.98 the time (docs/solver-notebook.md, "5 December" and "Later on 5 December");
    about 25 s more to install.  A failure of the first two steps falls back to a
    plain build, with a warning."""

    def build_extensions(self):
        if os.environ.get("SCOPONE_PGO", "1") != "1" or self.compiler.compiler_type != "unix" or \
                not os.path.exists(TRAIN):
            return super().build_extensions()
        plain = {id(e): list(e.extra_compile_args) for e in self.extensions}
        links = {id(e): list(e.extra_link_args) for e in self.extensions}
        data = tempfile.mkdtemp(prefix="scopone-pgo-")
        self.force = True  # both builds compile every source, whatever an earlier build left
        try:
            self.set_flags(plain, links, [f"-fprofile-generate={data}", "-fprofile-update=single"],
                           [f"-fprofile-generate={data}"])
            super().build_extensions()
            built = [self.get_ext_fullpath(e.name) for e in self.extensions if os.path.exists(self.get_ext_fullpath(e.name))]
            subprocess.run([sys.executable, TRAIN, *built], check=True, timeout=600)
            flags = [f"-fprofile-use={data}", "-fprofile-correction", "-Wno-missing-profile"]
        except Exception as e:  # noqa: BLE001 - a plain build instead
            print(f"warning: profile-guided build of the core failed ({e}); building it plainly", file=sys.stderr)
            flags = []
        self.set_flags(plain, links, flags, [])
        try:
            super().build_extensions()
        finally:
            shutil.rmtree(data, ignore_errors=True)

    def set_flags(self, plain, links, compile_flags, link_flags):
        for e in self.extensions:
            e.extra_compile_args = plain[id(e)] + compile_flags
            e.extra_link_args = links[id(e)] + link_flags


TRAIN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tools", "pgo_train.py")

setup(ext_modules=extensions, cmdclass={"build_ext": ProfiledBuild})
