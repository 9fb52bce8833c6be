"""Human-readable views of positions, moves, scores and solver results (rich).

Everything here returns rich renderables; the CLI prints them.  Cards and moves
are written in one notation (``letters`` or ``symbols``, see
:mod:`scopone.render.cards`), coloured by suit (Denari yellow, Coppe red, Spade
blue, Bastoni green); rich drops the colour when the output is not a terminal.
"""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ..cards import CardMask, iter_cards, suit_of
from ..position import SEAT_NAMES, Move, Position
from ..scoring import TEAMS, Score, standings
from .cards import card_label, split_cards, suit_sign
from .lines import Step, line_steps

SUIT_STYLES = ("bold yellow", "red", "blue", "green")
#: The partnerships by the seats' names (team A holds seats 0 and 2).
TEAM_NAMES = ("North–South", "East–West")


def card_text_styled(card: int, notation: str = "symbols") -> Text:
    """One card as styled text (``7♦`` in yellow)."""
    return Text(card_label(card, notation), style=SUIT_STYLES[suit_of(card)])


def cards_styled(mask: CardMask, notation: str = "symbols", empty: str = "-") -> Text:
    """A card set as styled text, sorted by rank."""
    if not mask:
        return Text(empty, style="dim")
    return Text(" ").join(card_text_styled(c, notation) for c in iter_cards(mask))


def text_styled(text: str, notation: str = "symbols", style: str = "") -> Text:
    """Any text with its card tokens (``7D``) written in ``notation`` and coloured."""
    out = Text(style=style)
    for piece in split_cards(text):
        if isinstance(piece, int):
            out += card_text_styled(piece, notation)
        else:
            out += Text(piece, style=style)
    return out


def move_styled(move, notation: str = "symbols") -> Text:
    """A move (or its text) as styled text (``7♦x3♥+4♠``)."""
    return text_styled(move if isinstance(move, str) else move.text(), notation)


def line_styled(moves, first_seat: int, notation: str = "symbols", start: Position | None = None) -> Text:
    """A line of play, each move labelled with its seat: ``South 7♦  East 3♥x3♠``;
    given the ``start`` position, each scopa is marked."""
    if start is not None:
        steps = line_steps(start, moves)
    else:
        steps = [Step((first_seat + i) % 4, mv if isinstance(mv, str) else mv.text(), False)
                 for i, mv in enumerate(moves)]
    out = Text()
    for i, st in enumerate(steps):
        if i:
            out += Text("  ")
        out += Text(SEAT_NAMES[st.seat] + " ", style="dim") + move_styled(st.move, notation)
        if st.scopa:
            out += Text(" scopa!", style="bold magenta")
    return out


def seat_label(seat: int) -> str:
    """``South (North–South)``: a seat by its name and its partnership."""
    return f"{SEAT_NAMES[seat]} ({TEAM_NAMES[seat & 1]})"


def order_text() -> str:
    """The playing order and the partnerships, in one line."""
    return (f"Play goes {' → '.join(SEAT_NAMES)} → {SEAT_NAMES[0]}; partners sit opposite: "
            f"{TEAM_NAMES[0]} (team A) against {TEAM_NAMES[1]} (team B).")


def legend_text(notation: str = "symbols") -> Text:
    """The suits named once, in the notation's own signs and colours."""
    from ..cards import SUIT_NAMES

    out = Text("Suits: ", style="dim")
    for s in range(4):
        if s:
            out += Text(" · ", style="dim")
        out += Text(suit_sign(s, notation), style=SUIT_STYLES[s]) + Text(f" {SUIT_NAMES[s]}")
    return out


