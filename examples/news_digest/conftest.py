"""Lets the tests in tests/ import the digest package from this folder (pytest puts it on sys.path)."""
