from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.account_feed import AccountFeed
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    after: int | Unset = UNSET,
    wait: float | Unset = 0.0,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["after"] = after

    params["wait"] = wait

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/me/events/",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AccountFeed | Error | None:
    if response.status_code == 200:
        response_200 = AccountFeed.from_dict(response.json())

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
) -> Response[AccountFeed | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    wait: float | Unset = 0.0,
) -> Response[AccountFeed | Error]:
    """What concerns you across your games, after position `after`, oldest first; `wait` (0-30 s) long-
    polls for news.

     Your own feed (docs/programs.md): the games that start, your turns (with their deadlines), your
    turns that timed out, the games that end and the rematches offered to you, in the order they
    happened, numbered 1, 2, ... without a gap. Resume with `after` = the `position` you were given:
    nothing is missed or repeated. Without `after`: no events, and the position to wait from. An `after`
    beyond your newest position is answered at once with your newest position.

    Args:
        after (int | Unset):
        wait (float | Unset):  Default: 0.0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AccountFeed | Error]
    """

    kwargs = _get_kwargs(
        after=after,
        wait=wait,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    wait: float | Unset = 0.0,
) -> AccountFeed | Error | None:
    """What concerns you across your games, after position `after`, oldest first; `wait` (0-30 s) long-
    polls for news.

     Your own feed (docs/programs.md): the games that start, your turns (with their deadlines), your
    turns that timed out, the games that end and the rematches offered to you, in the order they
    happened, numbered 1, 2, ... without a gap. Resume with `after` = the `position` you were given:
    nothing is missed or repeated. Without `after`: no events, and the position to wait from. An `after`
    beyond your newest position is answered at once with your newest position.

    Args:
        after (int | Unset):
        wait (float | Unset):  Default: 0.0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AccountFeed | Error
    """

    return sync_detailed(
        client=client,
        after=after,
        wait=wait,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    wait: float | Unset = 0.0,
) -> Response[AccountFeed | Error]:
    """What concerns you across your games, after position `after`, oldest first; `wait` (0-30 s) long-
    polls for news.

     Your own feed (docs/programs.md): the games that start, your turns (with their deadlines), your
    turns that timed out, the games that end and the rematches offered to you, in the order they
    happened, numbered 1, 2, ... without a gap. Resume with `after` = the `position` you were given:
    nothing is missed or repeated. Without `after`: no events, and the position to wait from. An `after`
    beyond your newest position is answered at once with your newest position.

    Args:
        after (int | Unset):
        wait (float | Unset):  Default: 0.0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AccountFeed | Error]
    """

    kwargs = _get_kwargs(
        after=after,
        wait=wait,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    wait: float | Unset = 0.0,
) -> AccountFeed | Error | None:
    """What concerns you across your games, after position `after`, oldest first; `wait` (0-30 s) long-
    polls for news.

     Your own feed (docs/programs.md): the games that start, your turns (with their deadlines), your
    turns that timed out, the games that end and the rematches offered to you, in the order they
    happened, numbered 1, 2, ... without a gap. Resume with `after` = the `position` you were given:
    nothing is missed or repeated. Without `after`: no events, and the position to wait from. An `after`
    beyond your newest position is answered at once with your newest position.

    Args:
        after (int | Unset):
        wait (float | Unset):  Default: 0.0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AccountFeed | Error
    """

    return (
        await asyncio_detailed(
            client=client,
            after=after,
            wait=wait,
        )
    ).parsed
