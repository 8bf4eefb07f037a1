"""The pages, by feature: games, rounds, players, scorebooks, live, transfer, account (offline's
service worker and manifest are in scorekeeper.http.offline)."""
