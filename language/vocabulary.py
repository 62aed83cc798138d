"""The one vocabulary of the project: revisions, hosts and host paths, support and host states,
status verdicts, value, effort and risk, citation verdicts, probe verdicts and run statuses.

Pure, no Django: the parser, the host models, the probes, the scorer and the reports import the
enums; the models build their `TextChoices` from the same enums (`common/choices.py`); the
templates get revisions and hosts from the context (`registers/context.py`), never typed out.
Every enum is a `StrEnum`, so a member is the plain string that is stored, exported and compared.
"""

from __future__ import annotations

from enum import StrEnum


class Labelled(StrEnum):
    """A StrEnum whose members carry a display label (the value when none is given)."""

    @property
    def label(self) -> str:
        return LABELS.get((type(self), self.value), self.value)


#: (enum, value) → label: keyed by the enum too, as members of two enums may share a value
#: (`Host.CLOUDFLARE == HostPath.CLOUDFLARE`, both the string "cloudflare").
LABELS: dict[tuple[type, str], str] = {}


def _labels(enum: type[StrEnum], labels: dict[str, str]) -> None:
    LABELS.update({(enum, enum(value).value): label for value, label in labels.items()})


class Revision(Labelled):
    V2024_11_05 = "2024-11-05"
    V2025_03_26 = "2025-03-26"
    V2025_06_18 = "2025-06-18"
    V2025_11_25 = "2025-11-25"
    V2026_07_28 = "2026-07-28"

    @property
    def short(self) -> str:
        """The form register cells use ("24-11"), for display only."""
        return self.value[2:7]


REVISIONS = tuple(Revision)
REVISION_SHORT = {revision: revision.short for revision in Revision}
SHORT_TO_REVISION = {revision.short: revision for revision in Revision}


class Host(Labelled):
    OPENCODE_V1 = "opencode-v1"
    OPENCODE_V2 = "opencode-v2"
    LOOTBOX = "lootbox"
    CLOUDFLARE = "cloudflare"
    MCPX = "mcpx"
    #: The hosts the host lab runs for real (comparison/hostlab): known from measurements, never
    #: from a register's columns.
    CODEX = "codex"
    CLAUDE_CODE = "claude-code"
    GEMINI_CLI = "gemini-cli"
    QWEN_CODE = "qwen-code"
    COPILOT = "copilot"
    CLINE = "cline"
    KILO = "kilo"
    CONTINUE = "continue"


_labels(
    Host,
    {
        "opencode-v1": "opencode v1",
        "opencode-v2": "opencode v2",
        "cloudflare": "Cloudflare",
        "codex": "Codex CLI",
        "claude-code": "Claude Code",
        "gemini-cli": "Gemini CLI",
        "qwen-code": "Qwen Code",
        "copilot": "Copilot CLI",
        "cline": "Cline",
        "kilo": "Kilo Code CLI",
        "continue": "Continue CLI",
    },
)
#: The hosts the registers have columns for and the hand models describe (comparison/hosts).
HOSTS = (Host.OPENCODE_V1, Host.OPENCODE_V2, Host.LOOTBOX, Host.CLOUDFLARE, Host.MCPX)
#: The hosts known only from the lab's measurements (no hand model, no register column).
LAB_ONLY_HOSTS = (
    Host.CODEX,
    Host.CLAUDE_CODE,
    Host.GEMINI_CLI,
    Host.QWEN_CODE,
    Host.COPILOT,
    Host.CLINE,
    Host.KILO,
    Host.CONTINUE,
)
HOST_NAMES = {host: host.label for host in Host}
#: The status-subject host: the proxy whose status column a register records. A proxy, not a host
#: a user runs: its column is the register's subject, and it is never in a run's host scores.
SUBJECT_HOST = Host.MCPX
#: The hosts a row can be filtered and compared by: the registers' columns, then the lab's.
ROW_HOSTS = (*HOSTS, *LAB_ONLY_HOSTS)
#: The hosts a run's interop is scored for: the hosts people run, never the registers' subject.
SCORED_HOSTS = (*LAB_ONLY_HOSTS, *(host for host in HOSTS if host != SUBJECT_HOST))


def host_name(host: str, subject: str = "") -> str:
    """A host's name as a page shows it: the subject host is whatever proxy the register's status
    column names (`myproxy @ abc`), mcpx only when it names none."""
    if host == SUBJECT_HOST and subject:
        return subject
    return HOST_NAMES.get(host, host)


class HostPath(Labelled):
    """How a host hands a tool result to the model: a host has one or two paths."""

    OPENCODE_V1 = "opencode-v1"
    OPENCODE_V1_CODEMODE = "opencode-v1-codemode"
    OPENCODE_V2 = "opencode-v2"
    OPENCODE_V2_CODEMODE = "opencode-v2-codemode"
    LOOTBOX = "lootbox"
    CLOUDFLARE = "cloudflare"
    MCPX = "mcpx"

    @property
    def host(self) -> Host:
        return Host(self.value.removesuffix("-codemode"))


_labels(
    HostPath,
    {
        "opencode-v1": "opencode v1 · direct",
        "opencode-v1-codemode": "opencode v1 · code mode",
        "opencode-v2": "opencode v2 · direct",
        "opencode-v2-codemode": "opencode v2 · code mode",
        "lootbox": "lootbox · script",
        "cloudflare": "Cloudflare · code mode",
        "mcpx": "mcpx · mcpx_call",
    },
)
HOST_PATH_LABELS = {path: path.label for path in HostPath}


