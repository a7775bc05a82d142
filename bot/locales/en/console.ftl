# The console (`tafl-bot local`). Console commands keep their English names (/move, /board…) in
# every language: they are what the player types. $path values are file names.

console-help =
    Commands (the same as in Discord; people are @names, each with a stable id in the database):
      /challenge [@user] [variant] [side:attackers|defenders|random] [clock:3d|3d+7d|none] [key=value…]
                              challenge someone, or anyone without a name (default variant copenhagen)
      /challenge @ai level:1..5 [rated:false] [variant] [side:…] [clock:…]
                              play the engine at once; it answers each of your moves
      /accept [id]  /decline [id]  /cancel [id]
                              answer a challenge (the latest one when no id is given)
      /challenges             the open challenges you made or may answer
      /move e1-e3 [game:N]    play a move (in your latest game unless game:N is given)
      /moves [prefix]         your legal moves, labelled as the suggestions show them
      /board [N]              show a game
      /hint [N]               the engine's move in your unrated game against it, on a board image
      /games [@user] [all]    your (or someone's) games; all includes finished ones
      /resign [N]             resign a game (your latest one without N)
      /claim [N]              win an untimed game your opponent left unplayed for two weeks
      /draw offer|accept|decline [N]
      /takeback request|accept|decline [N]
                              offer or answer a draw or a takeback (in your latest game without N)
      /export [N]             print the OTN record of a game
      /summary [N]            the summary of a game (and its GIF beside the boards)
      /leaderboard [variant] [against_bot:true]
                              the best players of a variant's family (default copenhagen),
                              or of its games against the bot
      /profile [@user]        ratings, results by side and current streak
      /import FILE [@attackers] [@defenders]
                              import a finished game from an OTN record file
      /variants               the presets, a line each
      /rules VARIANT          a preset's rules in a few lines, and its start drawn
      /tick                   run the scheduler now: reminders, time-outs, claims, expired challenges
      /wait 2h                let time pass (1d, 90m, 1d12h…), running the scheduler as a bot would
      /as @bob                switch to playing as @bob (you start as @you)
      as @bob /accept         run one command as @bob
      /help  /quit
console-welcome = tafl-bot local: database { $path }. Type /help for the commands.
console-error = error: { $message }
console-bye = bye
console-line-too-long = a command line is longer than 64 KB, the most the console reads; the session ends
console-db-unavailable = cannot open the database { $name }: { $error }
console-db-unencoded-password = cannot open the database { $name }: its password has a '{ $character }', which a URL reads as the end of the server's name; write the password percent-encoded, with / as %2F, ? as %3F, # as %23 and @ as %40
console-db-no-folder = cannot open the database { $name }: its folder { $folder } does not exist; create it, or name a file in a folder that does
console-db-is-folder = cannot open the database { $name }: it is a folder, not a database file; name a file in it, such as { $file }
console-db-no-file = cannot open the database { $name }: it names no file, and the console keeps its games in one, to go on with them next time; name a file, such as tafl-local.db
console-db-of-discord = the database { $name } holds a Discord bot's data (games, challenges or servers' settings); the console plays only in a database of its own (after every command it empties the queue of messages that Discord's players are still to be shown), so name another database
console-db-unknown-scheme = cannot open the database: tafl-bot stores games only in SQLite or PostgreSQL, not { $scheme }; name a file, or a sqlite://FILE or postgres://USER@HOST/DATABASE URL
console-db-no-scheme = cannot open the database { $name }: the URL names no kind of database before ://; name a file, or a sqlite://FILE or postgres://USER@HOST/DATABASE URL
console-db-in-use = cannot open the database { $name }: another program uses it ({ $holder }, which holds the lock { $lock }), and one SQLite file is used by one program at a time; stop that one first, or name another database
console-db-folder-not-writable = cannot open the database { $name }: the folder { $folder } cannot be written, and SQLite creates the database and its -wal and -shm files there: { $cause ->
        [permission] its permissions do not let the user tafl-bot runs as write it; make the folder writable by that user (chown or chmod), or name a file elsewhere
        [read-only] it is on a read-only file system; mount it read-write, or name a file on a writable one
       *[other] { $error }; make it writable, or name a file elsewhere
    }
console-db-file-not-writable = cannot open the database { $name }: the file { $file } cannot be written, so no game could be saved: { $cause ->
        [permission] its permissions do not let the user tafl-bot runs as write it; make the file writable by that user (chown or chmod), or name a file elsewhere
        [read-only] it is on a read-only file system; mount it read-write, or name a file on a writable one
       *[other] { $error }; make it writable, or name a file elsewhere
    }
console-db-disk-full = cannot open the database { $name }: the disk that holds { $file } is full, so SQLite cannot write the database or its -wal and -shm files; free space there and start again
console-db-backup-disk-full = cannot open the database { $name }: the disk that holds { $file } is full: upgrading the database first backs it up beside itself, which takes about as much free space as the database ({ $size } MB); free space there and start again
console-db-locked = cannot open the database { $name }: another program holds { $file } locked (SQLite's "database is locked"); end that program's transaction, or stop it, and start again
console-db-not-a-database = cannot open the database { $name }: the file { $file } is not an SQLite database, or is a damaged one; name tafl-bot's database file (restored from a backup if it was damaged), or a file that does not exist yet to start a new database
console-db-not-ours = cannot open the database { $name }: it holds tables but is not tafl-bot's database ({ $why ->
        [no-history] it has no _sqlx_migrations table
       *[other-history] its _sqlx_migrations table records another program's migrations
    }); name tafl-bot's own database, or a new one
