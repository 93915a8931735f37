from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="HistoryRuleset")


@_attrs_define
class HistoryRuleset:
    """
    Attributes:
        ruleset (str):
        played (int):
        won (int):
        lost (int):
    """

    ruleset: str
    played: int
    won: int
    lost: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        ruleset = self.ruleset

        played = self.played

        won = self.won

        lost = self.lost

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "ruleset": ruleset,
                "played": played,
                "won": won,
                "lost": lost,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        ruleset = d.pop("ruleset")

        played = d.pop("played")

        won = d.pop("won")

        lost = d.pop("lost")

        history_ruleset = cls(
            ruleset=ruleset,
            played=played,
            won=won,
            lost=lost,
        )

        history_ruleset.additional_properties = d
        return history_ruleset

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
