from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.channels_request import ChannelsRequest
    from ..models.push_webhook_request import PushWebhookRequest


T = TypeVar("T", bound="KindsRequest")


@_attrs_define
class KindsRequest:
    """
    Attributes:
        your_turn (ChannelsRequest | Unset):
        reminder (ChannelsRequest | Unset):
        game_over (ChannelsRequest | Unset):
        rematch (ChannelsRequest | Unset):
        seat_taken (PushWebhookRequest | Unset):
    """

    your_turn: ChannelsRequest | Unset = UNSET
    reminder: ChannelsRequest | Unset = UNSET
    game_over: ChannelsRequest | Unset = UNSET
    rematch: ChannelsRequest | Unset = UNSET
    seat_taken: PushWebhookRequest | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        your_turn: dict[str, Any] | Unset = UNSET
        if not isinstance(self.your_turn, Unset):
            your_turn = self.your_turn.to_dict()

        reminder: dict[str, Any] | Unset = UNSET
        if not isinstance(self.reminder, Unset):
            reminder = self.reminder.to_dict()

        game_over: dict[str, Any] | Unset = UNSET
        if not isinstance(self.game_over, Unset):
            game_over = self.game_over.to_dict()

        rematch: dict[str, Any] | Unset = UNSET
        if not isinstance(self.rematch, Unset):
            rematch = self.rematch.to_dict()

        seat_taken: dict[str, Any] | Unset = UNSET
        if not isinstance(self.seat_taken, Unset):
            seat_taken = self.seat_taken.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if your_turn is not UNSET:
            field_dict["your_turn"] = your_turn
        if reminder is not UNSET:
            field_dict["reminder"] = reminder
        if game_over is not UNSET:
            field_dict["game_over"] = game_over
        if rematch is not UNSET:
            field_dict["rematch"] = rematch
        if seat_taken is not UNSET:
            field_dict["seat_taken"] = seat_taken

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.channels_request import ChannelsRequest
        from ..models.push_webhook_request import PushWebhookRequest

        d = dict(src_dict)
        _your_turn = d.pop("your_turn", UNSET)
        your_turn: ChannelsRequest | Unset
        if isinstance(_your_turn, Unset):
            your_turn = UNSET
        else:
            your_turn = ChannelsRequest.from_dict(_your_turn)

        _reminder = d.pop("reminder", UNSET)
        reminder: ChannelsRequest | Unset
        if isinstance(_reminder, Unset):
            reminder = UNSET
        else:
            reminder = ChannelsRequest.from_dict(_reminder)

        _game_over = d.pop("game_over", UNSET)
        game_over: ChannelsRequest | Unset
        if isinstance(_game_over, Unset):
            game_over = UNSET
        else:
            game_over = ChannelsRequest.from_dict(_game_over)

        _rematch = d.pop("rematch", UNSET)
        rematch: ChannelsRequest | Unset
        if isinstance(_rematch, Unset):
            rematch = UNSET
        else:
            rematch = ChannelsRequest.from_dict(_rematch)

        _seat_taken = d.pop("seat_taken", UNSET)
        seat_taken: PushWebhookRequest | Unset
        if isinstance(_seat_taken, Unset):
            seat_taken = UNSET
        else:
            seat_taken = PushWebhookRequest.from_dict(_seat_taken)

        kinds_request = cls(
            your_turn=your_turn,
            reminder=reminder,
            game_over=game_over,
            rematch=rematch,
            seat_taken=seat_taken,
        )

        kinds_request.additional_properties = d
        return kinds_request

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
