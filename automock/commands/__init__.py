"""One module per CLI subcommand: ``add_arguments(parser)`` and ``run(args) -> int``."""
