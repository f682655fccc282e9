"""/check: skill rolls from a character sheet, through the slash harness."""

from __future__ import annotations

import asyncio
import json
import random

import discord
import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.dice_source import RandomDice, ScriptedDice
from bot.rules.hocs.character import CharacterSheet
from bot.rules.hocs.pool import DieOrigin, PoolResult
from bot.storage.campaigns import CampaignRepository
from bot.storage.hocs.character_codec import CharacterDetails
from bot.storage.hocs.characters import Character, CharacterKind, CharacterRepository
from bot.storage.roll_log import RollLogRepository
from tests.support.slash import SlashHarness


async def make_character(
    bot: TableBot,
    owner: discord.abc.User,
    name: str = "Mira",
    *,
    kind: CharacterKind = CharacterKind.PC,
    active: bool = True,
    **sheet: object,
) -> Character:
    """A character straight through the repository (STR 3, AGI 2, MIN 2, PRE 1 by default)."""
    values = {"strength": 3, "agility": 2, "mind": 2, "presence": 1} | sheet
    guild_id = bot.guilds[0].id
    async with bot.db.transaction() as conn:
        await CampaignRepository(conn).get_or_create(guild_id)
        repo = CharacterRepository(conn)
        character = await repo.create(
            guild_id=guild_id,
            owner_id=owner.id,
            kind=kind,
            sheet=CharacterSheet(name=name, **values),  # type: ignore[arg-type]
            details=CharacterDetails(),
        )
        if active:
            await repo.set_active(guild_id, owner.id, character.id)
    return character


async def set_column(bot: TableBot, character: Character, column: str, value: object) -> None:
    assert column in {"determination", "conditions"}
    async with bot.db.transaction() as conn:
        await conn.execute(
            f"UPDATE characters SET {column} = ? WHERE id = ?", (value, character.id)
        )


async def determination_of(bot: TableBot, character: Character) -> int:
    async with bot.db.read() as conn:
        fresh = await CharacterRepository(conn).get(character.id)
    assert fresh is not None
    return fresh.state.determination


async def log_rows(bot: TableBot) -> list:
    async with bot.db.read() as conn:
        return await RollLogRepository(conn).recent(bot.guilds[0].id, limit=100)


def dice_field(embed: dict) -> str:
    [field] = [f for f in embed["fields"] if f["name"].startswith("Dice")]
    return field["value"]


async def test_check_uses_the_sheets_skill_value(bot: TableBot, slash: SlashHarness) -> None:
    await make_character(bot, slash.members[0], training={"athletics": 1})
    bot.dice = ScriptedDice([1, 4, 5, 3])
    result = await slash.run("check", user=slash.members[0], skill="athletics", difficulty="2")
    assert not result.ephemeral
    [embed] = result.embeds
    assert embed["title"] == "Mira rolls Athletics (STR 3 + 1 training)"
    assert dice_field(embed) == "1 · **4** · **5** · 3"
    assert "4 base = **4d6**" in embed["description"]
    assert "**2** successes vs Challenging (2): **Success**" in embed["description"]
    assert bot.dice.remaining == 0
    result.assert_no_pings()
    await dpytest.empty_queue()


async def test_condition_banes_are_applied_and_shown(bot: TableBot, slash: SlashHarness) -> None:
    mira = await make_character(bot, slash.members[0], training={"athletics": 1})
    # Staggered (2 banes) + fatigued ×2 (2 banes) = 4 banes → −2d6: 4 dice become 2.
    await set_column(bot, mira, "conditions", json.dumps({"staggered": 1, "fatigued": 2}))
    bot.dice = ScriptedDice([6, 2])
    result = await slash.run("check", user=slash.members[0], skill="Athletics")
    [embed] = result.embeds
    assert "4 banes (2 staggered, 2 fatigued) → −2d6 = **2d6**" in embed["description"]
    assert dice_field(embed) == "**6** · 2"
    assert embed["fields"][0]["name"] == "Dice (2)"
    # One boon typed by the player cancels one of them: 3 banes is still −2d6.
    bot.dice = ScriptedDice([6, 2])
    result = await slash.run("check", user=slash.members[0], skill="athletics", boons=1)
    assert "**2d6**" in result.embeds[0]["description"]
    await dpytest.empty_queue()


