from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.notification_settings_out import NotificationSettingsOut
from ...models.patched_notification_settings_request import PatchedNotificationSettingsRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: PatchedNotificationSettingsRequest | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/api/me/notifications/",
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | NotificationSettingsOut | None:
    if response.status_code == 200:
        response_200 = NotificationSettingsOut.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | NotificationSettingsOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: PatchedNotificationSettingsRequest | Unset = UNSET,
) -> Response[Error | NotificationSettingsOut]:
    """Change your e-mail address or turn channels on and off

     A mixin of every API view: the answer to a request a throttle counted carries
    ``RateLimit-Limit``, ``RateLimit-Remaining`` and ``RateLimit-Reset`` (seconds).

    Args:
        body (PatchedNotificationSettingsRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | NotificationSettingsOut]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: PatchedNotificationSettingsRequest | Unset = UNSET,
) -> Error | NotificationSettingsOut | None:
    """Change your e-mail address or turn channels on and off

     A mixin of every API view: the answer to a request a throttle counted carries
    ``RateLimit-Limit``, ``RateLimit-Remaining`` and ``RateLimit-Reset`` (seconds).

    Args:
        body (PatchedNotificationSettingsRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | NotificationSettingsOut
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: PatchedNotificationSettingsRequest | Unset = UNSET,
) -> Response[Error | NotificationSettingsOut]:
    """Change your e-mail address or turn channels on and off

     A mixin of every API view: the answer to a request a throttle counted carries
    ``RateLimit-Limit``, ``RateLimit-Remaining`` and ``RateLimit-Reset`` (seconds).

    Args:
        body (PatchedNotificationSettingsRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | NotificationSettingsOut]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: PatchedNotificationSettingsRequest | Unset = UNSET,
) -> Error | NotificationSettingsOut | None:
    """Change your e-mail address or turn channels on and off

     A mixin of every API view: the answer to a request a throttle counted carries
    ``RateLimit-Limit``, ``RateLimit-Remaining`` and ``RateLimit-Reset`` (seconds).

    Args:
        body (PatchedNotificationSettingsRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | NotificationSettingsOut
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
