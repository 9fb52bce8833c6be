"""The ``scopone`` command line: parses, calls the library, formats.

Bad input ends with exit code 2 and one line ``Error: FILE: field: problem``;
Ctrl-C with exit code 130 and one line (:func:`run`, the console script).
"""

from __future__ import annotations

import functools
import sys
from contextlib import contextmanager

import click
from rich.console import Console

from . import __version__
from .captures import capture_table
from .cards import card_text, cards_of, parse_card, parse_cards, rank_of
from .errors import ScoponeError
from .formats import json_text, load_game, position_to_dict, read_position_arg, write_json_atomic
from .position import Move
from .rules import parse_rules
from .scoring import TEAMS


class InputError(click.ClickException):
    """Bad input: one line on stderr, exit code 2."""

    exit_code = 2

    def show(self, file=None) -> None:
        click.echo(f"Error: {self.format_message()}", err=True)


class _TextConsole(Console):
    """The console for text output.  Piped or redirected, it lays tables out wide
    (they take only the width they need) and strips the padding rich leaves at the
    ends of lines."""

    def print(self, *objects, **kw) -> None:  # noqa: A003
        if self.is_terminal:
            return super().print(*objects, **kw)
        with self.capture() as cap:
            super().print(*objects, **kw)
        self.file.write("\n".join(line.rstrip() for line in cap.get().split("\n")))


def _console() -> Console:
    con = _TextConsole(highlight=False, soft_wrap=True)
    if not con.is_terminal:
        con.width = 200
    return con


def _notation(console: Console, chosen: str | None) -> str:
    """The notation asked for, else symbols when the output can show them."""
    if chosen:
        return chosen
    return "symbols" if "utf" in (console.encoding or "").lower() else "letters"


notation_option = click.option("--notation", type=click.Choice(["letters", "symbols"]), default=None,
                               help="Cards as letters (7D, D C S B) or suit symbols (7♦, ♦ ♥ ♠ ♣); "
                                    "default: symbols when the output can show them.")


def _emit_json(data) -> None:
    click.echo(json_text(data))


def handle_errors(f):
    """Turn library errors into one-line messages with exit code 2."""

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        try:
            return f(*args, **kwargs)
        except ScoponeError as e:
            raise InputError(" ".join(str(e).split("\n"))) from None

    return wrapper


def _rules_opt(text):
    return parse_rules(text) if text else None


json_option = click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
rules_option = click.option("--rules", "rules_text", metavar="NAME",
                            help="Rules, e.g. scientifico, classico+primiera=sum (overrides the file's).")
position_arg = click.argument("position", metavar="POSITION")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="scopone")
def main() -> None:
    """Scopone Scientifico: engine, double-dummy solver and puzzles.

    POSITION arguments are a position file (JSON), a game record (its final
    position), or a one-line position string.
    """


@main.command()
@position_arg
@json_option
@rules_option
@notation_option
@handle_errors
def show(position, as_json, rules_text, notation):
    """Print a position: hands, table, piles, score so far, who is to move."""
    from .render.terminal import position_view

    pos = read_position_arg(position, _rules_opt(rules_text))
    if as_json:
        d = position_to_dict(pos)
        d["line"] = pos.line()
        d["score"] = pos.score().as_dict()
        _emit_json(d)
        return
    con = _console()
    con.print(position_view(pos, _notation(con, notation)))


@main.command()
@position_arg
@json_option
@rules_option
@notation_option
@handle_errors
def moves(position, as_json, rules_text, notation):
    """List every legal move in canonical notation, grouped by card."""
    from .render.terminal import moves_view

    pos = read_position_arg(position, _rules_opt(rules_text))
    if as_json:
        _emit_json({
            "to_move": pos.to_move,
            "moves": [{"move": m.text(), "card": card_text(m.card),
                       "captures": [card_text(c) for c in m.captured_cards()],
                       "priority": pos.priority_forced(m.card)} for m in pos.legal_moves()],
        })
        return
    con = _console()
    con.print(moves_view(pos, _notation(con, notation)))


