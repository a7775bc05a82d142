# Summaries, leaderboards, profiles, rules and the captions of board pictures.

## The summary of a game

summary-title-running = Game #{ $id } — in progress
summary-title-draw = Game #{ $id } — draw
summary-title-aborted = Game #{ $id } — no result
summary-title-won = Game #{ $id } — { $player } wins with the { $side ->
    [attackers] attackers
   *[defenders] defenders
}
summary-players = Attackers: { $attackers } · Defenders: { $defenders }
summary-variant = Variant: { $variant }{ $options }
summary-moves = Moves: { $moves } ({ $plies ->
    [one] 1 ply
   *[other] { $plies } plies
})
summary-captured = Pieces captured: { $attackers } by the attackers, { $defenders } by the defenders
summary-duration = Duration: { $duration }
summary-started = Started { $when }
summary-rating-global = Rating (global): { $changes }
summary-rating-server = Rating (this server): { $changes }
# A game against the bot is rated in a pool of its own: its levels and the people who play them.
summary-rating-bot-global = Rating against the bot (global): { $changes }
summary-rating-bot-server = Rating against the bot (this server): { $changes }
# A resignation or an agreed draw before each side had moved: a result, but no rating.
summary-too-soon-to-rate = Not rated: the game ended before each side had moved.
summary-imported = Imported game: not rated.
# The engine's review of a finished game: the ply where its evaluation swung most against the
# side that moved, the move played there (`$played`, e.g. h6-h8) and the engine's better move.
summary-turning-point = Turning point: ply { $ply }, { $side ->
    [attackers] the attackers played
   *[defenders] the defenders played
} { $played }; the engine preferred { $better }.
summary-no-turning-point = Engine review: no move gave away the advantage.
summary-review-pending = Engine review: in progress…
player-with-side = { $player } ({ $side })
# The bot with its side, in one pair of brackets: "Tafl bot (level 2, attackers)".
bot-player-with-side = Tafl bot (level { $level }, { $side })

conclusion-to-move = { $player } to move.
conclusion-king-escaped = The king escaped at { $square }.
conclusion-king-captured = The king was captured at { $square }.
conclusion-exit-fort = The king built an exit fort at { $square }.
conclusion-encirclement = The attackers encircled the defenders.
conclusion-repetition-draw = Drawn by repetition: the same position occurred three times.
conclusion-repetition-loss = The same position occurred three times; the { $side } lose by repetition.
conclusion-no-moves = The { $side } had no legal move.
conclusion-resignation = { $player } resigned.
conclusion-resignation-unknown = The game ended by resignation.
conclusion-time = { $player } ran out of time.
conclusion-time-unknown = The game ended on time.
conclusion-abandoned = { $player } had not moved for { $days ->
    [one] a day
   *[other] { $days } days
}, and the win was claimed.
conclusion-abandoned-unknown = The game was abandoned, and the win claimed.
conclusion-agreement = Drawn by agreement.
conclusion-aborted = Aborted before each side had moved: no result, no rating.
conclusion-bot-removed = Ended by a player two weeks after the bot was removed from the game's server: no result, no rating.

duration-short = { $days ->
    [0] { $hours ->
        [0] { $minutes ->
            [0] under a minute
           *[other] { $minutes } min
        }
       *[other] { $hours } h{ $minutes ->
            [0] {""}
           *[other] { " " }{ $minutes } min
        }
    }
   *[other] { $days } d{ $hours ->
        [0] {""}
       *[other] { " " }{ $hours } h
    }
}

## Leaderboards and profiles

leaderboard-title = Leaderboard: { $family } ({ $scope })
scope-global = global
scope-server = this server
no-rated-games = No rated games yet.
leaderboard-line = { $rank }. { $player } — { $rating } · games: { $games }
leaderboard-provisional = ? — a provisional rating (few rated games, or none for a long time), ranked after the established ones.
profile-title = { $player } ({ $scope })
profile-rating = { $family }: { $rating } · games: { $games }
profile-record-attackers = As the attackers: { $wins } won, { $losses } lost, { $draws } drawn
profile-record-defenders = As the defenders: { $wins } won, { $losses } lost, { $draws } drawn
profile-record-bot = Against the bot: { $wins } won, { $losses } lost, { $draws } drawn
profile-streak-win = Current streak: { $n ->
    [one] 1 win in a row
   *[other] { $n } wins in a row
}
profile-streak-loss = Current streak: { $n ->
    [one] 1 loss in a row
   *[other] { $n } losses in a row
}
profile-streak-draw = Current streak: { $n ->
    [one] 1 draw in a row
   *[other] { $n } draws in a row
}

