"""``rank`` mode: the model's predicted best variant, for loops nobody measured.

A quick build cannot afford measurements, so each untuned loop gets the
variant the power-law model ranks first, and only when the model predicts it
beats the loop as written by more than its held-out picks were ever wrong
(``tuning.ship_rule``: small predicted gains are lost as often as won).
Measured results, where the database has them, still win over predictions.
Without a usable model (no calibration and no shipped coefficients) the mode
degrades to ``apply`` and says why.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from autotune.buildhook import cache


@dataclass
class Ranker:
    machine: object = None  # autotune.measure.machine.Machine
    chosen: object = None  # autotune.tuning.modelchoice.ChosenModel
    error: str = ""
    identity: str = ""

    @classmethod
    def create(cls, machine: dict, ctx) -> Ranker:  # a lookup.Context
        """Load the model for ``machine``; on failure a Ranker with ``error`` set."""
        try:
            from autotune.errors import UserError
            from autotune.measure.machine import Machine
            from autotune.tuning.modelchoice import choose_model
        except ImportError as exc:
            return cls(error=f"rank mode unavailable ({exc}); applied measured results only")
        names = {f.name for f in fields(Machine)}
        m = Machine(**{k: v for k, v in machine.items() if k in names})
        try:
            chosen = choose_model(m, ctx.store())
        except UserError as exc:
            return cls(error=f"rank mode has no model ({exc}); applied measured results only")
        from autotune.tuning.ship_rule import ShipRule

        rule = ShipRule.of(chosen.model)
        # the rule in force (stored, or this version's default) decides what ships: a
        # decision kept under another rule is made again
        ident = cache.digest(
            chosen.name, chosen.target, chosen.source, chosen.model.to_dict(), rule.to_dict()
        )
        return cls(machine=m, chosen=chosen, identity=ident)

    def pick(self, record) -> tuple[object | None, str]:  # a LoopRecord
        """(variant to compile or None, why) for one loop."""
        from autotune.tuning.ranking import rank_loop
        from autotune.variants.space import default_space

        if not record.tunable:
            return None, f"not tunable: {record.reason}"
        ranking = rank_loop(
            record, default_space(record, self.machine.cores), self.chosen, self.machine
        )
        if ranking.error or not ranking.variants:
            return None, f"not ranked: {ranking.error or 'empty variant space'}"
        ships, why = ranking.ships_unmeasured()
        if not ships:
            return None, why
        return ranking.pick.variant, f"{why} ({self.chosen.name} model)"
