"""The global log: every event's ``position``, and the followers' stored positions.

Existing events are numbered 1, 2, ... in the order they were stored (``id``).
From then on PostgreSQL gives each new row ``nextval`` of the log's sequence
(the column's default) and SQLite numbers it in a trigger (max + 1: one writer
at a time). The append-only rule of migration 0002 stays: the one update
allowed is SQLite's trigger giving a new row its position, once. The first
followers start at the head of the log.
"""

from django.db import migrations, models

import games.models

SEQUENCE = games.models.POSITION_SEQUENCE

NUMBER = """
UPDATE games_event SET position = numbered.n
FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM games_event) AS numbered
WHERE games_event.id = numbered.id
"""

POSTGRES = [
    "ALTER TABLE games_event DISABLE TRIGGER games_event_no_update_delete",
    NUMBER,
    "ALTER TABLE games_event ENABLE TRIGGER games_event_no_update_delete",
    f"CREATE SEQUENCE {SEQUENCE} OWNED BY games_event.position",
    f"SELECT setval('{SEQUENCE}', COALESCE(MAX(position), 0) + 1, false) FROM games_event",
]
POSTGRES_DROP = [f"DROP SEQUENCE IF EXISTS {SEQUENCE}"]

# Rebuilding the table to add the column (SQLite's ALTER) dropped 0002's triggers.
SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS games_event_no_update",
    "DROP TRIGGER IF EXISTS games_event_no_delete",
    "DROP TRIGGER IF EXISTS games_event_position",
]
SQLITE_TRIGGERS = [
    *SQLITE_DROP,
    """
    CREATE TRIGGER games_event_no_update BEFORE UPDATE ON games_event
    WHEN NOT (OLD.position IS NULL AND NEW.position IS NOT NULL
              AND NEW.id = OLD.id AND NEW.game_id = OLD.game_id AND NEW.seq = OLD.seq
              AND NEW.type = OLD.type AND NEW.seat IS OLD.seat AND NEW.data = OLD.data
              AND NEW.created_at = OLD.created_at)
    BEGIN SELECT RAISE(ABORT, 'games_event is append-only: UPDATE refused'); END
    """,
    """
    CREATE TRIGGER games_event_no_delete BEFORE DELETE ON games_event
    BEGIN SELECT RAISE(ABORT, 'games_event is append-only: DELETE refused'); END
    """,
    """
    CREATE TRIGGER games_event_position AFTER INSERT ON games_event
    WHEN NEW.position IS NULL
    BEGIN
        UPDATE games_event SET position = (SELECT COALESCE(MAX(position), 0) + 1
                                           FROM games_event)
        WHERE id = NEW.id;
    END
    """,
]
SQLITE = [*SQLITE_DROP, NUMBER, *SQLITE_TRIGGERS]


#: The followers that replaced the receivers of ``events_appended``: they start at
#: the head, so that a service with a history does not notify or move it again.
FIRST_FOLLOWERS = ("bots", "deadlines", "notifications", "replays")


def start_at_head(apps, schema_editor):
    positions = apps.get_model("games", "FollowerPosition")
    events = apps.get_model("games", "Event")
    top = events.objects.aggregate(top=models.Max("position"))["top"] or 0
    for name in FIRST_FOLLOWERS:
        positions.objects.get_or_create(name=name, defaults={"position": top})


def _run(statements_by_vendor):
    def run(apps, schema_editor):
        for sql in statements_by_vendor.get(schema_editor.connection.vendor, []):
            schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_account_names"),
    ]

    operations = [
        migrations.CreateModel(
            name="FollowerPosition",
            fields=[
                ("name", models.CharField(max_length=60, primary_key=True, serialize=False)),
                ("position", models.BigIntegerField(default=0)),
                ("updated_at", models.DateTimeField(auto_now=True)),
            ],
        ),
        # Added empty, numbered, then given its default (the sequence exists by then).
        migrations.AddField(
            model_name="event",
            name="position",
            field=models.BigIntegerField(editable=False, null=True, unique=True),
        ),
        migrations.RunPython(
            _run({"postgresql": POSTGRES, "sqlite": SQLITE}),
            _run({"postgresql": POSTGRES_DROP}),
        ),
        migrations.AlterField(
            model_name="event",
            name="position",
            field=models.BigIntegerField(
                db_default=games.models.NextPosition(), editable=False, null=True, unique=True
            ),
        ),
        # The AlterField rebuilt SQLite's table again: its triggers once more.
        migrations.RunPython(_run({"sqlite": SQLITE_TRIGGERS}), migrations.RunPython.noop),
        migrations.RunPython(start_at_head, migrations.RunPython.noop),
    ]
