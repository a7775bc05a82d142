//! The commands of the local console, parsed from one line each and answered through the host.

use std::fmt::Write as _;
use std::path::PathBuf;

use tafl_render::{BoardOptions, Caption, GifOptions, LastMove, Renderer};

// The console speaks English with the words the bot uses in Discord.
use crate::discord::summary;
use crate::discord::text::Lang;
use crate::host::{
    ChallengeRequest, Clock, Due, GameId, GameView, Host, HostError, OfferAction, OfferOutcome, Place, ReminderKind,
    SideChoice, Summary, User, clock,
};
use crate::store;

/// The one channel of the local console.
const PLACE: Place = Place { guild: 0, channel: 0, thread: None };

const HELP: &str = "\
Commands (the same as in Discord; people are @names, each with a stable id in the database):
  /challenge [@user] [variant] [side:attackers|defenders|random] [clock:3d|3d+7d|none] [key=value…]
                          challenge someone, or anyone without a name (default variant copenhagen)
  /accept [id]  /decline [id]  /cancel [id]
                          answer a challenge (the latest one when no id is given)
  /challenges             the open challenges you made or may answer
  /move e1-e3 [game:N]    play a move (in your latest game unless game:N is given)
  /moves [prefix]         your legal moves, labelled as the autocomplete shows them
  /board [N]              show a game
  /games [@user] [all]    your (or someone's) games; `all` includes finished ones
  /resign                 resign
  /draw offer|accept|decline
  /takeback request|accept|decline
  /export [N]             print the OTN record of a game
  /summary [N]            the summary of a game (and its GIF beside the boards)
  /leaderboard [variant]  the best players of a variant's family (default copenhagen)
  /profile [@user]        ratings, results by side and current streak
  /import FILE [@attackers] [@defenders]
                          import a finished game from an OTN record file
  /tick                   run the scheduler now: reminders, time-outs, expired challenges
  /wait 2h                let time pass (1d, 90m, 1d12h…), running the scheduler as a bot would
  /as @bob                switch to playing as @bob (you start as @you)
  as @bob /accept         run one command as @bob
  /help  /quit";

/// What a command printed, and whether the session ends.
#[derive(Debug, Default)]
pub struct Reply {
    pub text: String,
    pub quit: bool,
}

impl Reply {
    fn text(text: impl Into<String>) -> Reply {
        Reply { text: text.into(), quit: false }
    }
}

/// A console session: the host, who is typing, and the game last played.
#[derive(Debug)]
pub struct Session {
    host: Host,
    current: String,
    last_game: Option<GameId>,
    boards: Option<PathBuf>,
    renderer: Option<Renderer>,
    /// Seconds added to the real clock by `/wait`, so that clocks can be tried in a session.
    offset: i64,
}

impl Session {
    /// A session writing board PNGs into `boards` (none when `None`).
    #[must_use]
    pub fn new(host: Host, boards: Option<PathBuf>) -> Session {
        let renderer = boards.is_some().then(Renderer::new);
        Session { host, current: "you".to_owned(), last_game: None, boards, renderer, offset: 0 }
    }

    /// The session's time: the real clock plus what `/wait` added.
    fn now(&self) -> i64 {
        now().saturating_add(self.offset)
    }

    /// The name of whoever types now.
    #[must_use]
    pub fn current_name(&self) -> &str {
        &self.current
    }

    pub async fn close(&self) {
        self.host.db().close().await;
    }

    /// Runs one command line and returns what to print.
    pub async fn execute(&mut self, line: &str) -> Reply {
        let line = line.trim();
        // `as @bob /accept`: one command as someone else.
        if let Some(rest) = line.strip_prefix("as ") {
            let rest = rest.trim_start();
            let (name, command) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            let name = match parse_name(name) {
                Ok(name) => name,
                Err(message) => return Reply::text(format!("error: {message}")),
            };
            if command.trim().is_empty() {
                return Reply::text("error: write a command after the name, like: as @bob /accept");
            }
            if !command.trim_start().starts_with('/') {
                return Reply::text("error: write a slash command after the name, like: as @bob /accept");
            }
            let inner = command.trim_start()[1..].split_whitespace().next().unwrap_or("");
            if inner.eq_ignore_ascii_case("as") {
                // `/as` inside `as @bob` would switch only for that one command, then switch back.
                return Reply::text(format!(
                    "error: as @{name} runs one command as @{name}; to switch for good, type /as on its own, like /as @bob"
                ));
            }
            let saved = std::mem::replace(&mut self.current, name);
            let reply = Box::pin(self.execute(command)).await;
            self.current = saved;
            return reply;
        }
        let Some(body) = line.strip_prefix('/') else {
            return Reply::text("error: commands start with /, like /move e1-e3; type /help for the list");
        };
        let mut words = body.split_whitespace();
        let name = words.next().unwrap_or("").to_ascii_lowercase();
        let args: Vec<&str> = words.collect();
        let result = match name.as_str() {
            "help" => Ok(HELP.to_owned()),
            "quit" | "exit" => return Reply { text: "bye".to_owned(), quit: true },
            "as" => self.switch(&args),
            "challenge" => self.challenge(&args).await,
            "accept" => self.accept(&args).await,
            "decline" => self.decline(&args).await,
            "cancel" => self.cancel(&args).await,
            "challenges" => self.list_challenges().await,
            "move" | "play" => self.play(&args).await,
            "moves" => self.moves(&args).await,
            "board" => self.board(&args).await,
            "games" => self.games(&args).await,
            "resign" => self.resign(&args).await,
            "draw" => self.offer(&args, false).await,
            "takeback" => self.offer(&args, true).await,
            "export" => self.export(&args).await,
            "summary" => self.summary(&args).await,
            "leaderboard" => self.leaderboard(&args).await,
            "profile" => self.profile(&args).await,
            "import" => self.import(&args).await,
            "tick" => self.tick().await,
            "wait" => self.wait(&args).await,
            _ => Err(format!("there is no command /{}; type /help for the list", shorten(&name))),
        };
        match result {
            Ok(text) => Reply::text(text),
            // One line, whatever the sentence quotes.
            Err(message) => Reply::text(format!("error: {}", crate::printable::printable(&message))),
        }
    }

    fn switch(&mut self, args: &[&str]) -> Result<String, String> {
        let [name] = args else {
            return Err("write whom to play as, like /as @bob".to_owned());
        };
        self.current = parse_name(name)?;
        Ok(format!("you are now @{}", self.current))
    }

    /// The stable id of a name, created on first use.
    async fn user(&self, name: &str) -> Result<User, String> {
        let now = self.now();
        let found = {
            let mut conn = self.host.db().pool().acquire().await.map_err(internal)?;
            store::users::find_by_name(&mut conn, name).await.map_err(internal)?
        };
        if let Some(row) = found {
            return Ok(User { id: row.id, name: row.name });
        }
        let mut tx = self.host.db().begin_write().await.map_err(internal)?;
        // Looked up again inside the write transaction: two consoles on one file agree on ids.
        if let Some(row) = store::users::find_by_name(&mut tx, name).await.map_err(internal)? {
            return Ok(User { id: row.id, name: row.name });
        }
        let id = store::users::max_id(&mut tx).await.map_err(internal)? + 1;
        store::users::remember(&mut tx, id, name, now).await.map_err(internal)?;
        tx.commit().await.map_err(internal)?;
        Ok(User { id, name: name.to_owned() })
    }

    async fn me(&self) -> Result<User, String> {
        self.user(&self.current.clone()).await
    }

    async fn challenge(&mut self, args: &[&str]) -> Result<String, String> {
        let me = self.me().await?;
        let mut opponent = None;
        let mut variant = None;
        let mut side = SideChoice::Random;
        let mut clock = Clock::UNTIMED;
        let mut options = Vec::new();
        for arg in args {
            if arg.starts_with('@') || arg.starts_with("opponent:") {
                let name = parse_name(arg.trim_start_matches("opponent:"))?;
                opponent = Some(self.user(&name).await?);
            } else if let Some(value) = arg.strip_prefix("side:") {
                side = value.parse()?;
            } else if let Some(value) = arg.strip_prefix("clock:") {
                clock = value.parse()?;
            } else if let Some(value) = arg.strip_prefix("variant:") {
                variant = Some(value.to_owned());
            } else if let Some(value) = arg.strip_prefix("opt:") {
                options.push(value.to_owned());
            } else if arg.contains('=') {
                options.push((*arg).to_owned());
            } else if variant.is_none() {
                variant = Some((*arg).to_owned());
            } else {
                return Err(format!("\"{}\" is not a challenge option; type /help", shorten(arg)));
            }
        }
        let request = ChallengeRequest {
            challenger: me,
            opponent,
            variant: variant.unwrap_or_else(|| "copenhagen".to_owned()),
            options,
            side,
            clock,
            place: PLACE,
        };
        let c = self.host.challenge(&request, self.now()).await.map_err(|e| e.to_string())?;
        let to = c.opponent.as_ref().map_or_else(|| "anyone".to_owned(), |o| format!("@{}", o.name));
        let mut options = if c.options.is_empty() { String::new() } else { format!(" ({})", c.options) };
        if !c.clock.is_untimed() {
            let _ = write!(options, " with {}", c.clock.describe());
        }
        let answer = match &c.opponent {
            Some(o) => format!("@{} may answer with: as @{} /accept {}", o.name, o.name, c.id),
            None => format!("anyone may answer with: as @name /accept {}", c.id),
        };
        Ok(format!(
            "challenge #{}: @{} challenges {to} to {}{options}, challenger plays {}.\n{answer}",
            c.id,
            c.challenger.name,
            c.variant,
            c.side.name()
        ))
    }

    /// The challenge an id-less answer means: the newest open one the current user may answer
    /// (`mine` = made by them, for /cancel).
    async fn pick_challenge(&self, args: &[&str], user: &User, mine: bool) -> Result<i64, String> {
        if let Some(arg) = args.first() {
            return parse_id(arg.trim_start_matches("challenge:").trim_start_matches('#'));
        }
        let list = self.host.challenges(user.id, self.now()).await.map_err(|e| e.to_string())?;
        list.iter()
            .rev()
            .find(|c| if mine { c.challenger.id == user.id } else { c.challenger.id != user.id })
            .map(|c| c.id)
            .ok_or_else(|| {
                if mine {
                    "you have no open challenge to cancel"
                } else {
                    "there is no open challenge for you to answer"
                }
                .to_owned()
            })
    }

    async fn accept(&mut self, args: &[&str]) -> Result<String, String> {
        let me = self.me().await?;
        let id = self.pick_challenge(args, &me, false).await?;
        let accepted = self.host.accept(id, &me, self.now()).await.map_err(|e| e.to_string())?;
        let game = &accepted.game;
        self.last_game = Some(game.id);
        Ok(format!(
            "@{} accepted challenge #{id}: game #{} of {} starts, @{} (attackers) against @{} (defenders).\n{}",
            me.name,
            game.id,
            game.variant,
            game.attacker.name,
            game.defender.name,
            self.show(game)
        ))
    }

    async fn decline(&mut self, args: &[&str]) -> Result<String, String> {
        let me = self.me().await?;
        let id = self.pick_challenge(args, &me, false).await?;
        let c = self.host.decline(id, me.id, self.now()).await.map_err(|e| e.to_string())?;
        Ok(format!("@{} declined challenge #{} from @{}", me.name, c.id, c.challenger.name))
    }

    async fn cancel(&mut self, args: &[&str]) -> Result<String, String> {
        let me = self.me().await?;
        let id = self.pick_challenge(args, &me, true).await?;
        let c = self.host.cancel(id, me.id, self.now()).await.map_err(|e| e.to_string())?;
        Ok(format!("challenge #{} cancelled", c.id))
    }

    async fn list_challenges(&mut self) -> Result<String, String> {
        let me = self.me().await?;
        let list = self.host.challenges(me.id, self.now()).await.map_err(|e| e.to_string())?;
        if list.is_empty() {
            return Ok("no open challenges".to_owned());
        }
        let mut text = String::new();
        for c in list {
            let to = c.opponent.map_or_else(|| "anyone".to_owned(), |o| format!("@{}", o.name));
            let _ = writeln!(text, "#{} @{} → {to}: {} {}", c.id, c.challenger.name, c.variant, c.options);
        }
        Ok(text)
    }

    /// The game a command means: `game:N` (or a bare number for /board and /export), else the
    /// game last played in this session if the user plays in it, else their newest ongoing game.
    async fn pick_game(&self, explicit: Option<&str>, user: &User) -> Result<GameId, String> {
        self.pick_game_of(explicit, user, false).await
    }

    /// As [`Session::pick_game`], for commands that also read finished games (`/board`,
    /// `/export`): the game last played here counts even when it is over.
    async fn pick_game_of(&self, explicit: Option<&str>, user: &User, finished_ok: bool) -> Result<GameId, String> {
        if let Some(text) = explicit {
            return parse_id(text.trim_start_matches("game:").trim_start_matches('#'));
        }
        if let Some(id) = self.last_game
            && let Ok(game) = self.host.show(id).await
            && game.players().contains(&user.id)
            && (finished_ok || !game.is_over())
        {
            return Ok(id);
        }
        let games = self.host.games(user.id, finished_ok).await.map_err(|e| e.to_string())?;
        games.first().map(|g| g.id).ok_or_else(|| "you have no game going; start one with /challenge".to_owned())
    }

    async fn play(&mut self, args: &[&str]) -> Result<String, String> {
        let me = self.me().await?;
        let game_arg = args.iter().find(|a| a.starts_with("game:")).copied();
        let notation: Vec<&str> = args.iter().filter(|a| !a.starts_with("game:")).copied().collect();
        if notation.is_empty() {
            return Err("write the move, like /move e1-e3".to_owned());
        }
        let id = self.pick_game(game_arg, &me).await?;
        let played =
            self.host.play(id, me.id, &notation.join(" "), None, self.now()).await.map_err(|e| e.to_string())?;
        self.last_game = Some(id);
        Ok(format!(
            "@{} played {} (game #{id}, ply {})\n{}",
            me.name,
            played.notation,
            played.game.ply,
            self.show(&played.game)
        ))
    }

    async fn moves(&mut self, args: &[&str]) -> Result<String, String> {
        let me = self.me().await?;
        let game_arg = args.iter().find(|a| a.starts_with("game:")).copied();
        let prefix: String = args.iter().filter(|a| !a.starts_with("game:")).copied().collect();
        let id = self.pick_game(game_arg, &me).await?;
        let choices = self.host.legal_moves(id, me.id, &prefix, usize::MAX).await.map_err(|e| e.to_string())?;
        if choices.is_empty() {
            return Ok(format!("no legal move starts with \"{}\"", shorten(&prefix)));
        }
        let total = choices.len();
        let mut text = choices.into_iter().take(LIST_LIMIT).map(|c| c.label).collect::<Vec<_>>().join("\n");
        if total > LIST_LIMIT {
            let _ = write!(
                text,
                "\n{LIST_LIMIT} of {total}; type more to narrow, like /moves {}",
                narrower(&prefix, &text)
            );
        }
        Ok(text)
    }

    async fn board(&mut self, args: &[&str]) -> Result<String, String> {
        let me = self.me().await?;
        let id = self.pick_game_of(args.first().copied(), &me, true).await?;
        let game = self.host.show(id).await.map_err(|e| e.to_string())?;
        Ok(self.show(&game))
    }

    async fn games(&mut self, args: &[&str]) -> Result<String, String> {
        let all = args.contains(&"all");
        let user = match args.iter().find(|a| a.starts_with('@')) {
            Some(name) => self.user(&parse_name(name)?).await?,
            None => self.me().await?,
        };
        let games = self.host.games(user.id, all).await.map_err(|e| e.to_string())?;
        if games.is_empty() {
            return Ok(format!("@{} has no {}games", user.name, if all { "" } else { "ongoing " }));
        }
        let shown = games.len();
        let total = self.host.count_games(user.id, all).await.map_err(|e| e.to_string())?;
        let mut text = String::new();
        for g in games {
            let state = match g.ending {
                Some(ending) => ending.to_string(),
                None if g.my_turn() => format!("@{}'s turn", user.name),
                None => format!("@{}'s turn", g.opponent.name),
            };
            let state = match g.time_left(self.now()) {
                Some(left) => format!("{state}, {} left", clock::format_duration(left)),
                None => state,
            };
            let _ = writeln!(
                text,
                "game #{}: {} against @{}, playing the {}, ply {}: {state}",
                g.id, g.variant, g.opponent.name, g.side, g.ply
            );
        }
        if total > shown {
            let _ = writeln!(
                text,
                "{shown} of {total}, the newest first; type more to narrow, like /games @{} (ongoing only)",
                user.name
            );
        }
        Ok(text)
    }

    async fn resign(&mut self, args: &[&str]) -> Result<String, String> {
        let me = self.me().await?;
        let id = self.pick_game(args.first().copied(), &me).await?;
        let finished = self.host.resign(id, me.id, self.now()).await.map_err(|e| e.to_string())?;
        Ok(format!("@{} resigned game #{id}.\n{}", me.name, self.show(&finished.game)))
    }

    async fn offer(&mut self, args: &[&str], takeback: bool) -> Result<String, String> {
        let me = self.me().await?;
        let (kind, usage) = if takeback {
            ("takeback", "/takeback request, /takeback accept or /takeback decline")
        } else {
            ("draw", "/draw offer, /draw accept or /draw decline")
        };
        let action = match args.first().map(|a| a.to_ascii_lowercase()).as_deref() {
            Some("offer" | "request") => OfferAction::Offer,
            Some("accept" | "yes") => OfferAction::Accept,
            Some("decline" | "no" | "withdraw") => OfferAction::Decline,
            _ => return Err(format!("write {usage}")),
        };
        let id = self.pick_game(args.get(1).copied(), &me).await?;
        let outcome = if takeback {
            self.host.takeback(id, me.id, action, self.now()).await
        } else {
            self.host.draw(id, me.id, action, self.now()).await
        }
        .map_err(|e: HostError| e.to_string())?;
        self.last_game = Some(id);
        Ok(match &outcome {
            OfferOutcome::Offered { game, .. } => {
                let other = if game.attacker.id == me.id { &game.defender } else { &game.attacker };
                let verb = if takeback { "asks to take back a move" } else { "offers a draw" };
                format!("@{} {verb} in game #{id}; @{} may answer with /{kind} accept or decline", me.name, other.name)
            }
            OfferOutcome::Accepted { game, plies_taken_back, .. } if takeback => {
                format!(
                    "@{} accepted: {} taken back in game #{id}.\n{}",
                    me.name,
                    plies(*plies_taken_back),
                    self.show(game)
                )
            }
            OfferOutcome::Accepted { game, .. } => format!("@{} accepted the draw.\n{}", me.name, self.show(game)),
            OfferOutcome::Declined { withdrawn: true, .. } => format!("@{} withdrew the {kind} offer", me.name),
            OfferOutcome::Declined { .. } => format!("@{} declined the {kind} offer", me.name),
        })
    }

    async fn export(&mut self, args: &[&str]) -> Result<String, String> {
        let me = self.me().await?;
        let id = self.pick_game_of(args.first().copied(), &me, true).await?;
        self.host.export(id).await.map_err(|e| e.to_string())
    }

    async fn summary(&mut self, args: &[&str]) -> Result<String, String> {
        let me = self.me().await?;
        let id = self.pick_game_of(args.first().copied(), &me, true).await?;
        let summary = self.host.summary(id).await.map_err(|e| e.to_string())?;
        let text = summary::summary_text(&summary, Lang::En);
        let mut out = format!("{}\n{}\n", text.title, text.description);
        if let Some(path) = self.write_gif(&summary) {
            let _ = writeln!(out, "game animation: {}", path.display());
        }
        let card = crate::discord::cards::summary_card(&summary, Lang::En, tafl_render::Theme::default());
        if let Some(path) = self.write_card(&format!("game-{id}-summary.png"), |r| r.render_summary_card(&card)) {
            let _ = writeln!(out, "summary card: {}", path.display());
        }
        Ok(out)
    }

    async fn leaderboard(&mut self, args: &[&str]) -> Result<String, String> {
        let family = args.first().copied().unwrap_or("copenhagen");
        let board = self.host.leaderboard(family, None, 20).await.map_err(|e| e.to_string())?;
        let text = summary::leaderboard_text(&board, Lang::En);
        let mut out = format!("{}\n{}", text.title, text.description);
        let trends = self.host.rating_trends(&board, 20).await.map_err(|e| e.to_string())?;
        let card = crate::discord::cards::leaderboard_card(&board, &trends, Lang::En, tafl_render::Theme::default());
        let name = format!("leaderboard-{}.png", board.family);
        if let Some(path) = self.write_card(&name, |r| r.render_leaderboard_card(&card)) {
            let _ = write!(out, "\nleaderboard card: {}", path.display());
        }
        Ok(out)
    }

    async fn profile(&mut self, args: &[&str]) -> Result<String, String> {
        let user = match args.first() {
            Some(name) => self.user(&parse_name(name)?).await?,
            None => self.me().await?,
        };
        let profile = self.host.profile(user.id, None).await.map_err(|e| e.to_string())?;
        let text = summary::profile_text(&profile, Lang::En);
        let mut out = format!("{}\n{}", text.title, text.description);
        let history = self.host.rating_history(user.id, None).await.map_err(|e| e.to_string())?;
        let card = crate::discord::cards::profile_card(&profile, &history, Lang::En, tafl_render::Theme::default());
        if let Some(path) = self.write_card(&format!("profile-{}.png", user.id), |r| r.render_profile_card(&card)) {
            let _ = write!(out, "\nprofile card: {}", path.display());
        }
        Ok(out)
    }

    async fn import(&mut self, args: &[&str]) -> Result<String, String> {
        let Some((path, names)) = args.split_first() else {
            return Err("write the record's file, like /import game.otn @ann @ben".to_owned());
        };
        if names.len() > 2 {
            return Err(
                "name at most two players, the attackers' then the defenders', like /import game.otn @ann @ben"
                    .to_owned(),
            );
        }
        let record = crate::limits::read_file(std::path::Path::new(path))
            .map_err(|e| format!("cannot read {}: {e}", shorten(path)))?;
        // Players named on the command line, else the record's own [attackers:…] and
        // [defenders:…] tags, else the one typing.
        let tags = tafl_rules::otn::GameRecord::parse(&record).map(|r| r.tags).unwrap_or_default();
        let tag = |key: &str| tags.iter().find(|(k, _)| k == key).map(|(_, v)| v.trim().to_owned());
        let mut players = Vec::with_capacity(2);
        for (given, key) in [(names.first(), "attackers"), (names.get(1), "defenders")] {
            let name = match (given, tag(key)) {
                (Some(given), _) => parse_name(given)?,
                (None, Some(tagged)) => parse_name(&tagged).map_err(|e| {
                    format!("the record's {key} tag: {e}; name the players, like /import FILE @ann @ben")
                })?,
                (None, None) => self.current.clone(),
            };
            players.push(self.user(&name).await?);
        }
        let (attacker, defender) = (players[0].clone(), players[1].clone());
        let game =
            self.host.import(&record, &attacker, &defender, PLACE, self.now()).await.map_err(|e| e.to_string())?;
        self.last_game = Some(game.id);
        Ok(format!(
            "imported as game #{} ({}, {}), @{} (attackers) against @{} (defenders).\n{}",
            game.id,
            game.variant,
            plies(game.ply),
            game.attacker.name,
            game.defender.name,
            self.show(&game)
        ))
    }

    async fn tick(&mut self) -> Result<String, String> {
        let now = self.now();
        let found = self.host.tick(now).await.map_err(|e| e.to_string())?;
        if found.is_empty() {
            return Ok("nothing is due".to_owned());
        }
        Ok(found.iter().map(|due| self.describe_due(due, now)).collect::<Vec<_>>().join("\n"))
    }

    /// Lets `args` (a duration) pass, ticking every few minutes as a running bot would, so that
    /// no tick sees "downtime"; prints what came due and when.
    async fn wait(&mut self, args: &[&str]) -> Result<String, String> {
        const STEP: i64 = 5 * 60;
        const MAX: i64 = 366 * 24 * 3600;
        let text = args.join(" ");
        let seconds = clock::parse_duration(&text).filter(|s| (1..=MAX).contains(s)).ok_or_else(|| {
            format!(
                "\"{}\" is not a time to wait; write one like 2h, 90m, 1d or 1d12h (at most a year)",
                shorten(&text)
            )
        })?;
        let start = self.now();
        let mut lines = Vec::new();
        let mut at = start;
        while at < start + seconds {
            at = (at + STEP).min(start + seconds);
            for due in self.host.tick(at).await.map_err(|e| e.to_string())? {
                lines.push(format!("[+{}] {}", clock::format_duration(at - start), self.describe_due(&due, at)));
            }
        }
        self.offset = self.offset.saturating_add(seconds);
        if lines.is_empty() {
            lines.push("nothing came due".to_owned());
        }
        Ok(format!("waited {}:\n{}", clock::format_duration(seconds), lines.join("\n")))
    }

    /// What the scheduler found, as the console shows it.
    fn describe_due(&self, due: &Due, now: i64) -> String {
        match due {
            Due::Reminder(r) => {
                let left = clock::format_duration(r.deadline_at - now);
                match r.kind {
                    ReminderKind::Halfway => {
                        format!("reminder: @{}, half your time in game #{} is gone; {left} left", r.player.name, r.game)
                    }
                    ReminderKind::LastWarning => {
                        format!("last warning: @{}, only {left} left in game #{}", r.player.name, r.game)
                    }
                }
            }
            Due::TimedOut(finished) => {
                let game = &finished.game;
                let loser = game.player(game.to_move);
                format!("@{} ran out of time in game #{}.\n{}", loser.name, game.id, self.show(game).trim_end())
            }
            Due::ChallengeExpired(c) => format!("challenge #{} from @{} expired unanswered", c.id, c.challenger.name),
            Due::Digest(digest) => {
                let games: Vec<String> = digest
                    .games
                    .iter()
                    .map(|g| {
                        let left = g
                            .time_left(now)
                            .map_or_else(String::new, |s| format!(", {} left", clock::format_duration(s)));
                        format!("#{} ({} against @{}{left})", g.id, g.variant, g.opponent.name)
                    })
                    .collect();
                format!("digest for @{}: your turn in {} game(s): {}", digest.user.name, games.len(), games.join(", "))
            }
            Due::Grace { until, games } => {
                let ids: Vec<String> = games.iter().map(|g| format!("#{g}")).collect();
                format!(
                    "the scheduler was not running: the deadlines of games {} moved to {} from now",
                    ids.join(", "),
                    clock::format_duration(until - now)
                )
            }
        }
    }

    /// The board as text, whose turn or the result, and the PNG written for it.
    fn show(&self, game: &GameView) -> String {
        let mut text = format!("{}\n", game.position);
        match (game.ending, game.player_to_move()) {
            (Some(ending), _) => {
                let _ = write!(text, "game #{} is over: {ending}", game.id);
                if let Some(winner) = ending.winner {
                    let _ = write!(text, " (@{} wins)", game.player(winner).name);
                }
                text.push('\n');
                // `aborted` is both the status and the reason: said once.
                let (status, reason) = (ending.status_name(), ending.reason.name());
                if status == reason {
                    let _ = writeln!(text, "result: {status}");
                } else {
                    let _ = writeln!(text, "result: {status} {reason}");
                }
            }
            (None, Some(player)) => {
                let _ =
                    write!(text, "game #{}, ply {}: @{} ({}) to move", game.id, game.ply, player.name, game.to_move);
                if let Some(left) = game.time_left(self.now()) {
                    let _ = write!(text, ", {} left", clock::format_duration(left));
                    if game.clock.reserve_cap().is_some() {
                        let reserve = game.reserve(game.to_move);
                        let _ = write!(text, " (reserve {})", clock::format_duration(reserve));
                    }
                }
                text.push('\n');
            }
            (None, None) => {}
        }
        if let Some(path) = self.write_png(game) {
            let _ = writeln!(text, "board image: {}", path.display());
        }
        text
    }

    /// Writes the board PNG for a position: the one place where the console draws images.
    fn write_png(&self, game: &GameView) -> Option<PathBuf> {
        let (dir, renderer) = (self.boards.as_ref()?, self.renderer.as_ref()?);
        let options = BoardOptions {
            last_move: game.last_move.as_ref().map(|m| LastMove { mv: m.mv, captures: m.captures.clone() }),
            caption: Some(Caption {
                attackers: game.attacker.name.clone(),
                defenders: game.defender.name.clone(),
                move_number: u32::try_from(game.ply / 2 + 1).ok(),
                status: summary::caption_status(game.ending, Lang::En),
            }),
            ..BoardOptions::default()
        };
        let png = match renderer.render_png(&game.position, &options) {
            Ok(png) => png,
            Err(error) => {
                tracing::warn!(%error, game = game.id, "cannot draw the board");
                return None;
            }
        };
        let path = dir.join(format!("game-{}-ply-{}.png", game.id, game.ply));
        let written = std::fs::create_dir_all(dir).and_then(|()| std::fs::write(&path, png));
        match written {
            Ok(()) => Some(path),
            Err(error) => {
                tracing::warn!(%error, path = %path.display(), "cannot write the board image");
                None
            }
        }
    }
}

impl Session {
    /// Draws a card and writes it beside the board images as `name`.
    fn write_card(
        &self,
        name: &str,
        draw: impl FnOnce(&Renderer) -> Result<Vec<u8>, tafl_render::RenderError>,
    ) -> Option<PathBuf> {
        let (dir, renderer) = (self.boards.as_ref()?, self.renderer.as_ref()?);
        let png = match draw(renderer) {
            Ok(png) => png,
            Err(error) => {
                tracing::warn!(%error, name, "cannot draw the card");
                return None;
            }
        };
        let path = dir.join(name);
        match std::fs::create_dir_all(dir).and_then(|()| std::fs::write(&path, png)) {
            Ok(()) => Some(path),
            Err(error) => {
                tracing::warn!(%error, path = %path.display(), "cannot write the card");
                None
            }
        }
    }

    /// Writes the GIF of a whole game beside the board images, with the result on its last frame.
    fn write_gif(&self, summary: &Summary) -> Option<PathBuf> {
        let (dir, renderer) = (self.boards.as_ref()?, self.renderer.as_ref()?);
        let game = &summary.game;
        let options = GifOptions {
            attackers: game.attacker.name.clone(),
            defenders: game.defender.name.clone(),
            result: summary::gif_result(game.ending, Lang::En),
            ..GifOptions::default()
        };
        let gif = match renderer.render_gif(&summary.record, &options) {
            Ok(gif) => gif,
            Err(error) => {
                tracing::warn!(%error, game = game.id, "cannot draw the game");
                return None;
            }
        };
        let path = dir.join(format!("game-{}.gif", game.id));
        match std::fs::create_dir_all(dir).and_then(|()| std::fs::write(&path, gif)) {
            Ok(()) => Some(path),
            Err(error) => {
                tracing::warn!(%error, path = %path.display(), "cannot write the game animation");
                None
            }
        }
    }
}

/// `@bob` or `bob`: letters, digits, `_`, `-` and `.`, at most 32 characters.
fn parse_name(text: &str) -> Result<String, String> {
    let name = text.trim().trim_start_matches('@');
    let valid = !name.is_empty()
        && name.chars().count() <= 32
        && name.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if valid {
        Ok(name.to_owned())
    } else {
        Err(format!("\"{}\" is not a name; write @ and letters or digits, like @bob", shorten(text)))
    }
}

/// The most lines a list shows; longer ones say how many there were.
const LIST_LIMIT: usize = 25;

/// `1 ply`, `2 plies`.
fn plies(count: usize) -> String {
    if count == 1 { "1 ply".to_owned() } else { format!("{count} plies") }
}

/// A prefix longer than `prefix` to suggest, taken from the first move listed: its square, or
/// the whole move once the square is typed.
fn narrower(prefix: &str, listed: &str) -> String {
    let first = listed.split_whitespace().next().unwrap_or("e1-e2");
    let square = first.split('-').next().unwrap_or(first);
    if prefix.len() < square.len() { square.to_owned() } else { first.to_owned() }
}

fn parse_id(text: &str) -> Result<i64, String> {
    text.parse::<i64>().ok().filter(|n| *n > 0).ok_or_else(|| format!("\"{}\" is not a number like 12", shorten(text)))
}

fn internal(error: sqlx::Error) -> String {
    HostError::from(error).to_string()
}

/// At most 32 characters of what someone typed, control characters escaped.
fn shorten(text: &str) -> String {
    crate::cli::shorten(text, 32)
}

/// The current time in unix seconds.
fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}