def position_view(pos: Position, notation: str = "symbols", title: str | None = None,
                  hidden: tuple[int, ...] = ()) -> Group:
    """The table as players sit: North at the top, West and East at the sides, South
    below, the cards on the table in the middle; then the piles, who plays, and
    the score so far (a category's point only once it is decided).  The hands of
    the ``hidden`` seats show only how many cards they hold."""
    def hand(seat: int) -> Text:
        mark = "  ← to play" if seat == pos.to_move and not pos.is_over() else ""
        head = Text(seat_label(seat), style="bold") + Text(mark, style="bold green")
        if seat in hidden:
            return head + Text("\n") + Text(f"{pos.hands[seat].bit_count()} cards, not seen", style="dim")
        return head + Text("\n") + cards_styled(pos.hands[seat], notation)

    grid = Table(title=title, show_header=False, box=None, pad_edge=False, padding=(0, 2))
    for _ in range(3):
        grid.add_column(vertical="middle")
    grid.add_row("", hand(2), "")
    grid.add_row(hand(3), Text("Table", style="bold") + Text("\n") + cards_styled(pos.table, notation, empty="empty"),
                 hand(1))
    grid.add_row("", hand(0), "")
    piles = Table(show_header=False, box=None, pad_edge=False)
    piles.add_column(style="bold")
    piles.add_column()
    for team in (0, 1):
        pile = pos.piles[team]
        piles.add_row(f"Pile {TEAMS[team]} ({TEAM_NAMES[team]})",
                      Text(f"{pile.bit_count()} cards, {pos.scope[team]} scope", style="dim") + Text("  ")
                      + cards_styled(pile, notation))
    last = "nobody yet" if pos.last_capture is None else f"{TEAMS[pos.last_capture]} ({TEAM_NAMES[pos.last_capture]})"
    status = ("The deal is over." if pos.is_over()
              else f"{SEAT_NAMES[pos.to_move]} to play.")
    info = Text(f"{status} Last capture: {last}. Rules: {pos.rules.name}.")
    if pos.is_over():
        score = score_view(pos.score(), title="Final score")
    else:
        score = standings_view(pos, title="Score so far")
    return Group(grid, Text(""), piles, info, Text(order_text(), style="dim"), legend_text(notation), score)


def standings_view(pos: Position, title: str | None = "Score so far") -> Table:
    """Each category as it stands: what each team holds and the point only once no
    card left can change it (otherwise who leads)."""
    t = Table(title=title, title_justify="left")
    t.add_column("category")
    t.add_column("A", justify="right")
    t.add_column("B", justify="right")
    t.add_column("points A-B", justify="right")
    sure = [0, 0]
    for st in standings(pos.piles[0], pos.piles[1], pos.scope, pos.rules):
        if st.points is None:
            state = Text(f"open, {TEAMS[st.leader]} leads" if st.leader is not None else "open", style="dim")
        else:
            state = Text(f"{st.points[0]}-{st.points[1]}")
            sure[0] += st.points[0]
            sure[1] += st.points[1]
        t.add_row(st.category, st.a, st.b, state)
    t.add_row(Text("decided so far", style="bold"), Text(str(sure[0]), style="bold"), Text(str(sure[1]), style="bold"),
              Text(f"{sure[0] - sure[1]:+d}", style="bold"))
    t.caption = "* a suit is missing · open: cards still to play can change it"
    return t


def score_view(score: Score, title: str | None = "Score") -> Table:
    """The per-category breakdown, one row per category."""
    t = Table(title=title, title_justify="left")
    t.add_column("category")
    t.add_column("A", justify="right")
    t.add_column("B", justify="right")
    t.add_column("points A-B", justify="right")
    pts = lambda p: f"{p[0]}-{p[1]}"  # noqa: E731
    t.add_row("carte", str(score.carte[0]), str(score.carte[1]), pts(score.carte_points))
    t.add_row("denari", str(score.denari[0]), str(score.denari[1]), pts(score.denari_points))
    t.add_row("settebello", "yes" if score.settebello[0] else "", "yes" if score.settebello[1] else "",
              pts(score.settebello_points))
    prim = lambda i: f"{score.primiera[i]}" + ("" if score.primiera_complete[i] else "*")  # noqa: E731
    t.add_row("primiera", prim(0), prim(1), pts(score.primiera_points))
    t.add_row("scope", str(score.scope[0]), str(score.scope[1]), pts(score.scope))
    if any(score.re_bello_points):
        t.add_row("re bello", "yes" if score.re_bello[0] else "", "yes" if score.re_bello[1] else "",
                  pts(score.re_bello_points))
    if any(score.napola_points):
        t.add_row("napola", str(score.napola[0]), str(score.napola[1]), pts(score.napola_points))
    a, b = score.points
    t.add_row(Text("total", style="bold"), Text(str(a), style="bold"), Text(str(b), style="bold"),
              Text(f"{score.value:+d}", style="bold"))
    if not all(score.primiera_complete):
        t.caption = "* a suit is missing (strict primiera: cannot win it)"
    return t


def moves_view(pos: Position, notation: str = "symbols") -> Table:
    """Every legal move, grouped by card, marking single-card priority."""
    t = Table(title=f"{seat_label(pos.to_move)} to play: {len(pos.legal_moves())} legal moves",
              title_justify="left")
    t.add_column("card")
    t.add_column("moves")
    t.add_column("note", style="dim")
    by_card: dict[int, list[Move]] = {}
    for m in pos.legal_moves():
        by_card.setdefault(m.card, []).append(m)
    for card, ms in by_card.items():
        note = "single-card priority" if pos.priority_forced(card) else (
            "laid down" if not ms[0].captured else "")
        t.add_row(card_text_styled(card, notation), Text(", ").join(move_styled(m, notation) for m in ms), note)
    return t