console-db-newer = cannot open the database { $name }: the database was written by a newer tafl-bot (schema version { $found }; this one knows up to { $known }); run that newer version, or restore a backup made before the upgrade
console-db-migration-changed = cannot open the database { $name }: migration { $version } recorded in the database differs from this tafl-bot's own; the database was made by a different build of tafl-bot, so run that build, or restore a backup made before it
console-db-migration-unfinished = cannot open the database { $name }: migration { $version } was left unfinished by another program; restore a backup of the database
console-db-backup-failed = cannot open the database { $name }: cannot back up the database before migrating it: { $error }
console-db-migration-failed = cannot open the database { $name }: migration { $version } ({ $description }) failed and was rolled back: { $error }
console-db-migrations-failed = cannot open the database { $name }: the migrations failed: { $error }
console-session-failed = { $failures } of the session's commands failed (see the error lines above)
console-as-inside-as = as { $player } runs one command as { $player }; to switch for good, type /as on its own, like /as @bob
console-moves-cut = { $shown } of { $total }; type more to narrow, like /moves { $prefix }
console-games-cut = { $shown } of { $total }, the newest first; type more to narrow, like /games { $player } (ongoing only)
console-import-two-players = name at most two players, the attackers' then the defenders', like /import game.otn @ann @ben
console-bad-record-player = the record's { $side } tag: { $error }; name the players, like /import FILE @ann @ben
console-as-needs-command = write a command after the name, like: as @bob /accept
console-as-needs-slash = write a slash command after the name, like: as @bob /accept
console-not-a-command = commands start with /, like /move e1-e3; type /help for the list
console-unknown-command = there is no command /{ $name }; type /help for the list
console-unknown-command-meant = there is no command /{ $name }; did you mean /{ $meant }? (/help lists them)
console-as-usage = write whom to play as, like /as @bob
console-now-playing = you are now { $player }
console-bad-name = "{ $input }" is not a name; write @ and up to 32 letters, digits, dots, hyphens or underscores, like @bob or @ann_lee
console-no-such-player = there is no player { $player }
console-name-of-the-engine = @ai is the engine's name; choose another, like @bob
console-bad-game-number = "{ $input }" is not a game number; write one like 12 (/games lists yours)
console-bad-challenge-number = "{ $input }" is not a challenge number; write one like 3 (/challenges lists them)
console-bad-side = "{ $input }" is not a side; choose attackers, defenders or random
console-bad-challenge-option = "{ $input }" is not a challenge option; type /help
console-two-opponents = a challenge goes to one opponent; name { $first } or { $second }, not both (or no one, to challenge anyone)
console-two-levels = choose one level for the engine: { $first } or { $second }, not both
console-two-games = name one game: { $first } or { $second }, not both
console-games-two-players = /games lists one player's games: name { $first } or { $second }, not both
console-two-variants = choose one variant: { $first } or { $second }, not both
console-two-sides = choose one side: { $first } or { $second }, not both
console-two-clocks = choose one clock: { $first } or { $second }, not both
console-two-rated = say once whether the game is rated: { $first } or { $second }, not both
console-bad-level = "{ $input }" is not a level; choose a level from 1 to 5, like level:3
console-bad-flag = "{ $input }": write { $option }:true or { $option }:false
console-bad-option = "{ $input }" is not an option of /{ $command }; type /help
console-unknown-leaderboard = "{ $input }" is neither a variant nor a family of variants; the variants are: { $variants }; the families (the variants of one family share a leaderboard): { $families }

console-anyone = anyone
console-with-clock = { " " }with { $per_move } per move
console-with-reserve = { " " }with { $per_move } per move, unused time saved up to { $cap }
console-challenge = challenge #{ $id }: { $by } challenges { $to } to { $variant }{ $options }, challenger's side: { $side }.
console-challenge-answer = { $player } may answer with: as { $player } /accept { $id }
console-challenge-answer-open = anyone may answer with: as @name /accept { $id }
console-no-challenge-to-cancel = you have no open challenge to cancel
console-no-challenge-to-answer = there is no open challenge for you to answer
console-accepted = { $by } accepted challenge #{ $challenge }: game #{ $id } of { $variant } starts; attackers: { $attacker }, defenders: { $defender }.
console-declined = { $by } declined challenge #{ $id } from { $challenger }
console-cancelled = challenge #{ $id } cancelled
console-no-open-challenges = no open challenges
console-challenge-line = #{ $id } { $by } → { $to }: { $variant } { $options }

