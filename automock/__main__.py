from __future__ import annotations

import sys

from automock.cli import main

sys.exit(main())
