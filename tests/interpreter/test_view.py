"""Per-player views: secret lists, private attributes, private log lines, others' options."""
from speciation import Game, load_ruleset

RULES = """
hidden:
  order: [bag]
  contents: [deck]
  private: [hand]
kinds:
  player:
    attributes: {hand: [], vp: 0}
  game:
    attributes: {bag: [c, a, b], deck: [x, y]}
functions:
  score(p): p.vp
macros:
  main: |
    for p in entities(player):
        draw k from game.bag
        append(p.hand, k)
        log_to(p, "you drew {}", k)
    log("everyone drew")
    for p in entities(player):
        choose n from concat(p.hand, ["nothing"]) by p prompt "show a letter"
"""


def make(tmp_path):
    (tmp_path / "ruleset.yaml").write_text('ruleset: v\ntitle: V\nversion: "1"\nplayers: {min: 2, max: 2}\n')
    (tmp_path / "rules.yaml").write_text(RULES)
    return Game.new(load_ruleset(str(tmp_path)), players=2, seed=5, chance=["b", "c"])


def test_view_hides_what_the_player_may_not_see(tmp_path):
    game = make(tmp_path)
    mine, theirs = game.view(0), game.view(1)
    assert mine["ent"]["p1"]["hand"] == ["b"] and mine["ent"]["p2"]["hand"] == ["?"]
    assert theirs["ent"]["p1"]["hand"] == ["?"] and theirs["ent"]["p2"]["hand"] == ["c"]
    assert mine["ent"]["game"]["bag"] == ["a"] and mine["ent"]["game"]["deck"] == ["?", "?"]
    assert mine["log"] == ["you drew b", "everyone drew"]
    assert theirs["log"] == ["you drew c", "everyone drew"]
    assert "rng" not in mine and "stack" not in mine



def test_pending_options_of_another_player_are_hidden(tmp_path):
    game = make(tmp_path)
    assert game.current_player == 0
    assert game.view(0)["pending"]["options"] == ["b", "nothing"]
    assert game.view(1)["pending"]["options"] == ["?", "?"]
    assert game.log[0] == "[to Player 1] you drew b"


def test_marine_trait_choices_stay_secret_until_revealed():
    game = Game.new(load_ruleset("marine"), players=3, seed=2)
    seen_by = {i: game.view(i) for i in range(3)}
    first = game.current_player
    dealt = game.state["ent"][game.current_actor]["trait_hand"]
    assert len(dealt) == 3 and seen_by[first]["ent"][game.current_actor]["trait_hand"] == dealt
    for other in (i for i in range(3) if i != first):
        assert seen_by[other]["ent"][game.current_actor]["trait_hand"] == ["?", "?", "?"]
        assert seen_by[other]["pending"]["options"] == ["?", "?", "?"]
        assert not any(card in " ".join(seen_by[other]["log"]) for card in dealt)
    kept = dealt[0]
    game.apply(kept, decision=game.decision_id)  # the first animal keeps a trait; the others have not chosen yet
    actor = [f for f, r in game.state["ent"].items() if r["kind"] == "faction" and kept in r["trait_kept"]][0]
    for other in (i for i in range(3) if i != first):
        view = game.view(other)
        assert view["ent"][actor]["trait_kept"] == ["?"] and view["ent"][actor]["traits"] == []
        assert not any(game.label(kept) in line for line in view["log"])
    assert any(game.label(kept) in line for line in game.view(first)["log"])
