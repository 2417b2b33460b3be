"""The replay viewer: a Flask app over the record (app.py builds it)."""
