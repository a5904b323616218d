"""Helpers shared by the tests (not tests themselves): rulesets built for a test, random play
with invariant checks, the table's browser support, rule-file fuzzing, golden playthroughs and
perft counts."""
