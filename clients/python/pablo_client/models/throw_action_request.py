from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.throw_action_type_enum import ThrowActionTypeEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="ThrowActionRequest")


@_attrs_define
class ThrowActionRequest:
    """Common to every action: the optional ``expected_version``.

    Attributes:
        type_ (ThrowActionTypeEnum): * `throw` - throw
        seat (int): Whose field the thrown card is in.
        position (int):
        onto (int): The discard.serial you saw.
        expected_version (int | None | Unset): Refuse (409 version_conflict) unless the game is at this version.
        give_position (int | None | Unset): Only when throwing another player's card: a slot of yours to give.
    """

    type_: ThrowActionTypeEnum
    seat: int
    position: int
    onto: int
    expected_version: int | None | Unset = UNSET
    give_position: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        seat = self.seat

        position = self.position

        onto = self.onto

        expected_version: int | None | Unset
        if isinstance(self.expected_version, Unset):
            expected_version = UNSET
        else:
            expected_version = self.expected_version

        give_position: int | None | Unset
        if isinstance(self.give_position, Unset):
            give_position = UNSET
        else:
            give_position = self.give_position

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "seat": seat,
                "position": position,
                "onto": onto,
            }
        )
        if expected_version is not UNSET:
            field_dict["expected_version"] = expected_version
        if give_position is not UNSET:
            field_dict["give_position"] = give_position

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = ThrowActionTypeEnum(d.pop("type"))

        seat = d.pop("seat")

        position = d.pop("position")

        onto = d.pop("onto")

        def _parse_expected_version(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expected_version = _parse_expected_version(d.pop("expected_version", UNSET))

        def _parse_give_position(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        give_position = _parse_give_position(d.pop("give_position", UNSET))

        throw_action_request = cls(
            type_=type_,
            seat=seat,
            position=position,
            onto=onto,
            expected_version=expected_version,
            give_position=give_position,
        )

        throw_action_request.additional_properties = d
        return throw_action_request

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
