//! Everything the bot says, in English and Russian, as plain functions: commands only pick the
//! language and send, so tests can check the words without a Discord context.

use poise::serenity_prelude as serenity;
use tafl_rules::{Escape, Game, KingCapture, Reason, Repetition, Rules, Shieldwall, Side, Square, ThronePass, Variant};

use crate::host::{
    Challenge, ChallengeState, Clock, EndReason, GameId, GameSummary, GameView, HostError, OfferKind, OfferOutcome,
    OpenOffer, Reminder, ReminderKind, SideChoice,
};

/// The language of a reply, from the Discord locale of whoever asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    En,
    Ru,
}

impl Lang {
    /// Russian for `ru`, English for everything else (Discord sends `en-US`, `ru`, `de`, …).
    #[must_use]
    pub fn from_locale(locale: Option<&str>) -> Lang {
        match locale {
            Some(locale) if locale.starts_with("ru") => Lang::Ru,
            _ => Lang::En,
        }
    }
}

/// The title of the `/tafl variants` embed.
#[must_use]
pub fn variants_title(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "Tafl variants",
        Lang::Ru => "Варианты тафла",
    }
}

/// One line per preset: `` `id` — Name: 11×11, what makes it different ``.
#[must_use]
pub fn variants_list(lang: Lang) -> String {
    Variant::ALL.into_iter().map(|variant| variant_line(variant, lang)).collect::<Vec<_>>().join("\n")
}

/// The `/tafl variants` reply. Discord allows 4096 characters in an embed description; twelve
/// lines stay far below that.
pub fn variants_embed(lang: Lang) -> serenity::CreateEmbed {
    serenity::CreateEmbed::new().title(variants_title(lang)).description(variants_list(lang))
}

/// The one-line description of a preset, derived from its rules so that it cannot drift from
/// what the engine plays.
#[must_use]
pub fn variant_line(variant: Variant, lang: Lang) -> String {
    let size = variant.size();
    format!(
        "`{}` — {}: {size}×{size}, {}",
        variant.id(),
        variant.name(),
        rule_summary(&variant.rules(), lang).join(", ")
    )
}

fn rule_summary(rules: &Rules, lang: Lang) -> Vec<&'static str> {
    let ru = lang == Lang::Ru;
    let mut parts = vec![
        match (rules.escape, ru) {
            (Escape::Corner, false) => "the king escapes to a corner",
            (Escape::Corner, true) => "король уходит в угол",
            (Escape::Edge, false) => "the king escapes to the edge",
            (Escape::Edge, true) => "король уходит на край",
        },
        match (rules.king_capture, ru) {
            (KingCapture::Strong, false) => "captured on four sides",
            (KingCapture::Strong, true) => "берётся с четырёх сторон",
            (KingCapture::StrongNearThrone, false) => "captured by four at the throne, by two elsewhere",
            (KingCapture::StrongNearThrone, true) => "берётся вчетвером у трона, вдвоём в поле",
            (KingCapture::Middleweight, false) => "captured when surrounded, edges count",
            (KingCapture::Middleweight, true) => "берётся в окружении, край считается",
        },
        match (rules.king_armed, ru) {
            (true, false) => "armed king",
            (true, true) => "король бьёт",
            (false, false) => "unarmed king",
            (false, true) => "король не бьёт",
        },
    ];
    if matches!(rules.shieldwall, Shieldwall::On { .. }) {
        parts.push(if ru { "стена щитов" } else { "shieldwall" });
    }
    if rules.exit_fort {
        parts.push(if ru { "крепость на краю" } else { "exit fort" });
    }
    if rules.encirclement {
        parts.push(if ru { "окружение" } else { "encirclement" });
    }
    parts
}

/// The presets whose id or name contains what the user typed (case-insensitive), as
/// (label, id) pairs for autocomplete: `Copenhagen Hnefatafl (11×11)` → `copenhagen`.
#[must_use]
pub fn variant_choices(typed: &str) -> Vec<(String, &'static str)> {
    let typed = typed.trim().to_lowercase();
    Variant::ALL
        .into_iter()
        .filter(|v| v.id().contains(&typed) || v.name().to_lowercase().contains(&typed))
        .map(|v| (format!("{} ({}×{})", v.name(), v.size(), v.size()), v.id()))
        .collect()
}

/// The answer to a variant id that is not a preset (typed instead of picked).
#[must_use]
pub fn unknown_variant(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "There is no such variant; please pick one from the list (/tafl variants shows them all).",
        Lang::Ru => "Такого варианта нет; выберите его из списка (все варианты: /тафл варианты).",
    }
}

/// The `/tafl rules` text: the one-line summary and the OTN rules string, for players who know
/// other tafl sites.
#[must_use]
pub fn rules_description(variant: Variant, lang: Lang) -> String {
    let size = variant.size();
    let otn = match lang {
        Lang::En => "OTN rules",
        Lang::Ru => "Правила в OTN",
    };
    let rules = variant.rules();
    format!(
        "{size}×{size}, {}.\n\n{}\n\n{otn}: `{}`",
        rule_summary(&rules, lang).join(", "),
        rules_explanation(&rules, lang).join("\n"),
        tafl_rules::otn::rules_string(&rules)
    )
}

