"""Opening a page in Debian's headless chromium, for the tests of the HTML outputs."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from system import needs_system


def chromium() -> str | None:
    """The browser's command, if installed."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


#: Skip a browser test on a machine without chromium, never in CI (which installs it).
needs_browser = needs_system(chromium() is not None, "chromium")


def open_page(path: Path, work: Path, size: str = "1200,900") -> tuple[str, list[str], Path]:
    """Load ``path`` in the browser: the DOM after its scripts ran, the console's
    messages (errors included), and a screenshot of the first screen."""
    browser = chromium()
    assert browser, "CI must install chromium (see .ci/run)"
    base = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            f"--user-data-dir={work / 'profile'}", "--enable-logging=stderr", "--v=0"]
    dom = subprocess.run(base + ["--dump-dom", path.as_uri()], capture_output=True, text=True, timeout=120)
    console = [line for line in dom.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]
    shot = work / f"{path.stem}.png"
    subprocess.run(base + [f"--window-size={size}", f"--screenshot={shot}", path.as_uri()],
                   capture_output=True, text=True, timeout=120)
    assert shot.exists() and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    return dom.stdout, console, shot
