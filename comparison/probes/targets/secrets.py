"""Credentials of a probe target, kept out of everything shown: pure helpers, no Django.

Every configured header value is a secret whatever the header is called (masking by name missed
`Api-Key`, `X-Auth`, `Ocp-Apim-Subscription-Key` and the like). URLs lose the password of their
userinfo and the values of credential-looking query parameters when shown; command lines lose
the values of credential-looking options. A `Redactor` then removes any of those values from free
text and captured data, wherever a hostile target echoes them.
"""

from __future__ import annotations

import logging
import re
import shlex
from collections.abc import Iterable
from typing import Any
from urllib.parse import parse_qsl, quote, quote_plus, urlsplit, urlunsplit

MASK = "•••"
CONFIGURED = f"{MASK} (configured)"
MASKED = f"{MASK} (masked)"
#: Values shorter than this are not hunted down in free text (they would mask ordinary words).
MIN_SECRET_LENGTH = 4

#: Names that carry credentials by convention: headers, query parameters, option names.
CREDENTIAL_NAME = re.compile(
    r"(auth|token|secret|passw|pwd|api[-_]?key|apikey|access[-_]?key|private[-_]?key|cookie|"
    r"signature|sig$|^key$|[-_]key$|credential|bearer|jwt|subscription)",
    re.IGNORECASE,
)
#: Response and request headers that carry credentials whoever set them.
SECRET_HEADER_NAMES = frozenset({"authorization", "proxy-authorization", "cookie", "set-cookie"})
#: Names the pattern would catch that carry no secret and help read a failure.
NOT_SECRET = frozenset({"www-authenticate", "proxy-authenticate"})


def looks_like_credential(name: str) -> bool:
    name = name.strip()
    return name.lower() not in NOT_SECRET and bool(CREDENTIAL_NAME.search(name))


def url_userinfo(url: str) -> str:
    """The userinfo part of a URL ("user:pass"), or ""."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return ""
    if "@" not in parts.netloc:
        return ""
    return parts.netloc.rsplit("@", 1)[0]


def url_secrets(url: str) -> list[str]:
    """The secret values a URL carries: its userinfo password (and user) and credential query values."""
    found: list[str] = []
    info = url_userinfo(url)
    if info:
        user, _, password = info.partition(":")
        found.extend(value for value in (password, user) if value)
    try:
        query = urlsplit(url).query
    except ValueError:
        return found
    found.extend(value for name, value in parse_qsl(query, keep_blank_values=False) if looks_like_credential(name))
    return found


def origin(url: str) -> tuple[str, str, int | None]:
    """(scheme, host, port) with the scheme's default port filled in; ("", "", None) when not a URL."""
    try:
        parts = urlsplit(url or "")
        port = parts.port or {"http": 80, "https": 443}.get(parts.scheme.lower())
    except ValueError:
        return ("", url or "", None)
    return (parts.scheme.lower(), (parts.hostname or "").lower(), port)


def same_origin(url: str, other: str) -> bool:
    return origin(url) == origin(other) and origin(url)[0] in ("http", "https")


