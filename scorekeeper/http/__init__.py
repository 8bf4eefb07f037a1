"""The HTTP side of the app: error pages and answers, request middleware."""
