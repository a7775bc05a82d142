//! The commands of the local console, parsed from one line each and answered through the host.

use std::fmt::Write as _;
use std::path::PathBuf;

use tafl_render::{BoardOptions, LastMove, Mark, MarkKind, Renderer};
use tafl_rules::{Position, Variant};

use crate::host::search_pool::SearchPool;
use crate::host::{
    BotPlayer, CLAIM_AFTER, ChallengeRequest, Clock, Due, EndReason, GameId, GameView, Host, HostError, OfferAction,
    OfferOutcome, Place, ReminderKind, SideChoice, Summary, User, clock, is_bot,
};
use crate::present::markup::{self, mention};
use crate::present::{Lang, summary, text, tr};
use crate::store;

/// The one channel of the local console.
const PLACE: Place = Place { guild: 0, channel: 0, thread: None };

/// What a command printed, and whether the session ends.
#[derive(Debug, Default)]
pub struct Reply {
    pub text: String,
    pub quit: bool,
    /// The command was refused (the text is the refusal): a piped session then exits with 1.
    pub failed: bool,
}

impl Reply {
    fn text(text: impl Into<String>) -> Reply {
        Reply { text: text.into(), quit: false, failed: false }
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
    /// The language of everything printed.
    lang: Lang,
    /// Plays the bot's moves in games against it; the console waits for them after each
    /// command, so the bot's answer is printed with the move it answers.
    bots: BotPlayer,
}

impl Session {
    /// A session writing board PNGs into `boards` (none when `None`).
    #[must_use]
    pub fn new(host: Host, boards: Option<PathBuf>) -> Session {
        let renderer = boards.is_some().then(Renderer::new);
        let bots = BotPlayer::new(host.clone(), SearchPool::for_machine(), std::sync::Arc::new(|_| {}));
        Session {
            bots,
            host,
            current: "you".to_owned(),
            last_game: None,
            boards,
            renderer,
            offset: 0,
            lang: Lang::console(crate::present::locale::REFERENCE),
        }
    }

    /// The same session speaking `lang`.
    #[must_use]
    pub fn with_lang(mut self, lang: Lang) -> Session {
        self.lang = lang;
        self
    }

    /// The session's language.
    #[must_use]
    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// A refusal of the host in the session's language.
    fn refusal(&self) -> impl Fn(HostError) -> String + use<> {
        let lang = self.lang;
        move |error| text::host_error(&error, lang)
    }

