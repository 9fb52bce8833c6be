"""Make the value network of scopone/solver/value_net.py: exact values of random
endgames, then a small network fitted to them with numpy (no other library; it
comes with ``pip install -e ".[test]"``).

    python tools/train_value_net.py generate 5 200000 320000 data5.npy      # mode all: the root and its children
    python tools/train_value_net.py generate 7 500000 500800 data7.npy --mode best
    python tools/train_value_net.py train data4.npy,data5.npy,... scopone/solver/data/value_net.npz

``generate N A B OUT``: for each seed S in [A, B), the endgame ``deal(seed=S,
cards_per_hand=N)`` after 0-3 random plays (a generator seeded with S), solved
exactly on the compiled core; with ``--mode all`` (the default) every root
move's child is a row too.  Rows are the network's ROW_FIELDS and the value;
the file is rewritten every 100 seeds, so an interrupted run keeps its rows.

``train FILES OUT``: a tenth of the rows held out, drawn at random; every
training row taken under the six renamings of the three suits besides Denari
(which leave the game the same under the standard rules); Adam on the squared
error, batches of 512, the learning rate 1e-3 cut by 3 at 60% and 85% of the
epochs.  It prints the held-out error after each epoch.

The shipped weights (scopone/solver/data/value_net.npz), about 30 minutes on two
cores::

    python tools/train_value_net.py generate 4 300000 320000 d4.npy               # 100,231 rows
    python tools/train_value_net.py generate 5 200000 260000 d5.npy               # 360,842 rows
    python tools/train_value_net.py generate 6 400000 406000 d6.npy               # 42,108 rows
    python tools/train_value_net.py generate 7 500000 500600 d7.npy --mode best   # 600 rows
    python tools/train_value_net.py train d4.npy,d5.npy,d6.npy,d7.npy scopone/solver/data/value_net.npz

(held-out error 0.78 points after 10 epochs).  The rows come out the same, but
the weights do not: the rounding of the matrix library's sums grows through the
epochs, and a training run on 7 December 2026 gave weights up to 1.7 from the
shipped ones, guesses off by 31 points in all on the 60 benchmark endgames
(the shipped weights: 28) and 0.5% fewer nodes there (docs/solver-notebook.md,
"A nineteenth session").  "A seventeenth session" has what the network saves.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scopone.deal import deal  # noqa: E402
from scopone.solver import make_backends  # noqa: E402
from scopone.solver.driver import solve_with  # noqa: E402
from scopone.cards import SUIT_PERMUTATIONS  # noqa: E402
from scopone.solver.value_net import dense, position_row, targets  # noqa: E402


def _solve(args: tuple[int, int, str]) -> list[list[int]]:
    seed, n, mode = args
    rng = random.Random(seed)
    pos = deal(seed=seed, cards_per_hand=n)
    for _ in range(rng.randrange(4)):
        pos.push(rng.choice(pos.legal_moves()))
    backend, _ = make_backends(pos, "c")
    result = solve_with(backend, pos, mode=mode, line=False)
    rows = [position_row(pos) + [result.value]]
    for mv in result.moves if mode == "all" else []:
        if mv.value is not None:
            pos.push(mv.move)
            rows.append(position_row(pos) + [mv.value])
            pos.pop()
    return rows


def generate(n: int, first: int, stop: int, out: Path, mode: str, procs: int) -> None:
    rows: list[list[int]] = []
    with Pool(procs) as pool:
        jobs = [(s, n, mode) for s in range(first, stop)]
        for i, got in enumerate(pool.imap(_solve, jobs, chunksize=1 if n >= 6 else 16)):
            rows += got
            if i % 100 == 99 or i == len(jobs) - 1:
                np.save(out, np.array(rows, dtype=np.int64))
                print(f"\r{i + 1}/{len(jobs)} seeds, {len(rows)} rows", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)


def train(files: list[str], out: Path, hidden: tuple[int, int], epochs: int, seed: int) -> None:
    data = np.concatenate([np.load(f) for f in files])
    rng = np.random.default_rng(seed)
    held = rng.random(len(data)) < 0.1  # a tenth of every file's rows, drawn at random
    train_rows, test_rows = data[~held], data[held]
    def inputs(rows: np.ndarray, perm=None) -> np.ndarray:
        return np.array([dense([int(v) for v in r[:-1]], perm) for r in rows], dtype=np.float32)

    def wanted(rows: np.ndarray) -> np.ndarray:
        return np.array(targets(rows[:, :-1].tolist(), rows[:, -1].tolist()), dtype=np.float32)

    x = np.concatenate([inputs(train_rows, p) for p in SUIT_PERMUTATIONS])
    y = np.concatenate([wanted(train_rows)] * len(SUIT_PERMUTATIONS))
    xt, yt = inputs(test_rows), wanted(test_rows)
    print(f"{len(x)} training rows, {len(xt)} held out; predicting the mean: "
          f"error {np.sqrt(((yt - y.mean()) ** 2).mean()):.3f}", flush=True)
    d, (h1, h2) = x.shape[1], hidden
    params = [rng.normal(0, np.sqrt(2 / d), (d, h1)), np.zeros(h1), rng.normal(0, np.sqrt(2 / h1), (h1, h2)),
              np.zeros(h2), rng.normal(0, np.sqrt(1 / h2), (h2, 1)), np.zeros(1)]
    params = [p.astype(np.float32) for p in params]
    m1 = [np.zeros_like(p) for p in params]
    m2 = [np.zeros_like(p) for p in params]
    step, lr, batch = 0, 1e-3, 512
    for epoch in range(epochs):
        t0 = time.time()
        if epoch in (int(epochs * 0.6), int(epochs * 0.85)):
            lr /= 3
        order = rng.permutation(len(x))
        for i in range(0, len(x), batch):
            j = order[i:i + batch]
            w1, b1, w2, b2, w3, b3 = params
            a1 = np.maximum(x[j] @ w1 + b1, 0)
            a2 = np.maximum(a1 @ w2 + b2, 0)
            g = (2 * ((a2 @ w3 + b3)[:, 0] - y[j]) / len(j))[:, None]
            g2 = (g @ w3.T) * (a2 > 0)
            g1 = (g2 @ w2.T) * (a1 > 0)
            grads = [x[j].T @ g1, g1.sum(0), a1.T @ g2, g2.sum(0), a2.T @ g, g.sum(0)]
            step += 1
            for k, (p, gk) in enumerate(zip(params, grads)):
                m1[k] = 0.9 * m1[k] + 0.1 * gk
                m2[k] = 0.999 * m2[k] + 0.001 * gk * gk
                p -= lr * (m1[k] / (1 - 0.9 ** step)) / (np.sqrt(m2[k] / (1 - 0.999 ** step)) + 1e-8)
        w1, b1, w2, b2, w3, b3 = params
        err = (np.maximum(np.maximum(xt @ w1 + b1, 0) @ w2 + b2, 0) @ w3 + b3)[:, 0] - yt
        print(f"epoch {epoch + 1}/{epochs} ({time.time() - t0:.0f} s): held-out error {np.sqrt((err ** 2).mean()):.3f}, "
              f"within half a point {np.mean(np.abs(err) < 0.5):.1%}", flush=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(out, *params)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate", help="exact values of random endgames")
    g.add_argument("n", type=int, help="cards per hand")
    g.add_argument("first", type=int)
    g.add_argument("stop", type=int)
    g.add_argument("out", type=Path)
    g.add_argument("--mode", choices=("all", "best"), default="all")
    g.add_argument("--procs", type=int, default=2)
    t = sub.add_parser("train", help="fit the network")
    t.add_argument("files", help="comma-separated .npy files from generate")
    t.add_argument("out", type=Path)
    t.add_argument("--hidden", default="256,32")
    t.add_argument("--epochs", type=int, default=10)
    t.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    if a.cmd == "generate":
        generate(a.n, a.first, a.stop, a.out, a.mode, a.procs)
    else:
        h1, h2 = (int(v) for v in a.hidden.split(","))
        train(a.files.split(","), a.out, (h1, h2), a.epochs, a.seed)


if __name__ == "__main__":
    main()
