"""A download written whole before its first byte is sent, then served with its length.

Streamed straight to the client, an export that failed or outlasted the worker's timeout ended as
a 200 with a cut body: a user kept a broken file without knowing. Spooled first (in memory while
small, then on disk, so memory stays flat), it either arrives whole with a Content-Length any
client checks, or not at all: a 503 that says why. The writing is bounded in time by
MCP_COMPARE_EXPORT_SECONDS, well inside the worker's timeout.
"""

from __future__ import annotations

import logging
import tempfile
import time
from collections.abc import Iterable

from django.conf import settings
from django.http import FileResponse, HttpResponse

logger = logging.getLogger(__name__)

#: Kept in memory up to this size, then on disk.
IN_MEMORY = 4 * 1024 * 1024


class TooSlow(Exception):
    """The export was still being written when its time ran out."""


def spool(chunks: Iterable[str], *, seconds: float | None = None):
    """(a file holding every chunk encoded, rewound; its size); TooSlow past `seconds` (0: no limit)."""
    limit = settings.EXPORT_SECONDS if seconds is None else seconds
    deadline = time.monotonic() + limit if limit else None
    spooled = tempfile.SpooledTemporaryFile(max_size=IN_MEMORY)
    size = 0
    try:
        for chunk in chunks:
            size += spooled.write(chunk.encode("utf-8") if isinstance(chunk, str) else chunk)
            if deadline is not None and time.monotonic() > deadline:
                raise TooSlow(f"the export took longer than {limit:.0f} s to write")
    except BaseException:
        spooled.close()
        raise
    spooled.seek(0)
    return spooled, size


def download(chunks: Iterable[str], *, content_type: str, filename: str) -> HttpResponse:
    """The whole file with its length, or a 503 saying the export was too large to write in time."""
    try:
        spooled, size = spool(chunks)
    except TooSlow as error:
        logger.warning("export %s refused: %s", filename, error)
        message = (
            f"This export was not sent: {error}. Narrow it with the row list's filters, "
            "or write it on the server with `manage.py export_report`."
        )
        return HttpResponse(
            message, status=503, content_type="text/plain; charset=utf-8", headers={"Retry-After": "60"}
        )
    response = FileResponse(spooled, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Content-Length"] = str(size)
    return response
