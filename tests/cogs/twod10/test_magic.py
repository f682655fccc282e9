"""/cast, /ritual and /concentration in a 2d10 guild: scripted dice for each backlash
band, advantage from time and components, secret casts, the roll log, concentration
held, replaced, shown and broken by damage."""

from __future__ import annotations

from typing import Any

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.rules.twod10.attributes import Attributes
from bot.rules.twod10.character import Character
from bot.rules.twod10.skills import Skill, SkillKey
from bot.storage.roll_log import RollLogRepository
from bot.storage.twod10.characters import TwoD10Kind
from bot.storage.twod10.magic import TwoD10MagicRepository
from tests.cogs.twod10.combat_helpers import (
    gm,
    make,
    player,
    refused,
    script,
    sheet,
    store,
    text,
    twod10,
)
from tests.support.slash import SlashHarness


def mage(name: str, *subfields: str) -> Character:
    """Mind 3, Mysteries 2 in each subfield, toughness 1 (20 HP): a casting adds +5."""
    ranks = [(SkillKey(skill=Skill.MYSTERIES, subfield=s), 2) for s in subfields]
    return Character(
        name=name, background="Hedge witch", attributes=Attributes(toughness=1, mind=3),
        skills=tuple(sorted(ranks, key=lambda kv: kv[0].label)), feats=("Fire", "Sight"),
    )  # fmt: skip


@pytest.fixture(autouse=True)
async def table(bot: TableBot, slash: SlashHarness) -> None:
    await twod10(slash)
    await store(bot, mage("Vela", "pyromancy"), slash.members[1].id)
    await store(bot, mage("Orin", "pyromancy", "runes"), slash.members[2].id)
    await store(bot, make("Brute", strength=3, melee=2, weapons=("One-handed sword",)),
                slash.members[0].id, TwoD10Kind.ANTAGONIST)  # fmt: skip


def cast(**options: Any) -> dict[str, Any]:
    return {"tier": 1, "category": "fire", **options}


async def held(bot: TableBot, name: str) -> str | None:
    found = await sheet(bot, name)
    async with bot.db.read() as conn:
        row = await TwoD10MagicRepository(conn).get(found.guild_id, found.id)
    return row.effect if row else None


@pytest.mark.parametrize(
    ("faces", "options", "lines"),
    [
        # 15 + 3 + 2 - 10 = 10: success with complication.
        ((8, 7), {}, ["**10** = 15 +3 mind +2 Mysteries (pyromancy) -10 tier 1",
                      "**Success with complication**", "The spell takes effect."]),
        # 13 + 5 - 10 = 8: a failed 8 is merely a random magical effect.
        ((7, 6), {}, ["**8** = 13", "**Failure**", "The spell fails.",
                      "**Backlash**: merely a random magical effect (a failed 8 to 10).",
                      "✨ 1 random magical effect (backlash): the GM names it."]),
        # 6 + 5 - 10 = 1: below 8, further consequences, 7 below 8.
        ((3, 3), {}, ["**1** = 6", "**Failure with extreme complication**",
                      "further consequences, which the GM scales by the tier (1) and the"
                      " failure: 7 below 8."]),
        # 12 + 5 + 5 (dangerously) - 20 = 2: two random effects, 6 below 8.
        ((6, 6), {"tier": 3, "dangerously": True},
         ["**2** = 12 +3 mind +2 Mysteries (pyromancy) -20 tier 3 +5 casting dangerously",
          "by the tier (3) and the failure: 6 below 8.",
          "✨ 2 random magical effects (casting dangerously and backlash): the GM names them."]),
        # 10 + 5 + 5 - 10 = 10: a dangerous success still brings its effect.
        ((5, 5), {"dangerously": True},
         ["The spell takes effect.", "✨ 1 random magical effect (casting dangerously)"]),
        # A natural 2 fails: 2 + 5 + 5 - 10 = 2.
        ((1, 1), {"dangerously": True}, ["Natural 2: the casting fails", "6 below 8."]),
    ],
)  # fmt: skip
async def test_casting_roll_and_backlash_bands(
    bot: TableBot, slash: SlashHarness, faces: tuple[int, int], options: dict[str, Any],
    lines: list[str],
) -> None:  # fmt: skip
    scripted = script(bot, *faces)
    result = await slash.run("cast", **cast(**options), **player(slash))
    assert not result.ephemeral, result.content
    body = text(result)
    for line in lines:
        assert line in body, body
    assert scripted.requests == [10, 10]
    await dpytest.empty_queue()


