"""The 2d10 rulings on tasks, attacks and the maneuvers a tracked fight keeps: part of
the registry in ``rulings`` (split out so neither file outgrows a reading)."""

from __future__ import annotations

from bot.rules.twod10.ruling_entry import Ruling

TASK_RULINGS: tuple[Ruling, ...] = (
    Ruling(key="ladder-signs", topic="Difficulty ladder",
           text="The ladder's signed numbers are added to the roll: very easy +5, difficult -5 "
                "(the same as subtracting a difficulty of 5); any number from +5 to -25 works."),
    Ruling(key="two-heroics", topic="Difficulty ladder",
           text="-15 is Heroic and -20 Very heroic (the text calls both \"heroic task\")."),
    Ruling(key="advantage-stack", topic="Advantage",
           text="Each advantage cancels one disadvantage; any surplus rolls 3d10 and drops the "
                "lowest (or highest), never more dice."),
    Ruling(key="natural-two", topic="Natural 2",
           text="Kept dice showing 1 and 1 fail any task, and an attack with them deals no "
                "damage at all (other misses keep reduced damage)."),
    Ruling(key="blank-bands", topic="To-hit table",
           text="A band runs from its row to the next named one: 5 or less is a failure with "
                "extreme complication, 6-9 a plain failure, 10-14 success with complication, "
                "15-19 success, 20-24 success with a bonus, 25+ an additional action."),
    Ruling(key="below-not-above", topic="Damage categories",
           text="The die drops one category for every point the attack is below 10 (the text "
                "says \"above\"; the table shows below)."),
    Ruling(key="minus-six", topic="Damage categories",
           text="The table's -6 at a 5 is read as -5, one per point as the text says; either way "
                "no weapon deals damage at 5 or below (a d12 five steps down is below a d4)."),
    Ruling(key="past-twenty", topic="Damage categories",
           text="Above 20 the die keeps rising one category per 2 points, up to the d12 cap."),
    Ruling(key="category-ladder", topic="Damage categories",
           text="The ladder is 1, d2, d3, d4, d6, d8, d10, d12; a weapon with two dice moves "
                "both; a miss landing below a d4 deals nothing, a hit never drops below 1."),
    Ruling(key="extra-dice", topic="Extra dice",
           text="\"A roll of 19 and 20\" means the kept dice; extra dice come only with a hit "
                "(a natural 20 is no automatic hit), and a two-handed weapon's natural 20 gets "
                "both bonuses: three extra dice."),
    Ruling(key="axe-unarmored", topic="Axes",
           text="Against a target without armor (a shield is not armor) an axe rolls its own "
                "damage die twice and keeps the higher."),
    Ruling(key="block-order", topic="Shields",
           text="A block halves the damage rolled (rounded down), then damage reduction applies."),
    Ruling(key="reduction-floor", topic="Damage reduction",
           text="\"Cannot be reduced below one\" is the damage taken: an attack that deals "
                "damage deals at least 1. Armor and shield reduction add up; armor piercing "
                "(blunt, crossbows) lowers it to no less than 0."),
    Ruling(key="damage-attribute", topic="Damage",
           text="Melee, thrown, brawl and improvised attacks add strength; a finesse weapon used "
                "with finesse adds the better of 0 and strength; ranged and offhand add nothing."),
    Ruling(key="thrown-skill", topic="Thrown weapons",
           text="A thrown weapon attacks with finesse + ranged."),
    Ruling(key="two-damage-forms", topic="Weapons",
           text="\"2d6+2 or 1d12+2\" weapons are two table entries; the player picks one."),
    Ruling(key="weapon-weights", topic="Weapons",
           text="Bows weigh 2 (two hands); hand and light crossbows and slings 1; light armor 1."),
    Ruling(key="large-light-shield", topic="Shields",
           text="A light large shield weighs 2, as its own line says."),
    Ruling(key="crossbow-range", topic="Weapons",
           text="Crossbows have no range in the text; the GM rules it."),
    Ruling(key="critical-hit", topic="Brawl",
           text="Rending a living foe needs a critical hit: a natural 20 that hits."),
    Ruling(key="brawl-table-ends", topic="Brawl",
           text="Unarmed damage at brawl 0 is 1, as at brawl 1; brawl 6 hits for 1d8."),
    Ruling(key="maneuver-effects", topic="Maneuvers",
           text="Effects need 10 or more and count full steps above 10; a force back pushes "
                "5 feet plus 5 per step."),
    Ruling(key="maneuver-ranged", topic="Maneuvers",
           text="Ranged and thrown attacks can't force back and disarm in steps of 6; pin, "
                "throw and use as weapon are unarmed brawl maneuvers targeting finesse or "
                "strength."),
    Ruling(key="brawl-hands", topic="Maneuvers",
           text="A brawl maneuver with one hand free is at -2; with none free at disadvantage "
                "and one more damage category down."),
    Ruling(key="parry-ranged", topic="Parry",
           text="A ranged or thrown attack can't be parried."),
    Ruling(key="flanking", topic="Flanking",
           text="Flanking an opponent already fighting in melee gives any attack advantage."),
    Ruling(key="engaged-shooter", topic="Ranged attacks",
           text="Shooting while within an enemy's melee range, or beyond range, gives ranged "
                "and thrown attacks disadvantage."),
    Ruling(key="hard-cover", topic="Cover",
           text="Hard cover stops the attack on a d4 equal to or below its quarters; total "
                "cover always stops it."),
    Ruling(key="soft-cover-look", topic="Cover",
           text="An attack into soft cover first rolls the look, before its own dice: 2d10 + "
                "the attacker's mind + perception - the target's finesse + stealth, less the "
                "target's EP (the attacker's don't count). It is a perception roll: low light "
                "or darkness gives it disadvantage."),
    Ruling(key="soft-cover-unseen", topic="Cover",
           text="The situation term unseen is the GM's word that the attacker can't see the "
                "target: no look is rolled and the attack has disadvantage, behind all of its "
                "soft cover."),
    Ruling(key="soft-cover-location", topic="Cover",
           text="\"The enemy must be in the location being attacked\" is the GM's judgement: "
                "the bot attacks the target named, and the GM calls off an attack into soft "
                "cover the target is not behind."),
    Ruling(key="stray-shot", topic="Firing into melee",
           text="On a missed shot into melee the d8 picks another combatant by number and the "
                "same dice are judged against them; a natural 2 strays nowhere."),
    Ruling(key="darkness", topic="Darkness",
           text="Low light: ranged and thrown attacks at disadvantage. Complete darkness: every "
                "attack at disadvantage and -2."),
    Ruling(key="sight-tasks", topic="Darkness",
           text="A task names its light (light:) only when it needs sight: in low light a "
                "perception task has one disadvantage more, in darkness any such task has one."),
    Ruling(key="defending-roll", topic="Defending",
           text="The defender's roll subtracts the attacker's attack bonus (every modifier of "
                "the attack but the defense) and is flipped (20 - total); the attack's "
                "advantages become the defender's disadvantages and the reverse; naturals mean "
                "nothing on a flipped roll."),
    Ruling(key="rending-reach", topic="Rending",
           text="/attack rend:True tries rending (brawl + strength) with a melee or brawl "
                "attack, not a ranged or thrown one: after a natural-20 hit on a living foe, a "
                "success adds one die of the attack's moved category; after a kill, a success "
                "gains an improvised weapon (an interact action)."),
    Ruling(key="defending-use", topic="Defending",
           text="A defense declared with /init react kind:defend answers the round's first "
                "/attack on that combatant's declared attribute, with no interrupt roll, and "
                "uses its reaction. A defended shot that misses strays into nobody and spends "
                "no ammo on a 1."),
)  # fmt: skip

