from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.game import Game
from ...models.game_create_input_request import GameCreateInputRequest
from ...types import Response


def _get_kwargs(
    *,
    body: GameCreateInputRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/games/",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | Game | None:
    if response.status_code == 201:
        response_201 = Game.from_dict(response.json())

        return response_201

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
) -> Response[Error | Game]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: GameCreateInputRequest,
) -> Response[Error | Game]:
    """Create a game; you take seat 0.

     429 over `PABLO_THROTTLE_GAMES`, or for a game with bots over `PABLO_BOT_GAMES` (per account) or
    `PABLO_BOT_GAMES_PER_ADDRESS` games with bots going on at once (bot seats, or a bot as `stand_in`).

    Args:
        body (GameCreateInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Game]
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
    body: GameCreateInputRequest,
) -> Error | Game | None:
    """Create a game; you take seat 0.

     429 over `PABLO_THROTTLE_GAMES`, or for a game with bots over `PABLO_BOT_GAMES` (per account) or
    `PABLO_BOT_GAMES_PER_ADDRESS` games with bots going on at once (bot seats, or a bot as `stand_in`).

    Args:
        body (GameCreateInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Game
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: GameCreateInputRequest,
) -> Response[Error | Game]:
    """Create a game; you take seat 0.

     429 over `PABLO_THROTTLE_GAMES`, or for a game with bots over `PABLO_BOT_GAMES` (per account) or
    `PABLO_BOT_GAMES_PER_ADDRESS` games with bots going on at once (bot seats, or a bot as `stand_in`).

    Args:
        body (GameCreateInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Game]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: GameCreateInputRequest,
) -> Error | Game | None:
    """Create a game; you take seat 0.

     429 over `PABLO_THROTTLE_GAMES`, or for a game with bots over `PABLO_BOT_GAMES` (per account) or
    `PABLO_BOT_GAMES_PER_ADDRESS` games with bots going on at once (bot seats, or a bot as `stand_in`).

    Args:
        body (GameCreateInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Game
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