/// The rules in a few lines, one per topic (goal, captures, throne, king, shieldwall, exit fort,
/// repetition), derived from the rule set itself so that they say what the engine plays.
#[must_use]
pub fn rules_explanation(rules: &Rules, lang: Lang) -> Vec<String> {
    let ru = lang == Lang::Ru;
    let mut lines = Vec::new();
    let goal = match (rules.escape, ru) {
        (Escape::Corner, false) => {
            "**Goal.** The defenders win when the king reaches a corner square; the attackers win by capturing the king"
        }
        (Escape::Edge, false) => {
            "**Goal.** The defenders win when the king reaches any edge square; the attackers win by capturing the king"
        }
        (Escape::Corner, true) => {
            "**Цель.** Защитники побеждают, когда король доходит до углового поля; нападающие — когда берут короля"
        }
        (Escape::Edge, true) => {
            "**Цель.** Защитники побеждают, когда король доходит до любого поля края; нападающие — когда берут короля"
        }
    };
    lines.push(match (rules.encirclement, ru) {
        (true, false) => format!("{goal} or by surrounding every defender (encirclement)."),
        (true, true) => format!("{goal} или окружив всех защитников."),
        (false, _) => format!("{goal}."),
    });
    let hostile = match (rules.has_corners(), ru) {
        (true, false) => " The corner squares are hostile: they capture like an enemy piece.",
        (true, true) => " Угловые поля враждебны: бьют как вражеская фигура.",
        (false, _) => "",
    };
    lines.push(if ru {
        format!("**Взятие.** Фигура снята, когда её зажали с двух сторон по линии; ходить можно на любое число пустых полей, как ладья.{hostile}")
    } else {
        format!("**Captures.** Pieces move like rooks; a piece is captured when sandwiched between two enemies on a line.{hostile}")
    });
    lines.push(match rules.throne {
        None if ru => "**Трон.** Трона нет: центр — обычное поле.".to_owned(),
        None => "**Throne.** None: the centre is an ordinary square.".to_owned(),
        Some(throne) => {
            let pass = match (throne.pass, ru) {
                (ThronePass::KingOnly, false) => "only the king may stop on it or pass through it",
                (ThronePass::Everyone, false) => {
                    "only the king may stop on it; any piece may pass over it while it is empty"
                }
                (ThronePass::KingOnly, true) => "вставать на него и проходить через него может только король",
                (ThronePass::Everyone, true) => "вставать на него может только король; пустой трон можно проходить",
            };
            let h = throne.hostility;
            let against = match (h.empty_to_attackers, h.empty_to_defenders, ru) {
                (true, true, false) => "when empty it is hostile to both sides",
                (true, false, false) => "when empty it is hostile to the attackers only",
                (false, true, false) => "when empty it is hostile to the defenders only",
                (false, false, false) => "it never captures",
                (true, true, true) => "пустой трон враждебен обеим сторонам",
                (true, false, true) => "пустой трон враждебен только нападающим",
                (false, true, true) => "пустой трон враждебен только защитникам",
                (false, false, true) => "трон никого не бьёт",
            };
            if ru { format!("**Трон.** {pass}; {against}.") } else { format!("**Throne.** {pass}; {against}.") }
        }
    });
    let armed = match (rules.king_armed, ru) {
        (true, false) => "The king takes part in captures",
        (false, false) => "The king does not capture",
        (true, true) => "Король участвует во взятиях",
        (false, true) => "Король не бьёт",
    };
    let captured = match (rules.king_capture, ru) {
        (KingCapture::Strong, false) => {
            "he is captured only when surrounded on all four sides (by attackers, or the throne)"
        }
        (KingCapture::StrongNearThrone, false) => {
            "on or beside the throne he must be surrounded on all four sides; elsewhere two attackers capture him"
        }
        (KingCapture::Middleweight, false) => "he is captured when surrounded, and the board's edge counts as a side",
        (KingCapture::Strong, true) => "его берут, только окружив с четырёх сторон",
        (KingCapture::StrongNearThrone, true) => {
            "на троне и рядом с ним его окружают с четырёх сторон, в поле хватает двух"
        }
        (KingCapture::Middleweight, true) => "его берут в окружении, причём край доски считается стороной",
    };
    lines.push(if ru {
        format!("**Король.** {armed}; {captured}.")
    } else {
        format!("**King.** {armed}; {captured}.")
    });
    if let Shieldwall::On { corners_may_close } = rules.shieldwall {
        let corners = match (corners_may_close, ru) {
            (true, false) => " (a corner may close the row)",
            (true, true) => " (угол может замкнуть ряд)",
            (false, _) => "",
        };
        lines.push(if ru {
            format!("**Стена щитов.** Ряд фигур у края, зажатый с обоих концов и закрытый спереди, снимается целиком{corners}.")
        } else {
            format!("**Shieldwall.** A row of pieces along the edge, bracketed at both ends and blocked in front, is captured at once{corners}.")
        });
    }
    if rules.exit_fort {
        lines.push(if ru {
            "**Крепость.** Защитники побеждают и тогда, когда король на краю может ходить и заперт в крепости, которую нельзя разбить.".to_owned()
        } else {
            "**Exit fort.** The defenders also win when the king, on the edge and able to move, sits in a fortress that can never be broken.".to_owned()
        });
    }
    lines.push(
        match (rules.repetition, ru) {
            (Repetition::Draw, false) => "**Repetition.** The third time a position occurs, the game is drawn.",
            (Repetition::MoverLoses, false) => {
                "**Repetition.** Whoever makes a position occur for the third time loses."
            }
            (Repetition::DefendersLose, false) => {
                "**Repetition.** When a position occurs for the third time, the defenders lose."
            }
            (Repetition::Ignore, false) => "**Repetition.** Positions may repeat freely.",
            (Repetition::Draw, true) => "**Повторение.** Третье повторение позиции — ничья.",
            (Repetition::MoverLoses, true) => "**Повторение.** Кто повторил позицию в третий раз, проигрывает.",
            (Repetition::DefendersLose, true) => {
                "**Повторение.** При третьем повторении позиции проигрывают защитники."
            }
            (Repetition::Ignore, true) => "**Повторение.** Позиции могут повторяться.",
        }
        .to_owned(),
    );
    lines
}

/// The private answer when something failed on our side; the cause goes to the log only.
#[must_use]
pub fn internal_error(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "Something went wrong on our side; please try again in a moment.",
        Lang::Ru => "У нас что-то сломалось; попробуйте ещё раз чуть позже.",
    }
}

