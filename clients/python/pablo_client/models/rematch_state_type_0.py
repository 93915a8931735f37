from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RematchStateType0")


@_attrs_define
class RematchStateType0:
    """The game as you see it (API.md 'The game and its state'); null while the game waits for players. The Pablo family
    adds `reveal`: the last finished round, public: {"round", "reason", "fields": {seat: [{"code", "value"} | null]},
    "calls": [{"seat", "succeeded"}], "totals", "scores", "game_totals", "winners"} (null before the first round ends);
    in cabo also "kamikaze": the seat whose field held exactly 12, 12, 13 and 13, in a round where one did.

    """

    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        rematch_state_type_0 = cls()

        rematch_state_type_0.additional_properties = d
        return rematch_state_type_0

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
