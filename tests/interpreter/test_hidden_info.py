"""No leaks: a seat's view does not change when what it may not see is changed.

Games of every ruleset in RULESETS (both editions, and the faces fixture: cards revealed to
one seat or to all) are played at random; at points along the way every hidden fact is
resampled by hand (not with ``Game.determinize``): the generator and seed, the order of
order-secret lists, the items of content-secret lists (dealt anew over every entity's
list, face-up heads kept), other players' private attributes, the faces of the entities the
seat does not see (traded whole between entities of a kind). Every seat's view, log and
visible options must stay the same, while the state does change. A new ruleset is one line
in RULESETS (a built-in name or a folder)."""
import json
import random

import pytest

from speciation import Game, load_ruleset

from support.ruleset_builder import FIXTURES

SAMPLE_POINTS = (0, 3, 25, 80)
RULESETS = ["original", "marine", "evolution", str(FIXTURES / "faces")]


@pytest.fixture(scope="module", params=RULESETS, ids=lambda r: r.rsplit("/", 1)[-1])
def ruleset(request):
    return load_ruleset(request.param)


def _sees_face(record: dict, me: str, default: str) -> bool:
    """Whether *me* sees an entity with a face (docs/language.md, 'Visibility'), written
    out here apart from the engine's."""
    seen = record.get("seen_by")
    owner = record["id"] if record.get("kind") == "player" else record.get("player")
    if default == "controller" and owner == me or seen == "all":
        return True
    return default == "all" if seen is None else me in seen


def _resample(game: Game, seat: int, chooser: random.Random) -> Game:
    copy = game.clone()
    state, hidden = copy.state, game.ruleset.hidden
    me = state["players"][seat]
    state["rng"] = chooser.getrandbits(64)
    state["seed"] = chooser.getrandbits(32)
    heads = hidden.shown_heads
    secret_places, private_places, faces = {}, {}, {}
    for record in state["ent"].values():
        for attr in sorted(hidden.order):
            if isinstance(record.get(attr), list):
                chooser.shuffle(record[attr])
        for attr in sorted(hidden.contents):
            value = record.get(attr)
            if isinstance(value, list):
                first = 1 if value and record.get(heads.get(attr)) is True else 0
                secret_places.setdefault(attr, []).extend((value, i) for i in range(first, len(value)))
        deck = record.get("deck") if isinstance(record.get("deck"), str) else None  # (a game's deck: a list)
        face = hidden.faces.get(deck) or hidden.faces.get(record["kind"])
        if face is not None and not _sees_face(record, me, face.seen_by):
            attrs = sorted(face.attributes & record.keys())
            faces.setdefault((record["kind"], tuple(attrs)), []).append(record)
        owner = record["id"] if record.get("kind") == "player" else record.get("player")
        if owner is not None and owner != me and "seen_by" not in record:
            for attr in sorted(hidden.private):
                if isinstance(record.get(attr), list):
                    private_places.setdefault("private", []).extend((record[attr], i) for i in range(len(record[attr])))
    for places in list(secret_places.values()) + list(private_places.values()):
        items = [container[i] for container, i in places]
        chooser.shuffle(items)
        for (container, i), item in zip(places, items):
            container[i] = item
    for (_, attrs), records in sorted(faces.items()):
        values = [[record[a] for a in attrs] for record in records]
        chooser.shuffle(values)
        for record, value in zip(records, values):
            record.update(zip(attrs, value))
    copy.state_edited()
    return copy


def _seen(game: Game, seat: int) -> str:
    view = game.view(seat)
    view["pending"] = view["pending"] and {k: v for k, v in view["pending"].items() if k != "id"}
    return json.dumps(view, sort_keys=True)


def test_views_do_not_change_when_hidden_facts_are_resampled(ruleset):
    changed = 0
    for seed in (1, 2):
        players = 3
        game = Game.new(ruleset, players=players, seed=seed)
        chooser = random.Random(seed)
        for step in range(max(SAMPLE_POINTS) + 1):
            if step in SAMPLE_POINTS:
                for seat in range(players):
                    for trial in range(2):
                        copy = _resample(game, seat, random.Random(trial * 7 + seat))
                        changed += copy.digest() != game.digest()
                        assert _seen(copy, seat) == _seen(game, seat), (ruleset.name, seed, step, seat)
                        if game.current_player != seat:
                            assert all(o == "?" for o in copy.view(seat)["pending"]["options"])
            if game.is_over:
                break
            game.apply(chooser.choice(game.legal_actions()))
    assert changed > 20  # the resampling really changed hidden facts


def test_a_view_holds_no_seed_generator_chance_or_stack(ruleset):
    game = Game.new(ruleset, players=2, seed=12345, chance=[])
    for seat in range(2):
        view = game.view(seat)
        assert not {"seed", "rng", "chance", "stack", "steps"} & set(view)
        assert view["pending"]["id"] == game.decision_id


def test_face_down_stack_contents_stay_hidden_and_face_up_tops_show():
    game = Game.new(load_ruleset("original"), players=2, seed=5)
    for ident, record in game.state["ent"].items():
        if record["kind"] == "stack":
            shown = game.view(0)["ent"][ident]["tiles"]
            assert shown[0] == record["tiles"][0] and record["face_up"]
            assert shown[1:] == ["?"] * (len(record["tiles"]) - 1)
