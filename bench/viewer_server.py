"""The server of the viewer benchmark (bench/bench_viewer.py): `verbale serve` itself, with one
more route on the same Flask app, `/bench/trivial`, a short text.

The trivial endpoint is the yardstick: served by the same waitress server, the same threads,
the same Flask app with its hooks (language, security headers), in the same process, so the
step endpoint's throughput is compared with what the server and the framework alone give.

Run: .venv/bin/python -m bench.viewer_server --database URL [--port 0] [--threads 8]
(every option of `verbale serve`).
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from flask import Flask

TRIVIAL = "/bench/trivial"


def _trivial() -> str:
    return "ok"


def with_trivial(create: Any) -> Any:
    """`create_app`, with the trivial route added to the app it makes."""
    def create_app(*args: Any, **kwargs: Any) -> Flask:
        app: Flask = create(*args, **kwargs)
        app.add_url_rule(TRIVIAL, "bench_trivial", _trivial)
        return app
    return create_app


def main() -> None:
    from replay_web.cli import cli
    from replay_web.web import app as web_app

    # Under a load generator's 16 connections waitress warns of its queue at every request.
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    # `verbale serve` imports create_app when it runs: the wrapped one, from here on.
    web_app.create_app = with_trivial(web_app.create_app)
    cli.main(["serve", *sys.argv[1:]], prog_name="verbale")


if __name__ == "__main__":
    main()