async def test_attacked_is_disadvantage_and_extending_cancels_it(
    bot: TableBot, slash: SlashHarness
) -> None:
    script(bot, 9, 9, 2)
    body = text(await slash.run("cast", **cast(attacked=True), **player(slash)))
    assert "3d10, highest dropped (advantage 0, disadvantage 1: disadvantage) [9, ~~9~~, 2]" in body
    assert "Attacked while casting: disadvantage." in body and "**6** = 11" in body
    scripted = script(bot, 9, 2)
    body = text(await slash.run("cast", **cast(attacked=True, extend=True), **player(slash)))
    assert "advantage 1, disadvantage 1: they cancel" in body
    assert "Advantage from one more full round." in body and scripted.requests == [10, 10]


async def test_damage_while_casting_fails_unrolled_and_ends_concentration(
    bot: TableBot, slash: SlashHarness
) -> None:
    script(bot, 9, 9)
    await slash.run("cast", **cast(concentrate="levitating"), **player(slash))
    assert await held(bot, "Vela") == "levitating"
    scripted = script(bot)
    body = text(await slash.run("cast", **cast(damaged=True), **player(slash)))
    assert "**Damage in combat**: the casting fails with no roll" in body
    assert "Concentration on levitating ends." in body and "✨" not in body
    assert scripted.requests == [] and await held(bot, "Vela") is None
    async with bot.db.read() as conn:
        [logged] = await RollLogRepository(conn).recent(bot.guilds[0].id, limit=1)
    assert (logged.kind, logged.total) == ("2d10-cast", None)
    assert logged.result["interrupted"] and logged.result["ended"] == "levitating"


async def test_concentration_is_held_replaced_listed_shown_and_ended(
    bot: TableBot, slash: SlashHarness
) -> None:
    script(bot, 9, 9)
    body = text(await slash.run("cast", **cast(concentrate="  levitating  "), **player(slash)))
    assert "🔮 Concentrating on levitating." in body
    shown = await slash.run("character show", name="Vela", **player(slash))
    fields = {f["name"]: f["value"] for f in shown.embeds[0]["fields"]}
    assert fields["Concentration"] == "levitating (tier 1 spell)"
    # A failed concentration casting lets go of the old one and holds nothing.
    script(bot, 1, 2)
    body = text(await slash.run("cast", **cast(concentrate="ward"), **player(slash)))
    assert "Concentration on levitating ends." in body and "Concentrating on" not in body
    assert await held(bot, "Vela") is None
    # A casting without concentration leaves a held one alone.
    script(bot, 9, 9, 9, 9)
    await slash.run("cast", **cast(concentrate="ward"), **player(slash))
    body = text(await slash.run("cast", **cast(), **player(slash)))
    assert "Concentration" not in body and await held(bot, "Vela") == "ward"
    listed = await slash.run("concentration list", **player(slash, 2))
    assert listed.ephemeral and "**Vela**: ward (tier 1 spell)" in text(listed)
    # Another player can't end it; the owner can, once.
    refused(await slash.run("concentration end", character="Vela", **player(slash, 2)),
            "isn't yours")  # fmt: skip
    ended = await slash.run("concentration end", character="Vela", **player(slash))
    assert "No longer concentrating on ward (tier 1 spell)." in text(ended)
    again = await slash.run("concentration end", character="Vela", **player(slash))
    assert again.ephemeral and again.content == "Vela is not concentrating on anything."
    assert "Nobody is concentrating" in text(await slash.run("concentration list", **gm(slash)))
    await dpytest.empty_queue()


