# Refusals: one sentence each, private, saying what to do next. Nothing was changed.

error-internal = Something went wrong on our side; please try again in a moment.
error-bad-arguments = I could not read those options; please pick them from the command's list.
error-channel-not-allowed = Games are not played in this channel on this server; ask a manager, or use an allowed channel.
error-guild-only = Games are played in a server channel; use this command there.
error-unknown-command = This command is not available any more; please reopen the command list.
error-unknown-control = This button no longer works; show the current board with { CMD("board") }.
error-unknown-variant = There is no such variant; please pick one from the list ({ CMD("variants") } shows them all).
error-no-game-here = You have no game in this channel; name one with the { $game } option, or see { CMD("games") }.
error-several-games = You have several games here ({ $list }); choose one with the { $game } option.
error-bots-cannot-play = Other bots cannot play; challenge a person or this bot itself, or leave the opponent out for an open challenge.
error-bot-missing-permissions = I cannot host a game in this channel: I need the { $count ->
    [one] permission { $permissions } here to post its boards. A server manager can grant it to me
   *[other] permissions { $permissions } here to post its boards. A server manager can grant them to me
}, or you can play in another channel.
error-bot-missing-permissions-board = I cannot post this game's board in this channel: I need the { $count ->
    [one] permission { $permissions } here; a server manager can grant it to me
   *[other] permissions { $permissions } here; a server manager can grant them to me
}.
# Added to the private answer of a move (or a resignation, an offer, an answer) made where the
# bot may no longer post: it was made, but its board and notices cannot follow.
unseen-here = I cannot post this game's messages here (I need the { $count ->
    [one] permission { $permissions }), so this may not show on its board or in its notices; a server manager can grant it to me
   *[other] permissions { $permissions }), so this may not show on its board or in its notices; a server manager can grant them to me
}.
permission-view-channel = **View Channel**
permission-send-messages = **Send Messages**
permission-send-messages-in-threads = **Send Messages in Threads**
permission-embed-links = **Embed Links**
permission-attach-files = **Attach Files**
error-no-piece-moves = No piece of yours can move from { $square }; pick another.

