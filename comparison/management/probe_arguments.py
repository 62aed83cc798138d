"""The options of `manage.py probe`: what is probed, which cells and how they print, and the passes
and gates a run adds. Kept apart from the command, which reads them."""

from __future__ import annotations

import argparse

from comparison.probes.assessment.revisions import REVISIONS
from comparison.probes.assessment.tries import MAX_TRIES
from comparison.probes.run.scenarios import SUITES


def revision_list(text: str) -> list[str]:
    if text.strip().lower() == "all":
        return list(REVISIONS)
    named = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [part for part in named if part not in REVISIONS]
    if unknown or not named:
        raise argparse.ArgumentTypeError(
            f"not a revision: {', '.join(unknown) or text!r} (give some of {', '.join(REVISIONS)}, or all)"
        )
    return [revision for revision in REVISIONS if revision in named]


def target_arguments(parser) -> None:
    """What is probed: a configured target, the fixture, a URL or a command, and its upstream."""
    parser.add_argument("target", nargs="?", help="The name of a configured target.")
    parser.add_argument("--builtin", action="store_true", help="Probe the built-in fixture directly.")
    parser.add_argument("--url", help="A Streamable HTTP endpoint (for a proxy's own CI).")
    parser.add_argument("--command", help="A stdio command line.")
    parser.add_argument("--upstream-url", help="The upstream's own URL, probed directly for the diff.")
    parser.add_argument(
        "--upstream-fixture",
        action="store_true",
        help="The upstream is the fixture: compare with its known answers.",
    )
    parser.add_argument(
        "--header",
        action="append",
        default=[],
        metavar="'NAME: VALUE'",
        help="An HTTP header for --url (repeatable); its value is never printed.",
    )
    parser.add_argument(
        "--header-env",
        action="append",
        default=[],
        metavar="NAME=VARIABLE",
        help="An HTTP header for --url whose value is read from an environment variable (keeps it out of "
        "the shell history and the process list).",
    )


def cell_and_output_arguments(parser) -> None:
    """Which cells, and how they are printed."""
    parser.add_argument("--suite", choices=sorted(SUITES), default="fixture")
    # Plain strings: argparse names the choices by their repr in its error.
    parser.add_argument("--revisions", nargs="+", choices=[str(r) for r in REVISIONS], default=list(REVISIONS))
    parser.add_argument(
        "--upstream-revisions",
        metavar="R1,R2,…",
        type=revision_list,
        default=None,
        help="The cross-era grid: pin the target's upstream to each of these revisions ('all' for every one) "
        "and probe every client revision through it. Cells are keyed scenario@CLIENT/UPSTREAM. The target "
        "must start the fixture, or say where its upstream's revision goes with "
        "${MCP_COMPARE_UPSTREAM_REVISIONS}.",
    )
    parser.add_argument("--scenarios", nargs="+", help="Scenario keys (default: the whole suite).")
    parser.add_argument("--json", action="store_true", help="Print every result as JSON.")
    parser.add_argument("--strict", action="store_true", help="Also fail on results invalid for the revision.")
    parser.add_argument(
        "--audit",
        action="store_true",
        help="Print the DPCTER audit of the failure scenarios (typed / typed + text), with its legend.",
    )
    parser.add_argument("--junit", metavar="FILE", help="Also write the results as JUnit XML to FILE.")


def pass_and_gate_arguments(parser) -> None:
    """The passes a run may add (the conformance suite, the real hosts), its gates and limits."""
    parser.add_argument(
        "--conformance",
        action="store_true",
        help="Also run the official conformance suite against the fixture and through the target (HTTP "
        "targets); each suite scenario is one more result, `conformance.<scenario>`.",
    )
    parser.add_argument(
        "--real-hosts",
        action="store_true",
        help="Also run every installed real host (the host lab's) through the target and directly, in the "
        "lab scenarios among --scenarios (all 17 when none is one), and print per host whether what reached "
        "its model differs; exits 1 when one does. The target must front the fixture. A configured target's "
        "cells are stored and reused.",
    )
    parser.add_argument(
        "--baseline",
        metavar="FILE",
        help="Expected results (an earlier --json output, or lines `scenario@revision: verdict`): exit 1 only "
        "for cells worse than it; a cell it does not list is expected to be as expected.",
    )
    parser.add_argument("--update-baseline", metavar="FILE", help="Write this probe's results to FILE as a baseline.")
    parser.add_argument(
        "--deadline",
        type=float,
        default=None,
        metavar="SECONDS",
        help="The longest the probe may take; cells not probed by then fail (default: MCP_COMPARE_RUN_DEADLINE, "
        "300 s; 0 for none).",
    )
    parser.add_argument(
        "--tries",
        type=int,
        default=None,
        choices=range(1, MAX_TRIES + 1),
        metavar="N",
        help="How many times each timing-sensitive cell (progress, logging, list changes, cancellation) is "
        "played; tries that disagree make the cell 'intermittent' (default: MCP_COMPARE_PROBE_TRIES, 3).",
    )
    parser.add_argument(
        "--strict-baseline",
        action="store_true",
        help="With --baseline, also fail on stale entries (cells now better than the baseline says).",
    )
