from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.history import History
from ...models.me_history_ruleset import MeHistoryRuleset
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    page: int | Unset = UNSET,
    ruleset: MeHistoryRuleset | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["page"] = page

    json_ruleset: str | Unset = UNSET
    if not isinstance(ruleset, Unset):
        json_ruleset = ruleset.value

    params["ruleset"] = json_ruleset

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/me/history/",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | History | None:
    if response.status_code == 200:
        response_200 = History.from_dict(response.json())

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
) -> Response[Error | History]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    page: int | Unset = UNSET,
    ruleset: MeHistoryRuleset | Unset = UNSET,
) -> Response[Error | History]:
    """Your finished games: result, rank and score, the latest first; a summary per ruleset.

     20 a page; `ruleset` keeps one ruleset. 404 `not_found` for a page beyond the last.

    Args:
        page (int | Unset):
        ruleset (MeHistoryRuleset | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | History]
    """

    kwargs = _get_kwargs(
        page=page,
        ruleset=ruleset,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    page: int | Unset = UNSET,
    ruleset: MeHistoryRuleset | Unset = UNSET,
) -> Error | History | None:
    """Your finished games: result, rank and score, the latest first; a summary per ruleset.

     20 a page; `ruleset` keeps one ruleset. 404 `not_found` for a page beyond the last.

    Args:
        page (int | Unset):
        ruleset (MeHistoryRuleset | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | History
    """

    return sync_detailed(
        client=client,
        page=page,
        ruleset=ruleset,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    page: int | Unset = UNSET,
    ruleset: MeHistoryRuleset | Unset = UNSET,
) -> Response[Error | History]:
    """Your finished games: result, rank and score, the latest first; a summary per ruleset.

     20 a page; `ruleset` keeps one ruleset. 404 `not_found` for a page beyond the last.

    Args:
        page (int | Unset):
        ruleset (MeHistoryRuleset | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | History]
    """

    kwargs = _get_kwargs(
        page=page,
        ruleset=ruleset,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    page: int | Unset = UNSET,
    ruleset: MeHistoryRuleset | Unset = UNSET,
) -> Error | History | None:
    """Your finished games: result, rank and score, the latest first; a summary per ruleset.

     20 a page; `ruleset` keeps one ruleset. 404 `not_found` for a page beyond the last.

    Args:
        page (int | Unset):
        ruleset (MeHistoryRuleset | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | History
    """

    return (
        await asyncio_detailed(
            client=client,
            page=page,
            ruleset=ruleset,
        )
    ).parsed
