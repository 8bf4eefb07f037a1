"""What pages and the API show, read from the database: the score sheet, figures and the
leaderboard, a game's history, charts, what a member's page follows, the live view."""