    /// A person as the console names them: `@bob`.
    fn at(&self, user: &User) -> String {
        mention(self.lang, user)
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

    /// Resumes the clock of an earlier session on this database: time `/wait` added there is
    /// in the deadlines and moves it stored, and a session starting at the real time would see
    /// those in its future (a turn with more time left than it was given, a reserve growing by
    /// the wait). The clock starts at the latest moment stored when that is ahead of the real
    /// one.
    pub async fn resume_clock(&mut self) -> Result<(), String> {
        let last = self.host.latest_moment().await.map_err(self.refusal())?;
        self.offset = last.map_or(0, |last| last.saturating_sub(now()).max(0));
        Ok(())
    }

    /// Runs one command line and returns what to print.
    pub async fn execute(&mut self, line: &str) -> Reply {
        let line = line.trim();
        // `as @bob /accept`: one command as someone else.
        if let Some(rest) = line.strip_prefix("as ") {
            let rest = rest.trim_start();
            let (name, command) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            let name = match parse_name(name, self.lang) {
                Ok(name) => name,
                Err(message) => return self.error(&message),
            };
            if command.trim().is_empty() {
                return self.error(&tr!(self.lang, "console-as-needs-command"));
            }
            if !command.trim_start().starts_with('/') {
                return self.error(&tr!(self.lang, "console-as-needs-slash"));
            }
            let inner = command.trim_start()[1..].split_whitespace().next().unwrap_or("");
            if inner.eq_ignore_ascii_case("as") {
                // `/as` inside `as @bob` would switch only for that one command, then switch back.
                return self.error(&tr!(self.lang, "console-as-inside-as", player = format!("@{name}")));
            }
            let saved = std::mem::replace(&mut self.current, name);
            let reply = Box::pin(self.execute(command)).await;
            self.current = saved;
            return reply;
        }
        let Some(body) = line.strip_prefix('/') else {
            return self.error(&tr!(self.lang, "console-not-a-command"));
        };
        let mut words = body.split_whitespace();
        let name = words.next().unwrap_or("").to_ascii_lowercase();
        let args: Vec<&str> = words.collect();
        let result = match name.as_str() {
            "help" => Ok(tr!(self.lang, "console-help")),
            "quit" | "exit" => return Reply { text: tr!(self.lang, "console-bye"), quit: true, failed: false },
            "as" => self.switch(&args),
            "challenge" => self.challenge(&args).await,
            "accept" => self.accept(&args).await,
            "decline" => self.decline(&args).await,
            "cancel" => self.cancel(&args).await,
            "challenges" => self.list_challenges().await,
            "move" | "play" => self.play(&args).await,
            "moves" => self.moves(&args).await,
            "board" => self.board(&args).await,
            "hint" => self.hint(&args).await,
            "games" => self.games(&args).await,
            "resign" => self.resign(&args).await,
            "claim" => self.claim(&args).await,
            "draw" => self.offer(&args, false).await,
            "takeback" => self.offer(&args, true).await,
            "export" => self.export(&args).await,
            "summary" => self.summary(&args).await,
            "leaderboard" => self.leaderboard(&args).await,
            "profile" => self.profile(&args).await,
            "import" => self.import(&args).await,
            "variants" => Ok(self.variants()),
            "rules" => self.rules(&args),
            "tick" => self.tick().await,
            "wait" => self.wait(&args).await,
            _ => Err(if let Some(meant) = closest_command(&name) {
                tr!(self.lang, "console-unknown-command-meant", name = shorten(&name), meant = meant)
            } else {
                tr!(self.lang, "console-unknown-command", name = shorten(&name))
            }),
        };
        // What the command changed is printed above; nothing delivers the outbox here.
        if let Err(error) = self.host.discard_outbox().await {
            tracing::warn!(%error, "could not empty the outbox");
        }
        match result {
            Ok(text) => Reply::text(self.bot_answers(text).await),
            // One line, whatever the sentence quotes.
            Err(message) => self.error(&crate::printable::printable(&message)),
        }
    }

    /// `text`, followed by the moves the bot played after it (each with its board).
    async fn bot_answers(&mut self, mut text: String) -> String {
        let played = match self.bots.settle(self.now()).await {
            Ok(played) => played,
            Err(error) => {
                let _ = write!(text, "\n{}", tr!(self.lang, "console-error", message = (self.refusal())(error)));
                return text;
            }
        };
        for p in played {
            let Some(bot) = [&p.game.attacker, &p.game.defender].into_iter().find(|u| is_bot(u.id)).cloned() else {
                continue;
            };
            let line = tr!(
                self.lang,
                "console-played",
                by = self.at(&bot),
                notation = p.notation.as_str(),
                id = p.game.id,
                ply = p.game.ply
            );
            let _ = write!(text, "\n{line}\n{}", self.show(&p.game));
        }
        text
    }

    fn error(&self, message: &str) -> Reply {
        Reply { text: tr!(self.lang, "console-error", message = message), quit: false, failed: true }
    }

    fn switch(&mut self, args: &[&str]) -> Result<String, String> {
        let [name] = args else {
            return Err(tr!(self.lang, "console-as-usage"));
        };
        self.current = parse_name(name, self.lang)?;
        Ok(tr!(self.lang, "console-now-playing", player = format!("@{}", self.current)))
    }

    /// The stored player called `name`, person or bot level, if any.
    async fn find_user(&self, name: &str) -> Result<Option<User>, String> {
        let lang = self.lang;
        let internal = |error: sqlx::Error| text::host_error(&HostError::from(error), lang);
        let mut conn = self.host.db().pool().acquire().await.map_err(internal)?;
        let found = store::users::find_by_name(&mut conn, name).await.map_err(internal)?;
        Ok(found.map(|row| User { id: row.id, name: row.name }))
    }

    /// The bot's level whose stored name is `name`, if any.
    async fn bot_named(&self, name: &str) -> Result<Option<User>, String> {
        Ok(self.find_user(name).await?.filter(|user| is_bot(user.id)))
    }

    /// The stable id of a name, created on first use.
    async fn user(&self, name: &str) -> Result<User, String> {
        if let Some(user) = self.find_user(name).await? {
            return Ok(user);
        }
        let now = self.now();
        let lang = self.lang;
        let internal = |error: sqlx::Error| text::host_error(&HostError::from(error), lang);
        // Looked up again inside the write transaction: two consoles on one database agree on ids.
        let mut tx = self.host.db().begin_write().await.map_err(internal)?;
        let id = store::users::find_or_create_local(&mut tx, name, now).await.map_err(internal)?;
        tx.commit().await.map_err(internal)?;
        Ok(User { id, name: name.to_owned() })
    }

    /// The player a command that only reads names (`/profile @bob`, `/games @bob`): looked up,
    /// never created as [`Session::user`] would, so that looking a name up adds no player to
    /// the database. The one typing is there as for any of their commands.
    async fn named_player(&self, typed: &str) -> Result<User, String> {
        let name = parse_name(typed, self.lang)?;
        if name == self.current {
            return self.me().await;
        }
        self.find_user(&name)
            .await?
            .ok_or_else(|| tr!(self.lang, "console-no-such-player", player = format!("@{name}")))
    }

    async fn me(&self) -> Result<User, String> {
        self.user(&self.current.clone()).await
    }

    async fn challenge(&mut self, args: &[&str]) -> Result<String, String> {
        let me = self.me().await?;
        let lang = self.lang;
        let typed = ChallengeArgs::parse(args, lang)?;
        let against_bot = typed.against_bot || typed.level.is_some();
        // A refused challenge adds no player: what would refuse it is checked before the
        // opponent is stored. A person with a level or unrated is refused here, as the host
        // words it; the variant and options by the host's own check.
        if against_bot && typed.opponent.is_some() {
            return Err(text::host_error(&HostError::LevelWithPerson, lang));
        }
        if !against_bot && !typed.rated {
            return Err(text::host_error(&HostError::UnratedWithPerson, lang));
        }
        let variant = typed.variant.unwrap_or_else(|| "copenhagen".to_owned());
        let opponent = match &typed.opponent {
            Some(name) => {
                crate::host::check_setup(&variant, &typed.options).map_err(self.refusal())?;
                Some(self.user(name).await?)
            }
            None => None,
        };
        let request = ChallengeRequest {
            challenger: me,
            opponent,
            variant,
            options: typed.options,
            side: typed.side,
            clock: Some(typed.clock),
            place: PLACE,
        };
        let (level, rated) = (typed.level, typed.rated);
        if against_bot {
            let level = level.unwrap_or(crate::host::bot::DEFAULT_LEVEL);
            let game = self.host.challenge_bot(&request, level, rated, self.now()).await.map_err(self.refusal())?;
            self.last_game = Some(game.id);
            let bot = if is_bot(game.attacker.id) { &game.attacker } else { &game.defender };
            return Ok(format!("{}\n{}", text::bot_game_started(&game, bot, lang), self.show(&game)));
        }
        let c = self.host.challenge(&request, self.now()).await.map_err(self.refusal())?;
        let to = c.opponent.as_ref().map_or_else(|| tr!(lang, "console-anyone"), |o| self.at(o));
        let mut options = if c.options.is_empty() { String::new() } else { format!(" ({})", c.options) };
        if let Some(per_move) = c.clock.seconds_per_move() {
            let per_move = text::duration_words(per_move, lang);
            options.push_str(&match c.clock.reserve_cap() {
                None => tr!(lang, "console-with-clock", per_move = per_move),
                Some(cap) => {
                    tr!(lang, "console-with-reserve", per_move = per_move, cap = text::duration_words(cap, lang))
                }
            });
        }
        let side = tr!(
            lang,
            match c.side {
                SideChoice::Attackers => "side-choice-attackers",
                SideChoice::Defenders => "side-choice-defenders",
                SideChoice::Random => "side-choice-random",
            }
        );
        let answer = if let Some(o) = &c.opponent {
            tr!(lang, "console-challenge-answer", player = self.at(o), id = c.id)
        } else {
            tr!(lang, "console-challenge-answer-open", id = c.id)
        };
        let line = tr!(
            lang,
            "console-challenge",
            id = c.id,
            by = self.at(&c.challenger),
            to = to,
            variant = text::variant_name(&c.variant, lang),
            options = options,
            side = side
        );
        Ok(format!("{line}\n{answer}"))
    }

    /// The challenge an id-less answer means: the newest open one the current user may answer
    /// (`mine` = made by them, for /cancel).
    async fn pick_challenge(&self, args: &[&str], user: &User, mine: bool, command: &str) -> Result<i64, String> {
        if let Some(arg) = self.one_arg(args, command)? {
            let typed = arg.trim_start_matches("challenge:").trim_start_matches('#');
            return parse_id(typed, "console-bad-challenge-number", self.lang);
        }
        let list = self.host.challenges(user.id, self.now()).await.map_err(self.refusal())?;
        list.iter()
            .rev()
            .find(|c| if mine { c.challenger.id == user.id } else { c.challenger.id != user.id })
            .map(|c| c.id)
            .ok_or_else(|| {
                tr!(self.lang, if mine { "console-no-challenge-to-cancel" } else { "console-no-challenge-to-answer" })
            })
    }

    async fn accept(&mut self, args: &[&str]) -> Result<String, String> {
        let me = self.me().await?;
        let id = self.pick_challenge(args, &me, false, "accept").await?;
        let accepted = self.host.accept(id, &me, self.now()).await.map_err(self.refusal())?;
        let game = &accepted.game;
        self.last_game = Some(game.id);
        let line = tr!(
            self.lang,
            "console-accepted",
            by = self.at(&me),
            challenge = id,
            id = game.id,
            variant = text::variant_name(&game.variant, self.lang),
            attacker = self.at(&game.attacker),
            defender = self.at(&game.defender)
        );
        Ok(format!("{line}\n{}", self.show(game)))
    }

    async fn decline(&mut self, args: &[&str]) -> Result<String, String> {
        let me = self.me().await?;
        let id = self.pick_challenge(args, &me, false, "decline").await?;
        let c = self.host.decline(id, me.id, self.now()).await.map_err(self.refusal())?;
        Ok(tr!(self.lang, "console-declined", by = self.at(&me), id = c.id, challenger = self.at(&c.challenger)))
    }

    async fn cancel(&mut self, args: &[&str]) -> Result<String, String> {
        let me = self.me().await?;
        let id = self.pick_challenge(args, &me, true, "cancel").await?;
        let c = self.host.cancel(id, me.id, self.now()).await.map_err(self.refusal())?;
        Ok(tr!(self.lang, "console-cancelled", id = c.id))
    }

    async fn list_challenges(&mut self) -> Result<String, String> {
        let me = self.me().await?;
        let lang = self.lang;
        let list = self.host.challenges(me.id, self.now()).await.map_err(self.refusal())?;
        if list.is_empty() {
            return Ok(tr!(lang, "console-no-open-challenges"));
        }
        let mut out = String::new();
        for c in list {
            let to = c.opponent.as_ref().map_or_else(|| tr!(lang, "console-anyone"), |o| self.at(o));
            let line = tr!(
                lang,
                "console-challenge-line",
                id = c.id,
                by = self.at(&c.challenger),
                to = to,
                variant = text::variant_name(&c.variant, lang),
                options = c.options.as_str()
            );
            let _ = writeln!(out, "{}", line.trim_end());
        }
        Ok(out)
    }

    /// The one thing a command names (a game, a challenge, a person), if it names one: a second
    /// word (`/resign 1 2`) is refused rather than left unread, as a command that ends or
    /// answers something must not guess.
    fn one_arg<'a>(&self, args: &[&'a str], command: &str) -> Result<Option<&'a str>, String> {
        match args {
            [] => Ok(None),
            [game] => Ok(Some(game)),
            [_, extra, ..] => Err(tr!(self.lang, "console-bad-option", input = shorten(extra), command = command)),
        }
    }

    /// The game a command that acts in one (`/move`, `/resign`, an offer) means: `game:N` or
    /// the number typed, else the game last played in this session if the user plays in it and
    /// it is going on, else their newest ongoing game.
    async fn pick_game(&self, explicit: Option<&str>, user: &User) -> Result<GameId, String> {
        self.pick_game_of(explicit, user, false).await
    }

    /// As [`Session::pick_game`], for commands that only read a game (`/board`, `/export`,
    /// `/summary`), which may read anyone's, finished or not: the game last played here counts
    /// whoever plays it (after `/import FILE @ann @ben`, a bare `/summary` is about that game),
    /// else the user's newest game.
    async fn pick_game_to_read(&self, explicit: Option<&str>, user: &User) -> Result<GameId, String> {
        self.pick_game_of(explicit, user, true).await
    }

    async fn pick_game_of(&self, explicit: Option<&str>, user: &User, reading: bool) -> Result<GameId, String> {
        if let Some(text) = explicit {
            return parse_id(
                text.trim_start_matches("game:").trim_start_matches('#'),
                "console-bad-game-number",
                self.lang,
            );
        }
        if let Some(id) = self.last_game
            && let Ok(game) = self.host.show(id).await
            && (reading || (game.players().contains(&user.id) && !game.is_over()))
        {
            return Ok(id);
        }
        let games = self.host.games(user.id, reading).await.map_err(self.refusal())?;
        // A command that reads finished games is not asking for a game going.
        let none = if reading { "console-no-game-of-yours" } else { "console-no-game" };
        games.first().map(|g| g.id).ok_or_else(|| tr!(self.lang, none))
    }

    /// The `game:N` among a command's words, if any: a second one is refused, as a command that
    /// plays must not guess which game was meant.
    fn game_option<'a>(&self, args: &[&'a str]) -> Result<Option<&'a str>, String> {
        let mut games = args.iter().filter(|a| a.starts_with("game:"));
        match (games.next(), games.next()) {
            (Some(first), Some(second)) => {
                Err(tr!(self.lang, "console-two-games", first = shorten(first), second = shorten(second)))
            }
            (first, _) => Ok(first.copied()),
        }
    }

    async fn play(&mut self, args: &[&str]) -> Result<String, String> {
        let me = self.me().await?;
        let game_arg = self.game_option(args)?;
        let notation: Vec<&str> = args.iter().filter(|a| !a.starts_with("game:")).copied().collect();
        if notation.is_empty() {
            return Err(tr!(self.lang, "console-move-usage"));
        }
        let id = self.pick_game(game_arg, &me).await?;
        let played = self.host.play(id, me.id, &notation.join(" "), None, self.now()).await.map_err(self.refusal())?;
        self.last_game = Some(id);
        let line = tr!(
            self.lang,
            "console-played",
            by = self.at(&me),
            notation = played.notation.as_str(),
            id = id,
            ply = played.game.ply
        );
        Ok(format!("{line}\n{}", self.show(&played.game)))
    }

    async fn moves(&mut self, args: &[&str]) -> Result<String, String> {
        let me = self.me().await?;
        let game_arg = self.game_option(args)?;
        let prefix: String = args.iter().filter(|a| !a.starts_with("game:")).copied().collect();
        let id = self.pick_game(game_arg, &me).await?;
        let choices = self.host.legal_moves(id, me.id, &prefix, usize::MAX).await.map_err(self.refusal())?;
        if choices.is_empty() {
            return Ok(tr!(self.lang, "console-no-legal-move", prefix = shorten(&prefix)));
        }
        let total = choices.len();
        let mut listed =
            choices.iter().take(LIST_LIMIT).map(|c| text::move_label(c, self.lang)).collect::<Vec<_>>().join("\n");
        if total > LIST_LIMIT {
            let narrower = narrower(&prefix, &listed);
            let cut = tr!(self.lang, "console-moves-cut", shown = LIST_LIMIT, total = total, prefix = narrower);
            let _ = write!(listed, "\n{cut}");
        }
        Ok(listed)
    }

    async fn board(&mut self, args: &[&str]) -> Result<String, String> {
        let me = self.me().await?;
        let id = self.pick_game_to_read(self.one_arg(args, "board")?, &me).await?;
        let game = self.host.show(id).await.map_err(self.refusal())?;
        Ok(self.show(&game))
    }

    /// `/hint [N]`: the engine's move in the player's unrated game against the bot, drawn on a
    /// board image beside the others.
    async fn hint(&mut self, args: &[&str]) -> Result<String, String> {
        let me = self.me().await?;
        let id = self.pick_game(self.one_arg(args, "hint")?, &me).await?;
        let (view, job) = self.host.hint_game(id, me.id).await.map_err(self.refusal())?;
        let analysis = self.bots.hint(me.id, self.now(), job.clone()).await.map_err(self.refusal())?;
        let mut out = tr!(self.lang, "console-hint", notation = analysis.best.to_string(), id = id);
        let options = summary::hint_board(&view, &job.game, analysis.best, self.lang);
        let name = format!("hint-{id}-ply-{}.png", view.ply);
        if let Some(path) = self.write_picture(&name, |r| r.render_png(&view.position, &options)) {
            let _ = write!(out, "\n{}", tr!(self.lang, "console-board-image", path = path.display().to_string()));
        }
        Ok(out)
    }

    /// `/games [@user] [all]`. Every word is read: `all` in any case, and one player, named
    /// with or without the `@` as `/profile` reads them (`/games bob` listed the typer's own
    /// games, as if they were bob's); an option or a second player is refused.
    async fn games(&mut self, args: &[&str]) -> Result<String, String> {
        let mut all = false;
        let mut named: Option<&str> = None;
        for &arg in args {
            if arg.eq_ignore_ascii_case("all") {
                all = true;
            } else if arg.contains([':', '=']) {
                return Err(tr!(self.lang, "console-bad-option", input = shorten(arg), command = "games"));
            } else if let Some(first) = named {
                return Err(tr!(self.lang, "console-games-two-players", first = shorten(first), second = shorten(arg)));
            } else {
                named = Some(arg);
            }
        }
        let user = match named {
            Some(name) if is_the_engine(&format!("@{}", name.trim_start_matches('@'))) => {
                return Err(text::host_error(&HostError::TheBotHasLevels, self.lang));
            }
            Some(name) => self.named_player(name).await?,
            None => self.me().await?,
        };
        let lang = self.lang;
        let mine = self.me().await?.id == user.id;
        let games = self.host.games(user.id, all).await.map_err(self.refusal())?;
        if games.is_empty() {
            return Ok(tr!(
                lang,
                if all { "console-no-games" } else { "console-no-ongoing-games" },
                player = self.at(&user)
            ));
        }
        let shown = games.len();
        let total = self.host.count_games(user.id, all).await.map_err(self.refusal())?;
        let mut out = String::new();
        for g in games {
            let state = match g.ending {
                Some(ending) => summary::result_caption(ending, lang),
                None if g.my_turn() => tr!(lang, "console-turn", player = self.at(&user)),
                None => tr!(lang, "console-turn", player = self.at(&g.opponent)),
            };
            let state = match g.time_left(self.now()) {
                Some(left) => tr!(lang, "console-time-left", state = state, left = text::compact_duration(left, lang)),
                // Only in one's own list: another's never tells the reader what they may do.
                None if mine && g.claimable_by_me(self.now()) => tr!(lang, "console-claimable-state", state = state),
                None => state,
            };
            let line = tr!(
                lang,
                "console-game-line",
                id = g.id,
                variant = text::variant_name(&g.variant, lang),
                opponent = self.at(&g.opponent),
                side = text::side_name(g.side, lang),
                ply = g.ply,
                state = state
            );
            let _ = writeln!(out, "{line}");
        }
        if total > shown {
            let cut = tr!(lang, "console-games-cut", shown = shown, total = total, player = self.at(&user));
            let _ = writeln!(out, "{cut}");
        }
        Ok(out)
    }

    async fn resign(&mut self, args: &[&str]) -> Result<String, String> {
        let me = self.me().await?;
        let id = self.pick_game(self.one_arg(args, "resign")?, &me).await?;
        let finished = self.host.resign(id, me.id, None, self.now()).await.map_err(self.refusal())?;
        let line = tr!(self.lang, "console-resigned", by = self.at(&me), id = id);
        Ok(format!("{line}\n{}", self.show(&finished.game)))
    }

    async fn claim(&mut self, args: &[&str]) -> Result<String, String> {
        let me = self.me().await?;
        let id = self.pick_game(self.one_arg(args, "claim")?, &me).await?;
        let finished = self.host.claim(id, me.id, self.now()).await.map_err(self.refusal())?;
        Ok(format!("{}\n{}", text::claimed(&finished.game, self.lang), self.show(&finished.game)))
    }

    async fn offer(&mut self, args: &[&str], takeback: bool) -> Result<String, String> {
        let me = self.me().await?;
        let lang = self.lang;
        let action = match args.first().map(|a| a.to_ascii_lowercase()).as_deref() {
            Some("offer" | "request") => OfferAction::Offer,
            Some("accept" | "yes") => OfferAction::Accept,
            Some("decline" | "no" | "withdraw") => OfferAction::Decline,
            _ => return Err(tr!(lang, if takeback { "console-takeback-usage" } else { "console-draw-usage" })),
        };
        let command = if takeback { "takeback" } else { "draw" };
        let id = self.pick_game(self.one_arg(args.get(1..).unwrap_or_default(), command)?, &me).await?;
        let outcome = if takeback {
            self.host.takeback(id, me.id, action, None, self.now()).await
        } else {
            self.host.draw(id, me.id, action, None, self.now()).await
        }
        .map_err(self.refusal())?;
        self.last_game = Some(id);
        let game = outcome.game();
        // The bot answers an offer at once: the answer is its own.
        let by = self.at(if game.attacker.id == outcome.by() { &game.attacker } else { &game.defender });
        Ok(match &outcome {
            OfferOutcome::Offered { game, .. } => {
                let other = self.at(if game.attacker.id == me.id { &game.defender } else { &game.attacker });
                let kind = if takeback { "console-offered-takeback" } else { "console-offered-draw" };
                tr!(lang, kind, by = by, id = id, other = other)
            }
            OfferOutcome::Accepted { game, plies_taken_back, .. } if takeback => {
                let line = tr!(lang, "console-takeback-accepted", by = by, plies = *plies_taken_back, id = id);
                format!("{line}\n{}", self.show(game))
            }
            OfferOutcome::Accepted { game, .. } => {
                format!("{}\n{}", tr!(lang, "console-draw-accepted", by = by), self.show(game))
            }
            OfferOutcome::Declined { withdrawn: true, .. } => {
                tr!(lang, if takeback { "console-withdrew-takeback" } else { "console-withdrew-draw" }, by = by)
            }
            OfferOutcome::Declined { .. } => {
                tr!(lang, if takeback { "console-declined-takeback" } else { "console-declined-draw" }, by = by)
            }
        })
    }

    async fn export(&mut self, args: &[&str]) -> Result<String, String> {
        let me = self.me().await?;
        let id = self.pick_game_to_read(self.one_arg(args, "export")?, &me).await?;
        self.host.export(id).await.map_err(self.refusal())
    }

    async fn summary(&mut self, args: &[&str]) -> Result<String, String> {
        let me = self.me().await?;
        let id = self.pick_game_to_read(self.one_arg(args, "summary")?, &me).await?;
        // The console has no message to edit later, so a finished game's pending review is run
        // here, before the summary is read: a few seconds at most, and the summary then names
        // the turning point. Should it fail, the summary is shown without it.
        if let Err(error) = self.host.review_game(id, self.bots.pool(), self.now()).await {
            tracing::warn!(%error, game = id, "the game could not be reviewed");
        }
        let summary = self.host.summary(id).await.map_err(self.refusal())?;
        let words = summary::summary_text(&summary, self.lang);
        let mut out = format!("{}\n{}\n", words.title, words.description);
        if let Some(path) = self.write_gif(&summary) {
            let _ = writeln!(out, "{}", tr!(self.lang, "console-game-animation", path = path.display().to_string()));
        }
        let card = crate::present::cards::summary_card(&summary, self.lang, tafl_render::Theme::default());
        if let Some(path) = self.write_picture(&format!("game-{id}-summary.png"), |r| r.render_summary_card(&card)) {
            let _ = writeln!(out, "{}", tr!(self.lang, "console-summary-card", path = path.display().to_string()));
        }
        Ok(out)
    }

    /// `/leaderboard [variant] [against_bot:true]`, as in Discord: the people's games, or the
    /// pool of games against the bot.
    async fn leaderboard(&mut self, args: &[&str]) -> Result<String, String> {
        // The family's words, as its title shows them ("Sea Battle", «Морской бой») or by id.
        let mut words: Vec<&str> = Vec::new();
        let mut against_bot = false;
        for arg in args {
            if let Some(value) = arg.strip_prefix("against_bot:") {
                against_bot = flag(arg, "against_bot", value, self.lang)?;
            } else if !arg.contains(':') {
                words.push(arg);
            } else {
                return Err(tr!(self.lang, "console-bad-option", input = shorten(arg), command = "leaderboard"));
            }
        }
        let typed = words.join(" ");
        let typed = unquote(&typed);
        let variant = text::typed_family(if typed.is_empty() { "copenhagen" } else { typed }, self.lang);
        let family = if against_bot { crate::host::in_bot_pool(&variant) } else { variant };
        let board = self.host.leaderboard(&family, None, 20, self.now()).await.map_err(|error| match error {
            // The console takes a family's id too (`sea-battle`, `seed-001`), unlike Discord,
            // whose list offers the variants: say both.
            HostError::UnknownFamily { input } => tr!(
                self.lang,
                "console-unknown-leaderboard",
                input = shorten(&input),
                variants = Variant::ALL.map(Variant::id).join(", "),
                families = crate::host::rating_families().join(", ")
            ),
            error => (self.refusal())(error),
        })?;
        let words = summary::leaderboard_text(&board, self.lang);
        let mut out = format!("{}\n{}", words.title, words.description);
        let trends = self.host.rating_trends(&board, 20).await.map_err(self.refusal())?;
        let card = crate::present::cards::leaderboard_card(&board, &trends, self.lang, tafl_render::Theme::default());
        // A file name, not the pool's key: "bot:" would put a colon in it.
        let name = match crate::host::split_pool(&board.family) {
            (family, true) => format!("leaderboard-bot-{family}.png"),
            (family, false) => format!("leaderboard-{family}.png"),
        };
        if let Some(path) = self.write_picture(&name, |r| r.render_leaderboard_card(&card)) {
            let _ = write!(out, "\n{}", tr!(self.lang, "console-leaderboard-card", path = path.display().to_string()));
        }
        Ok(out)
    }

    async fn profile(&mut self, args: &[&str]) -> Result<String, String> {
        let user = match self.one_arg(args, "profile")? {
            Some(name) if is_the_engine(name) => return Err(text::host_error(&HostError::TheBotHasLevels, self.lang)),
            Some(name) => self.named_player(name).await?,
            None => self.me().await?,
        };
        let profile = self.host.profile(user.id, None, self.now()).await.map_err(self.refusal())?;
        let words = summary::profile_text(&profile, self.lang);
        let mut out = format!("{}\n{}", words.title, words.description);
        let history = self.host.rating_history(user.id, None).await.map_err(self.refusal())?;
        let card = crate::present::cards::profile_card(&profile, &history, self.lang, tafl_render::Theme::default());
        if let Some(path) = self.write_picture(&format!("profile-{}.png", user.id), |r| r.render_profile_card(&card)) {
            let _ = write!(out, "\n{}", tr!(self.lang, "console-profile-card", path = path.display().to_string()));
        }
        Ok(out)
    }

    async fn import(&mut self, args: &[&str]) -> Result<String, String> {
        let Some((path, names)) = args.split_first() else {
            return Err(tr!(self.lang, "console-import-usage"));
        };
        if names.len() > 2 {
            return Err(tr!(self.lang, "console-import-two-players"));
        }
        let lang = self.lang;
        let record = crate::limits::read_file(std::path::Path::new(path)).map_err(|error| match error {
            crate::limits::ReadError::TooLarge => tr!(lang, "console-too-large", path = shorten(path)),
            crate::limits::ReadError::Io(error) => {
                // The operating system's words are English; the log keeps them, and the common
                // reasons are said in the session's language.
                tracing::info!(%error, path = %shorten(path), "cannot read a record file");
                let key = match error.kind() {
                    std::io::ErrorKind::NotFound => "console-cannot-read-missing",
                    std::io::ErrorKind::PermissionDenied => "console-cannot-read-denied",
                    std::io::ErrorKind::IsADirectory => "console-cannot-read-folder",
                    _ => "console-cannot-read",
                };
                tr!(lang, key, path = shorten(path))
            }
        })?;
        // Players named on the command line, else the record's own [attackers:…] and
        // [defenders:…] tags, else the one typing. Every name is read, and the record checked
        // as the host will check it, before anyone is stored: a refused import adds no player.
        let tags = tafl_rules::otn::GameRecord::parse(&record).map(|r| r.tags).unwrap_or_default();
        let tag = |key: &str| tags.iter().find(|(k, _)| k == key).map(|(_, v)| v.trim().to_owned());
        let mut players = Vec::with_capacity(2);
        for (given, side) in [(names.first(), tafl_rules::Side::Attackers), (names.get(1), tafl_rules::Side::Defenders)]
        {
            let name = match (given, tag(side.name())) {
                (Some(given), _) => parse_name(given, lang)?,
                (None, Some(tagged)) => {
                    // `/export` names the bot as it is stored ("Tafl bot (level 3)"): its game
                    // comes back as a game against that level.
                    if let Some(bot) = self.bot_named(&tagged).await? {
                        players.push(ImportPlayer::Bot(bot));
                        continue;
                    }
                    parse_name(&tagged, lang).map_err(|e| {
                        tr!(lang, "console-bad-record-player", side = text::side_name(side, lang), error = e)
                    })?
                }
                (None, None) => self.current.clone(),
            };
            players.push(ImportPlayer::Named(name));
        }
        crate::host::check_import(&record).map_err(self.refusal())?;
        let mut users = Vec::with_capacity(2);
        for player in players {
            users.push(match player {
                ImportPlayer::Bot(bot) => bot,
                ImportPlayer::Named(name) => self.user(&name).await?,
            });
        }
        let (attacker, defender) = (users[0].clone(), users[1].clone());
        let game = self.host.import(&record, &attacker, &defender, PLACE, self.now()).await.map_err(self.refusal())?;
        self.last_game = Some(game.id);
        let line = tr!(
            lang,
            "console-imported",
            id = game.id,
            variant = text::variant_name(&game.variant, lang),
            plies = game.ply,
            attacker = self.at(&game.attacker),
            defender = self.at(&game.defender)
        );
        Ok(format!("{line}\n{}", self.show(&game)))
    }

    /// `/variants`: the presets, a line each, as Discord lists them.
    fn variants(&self) -> String {
        let lang = self.lang;
        format!("{}\n{}", text::variants_title(lang), markup::plain(&text::variants_list(lang)))
    }

    /// `/rules VARIANT`: the preset's rules in a few lines, as in Discord, and its start position
    /// drawn beside the boards.
    fn rules(&self, args: &[&str]) -> Result<String, String> {
        let lang = self.lang;
        // The presets' rules only, named by id or as their names are written ("Sea Battle 9x9",
        // «Таблут»): options are for a challenge.
        if let Some(option) = args.iter().find(|arg| arg.contains(['=', ':'])) {
            return Err(tr!(lang, "console-bad-option", input = shorten(option), command = "rules"));
        }
        if args.is_empty() {
            return Err(tr!(lang, "console-rules-usage"));
        }
        let typed = text::typed_variant(unquote(&args.join(" ")), lang);
        let variant = typed.parse::<Variant>().map_err(|e| text::host_error(&HostError::BadSetup(e), lang))?;
        let name = text::variant_name(variant.id(), lang);
        let mut out = format!("{name}\n{}", markup::plain(&text::rules_description(variant, lang)));
        let start = Position::new(variant.rules()).map_err(|e| text::host_error(&HostError::BadSetup(e), lang))?;
        let file = format!("rules-{}.png", variant.id());
        if let Some(path) = self.write_picture(&file, |r| r.render_png(&start, &BoardOptions::default())) {
            let _ = write!(out, "\n{}", tr!(lang, "console-board-image", path = path.display().to_string()));
        }
        Ok(out)
    }

    async fn tick(&mut self) -> Result<String, String> {
        let now = self.now();
        self.host.first_tick_at_latest_change().await.map_err(self.refusal())?;
        let found = self.host.tick(now).await.map_err(self.refusal())?;
        if found.is_empty() {
            return Ok(tr!(self.lang, "console-nothing-due"));
        }
        Ok(found.iter().map(|due| self.describe_due(due, now)).collect::<Vec<_>>().join("\n"))
    }

    /// Lets `args` (a duration) pass, ticking at each moment something comes due, as a bot
    /// running throughout would; prints what came due and when.
    async fn wait(&mut self, args: &[&str]) -> Result<String, String> {
        const MAX: i64 = 366 * 24 * 3600;
        if args.is_empty() {
            // `"" is not a time to wait` quoted nothing.
            return Err(tr!(self.lang, "console-wait-usage"));
        }
        let text = args.join(" ");
        let seconds = clock::parse_duration(&text)
            .filter(|s| (1..=MAX).contains(s))
            .ok_or_else(|| tr!(self.lang, "console-bad-wait", input = shorten(&text)))?;
        let start = self.now();
        let end = start + seconds;
        // The first tick, at the start, is an ordinary one: it may find the downtime since the
        // session's last tick, as the bot's would after an outage (on a database that never
        // ticked, since its latest change). Then the bot runs throughout the wait: no downtime
        // between its ticks, however far apart.
        self.host.first_tick_at_latest_change().await.map_err(self.refusal())?;
        let throughout = self.host.clone().without_downtime();
        let mut host = &self.host;
        let mut at = start;
        let mut lines = Vec::new();
        loop {
            // To the nearest minute past the first: the moments count from the moves, a few
            // seconds of typing before the wait began, and `[+13d23h59m57s]` reads worse than
            // `[+14d]`.
            let offset = if at - start < 60 { at - start } else { (at - start + 30) / 60 * 60 };
            // One tick handles at most a batch of each kind; what is left at this moment comes
            // at the next tick, here at once (a tick marks what it returns done, so this ends).
            loop {
                let found = host.tick(at).await.map_err(self.refusal())?;
                if found.is_empty() {
                    break;
                }
                for due in found {
                    let line = self.describe_due(&due, at);
                    lines.push(format!("[+{}] {line}", text::compact_duration(offset, self.lang)));
                }
            }
            if at >= end {
                break;
            }
            host = &throughout;
            let next = throughout.next_due_after(at).await.map_err(self.refusal())?;
            at = next.map_or(end, |next| next.min(end));
        }
        self.offset = self.offset.saturating_add(seconds);
        if lines.is_empty() {
            lines.push(tr!(self.lang, "console-nothing-came-due"));
        }
        let waited = tr!(self.lang, "console-waited", duration = text::compact_duration(seconds, self.lang));
        Ok(format!("{waited}\n{}", lines.join("\n")))
    }

    /// What the scheduler found, as the console shows it.
    fn describe_due(&self, due: &Due, now: i64) -> String {
        let lang = self.lang;
        match due {
            Due::Reminder(r) => {
                let left = text::compact_duration(r.deadline_at - now, lang);
                let id = match r.kind {
                    ReminderKind::Halfway => "console-reminder",
                    ReminderKind::LastWarning => "console-last-warning",
                    ReminderKind::ClaimWarning if r.ply < crate::host::PLIES_TO_COUNT => "console-claim-warning-aborts",
                    ReminderKind::ClaimWarning => "console-claim-warning",
                };
                tr!(lang, id, player = self.at(&r.player), id = r.game, left = left, opponent = self.at(&r.opponent))
            }
            Due::TimedOut(finished) => {
                let game = &finished.game;
                let loser = game.player(game.to_move);
                let line = tr!(lang, "console-timed-out", player = self.at(loser), id = game.id);
                format!("{line}\n{}", self.show(game).trim_end())
            }
            Due::Claimable(c) => tr!(
                lang,
                if c.aborts { "console-claimable-aborts" } else { "console-claimable" },
                player = self.at(&c.claimant),
                absent = self.at(&c.absent),
                id = c.game,
                days = CLAIM_AFTER / 86_400
            ),
            Due::Claimed(finished) => {
                let game = &finished.game;
                let aborted = game.ending.is_some_and(|e| e.reason == EndReason::Aborted);
                let line = tr!(
                    lang,
                    if aborted { "console-claimed-aborted" } else { "console-claimed" },
                    player = self.at(game.player(game.to_move.opponent())),
                    absent = self.at(game.player(game.to_move)),
                    id = game.id,
                    days = CLAIM_AFTER / 86_400
                );
                format!("{line}\n{}", self.show(game).trim_end())
            }
            Due::ChallengeExpired(c) => tr!(lang, "console-challenge-expired", id = c.id, by = self.at(&c.challenger)),
            Due::Digest(digest) => {
                let games: Vec<String> = digest
                    .awaiting
                    .games
                    .iter()
                    .map(|g| {
                        let left = g.time_left(now).map_or_else(String::new, |s| {
                            tr!(lang, "console-left", left = text::compact_duration(s, lang))
                        });
                        tr!(
                            lang,
                            "console-digest-game",
                            id = g.id,
                            variant = text::variant_name(&g.variant, lang),
                            opponent = self.at(&g.opponent),
                            left = left
                        )
                    })
                    .collect();
                tr!(
                    lang,
                    "console-digest",
                    player = self.at(&digest.user),
                    count = digest.awaiting.total,
                    games = games.join(", ")
                )
            }
            Due::PausedGames(paused) => {
                let ids: Vec<String> = paused.games.iter().map(|g| text::short_number(g.id, lang)).collect();
                tr!(
                    lang,
                    "console-paused-games",
                    player = self.at(&paused.user),
                    count = ids.len(),
                    games = ids.join(", ")
                )
            }
            Due::Grace { until, games } => {
                let ids: Vec<String> = games.iter().map(|g| text::short_number(*g, lang)).collect();
                tr!(lang, "console-grace", games = ids.join(", "), after = text::compact_duration(until - now, lang))
            }
        }
    }

    /// The board as text, whose turn or the result, and the PNG written for it.
    fn show(&self, game: &GameView) -> String {
        let lang = self.lang;
        let mut out = format!("{}\n", game.position);
        match (game.ending, game.player_to_move()) {
            (Some(ending), _) => {
                let mut result = summary::result_caption(ending, lang);
                if let Some(winner) = ending.winner {
                    let _ = write!(result, " ({})", tr!(lang, "console-winner", player = self.at(game.player(winner))));
                }
                let _ = writeln!(out, "{}", tr!(lang, "console-game-over", id = game.id, result = result));
                // `aborted` is both the status and the reason: said once.
                let (status, reason) = (ending.status_name(), ending.reason.name());
                let reason = if status == reason { String::new() } else { format!(" {reason}") };
                let _ = writeln!(out, "{}", tr!(lang, "console-result", status = status, reason = reason));
            }
            (None, Some(player)) => {
                let _ = write!(
                    out,
                    "{}",
                    tr!(
                        lang,
                        "console-to-move",
                        id = game.id,
                        ply = game.ply,
                        player = self.at(player),
                        side = game.to_move.name()
                    )
                );
                if let Some(left) = game.time_left(self.now()) {
                    let _ = write!(out, "{}", tr!(lang, "console-left", left = text::compact_duration(left, lang)));
                    if game.clock.reserve_cap().is_some() {
                        let reserve = text::compact_duration(game.reserve(game.to_move), lang);
                        let _ = write!(out, "{}", tr!(lang, "console-reserve", reserve = reserve));
                    }
                }
                out.push('\n');
            }
            (None, None) => {}
        }
        if let Some(path) = self.write_png(game) {
            let _ = writeln!(out, "{}", tr!(lang, "console-board-image", path = path.display().to_string()));
        }
        out
    }

    /// Writes the board PNG for a position.
    fn write_png(&self, game: &GameView) -> Option<PathBuf> {
        let options = BoardOptions {
            last_move: game.last_move.as_ref().map(|m| LastMove { mv: m.mv, captures: m.captures.clone() }),
            caption: Some(summary::caption(game, self.lang)),
            // The captured king stays on the board; the mark says why the game ended.
            marks: game
                .ending
                .filter(|e| e.reason == EndReason::Board(tafl_rules::Reason::KingCaptured))
                .map(|_| Mark { square: game.position.king(), kind: MarkKind::Danger })
                .into_iter()
                .collect(),
            ..BoardOptions::default()
        };
        let name = format!("game-{}-ply-{}.png", game.id, game.ply);
        self.write_picture(&name, |r| r.render_png(&game.position, &options))
    }
}

