//! Games, challenges, notices, rules and refusals as text, for any language and front end.
//! Plain functions of host values, so tests check the words without Discord.

use tafl_rules::{
    Escape, Game, IllegalMove, KingCapture, MoveSyntax, ParseError, Reason, Repetition, Rules, RulesError, Shieldwall,
    Side, Square, ThronePass, Variant,
};

use super::markup::{self, Markup, mention, name, plain_name, player_name, timestamp};
use super::{Lang, tr};
use crate::host::{
    CLAIM_AFTER, Challenge, ChallengeState, Clock, ClockError, EndReason, GameId, GameSummary, GameView, HostError,
    MoveChoice, MoveEffect, OfferKind, OfferOutcome, OpenOffer, RecordFault, Reminder, ReminderKind, SideChoice,
    StorageFault, User, UserId, is_bot,
};

// ----- variants and rules -----

/// The title of the variant list.
#[must_use]
pub fn variants_title(lang: Lang) -> String {
    tr!(lang, "variants-title")
}

/// One line per preset: `` `id` — Name: 11×11, what makes it different ``.
#[must_use]
pub fn variants_list(lang: Lang) -> String {
    Variant::ALL.into_iter().map(|variant| variant_line(variant, lang)).collect::<Vec<_>>().join("\n")
}

/// The one-line description of a preset, derived from its rules so that it cannot drift from
/// what the engine plays.
#[must_use]
pub fn variant_line(variant: Variant, lang: Lang) -> String {
    let name = variant_name(variant.id(), lang);
    let size = variant.size();
    let mut rules = rule_summary(&variant.rules(), lang);
    // "Sea Battle 9×9: 9×9, …" would say the size twice.
    if !names_its_size(&name, size) {
        rules.insert(0, format!("{size}×{size}"));
    }
    tr!(lang, "variant-line", id = variant.id(), name = name, rules = rules.join(", "))
}

/// The rules that tell presets apart, as short phrases.
#[must_use]
pub fn rule_summary(rules: &Rules, lang: Lang) -> Vec<String> {
    let mut ids = vec![
        match rules.escape {
            Escape::Corner => "rule-escape-corner",
            Escape::Edge => "rule-escape-edge",
        },
        match rules.king_capture {
            KingCapture::Strong => "rule-capture-strong",
            KingCapture::StrongNearThrone => "rule-capture-strong-near-throne",
            KingCapture::Middleweight => "rule-capture-middleweight",
            KingCapture::Weak => "rule-capture-weak",
        },
        if rules.king_armed { "rule-king-armed" } else { "rule-king-unarmed" },
    ];
    if matches!(rules.shieldwall, Shieldwall::On { .. }) {
        ids.push("rule-shieldwall");
    }
    if rules.exit_fort {
        ids.push("rule-exit-fort");
    }
    if rules.encirclement {
        ids.push("rule-encirclement");
    }
    ids.into_iter().map(|id| tr!(lang, id)).collect()
}

/// The presets whose id or name (in the reader's language or in English) contains what was
/// typed, case-insensitively, as (label, id) pairs: `Copenhagen Hnefatafl (11×11)` → `copenhagen`.
#[must_use]
pub fn variant_choices(typed: &str, lang: Lang) -> Vec<(String, &'static str)> {
    let typed = typed.trim().to_lowercase();
    Variant::ALL
        .into_iter()
        .filter(|v| {
            v.id().contains(&typed)
                || v.name().to_lowercase().contains(&typed)
                || variant_name(v.id(), lang).to_lowercase().contains(&typed)
        })
        .map(|v| {
            let name = variant_name(v.id(), lang);
            let size = v.size();
            // "Sea Battle 9×9 (9×9)" would say the size twice.
            let label = if names_its_size(&name, size) { name } else { format!("{name} ({size}×{size})") };
            (label, v.id())
        })
        .collect()
}

/// The preset a person means by a variant option Discord passes on as typed: the option's
/// autocomplete sends the id when a choice is picked, but a client may send the words typed
/// instead ("Копенгагенский хнефатафл", "tablut (9x9)"). An id, a choice's label or name in any
/// case, or words that the autocomplete narrows to one choice give that preset's id; anything
/// else is passed on as typed, for the refusal to quote it.
#[must_use]
pub fn typed_variant(typed: &str, lang: Lang) -> String {
    let typed = typed.trim();
    if let Ok(variant) = typed.parse::<Variant>() {
        return variant.id().to_owned();
    }
    let plain = plain_words;
    let wanted = plain(typed);
    let labels = variant_choices("", lang);
    let named = Variant::ALL.into_iter().find(|v| {
        let names = [v.name().to_owned(), variant_name(v.id(), lang)];
        names.iter().any(|name| plain(name) == wanted)
            || labels.iter().any(|(label, id)| *id == v.id() && plain(label) == wanted)
    });
    if let Some(variant) = named {
        return variant.id().to_owned();
    }
    match variant_choices(&wanted, lang).as_slice() {
        [(_, id)] => (*id).to_owned(),
        _ => typed.to_owned(),
    }
}

/// The preset or rating family a person means by `/tafl leaderboard variant:`: a family's name
/// as a leaderboard's title says it, in any language the bot speaks and in any case ("Морской
/// бой", "Historical tafl"), gives the family's id; anything else is read as [`typed_variant`]
/// reads it (a family's own id passes through as typed, and the host knows it).
#[must_use]
pub fn typed_family(typed: &str, lang: Lang) -> String {
    let wanted = plain_words(typed);
    let named = |family: &&'static str| {
        super::Locales::global()
            .all()
            .iter()
            .any(|&locale| plain_words(&super::summary::family_name(family, lang.with_locale(locale))) == wanted)
    };
    match crate::host::rating_families().into_iter().find(named) {
        Some(family) => family.to_owned(),
        None => typed_variant(typed, lang),
    }
}

/// Words as a person may type a name: lower case, `×` as `x`, single spaces.
fn plain_words(text: &str) -> String {
    text.to_lowercase().replace('×', "x").split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether a variant's name already says its board size (the CLI's names write 9x9).
fn names_its_size(name: &str, size: u8) -> bool {
    [format!("{size}x{size}"), format!("{size}×{size}")].iter().any(|dims| name.contains(dims.as_str()))
}

/// A variant's name for people: the preset's name in the reader's language, "custom rules"
/// for imported games under other rules, and any other stored id as it is.
#[must_use]
pub fn variant_name(id: &str, lang: Lang) -> String {
    match id.parse::<Variant>() {
        Ok(variant) => tr!(lang, &format!("variant-{}", variant.id())),
        Err(_) if id == "custom" => tr!(lang, "variant-custom"),
        Err(_) => id.to_owned(),
    }
}

/// The rules text of a preset: the one-line summary, the rules in a few lines and the OTN
/// rules string, for players who know other tafl sites.
#[must_use]
pub fn rules_description(variant: Variant, lang: Lang) -> String {
    let size = variant.size();
    let rules = variant.rules();
    format!(
        "{size}×{size}, {}.\n\n{}\n\n{}: `{}`",
        rule_summary(&rules, lang).join(", "),
        rules_explanation(&rules, lang).join("\n"),
        tr!(lang, "rules-otn"),
        tafl_rules::otn::rules_string(&rules)
    )
}

/// The rules in a few lines, one per topic (goal, captures, throne, king, shieldwall, exit fort,
/// repetition), derived from the rule set itself so that they say what the engine plays.
#[must_use]
pub fn rules_explanation(rules: &Rules, lang: Lang) -> Vec<String> {
    let mut lines = Vec::new();
    let encirclement = if rules.encirclement { "yes" } else { "no" };
    lines.push(match rules.escape {
        Escape::Corner => tr!(lang, "rules-goal-corner", encirclement = encirclement),
        Escape::Edge => tr!(lang, "rules-goal-edge", encirclement = encirclement),
    });
    let mut captures = tr!(lang, "rules-captures");
    if rules.has_corners() {
        captures.push(' ');
        captures.push_str(&tr!(lang, "rules-corners-hostile"));
    }
    lines.push(captures);
    lines.push(match rules.throne {
        None => tr!(lang, "rules-no-throne"),
        Some(throne) => {
            let pass = match throne.pass {
                ThronePass::KingOnly => tr!(lang, "rules-throne-king-only"),
                ThronePass::Everyone => tr!(lang, "rules-throne-everyone"),
            };
            let h = throne.hostility;
            let hostile = tr!(
                lang,
                match (h.empty_to_attackers, h.empty_to_defenders) {
                    (true, true) => "rules-throne-hostile-both",
                    (true, false) => "rules-throne-hostile-attackers",
                    (false, true) => "rules-throne-hostile-defenders",
                    (false, false) => "rules-throne-hostile-none",
                }
            );
            tr!(lang, "rules-throne", pass = pass, hostile = hostile)
        }
    });
    let armed = tr!(lang, if rules.king_armed { "rules-king-armed" } else { "rules-king-unarmed" });
    let how_captured = tr!(
        lang,
        match rules.king_capture {
            KingCapture::Strong if rules.throne.is_none() => "rules-king-strong-no-throne",
            KingCapture::Strong => "rules-king-strong",
            // Without corner squares (the king escapes to the edge) none is named.
            KingCapture::StrongNearThrone if !rules.has_corners() => "rules-king-strong-near-throne-no-corners",
            KingCapture::StrongNearThrone => "rules-king-strong-near-throne",
            KingCapture::Middleweight if !rules.has_corners() => "rules-king-middleweight-no-corners",
            KingCapture::Middleweight => "rules-king-middleweight",
            KingCapture::Weak => "rules-king-weak",
        }
    );
    lines.push(tr!(lang, "rules-king", armed = armed, captured = how_captured));
    if let Shieldwall::On { corners_may_close } = rules.shieldwall {
        lines.push(tr!(lang, if corners_may_close { "rules-shieldwall-corners" } else { "rules-shieldwall" }));
    }
    if rules.exit_fort {
        lines.push(tr!(lang, "rules-exit-fort"));
    }
    lines.push(tr!(
        lang,
        match rules.repetition {
            Repetition::Draw => "rules-repetition-draw",
            Repetition::MoverLoses => "rules-repetition-mover-loses",
            Repetition::MoverWins => "rules-repetition-mover-wins",
            Repetition::DefendersLose => "rules-repetition-defenders-lose",
            Repetition::Ignore => "rules-repetition-ignore",
        }
    ));
    lines
}

// ----- refusals -----

