# /tafl settings: what it shows, and its refusals.

settings-saved = Saved.
settings-on = on
settings-off = off
settings-yours = **Your settings**
settings-dm = Reminders and notices by direct message: { $value }
settings-digest = Daily digest: { $value }
settings-orientation = Board orientation: { $value }
settings-theme = Board theme: { $value }
orientation-standard = standard (a1 bottom left)
orientation-flipped = flipped
theme-classic = classic
theme-high-contrast = high-contrast
settings-server = **This server** (managers change these)
settings-language = Language of public messages: { $language }
settings-language-auto = { $language } (the server's own)
settings-threads = A thread for each game: { $value }
settings-default-clock = Default clock: `{ $clock }`. { $words }
settings-channels = Channels for games: { $channels }
settings-every-channel = every channel
settings-channels-cut = { $channels } and { $count } more
language-auto = The server's own language

settings-not-in-server = Server settings are changed in the server; your own settings ({ $personal }) work here.
settings-not-manager = Only members who can manage this server change its settings; your own settings ({ $personal }) are yours to change.
settings-not-for-games = Games cannot be played in { $channel }; name a text, voice or announcement channel, or a forum.
settings-allow-and-disallow = Either allow or disallow { $channel }, not both at once.
settings-every-channel-already = Games are allowed in every channel; to limit them, allow the channels for games with { $allow_channel }, and the others will be closed to games.
settings-last-channel = { $channel } is the only channel allowed for games; allow another one first, or all of them with { $all_channels }.
settings-all-and-one = Allow every channel, or allow or disallow one, not both at once.
settings-all-false = To limit games to some channels, allow those channels with { $allow_channel }.
settings-unknown-language = The bot does not speak "{ $input }"; pick a language from the list.
