"""The event store of verbale: the eventsourcing library with a per-stream hash chain."""
