"""Adapters to AI ecosystems (optional extra ``speciation[ai]``): any ruleset as an OpenSpiel
Python game (:mod:`.openspiel`) and as a PettingZoo AEC environment (:mod:`.pettingzoo_env`).
Both are generic: actions are indices into the pending decision's legal options, and each
player observes only its seat's view (``Game.view``) as JSON text, and as numbers its seat's
features (:mod:`.features`: the ruleset's ``features(player)``, on a determinized copy)."""