async def test_attribute_roll_and_other_character_by_gm(bot: TableBot, slash: SlashHarness) -> None:
    await make_character(bot, slash.members[1], "Bram", kind=CharacterKind.ALLY, active=False)
    bot.dice = ScriptedDice([4, 4, 4])
    result = await slash.run(
        "check", user=slash.members[0], manage_guild=True, skill="strength", character="bram"
    )
    [embed] = result.embeds
    assert embed["title"] == "Bram rolls Strength 3"
    assert "**3** successes" in embed["description"]
    await dpytest.empty_queue()


async def test_player_cannot_roll_someone_elses_character(
    bot: TableBot, slash: SlashHarness
) -> None:
    await make_character(bot, slash.members[0], "Mira")
    bot.dice = ScriptedDice([])
    result = await slash.run(
        "check", user=slash.members[1], manage_guild=False, skill="athletics", character="Mira"
    )
    assert result.ephemeral
    assert result.content == (
        "Mira isn't yours, so you can't roll for them: only its owner or the GM can."
    )
    assert await log_rows(bot) == []
    await dpytest.empty_queue()


async def test_determination_before_the_roll_spends_one_point_and_explodes(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await make_character(bot, slash.members[0])
    assert await determination_of(bot, mira) == 3
    # 3 base dice (1, 2, 3), then the determination die 6 → 6 → 3.
    bot.dice = ScriptedDice([1, 2, 3, 6, 6, 3])
    result = await slash.run(
        "check", user=slash.members[0], skill="athletics", difficulty="demanding",
        determination=True,
    )  # fmt: skip
    [embed] = result.embeds
    assert dice_field(embed) == "1 · 2 · 3 · det **6**→**6**→3"
    assert "determination (1 boon) → +1d6 = **4d6**" in embed["description"]
    assert "**2** successes vs Demanding (3): **Failure**" in embed["description"]
    assert "Determination point spent from Mira: 2 left." in embed["description"]
    assert "det = determination die" in embed["footer"]["text"]
    assert await determination_of(bot, mira) == 2
    [row] = await log_rows(bot)
    roll = PoolResult.from_dict(row.result["roll"])
    assert roll.dice[-1].origin is DieOrigin.DETERMINATION
    assert roll.dice[-1].explosions == (6, 3)
    assert row.total == 2 and row.character_id == mira.id
    await dpytest.empty_queue()


async def test_determination_die_rolling_one_flags_a_possible_critical_failure(
    bot: TableBot, slash: SlashHarness
) -> None:
    await make_character(bot, slash.members[0])
    bot.dice = ScriptedDice([1, 2, 4, 1])
    result = await slash.run(
        "check", user=slash.members[0], skill="athletics", difficulty="3", determination=True
    )
    description = result.embeds[0]["description"]
    assert "**Failure by 2 or more**" in description
    assert "Failed by 2" in description
    assert "Possible critical failure" in description
    await dpytest.empty_queue()


async def test_no_determination_left_refuses_and_writes_nothing(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await make_character(bot, slash.members[0])
    await set_column(bot, mira, "determination", 0)
    bot.dice = ScriptedDice([6, 6, 6, 6])
    result = await slash.run("check", user=slash.members[0], skill="athletics", determination=True)
    assert result.ephemeral
    assert result.content == (
        "Mira has no determination points left, so nothing was rolled:"
        " roll again without determination."
    )
    assert bot.dice.remaining == 4  # nothing rolled
    assert await log_rows(bot) == []
    assert await determination_of(bot, mira) == 0
    await dpytest.empty_queue()


async def test_fifty_concurrent_determination_checks_spend_exactly_three(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await make_character(bot, slash.members[0])
    bot.dice = RandomDice(random.Random(7))
    results = await asyncio.gather(
        *(
            slash.run("check", user=slash.members[0], skill="athletics", determination=True)
            for _ in range(50)
        )
    )
    assert len(results) == 50
    assert await determination_of(bot, mira) == 0
    rows = await log_rows(bot)
    assert len(rows) == 3
    assert all(row.result["roll"]["spec"]["determination"] for row in rows)
    # Every interaction got an answer: 3 rolls and 47 one-sentence refusals.
    embeds = [r for r in slash.responses if r.carries_message and r.embeds]
    refusals = [
        r for r in slash.responses if r.carries_message and "no determination" in (r.content or "")
    ]
    assert (len(embeds), len(refusals)) == (3, 47)
    await dpytest.empty_queue()


async def test_bad_inputs_get_one_ephemeral_sentence(bot: TableBot, slash: SlashHarness) -> None:
    await make_character(bot, slash.members[0])
    bot.dice = ScriptedDice([])
    unknown = await slash.run("check", user=slash.members[0], skill="basket weaving")
    assert unknown.ephemeral
    assert unknown.content.startswith("There is no skill called “basket weaving”")
    bad = await slash.run(
        "check", user=slash.members[0], skill="athletics", difficulty="impossible-ish"
    )
    assert bad.ephemeral
    assert bad.content.startswith("“impossible-ish” is not a difficulty; use 0–10")
    high = await slash.run("check", user=slash.members[0], skill="athletics", difficulty="11")
    assert high.content == "Difficulty goes from 0 to 10; you gave 11."
    assert await log_rows(bot) == []
    await dpytest.empty_queue()


async def test_no_active_character_is_explained(bot: TableBot, slash: SlashHarness) -> None:
    result = await slash.run("check", user=slash.members[2], skill="athletics")
    assert result.ephemeral
    assert result.content.startswith("You have no active character here")
    await dpytest.empty_queue()


async def test_log_row_has_full_result_and_message_id(bot: TableBot, slash: SlashHarness) -> None:
    mira = await make_character(bot, slash.members[0])
    bot.dice = ScriptedDice([5, 5, 5])
    result = await slash.run("check", user=slash.members[0], skill="athletics", difficulty="1")
    message_id = result.message.message_id
    async with bot.db.read() as conn:
        repo = RollLogRepository(conn)
        row = await repo.latest_for_character(mira.id)
        assert row is not None
        assert await repo.get_by_message(message_id) == row
        assert await repo.get(row.id) == row
    assert row.kind == "check" and row.message_id == message_id
    assert row.result["difficulty"] == 1
    assert row.result["heading"]["who"] == "Mira"
    assert row.result["roll"]["successes"] == 3
    assert PoolResult.from_dict(row.result["roll"]).successes == 3
    assert row.expression == "check Athletics (STR 3) vs 1"
    await dpytest.empty_queue()


async def test_secret_check_is_ephemeral_and_logged_secret(
    bot: TableBot, slash: SlashHarness
) -> None:
    await make_character(bot, slash.members[0])
    async with bot.db.transaction() as conn:
        await CampaignRepository(conn).update(slash.guild.id, gm_channel_id=slash.channel.id)
    bot.dice = ScriptedDice([4, 1, 1])
    result = await slash.run("check", user=slash.members[0], skill="athletics", secret=True)
    assert result.ephemeral
    assert result.content == f"-# Secret: shown to the GM in <#{slash.channel.id}>."
    assert result.embeds[0]["title"] == "Mira rolls Athletics (STR 3)"
    [gm_post] = result.channel_messages
    assert gm_post.content.startswith("Secret roll by ")
    assert gm_post.embeds[0]["title"] == "Mira rolls Athletics (STR 3)"
    [row] = await log_rows(bot)
    assert row.secret and row.message_id == result.message.message_id
    result.assert_no_pings()
    await dpytest.empty_queue()


async def test_autocomplete_skills_from_sheet_characters_and_difficulty(
    bot: TableBot, slash: SlashHarness
) -> None:
    await make_character(bot, slash.members[0], "Mira")
    await make_character(bot, slash.members[1], "Bram", active=False)
    skills = await slash.autocomplete("check", "skill", "athl", user=slash.members[0])
    assert {"name": "Athletics", "value": "Athletics"} in skills
    names = await slash.autocomplete("check", "character", "", user=slash.members[1])
    assert [c["value"] for c in names] == ["Bram", "Mira"]  # own characters first
    difficulty = await slash.autocomplete("check", "difficulty", "ha", user=slash.members[0])
    assert difficulty == [
        {"name": "Hard (4)", "value": "4"},
        {"name": "Challenging (2)", "value": "2"},
    ]
    by_number = await slash.autocomplete("check", "difficulty", "7", user=slash.members[0])
    assert by_number == [{"name": "Epic (7)", "value": "7"}]
    await dpytest.empty_queue()