async def test_an_attack_that_hurts_breaks_concentration(
    bot: TableBot, slash: SlashHarness
) -> None:
    script(bot, 9, 9)
    await slash.run("cast", **cast(concentrate="levitating"), **player(slash))
    # 18 + 3 + 2 against defense 0: a hit; the damage dice show 1s.
    script(bot, 9, 9, 1, 1, 1, 1)
    result = await slash.run("attack", target="Vela", character="Brute", **gm(slash))
    assert "🔮 Concentration on levitating is lost to the damage." in text(result)
    assert await held(bot, "Vela") is None
    await dpytest.empty_queue()


async def test_hp_loss_breaks_concentration_only_in_a_tracked_fight(
    bot: TableBot, slash: SlashHarness
) -> None:
    script(bot, 9, 9)
    await slash.run("cast", **cast(concentrate="levitating"), **player(slash))
    calm = await slash.run("hp", target="Vela", change="-2", **gm(slash))
    assert "Concentration" not in text(calm) and await held(bot, "Vela") == "levitating"
    await slash.run("init begin", **gm(slash))
    await slash.run("init add", name="Vela", **gm(slash))
    tracker = await slash.run("init list", **gm(slash))
    fields = {f["name"]: f["value"] for f in tracker.embeds[0]["fields"]}
    assert fields["Concentration"] == "🔮 **Vela**: levitating"
    hurt = await slash.run("hp", target="Vela", change="-2", **gm(slash))
    assert "🔮 Vela's concentration on levitating is lost to the damage." in text(hurt)
    assert await held(bot, "Vela") is None
    healed = await slash.run("hp", target="Vela", change="+1", **gm(slash))
    assert "concentration" not in text(healed)
    await dpytest.empty_queue()


async def test_ritual_time_component_and_advantage(bot: TableBot, slash: SlashHarness) -> None:
    refused(await slash.run("ritual", tier=2, ritual="rain storm", **player(slash)),
            "always needs a ritual component")  # fmt: skip
    refused(await slash.run("ritual", tier=1, ritual="ward", time="2 hours", **player(slash)),
            "A tier 1 ritual takes 1 min to 1 h")  # fmt: skip
    refused(await slash.run("ritual", tier=1, ritual="ward", time="soon", **player(slash)),
            "Write the casting time")  # fmt: skip
    # An hour is tier one's maximum: advantage, the 1 dropped; 18 + 5 - 10 = 13.
    script(bot, 1, 9, 9)
    body = text(await slash.run("ritual", tier=1, ritual="ward", time="an hour", **player(slash)))
    assert "Ritual: time 1 h, no component." in body and "Advantage from maximum time." in body
    assert "[~~1~~, 9, 9]" in body and "**13**" in body and "The ritual takes effect." in body
    # A component at tier one gives the same single advantage: 15 + 5 - 10 = 10.
    script(bot, 1, 8, 7)
    body = text(await slash.run("ritual", tier=1, ritual="speak with the dead", component=True,
                                time="10 minutes", **player(slash)))  # fmt: skip
    assert "Advantage from the ritual component." in body and "**10**" in body
    # Tier two for a whole day, prepared in an object: concentration held.
    script(bot, 2, 10, 10)
    body = text(await slash.run("ritual", tier=2, ritual="storm", time="1 day", component=True,
                                concentrate="storm in the bottle", **player(slash)))  # fmt: skip
    assert "Advantage from maximum time." in body and "**10** = 20" in body
    assert await held(bot, "Vela") == "storm in the bottle"
    async with bot.db.read() as conn:
        [logged] = await RollLogRepository(conn).recent(bot.guilds[0].id, limit=1)
    assert logged.kind == "2d10-ritual" and logged.total == 10
    assert logged.result["minutes"] == 1440 and logged.result["extension"] == "maximum time"
    await dpytest.empty_queue()


