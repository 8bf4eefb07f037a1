"""The shared cache: its backends (Redis, with the database's table while Redis cannot be reached),
the entries polls trust and how they earn it (kept), pages kept whole (pages), sessions read from
Redis (sessions), and the one rule of what a write forgets (rule.announce)."""
