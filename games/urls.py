"""API routes (being written)."""

urlpatterns: list = []
