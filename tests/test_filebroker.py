"""The embedded broker (pablo/filebroker.py) as kombu's connection pool uses it."""

from __future__ import annotations

import logging

from kombu import Connection


def test_a_connection_to_the_folder_broker_warns_of_no_missing_host(tmp_path, caplog):
    # make run printed "No hostname was supplied. Reverting to default 'localhost'"
    # to every new user when its first message was sent (the pool copies _info()).
    folder = str(tmp_path)
    options = {"data_folder_in": folder, "data_folder_out": folder}
    conn = Connection("filesystem://", transport="pablo.filebroker:Transport",
                      transport_options=options)  # fmt: skip
    pool = conn.Pool(1)
    with caplog.at_level(logging.WARNING, logger="kombu.connection"), pool.acquire() as pooled:
        assert pooled.default_channel is not None  # opens the channel
    assert not [r for r in caplog.records if "hostname" in r.getMessage()]
