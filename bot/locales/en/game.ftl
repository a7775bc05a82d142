# Games, challenges and notices: what players read on Discord and in the console.
# Variables: $id is a game or challenge number; $by, $player, $who, $opponent are names or
# mentions, already marked up by the front end; $when is a timestamp; $variant a variant's name.

language-name = English

## Sides and variants

side-attackers = attackers
side-defenders = defenders
side-heading-attackers = ⚔️ Attackers
side-heading-defenders = 🛡️ Defenders
side-plain-attackers = Attackers
side-plain-defenders = Defenders
side-choice-attackers = attackers
side-choice-defenders = defenders
side-choice-random = decided at random

variant-sea-battle-9 = Sea Battle 9×9
variant-sea-battle-11 = Sea Battle 11×11
variant-sea-battle-13 = Sea Battle 13×13
variant-sea-battle-15 = Sea Battle 15×15
variant-tablut = Tablut
variant-brandubh = Brandubh
variant-hnefatafl = Hnefatafl
variant-historical-7 = Historical 7×7
variant-historical-9 = Historical 9×9
variant-historical-11 = Historical 11×11
variant-copenhagen = Copenhagen Hnefatafl
variant-fetlar = Fetlar Hnefatafl
variant-custom = custom rules

family-sea-battle = Sea Battle
family-seed-001 = Tablut · Brandubh · Hnefatafl
family-historical = Historical tafl
family-copenhagen = Copenhagen Hnefatafl
family-fetlar = Fetlar Hnefatafl

game-number = game #{ $id }
short-number = #{ $id }
thread-versus = vs

## The board message

board-title = { $variant } · game #{ $id }
board-to-move = Move { $number }: { $player } to move
board-last-move = Last move: `{ $notation }`
board-captured = Captured: { $attackers } by the attackers, { $defenders } by the defenders
board-clock = ⏱️ { $clock }
board-reserves = Reserve: { $attackers } for the attackers, { $defenders } for the defenders
# Against the bot, the person's reserve alone: the bot's turns have no clock.
board-reserve-attackers = Reserve: { $reserve } for the attackers
board-reserve-defenders = Reserve: { $reserve } for the defenders
board-deadline = ⏰ Time runs out { $when }
board-offer-draw = 🤝 { $by } offers a draw
board-offer-takeback = ↩️ { $by } asks to take back { $plies ->
    [1] their last move
   *[other] their last move and the reply to it
}
piece-option = { $square } ({ $moves ->
    [one] 1 move
   *[other] { $moves } moves
})
move-label-captures = { $notation } x { $captures }
move-effect-king-escaped = escape!
move-effect-king-captured = captures the king!
move-effect-exit-fort = exit fort!
move-effect-encirclement = encircles!
move-effect-no-moves = leaves no move!
move-effect-repetition-wins = repetition: wins!
move-effect-repetition-draws = repetition: draw
move-effect-repetition-loses = repetition: loses!
move-effect-threat = threat

result-attackers = **Attackers win** — { $player }: { $how }
result-defenders = **Defenders win** — { $player }: { $how }
result-draw = **Draw**: { $how }
result-aborted = **No result**: { $how }
how-king-escaped = the king escaped at { $square }
how-king-captured = the king was captured at { $square }
how-encirclement = the defenders are encircled
how-exit-fort = the king's exit fort
how-repetition = repetition
how-no-moves = no legal moves left
how-resignation = { $player } resigned
how-time = { $player } ran out of time
how-abandoned = { $player } left the game unplayed
how-aborted = aborted before the second move
how-bot-removed = ended by a player two weeks after the bot was removed from the game's server
how-agreement = by agreement

## Buttons and menus

label-accept = Accept
label-decline = Decline
label-pick-piece = Move: pick a piece
label-pick-destination = { $square }: where to?
label-back = Other piece
label-resign = Resign
label-confirm-resign = Yes, resign
label-offer-draw = Offer draw
label-accept-draw = Accept draw
label-decline-draw = Decline draw
label-takeback = Take back
label-accept-takeback = Allow takeback
label-decline-takeback = Refuse takeback
label-more-pieces = More pieces…
label-more-moves = More moves…

