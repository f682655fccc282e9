"""The rulings /help shows for the 2d10 disease, rations and inventory commands."""

from __future__ import annotations

from bot.rules.twod10.rulings import ruling

# Ruling campaign-day: the bot keeps a campaign day count the GM advances with
# /rations day; meals and disease rolls are paced by it, so neither can be re-rolled
# at will.
CAMPAIGN_DAY = (
    "The campaign's day starts at 1 and only the GM moves it on (/rations day); a"
    " character eats once a day and a disease roll waits for its due day."
)
# Ruling missed-meal: the text gives no roll for a day without food at all, so the bot
# names who didn't eat and the GM rules.
MISSED_MEAL = (
    "The text sets no roll for a day without food: /rations day names who didn't eat and"
    " the GM rules."
)
# Ruling disease-gm: infection is the GM's call, so exposing and curing are GM-only and
# the list of who is infected is private.
DISEASE_GM = (
    "Only the GM exposes a character to a disease or cures one outright; the GM sees"
    " every infection, a player only their own characters'."
)
# Ruling treat-daily: the text limits treatment by nothing; one attempt a day per
# patient and disease keeps a failed roll from being retried at once. It needs no
# supplies (the text asks for none).
TREAT_DAILY = (
    "A disease can be treated once a day per patient, with no supplies needed; the"
    " advantage waits for the next roll to overcome it."
)
OWNER_OR_GM = "The character's owner or the GM rolls; you treat only with a medic you play."
# Ruling rations-stock: rations are carried food, managed like items by the owner or
# the GM.
RATIONS_STOCK = "The owner or the GM adds rations (whole rations; up to 400 carried)."
# Ruling inventory-items: items beyond the sheet's gear are listed by their owner with
# a weight the text gives (or the GM rules), in quarters at the finest.
ITEM_WEIGHTS = (
    "Item weights come from the text (one-handed 1, two-handed 2, medium armor 2, heavy"
    " 3, a ration 1/2, a unit of supplies 1, a pouch or quiver 1) or the GM's call, in"
    " quarters at the finest; worn means readily accessible."
)
# Ruling finesse-defense-burden: "rolls affected by encumbrance" include Defense
# (finesse) (ruling encumbrance-rolls); as the armor penalty, it comes off the defense
# others roll against.
DEFENSE_BURDEN = "Encumbrance lowers the finesse defense too, as it does a Finesse roll."


def _rules(*keys: str) -> list[str]:
    return [ruling(key).text for key in keys]


RULINGS: dict[str, list[str]] = {
    "expose": [*_rules("momentary-contact", "disease-calendar"), DISEASE_GM, CAMPAIGN_DAY],
    "overcome": [*_rules("overcoming-roll", "treatment-advantage", "disease-calendar"),
                 CAMPAIGN_DAY, OWNER_OR_GM],
    "treat": [*_rules("treatment-advantage"), TREAT_DAILY, OWNER_OR_GM],
    "cure": [DISEASE_GM],
    "list": [DISEASE_GM, CAMPAIGN_DAY],
    "eat": [*_rules("ration-days", "ration-exhaustion"), CAMPAIGN_DAY, MISSED_MEAL],
    "add": [RATIONS_STOCK, *_rules("pack-supplies")],
    "day": [CAMPAIGN_DAY, MISSED_MEAL, *_rules("disease-calendar")],
    "show": [*_rules("ration-exhaustion"), CAMPAIGN_DAY],
    "inventory": [*_rules("ep-rounding", "toughness-six", "pack-supplies", "quiver-weight",
                          "encumbrance-rolls", "item-damage"),
                  ITEM_WEIGHTS, DEFENSE_BURDEN],
    "draw": [*_rules("backpack-draw")],
    "cart": [*_rules("mount-loads")],
}  # fmt: skip
