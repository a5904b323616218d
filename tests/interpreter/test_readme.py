"""Documentation that runs: the README's and the public modules' examples."""
import doctest
from pathlib import Path

import speciation
import speciation.interpreter.game

ROOT = Path(__file__).parents[2]


def test_readme_examples_run():
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False)
    assert result.attempted >= 4 and result.failed == 0


def test_module_examples_run():
    for module in (speciation, speciation.interpreter.game):
        result = doctest.testmod(module)
        assert result.failed == 0, module.__name__
