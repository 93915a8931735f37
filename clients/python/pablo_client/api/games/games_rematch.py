from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.rematch import Rematch
from ...models.rematch_input_request import RematchInputRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    game_id: UUID,
    *,
    body: RematchInputRequest | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/games/{game_id}/rematch/".format(
            game_id=quote(str(game_id), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | Rematch | None:
    if response.status_code == 200:
        response_200 = Rematch.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = Rematch.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | Rematch]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    game_id: UUID,
    *,
    client: AuthenticatedClient,
    body: RematchInputRequest | Unset = UNSET,
) -> Response[Error | Rematch]:
    """Start (or find) the rematch of a finished game.

     A player of a finished game: 201 a new private game with the same ruleset, seats, options and turn
    time, you in seat 0, the bots seated again at once; the answer carries its `invite`, with which
    every person of the finished game may join. A second call (by any of its players) answers the same
    game, 200. 409 `game_not_finished` otherwise; 403 for a non-player. Counts against
    `PABLO_THROTTLE_GAMES`.

    Args:
        game_id (UUID):
        body (RematchInputRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Rematch]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    game_id: UUID,
    *,
    client: AuthenticatedClient,
    body: RematchInputRequest | Unset = UNSET,
) -> Error | Rematch | None:
    """Start (or find) the rematch of a finished game.

     A player of a finished game: 201 a new private game with the same ruleset, seats, options and turn
    time, you in seat 0, the bots seated again at once; the answer carries its `invite`, with which
    every person of the finished game may join. A second call (by any of its players) answers the same
    game, 200. 409 `game_not_finished` otherwise; 403 for a non-player. Counts against
    `PABLO_THROTTLE_GAMES`.

    Args:
        game_id (UUID):
        body (RematchInputRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Rematch
    """

    return sync_detailed(
        game_id=game_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    game_id: UUID,
    *,
    client: AuthenticatedClient,
    body: RematchInputRequest | Unset = UNSET,
) -> Response[Error | Rematch]:
    """Start (or find) the rematch of a finished game.

     A player of a finished game: 201 a new private game with the same ruleset, seats, options and turn
    time, you in seat 0, the bots seated again at once; the answer carries its `invite`, with which
    every person of the finished game may join. A second call (by any of its players) answers the same
    game, 200. 409 `game_not_finished` otherwise; 403 for a non-player. Counts against
    `PABLO_THROTTLE_GAMES`.

    Args:
        game_id (UUID):
        body (RematchInputRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Rematch]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    game_id: UUID,
    *,
    client: AuthenticatedClient,
    body: RematchInputRequest | Unset = UNSET,
) -> Error | Rematch | None:
    """Start (or find) the rematch of a finished game.

     A player of a finished game: 201 a new private game with the same ruleset, seats, options and turn
    time, you in seat 0, the bots seated again at once; the answer carries its `invite`, with which
    every person of the finished game may join. A second call (by any of its players) answers the same
    game, 200. 409 `game_not_finished` otherwise; 403 for a non-player. Counts against
    `PABLO_THROTTLE_GAMES`.

    Args:
        game_id (UUID):
        body (RematchInputRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Rematch
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
            body=body,
        )
    ).parsed
