"""Write ``reroll_grid_f6daac3.txt``: the digest of the reroll weights that
bot/rules/hocs/odds_rerolls.py as of commit f6daac3 gives at each grid point
(``reroll_grid``). Run once, from the repository's root (it reads that module from git):

    PYTHONPATH=. python -m tests.rules.hocs.make_reroll_grid

It took about a minute here. The digests pin test_odds_table's grid to that module's
answers without keeping a copy of the module beside the code.
"""

from __future__ import annotations

import subprocess
import types

from bot.rules.hocs import odds_core
from bot.rules.hocs.odds_fixed import slot_bits
from tests.rules.hocs.odds_support import outcomes
from tests.rules.hocs.reroll_grid import FIXTURE, REROLLS, digest, grid_specs, key

COMMIT = "f6daac3"
MODULE = "bot/rules/hocs/odds_rerolls.py"


def old_module() -> types.ModuleType:
    source = subprocess.run(
        ["git", "show", f"{COMMIT}:{MODULE}"], check=True, capture_output=True, text=True
    ).stdout
    module = types.ModuleType(f"odds_rerolls_{COMMIT}")
    exec(compile(source, f"{COMMIT}:{MODULE}", "exec"), module.__dict__)
    return module


def main() -> None:
    before = old_module()
    lines = [f"# {key.__module__}: digests of {MODULE} at {COMMIT} (make_reroll_grid.py)"]
    for rerolls in REROLLS:
        for sixes in (False, True):
            for spec in grid_specs(rerolls):
                denominator = 6 ** (spec.dice_count + 1 + spec.rerolls)
                bits = slot_bits(denominator)
                final, width = before.reroll_weights(spec, sixes=sixes, bits=bits)
                weights = odds_core.Weights(final, width, denominator, bits)
                lines.append(f"{key(spec, sixes)} {digest(outcomes(weights))}")
    FIXTURE.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
