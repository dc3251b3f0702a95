"""Heading paths as nodes of one tree (chunk/heading_tree.py): the common node of two paths
is the node of the longest path both start with, as ``common_path`` finds it on the
tuples, and a node's depth is its path's length."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from lightrag_pchunk.chunk.blocks import common_path
from lightrag_pchunk.chunk.heading_tree import ROOT, HeadingTree

paths = st.lists(st.sampled_from(["1", "1.1", "2", "A", ""]), max_size=5).map(tuple)


@given(st.lists(paths, min_size=1, max_size=12))
def test_the_common_node_is_the_node_of_the_common_path(found) -> None:
    tree = HeadingTree()
    nodes = tree.nodes(found)
    assert nodes == tree.nodes(found)  # a path has one node
    for path, node in zip(found, nodes, strict=True):
        assert tree.depths[node] == len(path)
        assert bool(node) == bool(path)  # the root, 0, is the empty path
    for a, node_a in zip(found, nodes, strict=True):
        for b, node_b in zip(found, nodes, strict=True):
            assert tree.common(node_a, node_b) == tree.node(common_path((a, b)))


def test_a_run_meets_its_nodes_at_their_deepest_common_heading() -> None:
    tree = HeadingTree()
    deep, cousin = tree.node(("Doc", "2", "2.1", "2.1.3")), tree.node(("Doc", "2", "2.4"))
    common, deepest = tree.with_node(None, 0, deep)
    assert (common, deepest) == (deep, 4)
    common, deepest = tree.with_node(common, deepest, cousin)
    assert (common, deepest) == (tree.node(("Doc", "2")), 4)
    assert tree.common(deep, tree.node(("Other",))) == ROOT
