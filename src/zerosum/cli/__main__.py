"""``python -m zerosum.cli`` runs the ``zerosum`` command."""

import sys

from zerosum.cli import main

sys.exit(main())
