from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.kinds import Kinds
    from ..models.quiet_hours import QuietHours


T = TypeVar("T", bound="NotificationSettingsOut")


@_attrs_define
class NotificationSettingsOut:
    """The answer (schema only): ``email_pending`` appears only after a new address.

    Attributes:
        webhook_url (None | str): Set with PUT /api/me/webhook/.
        email (str | Unset): Where e-mail goes (a confirmed address); blank: no e-mail. A new address gets one mail with
            a confirmation link and becomes this address once confirmed; nothing else is sent to it before.
        email_pending (str | Unset): Only in the answer to a PATCH that gave a new address: the address a confirmation
            link was mailed to.
        email_enabled (bool | Unset):
        webhook_enabled (bool | Unset):
        push_enabled (bool | Unset):
        timezone (str | Unset): IANA zone name, e.g. Europe/Paris or UTC; blank in an answer: not set yet (UTC). A PATCH
            must name a real zone: blank, localtime, Factory, posixrules, paths and unknown names are 400.
        quiet_hours (None | QuietHours | Unset): null or {"start": "22:00", "end": "07:30"}: nothing but a reminder
            whose turn ends within them is pushed or mailed then; the rest goes, one per game, when they end. Webhooks are
            not held.
        kinds (Kinds | Unset):
    """

    webhook_url: None | str
    email: str | Unset = UNSET
    email_pending: str | Unset = UNSET
    email_enabled: bool | Unset = UNSET
    webhook_enabled: bool | Unset = UNSET
    push_enabled: bool | Unset = UNSET
    timezone: str | Unset = UNSET
    quiet_hours: None | QuietHours | Unset = UNSET
    kinds: Kinds | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.quiet_hours import QuietHours

        webhook_url: None | str
        webhook_url = self.webhook_url

        email: str | Unset
        if isinstance(self.email, Unset):
            email = UNSET
        else:
            email = self.email

        email_pending = self.email_pending

        email_enabled = self.email_enabled

        webhook_enabled = self.webhook_enabled

        push_enabled = self.push_enabled

        timezone = self.timezone

        quiet_hours: dict[str, Any] | None | Unset
        if isinstance(self.quiet_hours, Unset):
            quiet_hours = UNSET
        elif isinstance(self.quiet_hours, QuietHours):
            quiet_hours = self.quiet_hours.to_dict()
        else:
            quiet_hours = self.quiet_hours

        kinds: dict[str, Any] | Unset = UNSET
        if not isinstance(self.kinds, Unset):
            kinds = self.kinds.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "webhook_url": webhook_url,
            }
        )
        if email is not UNSET:
            field_dict["email"] = email
        if email_pending is not UNSET:
            field_dict["email_pending"] = email_pending
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
        from ..models.kinds import Kinds
        from ..models.quiet_hours import QuietHours

        d = dict(src_dict)

        def _parse_webhook_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        webhook_url = _parse_webhook_url(d.pop("webhook_url"))

        def _parse_email(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        email = _parse_email(d.pop("email", UNSET))

        email_pending = d.pop("email_pending", UNSET)

        email_enabled = d.pop("email_enabled", UNSET)

        webhook_enabled = d.pop("webhook_enabled", UNSET)

        push_enabled = d.pop("push_enabled", UNSET)

        timezone = d.pop("timezone", UNSET)

        def _parse_quiet_hours(data: object) -> None | QuietHours | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                quiet_hours_type_1 = QuietHours.from_dict(data)

                return quiet_hours_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | QuietHours | Unset, data)

        quiet_hours = _parse_quiet_hours(d.pop("quiet_hours", UNSET))

        _kinds = d.pop("kinds", UNSET)
        kinds: Kinds | Unset
        if isinstance(_kinds, Unset):
            kinds = UNSET
        else:
            kinds = Kinds.from_dict(_kinds)

        notification_settings_out = cls(
            webhook_url=webhook_url,
            email=email,
            email_pending=email_pending,
            email_enabled=email_enabled,
            webhook_enabled=webhook_enabled,
            push_enabled=push_enabled,
            timezone=timezone,
            quiet_hours=quiet_hours,
            kinds=kinds,
        )

        notification_settings_out.additional_properties = d
        return notification_settings_out

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
