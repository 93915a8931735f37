"""The REST API: thin DRF views (``views``), input checks (``serializers``), the answers'
schema (``schema``), token auth (``auth``) and routes (``urls``)."""