class SupportState(Labelled):
    """Per-revision presence. "unknown" is never "absent": a register that says nothing about a
    revision leaves it unknown."""

    EXISTS = "exists"
    ABSENT = "absent"
    DEPRECATED = "deprecated"
    UNKNOWN = "unknown"


EXISTS, ABSENT, DEPRECATED, UNKNOWN = SupportState
SUPPORT_STATES = tuple(SupportState)


class SupportSource(Labelled):
    """Where a per-revision state came from, so the pages can say how sure it is."""

    WHERE_CELL = "where"
    LABEL = "label"
    INFERRED = "inferred"


FROM_WHERE_CELL, FROM_LABEL, INFERRED = SupportSource


class HostState(Labelled):
    HAS = "has"
    PARTIAL = "partial"
    LACKS = "lacks"
    NA = "n/a"
    MENTIONED = "mentioned"


HOST_HAS, HOST_PARTIAL, HOST_LACKS, HOST_NA, HOST_MENTIONED = HostState
HOST_STATES = tuple(HostState)


class StatusVerdict(Labelled):
    """The subject column's verdict, keyed; the label is the register's symbol."""

    YES = "yes"
    NO = "no"
    PARTIAL = "partial"
    NA = "na"
    ACC = "acc"


_labels(StatusVerdict, {"yes": "✓", "no": "✗", "na": "n/a", "acc": "acc."})
#: Symbol in the register → verdict.
STATUS_VERDICTS = {verdict.label: verdict for verdict in StatusVerdict}
STATUS_LABELS = {**{verdict: verdict.label for verdict in StatusVerdict}, "": "—"}


class ValueLevel(Labelled):
    HIGH = "high"
    MED = "med"
    LOW = "low"


class Effort(Labelled):
    S = "S"
    M = "M"
    L = "L"
    XL = "XL"


class Risk(Labelled):
    LOW = "low"
    MED = "med"
    HIGH = "high"


VALUE_LEVELS = tuple(ValueLevel)
EFFORT_SIZES = tuple(Effort)
RISK_LEVELS = tuple(Risk)


class LabelKind(Labelled):
    REVISION = "revision"
    HOST = "host"
    SUBJECT = "subject"
    SPEC = "spec"
    OTHER = "other"


LABEL_KINDS = tuple(LabelKind)

#: Fixed label tokens (inside the backticks) and their kind. `<rev> has|removes|deprecates`
#: is recognised by pattern; anything else is kept with kind "other".
FIXED_LABELS = {
    "opencode v1 has": (LabelKind.HOST, Host.OPENCODE_V1),
    "opencode v2 has": (LabelKind.HOST, Host.OPENCODE_V2),
    "lootbox has": (LabelKind.HOST, Host.LOOTBOX),
    "mcpx missing": (LabelKind.SUBJECT, None),
    "impl deferred": (LabelKind.SUBJECT, None),
    "mcpx has, others don't": (LabelKind.SUBJECT, None),
    "does not match mcpx's goal": (LabelKind.SUBJECT, None),
    "specs conflict": (LabelKind.SPEC, None),
    "has better replacement": (LabelKind.SPEC, None),
    "has no replacement": (LabelKind.SPEC, None),
}
REVISION_VERBS = ("has", "removes", "deprecates")


class CitationVerdict(Labelled):
    """What verification says of a file citation."""

    EXACT = "exact"
    MOVED = "moved"
    DRIFTED = "drifted"
    FILE_MISSING = "file missing"
    NO_QUOTE = "no quote"
    NO_SOURCE = "no source"


CITATION_VERDICTS = tuple(CitationVerdict)
#: Verdicts a register's CI should fail on.
FAILING_CITATIONS = (CitationVerdict.DRIFTED, CitationVerdict.FILE_MISSING)


class ProbeVerdict(Labelled):
    """What one probed exchange came to."""

    AS_EXPECTED = "as expected"
    CHANGED = "changed by proxy"
    INVALID = "invalid for revision"
    FAILED = "failed to probe"
    #: Sent by one side (the upstream or the probe), never reached the other.
    LOST = "lost by proxy"
    #: A server→client request the proxy answered itself (an error) instead of passing it on.
    REFUSED = "refused by proxy"
    #: A prerequisite of the scenario failed, so it could not check what it checks; never green.
    NOT_TESTABLE = "not testable"
    #: The tries of a timing-sensitive cell disagreed: as expected in some, lost or changed in others.
    INTERMITTENT = "intermittent"
    #: Nothing to compare the answer with (no known answer, no upstream probed directly); never green.
    NOT_COMPARED = "not compared"


PROBE_VERDICTS = tuple(ProbeVerdict)


class RunStatus(Labelled):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"
    INTERRUPTED = "interrupted"


#: A run in one of these has not ended; a target runs one at a time.
ACTIVE_RUN_STATUSES = (RunStatus.QUEUED, RunStatus.RUNNING)


class Transport(Labelled):
    HTTP = "http"
    STDIO = "stdio"


_labels(Transport, {"http": "Streamable HTTP (URL)", "stdio": "stdio (command)"})