## Captions of board pictures (drawn by the renderer, in the caller's words)

caption-move = Move { $number } · { $status }
caption-to-move-attackers = Attackers to move
caption-to-move-defenders = Defenders to move
caption-start = Start · Attackers to move
caption-start-defenders = Start · Defenders to move
caption-result = { $result } · { $why }
caption-attackers-win = Attackers win
caption-defenders-win = Defenders win
caption-draw = Draw
caption-no-result = No result
caption-why-king-captured = king captured
caption-why-king-escaped = king escaped
caption-why-exit-fort = exit fort
caption-why-encirclement = encircled
caption-why-repetition = repetition
caption-why-no-moves = no legal move
caption-why-resignation = resignation
caption-why-agreement = agreement
caption-why-time = time
caption-why-abandoned = abandoned
caption-why-aborted = aborted
caption-why-bot-removed = the bot was removed

## Variants and rules

variants-title = Tafl variants
variant-line = `{ $id }` — { $name }: { $rules }
rules-otn = OTN rules
rule-escape-corner = the king escapes to a corner
rule-escape-edge = the king escapes to the edge
rule-capture-strong = king captured on four sides
rule-capture-strong-near-throne = king captured by four on the throne, three beside it, two elsewhere
rule-capture-middleweight = king captured when surrounded (edge, empty throne and corners count)
rule-capture-weak = king captured by two, like any piece
rule-king-armed = armed king
rule-king-unarmed = unarmed king
rule-shieldwall = shieldwall
rule-exit-fort = exit fort
rule-encirclement = encirclement

rules-goal-corner = **Goal.** The defenders win when the king reaches a corner square; the attackers win by capturing the king{ $encirclement ->
    [yes] { " " }or by surrounding every defender (encirclement).
   *[no] .
}
rules-goal-edge = **Goal.** The defenders win when the king reaches any edge square; the attackers win by capturing the king{ $encirclement ->
    [yes] { " " }or by surrounding every defender (encirclement).
   *[no] .
}
rules-captures = **Captures.** Pieces move like rooks; a piece is captured when sandwiched between two enemies on a line.
rules-corners-hostile = The corner squares are hostile: they capture like an enemy piece.
rules-no-throne = **Throne.** None: the centre is an ordinary square.
rules-throne = **Throne.** { $pass }; { $hostile }.
rules-throne-king-only = Only the king may stop on it or pass through it
rules-throne-everyone = Only the king may stop on it; any piece may pass over it while it is empty
rules-throne-hostile-both = when empty it is hostile to both sides
rules-throne-hostile-attackers = when empty it is hostile to the attackers only
rules-throne-hostile-defenders = when empty it is hostile to the defenders only
rules-throne-hostile-none = it never captures
rules-king = **King.** { $armed }; { $captured }.
rules-king-armed = He takes part in captures
rules-king-unarmed = He does not capture
rules-king-strong = he is captured only when surrounded on all four sides (by attackers, or the throne)
rules-king-strong-no-throne = he is captured only when surrounded on all four sides by attackers
rules-king-strong-near-throne = on the throne four attackers must surround him, beside it three and the throne; elsewhere two attackers capture him (or one and a corner)
rules-king-middleweight = he is captured when surrounded on every side; the board's edge, the empty throne and the corners count as sides
# The same, on a board without corner squares (the king escapes to the edge).
rules-king-strong-near-throne-no-corners = on the throne four attackers must surround him, beside it three and the throne; elsewhere two attackers capture him
rules-king-middleweight-no-corners = he is captured when surrounded on every side; the board's edge and the empty throne count as sides
rules-king-weak = two attackers capture him like any other piece, wherever he stands
rules-shieldwall = **Shieldwall.** A row of pieces along the edge, bracketed at both ends and blocked in front, is captured at once.
rules-shieldwall-corners = **Shieldwall.** A row of pieces along the edge, bracketed at both ends and blocked in front, is captured at once (a corner may close the row).
rules-exit-fort = **Exit fort.** The defenders also win when the king, on the edge and able to move, sits in a fortress that can never be broken.
rules-repetition-draw = **Repetition.** The third time a position occurs, the game is drawn.
rules-repetition-mover-loses = **Repetition.** Whoever makes a position occur for the third time loses.
rules-repetition-mover-wins = **Repetition.** Whoever makes a position occur for the third time wins.
rules-repetition-defenders-lose = **Repetition.** When a position occurs for the third time, the defenders lose.
rules-repetition-ignore = **Repetition.** Positions may repeat freely.
