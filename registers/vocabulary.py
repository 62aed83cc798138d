"""The one vocabulary shared by every module: revisions, hosts, label kinds, verdicts.

Pure data, no Django: parser, loader, filters and templates all read these names.
"""

REVISIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28")

#: Short forms used in register cells ("24-11") and for display only.
REVISION_SHORT = {rev: rev[2:7] for rev in REVISIONS}
SHORT_TO_REVISION = {short: rev for rev, short in REVISION_SHORT.items()}

HOSTS = ("opencode-v1", "opencode-v2", "lootbox", "cloudflare", "mcpx")
HOST_NAMES = {
    "opencode-v1": "opencode v1",
    "opencode-v2": "opencode v2",
    "lootbox": "lootbox",
    "cloudflare": "Cloudflare",
    "mcpx": "mcpx",
}
#: The status-subject host: the proxy whose status column a register records.
SUBJECT_HOST = "mcpx"

# Per-revision presence. "unknown" is never "absent": a register that says nothing about a
# revision leaves it unknown.
EXISTS, ABSENT, DEPRECATED, UNKNOWN = "exists", "absent", "deprecated", "unknown"
SUPPORT_STATES = (EXISTS, ABSENT, DEPRECATED, UNKNOWN)

# Where a per-revision state came from, so the UI can say how sure it is.
FROM_WHERE_CELL, FROM_LABEL, INFERRED = "where", "label", "inferred"

# Host note states.
HOST_HAS, HOST_PARTIAL, HOST_LACKS, HOST_NA, HOST_MENTIONED = (
    "has",
    "partial",
    "lacks",
    "n/a",
    "mentioned",
)
HOST_STATES = (HOST_HAS, HOST_PARTIAL, HOST_LACKS, HOST_NA, HOST_MENTIONED)

# Status verdicts of the subject column: symbol in the register -> key.
STATUS_VERDICTS = {"✓": "yes", "✗": "no", "partial": "partial", "n/a": "na", "acc.": "acc"}
STATUS_LABELS = {"yes": "✓", "no": "✗", "partial": "partial", "na": "n/a", "acc": "acc.", "": "—"}

VALUE_LEVELS = ("high", "med", "low")
EFFORT_SIZES = ("S", "M", "L", "XL")
RISK_LEVELS = ("low", "med", "high")

LABEL_KINDS = ("revision", "host", "subject", "spec", "other")

#: Fixed label tokens (inside the backticks) and their kind. `<rev> has|removes|deprecates`
#: is recognised by pattern; anything else is kept with kind "other".
FIXED_LABELS = {
    "opencode v1 has": ("host", "opencode-v1"),
    "opencode v2 has": ("host", "opencode-v2"),
    "lootbox has": ("host", "lootbox"),
    "mcpx missing": ("subject", None),
    "impl deferred": ("subject", None),
    "mcpx has, others don't": ("subject", None),
    "does not match mcpx's goal": ("subject", None),
    "specs conflict": ("spec", None),
    "has better replacement": ("spec", None),
    "has no replacement": ("spec", None),
}
REVISION_VERBS = ("has", "removes", "deprecates")


def revision_index(revision: str) -> int:
    return REVISIONS.index(revision)
