"""``manage.py simulate`` and ``--store``."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from games.management.commands.simulate import wilson
from games.models import Event, Game


def test_wilson_interval():
    low, high = wilson(80, 100)
    assert 0.70 < low < 0.72 and 0.86 < high < 0.88
    assert wilson(0, 0) == (0.0, 1.0)


def run(*args):
    import io

    out, err = io.StringIO(), io.StringIO()
    call_command("simulate", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_simulate_prints_win_rates_and_is_reproducible():
    args = ["--ruleset", "cabo", "--players", "4", "--games", "40"]
    args += ["--bots", "basic,random,random,random", "--seed", "5"]
    out, err = run(*args)
    assert "40/40" in err  # the progress bar
    lines = out.splitlines()
    assert lines[0].startswith("cabo, 4 players, 40 games (seed 5)")
    assert sum("win rate" in line and "95 %" in line for line in lines) == 4
    assert "rounds per game" in out and "events per game" in out
    assert "average total" in out
    again, _ = run(*args)
    strip = lambda text: [x for x in text.splitlines() if "CPU" not in x]  # noqa: E731
    assert strip(again) == strip(out)


def test_simulate_refuses_bad_arguments():
    with pytest.raises(CommandError, match="--bots"):
        run("--players", "3", "--bots", "basic,random")
    with pytest.raises(CommandError, match="genius"):
        run("--players", "2", "--bots", "basic,genius")


@pytest.mark.django_db
def test_simulate_store_writes_finished_games():
    out, _ = run(
        "--ruleset", "skipbo", "--players", "3", "--games", "2", "--bots",
        "basic,basic,random", "--options", "stock_size=5", "--seed", "2", "--store", "1",
    )  # fmt: skip
    game = Game.objects.get()
    assert game.status == Game.Status.FINISHED and f"stored skipbo {game.id}" in out
    assert Event.objects.filter(game=game).count() == game.version
    joined = Event.objects.filter(game=game, type="player_joined").order_by("seq")
    assert [e.data.get("bot") for e in joined] == [None, "basic", "random"]
