"""`verbale serve`: the replay viewer (replay_web/web) over the store, served by waitress, a
production WSGI server (pure Python, threads; Flask's own server is for development only).

Before serving, the read models are brought up to date with the store (the same catch-up as
the other reading commands); the viewer then keeps them current after each ruling it records.
The URL is printed once the socket listens, so a script can wait for that line.
`--behind-proxy`: served through a TLS proxy (replay_web/web/app.py `_behind_proxy`,
docs/viewer.md "Behind a TLS proxy").
"""

from __future__ import annotations

import click

from replay_web.cli import cli, database_option
from replay_web.i18n import _


@cli.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (0.0.0.0: every interface).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="The port to listen on (0: any free port).")
@click.option("--threads", default=8, show_default=True, type=click.IntRange(1, 64),
              help="Requests served at once.")
@click.option("--behind-proxy", is_flag=True, envvar="VERBALE_BEHIND_PROXY",
              help="Served through a TLS proxy (nginx, caddy): trust its X-Forwarded-For, "
                   "-Proto and -Host, make every cookie Secure, send HSTS (also "
                   "$VERBALE_BEHIND_PROXY=1).")
@click.option("--proxy-hops", default=1, show_default=True, type=click.IntRange(1, 10),
              envvar="VERBALE_PROXY_HOPS",
              help="With --behind-proxy: how many proxies stand in front, each adding its "
                   "X-Forwarded-* entry (also $VERBALE_PROXY_HOPS).")
@database_option
def serve(host: str, port: int, threads: int, behind_proxy: bool, proxy_hops: int,
          database: str | None) -> None:
    """Serve the replay viewer: the match list, each match step by step as a seat, the public
    or the arbiter saw it, the printable verbale and the JSON API."""
    from waitress.server import create_server

    from replay_web.read_view import open_read_models
    from replay_web.web.app import create_app

    with open_read_models(database):
        pass   # caught up (or said how far behind) before the first request
    app = create_app(database, config={"VERBALE_BEHIND_PROXY": behind_proxy,
                                       "VERBALE_PROXY_HOPS": proxy_hops})
    # waitress drops every X-Forwarded-* header it is not told to trust; behind the proxy,
    # ProxyFix (create_app) reads them, trusting the last --proxy-hops entries only.
    server = create_server(app, host=host, port=port, threads=threads, ident="verbale",
                           clear_untrusted_proxy_headers=not behind_proxy)
    bound_port = server.effective_port
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
    click.echo(_("verbale viewer: http://{host}:{port}/ (Ctrl-C stops it)").format(
        host=f"[{shown}]" if ":" in shown else shown, port=bound_port), err=False)
    try:
        server.run()
    finally:
        server.close()
