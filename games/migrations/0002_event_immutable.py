"""Make the event table append-only in the database itself.

UPDATE and DELETE of ``games_event`` rows raise an error, on PostgreSQL and on
SQLite, whatever the client. (Row-level only: PostgreSQL's TRUNCATE, which the
test runner uses to empty tables, is a different statement.)
"""

from django.db import migrations

POSTGRES = [
    """
    CREATE OR REPLACE FUNCTION games_event_immutable() RETURNS trigger AS $$
    BEGIN
        RAISE EXCEPTION 'games_event is append-only: % refused', TG_OP
            USING ERRCODE = 'restrict_violation';
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE TRIGGER games_event_no_update_delete
        BEFORE UPDATE OR DELETE ON games_event
        FOR EACH ROW EXECUTE FUNCTION games_event_immutable();
    """,
]
POSTGRES_DROP = [
    "DROP TRIGGER IF EXISTS games_event_no_update_delete ON games_event;",
    "DROP FUNCTION IF EXISTS games_event_immutable();",
]
SQLITE = [
    """
    CREATE TRIGGER games_event_no_update BEFORE UPDATE ON games_event
    BEGIN SELECT RAISE(ABORT, 'games_event is append-only: UPDATE refused'); END;
    """,
    """
    CREATE TRIGGER games_event_no_delete BEFORE DELETE ON games_event
    BEGIN SELECT RAISE(ABORT, 'games_event is append-only: DELETE refused'); END;
    """,
]
SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS games_event_no_update;",
    "DROP TRIGGER IF EXISTS games_event_no_delete;",
]


def _run(statements_by_vendor):
    def run(apps, schema_editor):
        for sql in statements_by_vendor.get(schema_editor.connection.vendor, []):
            schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [
        migrations.RunPython(
            _run({"postgresql": POSTGRES, "sqlite": SQLITE}),
            _run({"postgresql": POSTGRES_DROP, "sqlite": SQLITE_DROP}),
        ),
    ]
