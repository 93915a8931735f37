from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="BoardRow")


@_attrs_define
class BoardRow:
    """
    Attributes:
        rank (int):
        username (str):
        rating (int): mu - 3 sigma, scaled: 1000 for a newcomer.
        games (int): Rated games in this ruleset.
        provisional (bool): True while the uncertainty is large.
    """

    rank: int
    username: str
    rating: int
    games: int
    provisional: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        rank = self.rank

        username = self.username

        rating = self.rating

        games = self.games

        provisional = self.provisional

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "rank": rank,
                "username": username,
                "rating": rating,
                "games": games,
                "provisional": provisional,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        rank = d.pop("rank")

        username = d.pop("username")

        rating = d.pop("rating")

        games = d.pop("games")

        provisional = d.pop("provisional")

        board_row = cls(
            rank=rank,
            username=username,
            rating=rating,
            games=games,
            provisional=provisional,
        )

        board_row.additional_properties = d
        return board_row

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
