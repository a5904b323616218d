"""The terminal game (issue 9): at a human's prompt, the board, scores, card texts, the
log and undo; the setup log printed; another seat's private lines never printed; resume;
the hot-seat hand-over between two people at one terminal."""
import io
import sys

import pytest

from speciation import Game, load_ruleset
from speciation.agents import HumanAgent, QuitGame, RandomAgent
from speciation.cli import main
from speciation.terminal import TerminalSession
from speciation.undo import UndoRefused
from speciation.api import load_save
from speciation.render import Scene


def play(capsys, monkeypatch, answers, *args):
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(a + "\n" for a in answers)))
    code = main(["play", *args])
    return code, capsys.readouterr().out


def test_prompt_commands_show_board_scores_cards_and_log(capsys, monkeypatch):
    code, out = play(capsys, monkeypatch, ["help", "board", "scores", "card predator", "card preditor", "log 2", "q"],
                     "original", "--players", "3", "--agents", "human,random,random", "--seed", "1")
    assert code == 0 and out.rstrip().endswith("game stopped")
    # the setup part of the log: who plays which animal, where the species start
    assert out.startswith("Player 1 plays the Reptiles\n") and "Reptiles adds 2 species to desert 1,0" in out
    # options name what they are
    assert "  15. Speciation 2: sun\n" in out and "  29. Competition 1: tundra, jungle, wetland\n" in out
    assert "card NAME    a card's text" in out  # help
    board = out[out.index("== Dominant Species — view of Player 1 =="):]
    assert "desert 1,0             Reptiles 2; dominant: Reptiles  [grass, meat, sun, sun]" in board
    assert "Speciation 1: meat = Birds" in board and "Dominance cards: Disease, Fertile, Omnivore" in board
    assert "Reptiles (Player 1): VP 0; Elements sun, sun" in board
    assert out.count("Scores: Player 1 0, Player 2 0, Player 3 0") == 2  # in the board, and 'scores'
    assert "Predator — dominance card\nOn every tile you occupy, eliminate 1 opposing species" in out
    assert "no card named 'preditor' (did you mean 'Predator'?)" in out
    assert "choice [1-39, help, q]:   Birds: Planning: place an action pawn → Speciation 1\n" \
           "choice [1-39, help, q]: game stopped" not in out  # 'log 2' printed two lines:
    assert "choice [1-39, help, q]:   Amphibians: Planning: place an action pawn → Domination 3\n" \
           "  Birds: Planning: place an action pawn → Speciation 1\nchoice" in out


def test_card_names_in_the_chosen_language(capsys, monkeypatch):
    code, out = play(capsys, monkeypatch, ["card asteroida", "card drapieżnik", "q"],
                     "marine", "--players", "2", "--agents", "human,random", "--lang", "pl")
    assert "Asteroida (Asteroid) — karta (talia: Ewolucja)\nWybierz kafel: usuń z niego wszystkie gatunki" in out
    assert "Drapieżnik (Predator) — karta (talia: Ewolucja)" in out
    assert "wybór [1-" in out  # the terminal's own words in the game's language


def test_no_other_seats_private_lines(capsys, monkeypatch):
    # Marine's setup: each animal keeps a trait secretly; only the chooser may read its choice
    game = Game.new(load_ruleset("marine"), 3, seed=1)
    private = [line for line in game.state["log"] if not isinstance(line, str)]
    code, out = play(capsys, monkeypatch, ["1", "q"], "marine", "--players", "3",
                     "--agents", "random,human,random", "--seed", "1")
    assert "[to " not in out
    assert "Cephalopods: Setup: keep a trait (secretly)\n  1. Ancient Lineage\n" in out  # the human's own
    assert "  Cephalopods: Setup: keep a trait (secretly) → Ancient Lineage" in out
    for owner, line in private:  # the dealing and keeping of the others
        if owner != "p2":
            assert line.strip() not in out
    assert "  Crustaceans: Setup: keep a trait (secretly) →" not in out


