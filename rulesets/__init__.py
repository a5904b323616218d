"""Rule files shipped with Speciation: one folder per ruleset."""