/// The private answer to arguments Discord delivered but we could not read.
#[must_use]
pub fn bad_arguments(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "I could not read those options; please pick them from the command's list.",
        Lang::Ru => "Не удалось разобрать параметры; выберите их из списка команды.",
    }
}

/// An untimed game, in the clock menu.
#[must_use]
pub fn untimed(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "No clock: take all the time you need",
        Lang::Ru => "Без часов: думайте сколько угодно",
    }
}

/// The private answer to a challenge in a channel the server's managers closed to games.
#[must_use]
pub fn channel_not_allowed(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "Games are not played in this channel on this server; ask a manager, or use an allowed channel.",
        Lang::Ru => "На этом сервере в этом канале не играют; спросите модератора или перейдите в разрешённый канал.",
    }
}

/// The private answer to a server-only command used in a direct message.
#[must_use]
pub fn guild_only(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "Games are played in a server channel; use this command there.",
        Lang::Ru => "Партии играют в канале сервера; используйте команду там.",
    }
}

/// The private answer to a command this version of the bot does not know (Discord still shows
/// commands of an older version for up to an hour after an update).
#[must_use]
pub fn unknown_command(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "This command is not available any more; please reopen the command list.",
        Lang::Ru => "Этой команды больше нет; откройте список команд заново.",
    }
}

// ----- games -----

/// A host sentence (lower case, no full stop) as a message: capitalised, with a full stop.
#[must_use]
pub fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    let mut out: String = match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => return String::new(),
    };
    if !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}

/// What to tell a person the host refused, in their language. The refusals people meet on
/// Discord every day have their own words (and point at the Discord commands); the rest are the
/// host's sentences, which are English.
#[must_use]
pub fn host_error(error: &HostError, lang: Lang) -> String {
    let ru = lang == Lang::Ru;
    match error {
        HostError::StaleBoard { .. } if ru => {
            "Доска уже изменилась: ходите на текущей доске (её покажет /тафл доска).".to_owned()
        }
        HostError::StaleBoard { .. } => {
            "The board has changed since; play on the current board (/tafl board shows it).".to_owned()
        }
        HostError::NotAPlayer(_) if ru => "Это не ваша партия: её кнопки только для двух игроков.".to_owned(),
        HostError::NotAPlayer(_) => "This is not your game: only its two players can use its buttons.".to_owned(),
        HostError::NotYourTurn { player, .. } if ru => format!("Сейчас не ваш ход: ходит {player}."),
        HostError::NotYourTurn { player, .. } => format!("It is not your turn: {player} moves next."),
        HostError::OwnChallenge { id } if ru => {
            format!("Свой вызов №{id} принять нельзя; дождитесь соперника или отзовите вызов кнопкой «Отклонить».")
        }
        HostError::OwnChallenge { id } => {
            format!("You cannot accept your own challenge #{id}; wait for an opponent, or withdraw it with Decline.")
        }
        HostError::Internal => internal_error(lang).to_owned(),
        HostError::Storage(fault) => storage_fault(*fault, lang).to_owned(),
        other if ru => russian_refusal(other).unwrap_or_else(|| sentence(&other.to_string().replace(" /", " /tafl "))),
        other => sentence(&other.to_string().replace(" /", " /tafl ")),
    }
}

/// A storage fault: nothing was saved, and why.
fn storage_fault(fault: crate::host::StorageFault, lang: Lang) -> &'static str {
    use crate::host::StorageFault;
    match (fault, lang) {
        (StorageFault::DiskFull, Lang::Ru) => {
            "Диск сервера заполнен, поэтому ничего не сохранено; попробуйте снова, когда администратор бота освободит место."
        }
        (StorageFault::DiskFull, Lang::En) => {
            "The server's disk is full, so nothing was saved; try again once the bot's operator has freed space."
        }
        (StorageFault::Io, Lang::Ru) => {
            "Сервер не смог записать данные на диск, поэтому ничего не сохранено; попробуйте позже и сообщите администратору бота, если это повторится."
        }
        (StorageFault::Io, Lang::En) => {
            "The server could not write to its disk, so nothing was saved; try again later, and tell the bot's operator if it goes on."
        }
        (StorageFault::Busy, Lang::Ru) => {
            "База данных сервера занята, поэтому ничего не сохранено; попробуйте ещё раз через минуту."
        }
        (StorageFault::Busy, Lang::En) => "The server's database is busy, so nothing was saved; try again in a moment.",
    }
}

/// The host's everyday refusals in Russian; `None` for those whose words come from elsewhere
/// (the rules engine's and the notation parser's sentences, which are English).
fn russian_refusal(error: &HostError) -> Option<String> {
    Some(match error {
        HostError::ChallengeYourself => {
            "Нельзя вызвать самого себя; укажите другого игрока или оставьте вызов открытым.".to_owned()
        }
        HostError::TooManyChallenges(n) => {
            format!("У вас уже {n} открытых вызовов; отмените какой-нибудь или дождитесь ответов.")
        }
        HostError::NoSuchChallenge(id) => format!("Вызова №{id} нет; проверьте номер или начните новый: /тафл вызов."),
        HostError::ChallengeClosed { id, .. } => {
            format!("На вызов №{id} уже нельзя ответить; начните новый: /тафл вызов.")
        }
        HostError::ChallengeExpired { id } => format!("Вызов №{id} истёк; начните новый: /тафл вызов."),
        HostError::NotYourChallenge { id, opponent } => {
            format!("Вызов №{id} адресован игроку {opponent}, а не вам; начните свой: /тафл вызов.")
        }
        HostError::NotChallenger { id, challenger } => {
            format!("Отозвать вызов №{id} может только его автор, {challenger}.")
        }
        HostError::DeclineOpen { id } => {
            format!("Вызов №{id} открыт для всех, отклонять нечего; просто оставьте его.")
        }
        HostError::NoSuchGame(id) => format!("Партии №{id} нет; ваши партии покажет /тафл партии."),
        HostError::GameOver { id, .. } => format!("Партия №{id} уже окончена; начните новую: /тафл вызов."),
        HostError::NoOffer { id, .. } => format!("В партии №{id} нет такого предложения."),
        HostError::AlreadyOffered { id, .. } => {
            format!("Вы уже сделали это предложение в партии №{id}; дождитесь ответа соперника.")
        }
        HostError::TakebackPending { id } => {
            format!("Соперник попросил первым: ответьте на его просьбу вернуть ход в партии №{id}.")
        }
        HostError::NothingToTakeBack(id) => format!("В партии №{id} нет вашего хода, который можно вернуть."),
        HostError::OwnOffer { id, .. } => {
            format!("Нельзя отвечать на собственное предложение в партии №{id}; дождитесь соперника или отзовите его.")
        }
        _ => return None,
    })
}

