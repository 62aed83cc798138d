"""CPU per listing request for a logged-in user: from the copy every logged-in user shares (their
own navigation put back), against rendering the page for them (what a user with a pending message
still gets). In-process, on the database DATABASE_URL names, with whatever registers it holds.

    .venv/bin/python bench/bench_logged_in.py [--rounds 50]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mcp_compare.settings")

URLS = ["/matrix/?risk=high", "/?revision=2025-06-18", "/?host=opencode-v1&host_mode=lacks", "/"]


def main() -> None:
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.test import Client

    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()
    user, _ = User.objects.get_or_create(username="bench-logged-in")
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(user)
    for label, cookie in (("the shared copy", None), ("rendered for the user", "messages")):
        for url in URLS:
            client.get(url)
        if cookie:
            client.cookies[cookie] = "x"  # a pending message: the page is this user's alone
        started = time.process_time()
        for _ in range(args.rounds):
            for url in URLS:
                client.get(url)
        per_request = (time.process_time() - started) / (args.rounds * len(URLS)) * 1000
        print(f"{label:24} {per_request:6.2f} ms of CPU a request ({args.rounds * len(URLS)} requests)")
        client.cookies.pop(cookie or "", None)


if __name__ == "__main__":
    main()