impl Session {
    /// Draws a picture (a board, a hint, a card) and writes it beside the board images as
    /// `name`: the one place where the console writes images. A failure is logged and skipped.
    fn write_picture(
        &self,
        name: &str,
        draw: impl FnOnce(&Renderer) -> Result<Vec<u8>, tafl_render::RenderError>,
    ) -> Option<PathBuf> {
        let (dir, renderer) = (self.boards.as_ref()?, self.renderer.as_ref()?);
        let png = match draw(renderer) {
            Ok(png) => png,
            Err(error) => {
                tracing::warn!(%error, name, "cannot draw the picture");
                return None;
            }
        };
        let path = dir.join(name);
        match std::fs::create_dir_all(dir).and_then(|()| crate::cli::write_whole(&path, &png)) {
            Ok(()) => Some(path),
            Err(error) => {
                tracing::warn!(%error, path = %path.display(), "cannot write the picture");
                None
            }
        }
    }

    /// Writes the GIF of a whole game beside the board images, with the result on its last frame.
    fn write_gif(&self, summary: &Summary) -> Option<PathBuf> {
        let (dir, renderer) = (self.boards.as_ref()?, self.renderer.as_ref()?);
        let options = summary::gif_options(summary, self.lang);
        let gif = match renderer.render_gif(&summary.record, &options) {
            Ok(gif) => gif,
            Err(error) => {
                tracing::warn!(%error, game = summary.game.id, "cannot draw the game");
                return None;
            }
        };
        let path = dir.join(format!("game-{}.gif", summary.game.id));
        match std::fs::create_dir_all(dir).and_then(|()| crate::cli::write_whole(&path, &gif)) {
            Ok(()) => Some(path),
            Err(error) => {
                tracing::warn!(%error, path = %path.display(), "cannot write the game animation");
                None
            }
        }
    }
}

