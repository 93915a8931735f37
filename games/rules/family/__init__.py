"""The Pablo family (pablo, pablo-50, tamalou, cabo): one engine, four presets.

The rules of docs/rules.md. Everything that differs between the rulesets is a field
or a small function of ``presets.Preset``; this package plays any of
them. docs/rules.md lists the differences and the decisions taken here.

Card ids are indexes into the round's dealt deck (recorded in
``round_started``). Deal order: seat 0 gets ids 0-3 in slots 0-3, seat 1 ids
4-7, ...; id ``4 * seats`` is turned up as the discard pile; the rest is the
draw pile, top first.

Events (all carry the truth; ``event_view`` redacts). A card is written as
``{"card": id, "code": code}`` (or flat ``"card"``/``"code"`` keys); redaction
drops both keys where the viewer did not see the card in that event.

===============  ==================================================================
event            data
===============  ==================================================================
round_started    ``{"round", "deck": [codes], "start_seat", "start_drawn"}``; others see
                 ``deck_count``, the face-up ``discard`` and (tamalou) their own ``seen``
looked           ``{"positions", "cards": [{"position", "card", "code"}]}`` (setup look)
turn_started     ``{"seat", "turn", "may_call"}``: ``may_call`` = the seat whose call
                 window is open (the previous player) or null
drawn            ``{"source": "deck" | "discard", "card", "code"}``
reshuffled       ``{"order": [ids]}`` the new draw pile, top first; others see ``count``
discarded        ``{"card", "code", "serial", "power": {"kind", "optional"} | null}``
replaced         ``{"positions", "card", "code", "open", "correct", "out": [{"position",
                 "card", "code"}], "new_position", "serial"}``
peeked           ``{"position", "card", "code"}``
spied            ``{"seat", "position", "card", "code"}``
swapped          ``{"position", "seat", "their_position", "mine": {card}, "theirs": {card},
                 "shows_received"}``
power_skipped    ``{"reason": "skipped" | "impossible" | "timeout"}``
thrown           ``{"seat", "position", "onto", "card", "code", "correct", "serial",
                 "give_position", "given": {card} | null}``
penalty          ``{"reason": "wrong_throw" | "queen", "card", "code", "position", "seen"}``
called           ``{}``
round_ended      ``{"round", "reason", "fields": {seat: [{card} | null]}, "totals",
                 "scores", "game_totals", "winners"}`` (every card turned face up)
===============  ==================================================================

The package, by job: ``presets`` (what differs between the rulesets), ``state``
(``FamilyState`` and small helpers), ``decide`` (commands and timeouts ->
events), ``evolve`` (events -> state), ``knowledge`` (which cards an event
shows, and to whom), ``legal`` (what a seat may do now), ``view`` (what a seat
sees: the only redaction), ``ruleset`` (``Family``, binding a preset to them).
Importing the package registers the four rulesets.
"""

from __future__ import annotations

from ..registry import register
from .presets import PRESETS
from .ruleset import Family

RULESETS = {preset.id: register(Family(preset)) for preset in PRESETS}

__all__ = ["RULESETS", "Family"]
