# Words drawn on the summary, profile and leaderboard cards.

card-player = Player { $n }
card-rated = { $variant } · rated
card-moves = { $moves ->
    [one] { $moves } move
   *[other] { $moves } moves
} ({ $plies ->
    [one] { $plies } ply
   *[other] { $plies } plies
})
card-pieces = Pieces left
card-king-distance = King's distance to escape
card-evaluation = Evaluation
card-ply = ply
card-attackers = Attackers
card-defenders = Defenders
card-in-progress = In progress
card-result = { $result } · { $why }
card-win-attackers = Attackers win
card-win-defenders = Defenders win
card-draw = Draw
card-no-result = No result
card-why-king-captured = the king was captured
card-why-king-escaped = the king escaped
card-why-exit-fort = exit fort
card-why-encirclement = encirclement
card-why-repetition = repetition
card-why-no-moves = no legal move
card-why-resignation = resignation
card-why-agreement = agreement
card-why-time = time
card-why-abandoned = abandoned
card-why-aborted = aborted
card-why-bot-removed = the bot was removed
card-profile-global = { $games ->
    [one] { $games } rated game
   *[other] { $games } rated games
} · all servers
card-profile-server = { $games ->
    [one] { $games } rated game
   *[other] { $games } rated games
} · this server
card-rating = Rating
card-games = games
card-by-side = Results by side
card-results = Results
card-as-attackers = As the attackers
card-as-defenders = As the defenders
card-against-bot = Against the bot
card-wins = won
card-losses = lost
card-draws = drawn
card-most-played = Most played
card-streak-win = Current streak: { $n ->
    [one] { $n } win
   *[other] { $n } wins
} in a row
card-streak-loss = Current streak: { $n ->
    [one] { $n } loss
   *[other] { $n } losses
} in a row
card-streak-draw = Current streak: { $n ->
    [one] { $n } draw
   *[other] { $n } draws
} in a row
card-scope-global = all servers
card-scope-server = this server
card-leaderboard = Leaderboard
card-column-rating = Rating
card-column-games = Games
card-column-trend = Trend
