from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Seat")


@_attrs_define
class Seat:
    """
    Attributes:
        seat (int):
        username (str):
        bot (None | str): The bot's level; null for a person.
        bot_account (bool): A program's account (POST /api/me/bot/), never on the people's leaderboard.
    """

    seat: int
    username: str
    bot: None | str
    bot_account: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        seat = self.seat

        username = self.username

        bot: None | str
        bot = self.bot

        bot_account = self.bot_account

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "seat": seat,
                "username": username,
                "bot": bot,
                "bot_account": bot_account,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        seat = d.pop("seat")

        username = d.pop("username")

        def _parse_bot(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        bot = _parse_bot(d.pop("bot"))

        bot_account = d.pop("bot_account")

        seat = cls(
            seat=seat,
            username=username,
            bot=bot,
            bot_account=bot_account,
        )

        seat.additional_properties = d
        return seat

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
