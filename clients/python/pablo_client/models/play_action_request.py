from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.card_enum import CardEnum
from ..models.from_enum import FromEnum
from ..models.play_action_type_enum import PlayActionTypeEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="PlayActionRequest")


@_attrs_define
class PlayActionRequest:
    """Common to every action: the optional ``expected_version``.

    Attributes:
        type_ (PlayActionTypeEnum): * `play` - play
        from_ (FromEnum): * `hand` - hand
            * `stock` - stock
            * `discard` - discard
        pile (int): The building pile.
        expected_version (int | None | Unset): Refuse (409 version_conflict) unless the game is at this version.
        card (CardEnum | Unset):
        discard_pile (int | Unset): For from=discard.
    """

    type_: PlayActionTypeEnum
    from_: FromEnum
    pile: int
    expected_version: int | None | Unset = UNSET
    card: CardEnum | Unset = UNSET
    discard_pile: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        from_ = self.from_.value

        pile = self.pile

        expected_version: int | None | Unset
        if isinstance(self.expected_version, Unset):
            expected_version = UNSET
        else:
            expected_version = self.expected_version

        card: str | Unset = UNSET
        if not isinstance(self.card, Unset):
            card = self.card.value

        discard_pile = self.discard_pile

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "from": from_,
                "pile": pile,
            }
        )
        if expected_version is not UNSET:
            field_dict["expected_version"] = expected_version
        if card is not UNSET:
            field_dict["card"] = card
        if discard_pile is not UNSET:
            field_dict["discard_pile"] = discard_pile

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = PlayActionTypeEnum(d.pop("type"))

        from_ = FromEnum(d.pop("from"))

        pile = d.pop("pile")

        def _parse_expected_version(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expected_version = _parse_expected_version(d.pop("expected_version", UNSET))

        _card = d.pop("card", UNSET)
        card: CardEnum | Unset
        if isinstance(_card, Unset):
            card = UNSET
        else:
            card = CardEnum(_card)

        discard_pile = d.pop("discard_pile", UNSET)

        play_action_request = cls(
            type_=type_,
            from_=from_,
            pile=pile,
            expected_version=expected_version,
            card=card,
            discard_pile=discard_pile,
        )

        play_action_request.additional_properties = d
        return play_action_request

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
