from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.board_page import BoardPage
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    ruleset: str,
    *,
    page: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["page"] = page

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/ratings/{ruleset}/".format(
            ruleset=quote(str(ruleset), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> BoardPage | Error | None:
    if response.status_code == 200:
        response_200 = BoardPage.from_dict(response.json())

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
) -> Response[BoardPage | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    ruleset: str,
    *,
    client: AuthenticatedClient,
    page: int | Unset = UNSET,
) -> Response[BoardPage | Error]:
    """A ruleset's leaderboard, highest rating first.

     People with at least PABLO_LEADERBOARD_MIN_GAMES rated games in the ruleset, one within 30 days; 50
    a page. 404 for an unknown ruleset, 404 `not_found` for a page beyond the last; a `page` that is not
    a whole number from 1 is a 400.

    Args:
        ruleset (str):
        page (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BoardPage | Error]
    """

    kwargs = _get_kwargs(
        ruleset=ruleset,
        page=page,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    ruleset: str,
    *,
    client: AuthenticatedClient,
    page: int | Unset = UNSET,
) -> BoardPage | Error | None:
    """A ruleset's leaderboard, highest rating first.

     People with at least PABLO_LEADERBOARD_MIN_GAMES rated games in the ruleset, one within 30 days; 50
    a page. 404 for an unknown ruleset, 404 `not_found` for a page beyond the last; a `page` that is not
    a whole number from 1 is a 400.

    Args:
        ruleset (str):
        page (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BoardPage | Error
    """

    return sync_detailed(
        ruleset=ruleset,
        client=client,
        page=page,
    ).parsed


async def asyncio_detailed(
    ruleset: str,
    *,
    client: AuthenticatedClient,
    page: int | Unset = UNSET,
) -> Response[BoardPage | Error]:
    """A ruleset's leaderboard, highest rating first.

     People with at least PABLO_LEADERBOARD_MIN_GAMES rated games in the ruleset, one within 30 days; 50
    a page. 404 for an unknown ruleset, 404 `not_found` for a page beyond the last; a `page` that is not
    a whole number from 1 is a 400.

    Args:
        ruleset (str):
        page (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BoardPage | Error]
    """

    kwargs = _get_kwargs(
        ruleset=ruleset,
        page=page,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    ruleset: str,
    *,
    client: AuthenticatedClient,
    page: int | Unset = UNSET,
) -> BoardPage | Error | None:
    """A ruleset's leaderboard, highest rating first.

     People with at least PABLO_LEADERBOARD_MIN_GAMES rated games in the ruleset, one within 30 days; 50
    a page. 404 for an unknown ruleset, 404 `not_found` for a page beyond the last; a `page` that is not
    a whole number from 1 is a 400.

    Args:
        ruleset (str):
        page (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BoardPage | Error
    """

    return (
        await asyncio_detailed(
            ruleset=ruleset,
            client=client,
            page=page,
        )
    ).parsed
