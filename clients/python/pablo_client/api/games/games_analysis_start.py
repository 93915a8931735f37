from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.analysis import Analysis
from ...models.analysis_progress import AnalysisProgress
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    game_id: UUID,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/games/{game_id}/analysis/".format(
            game_id=quote(str(game_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Analysis | AnalysisProgress | Error | None:
    if response.status_code == 200:
        response_200 = Analysis.from_dict(response.json())

        return response_200

    if response.status_code == 202:
        response_202 = AnalysisProgress.from_dict(response.json())

        return response_202

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

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
) -> Response[Analysis | AnalysisProgress | Error]:
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
) -> Response[Analysis | AnalysisProgress | Error]:
    """Start analysing a finished or aborted game (202 while it runs, 200 when done).

     A finished game's analysis (docs/analysis.md): started by POST, read by GET.

    Args:
        game_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Analysis | AnalysisProgress | Error]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    game_id: UUID,
    *,
    client: AuthenticatedClient,
) -> Analysis | AnalysisProgress | Error | None:
    """Start analysing a finished or aborted game (202 while it runs, 200 when done).

     A finished game's analysis (docs/analysis.md): started by POST, read by GET.

    Args:
        game_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Analysis | AnalysisProgress | Error
    """

    return sync_detailed(
        game_id=game_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    game_id: UUID,
    *,
    client: AuthenticatedClient,
) -> Response[Analysis | AnalysisProgress | Error]:
    """Start analysing a finished or aborted game (202 while it runs, 200 when done).

     A finished game's analysis (docs/analysis.md): started by POST, read by GET.

    Args:
        game_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Analysis | AnalysisProgress | Error]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    game_id: UUID,
    *,
    client: AuthenticatedClient,
) -> Analysis | AnalysisProgress | Error | None:
    """Start analysing a finished or aborted game (202 while it runs, 200 when done).

     A finished game's analysis (docs/analysis.md): started by POST, read by GET.

    Args:
        game_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Analysis | AnalysisProgress | Error
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
        )
    ).parsed
