"""The shape of a stored probe result, all the way down: what `manage.py probe --json` prints per
cell and what an upload must hold. One schema, three uses: the API publishes it (the upload's
request body in the OpenAPI document), the upload is validated against it, and a stored result of
another shape (from before uploads were checked) is repaired to it, each malformed part replaced by
a marker that says so. Pure: pydantic, no Django."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
)

from language.vocabulary import PROBE_VERDICTS, REVISIONS

MAX_RESULTS = 5000
Text = Annotated[StrictStr, Field(max_length=20_000)]
Short = Annotated[StrictStr, Field(max_length=200)]
Number = StrictInt | StrictFloat
#: A register row id as the row pages' URLs take it: no "/" (a link to it is built from it).
RowId = Annotated[StrictStr, Field(max_length=40, pattern=r"^[^/\s]*$")]
Revision = Literal[tuple(str(revision) for revision in REVISIONS)]  # type: ignore[valid-type]
Verdict = Literal[tuple(str(verdict) for verdict in PROBE_VERDICTS)]  # type: ignore[valid-type]


class Part(BaseModel):
    """Shapes that may carry keys of their own beyond these (later versions add some)."""

    model_config = ConfigDict(extra="allow")


class Exchange(Part):
    method: Short
    request: dict[str, Any] | list[Any] | None = None
    request_headers: dict[str, StrictStr] = Field(default_factory=dict)
    status: StrictInt | None = None
    response_headers: dict[str, StrictStr] = Field(default_factory=dict)
    response: dict[str, Any] | list[Any] | None = None
    notifications: list[dict[str, Any]] = Field(default_factory=list)
    framing: Short = ""
    bytes: StrictInt = 0
    duration_ms: Number = 0
    failure: Text = ""
    repairs: list[Text] = Field(default_factory=list)
    sequence: list[dict[str, Any]] = Field(default_factory=list)
    unanswered: StrictBool = False


class Finding(Part):
    message: Text
    rule: Short = ""
    path: Text = ""
    verdict: Short = ""
    row: RowId = ""
    anchor: Short = ""
    kind: Short = ""


class DiffEntry(Part):
    path: Text
    change: Short


class Letter(Part):
    yes: StrictBool
    evidence: Text = ""


Letters = dict[Literal["D", "P", "C", "T", "E", "R"], Letter]


class Dpcter(Part):
    """One consumer's DPCTER profile of a failure: which of the six letters it can act on."""

    consumer: Short
    label: Short = ""
    typed: Letters
    with_text: Letters = Field(default_factory=dict)
    policy: Short = ""


class Media(Part):
    mime: Short = ""
    bytes: StrictInt = 0
    filename: Short | None = None


class ViewPart(Part):
    text: StrictStr | None = None
    file: Media | None = None


class Change(Part):
    subject: Text
    action: Short
    reason: Text = ""
    source: Text = ""
    rows: list[RowId] = Field(default_factory=list)


class HostView(Part):
    key: Short
    host: Short
    path: Short
    label: Short
    outcome: Short
    error: Text | None = None
    parts: list[ViewPart] = Field(default_factory=list)
    attachments: list[Media] = Field(default_factory=list)
    changes: list[Change] = Field(default_factory=list)
    notes: list[Text] = Field(default_factory=list)


class PredictedCell(Part):
    feature: Short
    chip: Short
    detail: Text = ""


class Prediction(Part):
    """What one host the lab measured would see of a tool result (comparison.hosts.measured)."""

    host: Short
    label: Short
    source: Text = ""
    cells: list[PredictedCell] = Field(default_factory=list, max_length=200)


class Try(Part):
    verdict: Verdict
    findings: list[Finding] = Field(default_factory=list)
    exchanges: list[Exchange] = Field(default_factory=list)