/// What to tell a person the host refused, in their language.
#[must_use]
pub fn host_error(error: &HostError, lang: Lang) -> String {
    match error {
        HostError::BadSetup(error) => rules_error(error, lang),
        HostError::BadClock(error) => clock_error(error, lang),
        // The families' ids (`seed-001`) are no names a player has seen: the variants, which
        // the leaderboard's autocomplete offers, stand for them.
        HostError::UnknownFamily { input } => {
            let known = Variant::ALL.map(Variant::id).join(", ");
            tr!(lang, "error-unknown-variant-named", input = input.as_str(), known = known)
        }
        HostError::ChallengeYourself => tr!(lang, "error-challenge-yourself"),
        HostError::ChannelNotAllowed => tr!(lang, "error-channel-not-allowed"),
        HostError::TooManyChallenges(count) => {
            let withdraw = match lang.markup() {
                Markup::Discord => tr!(lang, "via-card-button", label = tr!(lang, "label-decline")),
                Markup::Console => tr!(lang, "via-command", command = "/cancel"),
            };
            tr!(lang, "error-too-many-challenges", count = *count, withdraw = withdraw)
        }
        HostError::TooManyChallengesTo { opponent, count, again_at } => tr!(
            lang,
            "error-too-many-challenges-to",
            player = player_name(lang, opponent),
            count = *count,
            when = markup::timestamp(lang, *again_at)
        ),
        HostError::TooManyChallengesToday { count, again_at } => {
            tr!(lang, "error-too-many-challenges-today", count = *count, when = markup::timestamp(lang, *again_at))
        }
        HostError::TooManyBotGames(count) => tr!(lang, "error-too-many-bot-games", count = *count),
        HostError::NoSuchChallenge(id) => tr!(lang, "error-no-such-challenge", id = *id),
        // Expired is expired, whether or not the scheduler has closed the challenge yet: the
        // player cannot tell (nor can a test racing the scheduler's tick).
        HostError::ChallengeExpired { id } | HostError::ChallengeClosed { id, state: ChallengeState::Expired } => {
            tr!(lang, "error-challenge-expired", id = *id)
        }
        HostError::ChallengeClosed { id, .. } => tr!(lang, "error-challenge-closed", id = *id),
        HostError::NotYourChallenge { id, opponent } => {
            tr!(lang, "error-not-your-challenge", id = *id, opponent = markup::person(lang, opponent))
        }
        HostError::OwnChallenge { id } => {
            // Discord withdraws a challenge with its card's button; the console has a command.
            let withdraw = match lang.markup() {
                Markup::Discord => tr!(lang, "via-button", label = tr!(lang, "label-decline")),
                Markup::Console => tr!(lang, "via-command", command = format!("/cancel {id}")),
            };
            tr!(lang, "error-own-challenge", id = *id, withdraw = withdraw)
        }
        HostError::NotChallenger { id, challenger } => {
            tr!(lang, "error-not-challenger", id = *id, challenger = markup::person(lang, challenger))
        }
        HostError::DeclineOpen { id } => tr!(lang, "error-decline-open", id = *id),
        HostError::NoSuchGame(id) => tr!(lang, "error-no-such-game", id = *id),
        HostError::NotAPlayer(id) => tr!(lang, "error-not-a-player", id = *id),
        HostError::GameOver { id } => tr!(lang, "error-game-over", id = *id),
        HostError::NotYourTurn { player, .. } => tr!(lang, "error-not-your-turn", player = player_name(lang, player)),
        HostError::StaleBoard { .. } => tr!(lang, "error-stale-board"),
        HostError::BadMove(error) => parse_error(error, lang),
        HostError::IllegalMove(error) => {
            // Discord suggests moves as the player types; the console lists them with /moves.
            let hint = match lang.markup() {
                Markup::Discord => "error-illegal-hint",
                Markup::Console => "error-illegal-hint-console",
            };
            tr!(lang, hint, why = illegal_move(error, lang))
        }
        HostError::NoOffer { id, kind: OfferKind::Draw, .. } => tr!(lang, "error-no-draw-offer", id = *id),
        HostError::NoOffer { id, kind: OfferKind::Takeback, .. } => tr!(lang, "error-no-takeback-request", id = *id),
        HostError::AlreadyOffered { id, kind } => match kind {
            OfferKind::Draw => tr!(lang, "error-already-offered-draw", id = *id),
            OfferKind::Takeback => tr!(lang, "error-already-asked-takeback", id = *id),
        },
        HostError::OfferedThisMove { id, kind } => match kind {
            OfferKind::Draw => tr!(lang, "error-draw-offered-this-move", id = *id),
            OfferKind::Takeback => tr!(lang, "error-takeback-asked-this-move", id = *id),
        },
        HostError::TakebackPending { id } => tr!(lang, "error-takeback-pending", id = *id),
        HostError::NothingToTakeBack(id) => tr!(lang, "error-nothing-to-take-back", id = *id),
        HostError::ClaimTimed { id } => tr!(lang, "error-claim-timed", id = *id),
        HostError::ClaimOnYourMove { id } => tr!(lang, "error-claim-on-your-move", id = *id),
        HostError::ClaimFromBot { id } => tr!(lang, "error-claim-from-bot", id = *id),
        HostError::Paused { id } => tr!(lang, "error-paused", id = *id),
        HostError::ChannelGone { id } => tr!(lang, "error-channel-gone", id = *id),
        HostError::ClaimPaused { id, claimable_at } => {
            tr!(lang, "error-claim-paused", id = *id, when = markup::timestamp(lang, *claimable_at))
        }
        HostError::ClaimTooSoon { id, player, since, claimable_at, aborts } => tr!(
            lang,
            if *aborts { "error-claim-too-soon-aborts" } else { "error-claim-too-soon" },
            id = *id,
            player = player_name(lang, player),
            since = markup::timestamp(lang, *since),
            when = markup::timestamp(lang, *claimable_at)
        ),
        HostError::ClaimAfterOutage { id, player, claimable_at, aborts } => tr!(
            lang,
            if *aborts { "error-claim-after-outage-aborts" } else { "error-claim-after-outage" },
            id = *id,
            player = player_name(lang, player),
            when = markup::timestamp(lang, *claimable_at)
        ),
        HostError::OwnOffer { id, kind } => {
            let (message, command) = match kind {
                OfferKind::Draw => ("error-own-draw-offer", "draw"),
                OfferKind::Takeback => ("error-own-takeback-request", "takeback"),
            };
            let decline = markup::command_choice(lang, command, "action", "decline");
            tr!(lang, message, id = *id, withdraw = tr!(lang, "via-command", command = decline))
        }
        HostError::TooManyChannels { max } => {
            let option = |name: &str| crate::present::markup::option(lang, "settings", name, None);
            tr!(
                lang,
                "error-too-many-channels",
                max = *max,
                disallow_channel = option("disallow_channel"),
                all_channels = option("all_channels")
            )
        }
        HostError::BadRecord(fault) => record_fault(fault, lang),
        HostError::Storage(StorageFault::DiskFull) => tr!(lang, "error-storage-disk-full"),
        HostError::Storage(StorageFault::Io) => tr!(lang, "error-storage-io"),
        HostError::Storage(StorageFault::ConnectionLost) => tr!(lang, "error-storage-connection-lost"),
        // A conflict is retried by the host; one that outlasts the retries is a busy database.
        HostError::Storage(StorageFault::Busy | StorageFault::Conflict) => tr!(lang, "error-storage-busy"),
        HostError::BadLevel(level) => tr!(lang, "error-bad-level", level = *level),
        HostError::LevelWithPerson => tr!(lang, "error-level-with-person"),
        HostError::UnratedWithPerson => tr!(
            lang,
            "error-unrated-with-person",
            unrated = unrated(lang),
            level = markup::option(lang, "challenge", "level", Some("1"))
        ),
        HostError::BotRefusesTakeback { .. } => tr!(lang, "error-bot-refuses-takeback", unrated = unrated(lang)),
        HostError::HintNotAgainstBot => tr!(
            lang,
            "error-hint-not-against-bot",
            unrated = unrated(lang),
            level = markup::option(lang, "challenge", "level", Some("3"))
        ),
        HostError::HintInRatedGame => tr!(lang, "error-hint-in-rated-game", unrated = unrated(lang)),
        HostError::HintPending => tr!(lang, "error-hint-pending"),
        HostError::TheBotHasLevels => tr!(
            lang,
            "error-the-bot-has-levels",
            leaderboard = format!(
                "{} {}",
                markup::command(lang, "leaderboard"),
                markup::option(lang, "leaderboard", "against_bot", Some("true"))
            )
        ),
        HostError::Internal => tr!(lang, "error-internal"),
    }
}

/// The challenge option that makes a casual game, as the reader's front end spells it.
fn unrated(lang: Lang) -> String {
    markup::option(lang, "challenge", "rated", Some("false"))
}

/// Badly written notation, in the reader's language.
#[must_use]
pub fn parse_error(error: &ParseError, lang: Lang) -> String {
    match error {
        ParseError::Square { input } => tr!(lang, "error-not-a-square", input = input.as_str()),
        ParseError::Move { input, reason } => {
            let reason = match reason {
                // Look-alikes are read as Latin (`host::legal::as_typed`); other Cyrillic letters
                // (`д5-б5`) are squares written in the wrong alphabet, which is what to say.
                MoveSyntax::NoStart | MoveSyntax::NoDestination | MoveSyntax::BadCapture
                    if input.chars().any(|c| matches!(c, '\u{0400}'..='\u{04FF}')) =>
                {
                    tr!(lang, "move-syntax-cyrillic")
                }
                MoveSyntax::TooLong => tr!(lang, "move-syntax-too-long"),
                MoveSyntax::Empty => tr!(lang, "move-syntax-empty"),
                MoveSyntax::NoStart => tr!(lang, "move-syntax-no-start"),
                MoveSyntax::NoDestination => tr!(lang, "move-syntax-no-destination"),
                MoveSyntax::BadCapture => tr!(lang, "move-syntax-bad-capture"),
                MoveSyntax::TrailingText => tr!(lang, "move-syntax-trailing-text"),
                MoveSyntax::CapturesOnPlainMove => tr!(lang, "move-syntax-captures-on-plain-move"),
            };
            tr!(lang, "error-not-a-move", input = input.as_str(), reason = reason)
        }
        ParseError::OffBoard { square } => {
            tr!(lang, "error-beyond-any-board", square = square.as_str(), max = tafl_rules::MAX_SIZE)
        }
        ParseError::Position { input, reason } => {
            tr!(lang, "error-not-a-position", input = input.as_str(), reason = english_reason(reason, lang))
        }
        ParseError::Rules { reason } => tr!(lang, "error-bad-rules-string", reason = english_reason(reason, lang)),
        ParseError::Record { line, reason } => {
            tr!(lang, "error-bad-record-line", line = *line, reason = english_reason(reason, lang))
        }
        ParseError::DuplicateTag { line, key } => {
            tr!(lang, "error-record-duplicate-tag", line = *line, key = key.as_str())
        }
    }
}

/// The rules crate's own reason for refusing notation, as a clause to quote inside a sentence.
/// Its reasons are English text built from many parts (a rules key, a nested position or move
/// error, a line of the record), not values a translation could word, so every language quotes
/// them as they are (Russian says that it does). They quote the input, so they are escaped as
/// names are.
fn english_reason(reason: &str, lang: Lang) -> String {
    name(lang, reason.trim().trim_end_matches('.'))
}

/// A move the engine refuses, in the reader's language.
#[must_use]
pub fn illegal_move(error: &IllegalMove, lang: Lang) -> String {
    let side = |side: Side| side_name(side, lang);
    match error {
        IllegalMove::OffBoard { square, size } => {
            tr!(lang, "error-off-board", square = square.to_string(), size = *size)
        }
        IllegalMove::GameOver => tr!(lang, "error-no-legal-move-game-over"),
        IllegalMove::NoPiece { mv } => {
            tr!(lang, "error-no-piece", notation = mv.to_string(), square = mv.from.to_string())
        }
        IllegalMove::NotYourPiece { mv, owner, to_move } => tr!(
            lang,
            "error-not-your-piece",
            notation = mv.to_string(),
            square = mv.from.to_string(),
            owner = side(*owner),
            to_move = side(*to_move)
        ),
        IllegalMove::NullMove { mv } => tr!(lang, "error-null-move", notation = mv.to_string()),
        IllegalMove::NotStraight { mv } => tr!(lang, "error-not-straight", notation = mv.to_string()),
        IllegalMove::Blocked { mv, blocker } => {
            tr!(lang, "error-blocked", notation = mv.to_string(), square = blocker.to_string())
        }
        IllegalMove::PassesThrone { mv } => tr!(lang, "error-passes-throne", notation = mv.to_string()),
        IllegalMove::StopsOnThrone { mv } => tr!(lang, "error-stops-on-throne", notation = mv.to_string()),
        IllegalMove::StopsOnCorner { mv } => tr!(lang, "error-stops-on-corner", notation = mv.to_string()),
        IllegalMove::CaptureMismatch { mv, claimed, actual } => {
            let list = |squares: &[Square]| {
                if squares.is_empty() {
                    tr!(lang, "nothing")
                } else {
                    squares.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
                }
            };
            tr!(
                lang,
                "error-capture-mismatch",
                notation = mv.to_string(),
                actual = list(actual),
                claimed = list(claimed)
            )
        }
    }
}

