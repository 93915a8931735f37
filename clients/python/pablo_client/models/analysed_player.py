from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AnalysedPlayer")


@_attrs_define
class AnalysedPlayer:
    """
    Attributes:
        seat (int):
        loss (float): The sum of the losses beyond two standard errors.
        decisions (int):
        inaccuracy (int):
        mistake (int):
        blunder (int):
    """

    seat: int
    loss: float
    decisions: int
    inaccuracy: int
    mistake: int
    blunder: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        seat = self.seat

        loss = self.loss

        decisions = self.decisions

        inaccuracy = self.inaccuracy

        mistake = self.mistake

        blunder = self.blunder

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "seat": seat,
                "loss": loss,
                "decisions": decisions,
                "inaccuracy": inaccuracy,
                "mistake": mistake,
                "blunder": blunder,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        seat = d.pop("seat")

        loss = d.pop("loss")

        decisions = d.pop("decisions")

        inaccuracy = d.pop("inaccuracy")

        mistake = d.pop("mistake")

        blunder = d.pop("blunder")

        analysed_player = cls(
            seat=seat,
            loss=loss,
            decisions=decisions,
            inaccuracy=inaccuracy,
            mistake=mistake,
            blunder=blunder,
        )

        analysed_player.additional_properties = d
        return analysed_player

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