/// A `/challenge` line as typed, read without looking anything up: the opponent is a name, not
/// yet a stored player.
#[derive(Debug, PartialEq)]
struct ChallengeArgs {
    /// The person challenged (never the engine); `None` for anyone, or for the engine.
    opponent: Option<String>,
    /// `@ai` (or `opponent:@ai`) was named.
    against_bot: bool,
    level: Option<i64>,
    variant: Option<String>,
    options: Vec<String>,
    side: SideChoice,
    clock: Clock,
    rated: bool,
}

impl ChallengeArgs {
    /// Reads the words after `/challenge`. Each thing a challenge takes once (the opponent, the
    /// level, the variant, the side, the clock, whether it is rated) is refused when given a
    /// second time, naming both as typed, rather than silently taking the place of the first
    /// (`/challenge @bob @carol` went to @carol alone, and `rated:false rated:true` against the
    /// engine started a rated game).
    fn parse(args: &[&str], lang: Lang) -> Result<ChallengeArgs, String> {
        let mut typed = ChallengeArgs {
            opponent: None,
            against_bot: false,
            level: None,
            variant: None,
            options: Vec::new(),
            side: SideChoice::Random,
            clock: Clock::UNTIMED,
            rated: true,
        };
        // What was typed for each option taken once, to name in the refusal of a second.
        let (mut opponent, mut level, mut variant, mut side, mut clock, mut rated) =
            (None, None, None, None, None, None);
        for &arg in args {
            let is_opponent = arg.starts_with('@') || arg.starts_with("opponent:");
            if is_opponent {
                given_once(&mut opponent, arg, "console-two-opponents", lang)?;
                let name = arg.strip_prefix("opponent:").unwrap_or(arg);
                if is_the_engine(name) {
                    typed.against_bot = true;
                } else {
                    typed.opponent = Some(parse_name(name, lang)?);
                }
            } else if let Some(value) = arg.strip_prefix("level:") {
                given_once(&mut level, arg, "console-two-levels", lang)?;
                // A number out of range is the host's to refuse; anything else is no number.
                typed.level =
                    Some(value.parse::<i64>().map_err(|_| tr!(lang, "console-bad-level", input = shorten(value)))?);
            } else if let Some(value) = arg.strip_prefix("rated:") {
                given_once(&mut rated, arg, "console-two-rated", lang)?;
                typed.rated = flag(arg, "rated", value, lang)?;
            } else if let Some(value) = arg.strip_prefix("side:") {
                given_once(&mut side, arg, "console-two-sides", lang)?;
                typed.side = value.parse().map_err(|_| tr!(lang, "console-bad-side", input = shorten(value)))?;
            } else if let Some(value) = arg.strip_prefix("clock:") {
                given_once(&mut clock, arg, "console-two-clocks", lang)?;
                typed.clock = value.parse().map_err(|e| text::clock_error(&e, lang))?;
            } else if let Some(value) = arg.strip_prefix("variant:") {
                given_once(&mut variant, arg, "console-two-variants", lang)?;
                typed.variant = Some(value.to_owned());
            } else if let Some(value) = arg.strip_prefix("opt:") {
                typed.options.push(value.to_owned());
            } else if arg.contains('=') {
                typed.options.push(arg.to_owned());
            } else if variant.is_none() {
                variant = Some(arg);
                typed.variant = Some(arg.to_owned());
            } else {
                return Err(tr!(lang, "console-bad-challenge-option", input = shorten(arg)));
            }
        }
        Ok(typed)
    }
}