/// Variant options or rules that cannot be played, in the reader's language.
#[must_use]
pub fn rules_error(error: &RulesError, lang: Lang) -> String {
    match error {
        RulesError::BadSize { size, min, max } => {
            tr!(lang, "error-bad-size", size = *size, min = *min, max = *max)
        }
        RulesError::UnknownVariant { input, .. } => {
            let known = Variant::ALL.map(Variant::id).join(", ");
            tr!(lang, "error-unknown-variant-named", input = input.as_str(), known = known)
        }
        RulesError::UnknownOption { variant, key, .. } => {
            let keys = variant.parse::<Variant>().map(Variant::option_keys).unwrap_or_default();
            let options = if keys.is_empty() { "none".to_owned() } else { keys.join(", ") };
            tr!(
                lang,
                "error-unknown-option",
                variant = variant_name(variant, lang),
                key = key.as_str(),
                options = options
            )
        }
        RulesError::BadOptionValue { variant, key, value, expected } => {
            // The engine lists the values as `edge or corner`: values, joined in the reader's words.
            let or = format!(" {} ", tr!(lang, "or"));
            tr!(
                lang,
                "error-bad-option-value",
                variant = variant_name(variant, lang),
                key = *key,
                value = value.as_str(),
                expected = expected.split(" or ").collect::<Vec<_>>().join(&or)
            )
        }
        RulesError::OptionSyntax { input } => tr!(lang, "error-option-syntax", input = input.as_str()),
        RulesError::ContradictoryOptions { first, second } => {
            tr!(lang, "error-contradictory-options", first = first.as_str(), second = second.as_str())
        }
        RulesError::Start(_) => tr!(lang, "error-bad-start"),
        RulesError::Unsupported(_) => tr!(lang, "error-unsupported-rules"),
    }
}

/// A clock that cannot be played, in the reader's language.
#[must_use]
pub fn clock_error(error: &ClockError, lang: Lang) -> String {
    match error {
        ClockError::Unreadable { input } => tr!(lang, "error-clock-unreadable", input = input.as_str()),
        ClockError::NoTime => tr!(lang, "error-clock-no-time"),
        ClockError::TooShort { seconds } => {
            tr!(lang, "error-clock-too-short", duration = duration_words(*seconds, lang))
        }
        ClockError::TooLong { seconds } => tr!(lang, "error-clock-too-long", duration = duration_words(*seconds, lang)),
        ClockError::NoReserve { seconds } => {
            tr!(lang, "error-clock-no-reserve", duration = duration_words(*seconds, lang))
        }
        ClockError::ReserveTooLong { seconds } => {
            tr!(lang, "error-clock-reserve-too-long", duration = duration_words(*seconds, lang))
        }
    }
}

fn record_fault(fault: &RecordFault, lang: Lang) -> String {
    match fault {
        RecordFault::Unreadable(error) => parse_error(error, lang),
        RecordFault::TooLong { plies } => {
            tr!(lang, "error-record-too-long", plies = *plies, max = crate::limits::MAX_PLIES)
        }
        RecordFault::Rules(why) => tr!(lang, "error-record-unplayable", reason = english_reason(why, lang)),
        RecordFault::Move { ply, source: IllegalMove::GameOver } => {
            tr!(lang, "error-record-move-after-end", ply = *ply)
        }
        RecordFault::Move { ply, source } => {
            // One sentence: the refusal, a sentence of its own elsewhere, goes in brackets,
            // without its full stop and its capital ("Клетки h8 нет на доске"; most start with
            // the move).
            let why = illegal_move(source, lang);
            let why = why.trim_end().trim_end_matches('.');
            let mut chars = why.chars();
            let why: String = chars.next().into_iter().flat_map(char::to_lowercase).chain(chars).collect();
            tr!(lang, "error-record-move", ply = *ply, why = why)
        }
        RecordFault::NoResult => tr!(lang, "error-record-no-result"),
        RecordFault::ContradictoryResult => tr!(lang, "error-record-contradictory-result"),
        RecordFault::ContradictoryTermination => tr!(lang, "error-record-contradictory-termination"),
        RecordFault::EndAfterFinish => tr!(lang, "error-record-end-after-finish"),
    }
}

/// A refusal without arguments (`error-…`), e.g. [`Refusal::Internal`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    Internal,
    BadArguments,
    ChannelNotAllowed,
    GuildOnly,
    UnknownCommand,
    UnknownControl,
    UnknownVariant,
    BotsCannotPlay,
}

#[must_use]
pub fn refusal(refusal: Refusal, lang: Lang) -> String {
    tr!(
        lang,
        match refusal {
            Refusal::Internal => "error-internal",
            Refusal::BadArguments => "error-bad-arguments",
            Refusal::ChannelNotAllowed => "error-channel-not-allowed",
            Refusal::GuildOnly => "error-guild-only",
            Refusal::UnknownCommand => "error-unknown-command",
            Refusal::UnknownControl => "error-unknown-control",
            Refusal::UnknownVariant => "error-unknown-variant",
            Refusal::BotsCannotPlay => "error-bots-cannot-play",
        }
    )
}

/// The refusal of a piece menu entry whose piece cannot move (any more).
#[must_use]
pub fn no_piece_moves(square: Square, lang: Lang) -> String {
    tr!(lang, "error-no-piece-moves", square = square.to_string())
}

/// Which game a command means, when the channel has none or several of the caller's.
#[must_use]
pub fn which_game(found: &[GameId], lang: Lang) -> String {
    // Every command that acts on a game names its option alike; `move`'s stands for them all.
    let game = markup::option(lang, "move", "game", None);
    if found.is_empty() {
        return tr!(lang, "error-no-game-here", game = game);
    }
    let list = found.iter().map(|id| short_number(*id, lang)).collect::<Vec<_>>().join(", ");
    tr!(lang, "error-several-games", list = list, game = game)
}

// ----- games -----

/// `game #12` / `партия №12`, as the language writes numbers of games.
#[must_use]
pub fn game_number(id: GameId, lang: Lang) -> String {
    tr!(lang, "game-number", id = id)
}

/// The side's name in running text: "attackers".
#[must_use]
pub fn side_name(side: Side, lang: Lang) -> String {
    tr!(
        lang,
        match side {
            Side::Attackers => "side-attackers",
            Side::Defenders => "side-defenders",
        }
    )
}

/// The side's name standing alone, as a board's header names a player it has no name for:
/// "Attackers".
#[must_use]
pub fn side_plain_name(side: Side, lang: Lang) -> String {
    tr!(
        lang,
        match side {
            Side::Attackers => "side-plain-attackers",
            Side::Defenders => "side-plain-defenders",
        }
    )
}

/// The side's name as a heading, with its emoji.
#[must_use]
pub fn side_heading(side: Side, lang: Lang) -> String {
    tr!(
        lang,
        match side {
            Side::Attackers => "side-heading-attackers",
            Side::Defenders => "side-heading-defenders",
        }
    )
}

/// The full-move number of a ply (both sides' moves make one move).
#[must_use]
pub fn move_number(ply: usize) -> usize {
    ply / 2 + 1
}

/// The move a picture's footer names after `ply` plies: while the game goes on, the move being
/// made; once it is over, the last move played (the summary's count of moves), so that a king
/// escaping on the defenders' 44th ply is "move 22", not a 23rd move nobody played. A game
/// over before any move stays at move 1.
#[must_use]
pub fn footer_move_number(ply: usize, over: bool) -> usize {
    if over && ply > 0 { ply.div_ceil(2) } else { move_number(ply) }
}

/// The player of a game with this id (a game's two players are known to its view).
fn player_of(game: &GameView, id: UserId) -> User {
    if game.attacker.id == id { game.attacker.clone() } else { game.defender.clone() }
}

/// The result in words: who won and how, or a draw.
#[must_use]
pub fn result_line(game: &GameView, lang: Lang) -> String {
    let Some(ending) = game.ending else { return String::new() };
    let how = reason_words(ending.reason, game, lang);
    match ending.winner {
        Some(Side::Attackers) => tr!(lang, "result-attackers", player = player_name(lang, &game.attacker), how = how),
        Some(Side::Defenders) => tr!(lang, "result-defenders", player = player_name(lang, &game.defender), how = how),
        None if !ending.has_result() => tr!(lang, "result-aborted", how = how),
        None => tr!(lang, "result-draw", how = how),
    }
}

/// How a game ended, in words, with the square where the board tells it.
#[must_use]
pub fn reason_words(reason: EndReason, game: &GameView, lang: Lang) -> String {
    let to = game.last_move.as_ref().map(|m| m.mv.to.to_string()).unwrap_or_default();
    let king = game.position.king().to_string();
    let loser =
        game.ending.and_then(|e| e.winner).map(|w| player_name(lang, game.player(w.opponent()))).unwrap_or_default();
    match reason {
        EndReason::Board(Reason::KingEscaped) => tr!(lang, "how-king-escaped", square = to),
        EndReason::Board(Reason::KingCaptured) => tr!(lang, "how-king-captured", square = king),
        EndReason::Board(Reason::Encirclement) => tr!(lang, "how-encirclement"),
        EndReason::Board(Reason::ExitFort) => tr!(lang, "how-exit-fort"),
        EndReason::Board(Reason::Repetition) => tr!(lang, "how-repetition"),
        EndReason::Board(Reason::NoMoves) => tr!(lang, "how-no-moves"),
        EndReason::Resignation => tr!(lang, "how-resignation", player = loser),
        EndReason::Time => tr!(lang, "how-time", player = loser),
        EndReason::Abandoned => tr!(lang, "how-abandoned", player = loser),
        EndReason::Aborted => tr!(lang, "how-aborted"),
        EndReason::BotRemoved => tr!(lang, "how-bot-removed"),
        EndReason::Agreement => tr!(lang, "how-agreement"),
    }
}

/// The board message's title.
#[must_use]
pub fn board_title(game: &GameView, lang: Lang) -> String {
    tr!(lang, "board-title", variant = variant_name(&game.variant, lang), id = game.id)
}

/// The board message's text: players, whose turn or the result, the last move, captures and
/// open offers.
#[must_use]
pub fn board_description(game: &GameView, history: &Game, offers: &[OpenOffer], lang: Lang) -> String {
    let mut lines = vec![
        format!("{}: {}", side_heading(Side::Attackers, lang), mention(lang, &game.attacker)),
        format!("{}: {}", side_heading(Side::Defenders, lang), mention(lang, &game.defender)),
        String::new(),
    ];
    match game.player_to_move() {
        Some(player) => {
            lines.push(tr!(lang, "board-to-move", number = move_number(game.ply), player = mention(lang, player)));
        }
        None => lines.push(result_line(game, lang)),
    }
    if let Some(last) = &game.last_move {
        lines.push(tr!(lang, "board-last-move", notation = notation_with_spaces(&last.to_string())));
    }
    let (by_attackers, by_defenders) = crate::host::captures_by_side(history);
    if by_attackers + by_defenders > 0 {
        lines.push(tr!(lang, "board-captured", attackers = by_attackers, defenders = by_defenders));
    }
    // The clock's terms and what each side has saved: the challenge card said them, but it
    // becomes this board, and a player of `3d+7d` must see what they have banked.
    if game.ending.is_none()
        && let Some(terms) = clock_line(game.clock, lang)
    {
        lines.push(tr!(lang, "board-clock", clock = terms));
        if game.clock.reserve_cap().is_some() {
            lines.push(reserves_line(game, lang));
        }
    }
    if let (Some(deadline), true) = (game.deadline_at, game.ending.is_none()) {
        lines.push(tr!(lang, "board-deadline", when = timestamp(lang, deadline)));
    }
    for offer in offers {
        let by = mention(lang, &player_of(game, offer.by));
        lines.push(match offer.kind {
            OfferKind::Draw => tr!(lang, "board-offer-draw", by = by),
            OfferKind::Takeback => {
                let plies = game.takeback_plies_of(offer.by).unwrap_or(1);
                tr!(lang, "board-offer-takeback", by = by, plies = plies)
            }
        });
    }
    lines.join("\n")
}

/// What each side has saved on a reserve clock. Against the bot, the person's reserve alone: the
/// bot's turns have no clock, and a reserve shown for it would say it has one.
fn reserves_line(game: &GameView, lang: Lang) -> String {
    let saved = |side| saved_time_words(game.reserve(side), lang);
    match (is_bot(game.attacker.id), is_bot(game.defender.id)) {
        (false, true) => tr!(lang, "board-reserve-attackers", reserve = saved(Side::Attackers)),
        (true, false) => tr!(lang, "board-reserve-defenders", reserve = saved(Side::Defenders)),
        _ => tr!(lang, "board-reserves", attackers = saved(Side::Attackers), defenders = saved(Side::Defenders)),
    }
}

/// `e1-e3xe2` as `e1-e3 x e2`, easier to read.
#[must_use]
pub fn notation_with_spaces(notation: &str) -> String {
    match notation.split_once('x') {
        Some((mv, captures)) => format!("{mv} x {}", captures.replace('x', " x ")),
        None => notation.to_owned(),
    }
}

