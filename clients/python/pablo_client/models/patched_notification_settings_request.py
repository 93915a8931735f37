from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.kinds_request import KindsRequest
    from ..models.quiet_hours_request import QuietHoursRequest


T = TypeVar("T", bound="PatchedNotificationSettingsRequest")


@_attrs_define
class PatchedNotificationSettingsRequest:
    """
    Attributes:
        email (str | Unset): Where e-mail goes (a confirmed address); blank: no e-mail. A new address gets one mail with
            a confirmation link and becomes this address once confirmed; nothing else is sent to it before.
        email_enabled (bool | Unset):
        webhook_enabled (bool | Unset):
        push_enabled (bool | Unset):
        timezone (str | Unset): IANA zone name, e.g. Europe/Paris or UTC; blank in an answer: not set yet (UTC). A PATCH
            must name a real zone: blank, localtime, Factory, posixrules, paths and unknown names are 400.
        quiet_hours (None | QuietHoursRequest | Unset): null or {"start": "22:00", "end": "07:30"}: nothing but a
            reminder whose turn ends within them is pushed or mailed then; the rest goes, one per game, when they end.
            Webhooks are not held.
        kinds (KindsRequest | Unset):
    """

    email: str | Unset = UNSET
    email_enabled: bool | Unset = UNSET
    webhook_enabled: bool | Unset = UNSET
    push_enabled: bool | Unset = UNSET
    timezone: str | Unset = UNSET
    quiet_hours: None | QuietHoursRequest | Unset = UNSET
    kinds: KindsRequest | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.quiet_hours_request import QuietHoursRequest

        email: str | Unset
        if isinstance(self.email, Unset):
            email = UNSET
        else:
            email = self.email

        email_enabled = self.email_enabled

        webhook_enabled = self.webhook_enabled

        push_enabled = self.push_enabled

        timezone = self.timezone

        quiet_hours: dict[str, Any] | None | Unset
        if isinstance(self.quiet_hours, Unset):
            quiet_hours = UNSET
        elif isinstance(self.quiet_hours, QuietHoursRequest):
            quiet_hours = self.quiet_hours.to_dict()
        else:
            quiet_hours = self.quiet_hours

        kinds: dict[str, Any] | Unset = UNSET
        if not isinstance(self.kinds, Unset):
            kinds = self.kinds.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if email is not UNSET:
            field_dict["email"] = email
        if email_enabled is not UNSET:
            field_dict["email_enabled"] = email_enabled
        if webhook_enabled is not UNSET:
            field_dict["webhook_enabled"] = webhook_enabled
        if push_enabled is not UNSET:
            field_dict["push_enabled"] = push_enabled
        if timezone is not UNSET:
            field_dict["timezone"] = timezone
        if quiet_hours is not UNSET:
            field_dict["quiet_hours"] = quiet_hours
        if kinds is not UNSET:
            field_dict["kinds"] = kinds

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.kinds_request import KindsRequest
        from ..models.quiet_hours_request import QuietHoursRequest

        d = dict(src_dict)

        def _parse_email(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        email = _parse_email(d.pop("email", UNSET))

        email_enabled = d.pop("email_enabled", UNSET)

        webhook_enabled = d.pop("webhook_enabled", UNSET)

        push_enabled = d.pop("push_enabled", UNSET)

        timezone = d.pop("timezone", UNSET)

        def _parse_quiet_hours(data: object) -> None | QuietHoursRequest | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                quiet_hours_type_1 = QuietHoursRequest.from_dict(data)

                return quiet_hours_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | QuietHoursRequest | Unset, data)

        quiet_hours = _parse_quiet_hours(d.pop("quiet_hours", UNSET))

        _kinds = d.pop("kinds", UNSET)
        kinds: KindsRequest | Unset
        if isinstance(_kinds, Unset):
            kinds = UNSET
        else:
            kinds = KindsRequest.from_dict(_kinds)

        patched_notification_settings_request = cls(
            email=email,
            email_enabled=email_enabled,
            webhook_enabled=webhook_enabled,
            push_enabled=push_enabled,
            timezone=timezone,
            quiet_hours=quiet_hours,
            kinds=kinds,
        )

        patched_notification_settings_request.additional_properties = d
        return patched_notification_settings_request

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
