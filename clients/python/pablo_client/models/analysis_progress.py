from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="AnalysisProgress")


@_attrs_define
class AnalysisProgress:
    """
    Attributes:
        status (str): "queued" or "running".
        progress (float): 0 to 1: the share of decisions analysed.
        place (int | Unset): While "queued": its place in the queue of analyses (1: next).
    """

    status: str
    progress: float
    place: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status

        progress = self.progress

        place = self.place

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "progress": progress,
            }
        )
        if place is not UNSET:
            field_dict["place"] = place

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        status = d.pop("status")

        progress = d.pop("progress")

        place = d.pop("place", UNSET)

        analysis_progress = cls(
            status=status,
            progress=progress,
            place=place,
        )

        analysis_progress.additional_properties = d
        return analysis_progress

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