def display_url(url: str) -> str:
    """The URL as it may be shown: userinfo reduced to the user name, credential query values masked."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return MASKED
    netloc = parts.netloc
    if "@" in netloc:
        info, host = netloc.rsplit("@", 1)
        user = info.partition(":")[0]
        netloc = f"{user}:{MASK}@{host}" if ":" in info else f"{MASK}@{host}"
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        query = "&".join(
            f"{quote_plus(name)}={MASK if looks_like_credential(name) else quote_plus(value)}" for name, value in pairs
        )
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


#: Options that take a header ("Name: value", or a name and a value): every header value is a secret.
HEADER_OPTIONS = frozenset({"h", "header", "headers", "add-header", "http-header"})
#: Options that take an environment entry ("NAME=value", or a name and a value).
ENV_OPTIONS = frozenset({"e", "env", "set-env"})
#: Authorization-style values wherever they stand: the word before the token names a scheme.
SCHEME_TOKEN = re.compile(r"\b(?:bearer|basic|token|digest|apikey|api-key)\s+([^\s'\"]+)", re.IGNORECASE)
HEADER_LINE = re.compile(r"^\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+\s*:\s*(.+?)\s*$")
#: `${NAME}` in an argument: the value of NAME in the target's environment, put in when it starts.
PLACEHOLDER = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
ANY_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s'\"<>]+")


def _option_name(arg: str) -> str:
    return arg.lstrip("-").lower() if arg.startswith("-") else ""


def _pair_value(args: list[str], index: int, separator: str, *, two_words: bool) -> str:
    """The value an option at `index` takes: "NAME<sep>value" in the next argument (or after the
    option's own "="), or, for options that take two words (`--headers NAME VALUE`, `-e NAME VALUE`),
    the argument after the name."""
    _, equals, own = args[index].partition("=")
    text = own if equals else (args[index + 1] if index + 1 < len(args) else "")
    if separator == ":" and (line := HEADER_LINE.match(text)):
        return line.group(1)
    if separator == "=" and "=" in text:
        return text.partition("=")[2]
    if two_words and not equals and text and index + 2 < len(args):
        return args[index + 2]
    return ""


def command_secrets(command: Iterable[str], *, depth: int = 0) -> list[str]:
    """The secrets of an argument list, in the forms proxies take them: credential-looking options
    (`--token X`, `--api-key=X`, `TOKEN=X`), header options (`-H "X-Api-Key: X"`, `--headers
    Authorization "Bearer X"`), environment options (`-e NAME X`, `--env NAME=X`), URLs with userinfo
    or credential query values anywhere (`DATABASE_URL=postgres://u:X@h/db`), Authorization-style
    values anywhere (`Bearer X`), and the same inside a shell string (`sh -c 'srv --token X'`)."""
    found: list[str] = []
    args = [arg for arg in command if isinstance(arg, str)]
    for index, arg in enumerate(args):
        option = _option_name(arg)
        name, equals, value = arg.partition("=")
        bare = option.partition("=")[0]
        if bare in HEADER_OPTIONS:
            found.append(_pair_value(args, index, ":", two_words=bare == "headers"))
        elif bare in ENV_OPTIONS:
            found.append(_pair_value(args, index, "=", two_words=True))
        elif equals and looks_like_credential(name.lstrip("-")):
            found.append(value)
        elif not equals and option and looks_like_credential(option) and index + 1 < len(args):
            found.append(args[index + 1])
        for url in ANY_URL.findall(arg):
            found.extend(url_secrets(url))
        found.extend(SCHEME_TOKEN.findall(arg))
        line = HEADER_LINE.match(arg)
        if line and looks_like_credential(arg.partition(":")[0]):
            found.append(line.group(1))
        if depth < 2 and any(space in arg for space in " \t\n"):
            try:
                words = shlex.split(arg)
            except ValueError:
                words = arg.split()
            if len(words) > 1:
                found.extend(command_secrets(words, depth=depth + 1))
    # A value that is only a `${NAME}` placeholder holds no secret: it names one in the environment.
    return [value for value in dict.fromkeys(found) if value and not PLACEHOLDER.fullmatch(value)]


def display_command(command: Iterable[str]) -> list[str]:
    """The argument list as it may be shown: every secret of it masked, whole arguments and parts."""
    args = list(command)
    secrets = set(command_secrets(args))
    # A whole argument is masked whatever its length; parts of one only from MIN_SECRET_LENGTH on,
    # or a one-letter user name would mask that letter everywhere.
    inside = Redactor(secrets)
    shown = []
    for arg in args:
        name, equals, value = arg.partition("=")
        if arg in secrets:
            shown.append(MASK)
        elif equals and value in secrets:
            shown.append(f"{name}={MASK}")
        else:
            shown.append(inside.text(arg))
    return shown


def expand_placeholders(command: Iterable[str], env: dict[str, str]) -> list[str]:
    """The argument list to start, each `${NAME}` replaced by the target's environment value (other
    text untouched): a secret argument is configured in the masked environment field, and the
    command that is stored and shown keeps the placeholder."""
    return [PLACEHOLDER.sub(lambda m: env.get(m.group(1), m.group(0)), arg) for arg in command]


def mask_headers(headers: dict[str, str], configured: Iterable[str] = ()) -> dict[str, str]:
    """Headers as they may be shown: configured ones always masked, conventional ones by name."""
    configured_names = {name.lower() for name in configured}
    masked = {}
    for name, value in headers.items():
        lowered = name.lower()
        if lowered in configured_names:
            masked[name] = CONFIGURED
        elif lowered in SECRET_HEADER_NAMES or looks_like_credential(lowered):
            masked[name] = MASKED
        else:
            masked[name] = value
    return masked


def secret_forms(value: str) -> list[str]:
    """The forms a secret may come back in: as configured, the token after its scheme word
    (`Bearer X` comes back as `X`), and each of those percent-encoded."""
    forms = [value, *SCHEME_TOKEN.findall(value)]
    return list(dict.fromkeys([*forms, *(quote(form, safe="") for form in forms), *(quote_plus(f) for f in forms)]))


class Redactor:
    """Replaces every known secret value with the mask, in text and inside JSON-like data, in each
    form it may come back in (secret_forms)."""

    def __init__(self, secrets: Iterable[str] = ()):
        values = {
            form
            for value in secrets
            if isinstance(value, str)
            for form in secret_forms(value)
            if len(form) >= MIN_SECRET_LENGTH
        }
        # Longest first, so a secret that contains another is masked whole.
        self.values = sorted(values, key=len, reverse=True)
        self.pattern = re.compile("|".join(re.escape(value) for value in self.values)) if self.values else None

    def __bool__(self) -> bool:
        return self.pattern is not None

    def text(self, value: str) -> str:
        if self.pattern is None or not isinstance(value, str):
            return value
        return self.pattern.sub(MASK, value)

    def data(self, value: Any) -> Any:
        """A copy of JSON-like data with secrets masked in every string, keys included."""
        if self.pattern is None:
            return value
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.data(item) for item in value]
        if isinstance(value, dict):
            return {self.text(key) if isinstance(key, str) else key: self.data(item) for key, item in value.items()}
        return value


URL_IN_TEXT = re.compile(r"https?://[^\s'\"<>]+")


def redact_urls(text: str) -> str:
    """Every URL in a text as it may be shown (userinfo and credential query values masked)."""
    return URL_IN_TEXT.sub(lambda match: display_url(match.group(0)), text)


class RedactingFilter(logging.Filter):
    """Masks credentials in the URLs a log line carries (httpx logs every request's full URL)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "://" in message:
            record.msg, record.args = redact_urls(message), ()
        return True