def test_undo_takes_back_the_last_decision_and_the_replies(original_game):
    game = original_game
    answers = iter(["1", "undo", "2", "q"])
    shown, digests = [], []
    human = HumanAgent(read=lambda prompt: next(answers), write=shown.append)
    asked = human.choose
    human.choose = lambda seat: digests.append(game.digest()) or asked(seat)
    session = TerminalSession(game, [human, RandomAgent(1, 1), RandomAgent(1, 2)], on_log=shown.append)
    session.audience = session.default_audience()
    with pytest.raises(QuitGame):
        session.play()
    assert "undone: back to Player 1's decision 'Planning: place an action pawn'" in shown
    # asked again at the very position of the first decision, the agents' replies gone too
    assert len(digests) == 4 and digests[2] == digests[0] != digests[1] and digests[3] != digests[2]
    assert "  Reptiles: Planning: place an action pawn → Initiative 1" not in game.log
    assert "  Reptiles: Planning: place an action pawn → Adaptation 1" in game.log


@pytest.fixture
def original_game():
    return Game.new(load_ruleset("original"), 3, seed=1)


def test_undo_restores_the_state_exactly(original_game):
    game = original_game
    session = TerminalSession(game, [HumanAgent(), RandomAgent(1, 1), RandomAgent(1, 2)], on_log=None)
    while game.current_player != 0:
        game.apply(RandomAgent(1, 9).choose(game))
    digest = game.digest()
    session.undo_stack.push(session.undo_stack.checkpoint(0))
    game.apply(game.legal_actions()[0])
    while game.current_player != 0:  # the agents reply (placing pawns: no chance)
        game.apply(session.agents[game.current_player].choose(game))
    assert session.undo_refusal(0) is None
    session.undo(0)
    assert game.digest() == digest and game.current_player == 0


def test_undo_refused_after_chance_or_a_reveal():
    toy = load_ruleset("tests/support/fixtures/toy")  # each turn draws a letter from the bag
    game = Game.new(toy, 2, seed=1)
    session = TerminalSession(game, [HumanAgent(), RandomAgent(1, 1)], on_log=None)
    session.undo_stack.push(session.undo_stack.checkpoint(0))
    game.apply(1, decision=game.decision_id)
    assert session.undo_refusal(0) == "chance has been drawn since (something hidden may have been revealed)"
    with pytest.raises(UndoRefused):
        session.undo(0)
    assert session.undo_refusal(1) == "there is no decision of yours to undo"
    # Marine: a secret trait choice made public without any chance
    game = Game.new(load_ruleset("marine"), 3, seed=1)
    seat = game.current_player
    session = TerminalSession(game, [HumanAgent(), HumanAgent(), HumanAgent()], on_log=None)
    other = next(f for f, r in game.state["ent"].items()
                 if r.get("trait_hand") and game.player_of(f) != seat)
    session.undo_stack.push(session.undo_stack.checkpoint(seat))
    record = game.state["ent"][other]
    record["traits"], record["trait_hand"] = record["trait_hand"][:1], []   # revealed
    assert session.undo_refusal(seat).startswith("something hidden from you has been revealed since")


def test_resume_a_saved_game(capsys, monkeypatch, tmp_path):
    save = tmp_path / "game.json"
    code, out = play(capsys, monkeypatch, ["1", "1", "q"], "original", "--players", "2",
                     "--agents", "human,random", "--save", str(save))
    assert code == 0 and save.exists()
    saved = load_save(save.read_text())
    code, out = play(capsys, monkeypatch, ["board", "q"], "--resume", str(save), "--agents", "human,random")
    names = Scene.of(saved, 0)  # the log's places named as the options name them
    assert code == 0 and out.startswith("\n".join(names.readable(line) for line in saved.log_for(0)[-15:]))
    assert f"{saved.label(saved.current_actor)}: {saved.prompt}\n" in out
    assert "== Dominant Species — view of Player 1 ==" in out
    code, out = play(capsys, monkeypatch, [], "--resume", str(save), "--agents", "random", "--quiet")
    assert code == 0 and "winner: " in out
    assert main(["play", "--resume", str(tmp_path / "missing.json")]) == 1
    assert main(["play"]) == 2


HANDOVER = "Pass the terminal to "


