"""A worked example: imitate the exact coach in ``yatzy/Yatzy-v0`` with NumPy alone.

A linear softmax policy over hand-made features of the observation, masked to the legal
actions, learns ``info["best_action"]`` by cross-entropy on games the coach plays; then it
plays on its own and is scored by the mean of its games and by ``info["regret"]``, the
exact expected points each of its decisions gave up. Kids' Yatzy by default, whose table
takes seconds; ``--rules yatzy`` works too (its table takes a minute to build once).
Usage: python benchmarks/imitate.py [--rules kids] [--train 2000] [--games 10000]
"""

from __future__ import annotations

import argparse
import math
import time

import gymnasium
import numpy as np

import yatzy.envs


def features(env: yatzy.envs.YatzyEnv, obs: np.ndarray) -> np.ndarray:
    """Each face's count as a one-hot, the rolls left as a one-hot, the filled boxes, and
    every face count crossed with every filled box and with the rolls left: what a linear
    policy needs to tell a keep worth chasing from a box already gone."""
    names = env.layout.names()
    at = {n: i for i, n in enumerate(names)}
    counts = np.zeros((6, env.ruleset.dice + 1), dtype=np.float32)
    for face in range(6):
        counts[face, int(obs[at[f"dice[{face + 1}]"]])] = 1.0
    rolls = np.zeros(env.ruleset.rolls_per_turn + 1, dtype=np.float32)
    rolls[int(obs[at["rolls_left"]])] = 1.0
    filled = np.array([obs[at[f"filled[{c}]"]] for c in env.ruleset.category_ids], dtype=np.float32)
    flat = counts.ravel()
    return np.concatenate([[1.0, obs[at["upper_total"]] / 63.0], flat, rolls, filled,
                           np.outer(flat, filled).ravel(), np.outer(flat, rolls).ravel()])


def act(weights: np.ndarray, phi: np.ndarray, mask: np.ndarray) -> int:
    logits = weights @ phi
    return int(np.argmax(np.where(mask == 1, logits, -np.inf)))


def collect(env: yatzy.envs.YatzyEnv, games: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The coach's games: features, masks and the best action of every decision."""
    xs, masks, ys = [], [], []
    for g in range(games):
        obs, info = env.reset(seed=seed + g)
        done = False
        while not done:
            xs.append(features(env, obs))
            masks.append(info["action_mask"])
            ys.append(info["best_action"])
            obs, _, done, _, info = env.step(info["best_action"])
    return np.array(xs, dtype=np.float32), np.array(masks), np.array(ys)


def train(x: np.ndarray, masks: np.ndarray, y: np.ndarray, n_actions: int, epochs: int) -> np.ndarray:
    """Masked softmax regression by Adam on mini-batches of 256."""
    rng = np.random.default_rng(0)
    w = np.zeros((n_actions, x.shape[1]), dtype=np.float32)
    m, v = np.zeros_like(w), np.zeros_like(w)
    step = 0
    for _ in range(epochs):
        for batch in np.array_split(rng.permutation(len(y)), max(1, len(y) // 256)):
            logits = x[batch] @ w.T
            logits = np.where(masks[batch] == 1, logits, -1e9)
            p = np.exp(logits - logits.max(axis=1, keepdims=True))
            p /= p.sum(axis=1, keepdims=True)
            p[np.arange(len(batch)), y[batch]] -= 1.0
            grad = p.T @ x[batch] / len(batch)
            step += 1
            m = 0.9 * m + 0.1 * grad
            v = 0.999 * v + 0.001 * grad**2
            w -= 0.05 * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return w


def evaluate(env: yatzy.envs.YatzyEnv, w: np.ndarray, games: int, seed: int) -> tuple[float, float, float]:
    """Mean score, its standard error, and the mean regret per decision of the policy."""
    totals, regrets = [], []
    for g in range(games):
        obs, info = env.reset(seed=seed + g)
        done = False
        while not done:
            obs, _, done, _, info = env.step(act(w, features(env, obs), info["action_mask"]))
            regrets.append(info["regret"])
        totals.append(env.game.total(0))
    return float(np.mean(totals)), float(np.std(totals, ddof=1) / math.sqrt(games)), float(np.mean(regrets))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", default="kids")
    ap.add_argument("--train", type=int, default=2000, help="games the coach plays to learn from")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--games", type=int, default=10_000, help="games the policy is measured on")
    args = ap.parse_args()
    env = gymnasium.make(yatzy.envs.ENV_ID, rules=args.rules, labels="solve").unwrapped
    t0 = time.perf_counter()
    x, masks, y = collect(env, args.train, seed=0)
    w = train(x, masks, y, env.layout.n_actions, args.epochs)
    agree = float(np.mean([act(w, xi, mi) == yi for xi, mi, yi in zip(x, masks, y, strict=True)]))
    print(f"{len(y)} decisions of {args.train} games played and learnt in {time.perf_counter() - t0:.0f} s; "
          f"the policy agrees with the coach on {agree:.1%} of them")
    mean, se, regret = evaluate(env, w, args.games, seed=10**6)
    exact = env.coach.solution.expected_score  # type: ignore[union-attr]
    print(f"{args.games} games: mean {mean:.2f} ± {se:.2f} (exact optimum {exact:.2f}), "
          f"mean regret {regret:.3f} points a decision")


if __name__ == "__main__":
    main()
