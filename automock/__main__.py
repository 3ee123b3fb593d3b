from __future__ import annotations

import sys

try:
    from automock.cli import main
except KeyboardInterrupt:  # Ctrl-C while the command's own modules load: no traceback
    print("automock: interrupted", file=sys.stderr)
    sys.exit(130)

sys.exit(main())
