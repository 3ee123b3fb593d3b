"""Plans: the reviewable, versioned description of how each touchpoint is mocked."""
