"""A password hasher for the test process: Django's own PBKDF2-SHA256 at one iteration.

Each user a test creates and each log-in it makes otherwise costs 1,500,000 iterations (about half a
second of a CPU), which summed to minutes of every lane. The hashes it writes are ordinary
`pbkdf2_sha256$1$…` hashes, so a server process a test starts (default hashers) still checks them."""

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class OneIterationPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    iterations = 1
