from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PushOut")


@_attrs_define
class PushOut:
    """
    Attributes:
        id (int):
        endpoint (str):
        created (datetime.datetime):
        last_success (datetime.datetime | None):
    """

    id: int
    endpoint: str
    created: datetime.datetime
    last_success: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        endpoint = self.endpoint

        created = self.created.isoformat()

        last_success: None | str
        if isinstance(self.last_success, datetime.datetime):
            last_success = self.last_success.isoformat()
        else:
            last_success = self.last_success

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "endpoint": endpoint,
                "created": created,
                "last_success": last_success,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        endpoint = d.pop("endpoint")

        created = datetime.datetime.fromisoformat(d.pop("created"))

        def _parse_last_success(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_success_type_0 = datetime.datetime.fromisoformat(data)

                return last_success_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_success = _parse_last_success(d.pop("last_success"))

        push_out = cls(
            id=id,
            endpoint=endpoint,
            created=created,
            last_success=last_success,
        )

        push_out.additional_properties = d
        return push_out

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
