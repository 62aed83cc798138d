"""The register format in one place: its grammar, the reader (text → RegisterDoc) and the writer
(register and rows → text). Pure, no Django."""

from registers.core.format.documents import Field, Label, ParseWarning, RegisterDoc, RegisterParseError, RowDoc
from registers.core.format.grammar import READING_RULES
from registers.core.format.reader import looks_like_register, parse_register, slug_from_path
from registers.core.format.rows import classify_label
from registers.core.format.writer import (
    RegisterHead,
    RegisterRow,
    register_parts,
    register_text,
    registers_text,
    split_registers,
)

__all__ = [
    "READING_RULES",
    "Field",
    "Label",
    "ParseWarning",
    "RegisterDoc",
    "RegisterHead",
    "RegisterParseError",
    "RegisterRow",
    "RowDoc",
    "classify_label",
    "looks_like_register",
    "parse_register",
    "register_parts",
    "register_text",
    "registers_text",
    "slug_from_path",
    "split_registers",
]
