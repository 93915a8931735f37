"""What moves a game along besides its players: deadlines, bot turns, their followers
of the log and Celery tasks (``deadlines``, ``bots``, ``followers``, ``tasks``)."""
