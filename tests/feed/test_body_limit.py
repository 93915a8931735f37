"""The ASGI process keeps a request's body only up to ``DATA_UPLOAD_MAX_MEMORY_SIZE``.

Django's ASGI handler reads a whole body, of any size, into memory and then a file
before the view runs, even a view that never reads it: an attacker's bare uvicorn
took 30 MB for ``POST /api/me/bot/``. The rest is now read and dropped, and a view
that reads the body gets the API's 400 ``body_too_large``, chunked bodies included
(they announce no length for Django to refuse)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator
from django.db import connections

from games.feed.asgi import Application

pytestmark = pytest.mark.django_db(transaction=True)


def chunks(*parts: bytes) -> list[dict]:
    return [
        {"type": "http.request", "body": part, "more_body": n < len(parts) - 1}
        for n, part in enumerate(parts)
    ]


def test_read_body_keeps_no_more_than_the_limit(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    messages = iter(chunks(*[b"x" * 700] * 20))

    async def receive():
        return next(messages)

    body = async_to_sync(Application(threads=1).read_body)(receive)
    body.seek(0, 2)
    assert body.tell() <= 1000 and body.too_large == 14000


def post(
    path: str, *parts: bytes, json_answer: bool = True, content_type: bytes = b"", cookie=b""
) -> Any:
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
        "scheme": "http", "path": path, "raw_path": path.encode(), "root_path": "",
        "query_string": b"", "headers": [(b"host", b"testserver"),
                                         (b"content-type", content_type or b"application/json")]
                   + ([(b"cookie", cookie)] if cookie else []),
        "client": ("127.0.0.1", 5000), "server": ("testserver", 80),
    }  # fmt: skip

    app = Application(threads=1)

    async def run():
        talk = ApplicationCommunicator(app, scope)
        for message in chunks(*parts):
            await talk.send_input(message)
        start = await talk.receive_output(10)
        body = b""
        while True:
            out = await talk.receive_output(10)
            body += out.get("body", b"")
            if not out.get("more_body"):
                break
        return start["status"], json.loads(body) if json_answer else body

    try:
        return async_to_sync(run)()
    finally:  # the view's queries ran on the executor's thread: its connection goes
        for executor in app.executors:
            executor.submit(connections.close_all).result()


def test_a_chunked_body_past_the_limit_is_refused_as_too_large(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    status, answer = post(
        "/api/auth/token/", b'{"username": "' + b"a" * 900, b"a" * 900 + b'", "password": "p"}'
    )
    assert status == 400 and answer["code"] == "body_too_large", answer
    # under the limit, the same request is read as ever: bad credentials
    status, answer = post("/api/auth/token/", b'{"username": "ann",', b' "password": "p"}')
    assert status == 400 and answer["code"] != "body_too_large", answer


def test_a_chunked_body_under_the_limit_is_read_whole(settings):
    # A chunked body announces no length: DRF read it as empty ("username: This field
    # is required"), however well-formed. Its length is the one received.
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    status, answer = post("/api/auth/token/", b'{"username": "ann",', b' "password": "p"}')
    assert status == 400 and answer["code"] == "invalid_credentials", answer
    pad = b"a" * (1000 - 45)
    exact = b'{"username": "ann", "password": "p", "x": "' + pad + b'"}'
    assert len(exact) == 1000
    status, answer = post("/api/auth/token/", exact[:500], exact[500:])
    assert status == 400 and answer["code"] == "invalid_credentials", answer


@pytest.mark.parametrize("split", [False, True])
def test_a_form_past_the_limit_is_400_not_a_csrf_refusal(settings, split):
    # Django's multipart parser read the dropped (empty) body: no CSRF token in it (the
    # cookie is there), so the page answered 403 "refused" to a form merely too large.
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    form = (
        b'--B\r\nContent-Disposition: form-data; name="username"\r\n\r\n'
        + b"a" * 2000
        + b"\r\n--B--\r\n"
    )
    parts = (form[:1000], form[1000:]) if split else (form,)
    status, _page = post(
        "/accounts/signup/",
        *parts,
        json_answer=False,
        content_type=b"multipart/form-data; boundary=B",
        cookie=b"csrftoken=" + b"k" * 32,
    )
    assert status == 400
