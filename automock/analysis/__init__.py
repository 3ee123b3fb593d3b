"""Static analysis: find the touchpoints that make a Python file nondeterministic."""
