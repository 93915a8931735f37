from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.event_data import EventData


T = TypeVar("T", bound="Event")


@_attrs_define
class Event:
    """
    Attributes:
        seq (int): 1, 2, ...: the event's place in the game.
        type_ (str): The event's type. Engine events (every ruleset):

            | type | data |
            |---|---|
            | `game_created` | `{ruleset, seats, options, turn_timeout, rated}` |
            | `player_joined` | `{seat, username}` |
            | `game_started` | `{}`; the ruleset's dealing events follow |
            | `deadline_set` | `{key, deadline, seats}`: a turn (or setup phase) began |
            | `turn_timed_out` | `{}`, `seat` = the player acted for; the auto action follows |
            | `player_absent` | `{}`: max_timeouts consecutive timeouts |
            | `player_returned` | `{}`: an absent or timed-out player acted again |
            | `game_finished` | `{winners, losers, places, points}`: places 1 = first (ties share), points the ruleset's
            final count |
            | `game_aborted` | `{reason}`: every player absent, or `cancelled` by the creator |

            `pablo` events:

            | type | meaning |
            |---|---|
            | `round_started` | a round was dealt; the deck is shown to nobody in the feed |
            | `looked` | setup: a player looked at two of their own slots |
            | `turn_started` | a player's turn began (`may_call`: whose call window is open) |
            | `drawn` | the player on turn drew from the deck or took the discard top |
            | `reshuffled` | the discard pile (but its top) became the new draw pile |
            | `discarded` | the held card went onto the discard pile (`power` if it has one) |
            | `replaced` | the held card replaced one or more field slots |
            | `peeked` | power: the actor looked at one of their own cards |
            | `spied` | power: the actor looked at another player's card |
            | `swapped` | power: two cards changed places between fields |
            | `power_skipped` | a power was skipped (by choice, impossible, or on timeout) |
            | `thrown` | a card was thrown onto the discard pile (`correct` or not) |
            | `penalty` | a penalty card went into a new slot |
            | `called` | the player called (Pablo / Cabo) |
            | `round_ended` | the round was scored; every field card is shown |

            `pablo-50` events:

            | type | meaning |
            |---|---|
            | `round_started` | a round was dealt; the deck is shown to nobody in the feed |
            | `looked` | setup: a player looked at two of their own slots |
            | `turn_started` | a player's turn began (`may_call`: whose call window is open) |
            | `drawn` | the player on turn drew from the deck or took the discard top |
            | `reshuffled` | the discard pile (but its top) became the new draw pile |
            | `discarded` | the held card went onto the discard pile (`power` if it has one) |
            | `replaced` | the held card replaced one or more field slots |
            | `peeked` | power: the actor looked at one of their own cards |
            | `spied` | power: the actor looked at another player's card |
            | `swapped` | power: two cards changed places between fields |
            | `power_skipped` | a power was skipped (by choice, impossible, or on timeout) |
            | `thrown` | a card was thrown onto the discard pile (`correct` or not) |
            | `penalty` | a penalty card went into a new slot |
            | `called` | the player called (Pablo / Cabo) |
            | `round_ended` | the round was scored; every field card is shown |

            `tamalou` events:

            | type | meaning |
            |---|---|
            | `round_started` | a round was dealt; the deck is shown to nobody in the feed |
            | `looked` | setup: a player looked at two of their own slots |
            | `turn_started` | a player's turn began (`may_call`: whose call window is open) |
            | `drawn` | the player on turn drew from the deck or took the discard top |
            | `reshuffled` | the discard pile (but its top) became the new draw pile |
            | `discarded` | the held card went onto the discard pile (`power` if it has one) |
            | `replaced` | the held card replaced one or more field slots |
            | `peeked` | power: the actor looked at one of their own cards |
            | `spied` | power: the actor looked at another player's card |
            | `swapped` | power: two cards changed places between fields |
            | `power_skipped` | a power was skipped (by choice, impossible, or on timeout) |
            | `thrown` | a card was thrown onto the discard pile (`correct` or not) |
            | `penalty` | a penalty card went into a new slot |
            | `called` | the player called (Pablo / Cabo) |
            | `round_ended` | the round was scored; every field card is shown |

            `cabo` events:

            | type | meaning |
            |---|---|
            | `round_started` | a round was dealt; the deck is shown to nobody in the feed |
            | `looked` | setup: a player looked at two of their own slots |
            | `turn_started` | a player's turn began (`may_call`: whose call window is open) |
            | `drawn` | the player on turn drew from the deck or took the discard top |
            | `reshuffled` | the discard pile (but its top) became the new draw pile |
            | `discarded` | the held card went onto the discard pile (`power` if it has one) |
            | `replaced` | the held card replaced one or more field slots |
            | `peeked` | power: the actor looked at one of their own cards |
            | `spied` | power: the actor looked at another player's card |
            | `swapped` | power: two cards changed places between fields |
            | `power_skipped` | a power was skipped (by choice, impossible, or on timeout) |
            | `thrown` | a card was thrown onto the discard pile (`correct` or not) |
            | `penalty` | a penalty card went into a new slot |
            | `called` | the player called (Pablo / Cabo) |
            | `round_ended` | the round was scored; every field card is shown |

            `skipbo` events:

            | type | meaning |
            |---|---|
            | `round_started` | the stock piles were dealt; the deck is shown to nobody |
            | `turn_started` | a player's turn began |
            | `cards_drawn` | cards drawn into a hand (others see only the count) |
            | `draw_pile_reshuffled` | the completed stack became the new draw pile |
            | `card_played` | a card went onto a building pile |
            | `pile_completed` | a building pile reached 12 and was cleared |
            | `card_discarded` | a hand card went onto one of the player's discard piles |
            | `turn_ended` | the turn passed (`reason`: discard, passed, no_cards) |
        seat (int | None): The seat it concerns, or null.
        at (datetime.datetime):
        data (EventData): What the event showed you at its own moment (hidden cards removed).
    """

    seq: int
    type_: str
    seat: int | None
    at: datetime.datetime
    data: EventData
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        seq = self.seq

        type_ = self.type_

        seat: int | None
        seat = self.seat

        at = self.at.isoformat()

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "seq": seq,
                "type": type_,
                "seat": seat,
                "at": at,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.event_data import EventData

        d = dict(src_dict)
        seq = d.pop("seq")

        type_ = d.pop("type")

        def _parse_seat(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        seat = _parse_seat(d.pop("seat"))

        at = datetime.datetime.fromisoformat(d.pop("at"))

        data = EventData.from_dict(d.pop("data"))

        event = cls(
            seq=seq,
            type_=type_,
            seat=seat,
            at=at,
            data=data,
        )

        event.additional_properties = d
        return event

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