@main.command()
@click.argument("card")
@click.option("--table", "table_text", default="", help='Table cards, e.g. "3C 4S 7B 2D 5C".')
@json_option
@rules_option
@handle_errors
def captures(card, table_text, as_json, rules_text):
    """Show what CARD may capture from a table under the rules."""
    rules = _rules_opt(rules_text) or parse_rules("scientifico")
    try:
        c = parse_card(card)
    except ScoponeError as e:
        raise ScoponeError(f"CARD: {e}") from None
    try:
        table = parse_cards(table_text)
    except ScoponeError as e:
        raise ScoponeError(f"--table: {e}") from None
    if table >> c & 1:
        raise ScoponeError(f"--table: {card_text(c)} is the played card; it cannot also be on the table")
    ct = capture_table(rules)
    options = ct.options(rank_of(c), table)
    moves_ = [Move(c, m) for m in options] or [Move(c, 0)]
    priority = ct.priority_forced(rank_of(c), table)
    if as_json:
        _emit_json({"card": card_text(c), "table": [card_text(x) for x in cards_of(table)],
                    "rules": rules.name, "captures": [[card_text(x) for x in m.captured_cards()]
                                                      for m in moves_ if m.captured],
                    "moves": [m.text() for m in moves_], "priority": priority})
        return
    if not options:
        click.echo(f"{card_text(c)} captures nothing: it is laid on the table ({rules.name}).")
        return
    click.echo(f"{card_text(c)} may capture ({rules.name}):")
    for m in moves_:
        click.echo(f"  {m.text()}")
    if priority:
        click.echo("  (single-card priority: sum captures are not allowed while a card of the same rank is on the table)")


@main.command()
@click.option("--seed", type=int, default=None, help="Random seed (reproducible deals).")
@click.option("--cards-per-hand", type=click.IntRange(0, 10), default=None,
              help="Play the deal forward until every hand holds this many cards.")
@click.option("--policy", type=click.Choice(["greedy", "random"]), default="greedy", show_default=True,
              help="How the deal is played forward.")
@click.option("--first", type=click.IntRange(0, 3), default=0, show_default=True, help="Seat that plays first.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None, help="Write the position here.")
@click.option("--count", type=click.IntRange(min=1), default=None,
              help="Deal this many positions as JSON Lines ({\"id\", \"position\"}), the input of solve-batch.")
@json_option
@rules_option
@handle_errors
def deal(seed, cards_per_hand, policy, first, output, count, as_json, rules_text):
    """Deal a random position (and optionally play it forward)."""
    import json
    import random

    from .deal import deal as make_deal

    if count is not None:
        from .formats import write_text_atomic

        rng = random.Random(seed)
        rows = []
        for i in range(count):
            s = rng.randrange(2**32)
            pos = make_deal(s, _rules_opt(rules_text), first=first, cards_per_hand=cards_per_hand, policy=policy)
            rows.append(json.dumps({"id": f"deal-{s}", "position": position_to_dict(pos)}) + "\n")
        if output is not None:
            write_text_atomic(output, "".join(rows))
            click.echo(f"wrote {count} positions to {output}", err=True)
        else:
            click.echo("".join(rows), nl=False)
        return

    pos = make_deal(seed, _rules_opt(rules_text), first=first, cards_per_hand=cards_per_hand, policy=policy)
    data = position_to_dict(pos)
    if output is not None:
        write_json_atomic(output, data)
        if as_json:
            _emit_json({"output": output, "line": pos.line()})
        else:
            click.echo(f"wrote {output}: {pos.line()}")
    else:
        _emit_json(data)


@main.command()
@click.argument("game", type=click.Path(dir_okay=False))
@click.option("--partial", is_flag=True, help="Score an unfinished record as it stands.")
@json_option
@rules_option
@handle_errors
def score(game, partial, as_json, rules_text):
    """Play a game record to its end and print the score per team."""
    from .render.terminal import score_view

    record = load_game(game, _rules_opt(rules_text))
    pos = record.replay(game)
    if not pos.is_over() and not partial:
        raise ScoponeError(f"{game}: moves: the record stops after {len(record.moves)} plays with "
                           f"{pos.cards_left()} cards still in hand (use --partial to score it as it stands)")
    s = pos.score()
    if as_json:
        _emit_json({"complete": pos.is_over(), "plays": len(record.moves), **s.as_dict()})
        return
    con = _console()
    con.print(score_view(s, title=f"{game}: {'final score' if pos.is_over() else 'score so far'}"))
    a, b = s.points
    click.echo(f"Team A {a}, team B {b}: " + ("a draw" if a == b else f"team {TEAMS[0 if a > b else 1]} wins the deal"))


@main.command()
@position_arg
@click.option("--mode", type=click.Choice(["all", "optimal", "best"]), default="all", show_default=True,
              help="all: every move's value; optimal: the moves reaching the value; best: one best move.")
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=None, metavar="SECONDS",
              help="Stop after this long and report the bounds proven so far.")
