"""``updown referee``: the rules referee for another program, over the engine protocol.

Requests come one JSON object a line on standard input; each gets one JSON line on standard
output (``docs/protocol.md``). The loop here only reads lines and writes the replies the
library's :class:`~updown_dsl.players.referee.Referee` gives.
"""

from __future__ import annotations

import sys
from typing import BinaryIO, TextIO

from .common import VariantPathOpt, _folders, _handle_errors, app


@app.command("referee")
@_handle_errors
def referee_cmd(variant_path: VariantPathOpt = None) -> None:
    """Referee games for another program: JSON requests on standard input, one JSON reply a line.

    A front end or a bot in any language starts a game ({"cmd": "new", "variant": NAME}, NAME a
    bundled variant or a file), asks the legal actions, applies one, asks a seat's view, the
    record, or checks a record;
    every error is a reply with a code, and the session goes on. It ends at the end of the input
    or with {"cmd": "quit"}. The protocol is in docs/protocol.md.
    """
    serve(sys.stdin.buffer, sys.stdout, _folders(variant_path))


def serve(stdin: BinaryIO, stdout: TextIO, variant_path: list[str]) -> None:
    """Answer the requests of ``stdin`` on ``stdout`` until its end or a ``quit``."""
    from ..players.protocol import MAX_LINE, ErrorCode, ProtocolError, dumps, error_reply
    from ..players.referee import Referee
    from ..i18n import tr

    referee = Referee(variant_path)
    while not referee.done:
        line = stdin.readline(MAX_LINE + 1)
        if not line:
            break
        if len(line) > MAX_LINE and not line.endswith(b"\n"):
            while (rest := stdin.readline(MAX_LINE + 1)) and not rest.endswith(b"\n"):
                pass  # the rest of the long line is dropped: the next line is the next request
            answer = dumps(error_reply(ProtocolError(
                ErrorCode.LINE_TOO_LONG, tr("a line is longer than {mb} MB: it is not read", mb=MAX_LINE >> 20))))
        elif not line.strip():
            continue
        else:
            answer = referee.answer(line)
        try:
            stdout.write(answer + "\n")
            stdout.flush()
        except BrokenPipeError:  # the front end has gone: nobody is left to answer
            return
