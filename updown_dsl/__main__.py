"""``python -m updown_dsl``: the ``updown`` command line."""

from updown_dsl.cli import main

if __name__ == "__main__":
    main()