def test_hot_seat_hands_the_terminal_over(capsys, monkeypatch):
    # Marine's setup: each animal keeps a trait secretly; Player 2 (Cephalopods) decides
    # first, then Player 1 (Crustaceans), then Player 1 takes the first turn
    game = Game.new(load_ruleset("marine"), 2, seed=1)
    hands = {game.state["ent"][f]["player"]: [game.label(c) for c in game.state["ent"][f]["trait_hand"]]
             for f in ("crustacean", "cephalopod")}
    first, second = hands["p2"], hands["p1"]
    code, out = play(capsys, monkeypatch, ["", "1", "", "1", "q"], "marine", "--players", "2",
                     "--agents", "human,human", "--seed", "1")
    # a hand-over before the first prompt (everybody is still looking), one before Player 1's
    # secret choice, none when Player 1 goes on with the first turn
    assert code == 0 and out.count(HANDOVER) == 2
    setup, before, after = out.split(HANDOVER)
    assert "keep a trait" not in setup and not any(card in setup for card in first + second)
    assert before.startswith("Player 2 (Cephalopods) — press Enter when ready ")
    assert "Cephalopods: Setup: keep a trait (secretly)\n  1. Exaptation\n" in before
    assert not any(card in before for card in second), before
    # the screen, the choice echoed as it was offered, then a separator
    assert before.endswith("choice [1-3, help, q]:   -> 1. Exaptation\n\n" + "=" * 72 + "\n\n")
    assert after.startswith("Player 1 (Crustaceans) — press Enter when ready Player 1 plays the Crustaceans\n")
    secret = after[:after.index("choice [")]  # up to Player 1's prompt: nothing of Player 2's hand
    assert "Crustaceans: Setup: keep a trait (secretly)\n  1. " + second[0] in secret
    assert not any(card in secret for card in first), secret
    kept = first[0]  # revealed by the rules once both have chosen; the others never shown
    assert f"Cephalopods reveal [{kept}]" in after and not any(card in after for card in first[1:])
    # an end of input, or q, at a hand-over stops the game
    code, out = play(capsys, monkeypatch, ["", "1"], "marine", "--players", "2", "--agents", "human,human", "--seed", "1")
    assert code == 0 and out.endswith("press Enter when ready game stopped\n")
    code, out = play(capsys, monkeypatch, ["q"], "marine", "--players", "2", "--agents", "human,human", "--seed", "1")
    assert code == 0 and out.count(HANDOVER) == 1 and "keep a trait" not in out


def test_no_hand_over_for_one_person(capsys, monkeypatch):
    code, out = play(capsys, monkeypatch, ["1", "1", "1", "q"], "marine", "--players", "3",
                     "--agents", "random,human,random", "--seed", "1")
    assert code == 0 and HANDOVER not in out and "=" * 72 not in out and "\033[2J" not in out


def test_hand_over_clears_a_terminal(monkeypatch):
    shown = []
    monkeypatch.setattr(sys, "stdout", type("Tty", (io.StringIO,), {"isatty": lambda self: True})())
    human = HumanAgent(read=lambda prompt: shown.append(prompt) or "")
    human.write = print
    human.hand_over("Player 2")
    assert sys.stdout.getvalue() == "\033[H\033[2J\033[3J\n"
    assert shown == ["Pass the terminal to Player 2 — press Enter when ready "]


@pytest.mark.parametrize("edition, answers, decision", [
    ("original", ["1", "1", "q"], "Planning: place an action pawn"),
    ("marine", ["1", "1", "1", "1", "1", "1", "q"], "Turn: place a pawn, or retrieve"),
])
def test_a_person_plays_against_the_search_agents(capsys, monkeypatch, edition, answers, decision):
    # issue 8: `speciation play EDITION --agents human,mcts,greedy` in a terminal
    code, out = play(capsys, monkeypatch, answers, edition, "--players", "3", "--agents", "human,mcts,greedy",
                     "--seed", "1")
    assert code == 0 and out.rstrip().endswith("game stopped")
    animals = [line.split(" plays the ")[1] for line in out.splitlines() if " plays the " in line]
    assert len(animals) == 3
    for animal in animals[1:]:  # the mcts and the greedy seat each took a decision of the turn
        assert f"  {animal}: {decision} → " in out, animal
