from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.action_answer import ActionAnswer
from ...models.call_action_request import CallActionRequest
from ...models.discard_action_request import DiscardActionRequest
from ...models.draw_action_request import DrawActionRequest
from ...models.end_action_request import EndActionRequest
from ...models.error import Error
from ...models.look_action_request import LookActionRequest
from ...models.peek_action_request import PeekActionRequest
from ...models.play_action_request import PlayActionRequest
from ...models.replace_action_request import ReplaceActionRequest
from ...models.skip_action_request import SkipActionRequest
from ...models.spy_action_request import SpyActionRequest
from ...models.swap_action_request import SwapActionRequest
from ...models.throw_action_request import ThrowActionRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    game_id: UUID,
    *,
    body: CallActionRequest
    | DiscardActionRequest
    | DrawActionRequest
    | EndActionRequest
    | LookActionRequest
    | PeekActionRequest
    | PlayActionRequest
    | ReplaceActionRequest
    | SkipActionRequest
    | SpyActionRequest
    | SwapActionRequest
    | ThrowActionRequest
    | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/games/{game_id}/actions/".format(
            game_id=quote(str(game_id), safe=""),
        ),
    }

    if (
        isinstance(body, LookActionRequest)
        or isinstance(body, DrawActionRequest)
        or isinstance(body, DiscardActionRequest)
        or isinstance(body, ReplaceActionRequest)
        or isinstance(body, PeekActionRequest)
        or isinstance(body, SpyActionRequest)
        or isinstance(body, SwapActionRequest)
        or isinstance(body, SkipActionRequest)
        or isinstance(body, ThrowActionRequest)
        or isinstance(body, CallActionRequest)
        or isinstance(body, PlayActionRequest)
    ):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ActionAnswer | Error | None:
    if response.status_code == 201:
        response_201 = ActionAnswer.from_dict(response.json())

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
) -> Response[ActionAnswer | Error]:
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
    body: CallActionRequest
    | DiscardActionRequest
    | DrawActionRequest
    | EndActionRequest
    | LookActionRequest
    | PeekActionRequest
    | PlayActionRequest
    | ReplaceActionRequest
    | SkipActionRequest
    | SpyActionRequest
    | SwapActionRequest
    | ThrowActionRequest
    | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[ActionAnswer | Error]:
    """Do one action.

     Bodies are JSON only (the project's default parser): anything else is a 400.
    Tokens are looked up through a short cache (``games.tokens``).

    Args:
        game_id (UUID):
        idempotency_key (str | Unset):
        body (CallActionRequest | DiscardActionRequest | DrawActionRequest | EndActionRequest |
            LookActionRequest | PeekActionRequest | PlayActionRequest | ReplaceActionRequest |
            SkipActionRequest | SpyActionRequest | SwapActionRequest | ThrowActionRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ActionAnswer | Error]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    game_id: UUID,
    *,
    client: AuthenticatedClient,
    body: CallActionRequest
    | DiscardActionRequest
    | DrawActionRequest
    | EndActionRequest
    | LookActionRequest
    | PeekActionRequest
    | PlayActionRequest
    | ReplaceActionRequest
    | SkipActionRequest
    | SpyActionRequest
    | SwapActionRequest
    | ThrowActionRequest
    | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> ActionAnswer | Error | None:
    """Do one action.

     Bodies are JSON only (the project's default parser): anything else is a 400.
    Tokens are looked up through a short cache (``games.tokens``).

    Args:
        game_id (UUID):
        idempotency_key (str | Unset):
        body (CallActionRequest | DiscardActionRequest | DrawActionRequest | EndActionRequest |
            LookActionRequest | PeekActionRequest | PlayActionRequest | ReplaceActionRequest |
            SkipActionRequest | SpyActionRequest | SwapActionRequest | ThrowActionRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ActionAnswer | Error
    """

    return sync_detailed(
        game_id=game_id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    game_id: UUID,
    *,
    client: AuthenticatedClient,
    body: CallActionRequest
    | DiscardActionRequest
    | DrawActionRequest
    | EndActionRequest
    | LookActionRequest
    | PeekActionRequest
    | PlayActionRequest
    | ReplaceActionRequest
    | SkipActionRequest
    | SpyActionRequest
    | SwapActionRequest
    | ThrowActionRequest
    | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[ActionAnswer | Error]:
    """Do one action.

     Bodies are JSON only (the project's default parser): anything else is a 400.
    Tokens are looked up through a short cache (``games.tokens``).

    Args:
        game_id (UUID):
        idempotency_key (str | Unset):
        body (CallActionRequest | DiscardActionRequest | DrawActionRequest | EndActionRequest |
            LookActionRequest | PeekActionRequest | PlayActionRequest | ReplaceActionRequest |
            SkipActionRequest | SpyActionRequest | SwapActionRequest | ThrowActionRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ActionAnswer | Error]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    game_id: UUID,
    *,
    client: AuthenticatedClient,
    body: CallActionRequest
    | DiscardActionRequest
    | DrawActionRequest
    | EndActionRequest
    | LookActionRequest
    | PeekActionRequest
    | PlayActionRequest
    | ReplaceActionRequest
    | SkipActionRequest
    | SpyActionRequest
    | SwapActionRequest
    | ThrowActionRequest
    | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> ActionAnswer | Error | None:
    """Do one action.

     Bodies are JSON only (the project's default parser): anything else is a 400.
    Tokens are looked up through a short cache (``games.tokens``).

    Args:
        game_id (UUID):
        idempotency_key (str | Unset):
        body (CallActionRequest | DiscardActionRequest | DrawActionRequest | EndActionRequest |
            LookActionRequest | PeekActionRequest | PlayActionRequest | ReplaceActionRequest |
            SkipActionRequest | SpyActionRequest | SwapActionRequest | ThrowActionRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ActionAnswer | Error
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
