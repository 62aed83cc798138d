"""The model APIs the hosts speak, each read into one shape (`shapes.Turn`) and answered from a script.

A dialect module has `matches(path)`, `read(body) -> Turn`, `call(name, arguments, stream)` and
`text(words, stream)`; the answers are `Reply` (status, content type, body bytes).
"""

from __future__ import annotations

from types import ModuleType

from comparison.hostlab.dialects import anthropic_messages, gemini, openai_chat, openai_responses


def by_path(path: str) -> ModuleType | None:
    for module in (openai_responses, openai_chat, anthropic_messages, gemini):
        if module.matches(path):
            return module
    return None
