from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.player_game import PlayerGame
    from ..models.player_page_ratings import PlayerPageRatings


T = TypeVar("T", bound="PlayerPage")


@_attrs_define
class PlayerPage:
    """
    Attributes:
        username (str):
        bot_account (bool):
        ratings (PlayerPageRatings): By ruleset.
        recent (list[PlayerGame]): Finished games, the latest first, with the player's place.
    """

    username: str
    bot_account: bool
    ratings: PlayerPageRatings
    recent: list[PlayerGame]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        username = self.username

        bot_account = self.bot_account

        ratings = self.ratings.to_dict()

        recent = []
        for recent_item_data in self.recent:
            recent_item = recent_item_data.to_dict()
            recent.append(recent_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "username": username,
                "bot_account": bot_account,
                "ratings": ratings,
                "recent": recent,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.player_game import PlayerGame
        from ..models.player_page_ratings import PlayerPageRatings

        d = dict(src_dict)
        username = d.pop("username")

        bot_account = d.pop("bot_account")

        ratings = PlayerPageRatings.from_dict(d.pop("ratings"))

        recent = []
        _recent = d.pop("recent")
        for recent_item_data in _recent:
            recent_item = PlayerGame.from_dict(recent_item_data)

            recent.append(recent_item)

        player_page = cls(
            username=username,
            bot_account=bot_account,
            ratings=ratings,
            recent=recent,
        )

        player_page.additional_properties = d
        return player_page

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