/// Notes that `arg` gives an option taken once, whose earlier word is `seen`: a second is
/// refused with the message `key`, naming both as typed.
fn given_once<'a>(seen: &mut Option<&'a str>, arg: &'a str, key: &str, lang: Lang) -> Result<(), String> {
    if let Some(first) = seen {
        return Err(tr!(lang, key, first = shorten(first), second = shorten(arg)));
    }
    *seen = Some(arg);
    Ok(())
}

/// A player `/import` names: a bot's level, stored already, or a person's name, stored only once
/// the record is taken.
enum ImportPlayer {
    Bot(User),
    Named(String),
}

/// The value of a yes-or-no option (`rated:false`), or the sentence that says how to write it.
fn flag(arg: &str, option: &str, value: &str, lang: Lang) -> Result<bool, String> {
    match value.to_ascii_lowercase().as_str() {
        "true" | "yes" => Ok(true),
        "false" | "no" => Ok(false),
        _ => Err(tr!(lang, "console-bad-flag", input = shorten(arg), option = option)),
    }
}

/// The names `execute` answers to, for the suggestion after a typo (a test runs every one).
pub const COMMANDS: [&str; 28] = [
    "help",
    "quit",
    "exit",
    "as",
    "challenge",
    "accept",
    "decline",
    "cancel",
    "challenges",
    "move",
    "play",
    "moves",
    "board",
    "hint",
    "games",
    "resign",
    "claim",
    "draw",
    "takeback",
    "export",
    "summary",
    "leaderboard",
    "profile",
    "import",
    "variants",
    "rules",
    "tick",
    "wait",
];