/// A legal move as autocomplete and the move menus show it: `e1-e3 x e2`, `f6-f1 escape!`.
#[must_use]
pub fn move_label(choice: &MoveChoice, lang: Lang) -> String {
    let mut label = if choice.captures.is_empty() {
        choice.notation.clone()
    } else {
        let list: Vec<String> = choice.captures.iter().map(ToString::to_string).collect();
        tr!(lang, "move-label-captures", notation = choice.notation.as_str(), captures = list.join("/"))
    };
    if let Some(effect) = choice.effect {
        let id = match effect {
            MoveEffect::Wins(Reason::KingEscaped) => "move-effect-king-escaped",
            MoveEffect::Wins(Reason::KingCaptured) => "move-effect-king-captured",
            MoveEffect::Wins(Reason::ExitFort) => "move-effect-exit-fort",
            MoveEffect::Wins(Reason::Encirclement) => "move-effect-encirclement",
            MoveEffect::Wins(Reason::NoMoves) => "move-effect-no-moves",
            MoveEffect::Wins(Reason::Repetition) => "move-effect-repetition-wins",
            MoveEffect::Draws => "move-effect-repetition-draws",
            MoveEffect::Loses => "move-effect-repetition-loses",
            MoveEffect::EscapeThreat => "move-effect-threat",
        };
        label.push(' ');
        label.push_str(&tr!(lang, id));
    }
    label
}

/// The answer to a challenge of the bot: the game has started.
#[must_use]
pub fn bot_game_started(game: &GameView, bot: &User, lang: Lang) -> String {
    tr!(lang, "bot-game-started", id = game.id, bot = mention(lang, bot))
}

/// A hint's words: the engine's move in a game.
#[must_use]
pub fn hint(notation: &str, game: GameId, lang: Lang) -> String {
    tr!(lang, "hint", notation = notation, id = game)
}

/// The "your move" notice, the one message per move that mentions (and so notifies) a player.
/// After a takeback it names no move: the last one on the board is old news.
#[must_use]
pub fn your_move(game: &GameView, after_takeback: bool, lang: Lang) -> String {
    let Some(player) = game.player_to_move() else { return String::new() };
    let variant = variant_name(&game.variant, lang);
    let player = mention(lang, player);
    if after_takeback {
        tr!(lang, "your-move-after-takeback", player = player, id = game.id, variant = variant)
    } else if let Some(last) = &game.last_move {
        let notation = notation_with_spaces(&last.to_string());
        tr!(lang, "your-move-after", player = player, id = game.id, variant = variant, notation = notation)
    } else {
        tr!(lang, "your-move-first", player = player, id = game.id, variant = variant)
    }
}

/// The private confirmation of a move played.
#[must_use]
pub fn played(notation: &str, game: GameId, lang: Lang) -> String {
    tr!(lang, "played", notation = notation_with_spaces(notation), id = game)
}

/// The notice about an offer, a decline or a takeback, naming whoever made it
/// ([`OfferOutcome::by`]: the bot, when it answered the caller's offer).
#[must_use]
pub fn offer_notice(outcome: &OfferOutcome, kind: OfferKind, lang: Lang) -> String {
    let game = outcome.game();
    let id = game.id;
    let by = mention(lang, &player_of(game, outcome.by()));
    match (outcome, kind) {
        (OfferOutcome::Offered { notify, .. }, OfferKind::Draw) => {
            tr!(lang, "offer-draw", player = mention(lang, &player_of(game, *notify)), by = by, id = id)
        }
        (OfferOutcome::Offered { notify, .. }, OfferKind::Takeback) => {
            let plies = game.takeback_plies_of(outcome.by()).unwrap_or(1);
            let player = mention(lang, &player_of(game, *notify));
            tr!(lang, "offer-takeback", player = player, by = by, id = id, plies = plies)
        }
        (OfferOutcome::Declined { withdrawn: true, .. }, OfferKind::Draw) => {
            tr!(lang, "offer-draw-withdrawn", by = by, id = id)
        }
        (OfferOutcome::Declined { withdrawn: true, .. }, OfferKind::Takeback) => {
            tr!(lang, "offer-takeback-withdrawn", by = by, id = id)
        }
        (OfferOutcome::Declined { .. }, OfferKind::Draw) => tr!(lang, "offer-draw-declined", by = by, id = id),
        (OfferOutcome::Declined { .. }, OfferKind::Takeback) => {
            tr!(lang, "offer-takeback-declined", by = by, id = id)
        }
        (OfferOutcome::Accepted { plies_taken_back, .. }, OfferKind::Takeback) => {
            tr!(lang, "offer-takeback-accepted", by = by, plies = *plies_taken_back, id = id)
        }
        (OfferOutcome::Accepted { .. }, OfferKind::Draw) => tr!(lang, "offer-draw-accepted", by = by, id = id),
    }
}

/// The notice of an offer by `by` that was answered, withdrawn or lapsed before it could be
/// posted: it says what was offered, and asks nobody for an answer (the answer's own notice
/// follows it).
#[must_use]
pub fn offer_made(game: &GameView, by: UserId, kind: OfferKind, lang: Lang) -> String {
    let by = mention(lang, &player_of(game, by));
    match kind {
        OfferKind::Draw => tr!(lang, "offer-draw-made", by = by, id = game.id),
        OfferKind::Takeback => tr!(lang, "offer-takeback-made", by = by, id = game.id),
    }
}

/// The private answer to a player who made, answered or withdrew an offer by command, in their
/// own words ("You offered a draw…"): the public notice is addressed to the opponent ("Bob,
/// Alice offers a draw…: accept or decline on the board") and would read as a request to the
/// caller. When the bot answered the caller's offer at once, its answer is the news, told as
/// the notice tells it.
#[must_use]
pub fn offer_answer(outcome: &OfferOutcome, kind: OfferKind, caller: UserId, lang: Lang) -> String {
    if outcome.by() != caller {
        return offer_notice(outcome, kind, lang);
    }
    let game = outcome.game();
    let id = game.id;
    match (outcome, kind) {
        (OfferOutcome::Offered { notify, .. }, OfferKind::Draw) => {
            tr!(lang, "answer-draw-offered", player = mention(lang, &player_of(game, *notify)), id = id)
        }
        (OfferOutcome::Offered { notify, .. }, OfferKind::Takeback) => {
            let plies = game.takeback_plies_of(caller).unwrap_or(1);
            let player = mention(lang, &player_of(game, *notify));
            tr!(lang, "answer-takeback-asked", player = player, id = id, plies = plies)
        }
        (OfferOutcome::Declined { withdrawn: true, .. }, OfferKind::Draw) => {
            tr!(lang, "answer-draw-withdrawn", id = id)
        }
        (OfferOutcome::Declined { withdrawn: true, .. }, OfferKind::Takeback) => {
            tr!(lang, "answer-takeback-withdrawn", id = id)
        }
        (OfferOutcome::Declined { .. }, OfferKind::Draw) => tr!(lang, "answer-draw-declined", id = id),
        (OfferOutcome::Declined { .. }, OfferKind::Takeback) => tr!(lang, "answer-takeback-declined", id = id),
        (OfferOutcome::Accepted { plies_taken_back, .. }, OfferKind::Takeback) => {
            tr!(lang, "answer-takeback-accepted", plies = *plies_taken_back, id = id)
        }
        (OfferOutcome::Accepted { .. }, OfferKind::Draw) => tr!(lang, "answer-draw-accepted", id = id),
    }
}

/// The private question before a resignation.
#[must_use]
pub fn confirm_resign(game: GameId, lang: Lang) -> String {
    tr!(lang, "confirm-resign", id = game)
}

/// The private answer after resigning.
#[must_use]
pub fn resigned(game: GameId, lang: Lang) -> String {
    tr!(lang, "resigned", id = game)
}

/// The answer to a confirmed resignation when the game moved on after the question was asked
/// (the opponent, often the bot, moved meanwhile): it did not happen, and may be asked again.
#[must_use]
pub fn resign_stale(game: GameId, lang: Lang) -> String {
    tr!(lang, "resign-stale", id = game, resign = label(Label::Resign, lang))
}

/// The private answer after claiming a game (`game`, finished by the claim): won from an
/// opponent who left it, aborted when it ended before the second move, or ended without a
/// result after the bot was away from its server for two weeks.
#[must_use]
pub fn claimed(game: &GameView, lang: Lang) -> String {
    let message = match game.ending.map(|e| e.reason) {
        Some(EndReason::Aborted) => "claimed-aborted",
        Some(EndReason::BotRemoved) => "claimed-bot-removed",
        _ => "claimed",
    };
    // The one who left it is the one to move: a claim changes no position.
    let player = player_name(lang, game.player(game.to_move));
    let days = CLAIM_AFTER / 86_400;
    tr!(lang, message, id = game.id, player = player, days = days)
}

/// Labels of buttons and menus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    Accept,
    Decline,
    PickPiece,
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
pub fn label(label: Label, lang: Lang) -> String {
    tr!(
        lang,
        match label {
            Label::Accept => "label-accept",
            Label::Decline => "label-decline",
            Label::PickPiece => "label-pick-piece",
            Label::Back => "label-back",
            Label::Resign => "label-resign",
            Label::ConfirmResign => "label-confirm-resign",
            Label::OfferDraw => "label-offer-draw",
            Label::AcceptDraw => "label-accept-draw",
            Label::DeclineDraw => "label-decline-draw",
            Label::Takeback => "label-takeback",
            Label::AcceptTakeback => "label-accept-takeback",
            Label::DeclineTakeback => "label-decline-takeback",
            Label::MorePieces => "label-more-pieces",
            Label::MoreMoves => "label-more-moves",
        }
    )
}

/// The placeholder of the destination menu of the piece on `from`.
#[must_use]
pub fn pick_destination(from: Square, lang: Lang) -> String {
    tr!(lang, "label-pick-destination", square = from.to_string())
}

/// A piece in the piece menu: `d1 (4 moves)`.
#[must_use]
pub fn piece_option(square: Square, moves: usize, lang: Lang) -> String {
    tr!(lang, "piece-option", square = square.to_string(), moves = moves)
}

// ----- challenges -----

/// The challenge card: who challenges whom to what.
#[must_use]
pub fn challenge_card(challenge: &Challenge, lang: Lang) -> (String, String) {
    let variant = variant_name(&challenge.variant, lang);
    let by = mention(lang, &challenge.challenger);
    let title = tr!(lang, "challenge-title", id = challenge.id, variant = variant.as_str());
    let invitation = if let Some(o) = &challenge.opponent {
        tr!(lang, "challenge-to", by = by, opponent = mention(lang, o), variant = variant.as_str())
    } else {
        tr!(lang, "challenge-open", by = by, variant = variant.as_str())
    };
    let mut lines = vec![invitation];
    let side = tr!(
        lang,
        match challenge.side {
            SideChoice::Attackers => "side-choice-attackers",
            SideChoice::Defenders => "side-choice-defenders",
            SideChoice::Random => "side-choice-random",
        }
    );
    lines.push(tr!(lang, "challenge-side", side = side));
    if !challenge.options.is_empty() {
        lines.push(tr!(lang, "challenge-options", options = challenge.options.as_str()));
    }
    if let Some(line) = clock_line(challenge.clock, lang) {
        lines.push(line);
    }
    lines.push(tr!(lang, "challenge-expires", when = timestamp(lang, challenge.expires_at)));
    (title, lines.join("\n"))
}

/// The private answer to /board: the new board is posted by the delivery task.
#[must_use]
pub fn board_posted(game: GameId, lang: Lang) -> String {
    tr!(lang, "board-posted", id = game)
}

/// The private answer to /board when the new board the caller asked for earlier is still to be
/// posted: this request joins it.
#[must_use]
pub fn board_on_its_way(game: GameId, lang: Lang) -> String {
    tr!(lang, "board-on-its-way", id = game)
}

/// The private answer to /board typed elsewhere than where the game is played: its new board is
/// posted where it is, `channel` (`thread`: the game's thread), or on its way there when
/// `already` asked for.
#[must_use]
pub fn board_posted_there(game: GameId, channel: u64, thread: bool, already: bool, lang: Lang) -> String {
    let id = if already { "board-on-its-way-there" } else { "board-posted-there" };
    let thread = if thread { "yes" } else { "no" };
    tr!(lang, id, id = game, channel = format!("<#{channel}>"), thread = thread)
}

