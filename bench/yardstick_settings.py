"""Settings of the yardstick server (bench/bench_append.py): the project's own, with a URL
configuration holding the minimal append endpoint beside the real API."""

from pablo.settings import *  # noqa: F403

ROOT_URLCONF = "yardstick_urls"
