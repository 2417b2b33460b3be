"""`verbale verify`: every stream of the store re-checked from its stored bytes up, by one route
(docs/architecture.md): `streams.verify_store` and `verify_stream`, `jobs.verify_parallel` for
`--jobs N`."""
