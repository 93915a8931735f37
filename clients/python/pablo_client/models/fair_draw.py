from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.kind_enum import KindEnum

T = TypeVar("T", bound="FairDraw")


@_attrs_define
class FairDraw:
    """
    Attributes:
        k (int): The draw's number: 0, 1, 2, ... over the game.
        kind (KindEnum): * `deal` - deal
            * `reshuffle` - reshuffle
            * `start_seat` - start_seat
        round_ (int): The round the draw belongs to.
        input_ (list[Any] | None): deal/reshuffle: the card codes shuffled, sorted by UTF-8 bytes; start_seat: null (any
            seat) or the candidate seats.
        output (Any): deal/reshuffle: the shuffled codes, first dealt (top) first; start_seat: the seat.
    """

    k: int
    kind: KindEnum
    round_: int
    input_: list[Any] | None
    output: Any
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        k = self.k

        kind = self.kind.value

        round_ = self.round_

        input_: list[Any] | None
        if isinstance(self.input_, list):
            input_ = self.input_

        else:
            input_ = self.input_

        output = self.output

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "k": k,
                "kind": kind,
                "round": round_,
                "input": input_,
                "output": output,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        k = d.pop("k")

        kind = KindEnum(d.pop("kind"))

        round_ = d.pop("round")

        def _parse_input_(data: object) -> list[Any] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                input_type_0 = cast(list[Any], data)

                return input_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[Any] | None, data)

        input_ = _parse_input_(d.pop("input"))

        output = d.pop("output")

        fair_draw = cls(
            k=k,
            kind=kind,
            round_=round_,
            input_=input_,
            output=output,
        )

        fair_draw.additional_properties = d
        return fair_draw

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
