from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.account_event_type_enum import AccountEventTypeEnum

if TYPE_CHECKING:
    from ..models.account_event_data import AccountEventData


T = TypeVar("T", bound="AccountEvent")


@_attrs_define
class AccountEvent:
    """
    Attributes:
        position (int): 1, 2, ...: the event's place in your feed, without a gap.
        type_ (AccountEventTypeEnum): * `game_started` - game_started
            * `your_turn` - your_turn
            * `turn_timed_out` - turn_timed_out
            * `game_finished` - game_finished
            * `rematch_offered` - rematch_offered
        game (UUID):
        at (datetime.datetime): When it happened in the game.
        data (AccountEventData): Public facts only: never a card.
    """

    position: int
    type_: AccountEventTypeEnum
    game: UUID
    at: datetime.datetime
    data: AccountEventData
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        position = self.position

        type_ = self.type_.value

        game = str(self.game)

        at = self.at.isoformat()

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "position": position,
                "type": type_,
                "game": game,
                "at": at,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.account_event_data import AccountEventData

        d = dict(src_dict)
        position = d.pop("position")

        type_ = AccountEventTypeEnum(d.pop("type"))

        game = UUID(d.pop("game"))

        at = datetime.datetime.fromisoformat(d.pop("at"))

        data = AccountEventData.from_dict(d.pop("data"))

        account_event = cls(
            position=position,
            type_=type_,
            game=game,
            at=at,
            data=data,
        )

        account_event.additional_properties = d
        return account_event

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