/// The command `typed` most probably meant, if one is close: the similarity (Jaro) and the
/// threshold clap uses for its own suggestions.
fn closest_command(typed: &str) -> Option<&'static str> {
    COMMANDS
        .iter()
        .map(|&c| (c, strsim::jaro(typed, c)))
        .filter(|&(_, similarity)| similarity > 0.7)
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(c, _)| c)
}

/// Whether a name typed in the console is the engine: `@ai`, as the bot itself is in Discord.
fn is_the_engine(name: &str) -> bool {
    name.eq_ignore_ascii_case("@ai")
}

/// `@bob` or `bob`: letters, digits, `_`, `-` and `.`, at most 32 characters; never `ai`, which
/// `/challenge`, `/games` and `/profile` read as the engine.
fn parse_name(text: &str, lang: Lang) -> Result<String, String> {
    let name = text.trim().trim_start_matches('@');
    let valid = !name.is_empty()
        && name.chars().count() <= 32
        && name.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if !valid {
        return Err(tr!(lang, "console-bad-name", input = shorten(text)));
    }
    if is_the_engine(&format!("@{name}")) {
        return Err(tr!(lang, "console-name-of-the-engine"));
    }
    Ok(name.to_owned())
}

/// The most lines a list shows; longer ones say how many there were.
const LIST_LIMIT: usize = 25;

