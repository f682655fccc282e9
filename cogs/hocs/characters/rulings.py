"""The rulings /help shows for each /character subcommand."""

from __future__ import annotations

from cogs.hocs.visibility import HIDDEN_RULING

OWNER_OR_GM = "Players change only their own characters; the GM can change any."
SPIRIT = (
    "spirit_attribute picks the mettle attribute, mind or presence: mettle and the"
    " mind-or-presence skills use it."
)
INSTINCT = "instinct only shows mind as Instinct on the sheet (for animals and monsters)."

RULINGS: dict[str, list[str]] = {
    "create": [
        "Attributes are 1–5 (the attribute die table); starting player characters normally"
        " have 1–3, which the GM checks, not the bot.",
        "Allies and antagonists are NPCs and belong to the GM: only the GM may create them,"
        " and the creator owns them.",
        "Your first player character becomes your active character.",
        "Names: 1–64 characters on one line with a letter or digit, unique in the server"
        " ignoring case and spacing; look-alikes count as the same name (Unicode NFKC,"
        " zero-width characters removed), and text-direction controls are refused.",
        "A new character starts with full hit points, recovery and determination.",
        "A player character created while a session is running gets that session's hero"
        " point, which it missed at /session start (the GM can /hero take it).",
        SPIRIT,
        INSTINCT,
    ],
    "show": [
        "Anyone may view any sheet: sheets are table knowledge, except an NPC's hit points,"
        " recovery, determination and conditions when the GM hides them: " + HIDDEN_RULING,
        "HP = STR×2+6; threshold = −(STR+3); recovery = STR; determination = MIND+PRES;"
        " carrying capacity = size (small 6, medium 8, large 10) + STR; toughness = armor;"
        " mettle = the chosen mind or presence.",
        "Sizes below small carry as small (6), sizes above large as large (10).",
        "Only trained, expert and custom skills are listed; any other skill's value is"
        " its attribute.",
    ],
    "list": [
        "Owners are shown as mentions that never ping.",
        "★ marks each player's active character.",
    ],
    "select": [
        "You can only select your own characters; the GM acts for any character by giving"
        " its name to a command.",
    ],
    "edit": [
        OWNER_OR_GM,
        "Current hit points, recovery and determination drop to new maxima but never rise:"
        " heal or rest for that.",
        "Tier and exp are set separately: the GM decides when a character reaches a tier.",
        "A tier below a skill's training is refused: lower the training first.",
        "load is the item slots carried (regular 1, bulky 2, three superlight 1). Above the"
        " carrying capacity: 3 banes on strength and agility rolls, and hindered, slow and"
        " defenseless, gained when the load or capacity changes to overloaded and lost when"
        " the load fits again.",
        SPIRIT,
        INSTINCT,
    ],
    "delete": [
        "Deleting is irreversible, so it needs confirm:True.",
        "Only the owner or the GM can delete a character.",
        "A deleted character leaves every encounter it was in, as /init remove takes it out"
        " (a turn it held passes on); the tracker is redrawn without it.",
    ],
    "skill": [
        OWNER_OR_GM,
        "Training: one bonus per tier (at most 3), so a tier 1 skill has at most 1.",
        "Expertise: one skill per character; giving it to another skill moves it.",
        "Skill value = attribute + training + 1 with expertise.",
        "Willpower, channeling, runecasting and spellcasting use the mettle attribute.",
    ],
    "customskill": [
        OWNER_OR_GM,
        "Custom skills are special skills (rolled only when trained): up to 15 per sheet,"
        " 32 characters each, never named like a catalogue skill or an attribute.",
        "'mind or presence' ties the skill to the character's mettle attribute.",
        "Removing a custom skill removes its training and expertise too.",
    ],
    "trait": [
        OWNER_OR_GM,
        "The rules give 3 traits at tier 1 and one more per tier; more are kept with a"
        " note, since players may describe their character beyond that.",
        "Up to 12 traits of up to 40 characters each, no duplicates (ignoring case).",
    ],
    "fundamentals": [
        OWNER_OR_GM,
        "Each answer is up to 200 characters; - clears it.",
    ],
}
