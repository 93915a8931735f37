from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Player")


@_attrs_define
class Player:
    """
    Attributes:
        seat (int):
        username (str):
        score (int): The game total.
        absent (bool):
        bot (None | str): The bot's level; null for a person.
        bot_account (bool): A program's account (POST /api/me/bot/), never on the people's leaderboard.
        rating_change (int | None): A finished rated game: the change of this person's rating; null while not yet
            computed or for an unrated seat (docs/ratings.md).
    """

    seat: int
    username: str
    score: int
    absent: bool
    bot: None | str
    bot_account: bool
    rating_change: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        seat = self.seat

        username = self.username

        score = self.score

        absent = self.absent

        bot: None | str
        bot = self.bot

        bot_account = self.bot_account

        rating_change: int | None
        rating_change = self.rating_change

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "seat": seat,
                "username": username,
                "score": score,
                "absent": absent,
                "bot": bot,
                "bot_account": bot_account,
                "rating_change": rating_change,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        seat = d.pop("seat")

        username = d.pop("username")

        score = d.pop("score")

        absent = d.pop("absent")

        def _parse_bot(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        bot = _parse_bot(d.pop("bot"))

        bot_account = d.pop("bot_account")

        def _parse_rating_change(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        rating_change = _parse_rating_change(d.pop("rating_change"))

        player = cls(
            seat=seat,
            username=username,
            score=score,
            absent=absent,
            bot=bot,
            bot_account=bot_account,
            rating_change=rating_change,
        )

        player.additional_properties = d
        return player

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
