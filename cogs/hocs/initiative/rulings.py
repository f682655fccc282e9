"""The rulings the tracker applies, shown by /help beside each command."""

from __future__ import annotations

ORDER = (
    "Every round each participant rolls initiative (agility, or presence in a social"
    " encounter, + training + expertise; staggered and fatigued banes apply); the round runs"
    " from most successes to fewest."
)
TIES = (
    "Ties: player characters, then allies, then antagonists; a tie that remains keeps the"
    " order they joined."
)
GROUP = (
    'Every member of a group rolls its own initiative and acts on its own turn ("all'
    " characters involved make an initiative skill roll\"); the group's name still names"
    " them all. With group_initiative the group rolls once per round with its first living"
    " member's pool, and all its members act on its one turn."
)
BONUS = (
    '"Any other bonuses": bonus dice join the initiative pool and boons the roll (boons'
    " cancel banes one for one); a sheet's own pool stays in step with the sheet."
)
CLOCK = (
    "Dying and unconscious: a round is taken as 6 seconds (10 rounds a minute). A dying"
    " character's test falls due STR × 10 rounds after dying began, an unconscious one's"
    " every 300 rounds, at the start of their turn; the player is prompted with buttons"
    " (physique or willpower vs 3) that the GM may press too, and the outcome is applied"
    " at once. Outside an encounter the GM uses /condition test."
)
DURATION = (
    "A condition lasting N rounds ends at the start of the affected participant's turn N"
    " rounds after the round it was added in (before round 1 counts as round 1); if that"
    " turn never comes, when the next round starts."
)
TURN_START = (
    "At the start of a turn: timed conditions end, then bleeding takes its value in hit"
    " points (temporary first), then dying, unconscious, staggered and slow are noted."
    " Beyond the threshold a character dies; inside it a threshold test is due."
)
PLAYER_NEXT = (
    "A player may use /init next (or End turn) only to end their own turn; the GM may"
    " always. An End turn button ends only the turn it was posted for."
)
GROUP_END = "On a group's turn, End turn ends the whole group's turn."
SKIP = (
    "With skip on, a turn whose participants are all unconscious, dying or dead is passed"
    " over (bleeding still ticks); when everyone is down nobody is skipped."
)
ACTIONS = (
    "2 actions, 1 quick action and 1 reaction per round; conditions limit them. Actions"
    " and quick actions are marked on your own turn, reactions any time; a quick action"
    " can be paid with an action."
)
RESULT = (
    "A result set by hand applies now if that turn hasn't come this round (the rest of the"
    " round is re-sorted), otherwise it replaces the next round's roll."
)
JOIN = (
    "Joining mid-round rolls at once and takes its place in the order; if that place has"
    " passed, the first turn is next round."
)
WOUNDED = (
    "A character's initiative pool, maximum hit points and threshold are its wounded ones"
    " (/character wounds)."
)
PREV = (
    "/init prev goes back within the round without repeating the turn's start; it can't"
    " go back into the last round, whose order was rolled anew."
)
REMOVE = "Removing the participant whose turn it is passes the turn to the next one."
HIDDEN = (
    "With show_npc_hp off, the tracker shows an NPC's status word only: its HP and its"
    " conditions stay hidden, as in /character show and /condition list."
)
PINGS = "Only a player character's owner is pinged on its turn; NPC turns ping nobody."
NPC_DOWN = "A quick NPC whose tracked hit points reach 0 is down (dead)."

RULINGS: dict[str, list[str]] = {
    "begin": [ORDER, TIES, SKIP, HIDDEN, PINGS],
    "join": [JOIN, TIES, WOUNDED],
    "add": [GROUP, BONUS, JOIN, TIES, NPC_DOWN],
    "next": [ORDER, TIES, PLAYER_NEXT, GROUP_END, TURN_START, CLOCK, SKIP, PINGS],
    "prev": [PREV],
    "move": ["/init move starts the named participant's turn now; its start happens.", PREV],
    "remove": [REMOVE, "Naming a group removes all its members."],
    "act": [ACTIONS],
    "set": [RESULT, BONUS, TIES],
    "effect": [DURATION, TURN_START, CLOCK, "Naming a group applies it to every member."],
    "skipdown": [SKIP],
    "list": ["The GM's private list shows NPC hit points even when the tracker hides them."],
    "end": ["Ending deletes the encounter; the summary lists who stands and who fell."],
}
