"""Adapters to AI ecosystems (optional extra ``speciation[ai]``): any ruleset as an OpenSpiel
Python game (:mod:`.openspiel`) and as PettingZoo environments, AEC (:mod:`.pettingzoo_env`) and
parallel (:mod:`.pettingzoo_parallel`, where seats decide at once).
Both are generic: actions are indices into the pending decision's legal options, and each
player observes only its seat's view (``Game.view``) as JSON text, and as numbers its seat's
features (:mod:`.features`: the ruleset's ``features(player)``, on a determinized copy)."""
