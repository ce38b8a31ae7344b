"""Storage: SQLAlchemy 2 models and the async repository."""
