"""A griffe extension that turns the Sphinx roles of zerosum's docstrings into links.

The docstrings are written for readers of the source, with roles such as
``:class:`~zerosum.game.Game``` and ``:meth:`Game.result```. Markdown knows no roles,
so before mkdocstrings renders a docstring this extension rewrites each role as an
autorefs cross-reference: a link to the object's entry in the API reference. Names are
resolved in the scope of the documented object, as Sphinx does; the references are
marked optional, so a name outside the reference (``ValueError``) shows as code.
"""

from __future__ import annotations

import html
import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:py:)?(?:class|meth|func|data|attr|mod|exc|obj|const):`(~?)([^`<>]+)`")


def _target(obj: griffe.Object, name: str) -> str:
    """The full path of ``name`` as seen from ``obj``, or ``name`` when it is unknown."""
    head, dot, tail = name.partition(".")
    if head == "zerosum":
        return name
    try:
        resolved = obj.resolve(head)
    except (griffe.NameResolutionError, KeyError, AttributeError):
        return name
    return f"{resolved}{dot}{tail}"


def _rewrite(obj: griffe.Object, text: str) -> str:
    def link(match: re.Match[str]) -> str:
        short, name = match[1], match[2].strip()
        shown = name.rpartition(".")[2] if short else name
        identifier = html.escape(_target(obj, name), quote=True)
        code = f"<code>{html.escape(shown)}</code>"
        return f'<autoref identifier="{identifier}" optional>{code}</autoref>'

    return _ROLE.sub(link, text)


class SphinxRoles(griffe.Extension):
    """Rewrite Sphinx roles in every docstring once the package is loaded."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """Walk the package and rewrite the docstring of every object in it."""
        stack: list[griffe.Object] = [pkg]
        while stack:
            obj = stack.pop()
            if obj.docstring is not None:
                obj.docstring.value = _rewrite(obj, obj.docstring.value)
            stack.extend(m for m in obj.members.values() if isinstance(m, griffe.Object))