def bound_text(lower: int, upper: int) -> str:
    """Proven bounds on a value, ``-INF``/``INF`` where none is proven.

    >>> from scopone.solver import INF
    >>> bound_text(3, 3), bound_text(-5, 0), bound_text(2, INF), bound_text(-INF, INF)
    ('+3', '-5 .. +0', '≥ +2', 'unknown')
    """
    from ..solver import INF as inf

    if lower == upper:
        return f"{lower:+d}"
    lo = f"{lower:+d}" if lower > -inf else "?"
    hi = f"{upper:+d}" if upper < inf else "?"
    if lo != "?" and hi == "?":
        return f"≥ {lo}"
    if hi != "?" and lo == "?":
        return f"≤ {hi}"
    return f"{lo} .. {hi}" if lo != "?" else "unknown"


def solve_view(pos: Position, result, notation: str = "symbols") -> Group:
    """Value, every move's value (best first, ties grouped), the best line, the stats."""
    parts = []
    head = Text(f"{seat_label(pos.to_move)} to play. ", style="bold")
    if result.complete:
        head += Text(f"Value {result.value:+d}", style="bold green") + Text(" (points A − points B at the end of the deal)")
    else:
        head += Text(f"INCOMPLETE: value {bound_text(result.lower, result.upper)}", style="bold red")
        head += Text(" (stopped early; only proven bounds are shown)")
    parts.append(head)
    t = Table(title_justify="left", title=f"moves ({result.mode})")
    t.add_column("value", justify="right")
    t.add_column("move")
    prev = None
    for mv in result.moves:
        vt = bound_text(mv.lower, mv.upper)
        same = vt == prev
        t.add_row("" if same else vt, move_styled(mv.move, notation))
        prev = vt
    parts.append(t)
    if result.line:
        parts.append(Text("best line: ", style="bold") + line_styled(result.line, pos.to_move, notation, pos))
        parts.append(legend_text(notation))
    if result.final_score is not None:
        parts.append(score_view(result.final_score, title="final score on the best line"))
    st = result.stats
    hits = st.get("tt_hits", 0)
    nodes = st.get("nodes", 0)
    mem = st.get("tt_memory_bytes")
    parts.append(Text(
        f"engine {st.get('engine')}" + (f" · {st['threads']} threads" if st.get("threads", 1) > 1 else "")
        + f" · {nodes:,} nodes · {st.get('nodes_per_second', 0):,} nodes/s · "
        f"{st.get('time', 0):.3f} s · TT hits {hits:,}"
        + (f" · TT entries {st['tt_entries']:,}" if "tt_entries" in st else "")
        + (f" · TT memory {mem / 2**20:.1f} MiB" if mem else ""), style="dim"))
    return Group(*parts)


def stars(level: int, top: int = 7) -> str:
    """A difficulty level as stars: ``★★★☆☆☆☆``."""
    return "★" * level + "☆" * (top - level)


