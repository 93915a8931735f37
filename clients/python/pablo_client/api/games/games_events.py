from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.event_feed import EventFeed
from ...types import UNSET, Response, Unset


def _get_kwargs(
    game_id: UUID,
    *,
    after: int | Unset = 0,
    wait: float | Unset = 0.0,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["after"] = after

    params["wait"] = wait

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/games/{game_id}/events/".format(
            game_id=quote(str(game_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | EventFeed | None:
    if response.status_code == 200:
        response_200 = EventFeed.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | EventFeed]:
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
    after: int | Unset = 0,
    wait: float | Unset = 0.0,
) -> Response[Error | EventFeed]:
    """The game's events after seq `after`, each as you saw it at its own moment; `wait` (0-30 s) long-
    polls for news.

     Bodies are JSON only (the project's default parser): anything else is a 400.
    Tokens are looked up through a short cache (``games.tokens``).

    Args:
        game_id (UUID):
        after (int | Unset):  Default: 0.
        wait (float | Unset):  Default: 0.0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | EventFeed]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        after=after,
        wait=wait,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    game_id: UUID,
    *,
    client: AuthenticatedClient,
    after: int | Unset = 0,
    wait: float | Unset = 0.0,
) -> Error | EventFeed | None:
    """The game's events after seq `after`, each as you saw it at its own moment; `wait` (0-30 s) long-
    polls for news.

     Bodies are JSON only (the project's default parser): anything else is a 400.
    Tokens are looked up through a short cache (``games.tokens``).

    Args:
        game_id (UUID):
        after (int | Unset):  Default: 0.
        wait (float | Unset):  Default: 0.0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | EventFeed
    """

    return sync_detailed(
        game_id=game_id,
        client=client,
        after=after,
        wait=wait,
    ).parsed


async def asyncio_detailed(
    game_id: UUID,
    *,
    client: AuthenticatedClient,
    after: int | Unset = 0,
    wait: float | Unset = 0.0,
) -> Response[Error | EventFeed]:
    """The game's events after seq `after`, each as you saw it at its own moment; `wait` (0-30 s) long-
    polls for news.

     Bodies are JSON only (the project's default parser): anything else is a 400.
    Tokens are looked up through a short cache (``games.tokens``).

    Args:
        game_id (UUID):
        after (int | Unset):  Default: 0.
        wait (float | Unset):  Default: 0.0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | EventFeed]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        after=after,
        wait=wait,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    game_id: UUID,
    *,
    client: AuthenticatedClient,
    after: int | Unset = 0,
    wait: float | Unset = 0.0,
) -> Error | EventFeed | None:
    """The game's events after seq `after`, each as you saw it at its own moment; `wait` (0-30 s) long-
    polls for news.

     Bodies are JSON only (the project's default parser): anything else is a 400.
    Tokens are looked up through a short cache (``games.tokens``).

    Args:
        game_id (UUID):
        after (int | Unset):  Default: 0.
        wait (float | Unset):  Default: 0.0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | EventFeed
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
            after=after,
            wait=wait,
        )
    ).parsed
