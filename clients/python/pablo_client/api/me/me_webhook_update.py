from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.webhook_in_request import WebhookInRequest
from ...models.webhook_secret import WebhookSecret
from ...types import Response


def _get_kwargs(
    *,
    body: WebhookInRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/api/me/webhook/",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | WebhookSecret | None:
    if response.status_code == 200:
        response_200 = WebhookSecret.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | WebhookSecret]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: WebhookInRequest,
) -> Response[Error | WebhookSecret]:
    """Register your webhook; the answer shows its new secret once

     Registers the URL that receives a POST for your turns, reminders (80 % of the
    turn's time gone), game ends, rematches offered and your private games' seats taken.
    The body is JSON:
    `{"delivery", "event": "your_turn" | "turn_reminder" | "game_finished" | "game_aborted",
    "game_id", "ruleset", "seat", "deadline", "version"}` (plus `result` when a game ends);
    for `"event": "rematch"` `{"delivery", "event", "game_id" (the new game), "ruleset",
    "by", "rematch_of", "version"}`, for `"seat_taken"` the same with `"seat"` (yours)
    instead of `rematch_of`. Each kind has its switch (`kinds` of /api/me/notifications/).
    Header `X-Pablo-Signature: sha256=<hex>` is HMAC-SHA256 of the exact body bytes
    under the secret in this answer -- shown only now; registering again issues a
    new one. A 5xx, 429, timeout or connection error is retried with exponential
    backoff; the same `delivery` id may arrive more than once.

    Args:
        body (WebhookInRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WebhookSecret]
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
    body: WebhookInRequest,
) -> Error | WebhookSecret | None:
    """Register your webhook; the answer shows its new secret once

     Registers the URL that receives a POST for your turns, reminders (80 % of the
    turn's time gone), game ends, rematches offered and your private games' seats taken.
    The body is JSON:
    `{"delivery", "event": "your_turn" | "turn_reminder" | "game_finished" | "game_aborted",
    "game_id", "ruleset", "seat", "deadline", "version"}` (plus `result` when a game ends);
    for `"event": "rematch"` `{"delivery", "event", "game_id" (the new game), "ruleset",
    "by", "rematch_of", "version"}`, for `"seat_taken"` the same with `"seat"` (yours)
    instead of `rematch_of`. Each kind has its switch (`kinds` of /api/me/notifications/).
    Header `X-Pablo-Signature: sha256=<hex>` is HMAC-SHA256 of the exact body bytes
    under the secret in this answer -- shown only now; registering again issues a
    new one. A 5xx, 429, timeout or connection error is retried with exponential
    backoff; the same `delivery` id may arrive more than once.

    Args:
        body (WebhookInRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WebhookSecret
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: WebhookInRequest,
) -> Response[Error | WebhookSecret]:
    """Register your webhook; the answer shows its new secret once

     Registers the URL that receives a POST for your turns, reminders (80 % of the
    turn's time gone), game ends, rematches offered and your private games' seats taken.
    The body is JSON:
    `{"delivery", "event": "your_turn" | "turn_reminder" | "game_finished" | "game_aborted",
    "game_id", "ruleset", "seat", "deadline", "version"}` (plus `result` when a game ends);
    for `"event": "rematch"` `{"delivery", "event", "game_id" (the new game), "ruleset",
    "by", "rematch_of", "version"}`, for `"seat_taken"` the same with `"seat"` (yours)
    instead of `rematch_of`. Each kind has its switch (`kinds` of /api/me/notifications/).
    Header `X-Pablo-Signature: sha256=<hex>` is HMAC-SHA256 of the exact body bytes
    under the secret in this answer -- shown only now; registering again issues a
    new one. A 5xx, 429, timeout or connection error is retried with exponential
    backoff; the same `delivery` id may arrive more than once.

    Args:
        body (WebhookInRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WebhookSecret]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: WebhookInRequest,
) -> Error | WebhookSecret | None:
    """Register your webhook; the answer shows its new secret once

     Registers the URL that receives a POST for your turns, reminders (80 % of the
    turn's time gone), game ends, rematches offered and your private games' seats taken.
    The body is JSON:
    `{"delivery", "event": "your_turn" | "turn_reminder" | "game_finished" | "game_aborted",
    "game_id", "ruleset", "seat", "deadline", "version"}` (plus `result` when a game ends);
    for `"event": "rematch"` `{"delivery", "event", "game_id" (the new game), "ruleset",
    "by", "rematch_of", "version"}`, for `"seat_taken"` the same with `"seat"` (yours)
    instead of `rematch_of`. Each kind has its switch (`kinds` of /api/me/notifications/).
    Header `X-Pablo-Signature: sha256=<hex>` is HMAC-SHA256 of the exact body bytes
    under the secret in this answer -- shown only now; registering again issues a
    new one. A 5xx, 429, timeout or connection error is retried with exponential
    backoff; the same `delivery` id may arrive more than once.

    Args:
        body (WebhookInRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WebhookSecret
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