error-challenge-yourself = You cannot challenge yourself; name another player, or leave the opponent out for an open challenge.
error-too-many-challenges = { $count ->
    [one] You already have 1 open challenge; withdraw it { $withdraw }, or wait for an answer, before making another.
   *[other] You already have { $count } open challenges; withdraw one { $withdraw }, or wait for answers, before making another.
}
error-too-many-challenges-to = You have challenged { $player } { $count } times in the last day without a game; you may challenge them again { $when }.
error-too-many-challenges-today = You have made { $count } challenges in the last day that started no game; you may challenge again { $when }.
error-too-many-bot-games = { $count ->
    [one] You already have 1 game against the bot going; finish or resign it before starting another.
   *[other] You already have { $count } games against the bot going; finish or resign one before starting another.
}
error-no-such-challenge = There is no challenge #{ $id }; check the number, or start one with { CMD("challenge") }.
error-challenge-closed = Challenge #{ $id } can no longer be answered; start a new one with { CMD("challenge") }.
error-challenge-expired = Challenge #{ $id } has expired; start a new one with { CMD("challenge") }.
error-not-your-challenge = Challenge #{ $id } is meant for { $opponent }, not for you; start your own with { CMD("challenge") }.
error-own-challenge = You cannot accept your own challenge #{ $id }; wait for an opponent, or withdraw it { $withdraw }.
error-not-challenger = Only { $challenger }, who made challenge #{ $id }, can withdraw it.
error-decline-open = Challenge #{ $id } is open to anyone, so there is nothing to decline; just leave it.
error-no-such-game = There is no game #{ $id }; see your games with { CMD("games") }.
error-not-a-player = Game #{ $id } is not yours: only its two players can do that.
error-game-over = Game #{ $id } is over; start a new one with { CMD("challenge") }.
error-not-your-turn = It is not your turn: { $player } to move.
error-stale-board = The board has changed since; play on the current board ({ CMD("board") } shows it).
error-no-draw-offer = There is no draw offer in game #{ $id }; offer one with { CMD("draw") }.
error-no-takeback-request = There is no takeback request in game #{ $id }; ask for one with { CMD("takeback") }.
error-already-offered-draw = You already offered a draw in game #{ $id }; wait for your opponent's answer.
error-already-asked-takeback = You already asked for a takeback in game #{ $id }; wait for your opponent's answer.
# After an offer was declined or withdrawn, the same player may make it again once a move is played.
error-draw-offered-this-move = You already offered a draw in game #{ $id } since the last move; you can offer again after the next move.
error-takeback-asked-this-move = You already asked for a takeback in game #{ $id } since the last move; you can ask again after the next move.
error-takeback-pending = Your opponent asked first: answer their takeback request in game #{ $id }.
error-nothing-to-take-back = There is no move of yours to take back in game #{ $id }.
error-claim-timed = Game #{ $id } has a clock, so it ends on time by itself; there is nothing to claim.
error-claim-on-your-move = It is your move in game #{ $id }; only the player waiting for a move can claim the win.
error-claim-too-soon = In game #{ $id }, { $player } got the move { $since }; you can claim the win { $when } if they still have not moved.
error-claim-too-soon-aborts = In game #{ $id }, { $player } got the move { $since }; you can end the game { $when } if they still have not moved (without a result, as it has not reached the second move).
error-claim-after-outage = The win in game #{ $id } cannot be claimed yet: the bot was out of reach, so { $player } could not move, and they get time to move once it is back. You can claim the win { $when } if they still have not moved.
error-claim-after-outage-aborts = Game #{ $id } cannot be ended yet: the bot was out of reach, so { $player } could not move, and they get time to move once it is back. You can end the game { $when } if they still have not moved (without a result, as it has not reached the second move).
error-claim-from-bot = The bot is to move in game #{ $id } and moves by itself; nobody wins a game by the bot's delay.
error-channel-gone = Game #{ $id }'s channel was deleted; use { CMD("board") } in a channel of its server to go on there.
error-paused = Game #{ $id } is paused while the bot is not in its server; it goes on when the bot is back.
error-claim-paused = Game #{ $id } is paused while the bot is not in its server, and that time counts against nobody; if the bot is still away { $when }, either player may then end the game without a result.
error-own-draw-offer = You cannot answer your own draw offer in game #{ $id }; wait for your opponent, or withdraw it { $withdraw }.
error-own-takeback-request = You cannot answer your own takeback request in game #{ $id }; wait for your opponent, or withdraw it { $withdraw }.
# How to do something, for the sentences above: a button by its label, a command as the reader's
# front end spells it.
via-button = with the { $label } button
via-command = with { $command }
via-card-button = with the { $label } button on its card
error-too-many-channels = A server may allow at most { $max } channels for games; disallow one first with { $disallow_channel }, or allow every channel with { $all_channels }.

## The rules engine's refusals

error-not-a-square = "{ $input }" is not a square: write a file letter and a rank number, like e4.
error-not-a-move = "{ $input }" is not a move: { $reason }; write moves like e1-e3.
move-syntax-too-long = it is far too long
move-syntax-empty = it is empty
move-syntax-no-start = it does not start with a square
move-syntax-cyrillic = squares are written with Latin letters
move-syntax-no-destination = the destination square is missing or malformed
move-syntax-bad-capture = a captured square is malformed
move-syntax-trailing-text = there is something after the move
move-syntax-captures-on-plain-move = a plain move has no capture suffix
error-not-a-position = "{ $input }" is not a position in OTN: { $reason }.
error-bad-rules-string = The OTN rules string cannot be read: { $reason }.
error-bad-record-line = The OTN game record cannot be read at line { $line }: { $reason }.
error-off-board = { $square } is off the board: this one is { $size }×{ $size }.
error-beyond-any-board = { $square } is off the board: no board is larger than { $max }×{ $max }.
error-no-legal-move-game-over = The game is over.
error-no-piece = { $notation }: there is no piece on { $square }.
error-not-your-piece = { $notation }: the piece on { $square } belongs to the { $owner }, and it is the { $to_move }' turn.
error-null-move = { $notation }: a piece must move to another square.
error-not-straight = { $notation }: pieces move along a rank or a file, like a rook.
error-blocked = { $notation }: the way is blocked by the piece on { $square }.
error-passes-throne = { $notation }: only the king may pass through the throne.
error-stops-on-throne = { $notation }: only the king may stop on the throne.
error-stops-on-corner = { $notation }: only the king may stop on a corner.
error-capture-mismatch = { $notation }: the move captures { $actual }, not { $claimed }.
nothing = nothing
error-illegal-hint = { $why } See the legal moves with { CMD("board") } or the move suggestions.
error-illegal-hint-console = { $why } See the legal moves with { CMD("moves") } or { CMD("board") }.

