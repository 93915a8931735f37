"""What moves a game along besides its players: deadlines, bot turns, their receivers
and Celery tasks (``deadlines``, ``bots``, ``receivers``, ``tasks``)."""
