"""Write the reference pictures in docs/screenshots/ (run: python docs/gen_screenshots.py).

Each is a position after some random moves (seeded, so the same every time), drawn as the
first player sees it, with ``speciation.render``; PNG needs the ``table`` extra.
"""
from __future__ import annotations

from pathlib import Path

from speciation import Game, load_ruleset
from speciation.agents import RandomAgent
from speciation.render import render_png, render_svg

OUT = Path(__file__).resolve().parent / "screenshots"
ROOT = Path(__file__).resolve().parent.parent
PICTURES = [  # file name, ruleset, players, moves, language
    ("original", "original", 4, 160, None),
    ("marine", "marine", 3, 150, None),
    ("marine_pl", "marine", 3, 150, "pl"),
    ("fixture_mini", str(ROOT / "tests/support/fixtures/mini"), 3, 3, None),
]


def position(ruleset: str, players: int, moves: int, lang: str | None) -> Game:
    game = Game.new(load_ruleset(ruleset), players, seed=1, lang=lang)
    agents = [RandomAgent(1, seat) for seat in range(players)]
    for _ in range(moves):
        if game.is_over:
            break
        game.apply(agents[game.current_player].choose(game))
    return game


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for name, ruleset, players, moves, lang in PICTURES:
        game = position(ruleset, players, moves, lang)
        (OUT / f"{name}.png").write_bytes(render_png(render_svg(game, seat=0, lang=lang)))
        print(f"wrote {OUT / name}.png")


if __name__ == "__main__":
    main()
