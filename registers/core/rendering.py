"""Register Markdown -> safe HTML. Pure, no Django; called once per field at load time.

Raw HTML in register text is escaped (markdown-it's `html` option is off), code blocks are
highlighted with pygments, row IDs in prose (`CT-13`) become links to the row, and links to
sibling register files (`mrtr.md`) become links to the register page. Other relative links have
no meaning outside the register's repository and are rendered as plain text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from markdown_it import MarkdownIt
from markdown_it.token import Token
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import TextLexer, get_lexer_by_name
from pygments.util import ClassNotFound

ROW_REFERENCE = re.compile(r"\b([A-Z]{2,6}-\d{2,3})\b")
SIBLING_REGISTER = re.compile(r"^(?:\./)?([a-z0-9-]+)\.md(#.*)?$")
ABSOLUTE = re.compile(r"^(?:https?:|mailto:)", re.I)


@dataclass(frozen=True)
class LinkTargets:
    """URL patterns the renderer links to; `{id}` and `{slug}` are filled in."""

    row: str = "/rows/{id}/"
    register: str = "/registers/{slug}/"


def _highlight(code: str, language: str, _attrs: str) -> str:
    try:
        lexer = get_lexer_by_name(language) if language else TextLexer()
    except ClassNotFound:
        lexer = TextLexer()
    return highlight(code, lexer, HtmlFormatter(nowrap=False, cssclass="highlight"))


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "highlight": _highlight})
    md.enable("table")
    return md


class Renderer:
    """One parser for a whole load; each distinct text is rendered once (registers repeat the
    same cells, labels and statements across rows)."""

    def __init__(self, targets: LinkTargets | None = None):
        self.targets = targets or LinkTargets()
        self.md = _parser()
        self._done: dict[tuple[str, bool], str] = {}

    def block(self, text: str) -> str:
        return self._render(text, inline=False)

    def inline(self, text: str) -> str:
        return self._render(text, inline=True)

    def _render(self, text: str, *, inline: bool) -> str:
        key = (text, inline)
        if key not in self._done:
            self._done[key] = self.md.renderer.render(self._tokens(text, inline=inline), self.md.options, {})
        return self._done[key]

    def _tokens(self, text: str, *, inline: bool) -> list[Token]:
        tokens = self.md.parseInline(text) if inline else self.md.parse(text)
        for token in tokens:
            if token.type == "inline" and token.children is not None:
                token.children = self._rewrite(token.children)
        return tokens

    def _rewrite(self, children: list[Token]) -> list[Token]:
        result: list[Token] = []
        link_depth = 0
        dropped_links: list[bool] = []
        for token in children:
            if token.type == "link_open":
                href = token.attrGet("href") or ""
                new_href = self._link_href(str(href))
                if new_href is None:
                    dropped_links.append(True)
                    continue
                token.attrSet("href", new_href)
                if ABSOLUTE.match(new_href):
                    token.attrSet("rel", "noopener noreferrer")
                dropped_links.append(False)
                link_depth += 1
                result.append(token)
            elif token.type == "link_close":
                if dropped_links and dropped_links.pop():
                    continue
                link_depth -= 1
                result.append(token)
            elif token.type == "text" and link_depth == 0:
                result.extend(self._link_row_ids(token))
            else:
                result.append(token)
        return result

    def _link_href(self, href: str) -> str | None:
        if ABSOLUTE.match(href) or href.startswith("#"):
            return href
        sibling = SIBLING_REGISTER.match(href.rsplit("/", 1)[-1]) if not href.startswith("../") else None
        if sibling:
            return self.targets.register.format(slug=sibling.group(1))
        return None

    def _link_row_ids(self, token: Token) -> list[Token]:
        parts = ROW_REFERENCE.split(token.content)
        if len(parts) == 1:
            return [token]
        out: list[Token] = []
        for index, part in enumerate(parts):
            if not part:
                continue
            if index % 2 == 0:
                out.append(_text(part))
            else:
                link = Token("link_open", "a", 1)
                link.attrSet("href", self.targets.row.format(id=part))
                link.attrSet("class", "row-ref")
                out.extend([link, _text(part), Token("link_close", "a", -1)])
        return out


def _text(content: str) -> Token:
    token = Token("text", "", 0)
    token.content = content
    return token
