"""Plain functions on validated data. They know the store, not the request."""
