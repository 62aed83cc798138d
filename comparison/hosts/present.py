"""A HostView made ready to show and to store: long strings (base64) shortened, and a JSON form
that probe results keep in the database and read back. Pure."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from comparison.hosts import checked_against
from comparison.hosts.view import ABSENT, DELIVERED, HostView
from language.vocabulary import SUBJECT_HOST

MAX_STRING = 160

#: Host paths whose value is a command (a prompt turned into one), not a script's value.
COMMAND_PATHS = frozenset({"slash-command", "prompt"})


def shorten(value: Any, limit: int = MAX_STRING) -> Any:
    """The value with every long string cut, saying how long it was (10 MB of base64 stays small)."""
    if isinstance(value, str):
        if len(value) <= limit:
            return value
        return f"{value[:limit]}… [{len(value):,} characters]"
    if isinstance(value, list):
        return [shorten(item, limit) for item in value]
    if isinstance(value, dict):
        return {key: shorten(item, limit) for key, item in value.items()}
    return value


@dataclass(frozen=True)
class ShownFile:
    mime: str
    bytes: int
    filename: str | None = None


@dataclass(frozen=True)
class ShownPart:
    """A text part, or a file part (`file` set, `text` None)."""

    text: str | None = None
    file: ShownFile | None = None


@dataclass(frozen=True)
class ShownChange:
    subject: str
    action: str
    reason: str
    source: str
    rows: tuple[str, ...] = ()


@dataclass(frozen=True)
class PresentedView:
    """What one host path makes of a result, as pages, exports and the DPCTER scorer see it."""

    key: str
    host: str
    path: str
    label: str
    outcome: str
    error: str | None = None
    parts: tuple[ShownPart, ...] = ()
    attachments: tuple[ShownFile, ...] = ()
    changes: tuple[ShownChange, ...] = ()
    notes: tuple[str, ...] = ()
    checked_against: str = ""
    script_value: Any = ABSENT
    output: Any = ABSENT
    host_text: str | None = None
    host_is_error: bool | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    # Labels the template shows: the proxy hands its result on to a host, a host to its model.
    @property
    def receiver_label(self) -> str:
        return "Host receives" if self.host == SUBJECT_HOST else "Model receives"

    @property
    def value_label(self) -> str:
        if self.host == SUBJECT_HOST:
            return "Result sent"
        return "Command" if self.path in COMMAND_PATHS else "Script gets"

    @property
    def error_label(self) -> str:
        return "Error result" if self.path == "direct" else "Throws"

    @property
    def has_script_value(self) -> bool:
        return self.script_value is not ABSENT

    @property
    def has_output(self) -> bool:
        return self.output is not ABSENT

    @property
    def delivered(self) -> bool:
        return self.outcome == DELIVERED

    @property
    def attachments_apart(self) -> bool:
        """Files a code path attaches beside its value (a direct path shows them among the parts)."""
        return bool(self.attachments) and self.path != "direct"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "key": self.key,
            "host": self.host,
            "path": self.path,
            "label": self.label,
            "outcome": self.outcome,
            "error": self.error,
            "parts": [
                {"text": part.text} if part.file is None else {"file": _file_json(part.file)} for part in self.parts
            ],
            "attachments": [_file_json(m) for m in self.attachments],
            "changes": [
                {"subject": c.subject, "action": c.action, "reason": c.reason, "source": c.source, "rows": list(c.rows)}
                for c in self.changes
            ],
            "notes": list(self.notes),
            "checked_against": self.checked_against,
            **self.extra,
        }
        if self.has_script_value:
            data["script_value"] = self.script_value
        if self.has_output:
            data["output"] = self.output
        if self.host_text is not None:
            data["host_text"] = self.host_text
            data["host_is_error"] = self.host_is_error
        return data

    @classmethod
    def from_json(cls, data: Any) -> PresentedView:
        """Read a stored view back. Stored data may be old or damaged: a field of the wrong kind
        reads as empty rather than failing the page."""
        data = data if isinstance(data, dict) else {}
        known = {
            "key", "host", "path", "label", "outcome", "error", "parts", "attachments", "changes", "notes",
            "checked_against", "script_value", "output", "host_text", "host_is_error",
        }  # fmt: skip
        host_text = data.get("host_text")
        return cls(
            key=_text(data.get("key")),
            host=_text(data.get("host")),
            path=_text(data.get("path")),
            label=_text(data.get("label")) or _text(data.get("key")),
            outcome=_text(data.get("outcome")),
            error=data["error"] if isinstance(data.get("error"), str) else None,
            parts=tuple(_part(item) for item in _items(data.get("parts"))),
            attachments=tuple(_file(item) for item in _items(data.get("attachments"))),
            changes=tuple(_change(item) for item in _items(data.get("changes"))),
            notes=tuple(note for note in _items(data.get("notes")) if isinstance(note, str)),
            checked_against=_text(data.get("checked_against")),
            script_value=data.get("script_value", ABSENT),
            output=data.get("output", ABSENT),
            host_text=host_text if isinstance(host_text, str) else None,
            host_is_error=data.get("host_is_error") if isinstance(data.get("host_is_error"), bool) else None,
            extra={key: value for key, value in data.items() if key not in known},
        )


def present(view: HostView, *, limit: int | None = MAX_STRING) -> PresentedView:
    cut = (lambda v: shorten(v, limit)) if limit else (lambda v: v)
    return PresentedView(
        key=view.key,
        host=view.host,
        path=view.path,
        label=view.label,
        outcome=view.outcome,
        error=cut(view.error),
        parts=tuple(
            ShownPart(text=cut(part.text))
            if part.media is None
            else ShownPart(file=ShownFile(part.media.mime, part.media.bytes, part.media.filename))
            for part in view.parts
        ),
        attachments=tuple(ShownFile(m.mime, m.bytes, m.filename) for m in view.attachments),
        changes=tuple(
            ShownChange(c.subject, c.action, c.reason, c.rule.source, tuple(c.rule.rows)) for c in view.changes
        ),
        notes=tuple(view.notes),
        checked_against=checked_against(view.key),
        script_value=cut(view.script_value) if view.script_value is not ABSENT else ABSENT,
        output=cut(view.output) if view.output is not ABSENT else ABSENT,
        host_text=cut(view.host_text) if view.host_text is not None else None,
        host_is_error=view.host_is_error if view.host_text is not None else None,
    )


def view_data(view: HostView, *, limit: int | None = MAX_STRING) -> dict[str, Any]:
    """The JSON form of a host view, as probe results store it."""
    return present(view, limit=limit).to_json()


def _file_json(media: ShownFile) -> dict[str, Any]:
    return {"mime": media.mime, "bytes": media.bytes, "filename": media.filename}


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _items(value: Any) -> list:
    return value if isinstance(value, list) else []


def _file(value: Any) -> ShownFile:
    value = value if isinstance(value, dict) else {}
    size = value.get("bytes")
    filename = value.get("filename")
    return ShownFile(
        _text(value.get("mime")),
        size if isinstance(size, int) and not isinstance(size, bool) else 0,
        filename if isinstance(filename, str) else None,
    )


def _part(value: Any) -> ShownPart:
    value = value if isinstance(value, dict) else {}
    if isinstance(value.get("file"), dict):
        return ShownPart(file=_file(value["file"]))
    return ShownPart(text=value["text"] if isinstance(value.get("text"), str) else None)


def _change(value: Any) -> ShownChange:
    value = value if isinstance(value, dict) else {}
    rows = tuple(row for row in _items(value.get("rows")) if isinstance(row, str))
    return ShownChange(
        _text(value.get("subject")),
        _text(value.get("action")),
        _text(value.get("reason")),
        _text(value.get("source")),
        rows,
    )
