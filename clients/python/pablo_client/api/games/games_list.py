from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.game_page import GamePage
from ...models.games_list_status import GamesListStatus
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    mine: bool | Unset = False,
    page: int | Unset = UNSET,
    status: GamesListStatus | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["mine"] = mine

    params["page"] = page

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/games/",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | GamePage | None:
    if response.status_code == 200:
        response_200 = GamePage.from_dict(response.json())

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

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | GamePage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    mine: bool | Unset = False,
    page: int | Unset = UNSET,
    status: GamesListStatus | Unset = UNSET,
) -> Response[Error | GamePage]:
    """List games (newest first), optionally by status and only your own.

     404 `not_found` for a page beyond the last.

    Args:
        mine (bool | Unset):  Default: False.
        page (int | Unset):
        status (GamesListStatus | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | GamePage]
    """

    kwargs = _get_kwargs(
        mine=mine,
        page=page,
        status=status,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    mine: bool | Unset = False,
    page: int | Unset = UNSET,
    status: GamesListStatus | Unset = UNSET,
) -> Error | GamePage | None:
    """List games (newest first), optionally by status and only your own.

     404 `not_found` for a page beyond the last.

    Args:
        mine (bool | Unset):  Default: False.
        page (int | Unset):
        status (GamesListStatus | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | GamePage
    """

    return sync_detailed(
        client=client,
        mine=mine,
        page=page,
        status=status,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    mine: bool | Unset = False,
    page: int | Unset = UNSET,
    status: GamesListStatus | Unset = UNSET,
) -> Response[Error | GamePage]:
    """List games (newest first), optionally by status and only your own.

     404 `not_found` for a page beyond the last.

    Args:
        mine (bool | Unset):  Default: False.
        page (int | Unset):
        status (GamesListStatus | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | GamePage]
    """

    kwargs = _get_kwargs(
        mine=mine,
        page=page,
        status=status,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    mine: bool | Unset = False,
    page: int | Unset = UNSET,
    status: GamesListStatus | Unset = UNSET,
) -> Error | GamePage | None:
    """List games (newest first), optionally by status and only your own.

     404 `not_found` for a page beyond the last.

    Args:
        mine (bool | Unset):  Default: False.
        page (int | Unset):
        status (GamesListStatus | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | GamePage
    """

    return (
        await asyncio_detailed(
            client=client,
            mine=mine,
            page=page,
            status=status,
        )
    ).parsed