/// The answer to a button or menu this bot did not make, or one from an older version.
#[must_use]
pub fn unknown_control(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "This button no longer works; show the current board with /tafl board.",
        Lang::Ru => "Эта кнопка больше не работает; покажите текущую доску командой /тафл доска.",
    }
}

/// The side's name as a heading, with its emoji.
#[must_use]
pub fn side_heading(side: Side, lang: Lang) -> &'static str {
    match (side, lang) {
        (Side::Attackers, Lang::En) => "⚔️ Attackers",
        (Side::Defenders, Lang::En) => "🛡️ Defenders",
        (Side::Attackers, Lang::Ru) => "⚔️ Нападающие",
        (Side::Defenders, Lang::Ru) => "🛡️ Защитники",
    }
}

/// The variant's display name, or the stored id of a custom or unknown one.
#[must_use]
pub fn variant_name(id: &str) -> String {
    id.parse::<Variant>().map_or_else(|_| id.to_owned(), |v| v.name().to_owned())
}

/// A Discord mention; rendered as the member's name, and pings only where allowed.
#[must_use]
pub fn mention(user: i64) -> String {
    format!("<@{user}>")
}

/// The full-move number of a ply (both sides' moves make one move).
#[must_use]
pub fn move_number(ply: usize) -> usize {
    ply / 2 + 1
}

/// The result in words: who won and how, or a draw.
#[must_use]
pub fn result_line(game: &GameView, lang: Lang) -> String {
    let Some(ending) = game.ending else { return String::new() };
    let how = reason_words(ending.reason, game, lang);
    match (ending.winner, lang) {
        (Some(Side::Attackers), Lang::En) => format!("**Attackers win** ({}): {how}", game.attacker.name),
        (Some(Side::Defenders), Lang::En) => format!("**Defenders win** ({}): {how}", game.defender.name),
        (Some(Side::Attackers), Lang::Ru) => format!("**Победа нападающих** ({}): {how}", game.attacker.name),
        (Some(Side::Defenders), Lang::Ru) => format!("**Победа защитников** ({}): {how}", game.defender.name),
        (None, Lang::En) => format!("**Draw**: {how}"),
        (None, Lang::Ru) => format!("**Ничья**: {how}"),
    }
}

/// How a game ended, in words, with the square where the board tells it.
#[must_use]
pub fn reason_words(reason: EndReason, game: &GameView, lang: Lang) -> String {
    let ru = lang == Lang::Ru;
    let to = game.last_move.as_ref().map(|m| m.mv.to.to_string()).unwrap_or_default();
    let king = game.position.king().to_string();
    let loser = game.ending.and_then(|e| e.winner).map(|w| game.player(w.opponent()).name.clone()).unwrap_or_default();
    match reason {
        EndReason::Board(Reason::KingEscaped) if ru => format!("король ушёл на {to}"),
        EndReason::Board(Reason::KingEscaped) => format!("the king escaped at {to}"),
        EndReason::Board(Reason::KingCaptured) if ru => format!("король взят на {king}"),
        EndReason::Board(Reason::KingCaptured) => format!("the king was captured at {king}"),
        EndReason::Board(Reason::Encirclement) if ru => "защитники окружены".to_owned(),
        EndReason::Board(Reason::Encirclement) => "the defenders are encircled".to_owned(),
        EndReason::Board(Reason::ExitFort) if ru => "неприступная крепость у края".to_owned(),
        EndReason::Board(Reason::ExitFort) => "an exit fort".to_owned(),
        EndReason::Board(Reason::Repetition) if ru => "повторение позиции".to_owned(),
        EndReason::Board(Reason::Repetition) => "repetition".to_owned(),
        EndReason::Board(Reason::NoMoves) if ru => "у проигравших не осталось ходов".to_owned(),
        EndReason::Board(Reason::NoMoves) => "no legal moves left".to_owned(),
        EndReason::Resignation if ru => format!("{loser} сдался"),
        EndReason::Resignation => format!("{loser} resigned"),
        EndReason::Time if ru => format!("у {loser} кончилось время"),
        EndReason::Time => format!("{loser} ran out of time"),
        EndReason::Aborted if ru => "партия прервана до второго хода".to_owned(),
        EndReason::Aborted => "aborted before the second move".to_owned(),
        EndReason::Agreement if ru => "по соглашению".to_owned(),
        EndReason::Agreement => "by agreement".to_owned(),
    }
}

/// The board message's title.
#[must_use]
pub fn board_title(game: &GameView, lang: Lang) -> String {
    match lang {
        Lang::En => format!("{} · game #{}", variant_name(&game.variant), game.id),
        Lang::Ru => format!("{} · партия №{}", variant_name(&game.variant), game.id),
    }
}

