"""The demo store shared by the tests of the read-model commands (tests/replay_web/demo.py)."""

from tests.replay_web.demo import demo

__all__ = ["demo"]