/// A prefix longer than `prefix` to suggest, taken from the first move listed: its square, or
/// the whole move once the square is typed.
fn narrower(prefix: &str, listed: &str) -> String {
    let first = listed.split_whitespace().next().unwrap_or("e1-e2");
    let square = first.split('-').next().unwrap_or(first);
    if prefix.len() < square.len() { square.to_owned() } else { first.to_owned() }
}

/// A game's or a challenge's number; `refusal` names which, since `0` or `-3` is a number, only
/// not one of those ("\"0\" is not a number like 12" said otherwise).
fn parse_id(text: &str, refusal: &str, lang: Lang) -> Result<i64, String> {
    text.parse::<i64>().ok().filter(|n| *n > 0).ok_or_else(|| tr!(lang, refusal, input = shorten(text)))
}

/// A name typed in quotes, as a title shows it (`"Sea Battle 9x9"`, «Таблут»), without them:
/// how `/rules` and `/leaderboard` read a variant's or a family's name.
fn unquote(typed: &str) -> &str {
    typed.trim().trim_matches(|c| matches!(c, '"' | '«' | '»' | '“' | '”' | '„')).trim()
}

/// At most 32 characters of what someone typed, control characters escaped.
fn shorten(text: &str) -> String {
    crate::cli::shorten(text, 32)
}