def puzzle_view(p: dict, pos: Position, solution: bool = False, notation: str = "symbols") -> Group:
    """A puzzle: the question, the diagram, themes and difficulty; with ``solution``
    the answer, why it works, why the tempting move fails, and every first move."""
    diff = p.get("difficulty", {})
    seat_puzzle = p.get("view") == "seat"
    parts: list = [Text(f"Puzzle {p['id']}", style="bold"), text_styled(p["question"], notation, style="bold")]
    hidden = tuple(s for s in range(4) if s != pos.to_move) if seat_puzzle and not solution else ()
    parts.append(position_view(pos, notation, hidden=hidden))
    parts.append(Text(f"Themes: {', '.join(p['themes']) or '-'} · difficulty {stars(diff.get('level', 0))} "
                      f"({diff.get('label')})"))
    if seat_puzzle:
        parts.append(Text("From the player's seat: the other hands are not seen; the answer must work whatever "
                          "they hold.", style="dim"))
    if not solution:
        return Group(*parts)
    team = pos.to_move & 1
    sign = 1 if team == 0 else -1  # values from the solving side
    parts.append(Text("Solution: ", style="bold green") + line_styled(p["solution"], pos.to_move, notation, pos))
    expl = p.get("explanation") or {}
    if isinstance(p.get("margin"), int):
        parts.append(Text(f"Every other first move loses at least {p['margin']} "
                          f"point{'s' if p['margin'] != 1 else ''}."))
    if seat_puzzle and isinstance(p.get("probability"), (int, float)):
        parts.append(Text(f"It works in {p['probability']:.0%} of the deals of the hidden cards."))
    if expl.get("solution"):
        parts.append(text_styled(expl["solution"], notation))
    t = p["tempting"]
    parts.append(Text("Tempting: ", style="bold red") + move_styled(t["move"], notation)
                 + Text(f" ({sign * t['value']:+d} for {TEAM_NAMES[team]}), refuted by "))
    ref = t["refutation"]
    after = pos.copy()
    after.push(after.parse_move(t["move"]))
    parts.append(Text("  ") + line_styled(ref[:8], after.to_move, notation, after)
                 + Text(" …" if len(ref) > 8 else ""))
    if expl.get("tempting"):
        parts.append(text_styled(expl["tempting"], notation))
    why = {m["move"]: m.get("why", "") for m in expl.get("moves", [])}
    mt = Table(title=f"every first move, valued for {TEAM_NAMES[team]} (points, theirs minus the opponents')",
               title_justify="left")
    mt.add_column("value", justify="right")
    mt.add_column("move")
    if why:
        mt.add_column("why")
    for m in p["moves"]:
        row = [f"{sign * m['value']:+d}", move_styled(m["move"], notation)]
        if why:
            row.append(text_styled(why.get(m["move"], ""), notation))
        mt.add_row(*row)
    parts.append(mt)
    return Group(*parts)


def puzzle_summary(data: dict, path: str) -> Group:
    """Counts of a puzzle file: puzzles, rejection reasons, themes, ratings."""
    from collections import Counter

    puzzles = data["puzzles"]
    themes = Counter(t for p in puzzles for t in p["themes"])
    levels = Counter((p["difficulty"]["level"], p["difficulty"]["label"]) for p in puzzles)
    t = Table(title=f"{path}: {len(puzzles)} puzzles", title_justify="left")
    t.add_column("")
    t.add_column("count", justify="right")
    for reason, c in sorted(data.get("rejected", {}).items(), key=lambda x: -x[1]):
        t.add_row(f"rejected: {reason}", str(c))
    for theme, c in themes.most_common():
        t.add_row(f"theme: {theme}", str(c))
    for (level, label), c in sorted(levels.items()):
        t.add_row(f"difficulty {level} ({label})", str(c))
    return Group(t)


def seat_view(obs, moves: list[Move], notation: str = "symbols") -> Group:
    """What one seat sees when it is to play: its hand, the table, the piles,
    how many cards each seat holds, and its legal moves numbered."""
    t = Table(show_header=False, box=None, pad_edge=False)
    t.add_column(style="bold")
    t.add_column()
    t.add_row("Table", cards_styled(obs.table, notation))
    for team in (0, 1):
        pile = obs.piles[team]
        t.add_row(f"Pile {TEAMS[team]} ({TEAM_NAMES[team]})",
                  Text(f"{pile.bit_count()} cards, {obs.scope[team]} scope", style="dim"))
    sizes = "  ".join(f"{SEAT_NAMES[s]} {obs.hand_sizes[s]}" for s in range(4))
    t.add_row("Cards held", Text(sizes, style="dim"))
    t.add_row(f"Your hand ({SEAT_NAMES[obs.seat]})", cards_styled(obs.hand, notation))
    choices = Table(show_header=False, box=None, pad_edge=False)
    choices.add_column(justify="right", style="bold")
    choices.add_column()
    for i, m in enumerate(moves, 1):
        choices.add_row(str(i), move_styled(m, notation))
    return Group(t, Text("Your moves:"), choices)


