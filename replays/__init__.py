"""The replay viewer: server-rendered pages over finished games.

Imports games, never the reverse.
"""