async def test_mysteries_subfield_choice(bot: TableBot, slash: SlashHarness) -> None:
    refused(await slash.run("cast", **cast(), **player(slash, 2)),
            "Orin has several Mysteries subfields (pyromancy, runes): name one")  # fmt: skip
    script(bot, 5, 5)
    body = text(await slash.run("cast", **cast(mysteries="Runes"), **player(slash, 2)))
    assert "+2 Mysteries (runes)" in body
    # A subfield not on the sheet, or a caster with none, rolls mind alone.
    script(bot, 5, 5)
    body = text(await slash.run("cast", **cast(mysteries="necromancy"), **player(slash)))
    assert "**3** = 10 +3 mind -10 tier 1" in body
    script(bot, 5, 5)
    body = text(await slash.run("cast", **cast(character="Brute"), **gm(slash)))
    assert "**0** = 10 -10 tier 1" in body


async def test_secret_cast_goes_to_the_caster_and_the_gm(
    bot: TableBot, slash: SlashHarness
) -> None:
    script(bot, 8, 7)
    result = await slash.run("cast", **cast(secret=True, label="light the pipe"), **player(slash))
    assert result.ephemeral and "Secret:" in (result.content or "")
    vela = await sheet(bot, "Vela")
    async with bot.db.read() as conn:
        [logged] = await RollLogRepository(conn).recent(bot.guilds[0].id, limit=1)
    assert logged.secret and logged.character_id is None
    assert (logged.kind, logged.total) == ("2d10-cast", 10)
    assert logged.result["character_id"] == vela.id and logged.result["faces"] == [8, 7]
    assert logged.result["label"] == "light the pipe" and logged.result["backlash"] == "none"
    await dpytest.empty_queue()


async def test_only_the_owner_or_gm_casts(bot: TableBot, slash: SlashHarness) -> None:
    refused(await slash.run("cast", **cast(character="Vela"), **player(slash, 2)), "isn't yours")
    refused(await slash.run("cast", **cast(concentrate="   "), **player(slash)),
            "The effect needs at least one letter or digit")  # fmt: skip
    refused(await slash.run("cast", tier=1, category=" \u200b ", **player(slash)),
            "The spell's category needs at least one letter or digit")  # fmt: skip
    # Look-alikes and invisible characters are normalised before storing and echoing.
    script(bot, 9, 9)
    result = await slash.run("cast", tier=1, category="fi\u200bre", concentrate="ｇｌｏｗ",
                             **player(slash))  # fmt: skip
    assert result.embeds[0]["title"] == "Vela: tier 1 spell · fire"
    assert "🔮 Concentrating on glow." in text(result) and await held(bot, "Vela") == "glow"
    script(bot, 8, 7)
    assert not (await slash.run("cast", **cast(character="Vela"), **gm(slash))).ephemeral


async def test_the_pinned_tracker_follows_concentration(bot: TableBot, slash: SlashHarness) -> None:
    await slash.run("init begin", **gm(slash))
    await slash.run("init add", name="Vela", **gm(slash))
    vela = await sheet(bot, "Vela")
    cog = bot.get_cog("2d10 initiative")

    async def tracker_fields() -> dict[str, str]:
        # The listener /cast notifies runs as its own task: run it here, in order.
        await cog.on_characters_changed(vela.guild_id, (vela.id,))  # type: ignore[union-attr]
        loaded = await cog.service.load(slash.channel.id)  # type: ignore[union-attr]
        message = await slash.channel.fetch_message(loaded[0].tracker_message_id)
        return {f.name: f.value for f in message.embeds[0].fields}

    script(bot, 9, 9)
    await slash.run("cast", **cast(concentrate="mirror image"), **player(slash))
    assert (await tracker_fields())["Concentration"] == "🔮 **Vela**: mirror image"
    await slash.run("concentration end", **player(slash))
    assert "Concentration" not in await tracker_fields()
    await dpytest.empty_queue()
