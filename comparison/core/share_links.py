"""A playground document carried in its own link: compressed (zlib) and base64url-encoded into one
query parameter, so a result and what every host makes of it can be sent to someone without
storing anything. Bounded both ways: a link is at most MAX_TOKEN characters, and decoding stops at
the byte limit it is given (a small token that inflates to gigabytes is refused, not expanded).
Pure, no Django."""

from __future__ import annotations

import base64
import binascii
import zlib

#: The longest link parameter made or read: links past ~16 KB are cut by some proxies and browsers.
MAX_TOKEN = 12_000


class ShareError(ValueError):
    """A link parameter that cannot be read back; the message says why."""


def encode(text: str) -> str | None:
    """The link parameter for `text`, or None when even compressed it would be too long."""
    packed = zlib.compress(text.encode("utf-8", "surrogatepass"), 9)
    token = base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")
    return token if len(token) <= MAX_TOKEN else None


def decode(token: str, max_bytes: int) -> str:
    if len(token) > MAX_TOKEN:
        raise ShareError(f"the shared link is {len(token):,} characters long; at most {MAX_TOKEN:,} are read")
    try:
        packed = base64.b64decode(token + "=" * (-len(token) % 4), altchars=b"-_", validate=True)
    except (binascii.Error, ValueError):
        raise ShareError("the shared link is damaged: its parameter d is not base64url") from None
    inflater = zlib.decompressobj()
    try:
        data = inflater.decompress(packed, max_bytes + 1)
    except zlib.error:
        raise ShareError("the shared link is damaged: its parameter d does not decompress") from None
    if len(data) > max_bytes or inflater.unconsumed_tail:
        raise ShareError(f"the shared document is over {max_bytes:,} bytes once unpacked")
    if not inflater.eof:
        raise ShareError("the shared link is cut short: its parameter d ends before the document does")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ShareError("the shared document is not UTF-8 text") from None
