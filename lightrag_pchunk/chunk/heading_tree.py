"""Heading paths as numbers, for stage D's pack search (``chunk/merge_pack.py``,
``chunk/pack_windows.py``): each heading path of a document and each of its prefixes is
one node of a tree, so that the search compares paths as numbers, reads a path's depth
from a list, and finds the longest path two paths start with (their deepest common
heading) in a few steps up the tree, where comparing tuples of headings cost a loop of
slices per step."""

from __future__ import annotations

from collections.abc import Sequence

#: The node of the empty path: the top of the document, above every heading. It is 0, so
#: that a node is true exactly when its path is not empty, as a tuple of headings is.
ROOT = 0


class HeadingTree:
    """The nodes of the heading paths met so far; :meth:`node` adds a path's."""

    __slots__ = ("_nodes", "depths", "parents")

    def __init__(self) -> None:
        self._nodes: dict[tuple[str, ...], int] = {(): ROOT}
        #: Per node: its parent's node (the root's is itself) and its path's length.
        self.parents: list[int] = [ROOT]
        self.depths: list[int] = [0]

    def node(self, path: tuple[str, ...]) -> int:
        """The node of ``path``, added with those of its prefixes the first time."""
        found = self._nodes.get(path)
        if found is not None:
            return found
        known = len(path) - 1  # the longest prefix with a node already
        while path[:known] not in self._nodes:
            known -= 1
        parent = self._nodes[path[:known]]
        for length in range(known + 1, len(path) + 1):
            self._nodes[path[:length]] = len(self.parents)
            self.parents.append(parent)
            self.depths.append(length)
            parent = len(self.parents) - 1
        return parent

    def nodes(self, paths: Sequence[tuple[str, ...]]) -> list[int]:
        """The node of each of ``paths``."""
        return [self.node(path) for path in paths]

    def common(self, a: int, b: int) -> int:
        """The node of the longest path that starts both ``a``'s and ``b``'s."""
        depths, parents = self.depths, self.parents
        while depths[a] > depths[b]:
            a = parents[a]
        while depths[b] > depths[a]:
            b = parents[b]
        while a != b:
            a, b = parents[a], parents[b]
        return a

    def with_node(self, common: int | None, deepest: int, node: int) -> tuple[int, int]:
        """A run's common node and the depth of its deepest node once ``node`` is in it
        (``common`` None: the run had no node yet)."""
        if common is None:
            return node, max(deepest, self.depths[node])
        if common != node:
            common = self.common(common, node)
        return common, max(deepest, self.depths[node])
