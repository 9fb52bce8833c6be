"""Tests that need a system program the project's install does not bring (pip cannot)."""

from __future__ import annotations

import os

import pytest


def needs_system(found: bool, package: str):
    """A mark that skips a test on a machine without ``package``, never in CI (``.ci/run`` installs it).

    >>> needs_system(True, "valgrind").args
    (False,)
    """
    return pytest.mark.skipif(not found and not os.environ.get("CI"),
                              reason=f"{package} is not installed (.ci/run installs it: apt-get install {package})")
