"""Glue: the API's error handling, as Django and DRF settings name it.

``REST_FRAMEWORK["EXCEPTION_HANDLER"]`` and the URLconf's ``handler400`` /
``handler500`` point here; the code is ``games.api.exceptions`` (the pages use
it too, and nothing imports pablo but Django).
"""

from games.api.exceptions import (
    STATUSES,
    bad_request_view,
    error_body,
    exception_handler,
    not_found_view,
    server_error_view,
    status_of,
)

__all__ = [
    "STATUSES",
    "bad_request_view",
    "error_body",
    "exception_handler",
    "not_found_view",
    "server_error_view",
    "status_of",
]
