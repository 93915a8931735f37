"""Waiting for a game's next event without a thread, a connection or a query (issue 17).

* ``publish``  -- after every committed append (``events_appended``): PUBLISH the
  game's new version on its Redis channel, wake this process's hub.
* ``hub``      -- per ASGI process: waiters parked on futures, one Redis
  subscription multiplexed over the games waited on, a shared re-check when
  Redis is away or not configured (the embedded default).
* ``resp``     -- the few Redis pub/sub commands the hub speaks.
* ``waiting``  -- the feed request's answer on both paths (gunicorn's thread,
  ASGI's hub), with the per-user cap of ``limits``.
* ``asgi``     -- the ASGI application: Django's handler on shared executor
  threads, parking pending feed answers on the hub.
* ``fast``     -- "nothing new" for a known token, answered before Django from
  the hub's authoritative version (the capacity of issue 17).
* ``service``  -- the hub of the running loop and the re-check's query.

docs/design.md "Live updates" says why and how; docs/operations.md how to run it.
"""
