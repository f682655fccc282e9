"""One hit applied to its target: choose the kept die, toughness/mettle, HP,
threshold, wound check and conditions."""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.rules.dice_source import Dice
from bot.rules.hocs.attack.combatant import Combatant, Vitals, apply_wound_list
from bot.rules.hocs.attack.stored import (
    NO_PRIOR_ROLLS,
    THRESHOLD_SKILLS,
    HitInputs,
    PriorRolls,
)
from bot.rules.hocs.conditions import (
    Condition,
)
from bot.rules.hocs.damage import DamageApplication, apply_damage
from bot.rules.hocs.damage_pool import (
    DamageRoll,
)
from bot.rules.hocs.many_dice import (
    ManyDiceResult,
    best_choice,
    resolve_choice,
)
from bot.rules.hocs.modifiers import MAX_MODIFIER
from bot.rules.hocs.pool import PoolResult
from bot.rules.hocs.rolling import roll_pool as roll_skill_pool
from bot.rules.hocs.threshold import (
    ThresholdCheck,
    ThresholdOutcome,
    ThresholdState,
    apply_threshold_outcome,
    check_threshold,
    resolve_threshold_test,
)
from bot.rules.hocs.wounds import (
    InjuryKind,
    WoundCheck,
    needs_wound_check,
    roll_wound_check,
)

INTERNAL_BLEEDING_VALUE = 2


def choose_damage(
    inputs: HitInputs, index: int | None, dice: Dice, prior: PriorRolls = NO_PRIOR_ROLLS
) -> tuple[DamageRoll, PriorRolls, bool]:
    """Keep die ``index`` (None: the best expected total). Returns the roll, the
    rolls now known, and whether the choice was the bot's suggestion."""
    if inputs.rolled is None:
        return DamageRoll(inputs.pool, None, inputs.bonus), prior, True
    best = best_choice(inputs.rolled)
    chosen = best if index is None else index
    known = prior.explosions_for(chosen)
    if known is not None:
        result = ManyDiceResult(inputs.rolled, chosen, known)
    else:
        result = resolve_choice(inputs.rolled, chosen, dice)
        explosions = (*prior.explosions, (chosen, result.explosions))
        # A first roll (every /attack and /damage) has no prior rolls: the defaults plus
        # this chain, without dataclasses.replace's walk over the fields.
        prior = (
            PriorRolls(explosions=explosions)
            if prior is NO_PRIOR_ROLLS
            else replace(prior, explosions=explosions)
        )
    return DamageRoll(inputs.pool, result, inputs.bonus), prior, chosen == best


@dataclass(frozen=True, kw_only=True)
class ThresholdTest:
    skill: str
    roll: PoolResult
    outcome: ThresholdOutcome


@dataclass(frozen=True, kw_only=True)
class HitResult:
    """Everything one hit did to its target, step by step."""

    target: str
    damage: DamageRoll
    suggested: bool  # the kept die is the bot's suggestion
    application: DamageApplication
    threshold: ThresholdCheck
    threshold_test: ThresholdTest | None
    wound_check: WoundCheck | None
    bleeding_gained: int
    before: Vitals
    after: Vitals
    max_hp_after: int
    threshold_after: int
    death_causes: tuple[str, ...]
    rolls: PriorRolls

    @property
    def hero_reduction(self) -> int:
        """Damage taken off the roll by hero points (before toughness/mettle)."""
        return self.rolls.hero_reduction

    @property
    def dealt(self) -> int:
        """The damage applied: the roll's total less hero reductions (never below 0)."""
        return self.application.amount

    @property
    def dead(self) -> bool:
        return Condition.DEAD in self.after.conditions

    @property
    def conditions_gained(self) -> tuple[Condition, ...]:
        return tuple(c for c in self.after.conditions if c not in self.before.conditions)


def _threshold_test(
    target: Combatant, difficulty: int, dice: Dice, prior: PriorRolls, inputs: HitInputs
) -> tuple[ThresholdTest, PriorRolls]:
    if prior.threshold_roll is not None and prior.threshold_skill is not None:
        # Rolled dice stay rolled: a hit redone reuses its test, and a determination
        # point spent before it stays in it.
        roll, label = prior.threshold_roll, prior.threshold_skill
    else:
        # The text: "Threshold Test (Physique or Willpower)": the target's player
        # chooses; without a choice the bot takes the pool with more dice. A
        # determination point spent before the test ("before or after the roll") is
        # one more boon in the pool from the start, as on any skill roll.
        values = target.effective
        choice = inputs.threshold_skill
        options = []
        for name in (choice,) if choice else THRESHOLD_SKILLS:
            pool = values.skill_pool(name)
            parts = values.roll_banes(pool.attribute, target.vitals.conditions)
            banes = min(MAX_MODIFIER, sum(n for _, n in parts))
            spec = pool.spec(banes=banes, determination=inputs.threshold_determination)
            options.append((spec.dice_count, -len(options), pool.label, spec))
        _, _, label, spec = max(options)
        roll = roll_skill_pool(spec, dice)
        prior = replace(prior, threshold_skill=label, threshold_roll=roll)
    outcome = resolve_threshold_test(roll.successes, difficulty)
    return ThresholdTest(skill=label, roll=roll, outcome=outcome), prior