/// The board message's text: players, whose turn or the result, the last move, captures and
/// open offers.
#[must_use]
pub fn board_description(game: &GameView, history: &Game, offers: &[OpenOffer], lang: Lang) -> String {
    let ru = lang == Lang::Ru;
    let mut lines = vec![
        format!("{}: {}", side_heading(Side::Attackers, lang), mention(game.attacker.id)),
        format!("{}: {}", side_heading(Side::Defenders, lang), mention(game.defender.id)),
        String::new(),
    ];
    let number = move_number(game.ply);
    match game.player_to_move() {
        Some(player) if ru => lines.push(format!("Ход {number}: ходит {}", mention(player.id))),
        Some(player) => lines.push(format!("Move {number}: {} to move", mention(player.id))),
        None => lines.push(result_line(game, lang)),
    }
    if let Some(last) = &game.last_move {
        let last = notation_with_spaces(&last.to_string());
        lines.push(if ru { format!("Последний ход: `{last}`") } else { format!("Last move: `{last}`") });
    }
    let (by_attackers, by_defenders) = crate::host::captures_by_side(history);
    if by_attackers + by_defenders > 0 {
        lines.push(if ru {
            format!("Взято: нападающими {by_attackers}, защитниками {by_defenders}")
        } else {
            format!("Captured: {by_attackers} by the attackers, {by_defenders} by the defenders")
        });
    }
    if let (Some(deadline), true) = (game.deadline_at, game.ending.is_none()) {
        lines.push(if ru {
            format!("⏰ Время хода истекает <t:{deadline}:R>")
        } else {
            format!("⏰ Time runs out <t:{deadline}:R>")
        });
    }
    for offer in offers {
        let by = mention(offer.by);
        lines.push(match (offer.kind, ru) {
            (OfferKind::Draw, false) => format!("🤝 {by} offers a draw"),
            (OfferKind::Draw, true) => format!("🤝 {by} предлагает ничью"),
            (OfferKind::Takeback, false) => format!("↩️ {by} asks to take back their last move"),
            (OfferKind::Takeback, true) => format!("↩️ {by} просит вернуть свой последний ход"),
        });
    }
    lines.join("\n")
}

/// `e1-e3xe2` as `e1-e3 x e2`, easier to read.
#[must_use]
pub fn notation_with_spaces(notation: &str) -> String {
    match notation.split_once('x') {
        Some((mv, captures)) => format!("{mv} x {}", captures.replace('x', " x ")),
        None => notation.to_owned(),
    }
}

/// The "your move" notice, the one message per move that mentions (and so notifies) a player.
#[must_use]
pub fn your_move(game: &GameView, lang: Lang) -> String {
    let Some(player) = game.player_to_move() else { return String::new() };
    let variant = variant_name(&game.variant);
    let last = game.last_move.as_ref().map(|m| notation_with_spaces(&m.to_string()));
    match (lang, last) {
        (Lang::En, Some(last)) => {
            format!("{}, your move in game #{} ({variant}): `{last}` was played.", mention(player.id), game.id)
        }
        (Lang::En, None) => format!("{}, your move: game #{} ({variant}) has begun.", mention(player.id), game.id),
        (Lang::Ru, Some(last)) => {
            format!("{}, ваш ход в партии №{} ({variant}): сыгран `{last}`.", mention(player.id), game.id)
        }
        (Lang::Ru, None) => format!("{}, ваш ход: партия №{} ({variant}) началась.", mention(player.id), game.id),
    }
}

/// The private confirmation of a move played.
#[must_use]
pub fn played(notation: &str, game: GameId, lang: Lang) -> String {
    let notation = notation_with_spaces(notation);
    match lang {
        Lang::En => format!("You played `{notation}` in game #{game}."),
        Lang::Ru => format!("Вы сыграли `{notation}` в партии №{game}."),
    }
}

/// The notice to the other player about an offer, a decline or a takeback.
#[must_use]
pub fn offer_notice(outcome: &OfferOutcome, kind: OfferKind, by: i64, lang: Lang) -> String {
    let ru = lang == Lang::Ru;
    let by = mention(by);
    let id = outcome.game().id;
    match (outcome, kind, ru) {
        (OfferOutcome::Offered { notify, .. }, OfferKind::Draw, false) => {
            format!("{}, {by} offers a draw in game #{id}: accept or decline on the board.", mention(*notify))
        }
        (OfferOutcome::Offered { notify, .. }, OfferKind::Draw, true) => {
            format!("{}, {by} предлагает ничью в партии №{id}: примите или отклоните на доске.", mention(*notify))
        }
        (OfferOutcome::Offered { notify, .. }, OfferKind::Takeback, false) => {
            format!("{}, {by} asks to take back their last move in game #{id}: answer on the board.", mention(*notify))
        }
        (OfferOutcome::Offered { notify, .. }, OfferKind::Takeback, true) => {
            format!("{}, {by} просит вернуть ход в партии №{id}: ответьте на доске.", mention(*notify))
        }
        (OfferOutcome::Declined { withdrawn: true, .. }, _, false) => format!("{by} withdrew the offer in game #{id}."),
        (OfferOutcome::Declined { withdrawn: true, .. }, _, true) => {
            format!("{by} отозвал предложение в партии №{id}.")
        }
        (OfferOutcome::Declined { .. }, OfferKind::Draw, false) => format!("{by} declined the draw in game #{id}."),
        (OfferOutcome::Declined { .. }, OfferKind::Draw, true) => format!("{by} отклонил ничью в партии №{id}."),
        (OfferOutcome::Declined { .. }, OfferKind::Takeback, false) => {
            format!("{by} declined the takeback in game #{id}.")
        }
        (OfferOutcome::Declined { .. }, OfferKind::Takeback, true) => {
            format!("{by} отказал в возврате хода в партии №{id}.")
        }
        (OfferOutcome::Accepted { plies_taken_back, .. }, OfferKind::Takeback, false) => {
            format!("{by} accepted: {plies_taken_back} ply taken back in game #{id}.")
        }
        (OfferOutcome::Accepted { plies_taken_back, .. }, OfferKind::Takeback, true) => {
            format!("{by} согласился: в партии №{id} возвращено полуходов: {plies_taken_back}.")
        }
        (OfferOutcome::Accepted { .. }, OfferKind::Draw, false) => format!("{by} accepted the draw in game #{id}."),
        (OfferOutcome::Accepted { .. }, OfferKind::Draw, true) => format!("{by} согласился на ничью в партии №{id}."),
    }
}