def match_view(d: dict) -> Group:
    """A match summary (the ``as_dict`` form of :class:`scopone.players.match.MatchSummary`)."""
    mark = lambda side: " (cheats: sees every hand)" if side in d["cheating"] else ""  # noqa: E731
    head = Text(f"A = {d['a']}{mark('a')}\nB = {d['b']}{mark('b')}\n"
                f"{d['pairs']} deals, each played twice with the teams swapped ({d['deals']} deals), rules {d['rules']}")
    if d["points_per_deal"] is None:
        return Group(head, Text("no deals played"))
    ci = d["interval"]
    res = Text(f"A - B: {d['points_per_deal']:+.2f} points per deal"
               + (f", 95% interval [{ci[0]:+.2f}, {ci[1]:+.2f}]" if ci else " (one pair: no interval)"),
               style="bold")
    t = Table(title="points per deal by category", title_justify="left")
    t.add_column("category")
    t.add_column("A", justify="right")
    t.add_column("B", justify="right")
    for c in d["categories"]["a"]:
        t.add_row(c, f"{d['categories']['a'][c]:.2f}", f"{d['categories']['b'][c]:.2f}")
    g = d["games_won"]
    t.add_row("games won", str(g["a"]), str(g["b"]))
    sec = d["seconds_per_decision"]
    for stat in ("median", "mean"):
        t.add_row(f"seconds per decision ({stat})", f"{sec['a'][stat]:.4f}", f"{sec['b'][stat]:.4f}")
    parts = [head, res, t]
    for side in "ab":
        ev = d["evaluations"][side]
        if ev:
            parts.append(Text(f"{side.upper()} valued its decisions: " + ", ".join(
                f"{k} {v}" for k, v in sorted(ev.items()))
                + " (exact: every sampled deal solved exactly; rollout: played on by the rollout player,"
                  " then the endgame solved exactly; forced: one legal move)", style="dim"))
    return Group(*parts)


def _loss_text(value, upper=None) -> str:
    if value is None:
        return "?"
    if upper is not None and upper != value:
        return f"{value:g}..{upper:g}"
    return f"{value:.2f}".rstrip("0").rstrip(".") if isinstance(value, float) else str(value)


def analysis_view(d: dict, notation: str = "symbols") -> Group:
    """The coach's analysis (the ``as_dict`` form of :class:`scopone.coach.Analysis`):
    one row per play and a summary per seat."""
    t = Table(title="plays (losses in points for the player's team)", title_justify="left")
    for col, just in (("#", "right"), ("seat", "left"), ("play", "left"), ("best (seat's view)", "left"),
                      ("loss seat", "right"), ("best (all hands)", "left"), ("loss all", "right"),
                      ("", "left"), ("class", "left"), ("reason", "left")):
        t.add_column(col, justify=just)
    style = {"blunder": "bold red", "mistake": "red", "inaccuracy": "yellow", "good": "", "best": "green"}
    for r in d["plays"]:
        forced = r["legal"] == 1
        seat_best = ", ".join(r["sv_best"][:2]) + ("…" if len(r["sv_best"]) > 2 else "")
        dd_best = ", ".join(r["dd_best"][:2]) + ("…" if len(r["dd_best"]) > 2 else "")
        sv = _loss_text(r["sv_loss"]) if not forced else "-"
        if r["sv_loss_interval"]:
            lo, hi = r["sv_loss_interval"]
            sv += f" ±{(hi - lo) / 2:.2f}"
        cls = "forced" if forced else r["cls"] + (" (unlucky)" if r["unlucky"] else "")
        t.add_row(str(r["index"] + 1), SEAT_NAMES[r["seat"]], move_styled(r["move"], notation),
                  text_styled(seat_best, notation) if not forced else "",
                  sv, text_styled(dd_best, notation) if not forced else "",
                  _loss_text(r["dd_loss"], r["dd_loss_upper"]) if not forced else "-",
                  {"exact": "", "bounded": "≥", "estimated": "est."}.get(r["dd_kind"], ""),
                  Text(cls, style=style.get(r["cls"], "") if not forced else "dim"),
                  text_styled("; ".join(r["reasons"]), notation))
    s = Table(title="per seat", title_justify="left")
    for col in ("seat", "team", "lost (seat's view)", "lost (all hands)", "best", "good", "inaccuracies",
                "mistakes", "blunders", "unlucky", "accuracy"):
        s.add_column(col, justify="left" if col in ("seat", "team") else "right")
    summ = d["summary"]
    for seat in range(4):
        x = summ[str(seat)]
        c = x["classes"]
        s.add_row(SEAT_NAMES[seat], TEAMS[seat & 1], f"{x['lost_seat_view']:.2f}", f"{x['lost_all_hands']:g}",
                  str(c["best"]), str(c["good"]), str(c["inaccuracy"]), str(c["mistake"]), str(c["blunder"]),
                  str(x["unlucky"]), f"{x['accuracy']:.0f}%")
    k = summ["all_hands_rows"]
    note = Text(f"all hands seen: {k['exact']} plays exact, {k['bounded']} bounded (≥: the proven least loss), "
                f"{k['estimated']} estimated (est.: heuristic play to 16 cards, then exact), {k['forced']} forced; "
                f"seat's view over {d['settings']['samples']} sampled deals per play (every deal when few); "
                f"{d['seconds']:.0f} s", style="dim")
    return Group(t, s, note)