/// The private answer to /board moments after a board was posted anew: that board, by its link.
#[must_use]
pub fn board_just_posted(game: GameId, link: &str, lang: Lang) -> String {
    tr!(lang, "board-just-posted", id = game, link = link)
}

/// The private answer to /board that moved a game whose channel was deleted to the channel it
/// was typed in, where its new board is posted.
#[must_use]
pub fn board_moved(game: GameId, lang: Lang) -> String {
    tr!(lang, "board-moved", id = game)
}

/// The DM telling a player that their game's channel was deleted, and how the game goes on.
#[must_use]
pub fn channel_gone(game: GameId, lang: Lang) -> String {
    tr!(lang, "channel-gone", id = game)
}

/// The private answer to /export, above the record's file: what the file is and what reads it.
#[must_use]
pub fn export_caption(game: GameId, lang: Lang) -> String {
    tr!(lang, "export-caption", id = game)
}

/// What a closed challenge's card says instead of its invitation.
#[must_use]
pub fn challenge_closed(challenge: &Challenge, by: &User, lang: Lang) -> String {
    let id = challenge.id;
    let by = mention(lang, by);
    match challenge.state {
        ChallengeState::Declined => tr!(lang, "challenge-declined", id = id, by = by),
        ChallengeState::Cancelled => tr!(lang, "challenge-cancelled", id = id, by = by),
        ChallengeState::Expired => tr!(lang, "challenge-expired", id = id),
        ChallengeState::Accepted | ChallengeState::Open => tr!(lang, "challenge-accepted", id = id),
    }
}

// ----- clocks -----

/// A clock in words (`Time per move: 3 days, unused time saved up to 7 days`), or `None` for
/// an untimed game.
#[must_use]
pub fn clock_line(clock: Clock, lang: Lang) -> Option<String> {
    let per_move = duration_words(clock.seconds_per_move()?, lang);
    Some(match clock.reserve_cap() {
        None => tr!(lang, "clock-per-move", per_move = per_move),
        Some(cap) => tr!(lang, "clock-with-reserve", per_move = per_move, cap = duration_words(cap, lang)),
    })
}

/// A clock in words, the untimed one included.
#[must_use]
pub fn clock_words(clock: Clock, lang: Lang) -> String {
    clock_line(clock, lang).unwrap_or_else(|| tr!(lang, "clock-untimed"))
}

/// A duration as the console prints it: every unit down to the second, compact, as a clock is
/// typed in English (`1d12h`, `90m`), with the reader's units in other languages (`1 дн. 12 ч`).
#[must_use]
pub fn compact_duration(seconds: i64, lang: Lang) -> String {
    let seconds = seconds.max(0);
    let parts = [
        (seconds / 86_400, "console-unit-days"),
        (seconds % 86_400 / 3600, "console-unit-hours"),
        (seconds % 3600 / 60, "console-unit-minutes"),
        (seconds % 60, "console-unit-seconds"),
    ];
    let shown: Vec<String> = parts.iter().filter(|(n, _)| *n > 0).map(|&(n, id)| tr!(lang, id, n = n)).collect();
    if shown.is_empty() {
        return tr!(lang, "console-unit-minutes", n = 0);
    }
    // Units written apart from their numbers (`12 ч`) are joined apart too (`1 дн. 12 ч`).
    let apart = shown.iter().any(|part| part.contains(' '));
    shown.join(if apart { " " } else { "" })
}

/// `3 days`, `1 day 12 hours`, `1 hour 30 minutes`: a clock's time in words, every unit it
/// has, as clocks are typed (`1d12h`). A single unit made `7d12h` "180 hours".
#[must_use]
pub fn duration_words(seconds: i64, lang: Lang) -> String {
    let seconds = seconds.max(0);
    let parts = [
        (seconds / 86_400, "days"),
        (seconds % 86_400 / 3600, "hours"),
        (seconds % 3600 / 60, "minutes"),
        // Clocks are typed in seconds too (`30s`, refused as too short, or `90s`): said as typed,
        // not rounded to a minute that would contradict the limit the sentence names.
        (seconds % 60, "seconds"),
    ];
    let words: Vec<String> = parts.iter().filter(|(n, _)| *n > 0).map(|&(n, id)| tr!(lang, id, n = n)).collect();
    if words.is_empty() { tr!(lang, "minutes", n = 0) } else { words.join(" ") }
}

/// `1 day 22 hours`, `3 hours 5 minutes`, `0 minutes`: time saved on a clock, to the minute and
/// in its two largest units. Moves are made at any second, so every unit of it ("1 day 22 hours
/// 13 minutes 27 seconds") was more than a player reads at a glance.
#[must_use]
pub fn saved_time_words(seconds: i64, lang: Lang) -> String {
    let seconds = seconds.max(0);
    let unit = if seconds >= 86_400 { 3600 } else { 60 };
    let kept = seconds - seconds % unit;
    duration_words(kept, lang)
}

// ----- game lists, reminders, digests -----

/// One line of `/tafl games` and of the digest, with the deadline when the game has a clock.
fn game_line(game: &GameSummary, now: i64, whose: Whose<'_>, lang: Lang) -> String {
    let state = match (game.ending, game.my_turn(), whose) {
        (Some(_), _, _) => tr!(lang, "game-state-finished"),
        (None, true, Whose::Reader) => tr!(lang, "game-state-your-move"),
        (None, false, Whose::Reader) => tr!(lang, "game-state-their-move"),
        (None, true, Whose::Other(player)) => {
            tr!(lang, "game-state-player-to-move", player = player_name(lang, player))
        }
        (None, false, Whose::Other(_)) => tr!(lang, "game-state-opponent-to-move"),
    };
    let clock = match (game.deadline_at, game.time_left(now)) {
        // Its deadline means nothing until the bot is back and gives the turn its time back;
        // after long enough away, either player may end the game (the server may be gone).
        _ if game.may_end_paused(now) => {
            tr!(lang, "game-line-paused-may-end", claim = markup::command(lang, "claim"))
        }
        _ if game.paused() => tr!(lang, "game-line-paused"),
        (Some(deadline), Some(_)) => tr!(lang, "game-line-clock", when = timestamp(lang, deadline)),
        // Only the one waiting is told: another's list never says "you".
        _ if matches!(whose, Whose::Reader) && game.claimable_by_me(now) => {
            tr!(lang, "game-line-claimable", claim = markup::command(lang, "claim"))
        }
        _ => String::new(),
    };
    // A deleted channel is no place to jump to: the line says how the game goes on instead.
    let clock = if game.channel_gone {
        clock + &tr!(lang, "game-line-channel-gone", board = markup::command(lang, "board"))
    } else {
        clock
    };
    let channel = game.place.thread.unwrap_or(game.place.channel);
    let link = format!("https://discord.com/channels/{}/{channel}", game.place.guild);
    let linked = lang.markup() == super::Markup::Discord && !game.channel_gone;
    let id = if linked { "game-line" } else { "game-line-plain" };
    tr!(
        lang,
        id,
        id = game.id,
        link = link,
        variant = variant_name(&game.variant, lang),
        opponent = player_name(lang, &game.opponent),
        side = side_heading(game.side, lang),
        number = move_number(game.ply),
        state = state,
        clock = clock
    )
}

/// A game in the `game` option's suggestions: `#12 Copenhagen vs Bob · your move` (not in
/// brackets, which would follow the bot's own: `Tafl bot (level 2)`).
#[must_use]
pub fn game_choice(game: &GameSummary, lang: Lang) -> String {
    let state = tr!(
        lang,
        if game.ending.is_some() {
            "game-state-finished"
        } else if game.my_turn() {
            "game-choice-your-move"
        } else {
            "game-choice-their-move"
        }
    );
    tr!(
        lang,
        "game-choice",
        id = game.id,
        variant = variant_name(&game.variant, lang),
        opponent = plain_name(lang, &game.opponent),
        state = state
    )
}

/// The title of a list of games in progress.
#[must_use]
pub fn games_title(count: usize, lang: Lang) -> String {
    tr!(lang, "games-title", count = count)
}

/// The lines of a list of games, one a game, in the order given, as many as an embed's
/// description holds (names can be long, and escaped ones longer: 25 lines of 64-character
/// names came to 7,000 characters), and then a line that counts the others: of `total` games
/// (`games` may be the first of them), none is left out without a word.
#[must_use]
pub fn game_list(games: &[GameSummary], total: usize, now: i64, whose: Whose<'_>, lang: Lang) -> String {
    // The counting line is short ("…and 1,234 more games"): this keeps room for it.
    const ROOM_FOR_MORE: usize = 100;
    let mut lines = Vec::new();
    let mut length = 0;
    for game in games {
        let line = game_line(game, now, whose, lang);
        let chars = line.chars().count() + 1;
        if length + chars > super::summary::MAX_DESCRIPTION - ROOM_FOR_MORE {
            break;
        }
        length += chars;
        lines.push(line);
    }
    let more = total.max(games.len()) - lines.len();
    if more > 0 {
        lines.push(tr!(lang, "games-more", count = more));
    }
    lines.join("\n")
}

/// The answer to `/tafl games` for someone with no games.
#[must_use]
pub fn no_games(whose: Whose<'_>, lang: Lang) -> String {
    match whose {
        Whose::Reader => tr!(lang, "no-games"),
        Whose::Other(player) => tr!(lang, "no-games-other", player = player_name(lang, player)),
    }
}

/// Whose games a list shows: the reader's own ("your move"), or another player's, whose turn
/// is then named ("Bob to move"), never "yours".
#[derive(Clone, Copy, Debug)]
pub enum Whose<'a> {
    Reader,
    Other(&'a User),
}

/// A reminder to move: at half time, or the last warning (which says what the deadline does:
/// before the second move it calls the game off, without a result, rather than losing it), or
/// in a game without a clock the warning that the opponent may soon claim it.
#[must_use]
pub fn reminder(reminder: &Reminder, lang: Lang) -> String {
    let id = match reminder.kind {
        ReminderKind::Halfway => "reminder-halfway",
        ReminderKind::LastWarning if reminder.ply < crate::host::PLIES_TO_COUNT => "reminder-last-aborts",
        ReminderKind::LastWarning => "reminder-last",
        ReminderKind::ClaimWarning if reminder.ply < crate::host::PLIES_TO_COUNT => "reminder-claim-aborts",
        ReminderKind::ClaimWarning => "reminder-claim",
    };
    tr!(
        lang,
        id,
        player = mention(lang, &reminder.player),
        id = reminder.game,
        variant = variant_name(&reminder.variant, lang),
        when = timestamp(lang, reminder.deadline_at),
        opponent = player_name(lang, &reminder.opponent)
    )
}

/// The notice to the person waiting in an untimed game whose player to move has left it for
/// [`CLAIM_AFTER`]: they may claim it (`game` as it stands, still going on).
#[must_use]
pub fn claimable(game: &GameView, lang: Lang) -> String {
    let aborts = game.ply < crate::host::PLIES_TO_COUNT;
    tr!(
        lang,
        if aborts { "claimable-aborts" } else { "claimable" },
        player = mention(lang, game.player(game.to_move.opponent())),
        absent = player_name(lang, game.player(game.to_move)),
        id = game.id,
        variant = variant_name(&game.variant, lang),
        days = CLAIM_AFTER / 86_400,
        claim = markup::command(lang, "claim")
    )
}

/// The title of the daily digest.
#[must_use]
pub fn digest_title(games: usize, lang: Lang) -> String {
    tr!(lang, "digest-title", count = games)
}

/// The title of a DM listing a person's games that were paused long enough to be ended.
#[must_use]
pub fn paused_games_title(games: usize, lang: Lang) -> String {
    tr!(lang, "paused-games-title", count = games)
}

/// What opens that DM, above the list: why the games are paused (since `since`, unix seconds)
/// and what a return of the bot would do. The list's lines say how to end them.
#[must_use]
pub fn paused_games_intro(games: usize, since: i64, lang: Lang) -> String {
    tr!(lang, "paused-games-intro", count = games, when = timestamp(lang, since))
}

