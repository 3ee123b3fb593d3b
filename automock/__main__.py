from __future__ import annotations

import sys

try:
    from automock.cli import interrupted, main
except KeyboardInterrupt:  # Ctrl-C while the command's own modules load: no traceback
    print("automock: interrupted", file=sys.stderr)
    sys.exit(130)

try:
    code = main()
except KeyboardInterrupt:  # between the command's steps, before or after its own handler
    code = interrupted()
sys.exit(code)
