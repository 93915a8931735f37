from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.ruleset_options import RulesetOptions


T = TypeVar("T", bound="Ruleset")


@_attrs_define
class Ruleset:
    """
    Attributes:
        id (str):
        name (str):
        min_players (int):
        max_players (int): The largest over all options.
        bot_levels (list[str]): Bot levels for `bots` and `stand_in`.
        options (RulesetOptions): Per option: {"type", "default", and "enum", "minimum", "maximum", "nullable",
            "description" where they apply}.
    """

    id: str
    name: str
    min_players: int
    max_players: int
    bot_levels: list[str]
    options: RulesetOptions
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        min_players = self.min_players

        max_players = self.max_players

        bot_levels = self.bot_levels

        options = self.options.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "min_players": min_players,
                "max_players": max_players,
                "bot_levels": bot_levels,
                "options": options,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.ruleset_options import RulesetOptions

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        min_players = d.pop("min_players")

        max_players = d.pop("max_players")

        bot_levels = cast(list[str], d.pop("bot_levels"))

        options = RulesetOptions.from_dict(d.pop("options"))

        ruleset = cls(
            id=id,
            name=name,
            min_players=min_players,
            max_players=max_players,
            bot_levels=bot_levels,
            options=options,
        )

        ruleset.additional_properties = d
        return ruleset

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
