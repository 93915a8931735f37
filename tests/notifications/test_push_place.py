"""The game-over push's place: the recorded places of ``game_finished`` (ties shared),
the older winners-only rule for a result recorded before places were."""

from games.notifications.push import place


def test_the_recorded_places_are_used_ties_shared():
    result = {"winners": [1], "losers": [3], "places": [2, 1, 2, 4]}
    assert [place(result, s) for s in range(4)] == [2, 1, 2, 4]


def test_a_result_without_places_gives_winners_first_and_the_rest_one_past_them():
    result = {"winners": [0, 2], "losers": []}
    assert [place(result, s) for s in range(3)] == [1, 3, 1]
    assert place({"winners": [], "losers": []}, 0) is None
    assert place(None, 0) is None