console-no-game = you have no game going; start one with /challenge
console-no-game-of-yours = you have played no game; name one by its number, which /games @user all lists
console-move-usage = write the move, like /move e1-e3
console-played = { $by } played { $notation } (game #{ $id }, ply { $ply })
console-no-legal-move = no legal move starts with "{ $prefix }"
console-no-ongoing-games = { $player } has no ongoing games
console-no-games = { $player } has no games
console-turn = { $player }'s turn
console-time-left = { $state }, { $left } left
console-claimable-state = { $state }, unplayed for two weeks: /claim ends it
console-game-line = game #{ $id }: { $variant } against { $opponent }, playing the { $side }, ply { $ply }: { $state }
console-resigned = { $by } resigned game #{ $id }.
console-draw-usage = write /draw offer, /draw accept or /draw decline
console-takeback-usage = write /takeback request, /takeback accept or /takeback decline
console-offered-draw = { $by } offers a draw in game #{ $id }; { $other } may answer with /draw accept or /draw decline
console-offered-takeback = { $by } asks to take back a move in game #{ $id }; { $other } may answer with /takeback accept or /takeback decline
console-takeback-accepted = { $by } accepted: { $plies ->
    [one] 1 ply
   *[other] { $plies } plies
} taken back in game #{ $id }.
console-draw-accepted = { $by } accepted the draw.
console-withdrew-draw = { $by } withdrew the draw offer
console-withdrew-takeback = { $by } withdrew the takeback request
console-declined-draw = { $by } declined the draw offer
console-declined-takeback = { $by } declined the takeback request
console-game-animation = game animation: { $path }
console-rules-usage = name a variant, like /rules brandubh (/variants lists them)
console-import-usage = write the record's file, like /import game.otn @ann @ben
console-cannot-read = cannot read { $path }
console-cannot-read-missing = cannot read { $path }: there is no such file
console-cannot-read-denied = cannot read { $path }: permission denied
console-cannot-read-folder = cannot read { $path }: it is a folder, not a file
console-too-large = cannot read { $path }: it is larger than 1 MB, the most the bot reads
console-imported = imported as game #{ $id } ({ $variant }, { $plies ->
    [one] 1 ply
   *[other] { $plies } plies
}); attackers: { $attacker }, defenders: { $defender }.

console-nothing-due = nothing is due
console-bad-wait = "{ $input }" is not a time to wait; write one like 2h, 90m, 1d or 1d12h (at most a year)
console-wait-usage = say how long to wait, like /wait 2h, 90m, 1d or 1d12h (at most a year)
console-nothing-came-due = nothing came due
console-waited = waited { $duration }:
console-reminder = reminder: { $player }, half your time in game #{ $id } is gone; { $left } left
console-last-warning = last warning: { $player }, only { $left } left in game #{ $id }
console-claim-warning = warning: { $player }, game #{ $id } has no clock, and { $opponent } may claim it in { $left } if you do not move
console-claim-warning-aborts = warning: { $player }, game #{ $id } has no clock, and { $opponent } may end it without a result in { $left } if you do not move
console-timed-out = { $player } ran out of time in game #{ $id }.
console-challenge-expired = challenge #{ $id } from { $by } expired unanswered
console-claimable = { $player } may now claim game #{ $id } with /claim: { $absent } has not moved for { $days ->
    [one] a day
   *[other] { $days } days
}.
console-claimed = { $player } claimed game #{ $id }: { $absent } had not moved for { $days ->
    [one] a day
   *[other] { $days } days
}.
console-claimed-aborted = { $player } ended game #{ $id } without a result: { $absent } had not moved for { $days ->
    [one] a day
   *[other] { $days } days
}, before the second move.
console-claimable-aborts = { $player } may now end game #{ $id } with /claim, without a result: { $absent } has not moved for { $days ->
    [one] a day
   *[other] { $days } days
}, before the second move.
console-digest = digest for { $player }: your turn in { $count ->
    [one] 1 game
   *[other] { $count } games
}: { $games }
console-digest-game = #{ $id } ({ $variant } against { $opponent }{ $left })
console-left = , { $left } left
console-paused-games = { $player } may now end { $count ->
    [one] game { $games }
   *[other] games { $games }
} with /claim, without a result: the bot was removed from { $count ->
    [one] its server
   *[other] their server
}.
console-grace = the scheduler was not running: the deadlines of games { $games } moved to { $after } from now

console-game-over = game #{ $id } is over: { $result }
console-winner = { $player } wins
console-result = result: { $status }{ $reason }
# Not "{ $player } ({ $side })": the bot's name has brackets of its own.
console-to-move = game #{ $id }, ply { $ply }: { $player } to move with the { $side ->
    [attackers] attackers
   *[defenders] defenders
}
console-reserve = { " " }(reserve { $reserve })
console-board-image = board image: { $path }
console-hint = the engine would play { $notation } in game #{ $id }
console-summary-card = summary card: { $path }
console-leaderboard-card = leaderboard card: { $path }
console-profile-card = profile card: { $path }

# Durations as the console prints them (`1d12h`, `90m`): the units of clocks as they are typed. A
# language that writes a unit apart from its number (`12 h`) gets its parts joined apart too.
console-unit-days = { $n }d
console-unit-hours = { $n }h
console-unit-minutes = { $n }m
console-unit-seconds = { $n }s
