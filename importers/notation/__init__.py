"""The hand-record notation (docs/notation.md): reader, writer, and validation by replay."""