TRACKED_RULINGS: tuple[Ruling, ...] = (
    Ruling(key="pin-tracked", topic="Tracked maneuvers",
           text="In a tracked fight a successful pin between two seated combatants is kept on "
                "the tracker (a new pinner takes it over). The pinned can't move, dash, "
                "disengage or stand up; the pinner moves freely, as the bot keeps no positions."),
    Ruling(key="pin-ends", topic="Tracked maneuvers",
           text="A pin ends when the pinned deals damage to its pinner with /attack, when either "
                "goes down or leaves the encounter, or when the pinner lets go with /init act "
                "release (no action, at any time)."),
    Ruling(key="disarm-drops", topic="Tracked maneuvers",
           text="A disarm drops the target's weapons in its sheet's order, one for the item and "
                "one per step; steps with no weapon left move it 5 ft. /attack refuses a dropped "
                "weapon until /init act pick up (the interact action) picks up the one dropped "
                "first. Nothing is tracked before the fight."),
    Ruling(key="force-back-positions", topic="Tracked maneuvers",
           text="The bot keeps no positions: a force back is announced only, and the pushed "
                "combatant spends none of its movement."),
    Ruling(key="trip-movement", topic="Tracked maneuvers",
           text="A trip's lost movement (5 ft per 4 above 10) is announced, and the GM "
                "applies it: the text gives it no duration, so the tracker's feet stay as "
                "they are; the prone it causes is marked (standing up costs half movement)."),
    Ruling(key="attack-action", topic="Attack action",
           text="In a tracked fight /attack on the attacker's own side's turn takes its attack "
                "action, or an extra attack once that is used; with none left (used or given "
                "up) it is refused before any die. On the other side's turn an attack is a "
                "reaction and marks nothing."),
    Ruling(key="offhand-bonus", topic="Attack action",
           text="An offhand attack takes the bonus action instead of the attack action, and is "
                "refused once the bonus action is used."),
    Ruling(key="opponent-weapon-rounds", topic="Use as weapon",
           text="A won use as weapon between two seated combatants is kept on the tracker "
                "through the next rounds it lasts (one, plus one per 2 points), so the wielder "
                "swings the opponent on its coming turns; it ends early when either leaves or "
                "the wielder goes down."),
    Ruling(key="opponent-weapon-size", topic="Use as weapon",
           text="An opponent is a two-handed improvised weapon one category larger (1d8, moved "
                "by brawl), swung with /attack weapon:Opponent, never at itself."),
    Ruling(key="opponent-weapon-damage", topic="Use as weapon",
           text="The opponent swung takes half the damage the attack deals after armor, "
                "rounded down, in the same transaction; it is damage in combat, so it breaks "
                "that opponent's concentration and fails its declared spell."),
)  # fmt: skip
