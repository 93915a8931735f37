from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.spy_action_type_enum import SpyActionTypeEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="SpyActionRequest")


@_attrs_define
class SpyActionRequest:
    """Common to every action: the optional ``expected_version``.

    Attributes:
        type_ (SpyActionTypeEnum): * `spy` - spy
        seat (int):
        position (int):
        expected_version (int | None | Unset): Refuse (409 version_conflict) unless the game is at this version.
    """

    type_: SpyActionTypeEnum
    seat: int
    position: int
    expected_version: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        seat = self.seat

        position = self.position

        expected_version: int | None | Unset
        if isinstance(self.expected_version, Unset):
            expected_version = UNSET
        else:
            expected_version = self.expected_version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "seat": seat,
                "position": position,
            }
        )
        if expected_version is not UNSET:
            field_dict["expected_version"] = expected_version

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = SpyActionTypeEnum(d.pop("type"))

        seat = d.pop("seat")

        position = d.pop("position")

        def _parse_expected_version(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expected_version = _parse_expected_version(d.pop("expected_version", UNSET))

        spy_action_request = cls(
            type_=type_,
            seat=seat,
            position=position,
            expected_version=expected_version,
        )

        spy_action_request.additional_properties = d
        return spy_action_request

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