def resolve_hit(
    target: Combatant,
    inputs: HitInputs,
    *,
    index: int | None,
    dice: Dice,
    prior: PriorRolls = NO_PRIOR_ROLLS,
) -> HitResult:
    """Damage from already rolled faces, applied to ``target`` (its pre-hit vitals).

    Hero points' reductions recorded in ``prior`` come off the damage roll's total
    before toughness/mettle (see ``reduce_hit``).
    """
    damage, prior, suggested = choose_damage(inputs, index, dice, prior)
    before = target.vitals
    values = target.effective
    state = target.hit_points
    application = apply_damage(
        state,
        max(0, damage.amount - prior.hero_reduction),
        types=inputs.pool.types or inputs.types,
        lethal=inputs.pool.lethal,
        toughness=target.toughness,
        mettle=values.mettle,
        resistances=target.resistances,
        immunities=target.immunities,
    )
    after_hp = application.after
    conditions = before.conditions
    check = check_threshold(application, extra_difficulty=values.threshold_difficulty)
    test: ThresholdTest | None = None
    causes: list[str] = []
    if check.state is ThresholdState.TEST_REQUIRED:
        assert check.difficulty is not None
        test, prior = _threshold_test(target, check.difficulty, dice, prior, inputs)
        conditions = apply_threshold_outcome(conditions, test.outcome)
    elif check.state is ThresholdState.KNOCKED_OUT:
        conditions = conditions.remove(Condition.DYING)
        for condition in check.conditions_gained:
            conditions = conditions.add(condition)
    elif check.state is ThresholdState.DEAD:
        conditions = conditions.add(Condition.DEAD)
        causes.append(f"hit points beyond the threshold ({values.threshold})")

    bleeding = 0
    has_internal_bleeding = any(w.kind is InjuryKind.INTERNAL_BLEEDING for w in before.wounds)
    if (
        has_internal_bleeding
        and application.hp_lost > 0
        and any(t.is_physical for t in application.types)
    ):
        bleeding = INTERNAL_BLEEDING_VALUE

    vitals = Vitals(
        hp=after_hp.current,
        temp_hp=after_hp.temporary,
        nonlethal=after_hp.nonlethal_taken,
        conditions=conditions,
        wounds=before.wounds,
    )
    wound_check: WoundCheck | None = None
    survived = check.state is not ThresholdState.DEAD
    if needs_wound_check(application.after_reductions, survived=survived):
        if prior.wound_check is None:
            prior = replace(prior, wound_check=roll_wound_check(dice))
        wound_check = prior.wound_check
        assert wound_check is not None
        if wound_check.wound is not None:
            wound = wound_check.wound
            vitals = replace(vitals, wounds=(*vitals.wounds, wound))
            if wound.effect.bleeding:
                bleeding = max(bleeding, wound.effect.bleeding)
            vitals, cause = apply_wound_list(target, vitals)
            if cause:
                causes.append(cause)
    if bleeding and Condition.DEAD not in vitals.conditions:
        vitals = replace(vitals, conditions=vitals.conditions.add(Condition.BLEEDING, bleeding))
    # The effective values follow the wounds alone: without a new wound they are the
    # target's own (no second sheet hashed and looked up on every hit).
    final = values if vitals.wounds == before.wounds else target.with_vitals(vitals).effective
    return HitResult(
        target=target.name,
        damage=damage,
        suggested=suggested,
        application=application,
        threshold=check,
        threshold_test=test,
        wound_check=wound_check,
        bleeding_gained=bleeding,
        before=before,
        after=vitals,
        max_hp_after=final.max_hp,
        threshold_after=final.threshold,
        death_causes=tuple(causes),
        rolls=prior,
    )


def threshold_pledge_spent(hit: HitResult | None) -> bool:
    """Whether ``hit``'s threshold test holds a determination point spent before it."""
    test = hit.threshold_test if hit is not None else None
    return test is not None and test.roll.spec.determination and not test.roll.determination_after


def settle_threshold_pledge(inputs: HitInputs, hit: HitResult | None) -> HitInputs:
    """``inputs`` as a hit is stored once applied: a determination point pledged for a
    threshold test the hit did not call for lapses (the target keeps it), so redoing the
    hit later (another die kept) never rolls an unpaid determination die.

    Ruling: the pledge is for the test this hit calls for when it is applied; a test that
    falls due only when the hit is redone takes points after its roll, by its buttons."""
    if inputs.threshold_determination and not threshold_pledge_spent(hit):
        return replace(inputs, threshold_determination=False)
    return inputs
