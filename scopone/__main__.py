"""``python -m scopone`` and the ``scopone`` console script: the command line.

The command line's modules are imported here with SIGINT held back, so that a
Ctrl-C at any moment, even while the program starts, ends in one line on
stderr and exit code 130 (not a traceback, and not click's "Aborted!" with
exit code 1).
"""

import sys

from . import hold_sigint


def run() -> None:
    """Run the command line (see the module docs)."""
    try:
        with hold_sigint():
            import click

            from .cli import main
        try:
            main.main(prog_name="scopone", standalone_mode=False)
        except click.exceptions.Abort:
            raise KeyboardInterrupt from None
        except click.ClickException as e:
            e.show()
            sys.exit(e.exit_code)
        except click.exceptions.Exit as e:
            sys.exit(e.exit_code)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)


if __name__ == "__main__":
    run()