/// A game's number as a thread name or a list shows it: `#12`.
#[must_use]
pub fn short_number(id: GameId, lang: Lang) -> String {
    tr!(lang, "short-number", id = id)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn english() -> Lang {
        Lang::discord(None)
    }

    fn russian() -> Lang {
        Lang::discord(Some("ru"))
    }

    /// Game #3 of Brandubh against Bob, the reader attacking, the defenders to move at ply 5.
    fn brandubh_waiting() -> GameSummary {
        GameSummary {
            id: 3,
            place: crate::host::Place { guild: 1, channel: 2, thread: None },
            variant: "brandubh".to_owned(),
            side: Side::Attackers,
            opponent: User::new(7, "Bob"),
            ply: 5,
            to_move: Side::Defenders,
            ending: None,
            clock: Clock::default(),
            deadline_at: None,
            claimable_at: None,
            paused_since: None,
            channel_gone: false,
        }
    }

    /// The last warning says what the deadline does: before the second move it calls the game
    /// off, without a result; after it, the player loses.
    #[test]
    fn the_last_warning_says_whether_the_deadline_loses_or_calls_off_the_game() {
        let warning = |ply: usize, lang: Lang| reminder(&sample_reminder(ReminderKind::LastWarning, ply), lang);
        assert_eq!(
            warning(1, english()),
            "<@7>, last warning: your time in game #3 (Brandubh) runs out <t:1000:R>, and then the game is called off \
             without a result, as it has not reached the second move."
        );
        assert_eq!(
            warning(1, russian()),
            "<@7>, последнее предупреждение: время в партии №3 (Брандубх) истекает <t:1000:R>, и тогда партия будет \
             прервана без результата: до второго хода она не дошла."
        );
        assert!(warning(2, english()).ends_with("and then you lose the game."), "{}", warning(2, english()));
        assert!(warning(2, russian()).ends_with("и тогда вы проиграете партию."), "{}", warning(2, russian()));
    }

    fn sample_reminder(kind: ReminderKind, ply: usize) -> Reminder {
        Reminder {
            game: 3,
            place: crate::host::Place { guild: 1, channel: 2, thread: None },
            variant: "brandubh".to_owned(),
            kind,
            player: User::new(7, "Bob"),
            opponent: User::new(8, "Ann"),
            side: Side::Defenders,
            ply,
            deadline_at: 1_000,
            dm: false,
        }
    }

    /// A game without a clock warns its player to move before the opponent may claim it, naming
    /// the opponent without pinging them.
    #[test]
    fn the_claim_warning_names_who_may_claim_and_when() {
        let warning = |ply: usize, lang: Lang| reminder(&sample_reminder(ReminderKind::ClaimWarning, ply), lang);
        assert_eq!(
            warning(4, english()),
            "<@7>, it is your move in game #3 (Brandubh), which has no clock; if you do not move, Ann may claim \
             the win <t:1000:R>."
        );
        assert_eq!(
            warning(4, russian()),
            "<@7>, в партии №3 (Брандубх) ваш ход, а часов в ней нет; если вы не сделаете ход, Ann сможет забрать победу \
             <t:1000:R>."
        );
        assert!(
            warning(1, english()).ends_with("Ann may end it without a result <t:1000:R>."),
            "{}",
            warning(1, english())
        );
    }

    #[test]
    fn only_the_player_waiting_is_told_in_their_list_that_they_may_claim() {
        let game = GameSummary { claimable_at: Some(1_000), ..brandubh_waiting() };
        let line = |now: i64, whose: Whose<'_>, lang: Lang| game_list(std::slice::from_ref(&game), 1, now, whose, lang);
        assert!(
            line(1_000, Whose::Reader, english())
                .ends_with(" · left unplayed for two weeks: you may claim it with /tafl claim"),
            "{}",
            line(1_000, Whose::Reader, english())
        );
        assert!(line(1_000, Whose::Reader, russian()).contains("партию можно закончить командой"));
        assert!(!line(999, Whose::Reader, english()).contains("claim"), "not yet");
        let alice = User::new(6, "Alice");
        assert!(!line(1_000, Whose::Other(&alice), english()).contains("claim"), "not in another's list");
    }

    #[test]
    fn a_game_whose_channel_was_deleted_links_nowhere_and_says_how_to_go_on() {
        let game = GameSummary { deadline_at: Some(2_000), channel_gone: true, ..brandubh_waiting() };
        let line = |lang: Lang| game_list(std::slice::from_ref(&game), 1, 1_500, Whose::Reader, lang);
        let in_english = line(english());
        assert!(!in_english.contains("discord.com/channels"), "no link to a deleted channel: {in_english}");
        assert!(in_english.starts_with("#3 Brandubh vs Bob"), "{in_english}");
        assert!(in_english.ends_with(" · channel deleted: go on in another channel with /tafl board"), "{in_english}");
        assert!(in_english.contains("⏰"), "its clock runs: {in_english}");
        let in_russian = line(russian());
        assert!(!in_russian.contains("discord.com/channels"), "{in_russian}");
        assert!(
            in_russian.ends_with(" · канал удалён: продолжить можно командой /тафл доска в другом канале"),
            "{in_russian}"
        );
        // Its channel there, the line links to it as before.
        let listed = game_list(&[brandubh_waiting()], 1, 1_500, Whose::Reader, english());
        assert!(listed.starts_with("[#3](https://discord.com/channels/1/2)"), "{listed}");
    }

    #[test]
    fn a_paused_game_says_why_instead_of_its_deadline_or_claim() {
        let game = GameSummary {
            deadline_at: Some(2_000),
            claimable_at: Some(1_000),
            paused_since: Some(500),
            ..brandubh_waiting()
        };
        let line = |lang: Lang| game_list(std::slice::from_ref(&game), 1, 1_500, Whose::Reader, lang);
        assert!(line(english()).ends_with(" · ⏸ paused: the bot is no longer in its server"), "{}", line(english()));
        assert!(line(russian()).ends_with(" · ⏸ приостановлена: бота нет на её сервере"), "{}", line(russian()));
        assert!(!game.claimable_by_me(1_500));
        assert!(!GameSummary { side: Side::Defenders, ..game.clone() }.awaits_me(), "no digest");
        // Two weeks on, either player is told they may end it.
        let later = 500 + CLAIM_AFTER;
        for side in [Side::Attackers, Side::Defenders] {
            let game = GameSummary { side, ..game.clone() };
            let listed = game_list(std::slice::from_ref(&game), 1, later, Whose::Reader, english());
            assert!(
                listed.contains(
                    " · ⏸ paused: the bot is no longer in its server; either player may end it without a result with "
                ),
                "{listed}"
            );
        }
        let listed = game_list(std::slice::from_ref(&game), 1, later - 1, Whose::Reader, russian());
        assert!(listed.ends_with(" · ⏸ приостановлена: бота нет на её сервере"), "a second early: {listed}");
        let listed = game_list(std::slice::from_ref(&game), 1, later, Whose::Reader, russian());
        assert!(listed.contains("; любой из игроков может закончить её без результата командой "), "{listed}");
    }

    #[test]
    fn the_console_writes_durations_as_clocks_are_typed_with_the_readers_units() {
        let (en, ru) = (Lang::console("en"), Lang::console("ru"));
        let day_and_a_half = 86_400 + 12 * 3600;
        assert_eq!(compact_duration(day_and_a_half, en), "1d12h");
        assert_eq!(compact_duration(day_and_a_half, ru), "1 дн. 12 ч");
        assert_eq!(compact_duration(90 * 60 + 5, en), "1h30m5s");
        assert_eq!(compact_duration(90 * 60 + 5, ru), "1 ч 30 мин 5 с");
        assert_eq!(compact_duration(30 * 60, ru), "30 мин");
        assert_eq!((compact_duration(0, en), compact_duration(-5, ru)), ("0m".to_owned(), "0 мин".to_owned()));
    }

    #[test]
    fn a_finished_games_suggestion_says_it_is_finished() {
        let game = brandubh_waiting();
        assert_eq!(game_choice(&game, english()), "#3 Brandubh vs Bob · their move");
        let ending = crate::host::Ending { winner: Some(Side::Attackers), reason: EndReason::Resignation };
        let over = GameSummary { ending: Some(ending), ..game };
        assert_eq!(game_choice(&over, english()), "#3 Brandubh vs Bob · finished");
        assert_eq!(game_choice(&over, russian()), "№3 Брандубх, соперник: Bob · окончена");
    }

    #[test]
    fn a_list_of_games_stops_at_what_an_embed_holds_and_counts_the_rest() {
        // 30 games against opponents with 64-character names that Discord markup escapes.
        let games: Vec<GameSummary> = (1..=30)
            .map(|id| GameSummary {
                id,
                variant: "copenhagen".to_owned(),
                opponent: User::new(100 + id, &"*_".repeat(32)),
                ply: 40,
                to_move: Side::Attackers,
                ..brandubh_waiting()
            })
            .collect();
        for (lang, more) in [(english(), "…and {n} more games"), (russian(), "…и ещё {n} партий")] {
            // The 30 listed of 140 (the list holds a hundred; the title and the count say 140).
            let list = game_list(&games, 140, 0, Whose::Reader, lang);
            let lines: Vec<&str> = list.lines().collect();
            assert!((10..30).contains(&lines.len()), "{} lines", lines.len());
            assert!(list.chars().count() <= 4096, "{} characters", list.chars().count());
            assert!(list.starts_with("[#1]") || list.starts_with("[№1]"), "{list}");
            let shown = lines.len() - 1;
            assert_eq!(lines.last().copied(), Some(more.replace("{n}", &(140 - shown).to_string()).as_str()));
            // Counted in characters: Cyrillic takes two bytes each, and once cut the Russian list
            // 900 characters short.
            assert!(list.chars().count() > 3_500, "{} characters", list.chars().count());
            // All of them shown: no counting line.
            let few = game_list(&games[..3], 3, 0, Whose::Reader, lang);
            assert_eq!(few.lines().count(), 3, "{few}");
        }
    }

    #[test]
    fn a_caller_is_answered_in_their_own_words_and_the_bots_answer_as_its_notice() {
        use crate::host::User;
        let game = GameView::sample(7, Variant::Brandubh, User::new(1, "alice"), User::new(2, "bob"));
        let offered = OfferOutcome::Offered { game: game.clone(), by: 1, notify: 2 };
        let answer = offer_answer(&offered, OfferKind::Draw, 1, english());
        assert!(answer.starts_with("You offered a draw in game #7; "), "{answer}");
        assert!(answer.ends_with(" answers on the board."), "{answer}");
        let notice = offer_notice(&offered, OfferKind::Draw, english());
        assert!(notice.ends_with("offers a draw in game #7: accept or decline on the board."), "{notice}");
        let agreed = OfferOutcome::Accepted { game: game.clone(), by: 2, notify: vec![1], plies_taken_back: 2 };
        assert_eq!(
            offer_answer(&agreed, OfferKind::Takeback, 2, english()),
            "You agreed: 2 plies taken back in game #7."
        );
        let withdrawn = OfferOutcome::Declined { game: game.clone(), by: 1, notify: 2, withdrawn: true };
        assert_eq!(
            offer_answer(&withdrawn, OfferKind::Draw, 1, russian()),
            "Вы отозвали предложение ничьей в партии №7."
        );
        assert_eq!(
            offer_answer(&withdrawn, OfferKind::Takeback, 1, english()),
            "You withdrew your takeback request in game #7."
        );
        // Someone else did it (the bot, answering the caller's offer at once): the notice says who.
        let declined = OfferOutcome::Declined { game, by: 2, notify: 1, withdrawn: false };
        let answer = offer_answer(&declined, OfferKind::Draw, 1, english());
        assert_eq!(answer, offer_notice(&declined, OfferKind::Draw, english()));
        assert!(answer.ends_with("declines the draw in game #7."), "{answer}");
    }

    /// A takeback asked by the player to move undoes the opponent's reply too: the request, the
    /// board's line and the asker's answer said "their last move" all the same, and the answerer
    /// agreed to lose their own move without being told.
    #[test]
    fn a_takeback_that_undoes_the_answerers_reply_says_so() {
        use crate::host::User;
        use tafl_rules::Game;
        let mut game = GameView::sample(7, Variant::Brandubh, User::new(1, "alice"), User::new(2, "bob"));
        let history = Game::new(tafl_rules::Position::new(Variant::Brandubh.rules()).unwrap());
        let offers = [OpenOffer { kind: OfferKind::Takeback, by: 1 }];
        // Alice (the attackers) moved; Bob has not replied: her move alone.
        game.ply = 1;
        game.to_move = Side::Defenders;
        let offered = OfferOutcome::Offered { game: game.clone(), by: 1, notify: 2 };
        let notice = offer_notice(&offered, OfferKind::Takeback, english());
        assert!(notice.ends_with("asks to take back their last move in game #7: answer on the board."), "{notice}");
        let board = board_description(&game, &history, &offers, english());
        assert!(board.ends_with("asks to take back their last move"), "{board}");
        // Bob replied: her move and his reply.
        game.ply = 2;
        game.to_move = Side::Attackers;
        let offered = OfferOutcome::Offered { game: game.clone(), by: 1, notify: 2 };
        let notice = offer_notice(&offered, OfferKind::Takeback, english());
        assert!(notice.contains("asks to take back their last move and your reply to it in game #7"), "{notice}");
        let asked = offer_answer(&offered, OfferKind::Takeback, 1, english());
        assert!(asked.starts_with("You asked to take back your last move and "), "{asked}");
        assert!(asked.contains("'s reply to it in game #7;"), "{asked}");
        let board = board_description(&game, &history, &offers, english());
        assert!(board.ends_with("asks to take back their last move and the reply to it"), "{board}");
        let notice = offer_notice(&offered, OfferKind::Takeback, russian());
        assert!(notice.contains("просит вернуть свой ход и ваш ответ на него в партии №7"), "{notice}");
        let asked = offer_answer(&offered, OfferKind::Takeback, 1, russian());
        assert!(asked.starts_with("Вы попросили вернуть свой последний ход и ответ игрока "), "{asked}");
        let board = board_description(&game, &history, &offers, russian());
        assert!(board.ends_with("просит вернуть свой последний ход и ответ на него"), "{board}");
    }

    #[test]
    fn the_variant_list_has_one_line_per_preset_in_both_languages() {
        for lang in [english(), russian()] {
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
            variant_line(Variant::Copenhagen, english()),
            "`copenhagen` — Copenhagen Hnefatafl: 11×11, the king escapes to a corner, king captured on four sides, \
             armed king, shieldwall, exit fort, encirclement"
        );
        assert!(variant_line(Variant::SeaBattle9, russian()).contains("король уходит на край"));
        // A name that gives the size is not followed by it again.
        for lang in [english(), russian()] {
            for variant in Variant::ALL {
                let line = variant_line(variant, lang);
                let size = variant.size();
                let told =
                    line.matches(&format!("{size}×{size}")).count() + line.matches(&format!("{size}x{size}")).count();
                assert_eq!(told, 1, "{line}");
            }
        }
    }

    #[test]
    fn variant_choices_match_ids_and_names_in_any_case() {
        let all = variant_choices("", english());
        assert_eq!(all.len(), Variant::ALL.len());
        let copenhagen = variant_choices("COPEN", english());
        assert_eq!(copenhagen, [("Copenhagen Hnefatafl (11×11)".to_owned(), "copenhagen")]);
        assert_eq!(variant_choices("sea", english()).len(), 4);
        assert!(variant_choices("chess", english()).is_empty());
        // Every label says the size once: "Sea Battle 9×9", not "Sea Battle 9×9 (9×9)".
        for lang in [english(), russian()] {
            for (label, id) in variant_choices("", lang) {
                let size = id.parse::<Variant>().expect("a preset").size();
                let told =
                    label.matches(&format!("{size}×{size}")).count() + label.matches(&format!("{size}x{size}")).count();
                assert_eq!(told, 1, "{label}");
            }
        }
    }

    #[test]
    fn russian_names_of_variants_are_found_too() {
        assert_eq!(
            variant_choices("копен", russian()),
            [("Копенгагенский хнефатафл (11×11)".to_owned(), "copenhagen")]
        );
        assert_eq!(variant_choices("copen", russian()).len(), 1, "the English name still finds it");
    }

    #[test]
    fn too_many_challenges_says_how_each_front_end_withdraws_one() {
        let discord = host_error(&HostError::TooManyChallenges(10), english());
        assert!(discord.contains("withdraw one with the Decline button on its card"), "{discord}");
        let console = host_error(&HostError::TooManyChallenges(10), Lang::console("en"));
        assert!(console.contains("withdraw one with /cancel") && !console.contains("Decline"), "{console}");
        let ru = host_error(&HostError::TooManyChallenges(3), Lang::console("ru"));
        assert!(ru.contains("отзовите один из них командой /cancel") && !ru.contains("Отклонить"), "{ru}");
    }

    #[test]
    fn variants_typed_instead_of_picked_are_understood() {
        let ru = russian();
        assert_eq!(typed_variant(" tablut ", ru), "tablut");
        assert_eq!(typed_variant("Копенгагенский хнефатафл", ru), "copenhagen");
        assert_eq!(typed_variant("копенгагенский  хнефатафл (11×11)", ru), "copenhagen", "a label as shown");
        assert_eq!(typed_variant("Морской бой 11x11", ru), "sea-battle-11", "x for ×");
        // "Хнефатафл" is in three names; it is one of them exactly.
        assert_eq!(typed_variant("Хнефатафл", ru), "hnefatafl");
        assert_eq!(typed_variant("копен", ru), "copenhagen", "the one choice the autocomplete offers");
        assert_eq!(typed_variant("Copenhagen Hnefatafl", ru), "copenhagen", "the English name on a Russian client");
        assert_eq!(typed_variant("Fetlar Hnefatafl (11×11)", english()), "fetlar");
        assert_eq!(typed_variant("sea battle 11X11", english()), "sea-battle-11", "as the README shows it");
        // Several choices, or none: passed on as typed, for the refusal to quote.
        assert_eq!(typed_variant("морской бой", ru), "морской бой");
        assert_eq!(typed_variant(" chess ", english()), "chess");
        assert_eq!(typed_variant("", english()), "");
    }

    /// `/tafl leaderboard variant:` is "the preset or family", and the leaderboard's title names
    /// the family ("Таблица лидеров: Морской бой", "Leaderboard: Historical tafl"); typing that
    /// very name (Discord sends the typed words when no suggestion is picked) must find it.
    #[test]
    fn a_leaderboard_family_typed_as_its_title_names_it_is_found() {
        use crate::host::rating_family;
        let (ru, en) = (Lang::console("ru"), Lang::console("en"));
        for (typed, lang, family) in [
            ("Морской бой", ru, "sea-battle"),
            ("Исторический тафл", ru, "historical"),
            ("Sea Battle", en, "sea-battle"),
            ("Historical tafl", en, "historical"),
            // In any language the bot speaks, in any case, and by the family's id.
            ("sea battle", ru, "sea-battle"),
            ("  ИСТОРИЧЕСКИЙ   ТАФЛ ", english(), "historical"),
            ("Tablut · Brandubh · Hnefatafl", ru, "seed-001"),
            ("Копенгагенский хнефатафл", en, "copenhagen"),
            ("sea-battle", en, "sea-battle"),
            ("Seed-001", ru, "seed-001"),
            // A preset still names its family.
            ("Морской бой 11x11", ru, "sea-battle"),
            ("brandubh", en, "seed-001"),
        ] {
            assert_eq!(rating_family(&typed_family(typed, lang)), Some(family), "{typed}");
        }
        assert_eq!(typed_family("Морской бой", ru), "sea-battle");
        assert_eq!(typed_family("Морской бой 11x11", ru), "sea-battle-11", "a preset stays a preset");
        assert_eq!(typed_family(" chess ", en), "chess", "passed on as typed, for the refusal to quote");
    }

    #[test]
    fn russian_locales_get_russian_and_every_other_locale_english() {
        assert_eq!(Lang::discord(Some("ru")).code(), "ru");
        assert_eq!(Lang::discord(Some("en-US")).code(), "en");
        assert_eq!(Lang::discord(Some("de")).code(), "en");
        assert_eq!(Lang::discord(None).code(), "en");
    }

    #[test]
    fn refusals_name_discord_commands_in_the_readers_language() {
        let stale = HostError::StaleBoard { id: 3, ply: 5, expected: 4 };
        assert!(host_error(&stale, english()).starts_with("The board has changed"));
        assert!(host_error(&stale, russian()).starts_with("Доска уже изменилась"));
        assert_eq!(
            host_error(&HostError::NotAPlayer(3), english()),
            "Game #3 is not yours: only its two players can do that."
        );
        assert_eq!(
            host_error(&HostError::NoSuchGame(9), english()),
            "There is no game #9; see your games with /tafl games."
        );
        assert_eq!(
            host_error(&HostError::NoSuchGame(9), russian()),
            "Партии №9 нет; ваши партии покажет /тафл партии."
        );
        assert_eq!(
            host_error(&HostError::NoSuchGame(9), Lang::console("ru")),
            "Партии №9 нет; ваши партии покажет /games."
        );
        assert!(
            host_error(&HostError::OwnChallenge { id: 2 }, english()).ends_with("withdraw it with the Decline button.")
        );
        let swept = HostError::ChallengeClosed { id: 2, state: ChallengeState::Expired };
        assert_eq!(host_error(&swept, russian()), host_error(&HostError::ChallengeExpired { id: 2 }, russian()));
        let taken = HostError::ChallengeClosed { id: 2, state: ChallengeState::Accepted };
        assert!(host_error(&taken, english()).starts_with("Challenge #2 can no longer be answered"));
        // The engine's refusals are typed, so they read in Russian too, square in lower case.
        let blocked = tafl_rules::IllegalMove::Blocked {
            mv: tafl_rules::Move::new("d1".parse().unwrap(), "d7".parse().unwrap()),
            blocker: "d4".parse().unwrap(),
        };
        let said = host_error(&HostError::IllegalMove(blocked), russian());
        assert!(said.starts_with("d1-d7: путь закрывает фигура на d4."), "{said}");
        assert!(said.contains("/тафл доска"), "{said}");
        let clock = host_error(&HostError::BadClock(ClockError::Unreadable { input: "abc".into() }), russian());
        assert!(clock.starts_with("«abc» — непонятная запись часов"), "{clock}");
        let variant = host_error(
            &HostError::BadSetup(RulesError::UnknownVariant { input: "chess".into(), known: String::new() }),
            russian(),
        );
        assert!(variant.starts_with("«chess» — не вариант; варианты: sea-battle-9"), "{variant}");
    }

    /// A record that cannot be read says why, not only where: `/import` of a record with
    /// berserk rules said "cannot be read at line 2" and nothing more. The reason is the rules
    /// crate's English, which the Russian text says it quotes; each is one sentence.
    #[test]
    fn a_text_that_is_no_move_says_why_in_the_readers_language() {
        let inputs =
            ["e1-e3".repeat(30), String::new(), "hello".into(), "e1-".into(), "e1-e3xq".into(), "e1-e3 !".into()];
        let mut russian_reasons = std::collections::HashSet::new();
        for input in inputs {
            let error = input.parse::<tafl_rules::MoveText>().expect_err("not a move");
            let ParseError::Move { input: quoted, .. } = &error else { panic!("{error:?}") };
            // English as the rules crate says it, as one sentence.
            assert_eq!(parse_error(&error, Lang::console("en")), format!("{error}."));
            let said = parse_error(&error, russian());
            let reason = said
                .strip_prefix(&format!("«{quoted}» — не ход: "))
                .and_then(|rest| rest.strip_suffix("; ходы пишут так: e1-e3."))
                .unwrap_or_else(|| panic!("{said}"));
            assert!(!reason.is_empty() && !reason.chars().any(|c| c.is_ascii_alphabetic()), "{said}");
            russian_reasons.insert(reason.to_owned());
        }
        assert_eq!(russian_reasons.len(), 6, "each fault its own words: {russian_reasons:?}");
        let plain = "e1-e3xe2".parse::<tafl_rules::Move>().expect_err("a plain move");
        assert!(parse_error(&plain, russian()).contains("пометки о захвате"));
        // Squares in Cyrillic that look like no Latin letter (`д5-б5`): the alphabet is the fault.
        for input in ["д5-б5", "d5-б5", "d5-b5xд4"] {
            let error = input.parse::<tafl_rules::MoveText>().expect_err("not a move");
            assert_eq!(
                parse_error(&error, russian()),
                format!("«{input}» — не ход: клетки пишут латинскими буквами; ходы пишут так: e1-e3.")
            );
            assert_eq!(
                parse_error(&error, Lang::console("en")),
                format!("\"{input}\" is not a move: squares are written with Latin letters; write moves like e1-e3.")
            );
        }
    }

    #[test]
    fn an_unreadable_record_says_why_in_one_sentence() {
        let ber = "[result:1]\n[rules:dim:7 ber:c start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n1. d2-b2\n";
        let error = tafl_rules::otn::GameRecord::parse(ber).expect_err("berserk rules are refused");
        let fault = HostError::BadRecord(RecordFault::Unreadable(error));
        let console = Lang::console("en");
        assert_eq!(
            host_error(&fault, console),
            "The OTN game record cannot be read at line 2: the OTN rules string is invalid: ber:c asks for jumping \
             or berserk moves, which this bot does not play."
        );
        assert_eq!(
            host_error(&fault, Lang::console("ru")),
            "Запись партии в OTN не читается в строке 2 (причина на английском: the OTN rules string is invalid: \
             ber:c asks for jumping or berserk moves, which this bot does not play)."
        );
        // A malformed move, a start that does not fit the board, and a bad rules string.
        let bad_move = format!("{}1. zz9-a1\n", &ber.replace("ber:c ", ""));
        let error = tafl_rules::otn::GameRecord::parse(&bad_move).expect_err("not a move");
        let said = parse_error(&error, console);
        assert!(said.starts_with("The OTN game record cannot be read at line 4: \"zz9-a1\" is not a move"), "{said}");
        let nine = ber.replace("dim:7 ber:c", "dim:9");
        let said = parse_error(&tafl_rules::otn::GameRecord::parse(&nine).expect_err("7x7 on 9"), console);
        assert!(said.ends_with("dim:9 does not match the 7x7 starting position."), "{said}");
        let said = parse_error(&tafl_rules::otn::parse_rules("dim:7").expect_err("no start"), console);
        assert_eq!(said, "The OTN rules string cannot be read: start: (the starting position) is missing.");
        let said = parse_error(&"/3t3/".parse::<tafl_rules::Setup>().expect_err("one row"), russian());
        assert!(said.starts_with("«/3t3/» — не позиция в OTN (причина на английском: it has 1 row"), "{said}");
        assert!(said.ends_with(")."), "{said}");
        // The reason quotes the input: in Discord its markdown shows as typed.
        let said = parse_error(&tafl_rules::otn::parse_rules("dim:7 **x**:y").expect_err("no such key"), english());
        assert!(said.contains("\"\\*\\*x\\*\\*\" is not a rules key"), "{said}");
    }

    /// A record's move that cannot be played was two sentences ("Ply 2 of the record cannot be
    /// played. d2-b2: there is no piece on d2."); it is one, in both languages.
    #[test]
    fn an_unplayable_ply_of_a_record_is_one_sentence() {
        let mv = tafl_rules::Move::new("d2".parse().unwrap(), "b2".parse().unwrap());
        let no_piece = RecordFault::Move { ply: 2, source: IllegalMove::NoPiece { mv } };
        assert_eq!(
            record_fault(&no_piece, english()),
            "Ply 2 of the record cannot be played (d2-b2: there is no piece on d2)."
        );
        assert_eq!(
            record_fault(&no_piece, russian()),
            "Полуход 2 записи сыграть нельзя (d2-b2: на клетке d2 нет фигуры)."
        );
        let off =
            RecordFault::Move { ply: 3, source: IllegalMove::OffBoard { square: "h8".parse().unwrap(), size: 7 } };
        assert_eq!(
            record_fault(&off, english()),
            "Ply 3 of the record cannot be played (h8 is off the board: this one is 7×7)."
        );
        assert_eq!(
            record_fault(&off, russian()),
            "Полуход 3 записи сыграть нельзя (клетки h8 нет на доске: эта доска 7×7)."
        );
        let over = RecordFault::Move { ply: 9, source: IllegalMove::GameOver };
        assert_eq!(record_fault(&over, english()), "Ply 9 of the record comes after the end of the game.");
        assert_eq!(record_fault(&over, russian()), "Полуход 9 записи сделан уже после конца партии.");
        let rules = RecordFault::Rules("the position has no attackers".to_owned());
        assert_eq!(
            record_fault(&rules, english()),
            "The record's rules cannot be played: the position has no attackers."
        );
    }

    #[test]
    fn refusals_name_options_as_each_front_end_spells_them() {
        let console_ru = Lang::console("ru");
        let console_en = Lang::console("en");
        // A Russian Discord client shows the options by their Russian names; the console types
        // them in English whatever its language.
        let hint = host_error(&HostError::HintInRatedGame, russian());
        assert!(hint.ends_with("начните партию с ботом, указав рейтинговая:false."), "{hint}");
        assert!(!hint.contains("rated"), "{hint}");
        assert!(host_error(&HostError::HintInRatedGame, english()).contains(" with rated:false "));
        assert!(host_error(&HostError::HintInRatedGame, console_ru).contains(", указав rated:false."));
        let takeback = host_error(&HostError::BotRefusesTakeback { id: 1 }, russian());
        assert!(takeback.ends_with("начните партию, указав рейтинговая:false."), "{takeback}");
        assert!(host_error(&HostError::BotRefusesTakeback { id: 1 }, console_en).contains(" with rated:false."));
        let unrated = host_error(&HostError::UnratedWithPerson, russian());
        assert!(unrated.contains("уберите рейтинговая:false или укажите уровень, например уровень:1,"), "{unrated}");
        let unrated = host_error(&HostError::UnratedWithPerson, console_ru);
        assert!(unrated.contains("уберите rated:false или укажите уровень, например level:1,"), "{unrated}");
        let unrated = host_error(&HostError::UnratedWithPerson, english());
        assert!(unrated.contains("leave rated:false out, or add a level, like level:1, to play"), "{unrated}");

        // Withdrawing: Discord's draw command with its action chosen, the console's `/draw decline`.
        let own = HostError::OwnOffer { id: 4, kind: OfferKind::Draw };
        let said = host_error(&own, russian());
        assert!(said.ends_with(" ничья действие:отклонить."), "{said}");
        assert!(
            said.contains("отзовите предложение командой </tafl") || said.contains("командой /тафл ничья"),
            "{said}"
        );
        assert!(host_error(&own, console_ru).ends_with("отзовите предложение командой /draw decline."));
        let own = HostError::OwnOffer { id: 4, kind: OfferKind::Takeback };
        assert!(host_error(&own, english()).ends_with(" action:decline."), "{}", host_error(&own, english()));
        assert!(host_error(&own, console_en).ends_with("withdraw it with /takeback decline."));
        // A challenge: Discord's card has a button for it, the console a command.
        let own = HostError::OwnChallenge { id: 2 };
        assert!(host_error(&own, russian()).ends_with("отзовите вызов кнопкой «Отклонить»."));
        assert!(host_error(&own, console_en).ends_with("withdraw it with /cancel 2."));

        // Which game: the option as the Russian client shows it.
        let several = which_game(&[3, 7], russian());
        assert!(several.ends_with("укажите нужную в параметре «партия»."), "{several}");
        assert!(which_game(&[], english()).contains("name one with the game option"));
    }

    #[test]
    fn notation_reads_with_spaces_around_captures() {
        assert_eq!(notation_with_spaces("e1-e3"), "e1-e3");
        assert_eq!(notation_with_spaces("e1-e3xe2"), "e1-e3 x e2");
        assert_eq!(notation_with_spaces("e1-e3xe2xd3"), "e1-e3 x e2 x d3");
    }

    #[test]
    fn saved_time_reads_in_its_two_largest_units() {
        let day_and_more = 86_400 + 22 * 3600 + 13 * 60 + 27;
        assert_eq!(saved_time_words(day_and_more, english()), "1 day 22 hours");
        assert_eq!(saved_time_words(3 * 3600 + 5 * 60 + 59, english()), "3 hours 5 minutes");
        assert_eq!(saved_time_words(86_400 + 13 * 60, russian()), "1 день");
        assert_eq!(saved_time_words(59, english()), "0 minutes");
        assert_eq!(saved_time_words(-5, english()), "0 minutes");
    }

    #[test]
    fn clocks_in_words() {
        assert_eq!(duration_words(3 * 86_400, english()), "3 days");
        assert_eq!(duration_words(86_400, english()), "1 day");
        assert_eq!(duration_words(36 * 3600, english()), "1 day 12 hours");
        assert_eq!(duration_words(90 * 60, english()), "1 hour 30 minutes");
        // Every unit of a mixed clock, not a number nobody typed ("180 hours", "1501 minutes").
        assert_eq!(duration_words(7 * 86_400 + 12 * 3600, english()), "7 days 12 hours");
        assert_eq!(duration_words(86_400 + 3600 + 61, english()), "1 day 1 hour 1 minute 1 second");
        assert_eq!(duration_words(2 * 86_400 + 5 * 3600, russian()), "2 дня 5 часов");
        assert_eq!(duration_words(0, english()), "0 minutes");
        assert_eq!(duration_words(3 * 86_400, russian()), "3 дня");
        assert_eq!(duration_words(86_400, russian()), "1 день");
        assert_eq!(duration_words(5 * 3600, russian()), "5 часов");
        assert_eq!(duration_words(21 * 60, russian()), "21 минута");
        // Seconds, as a clock may be typed (`1s` is refused as too short: not "1 minute").
        assert_eq!(duration_words(1, english()), "1 second");
        assert_eq!(duration_words(30, russian()), "30 секунд");
        assert_eq!(duration_words(90, english()), "1 minute 30 seconds");
        assert_eq!(duration_words(62, russian()), "1 минута 2 секунды");
    }

    #[test]
    fn every_preset_has_rules_that_differ_where_the_rules_differ() {
        for lang in [english(), russian()] {
            for variant in Variant::ALL {
                let text = rules_description(variant, lang);
                assert!(text.chars().count() < 4096, "fits an embed: {}", variant.id());
                assert!(text.lines().all(|l| !l.contains('{')), "{text}");
            }
        }
        let copenhagen = rules_explanation(&Variant::Copenhagen.rules(), english()).join("\n");
        assert!(copenhagen.contains("reaches a corner square"), "{copenhagen}");
        assert!(copenhagen.contains("encirclement"), "{copenhagen}");
        assert!(copenhagen.contains("Shieldwall"), "{copenhagen}");
        assert!(copenhagen.contains("Exit fort"), "{copenhagen}");
        let sea = rules_explanation(&Variant::SeaBattle9.rules(), english()).join("\n");
        assert!(sea.contains("any edge square") && sea.contains("Throne.** None"), "{sea}");
        assert!(sea.matches("throne").count() == 0, "no throne, so the king is not captured against it: {sea}");
        // Every line is a sentence: after its bold heading, a capital letter.
        for lang in [english(), russian()] {
            for variant in Variant::ALL {
                for line in rules_explanation(&variant.rules(), lang) {
                    let after = line.split("** ").nth(1).and_then(|rest| rest.chars().next());
                    assert!(after.is_some_and(char::is_uppercase), "{}: {line}", variant.id());
                }
            }
        }
        assert!(!sea.contains("Exit fort"), "{sea}");
        // A board without corner squares names none, in the king's capture either.
        for lang in [english(), russian()] {
            for variant in Variant::ALL.into_iter().filter(|v| !v.rules().has_corners()) {
                let text = rules_explanation(&variant.rules(), lang).join("\n");
                assert!(!text.contains("corner") && !text.contains("углов"), "{}: {text}", variant.id());
            }
        }
        let tablut = rules_explanation(&Variant::Tablut.rules(), russian()).join("\n");
        assert!(tablut.contains("Трон"), "{tablut}");
        // Two presets with different rules never read the same.
        for a in Variant::ALL {
            for b in Variant::ALL {
                if a.rules() != b.rules() && a.rules().size() == b.rules().size() {
                    let (x, y) = (rules_explanation(&a.rules(), english()), rules_explanation(&b.rules(), english()));
                    let (sx, sy) = (rule_summary(&a.rules(), english()), rule_summary(&b.rules(), english()));
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