/// The private question before a resignation.
#[must_use]
pub fn confirm_resign(game: GameId, lang: Lang) -> String {
    match lang {
        Lang::En => format!("Resign game #{game}? Your opponent wins; this cannot be undone."),
        Lang::Ru => format!("Сдать партию №{game}? Победа перейдёт к сопернику; отменить будет нельзя."),
    }
}

/// The private answer after resigning.
#[must_use]
pub fn resigned(game: GameId, lang: Lang) -> String {
    match lang {
        Lang::En => format!("You resigned game #{game}."),
        Lang::Ru => format!("Вы сдали партию №{game}."),
    }
}

/// Labels of buttons and menus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    Accept,
    Decline,
    PickPiece,
    PickDestination,
    Back,
    Resign,
    ConfirmResign,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    Takeback,
    AcceptTakeback,
    DeclineTakeback,
    MorePieces,
    MoreMoves,
}

#[must_use]
pub fn label(label: Label, lang: Lang) -> &'static str {
    let ru = lang == Lang::Ru;
    match label {
        Label::Accept if ru => "Принять",
        Label::Accept => "Accept",
        Label::Decline if ru => "Отклонить",
        Label::Decline => "Decline",
        Label::PickPiece if ru => "Ход: выберите фигуру",
        Label::PickPiece => "Move: pick a piece",
        Label::PickDestination if ru => "Куда пойти?",
        Label::PickDestination => "Where to?",
        Label::Back if ru => "Другая фигура",
        Label::Back => "Other piece",
        Label::Resign if ru => "Сдаться",
        Label::Resign => "Resign",
        Label::ConfirmResign if ru => "Да, сдаюсь",
        Label::ConfirmResign => "Yes, resign",
        Label::OfferDraw if ru => "Предложить ничью",
        Label::OfferDraw => "Offer draw",
        Label::AcceptDraw if ru => "Принять ничью",
        Label::AcceptDraw => "Accept draw",
        Label::DeclineDraw if ru => "Отклонить ничью",
        Label::DeclineDraw => "Decline draw",
        Label::Takeback if ru => "Вернуть ход",
        Label::Takeback => "Take back",
        Label::AcceptTakeback if ru => "Вернуть",
        Label::AcceptTakeback => "Allow takeback",
        Label::DeclineTakeback if ru => "Не возвращать",
        Label::DeclineTakeback => "Refuse takeback",
        Label::MorePieces if ru => "Ещё фигуры…",
        Label::MorePieces => "More pieces…",
        Label::MoreMoves if ru => "Ещё ходы…",
        Label::MoreMoves => "More moves…",
    }
}

/// A piece in the piece menu: `d1 (4 moves)`.
#[must_use]
pub fn piece_option(square: Square, moves: usize, lang: Lang) -> String {
    match lang {
        Lang::En if moves == 1 => format!("{square} (1 move)"),
        Lang::En => format!("{square} ({moves} moves)"),
        Lang::Ru => format!("{square} (ходов: {moves})"),
    }
}

/// The challenge card: who challenges whom to what.
#[must_use]
pub fn challenge_card(challenge: &Challenge, lang: Lang) -> (String, String) {
    let ru = lang == Lang::Ru;
    let variant = variant_name(&challenge.variant);
    let by = mention(challenge.challenger.id);
    let title = if ru {
        format!("Вызов №{}: {variant}", challenge.id)
    } else {
        format!("Challenge #{}: {variant}", challenge.id)
    };
    let mut lines = vec![match (&challenge.opponent, ru) {
        (Some(o), false) => format!("{by} challenges {} to a game of {variant}.", mention(o.id)),
        (Some(o), true) => format!("{by} вызывает {} на партию в {variant}.", mention(o.id)),
        (None, false) => format!("{by} is looking for an opponent in {variant}: anyone may accept."),
        (None, true) => format!("{by} ищет соперника в {variant}: принять может любой."),
    }];
    let side = match (challenge.side, ru) {
        (SideChoice::Attackers, false) => "attackers",
        (SideChoice::Defenders, false) => "defenders",
        (SideChoice::Random, false) => "decided at random",
        (SideChoice::Attackers, true) => "нападающие",
        (SideChoice::Defenders, true) => "защитники",
        (SideChoice::Random, true) => "по жребию",
    };
    lines.push(if ru {
        format!("Сторона вызывающего: {side}")
    } else {
        format!("Challenger's side: {side}")
    });
    if !challenge.options.is_empty() {
        lines.push(if ru {
            format!("Опции: `{}`", challenge.options)
        } else {
            format!("Options: `{}`", challenge.options)
        });
    }
    if let Some(line) = clock_line(challenge.clock, lang) {
        lines.push(line);
    }
    let expires = challenge.expires_at;
    lines.push(if ru {
        format!("Вызов истекает <t:{expires}:R>.")
    } else {
        format!("The challenge expires <t:{expires}:R>.")
    });
    (title, lines.join("\n"))
}

/// A clock in words (`Time per move: 3 days, unused time saved up to 7 days`), or `None` for
/// an untimed game.
#[must_use]
pub fn clock_line(clock: Clock, lang: Lang) -> Option<String> {
    let per_move = duration_words(clock.seconds_per_move()?, lang);
    Some(match (clock.reserve_cap(), lang) {
        (None, Lang::En) => format!("Time per move: {per_move}"),
        (None, Lang::Ru) => format!("Время на ход: {per_move}"),
        (Some(cap), Lang::En) => {
            format!("Time per move: {per_move}, unused time saved up to {}", duration_words(cap, lang))
        }
        (Some(cap), Lang::Ru) => {
            format!("Время на ход: {per_move}, неиспользованное копится до {}", duration_words(cap, lang))
        }
    })
}

