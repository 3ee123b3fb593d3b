"""A crossover's child: made of its two parents' genes, and as long as they are.

Two parameters named as the parents of one crossover (``p1``/``p2``, ``parent_1``/
``parent_2``, ``mother``/``father``, ``padre1``/``padre2``) are fitted to one tour in two
orders (:mod:`~automock.properties.together`). Whatever the operator (one-point, uniform,
order), the child then holds only their genes and has their length:

- :func:`parents_length`: ``length`` of the first parent for a child seen holding only
  their genes but not a permutation of them: a gene lost or repeated on every call is
  still made of their genes, and only the length tells;
- :func:`parents_genes`: ``subset`` of the parents for a function named for a crossover
  (``crossover``, ``cruza``, ``combinacion``, ``recombination``...) whose child was not
  seen holding only their genes: an empty slot left in the child (``None``) on the calls
  that cross is the bug, not a sign that the child may hold anything. A crossover that
  makes new values (``blend``, ``arithmetic``, ``sbx``, ``intermediate``) is left alone.
"""

from __future__ import annotations

from collections.abc import Mapping

from automock.properties.infer import AppliedProperty, name_tokens
from automock.properties.items import as_sequence
from automock.properties.observe import Observations
from automock.properties.relations import Relation
from automock.properties.together import parents

__all__ = ["parents_genes", "parents_length"]

_CROSSING = frozenset({"crossover", "cross", "cruza", "cruce", "cruzamento", "cruzamiento"})
_CROSSING |= {"combinacion", "recombination", "recombine", "kreuzung", "croisement", "breed"}
_NEW_VALUES = frozenset({"blend", "blx", "arithmetic", "sbx", "simulated", "intermediate"})
_NEW_VALUES |= {"average", "linear", "heuristic", "flat", "line", "extended", "whole"}


def parents_length(found: Mapping[str, Relation], observed: Observations) -> list[AppliedProperty]:
    """``length`` of the first parent for a crossover of two parents (``p1``, ``p2``;
    ``mother``, ``father``) whose child varies with the seed and holds only their genes,
    not a permutation of them: a child with a gene lost or repeated on every call is still
    made of their genes, and only its length, the parents' own, tells."""
    couple = parents(observed.parameters)
    held = {"subset", "submultiset"} & set(found)
    if couple is None or "varies" not in found or "permutation" in found or not held:
        return []
    first = observed.parameters[couple[0]]
    evidence = (
        f"parents {first} and {observed.parameters[couple[1]]}: a crossover's child "
        f"has its parents' length ({' and '.join(sorted(held))} of them held)"
    )
    return [AppliedProperty("length", {"n": first}, "inferred", evidence)]


def parents_genes(
    found: Mapping[str, Relation], observed: Observations, fname: str
) -> list[AppliedProperty]:
    """``subset`` of the parents for a crossover by name (see the module)."""
    couple = parents(observed.parameters)
    tokens = set(name_tokens(fname))
    if couple is None or not tokens & _CROSSING or tokens & _NEW_VALUES:
        return []
    if {"subset", "submultiset", "permutation"} & set(found) or not observed.accepted:
        return []
    if not all(as_sequence(o.output) is not None for o in observed.accepted):
        return []  # a child handed back whole, or a pair of children: not read here
    first, second = (observed.parameters[i] for i in couple)
    evidence = f"name: a crossover of parents {first} and {second}: its child holds their genes"
    return [AppliedProperty("subset", {}, "name", evidence)]