@click.option("--memory", "memory_mb", type=click.IntRange(min=1), default=None, metavar="MB",
              help="Bound the transposition table (default 1024; it is sized for the position within it).")
@click.option("--engine", type=click.Choice(["auto", "c", "python"]), default="auto", show_default=True,
              help="Search engine: the compiled core or the pure-Python reference.")
@click.option("--threads", type=click.IntRange(min=1), default=None, metavar="N",
              help="Search threads (compiled core; default: every CPU this process may use, "
                   "one for 5 cards per hand or fewer). "
                   "Values never depend on it; with 1 the move shown among equals and the line are reproducible.")
@click.option("--checkpoint", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Keep the bounds proven so far in FILE as the solve goes, and start from them if FILE "
                   "exists: a long solve stopped by --time-limit or Ctrl-C resumes where it stopped. "
                   "FILE.table keeps the table's biggest proofs (saved every ten minutes and at the end).")
@click.option("--no-line", "no_line", is_flag=True,
              help="Do not follow the best line once the value is known: that costs a search per play, "
                   "which from 8 cards per hand takes minutes or more when the table that proved the value "
                   "is gone (a solve finished from a checkpoint).")
@json_option
@rules_option
@notation_option
@handle_errors
def solve(position, mode, time_limit, memory_mb, engine, threads, checkpoint, no_line, as_json, rules_text,
          notation):
    """Solve a position double dummy: its value, every move's value, the best line."""
    from .render.terminal import bound_text, solve_view
    from .solver import solve as run_solve
    from .solver.checkpoint import Checkpoint

    pos = read_position_arg(position, _rules_opt(rules_text))
    kept = Checkpoint(checkpoint, pos) if checkpoint else None
    if kept and kept.resumed:
        w = kept.work
        table = f", {kept.table_entries:,} table entries" if kept.table_entries else ""
        click.echo(f"resuming from {checkpoint}: value {bound_text(kept.start.lower, kept.start.upper)}, "
                   f"{len(kept.start.moves)} root moves bounded{table} ({w['runs']} runs before, "
                   f"{w['nodes']:,} nodes, {w['seconds']:.0f} s)", err=True)
    with _solve_progress(disable=as_json) as on_progress:
        result = run_solve(pos, mode=mode, engine=engine, time_limit=time_limit, memory_mb=memory_mb,
                           line=not no_line, on_progress=on_progress, threads=threads or _default_threads(pos),
                           checkpoint=kept)
    if kept and kept.table_note:
        click.echo(kept.table_note, err=True)
    if as_json:
        _emit_json(result.as_dict())
    else:
        con = _console()
        con.print(solve_view(pos, result, _notation(con, notation)))
    if not result.complete:
        if kept:
            table = f" (the table's biggest proofs in {kept.table_path})" if kept.table_saved else ""
            click.echo(f"the bounds proven are in {checkpoint}{table}: run the same command to go on", err=True)
        sys.exit(3)


def _cpus() -> int:
    from .solver import usable_cpus

    return usable_cpus()


def _default_threads(pos) -> int:
    """Every usable CPU, but one thread for positions of 5 cards per hand or fewer:
    they take milliseconds, and starting threads costs more than it saves there
    (``python benchmarks/solve.py --max-n 5 --threads 2``: ×0.46 at 5 cards in mode
    best, ×0.85 in mode all)."""
    from .solver import usable_cpus

    return usable_cpus() if pos.cards_left() > 20 else 1


