from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="GameJoinInputRequest")


@_attrs_define
class GameJoinInputRequest:
    """
    Attributes:
        seed (str | Unset): Your fair-deal seed (docs/fairness.md): any string of at most 64 characters, public at once.
            After the game has started: 409. Default: ''.
        invite (str | Unset): A private game's invite (its players see it in the game): without it, or with a wrong one,
            a private game answers 404 like an unknown id.
    """

    seed: str | Unset = ""
    invite: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        seed = self.seed

        invite = self.invite

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if seed is not UNSET:
            field_dict["seed"] = seed
        if invite is not UNSET:
            field_dict["invite"] = invite

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        seed = d.pop("seed", UNSET)

        invite = d.pop("invite", UNSET)

        game_join_input_request = cls(
            seed=seed,
            invite=invite,
        )

        game_join_input_request.additional_properties = d
        return game_join_input_request

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