## Notices

your-move-after = { $player }, your move in game #{ $id } ({ $variant }): `{ $notation }` was played.
your-move-after-takeback = { $player }, your move in game #{ $id } ({ $variant }) after the takeback.
your-move-first = { $player }, your move: game #{ $id } ({ $variant }) has begun.
played = You played `{ $notation }` in game #{ $id }.
offer-draw = { $player }, { $by } offers a draw in game #{ $id }: accept or decline on the board.
offer-takeback = { $player }, { $by } asks to take back { $plies ->
    [1] their last move
   *[other] their last move and your reply to it
} in game #{ $id }: answer on the board.
# An offer's notice posted late, after the offer was answered or withdrawn: nothing to answer.
offer-draw-made = { $by } offers a draw in game #{ $id }.
offer-takeback-made = { $by } asks to take back a move in game #{ $id }.
offer-draw-withdrawn = { $by } withdraws the draw offer in game #{ $id }.
offer-takeback-withdrawn = { $by } withdraws the takeback request in game #{ $id }.
offer-draw-declined = { $by } declines the draw in game #{ $id }.
offer-takeback-declined = { $by } refuses the takeback in game #{ $id }.
offer-takeback-accepted = { $by } agrees: { $plies ->
    [one] 1 ply taken back
   *[other] { $plies } plies taken back
} in game #{ $id }.
offer-draw-accepted = { $by } accepts the draw in game #{ $id }.
# The same events as the caller's private answer, in their own words.
answer-draw-offered = You offered a draw in game #{ $id }; { $player } answers on the board.
answer-takeback-asked = You asked to take back { $plies ->
    [1] your last move
   *[other] your last move and { $player }'s reply to it
} in game #{ $id }; { $player } answers on the board.
answer-draw-withdrawn = You withdrew your draw offer in game #{ $id }.
answer-takeback-withdrawn = You withdrew your takeback request in game #{ $id }.
answer-draw-declined = You declined the draw in game #{ $id }.
answer-takeback-declined = You refused the takeback in game #{ $id }.
answer-takeback-accepted = You agreed: { $plies ->
    [one] 1 ply
   *[other] { $plies } plies
} taken back in game #{ $id }.
answer-draw-accepted = You accepted the draw in game #{ $id }.
confirm-resign = Resign game #{ $id }? Your opponent wins; this cannot be undone.
resigned = You resigned game #{ $id }.
resign-stale = Game #{ $id } has moved on since you were asked, so you have not resigned; to resign now, press { $resign } on the current board.
claimed = You claimed game #{ $id }: { $player } had not moved for { $days ->
    [one] a day
   *[other] { $days } days
}, and the win is yours.
claimed-aborted = Game #{ $id } is aborted: { $player } had not moved for { $days ->
    [one] a day
   *[other] { $days } days
}, and the game ended before the second move, so it has no result and no rating.
claimed-bot-removed = Game #{ $id } is over: the bot has been away from its server for { $days ->
    [one] a day
   *[other] { $days } days
} or more, so the game ends without a result and without a rating.

## Challenges

challenge-title = Challenge #{ $id }: { $variant }
challenge-to = { $by } challenges { $opponent } to a game of { $variant }.
challenge-open = { $by } is looking for an opponent in { $variant }: anyone may accept.
challenge-side = Challenger's side: { $side }
challenge-options = Options: `{ $options }`
challenge-expires = The challenge expires { $when }.
challenge-declined = Challenge #{ $id } declined by { $by }.
challenge-cancelled = Challenge #{ $id } withdrawn by { $by }.
challenge-expired = Challenge #{ $id } expired unanswered.
challenge-accepted = Challenge #{ $id } accepted.

## Clocks

clock-per-move = Time per move: { $per_move }
clock-with-reserve = Time per move: { $per_move }, unused time saved up to { $cap }
clock-untimed = No clock: take all the time you need
days = { $n ->
    [one] 1 day
   *[other] { $n } days
}
hours = { $n ->
    [one] 1 hour
   *[other] { $n } hours
}
minutes = { $n ->
    [one] 1 minute
   *[other] { $n } minutes
}
seconds = { $n ->
    [one] 1 second
   *[other] { $n } seconds
}