error-unknown-variant-named = "{ $input }" is not a variant; the variants are: { $known }.
error-unknown-option = { $variant } has no option "{ $key }"; { $options ->
    [none] it has no options.
   *[other] its options are: { $options }.
}
error-bad-option-value = Option { $key } of { $variant } takes { $expected }, not "{ $value }".
or = or
error-contradictory-options = The options { $first } and { $second } contradict each other; give one of them.
error-option-syntax = "{ $input }" is not an option; write KEY=VALUE, like escape=edge.
error-bad-size = A board must be an odd size from { $min } to { $max }, not { $size }.
error-bad-start = The starting position does not fit the rules; pick a preset from { CMD("variants") }, or change its options.
error-unsupported-rules = These rules cannot be played here; pick a preset from { CMD("variants") }, or change its options.

error-clock-unreadable = "{ $input }" is not a clock; write a time per move such as 1d, 3d, 12h, 90m or 1d12h (from 1 minute to 30 days), optionally with a reserve such as 3d+7d, or none.
error-clock-no-time = A clock needs some time per move; write one such as 1d, 3d or 3d+7d, or none.
error-clock-too-short = { $duration } per move is too short: a clock gives from 1 minute to 30 days per move, such as 1d, 3d or 3d+7d.
error-clock-too-long = { $duration } per move is too long: a clock gives from 1 minute to 30 days per move, such as 1d, 3d or 3d+7d.
error-clock-no-reserve = A reserve of { $duration } is too short: give at least 1 minute, such as 3d+7d, or leave the reserve out.
error-clock-reserve-too-long = A reserve of { $duration } is too long: it may save up at most 60 days; write a smaller one, such as 3d+7d.

error-record-too-long = The record has { $plies } plies; games of at most { $max } plies can be imported.
error-storage-disk-full = The server's disk is full, so nothing was saved; try again once the bot's operator has freed space.
error-storage-io = The server could not write to its disk, so nothing was saved; try again later, and tell the bot's operator if it goes on.
error-storage-busy = The server's database is busy, so nothing was saved; try again in a moment.
error-storage-connection-lost = The bot lost its connection to the database; try again in a moment, and if you were making a move or a choice, look at the board first, as it may already have been saved.
error-record-unplayable = The record's rules cannot be played: { $reason }.
error-record-move = Ply { $ply } of the record cannot be played ({ $why }).
error-record-move-after-end = Ply { $ply } of the record comes after the end of the game.
error-record-contradictory-result = The record's result tag names a different winner from its moves; correct the tag or leave it out.
error-record-no-result = The record does not say how the game ended; add a tag before the moves: [result:1] if the attackers won, [result:-1] if the defenders won, [result:0] for a draw.
error-record-contradictory-termination = The record's termination tag names an ending on the board that its moves do not reach; correct the tag or leave it out.
error-record-end-after-finish = The record's moves already end the game on the board, yet it then says the side to move resigned or ran out of time; remove the --- or timeout after the last move.
error-record-duplicate-tag = The record gives the { $key } tag two different values (the second at line { $line }); keep the right one and remove the other.
error-bad-level = There is no bot level { $level }; choose a level from 1 to 5.
error-level-with-person = A level is for games against the bot; leave the opponent out, or name the bot itself.
error-bot-refuses-takeback = The bot takes no moves back in rated games; to practise with takebacks, start an unrated game with { $unrated }.
error-hint-not-against-bot = Hints are only given in unrated games against the bot; start one with { $level } { $unrated }.
error-hint-in-rated-game = Hints are not given in rated games; start a game against the bot with { $unrated } to get them.
error-hint-pending = The engine is still working out your last hint; it comes in a moment.
error-the-bot-has-levels = The bot plays at five levels, each with its own rating and games: see them with { $leaderboard }.
error-unrated-with-person = Only games against the bot can be unrated; leave { $unrated } out, or add a level, like { $level }, to play the bot.
