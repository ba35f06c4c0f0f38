"""Files the package carries: the bundled variants and the grammar."""

from __future__ import annotations

from pathlib import Path


def package_file(name: str) -> Path:
    """A file or folder the wheel puts inside the package, or a source checkout beside it.

    (``importlib.resources`` would be the general way, but it costs a tenth of the
    start-up of ``updown check``, and the package is never imported from a zip.)
    """
    here = Path(__file__).resolve().parent.parent  # the package's folder
    packaged = here / name
    return packaged if packaged.exists() else here.parent / name