## Game lists, reminders and the digest

game-line = [#{ $id }]({ $link }) { $variant } vs { $opponent } · { $side } · move { $number } · { $state }{ $clock }
game-line-plain = #{ $id } { $variant } vs { $opponent } · { $side } · move { $number } · { $state }{ $clock }
game-line-clock = { " " }· ⏰ { $when }
game-line-claimable = { " " }· left unplayed for two weeks: you may claim it with { $claim }
game-line-paused = { " " }· ⏸ paused: the bot is no longer in its server
game-line-paused-may-end = { " " }· ⏸ paused: the bot is no longer in its server; either player may end it without a result with { $claim }
game-line-channel-gone = { " " }· channel deleted: go on in another channel with { $board }
game-state-finished = finished
game-state-your-move = **your move**
game-state-their-move = their move
game-state-player-to-move = **{ $player } to move**
game-state-opponent-to-move = opponent to move
game-choice = #{ $id } { $variant } vs { $opponent } · { $state }
game-choice-your-move = your move
game-choice-their-move = their move
games-title = { $count ->
    [one] 1 game in progress
   *[other] { $count } games in progress
}
games-more = { $count ->
    [one] …and 1 more game
   *[other] …and { $count } more games
}
no-games = You have no games in progress. Start one with { CMD("challenge") }.
no-games-other = { $player } has no games in progress.
reminder-halfway = { $player }, it is your move in game #{ $id } ({ $variant }); half your time is gone, and it runs out { $when }.
reminder-last = { $player }, last warning: your time in game #{ $id } ({ $variant }) runs out { $when }, and then you lose the game.
reminder-last-aborts = { $player }, last warning: your time in game #{ $id } ({ $variant }) runs out { $when }, and then the game is called off without a result, as it has not reached the second move.
reminder-claim = { $player }, it is your move in game #{ $id } ({ $variant }), which has no clock; if you do not move, { $opponent } may claim the win { $when }.
reminder-claim-aborts = { $player }, it is your move in game #{ $id } ({ $variant }), which has no clock; if you do not move, { $opponent } may end it without a result { $when }.
digest-title = { $count ->
    [one] Your move in 1 game
   *[other] Your move in { $count } games
}
paused-games-title = { $count ->
    [one] A paused game may be ended
   *[other] { $count } paused games may be ended
}
paused-games-intro = The bot was removed from the server of { $count ->
    [one] this game
   *[other] these games
} { $when }, and has not been added back. The time away counts against nobody, and if the bot is added back, play goes on where it stopped.
claimable = { $player }, { $absent } has not moved in game #{ $id } ({ $variant }) for { $days ->
    [one] a day
   *[other] { $days } days
}: you may claim the win with { $claim }, or keep waiting.
claimable-aborts = { $player }, { $absent } has not moved in game #{ $id } ({ $variant }) for { $days ->
    [one] a day
   *[other] { $days } days
}: you may end it with { $claim } (without a result, as it has not reached the second move), or keep waiting.
board-posted = The board of game #{ $id } is posted below; its old message loses its buttons.
board-posted-there = The board of game #{ $id } is posted in its { $thread ->
    [yes] thread
   *[no] channel
} { $channel }; its old message loses its buttons.
board-on-its-way-there = You already asked for a new board of game #{ $id }; it is on its way to its { $thread ->
    [yes] thread
   *[no] channel
} { $channel }.
board-on-its-way = You already asked for a new board of game #{ $id }; it is on its way below.
board-just-posted = The board of game #{ $id } was posted anew a moment ago: { $link }
board-moved = Game #{ $id } now goes on in this channel; its board is posted below.
channel-gone = Game #{ $id }'s channel was deleted; use { CMD("board") } in another channel to go on there.
export-caption = Game #{ $id } as an OTN record, the notation OpenTafl reads.

# The bot as a player (its levels are named, never mentioned).
bot-player = Tafl bot (level { $level })
family-against-bot = { $family } · against the bot
bot-game-started = Game #{ $id } against { $bot } has started.
hint = The engine would play `{ $notation }` in game #{ $id }; it is drawn on the board.
