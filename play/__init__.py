"""The web table: lobby, accounts and the table pages (docs/table.md)."""