class Result(BaseModel):
    """One probe cell as `probe --json` prints it."""

    model_config = ConfigDict(extra="forbid")

    scenario: Annotated[StrictStr, Field(min_length=1, max_length=100)]
    family: Annotated[StrictStr, Field(max_length=40)] = ""
    anchors: list[Short] = Field(max_length=200)
    seen: list[Short] = Field(max_length=500)
    method: Annotated[StrictStr, Field(max_length=100)]
    requested_revision: Revision
    #: The cross-era grid's upstream revision; "" (or absent, from before the grid) for none.
    upstream_revision: Revision | Literal[""] = ""
    negotiated_revision: Annotated[StrictStr, Field(max_length=20)]
    verdict: Verdict
    failure: Text
    response: Any
    findings: list[Finding] = Field(max_length=1000)
    diff: list[DiffEntry] = Field(max_length=1000)
    diff_against: Annotated[StrictStr, Field(max_length=100)]
    host_views: list[HostView] = Field(max_length=100)
    dpcter: list[Dpcter] = Field(max_length=100)
    interop: dict[Short, StrictBool] | None
    predictions: list[Prediction] = Field(default_factory=list, max_length=20)
    exchanges: list[Exchange] = Field(max_length=1000)
    tries: list[Try] = Field(default_factory=list, max_length=20)
    duration_ms: Number


def where(error: ValidationError, prefix: str) -> str:
    """The first problem pydantic found, as `prefix.path: what`."""
    first = error.errors()[0]
    path = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in first.get("loc", ()))
    given = first.get("input")
    got = f" (got {json.dumps(given)[:80]})" if isinstance(given, str | int | float | bool) else ""
    return f"{prefix}{path}: {first.get('msg', 'invalid')}{got}"


#: The list fields whose items have a shape of their own, and that shape.
ITEM_SHAPES: dict[str, type[BaseModel]] = {
    "findings": Finding,
    "diff": DiffEntry,
    "host_views": HostView,
    "dpcter": Dpcter,
    "exchanges": Exchange,
    "tries": Try,
    "predictions": Prediction,
}
#: Lists of plain text.
TEXT_LISTS = ("anchors", "seen")
#: The interop field's own shape, as a result declares it.
INTEROP = TypeAdapter(Result.model_fields["interop"].annotation)


def _fits(shape: TypeAdapter, value: Any) -> bool:
    try:
        shape.validate_python(value)
    except ValidationError:
        return False
    return True


def repaired(fields: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """A stored result's JSON fields with every malformed part taken out and one finding per field
    that says what was taken out; (fields, what was wrong). A well-formed result comes back as it was."""
    fixed, problems = dict(fields), []
    for name in (name for name in TEXT_LISTS if name in fields):
        value = fields[name]
        items = value if isinstance(value, list) else []
        kept = [item for item in items if isinstance(item, str)]
        if not isinstance(value, list) or len(kept) != len(items):
            fixed[name] = kept
            problems.append(f"{name}: {len(items) - len(kept) if isinstance(value, list) else 'the whole'} not text")
    for name, shape in ITEM_SHAPES.items():
        value = fields.get(name)
        if not isinstance(value, list):
            if value is not None:
                fixed[name] = []
                problems.append(f"{name}: expected a list")
            continue
        kept, first = [], ""
        for index, item in enumerate(value):
            try:
                shape.model_validate(item)
                kept.append(item)
            except ValidationError as error:
                first = first or where(error, f"{name}[{index}]")
        if len(kept) != len(value):
            fixed[name] = kept
            problems.append(f"{len(value) - len(kept)} of {len(value)} {name} entries ({first})")
    if "interop" in fields and not _fits(INTEROP, fields["interop"]):
        fixed["interop"] = {}
        problems.append("interop: expected an object of host names to true or false")
    if problems and "findings" in fields:
        marker = [
            {"rule": "malformed", "path": "stored result", "message": f"left out as malformed: {p}"} for p in problems
        ]
        fixed["findings"] = [*(fixed.get("findings") or []), *marker]
    return fixed, problems


class Upload(BaseModel):
    """The request body of an upload, as the API publishes it."""

    model_config = ConfigDict(extra="allow", title="UploadIn")

    target: Annotated[StrictStr, Field(max_length=100)] = Field(
        "", description="The name the probe printed; `?target=` names the stored target instead."
    )
    results: list[Result] = Field(
        min_length=1,
        max_length=MAX_RESULTS,
        description="The cells; conformance rows (`conformance.*`) are accepted and left out.",
    )


def upload_schema() -> tuple[dict[str, Any], dict[str, Any]]:
    """(the body's JSON schema, the schemas it refers to), with references into the OpenAPI
    document's components."""
    schema = Upload.model_json_schema(ref_template="#/components/schemas/{model}")
    return schema, schema.pop("$defs", {})