/// What the card says once the challenge is closed.
#[must_use]
pub fn challenge_closed(challenge: &Challenge, by: i64, lang: Lang) -> String {
    let ru = lang == Lang::Ru;
    let by = mention(by);
    let id = challenge.id;
    match (challenge.state, ru) {
        (ChallengeState::Declined, false) => format!("Challenge #{id} was declined by {by}."),
        (ChallengeState::Declined, true) => format!("{by} отклонил вызов №{id}."),
        (ChallengeState::Cancelled, false) => format!("Challenge #{id} was withdrawn by {by}."),
        (ChallengeState::Cancelled, true) => format!("{by} отозвал вызов №{id}."),
        (ChallengeState::Expired, false) => format!("Challenge #{id} expired unanswered."),
        (ChallengeState::Expired, true) => format!("Вызов №{id} истёк без ответа."),
        (ChallengeState::Accepted | ChallengeState::Open, false) => format!("Challenge #{id} was accepted."),
        (ChallengeState::Accepted | ChallengeState::Open, true) => format!("Вызов №{id} принят."),
    }
}

/// `3 days`, `36 hours`, `90 minutes`: a clock in words.
#[must_use]
pub fn duration_words(seconds: i64, lang: Lang) -> String {
    let ru = lang == Lang::Ru;
    let (n, en, ru_unit) = if seconds % 86_400 == 0 {
        (seconds / 86_400, "day", "дн.")
    } else if seconds % 3600 == 0 {
        (seconds / 3600, "hour", "ч")
    } else {
        ((seconds + 59) / 60, "minute", "мин")
    };
    if ru {
        format!("{n} {ru_unit}")
    } else if n == 1 {
        format!("1 {en}")
    } else {
        format!("{n} {en}s")
    }
}

/// One line of `/tafl games` and of the digest, with the deadline when the game has a clock.
#[must_use]
pub fn game_line(game: &GameSummary, now: i64, lang: Lang) -> String {
    let ru = lang == Lang::Ru;
    let variant = variant_name(&game.variant);
    let opponent = &game.opponent.name;
    let channel = game.place.thread.unwrap_or(game.place.channel);
    let link = format!("https://discord.com/channels/{}/{channel}", game.place.guild);
    let state = match (game.ending, game.my_turn(), ru) {
        (Some(_), _, false) => "finished",
        (Some(_), _, true) => "окончена",
        (None, true, false) => "**your move**",
        (None, true, true) => "**ваш ход**",
        (None, false, false) => "their move",
        (None, false, true) => "ход соперника",
    };
    let side = side_heading(game.side, lang);
    let clock = match (game.deadline_at, game.time_left(now)) {
        (Some(deadline), Some(_)) => format!(" · ⏰ <t:{deadline}:R>"),
        _ => String::new(),
    };
    let number = move_number(game.ply);
    if ru {
        format!("[№{}]({link}) {variant} против {opponent} · {side} · ход {number} · {state}{clock}", game.id)
    } else {
        format!("[#{}]({link}) {variant} vs {opponent} · {side} · move {number} · {state}{clock}", game.id)
    }
}

/// A reminder to move: at half time, or the last warning.
#[must_use]
pub fn reminder(reminder: &Reminder, lang: Lang) -> String {
    let who = mention(reminder.player.id);
    let (id, deadline) = (reminder.game, reminder.deadline_at);
    let variant = variant_name(&reminder.variant);
    match (reminder.kind, lang) {
        (ReminderKind::Halfway, Lang::En) => {
            format!(
                "{who}, it is your move in game #{id} ({variant}); half of your time is gone, it runs out <t:{deadline}:R>."
            )
        }
        (ReminderKind::LastWarning, Lang::En) => {
            format!(
                "{who}, last warning: your time in game #{id} ({variant}) runs out <t:{deadline}:R>, and then the game is lost."
            )
        }
        (ReminderKind::Halfway, Lang::Ru) => {
            format!(
                "{who}, ваш ход в партии №{id} ({variant}); половина времени прошла, оно истекает <t:{deadline}:R>."
            )
        }
        (ReminderKind::LastWarning, Lang::Ru) => {
            format!(
                "{who}, последнее предупреждение: время в партии №{id} ({variant}) истекает <t:{deadline}:R>, потом партия проиграна."
            )
        }
    }
}

/// The title of the daily digest.
#[must_use]
pub fn digest_title(games: usize, lang: Lang) -> String {
    match lang {
        Lang::En if games == 1 => "Your move in 1 game".to_owned(),
        Lang::En => format!("Your move in {games} games"),
        Lang::Ru => format!("Ваш ход в партиях: {games}"),
    }
}

/// The answer to `/tafl games` for someone with no games.
#[must_use]
pub fn no_games(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "No games in progress. Start one with /tafl challenge.",
        Lang::Ru => "Сейчас партий нет. Начните с /тафл вызов.",
    }
}

