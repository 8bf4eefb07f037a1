"""The API's views, by feature: players, games, rounds, reports, scorebooks, live, transfer."""