@contextmanager
def _solve_progress(disable: bool):
    """A transient status line on stderr while a solve runs: bounds proven so far,
    root moves settled, nodes, elapsed time (yields the ``on_progress`` callback)."""
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from .render.terminal import bound_text

    con = Console(stderr=True, highlight=False)
    with Progress(SpinnerColumn(), TextColumn("[bold]solving"), TimeElapsedColumn(),
                  TextColumn("{task.description}"), console=con, transient=True, disable=disable) as bar:
        task = bar.add_task("searching", total=None)

        def on_progress(p) -> None:
            value = f"value {bound_text(p.lower, p.upper)}"
            bar.update(task, description=f"{value} · {p.phase}: {p.moves_done}/{p.moves_total} moves settled"
                                         f" · {p.nodes / 1e6:.1f} M nodes")

        yield on_progress


@main.group()
def puzzles():
    """Generate, verify and show double-dummy puzzles."""


@puzzles.command("generate")
@click.option("-n", "count", type=click.IntRange(min=1), default=50, show_default=True, help="Puzzles wanted in the file.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the candidate stream.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), required=True, help="Puzzle file (resumed if it exists).")
@click.option("--cards-per-hand", "cards", default="3-7", show_default=True, help="N or LOW-HIGH.")
@click.option("--themes", default="", help="Comma-separated themes; keep only puzzles with one of them.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: the usable CPUs; the results are the same for any number).")
@click.option("--engine", type=click.Choice(["auto", "c", "python"]), default="auto", show_default=True)
@click.option("--scheduler", metavar="ADDRESS", default=None, help="Analyse the candidates on an existing Dask cluster.")
@click.option("--min-margin", type=click.IntRange(min=1), default=2, show_default=True,
              help="The answer's least lead in points over every other first move.")
@click.option("--no-swing", is_flag=True,
              help="Never accept a margin below --min-margin (by default 1 point is kept for a clear swing: "
                   "a scopa, the settebello or the primiera).")
@click.option("--view", type=click.Choice(["all", "seat"]), default="all", show_default=True,
              help="seat: the answer must also be best seeing only the player's hand, over the hidden hands.")
@click.option("--players", default="heuristic", show_default=True,
              help="Comma-separated players whose self-play makes the candidates (e.g. heuristic,pimc:samples=4).")
@click.option("--max-scope", type=click.IntRange(min=0), default=3, show_default=True,
              help="Leave out positions where a side has made more scope than this.")
@click.option("--max-value", type=click.IntRange(min=0), default=4, show_default=True,
              help="Leave out positions whose value is beyond this (the deal is decided).")
@click.option("--seat-samples", type=click.IntRange(min=2), default=400, show_default=True,
              help="With --view seat: deals of the hidden hands drawn when there are more than this.")
@json_option
@rules_option
@handle_errors
def puzzles_generate(count, seed, output, cards, themes, workers, engine, scheduler, min_margin, no_swing, view,
                     players, max_scope, max_value, seat_samples, as_json, rules_text):
    """Generate puzzles into a JSON file, resuming if it exists."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from .puzzles import THEMES, generate, parse_cards_range
    from .render.terminal import puzzle_summary

    wanted = tuple(t.strip() for t in themes.split(",") if t.strip())
    for t in wanted:
        if t not in THEMES:
            raise ScoponeError(f"--themes: unknown theme {t!r} (themes: {', '.join(THEMES)})")
    rng = parse_cards_range(cards)
    rules = _rules_opt(rules_text)
    specs = tuple(_player_spec(None, None, x.strip()) for x in players.split(",") if x.strip())
    if not specs:
        raise ScoponeError("--players: give at least one player")
    con = Console(stderr=True, highlight=False)
    with Progress(TextColumn("[bold]puzzles"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TextColumn("{task.description}"), console=con, disable=as_json) as bar:
        task = bar.add_task("", total=count)

        def on_progress(p):
            top = ", ".join(f"{r}: {c}" for r, c in p.rejected.most_common(3))
            bar.update(task, completed=min(p.accepted, count),
                       description=f"examined {p.examined}, rejected {sum(p.rejected.values())} ({top})")

        try:
            data = generate(output, count, seed, cards=rng, rules=rules, themes=wanted, workers=workers or _cpus(),
                            engine=engine, on_progress=on_progress, scheduler=scheduler, min_margin=min_margin,
                            swing=not no_swing, view=view, players=specs, max_scope=max_scope,
                            max_value=max_value, seat_samples=seat_samples)
        except KeyboardInterrupt:
            click.echo(f"interrupted: everything found so far is in {output}; run the same command to resume",
                       err=True)
            sys.exit(130)
    if as_json:
        _emit_json({"output": output, "puzzles": len(data["puzzles"]), "rejected": data["rejected"]})
    else:
        _console().print(puzzle_summary(data, output))


@puzzles.command("verify")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--engine", type=click.Choice(["auto", "c", "python"]), default="auto", show_default=True)
@json_option
@handle_errors
def puzzles_verify(file, engine, as_json):
    """Re-solve every puzzle and check every claim; exit 1 if any is wrong."""
    from .formats import read_json
    from .puzzles import verify_file

    data = read_json(file)
    try:
        failed = verify_file(data, engine)
    except ScoponeError as e:
        raise ScoponeError(f"{file}: {e}") from None
    n = len(data.get("puzzles", []))
    if as_json:
        _emit_json({"file": file, "puzzles": n, "failed": failed})
    else:
        for pid, errs in failed.items():
            click.echo(f"{pid}: " + "; ".join(errs))
        click.echo(f"{file}: {n - len(failed)} of {n} puzzles verified" + (f", {len(failed)} FAILED" if failed else ""))
    if failed:
        sys.exit(1)


@puzzles.command("show")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--id", "pid", default=None, help="Only this puzzle.")
@click.option("--solution", is_flag=True, help="Show the solution, the tempting move and its refutation.")
@json_option
@notation_option
@handle_errors
def puzzles_show(file, pid, solution, as_json, notation):
    """Print puzzles (the position and the question; --solution for the answer)."""
    from .formats import position_from_dict
    from .puzzles.files import read_puzzle_file
    from .render.terminal import puzzle_view

    items = read_puzzle_file(file)["puzzles"]
    if pid is not None:
        items = [p for p in items if p.get("id") == pid]
        if not items:
            raise ScoponeError(f"{file}: --id: no puzzle {pid!r} in the file")
    if as_json:
        _emit_json(items if solution else [{k: p[k] for k in ("id", "position", "question", "to_move")} for p in items])
        return
    con = _console()
    for p in items:
        pos = position_from_dict(p["position"], f"{file}: {p.get('id')}")
        con.print(puzzle_view(p, pos, solution, _notation(con, notation)))
        con.print()


@puzzles.command("book")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("-o", "--output", "html_path", type=click.Path(dir_okay=False), default=None,
              help="Write the book as one HTML file.")
@click.option("--pdf", "pdf_path", type=click.Path(dir_okay=False), default=None,
              help="Write the book as a PDF (page numbers, page references, bookmarks).")
@click.option("--order", type=click.Choice(["file", "difficulty", "theme"]), default="file", show_default=True,
              help="Order of the puzzles.")
@click.option("--per-page", type=click.Choice(["1", "2", "4"]), default="2", show_default=True,
              help="Puzzles per printed page.")
@click.option("--paper", type=click.Choice(["A4", "Letter"], case_sensitive=False), default="A4", show_default=True)
@click.option("--title", default="Scopone Scientifico: puzzles", show_default=True)
@click.option("--verify", is_flag=True, help="Re-solve every puzzle first; refuse the file if a claim fails.")
@handle_errors
def puzzles_book(file, html_path, pdf_path, order, per_page, paper, title, verify):
    """Render a puzzle file as a printable book (HTML and/or PDF)."""
    from .puzzles.book import write_book
    from .puzzles.files import read_puzzle_file

    if html_path is None and pdf_path is None:
        raise click.UsageError("give -o BOOK.html and/or --pdf BOOK.pdf")
    data = read_puzzle_file(file)
    if verify:
        from .puzzles import verify_file

        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        with Progress(TextColumn("[bold]verifying"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=Console(stderr=True, highlight=False), transient=True) as bar:
            task = bar.add_task("", total=len(data["puzzles"]))
            failed = verify_file(data, on_puzzle=lambda i, p, errs: bar.advance(task))
        if failed:
            pid, errs = next(iter(failed.items()))
            raise ScoponeError(f"{file}: puzzle {pid}: {errs[0]}"
                               + (f" (and {len(failed) - 1} more puzzles fail)" if len(failed) > 1 else ""))
    write_book(data, html_path, pdf_path, order=order, per_page=int(per_page), paper=paper, title=title,
               source=file)
    for path in (html_path, pdf_path):
        if path:
            click.echo(f"wrote {path} ({len(data['puzzles'])} puzzles)")


def _player_spec(ctx, param, value):
    """Check a player spec (``pimc:samples=40``) at parse time."""
    if value is None:
        return value
    from .players import make_player

    try:
        make_player(value)
    except ScoponeError as e:
        raise click.BadParameter(str(e)) from None
    return value


@main.command()
@click.argument("player_a", metavar="PLAYER_A", callback=_player_spec)
@click.argument("player_b", metavar="PLAYER_B", callback=_player_spec)
@click.option("-n", "deals", type=click.IntRange(min=1), default=100, show_default=True,
              help="Deals, each played twice with the teams swapping seats.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the deals and of the players.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: the usable CPUs; the results are the same for any number).")
@click.option("--save", "save_dir", type=click.Path(file_okay=False), default=None,
              help="Directory for every deal's game record and the results (an interrupted match resumes there).")
@click.option("--scheduler", metavar="ADDRESS", default=None, help="Play on an existing Dask cluster.")
@json_option
@rules_option
@handle_errors
def match(player_a, player_b, deals, seed, workers, save_dir, scheduler, as_json, rules_text):
    """Play PLAYER_A against PLAYER_B on paired deals.

    Players: random, greedy, heuristic, pimc (options: pimc:samples=64,time=0,
    exact=16,rollout=heuristic), dd (cheats: sees every hand; for calibration).
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from .players.match import run_match
    from .render.terminal import match_view

    con = Console(stderr=True, highlight=False)
    summary = None
    with Progress(TextColumn("[bold]match"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TextColumn("{task.description}"), console=con, disable=as_json) as bar:
        task = bar.add_task("", total=deals)

        def on_result(s) -> None:
            nonlocal summary
            summary = s
            mean, ci = s.points_per_deal, s.interval
            desc = "" if mean is None else f"A - B {mean:+.2f}" + (f" [{ci[0]:+.2f}, {ci[1]:+.2f}]" if ci else "")
            bar.update(task, completed=s.pairs, description=desc)

        try:
            summary = run_match(player_a, player_b, deals, seed, _rules_opt(rules_text), workers=workers or _cpus(),
                                save=save_dir, scheduler=scheduler, on_result=on_result)
        except KeyboardInterrupt:
            bar.stop()
            done = summary.pairs if summary else 0
            where = (f"; the results are in {save_dir}: run the same command to resume" if save_dir
                     else " (use --save DIR to make a match resumable)")
            click.echo(f"interrupted after {done} of {deals} deals{where}", err=True)
            if summary and summary.pairs:
                _console().print(match_view(summary.as_dict()))
            sys.exit(130)
    if as_json:
        _emit_json(summary.as_dict())
    else:
        _console().print(match_view(summary.as_dict()))


@main.command()
@click.option("--seat", type=click.IntRange(0, 3), default=0, show_default=True,
              help="Your seat (0 South and 2 North are team A).")
@click.option("--partner", default="heuristic", show_default=True, callback=_player_spec, help="Your partner's player.")
@click.option("--opponents", default="heuristic", show_default=True, callback=_player_spec,
              help="The opponents' player.")
@click.option("--seed", type=int, default=None, help="Seed of the deal (default: a new one each time).")
@click.option("--first", type=click.IntRange(0, 3), default=None, help="Seat that plays first (default: from the seed).")
@click.option("--game", is_flag=True, help="Play deals until a team reaches the rules' target.")
@click.option("--save", "save_path", type=click.Path(dir_okay=False), default=None,
              help="Write the deal as a game record (with --game, NAME-2.json... for the later deals).")
@notation_option
@rules_option
@handle_errors
def play(seat, partner, opponents, seed, first, game, save_path, notation, rules_text):
    """Play a deal (or a game) in the terminal against the players.

    Type a move's number or its text (7D, 7Dx3C+4S) at the prompt; quit or
    end of input stops and saves what was played.
    """
    from .session import play_session

    con = _console()
    stdin = click.get_text_stream("stdin")

    def ask():
        click.echo("> ", nl=False)
        line = stdin.readline()
        return line if line else None

    code = play_session(seat=seat, partner=partner, opponents=opponents, seed=seed, first=first,
                        rules=_rules_opt(rules_text), whole_game=game, save=save_path, console=con,
                        notation=_notation(con, notation), ask=ask, tell=lambda text: click.echo(text))
    sys.exit(code)


@main.command()
@click.argument("game", type=click.Path(dir_okay=False))
@click.option("--samples", type=click.IntRange(min=2), default=32, show_default=True,
              help="Deals of the hidden cards per play for the seat's view.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the sampled deals.")
@click.option("--budget", type=click.FloatRange(min=0, min_open=True), default=5.0, show_default=True,
              metavar="SECONDS", help="Exact search per play (all hands seen) before an estimate is used.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False), default=None,
              help="Write a self-contained HTML report (chart, plays, the cards at any play).")
@click.option("--puzzles", "puzzles_path", type=click.Path(dir_okay=False), default=None,
              help="Write the mistakes that have a unique best answer as puzzles (scopone-puzzles/1).")
@json_option
@rules_option
@notation_option
@handle_errors
def analyze(game, samples, seed, budget, html_path, puzzles_path, as_json, rules_text, notation):
    """Analyse a played deal: what each play cost, with all hands seen and from the player's seat."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from .coach import CoachSettings, analyse_game
    from .render.terminal import analysis_view

    from .formats import check_output

    record = load_game(game, _rules_opt(rules_text))
    record.replay(game)  # an illegal move is reported before any work
    for out in (html_path, puzzles_path):
        if out is not None:
            check_output(out)  # a bad output path is reported before any work
    settings = CoachSettings(samples=samples, seed=seed, budget=budget)
    con = Console(stderr=True, highlight=False)
    with Progress(TextColumn("[bold]analysing"), TextColumn("{task.description}"), BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(), console=con, transient=True, disable=as_json) as bar:
        task = bar.add_task("", total=len(record.moves))

        def on_progress(phase, done, total):
            bar.update(task, description=phase, completed=done, total=total)

        try:
            analysis = analyse_game(record, settings, game, on_progress)
        except KeyboardInterrupt:
            click.echo("interrupted: nothing written", err=True)
            sys.exit(130)
    d = analysis.as_dict()
    if html_path is not None:
        from .coach.report import report_html
        from .formats import write_text_atomic

        write_text_atomic(html_path, report_html(record, analysis, f"Analysis of {game}"))
        d["html"] = html_path
        if not as_json:
            click.echo(f"wrote the report to {html_path}", err=True)
    if puzzles_path is not None:
        from . import __version__
        from .coach import mistake_puzzles
        from .puzzles import PUZZLES_FORMAT

        found = mistake_puzzles(record, analysis, game)
        write_json_atomic(puzzles_path, {"format": PUZZLES_FORMAT, "generator": {"name": "scopone analyze",
                                         "version": __version__}, "rules": record.rules.name, "puzzles": found})
        d["puzzles"] = {"output": puzzles_path, "count": len(found)}
        if not as_json:
            click.echo(f"wrote {len(found)} puzzles from the mistakes to {puzzles_path}", err=True)
    if as_json:
        _emit_json(d)
    else:
        con = _console()
        con.print(analysis_view(d, _notation(con, notation)))


@main.command("solve-batch")
@click.argument("source", type=click.Path(dir_okay=False))
@click.option("-o", "--output", type=click.Path(dir_okay=False), required=True,
              help="Results as JSON Lines, one per input line (resumed if it exists).")
@click.option("--mode", type=click.Choice(["all", "optimal", "best"]), default="best", show_default=True)
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=None, metavar="SECONDS",
              help="Per position: stop and report the proven bounds.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: the usable CPUs).")
@click.option("--engine", type=click.Choice(["auto", "c", "python"]), default="auto", show_default=True)
@click.option("--memory", "memory_mb", type=click.IntRange(min=1), default=None, metavar="MB",
              help="Bound each worker's transposition table (default 1024).")
@click.option("--scheduler", metavar="ADDRESS", default=None,
              help="Run on an existing Dask cluster (tcp://host:8786; pip install \"scopone[cluster]\").")
@handle_errors
def solve_batch(source, output, mode, time_limit, workers, engine, memory_mb, scheduler):
    """Solve every position of a JSON Lines file (scopone deal --count N makes one).

    A bad line is reported with its number and the rest goes on (exit code 1
    at the end); an interrupted run resumes where it stopped.
    """
    from .solver.batch import solve_batch as run_batch

    written, bad = _run_batch(
        "solving", None, output,
        lambda on_result: run_batch(source, output, mode=mode, time_limit=time_limit, workers=workers or _cpus(),
                                    engine=engine, scheduler=scheduler, on_result=on_result, memory_mb=memory_mb),
        lambda result: f"{source}: line {result['line']}: {result['error']}")
    click.echo(f"wrote {written} results to {output}"
               + (f"; {bad} {'line is' if bad == 1 else 'lines are'} not a position" if bad else ""), err=True)
    if bad:
        sys.exit(1)


def _run_batch(label: str, total, output: str, run, describe):
    """Run a batch command's job (``run(on_result)`` returns (written, bad)) with a
    progress bar on stderr, each bad row told as it comes (``describe(row)``);
    Ctrl-C keeps the rows already written and says how to resume."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    con = Console(stderr=True, highlight=False)
    with Progress(TextColumn(f"[bold]{label}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=con) as bar:
        task = bar.add_task("", total=total)

        def on_result(result, done, total):
            if "error" in result:
                bar.console.print(describe(result), soft_wrap=True, markup=False, highlight=False)
            bar.update(task, completed=done, total=total)

        try:
            return run(on_result)
        except KeyboardInterrupt:
            click.echo(f"interrupted: the results so far are in {output}; run the same command to resume", err=True)
            sys.exit(130)


@main.command("analyze-batch")
@click.argument("games", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("-o", "--output", type=click.Path(dir_okay=False), required=True,
              help="Analyses as JSON Lines, one per record (resumed if it exists).")
@click.option("--samples", type=click.IntRange(min=2), default=32, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--budget", type=click.FloatRange(min=0, min_open=True), default=5.0, show_default=True,
              metavar="SECONDS")
@click.option("--workers", type=click.IntRange(min=1), default=None, help="Worker processes (default: the usable CPUs).")
@click.option("--scheduler", metavar="ADDRESS", default=None, help="Run on an existing Dask cluster.")
@handle_errors
def analyze_batch(games, output, samples, seed, budget, workers, scheduler):
    """Analyse many game records (a season of a club): one JSON line each, as scopone analyze --json."""
    from .coach import CoachSettings
    from .coach.batch import analyze_batch as run_batch

    settings = CoachSettings(samples=samples, seed=seed, budget=budget)
    written, bad = _run_batch(
        "analysing", len(games), output,
        lambda on_result: run_batch(list(games), output, settings, workers=workers or _cpus(), scheduler=scheduler,
                                    on_result=on_result),
        lambda result: result["error"])
    click.echo(f"wrote {written} analyses to {output}"
               + (f"; {bad} {'record has' if bad == 1 else 'records have'} errors" if bad else ""), err=True)
    if bad:
        sys.exit(1)