/// Which game a command means, when the channel has none or several of the caller's.
#[must_use]
pub fn which_game(found: &[GameId], lang: Lang) -> String {
    let ru = lang == Lang::Ru;
    if found.is_empty() {
        return if ru {
            "У вас нет партии в этом канале; укажите номер партии (game) или посмотрите /тафл партии.".to_owned()
        } else {
            "You have no game in this channel; name one with the game option, or see /tafl games.".to_owned()
        };
    }
    let list = found.iter().map(|id| format!("#{id}")).collect::<Vec<_>>().join(", ");
    if ru {
        format!("У вас здесь несколько партий ({list}); укажите номер в опции game.")
    } else {
        format!("You have several games here ({list}); choose one with the game option.")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variant_list_has_one_line_per_preset_in_both_languages() {
        for lang in [Lang::En, Lang::Ru] {
            let list = variants_list(lang);
            assert_eq!(list.lines().count(), Variant::ALL.len());
            for (line, variant) in list.lines().zip(Variant::ALL) {
                assert!(line.starts_with(&format!("`{}` — ", variant.id())), "{line}");
            }
            assert!(list.chars().count() < 4096, "fits an embed description");
        }
    }

    #[test]
    fn copenhagen_is_described_by_its_rules() {
        assert_eq!(
            variant_line(Variant::Copenhagen, Lang::En),
            "`copenhagen` — Copenhagen Hnefatafl: 11×11, the king escapes to a corner, captured on four sides, \
             armed king, shieldwall, exit fort, encirclement"
        );
        assert!(variant_line(Variant::SeaBattle9, Lang::Ru).contains("король уходит на край"));
    }

    #[test]
    fn variant_choices_match_ids_and_names_in_any_case() {
        let all = variant_choices("");
        assert_eq!(all.len(), Variant::ALL.len());
        let copenhagen = variant_choices("COPEN");
        assert_eq!(copenhagen, [("Copenhagen Hnefatafl (11×11)".to_owned(), "copenhagen")]);
        assert_eq!(variant_choices("sea").len(), 4);
        assert!(variant_choices("chess").is_empty());
    }

    #[test]
    fn russian_locales_get_russian_and_every_other_locale_english() {
        assert_eq!(Lang::from_locale(Some("ru")), Lang::Ru);
        assert_eq!(Lang::from_locale(Some("en-US")), Lang::En);
        assert_eq!(Lang::from_locale(Some("de")), Lang::En);
        assert_eq!(Lang::from_locale(None), Lang::En);
    }

    #[test]
    fn host_sentences_become_messages_that_name_discord_commands() {
        assert_eq!(sentence("the king moves"), "The king moves.");
        assert_eq!(sentence("done!"), "Done!");
        assert_eq!(sentence(""), "");
        let stale = HostError::StaleBoard { id: 3, ply: 5, expected: 4 };
        assert!(host_error(&stale, Lang::En).starts_with("The board has changed"));
        assert!(host_error(&stale, Lang::Ru).starts_with("Доска уже изменилась"));
        assert_eq!(
            host_error(&HostError::NotAPlayer(3), Lang::En),
            "This is not your game: only its two players can use its buttons."
        );
        let over = host_error(&HostError::NoSuchGame(9), Lang::En);
        assert_eq!(over, "There is no game #9; see your games with /tafl games.");
        assert_eq!(host_error(&HostError::NoSuchGame(9), Lang::Ru), "Партии №9 нет; ваши партии покажет /тафл партии.");
        assert!(host_error(&HostError::OwnChallenge { id: 2 }, Lang::En).ends_with("withdraw it with Decline."));
        // The engine's own sentences stay English, with the commands named as on Discord.
        let illegal = host_error(&HostError::IllegalMove("e1-e9 jumps over a piece".to_owned()), Lang::Ru);
        assert!(illegal.contains("/tafl board"), "{illegal}");
    }

    #[test]
    fn notation_reads_with_spaces_around_captures() {
        assert_eq!(notation_with_spaces("e1-e3"), "e1-e3");
        assert_eq!(notation_with_spaces("e1-e3xe2"), "e1-e3 x e2");
        assert_eq!(notation_with_spaces("e1-e3xe2xd3"), "e1-e3 x e2 x d3");
    }

    #[test]
    fn clocks_in_words() {
        assert_eq!(duration_words(3 * 86_400, Lang::En), "3 days");
        assert_eq!(duration_words(86_400, Lang::En), "1 day");
        assert_eq!(duration_words(36 * 3600, Lang::En), "36 hours");
        assert_eq!(duration_words(90 * 60, Lang::En), "90 minutes");
        assert_eq!(duration_words(3 * 86_400, Lang::Ru), "3 дн.");
    }

    #[test]
    fn every_preset_has_rules_that_differ_where_the_rules_differ() {
        for lang in [Lang::En, Lang::Ru] {
            for variant in Variant::ALL {
                let text = rules_description(variant, lang);
                assert!(text.chars().count() < 4096, "fits an embed: {}", variant.id());
                assert!(text.lines().all(|l| !l.contains('{')), "{text}");
            }
        }
        let copenhagen = rules_explanation(&Variant::Copenhagen.rules(), Lang::En).join("\n");
        assert!(copenhagen.contains("reaches a corner square"), "{copenhagen}");
        assert!(copenhagen.contains("encirclement"), "{copenhagen}");
        assert!(copenhagen.contains("Shieldwall"), "{copenhagen}");
        assert!(copenhagen.contains("Exit fort"), "{copenhagen}");
        let sea = rules_explanation(&Variant::SeaBattle9.rules(), Lang::En).join("\n");
        assert!(sea.contains("any edge square") && sea.contains("Throne.** None"), "{sea}");
        assert!(!sea.contains("Exit fort"), "{sea}");
        let tablut = rules_explanation(&Variant::Tablut.rules(), Lang::Ru).join("\n");
        assert!(tablut.contains("Трон"), "{tablut}");
        // Two presets with different rules never read the same.
        for a in Variant::ALL {
            for b in Variant::ALL {
                if a.rules() != b.rules() && a.rules().size() == b.rules().size() {
                    let (x, y) = (rules_explanation(&a.rules(), Lang::En), rules_explanation(&b.rules(), Lang::En));
                    let (sx, sy) = (rule_summary(&a.rules(), Lang::En), rule_summary(&b.rules(), Lang::En));
                    assert!(
                        x != y || sx != sy || a.rules().start != b.rules().start,
                        "{} and {} read the same",
                        a.id(),
                        b.id()
                    );
                }
            }
        }
    }
}