/// The current time in unix seconds.
fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn english() -> Lang {
        Lang::console("en")
    }

    #[test]
    fn a_challenge_reads_each_option_once_and_names_both_of_two() {
        let lang = english();
        let read = ChallengeArgs::parse(&["@bob", "brandubh", "side:defenders", "clock:1d", "king_armed=false"], lang)
            .expect("a challenge");
        assert_eq!(read.opponent.as_deref(), Some("bob"));
        assert_eq!(read.variant.as_deref(), Some("brandubh"));
        assert_eq!((read.side, read.rated, read.against_bot), (SideChoice::Defenders, true, false));
        assert_eq!(read.options, ["king_armed=false"]);
        let refusal = |args: &[&str]| ChallengeArgs::parse(args, lang).expect_err("refused");
        assert_eq!(
            refusal(&["brandubh", "variant:tablut"]),
            "choose one variant: brandubh or variant:tablut, not both"
        );
        assert_eq!(
            refusal(&["variant:tablut", "variant:tablut"]),
            "choose one variant: variant:tablut or variant:tablut, not both"
        );
        assert_eq!(
            refusal(&["side:attackers", "side:defenders"]),
            "choose one side: side:attackers or side:defenders, not both"
        );
        assert_eq!(refusal(&["clock:1d", "clock:3d"]), "choose one clock: clock:1d or clock:3d, not both");
        assert_eq!(
            refusal(&["@ai", "rated:false", "rated:true"]),
            "say once whether the game is rated: rated:false or rated:true, not both"
        );
        assert!(
            refusal(&["@bob", "opponent:@carol"])
                .starts_with("a challenge goes to one opponent; name @bob or opponent:@carol")
        );
        assert!(refusal(&["@ai", "@bob"]).starts_with("a challenge goes to one opponent"));
        // A bare word after the variant is read as a mistyped option, as before.
        assert_eq!(refusal(&["brandubh", "tablut"]), "\"tablut\" is not a challenge option; type /help");
    }

    #[test]
    fn quotes_around_a_name_are_stripped() {
        assert_eq!(unquote("\"Sea Battle 9x9\""), "Sea Battle 9x9");
        assert_eq!(unquote("«Морской бой»"), "Морской бой");
        assert_eq!(unquote("“Tablut”"), "Tablut");
        assert_eq!(unquote("tablut"), "tablut");
    }
}
