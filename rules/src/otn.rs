//! `OpenTafl` notation (OTN): rules strings and game records.
//!
//! A rules string is a space-separated list of `key:value` entries, `dim:` first and `start:` last
//! (`dim:11 esc:c ka:y ks:s sw:s efe:y tfr:a start:/…/`). This module reads the keys of the OTN
//! specification that describe rule sets this engine can play, and refuses the others by name
//! rather than playing a different game than the writer meant. The king's strength is read as
//! `OpenTafl`'s own program reads it, beyond the specification's yes or no: `ks:s` (or `y`)
//! strong, `ks:c` (captured by two, except on or next to the throne: our `strong_near_throne`),
//! `ks:m` (middleweight) and `ks:w` (or `n`: weak, captured by two anywhere, as in its
//! Brandubh). `tfr:a` goes beyond both (the third occurrence of a position makes the defenders
//! lose, whoever moved). `tfr:w` and `tfr:l` are read as `OpenTafl` plays them: the player whose
//! move makes the third occurrence wins or loses (its Copenhagen is `tfr:w`; no preset here is).
//! Every preset exports to a string that imports back to the same rules.
//!
//! A game record is `[tag:value]` lines, the rules tag last, then numbered turns:
//! `1. d1-d3 h6-h9xh5`, each perhaps followed by commentary in brackets (`[first|second]`). Tag
//! values are written so that `OpenTafl` reads them too: the characters that would end a tag or
//! start its moves early are written as `%5D`, `%2E` and the like (see `escape`).

use std::borrow::Cow;
use std::fmt::Write as _;

use crate::error::ParseError;
use crate::rules::{Escape, Hostility, KingCapture, Repetition, Rules, Shieldwall, Throne, ThronePass};
use crate::square::shorten;
use crate::{Game, IllegalMove, MoveText, Position, Setup, Side, Status};

/// Writes the OTN rules string of `rules`.
#[must_use]
pub fn rules_string(rules: &Rules) -> String {
    write_rules(rules, &rules.start, Side::Attackers)
}

/// The rules string of `rules` with `start` as its `start:` and `atkf:n` when the defenders
/// move first: what a record writes for a game from another start, since `OpenTafl` reads a
/// record's start and first side from its rules string alone.
fn write_rules(rules: &Rules, start: &Setup, first: Side) -> String {
    let mut s = format!("dim:{}", rules.size());
    if first == Side::Defenders {
        // Beside `dim:`, where the specification's own examples write it.
        s.push_str(" atkf:n");
    }
    let yn = |b: bool| if b { 'y' } else { 'n' };
    let _ = write!(s, " esc:{}", if rules.escape == Escape::Corner { 'c' } else { 'e' });
    if rules.escape == Escape::Edge {
        s.push_str(" cor:");
    }
    let _ = write!(s, " surf:{}", yn(rules.encirclement));
    let _ = write!(s, " ka:{}", yn(rules.king_armed));
    let ks = match rules.king_capture {
        KingCapture::Strong => 's',
        KingCapture::StrongNearThrone => 'c',
        KingCapture::Middleweight => 'm',
        KingCapture::Weak => 'w',
    };
    let _ = write!(s, " ks:{ks}");
    match rules.throne {
        None => s.push_str(" cen:"),
        Some(throne) => {
            let pieces = |attackers: bool, defenders: bool| {
                let mut p = String::new();
                if attackers {
                    p.push('t');
                }
                if defenders {
                    p.push('T');
                }
                p
            };
            let h = throne.hostility;
            let _ = write!(
                s,
                " cens:K cenp:{} cenhe:{} cenh:{}",
                match throne.pass {
                    ThronePass::KingOnly => "K",
                    ThronePass::Everyone => "tTK",
                },
                pieces(h.empty_to_attackers, h.empty_to_defenders),
                pieces(h.occupied_to_attackers, h.occupied_to_defenders),
            );
        }
    }
    let sw = match rules.shieldwall {
        Shieldwall::Off => 'n',
        Shieldwall::On { corners_may_close: false } => 'w',
        Shieldwall::On { corners_may_close: true } => 's',
    };
    let _ = write!(s, " sw:{sw} efe:{}", yn(rules.exit_fort));
    let tfr = match rules.repetition {
        Repetition::Draw => 'd',
        Repetition::MoverLoses => 'l',
        Repetition::MoverWins => 'w',
        Repetition::DefendersLose => 'a',
        Repetition::Ignore => 'i',
    };
    let _ = write!(s, " tfr:{tfr} start:{start}");
    s
}

/// Longest rules string read; a real one is a few hundred bytes.
const MAX_RULES_LEN: usize = 4096;

/// Reads an OTN rules string. Keys may come in any order; `dim:` and `start:` are required.
///
/// `atkf:n` (the defenders move first) is refused: a stored game starts from the rules' own
/// start with the attackers to move unless it names another side, so it would be played with
/// the wrong side first. [`parse_rules_and_first_side`] reads it, and so does
/// [`GameRecord::parse`], which keeps the side as the record's start.
pub fn parse_rules(input: &str) -> Result<Rules, ParseError> {
    let (rules, first) = parse_rules_and_first_side(input)?;
    if first == Side::Defenders {
        return Err(ParseError::Rules {
            reason: "atkf:n asks for the defenders moving first, which this bot does not play".into(),
        });
    }
    Ok(rules)
}

/// Reads an OTN rules string and the side that moves first (`atkf:`, the attackers unless
/// `atkf:n`), for a reader that keeps the side to move itself, as `OpenTafl`'s engine protocol
/// does: its own Fetlar and Copenhagen strings carry `atkf:n`, and `play` names the side.
pub fn parse_rules_and_first_side(input: &str) -> Result<(Rules, Side), ParseError> {
    let err = |reason: String| ParseError::Rules { reason };
    if input.len() > MAX_RULES_LEN {
        return Err(err("it is far longer than any rules string".into()));
    }
    let mut dim: Option<u8> = None;
    let mut start: Option<Setup> = None;
    let mut escape = Escape::Corner;
    // Read once `dim:` is known, wherever it stands.
    let mut corners: Option<&str> = None;
    let mut encirclement = true;
    let mut king_armed = true;
    let mut king_capture = KingCapture::Strong;
    let mut throne_present = true;
    // The throne's piece-type lists, with OTN's defaults: who may stop, pass, and to whom it is
    // hostile when empty and when occupied.
    let mut stop_list = "K";
    let mut pass_list = "tcnkTCNK";
    let mut hostile_empty_list = "tcnkTCNK";
    let mut hostile_occupied_list = "tcnk";
    let mut shieldwall = Shieldwall::Off;
    let mut exit_fort = false;
    let mut repetition = Repetition::Draw;
    let mut first = Side::Attackers;
    let mut keys: Vec<&str> = Vec::new();

    for entry in input.split_whitespace() {
        let (key, value) = entry.split_once(':').unwrap_or((entry, ""));
        // A key given twice has no one reading: `cen:` would say from its last copy whether
        // there is a throne, and from its first where.
        if keys.contains(&key) {
            return Err(err(format!("{}: is given twice; give each key once", shorten(key))));
        }
        keys.push(key);
        let bad = |what: &str| err(format!("{key}:{} is not {what}", shorten(value)));
        let yes_no = || match value {
            "y" => Ok(true),
            "n" => Ok(false),
            _ => Err(bad("y or n")),
        };
        let unsupported =
            |what: &str| err(format!("{key}:{} asks for {what}, which this bot does not play", shorten(value)));
        match key {
            "dim" => {
                let n: u8 = value.parse().map_err(|_| bad("a board size"))?;
                dim = Some(n);
            }
            "start" => start = Some(value.parse::<Setup>().map_err(|e| err(e.to_string()))?),
            "esc" => {
                escape = match value {
                    "c" => Escape::Corner,
                    "e" => Escape::Edge,
                    _ => return Err(bad("c or e")),
                }
            }
            "cor" => corners = Some(value),
            "surf" => encirclement = yes_no()?,
            "atkf" => first = if yes_no()? { Side::Attackers } else { Side::Defenders },
            "ka" => {
                king_armed = match value {
                    "y" => true,
                    "n" => false,
                    "h" | "a" => {
                        return Err(unsupported("a king who captures only as the moving or the waiting piece"));
                    }
                    _ => return Err(bad("y, n, h or a")),
                }
            }
            "ks" => {
                king_capture = match value {
                    "y" | "s" => KingCapture::Strong,
                    "c" => KingCapture::StrongNearThrone,
                    "m" => KingCapture::Middleweight,
                    "w" | "n" => KingCapture::Weak,
                    _ => return Err(bad("s, c, m or w")),
                }
            }
            "kj" | "ber" => {
                if value != "n" {
                    return Err(unsupported("jumping or berserk moves"));
                }
            }
            "cen" => throne_present = !value.is_empty(),
            "cens" => stop_list = value,
            "cenp" => pass_list = value,
            "cenhe" => hostile_empty_list = value,
            "cenh" => hostile_occupied_list = value,
            "corh" | "cors" | "corp" => {
                let expected = if key == "corh" { "tcnkTCNK" } else { "K" };
                if normalise(value) != normalise(expected) {
                    return Err(unsupported("corners that behave differently from the usual ones"));
                }
            }
            "afor" | "dfor" => {
                if !value.is_empty() {
                    return Err(unsupported("fortress squares"));
                }
            }
            // Every piece here moves any distance, and the king may come back to the throne and
            // the corners (the only pieces that may stop there).
            "spd" => {
                if value != "-1" {
                    return Err(unsupported("pieces with a limited move length"));
                }
            }
            "cenre" | "corre" => {
                if !normalise(value).contains('K') {
                    return Err(unsupported("a king who may not come back to a special square"));
                }
            }
            // Knights and commanders do not exist here, so their jump modes say nothing, and
            // without fortress squares neither do the fortresses' lists; `name` is a label.
            "nj" | "cj" | "aforh" | "dforh" | "aforp" | "dforp" | "afors" | "dfors" | "aforre" | "dforre" | "name" => {}
            "sw" => {
                shieldwall = match value {
                    "n" => Shieldwall::Off,
                    "w" => Shieldwall::On { corners_may_close: false },
                    "s" => Shieldwall::On { corners_may_close: true },
                    _ => return Err(bad("n, w or s")),
                }
            }
            "swf" => {
                if !yes_no()? {
                    return Err(unsupported("shieldwalls captured without a flanking move"));
                }
            }
            "efe" => exit_fort = yes_no()?,
            "tfr" => {
                repetition = match value {
                    "d" => Repetition::Draw,
                    "l" => Repetition::MoverLoses,
                    "a" => Repetition::DefendersLose,
                    "i" => Repetition::Ignore,
                    "w" => Repetition::MoverWins,
                    _ => return Err(bad("d, l, a, i or w")),
                }
            }
            _ => return Err(err(format!("\"{}\" is not a rules key this bot knows", shorten(key)))),
        }
    }

    let dim = dim.ok_or_else(|| err("dim: (the board size) is missing".into()))?;
    let start = start.ok_or_else(|| err("start: (the starting position) is missing".into()))?;
    if start.size() != dim {
        return Err(err(format!("dim:{dim} does not match the {0}x{0} starting position", start.size())));
    }
    let corners_default = corners.is_none_or(|value| value == "default" || is_default_corner_list(value, dim));
    let corners_none = corners.is_some_and(|value| value.split(',').all(str::is_empty));
    if escape == Escape::Edge && corners_default {
        // OTN's default keeps the corner squares; this bot's edge escape has none.
        return Err(err("edge escape with corner squares is not supported; write cor: to remove them".into()));
    }
    if escape == Escape::Edge && !corners_none {
        // Any other list names squares only the king may stop on: dropped, the game played would
        // be another than the writer's.
        return Err(err(format!(
            "cor:{} names special squares, which edge escape does not have here; write cor: to remove them",
            shorten(corners.unwrap_or_default())
        )));
    }
    if escape == Escape::Corner && !corners_default {
        return Err(err("corner escape needs the four corner squares".into()));
    }
    let centre = (b'a' + dim / 2) as char;
    let centre = format!("{centre}{}", dim / 2 + 1);
    if let Some(cen) = input.split_whitespace().find_map(|e| e.strip_prefix("cen:"))
        && !cen.is_empty()
        && cen != "default"
        && !cen.trim_end_matches(',').eq_ignore_ascii_case(&centre)
    {
        return Err(err(format!("cen:{} is not supported; the throne is the centre square {centre}", shorten(cen))));
    }
    let throne = if throne_present {
        // OpenTafl's own Tablut gives `cens:` empty: nobody stops on the throne, the king once
        // he has left it included. Here the king always may, so that is what is unsupported.
        if !normalise(stop_list).contains('K') {
            return Err(err(format!(
                "cens:{} asks for a king who may not stop on the throne, nor come back to it, which this bot does not play",
                shorten(stop_list)
            )));
        }
        if normalise(stop_list) != "K" {
            return Err(err(format!("cens:{} lets pieces other than the king stop on the throne", shorten(stop_list))));
        }
        // OpenTafl counts an empty throne against a king taken on every side only when it is
        // hostile to the defenders (`T` in `cenhe`); here such a king always has it against him.
        if king_capture != KingCapture::Weak && !normalise(hostile_empty_list).contains('T') {
            return Err(err(format!(
                "cenhe:{} keeps the empty throne from helping to capture the king, which this bot does not play",
                shorten(hostile_empty_list)
            )));
        }
        let pass = match normalise(pass_list).as_str() {
            "K" => ThronePass::KingOnly,
            "KTt" => ThronePass::Everyone,
            other => return Err(err(format!("cenp:{} is not supported; use K or tTK", shorten(other)))),
        };
        Some(Throne {
            pass,
            hostility: Hostility {
                empty_to_attackers: hostile_empty_list.contains('t'),
                empty_to_defenders: hostile_empty_list.contains('T'),
                occupied_to_attackers: hostile_occupied_list.contains('t'),
                occupied_to_defenders: hostile_occupied_list.contains('T'),
            },
        })
    } else {
        None
    };
    let rules =
        Rules { start, escape, throne, king_armed, king_capture, shieldwall, exit_fort, encirclement, repetition };
    rules.validate().map_err(|e| err(e.to_string()))?;
    Ok((rules, first))
}

/// The piece letters of a piece-type list that matter here (t, T, K), sorted, so that `tcnkTCNK`
/// and `tTK` compare equal.
fn normalise(list: &str) -> String {
    let mut kept: Vec<char> = list.chars().filter(|c| matches!(c, 't' | 'T' | 'K')).collect();
    kept.sort_unstable();
    kept.dedup();
    kept.into_iter().collect()
}

/// Whether `cor:` lists exactly the four physical corners of a board of `n` files.
fn is_default_corner_list(value: &str, n: u8) -> bool {
    let Some(last) = n.checked_sub(1).filter(|&last| last < 26).map(|last| (b'a' + last) as char) else {
        return false;
    };
    let mut listed: Vec<String> = value.split(',').filter(|s| !s.is_empty()).map(str::to_ascii_lowercase).collect();
    listed.sort();
    let mut corners = vec!["a1".to_owned(), format!("a{n}"), format!("{last}1"), format!("{last}{n}")];
    corners.sort();
    listed == corners
}

/// How a recorded game stopped when it did not end on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordEnd {
    /// `---`: the side to move resigned.
    Resigned,
    /// `timeout`: the side to move ran out of time.
    Timeout,
}

/// An OTN game record: tags, rules, an optional start position, and the moves.
///
/// Written, a game from a start other than the rules' own (a custom position, or the defenders
/// first) carries it twice: in the rules string's `start:` (with `atkf:n` when the defenders move
/// first), the only place `OpenTafl` reads it, and in `[position:…]` and `[to-move:…]` tags. The
/// rule set's own start then goes into a `[rules-start:…]` tag, so that the rules read back are
/// the ones the game was played under, a preset's included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Tags in order, without those that describe the rules and the start (`rules`,
    /// `position`, `to-move`, `rules-start`).
    pub tags: Vec<(String, String)>,
    pub rules: Rules,
    /// A start other than the rules' own (a custom position, or the defenders first), with the
    /// side to move.
    pub start: Option<(Setup, Side)>,
    pub moves: Vec<MoveText>,
    pub end: Option<RecordEnd>,
}

/// Longest record read: thousands of moves fit comfortably.
const MAX_RECORD_LEN: usize = 1 << 20;

/// The tags that [`GameRecord`] reads into its rules and start rather than into its tags.
const START_TAGS: [&str; 4] = ["rules", "position", "to-move", "rules-start"];

impl GameRecord {
    /// The record of a game, with the given tags (e.g. players, date, result).
    #[must_use]
    pub fn from_game(game: &Game, tags: Vec<(String, String)>) -> GameRecord {
        let start = game.start();
        let custom = start.setup() != start.rules().start || start.to_move() != Side::Attackers;
        GameRecord {
            tags,
            rules: start.rules().clone(),
            start: custom.then(|| (start.setup(), start.to_move())),
            moves: game.moves().iter().map(crate::PlayedMove::text).collect(),
            end: None,
        }
    }

    /// Reads a record. Accepts the rules as a `[rules:…]` tag or as a bare line, as the OTN
    /// specification writes it. Tags come before the moves, several to a line if need be (as
    /// `OpenTafl` reads them); after the first move, text in brackets is commentary
    /// (`[first|second]`, which `OpenTafl` writes after every turn) and is skipped. A tag given
    /// twice with different values is refused.
    pub fn parse(input: &str) -> Result<GameRecord, ParseError> {
        if input.len() > MAX_RECORD_LEN {
            return Err(ParseError::Record { line: 1, reason: "it is longer than any game".into() });
        }
        // A byte-order mark, as some editors on Windows save text.
        let input = input.strip_prefix('\u{feff}').unwrap_or(input);
        let mut header = Header::default();
        let mut moves = Vec::new();
        let mut end = None;
        let mut in_moves = false;
        // The line where a commentary opened that has not closed yet: commentary may span lines.
        let mut open_comment: Option<usize> = None;
        for (n, raw) in input.lines().enumerate() {
            let line_no = n + 1;
            let err = |reason: String| ParseError::Record { line: line_no, reason };
            let mut line = raw.trim();
            if open_comment.is_some() {
                let Some(close) = line.find(']') else { continue };
                open_comment = None;
                line = line[close + 1..].trim();
            }
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if !in_moves {
                if line.starts_with('[') {
                    for (key, value) in tags_of_line(line).map_err(err)? {
                        header.add(&unescape(unpadded(key)), &unescape(unpadded(value)), line_no)?;
                    }
                    continue;
                }
                if line.starts_with("dim:") {
                    header.add("rules", line, line_no)?;
                    continue;
                }
                if line.starts_with('/') && header.rules.is_some() {
                    header.add("position", line, line_no)?;
                    continue;
                }
                in_moves = true;
            }
            // Moves and end markers, with commentary in brackets between them.
            let mut rest = line;
            loop {
                let (text, comment) = match rest.split_once('[') {
                    Some((text, comment)) => (text, Some(comment)),
                    None => (rest, None),
                };
                for token in text.split_whitespace() {
                    if end.is_some() {
                        return Err(err(format!("\"{}\" comes after the end of the game", shorten(token))));
                    }
                    if token.ends_with('.') && token[..token.len() - 1].bytes().all(|b| b.is_ascii_digit()) {
                        continue; // a turn number
                    }
                    match token {
                        "---" => end = Some(RecordEnd::Resigned),
                        "timeout" => end = Some(RecordEnd::Timeout),
                        _ => moves.push(parse_record_move(token).map_err(|e| err(e.to_string()))?),
                    }
                }
                let Some(comment) = comment else { break };
                let Some((_, after)) = comment.split_once(']') else {
                    open_comment = Some(line_no);
                    break;
                };
                rest = after;
            }
        }
        if let Some(line) = open_comment {
            // Everything after it would be skipped as commentary, moves included.
            return Err(ParseError::Record {
                line,
                reason: "a comment opened with '[' is never closed with ']'".into(),
            });
        }
        let (rules, start) = header.rules_and_start()?;
        Ok(GameRecord { tags: header.tags, rules, start, moves, end })
    }

    /// Replays the record, checking every move and every written capture. Returns the game, or
    /// the number (from 1) of the first ply that cannot be played and why.
    pub fn replay(&self) -> Result<Game, (usize, RecordError)> {
        let position = Position::new(self.rules.clone()).map_err(|e| (0, RecordError::Rules(e.to_string())))?;
        let position = match &self.start {
            Some((setup, side)) => {
                position.with_setup(setup, *side).map_err(|e| (0, RecordError::Rules(e.to_string())))?
            }
            None => position,
        };
        let mut game = Game::new(position);
        for (n, text) in self.moves.iter().enumerate() {
            game.play_text(text).map_err(|e| (n + 1, RecordError::Move(e)))?;
        }
        Ok(game)
    }

    /// The value of a tag, if present.
    #[must_use]
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
}

/// The head of a record as it is read: its tags, and what it says of the rules and the start,
/// each with the line that said it.
#[derive(Default)]
struct Header {
    tags: Vec<(String, String)>,
    /// Where each tag of `tags` is, to find a second value without a quadratic search.
    index: std::collections::HashMap<String, usize>,
    /// The rules string's rules (with its `start:`) and first side (`atkf:`).
    rules: Option<((Rules, Side), usize)>,
    /// Whether a rules string wrote `atkf:` itself rather than leaving it to its default.
    atkf_written: bool,
    position: Option<(Setup, usize)>,
    to_move: Option<(Side, usize)>,
    rules_start: Option<(Setup, usize)>,
}

impl Header {
    /// Takes one tag (or a bare rules or position line, as `rules` and `position`).
    fn add(&mut self, key: &str, value: &str, line: usize) -> Result<(), ParseError> {
        let err = |reason: String| ParseError::Record { line, reason };
        match key {
            "rules" => {
                let read = parse_rules_and_first_side(value).map_err(|e| err(e.to_string()))?;
                self.atkf_written |= value.split_whitespace().any(|entry| entry.starts_with("atkf:"));
                set_once(&mut self.rules, read, key, line)
            }
            "position" => {
                let setup = value.trim().parse::<Setup>().map_err(|e| err(e.to_string()))?;
                set_once(&mut self.position, setup, key, line)
            }
            "rules-start" => {
                let setup = value.trim().parse::<Setup>().map_err(|e| err(e.to_string()))?;
                set_once(&mut self.rules_start, setup, key, line)
            }
            "to-move" => {
                let side = Side::from_name(value).ok_or_else(|| err("to-move is attackers or defenders".into()))?;
                set_once(&mut self.to_move, side, key, line)
            }
            _ => match self.index.get(key) {
                Some(&at) if self.tags[at].1 != value => Err(ParseError::DuplicateTag { line, key: shorten(key) }),
                // The same tag again with the same value says nothing new.
                Some(_) => Ok(()),
                None => {
                    self.index.insert(key.to_owned(), self.tags.len());
                    self.tags.push((key.to_owned(), value.to_owned()));
                    Ok(())
                }
            },
        }
    }

    /// The rule set (with its own start) and the game's start, when that is another.
    ///
    /// The game starts from the `position` tag, else from the rules string's `start:`; the rule
    /// set's own start is the `rules-start` tag's, else the rules string's. The side to move
    /// first is the `to-move` tag's, else the rules string's `atkf:`.
    fn rules_and_start(&self) -> Result<(Rules, Option<(Setup, Side)>), ParseError> {
        let Some(((rules, first), rules_line)) = &self.rules else {
            return Err(ParseError::Record { line: 1, reason: "the rules are missing".into() });
        };
        let (setup, setup_line) = match &self.position {
            Some((setup, line)) => (setup, *line),
            None => (&rules.start, *rules_line),
        };
        let own_start = match &self.rules_start {
            Some((own, line)) => {
                // This record wrote its game's start into the rules string, which a position tag
                // can only repeat.
                if *setup != rules.start {
                    return Err(ParseError::Record {
                        line: setup_line,
                        reason: "the position tag and the rules string's start: name different starts; correct \
                                 one of them"
                            .into(),
                    });
                }
                let own_rules = Rules { start: own.clone(), ..rules.clone() };
                own_rules.validate().map_err(|e| ParseError::Record { line: *line, reason: e.to_string() })?;
                own
            }
            None => &rules.start,
        };
        let side = match self.to_move {
            // The rules string's `atkf:` says who moves first from its own start.
            Some((side, line)) if side != *first && self.atkf_written && *setup == rules.start => {
                return Err(ParseError::Record {
                    line,
                    reason: format!(
                        "to-move:{side} contradicts the rules string's atkf:{}; correct one of them",
                        if *first == Side::Attackers { 'y' } else { 'n' }
                    ),
                });
            }
            Some((side, _)) => side,
            None => *first,
        };
        if setup != own_start {
            // Checked here, as the rules string's start was, so that a record read is one whose
            // rules string can be written with this start.
            Rules { start: setup.clone(), ..rules.clone() }
                .validate()
                .map_err(|e| ParseError::Record { line: setup_line, reason: e.to_string() })?;
        }
        let start = (setup != own_start || side != Side::Attackers).then(|| (setup.clone(), side));
        Ok((Rules { start: own_start.clone(), ..rules.clone() }, start))
    }
}

/// Sets a tag read into `slot`, refusing a second, different value.
fn set_once<T: PartialEq>(slot: &mut Option<(T, usize)>, value: T, key: &str, line: usize) -> Result<(), ParseError> {
    match slot {
        Some((first, _)) if *first != value => Err(ParseError::DuplicateTag { line, key: key.to_owned() }),
        Some(_) => Ok(()),
        None => {
            *slot = Some((value, line));
            Ok(())
        }
    }
}

/// The `[key:value]` tags of a line, as `OpenTafl` reads them: each value ends at its `]`, and
/// several tags may share a line. A line that is one tag whose value holds a `]` (as this bot
/// wrote names before it escaped them) is read whole.
fn tags_of_line(line: &str) -> Result<Vec<(&str, &str)>, String> {
    let mut tags = Vec::new();
    let mut rest = line;
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            return Ok(tags);
        }
        let tag = rest.strip_prefix('[').and_then(|body| {
            let (tag, after) = body.split_once(']')?;
            Some((tag.split_once(':')?, after))
        });
        match tag {
            Some((tag, after)) => {
                tags.push(tag);
                rest = after;
            }
            None => break,
        }
    }
    let whole = line.strip_prefix('[').and_then(|tag| tag.strip_suffix(']'));
    match whole.map(|tag| tag.split_once(':')) {
        Some(Some(tag)) => Ok(vec![tag]),
        Some(None) => Err("a tag is written [key:value]".into()),
        None => Err("a tag must end with ']'; write each tag as [key:value]".into()),
    }
}

/// A tag's key or value without the padding around it. Padding is ASCII white space: a value's
/// own (a line separator, a no-break space) is kept, and its spaces at the ends were escaped.
fn unpadded(text: &str) -> &str {
    text.trim_matches(|c: char| c.is_ascii_whitespace())
}

/// The characters of a tag written as `%` and two hex digits: `[` and `]` (a `]` ends the tag
/// for `OpenTafl`), `%` itself, line breaks and other ASCII control characters, and `:` in a key.
/// A `.` after a digit and before a space is written so too: `OpenTafl` starts reading moves at
/// the first `1. ` anywhere in the record, tags included. Spaces at either end are written so
/// as well: a reader takes those around a key or value for padding (`[event: Bob ]`).
fn escape(text: &str, key: bool) -> Cow<'_, str> {
    let mut out = String::new();
    // How much of `text` is in `out`: `out` stays empty until a character needs escaping.
    let mut copied = 0;
    let mut after_digit = false;
    let inner = text.len() - text.trim_start_matches(' ').len()..text.trim_end_matches(' ').len();
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let next = chars.peek().map(|&(_, next)| next);
        let escaped = matches!(c, '%' | '[' | ']')
            || c.is_ascii_control()
            || (key && c == ':')
            || (c == ' ' && !inner.contains(&at))
            || (c == '.' && after_digit && next.is_some_and(char::is_whitespace));
        if escaped {
            out.push_str(&text[copied..at]);
            let _ = write!(out, "%{:02X}", u32::from(c));
            copied = at + c.len_utf8();
        }
        after_digit = c.is_ascii_digit();
    }
    if copied == 0 {
        return Cow::Borrowed(text);
    }
    out.push_str(&text[copied..]);
    Cow::Owned(out)
}

/// Reads what [`escape`] wrote. Only the characters it escapes are read back, so that a `%` in
/// another tool's tag (`[event:50%]`) stays as written.
fn unescape(text: &str) -> Cow<'_, str> {
    if !text.contains('%') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some((before, after)) = rest.split_once('%') {
        out.push_str(before);
        let code = after.get(..2).and_then(|hex| u8::from_str_radix(hex, 16).ok()).map(char::from);
        match code {
            Some(c) if c.is_ascii_control() || matches!(c, '%' | '[' | ']' | '.' | ':' | ' ') => {
                out.push(c);
                rest = &after[2..];
            }
            _ => {
                out.push('%');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// Why a parsed record cannot be replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("the record's rules cannot be played: {0}")]
    Rules(String),
    #[error(transparent)]
    Move(IllegalMove),
}

/// A move token of a record: strips a leading piece letter (`Ke5-e1`) and trailing info symbols
/// (`+`, `++`, `-`, `--`).
fn parse_record_move(token: &str) -> Result<MoveText, ParseError> {
    let body = token.trim_end_matches(['+', '-']);
    let body = match body.as_bytes() {
        [b'K' | b'k' | b'T' | b't', second, ..] if second.is_ascii_alphabetic() => &body[1..],
        _ => body,
    };
    body.parse()
}

impl std::fmt::Display for GameRecord {
    /// Tags, then the start tags for a custom start, then the rules tag, then the moves, two
    /// plies to a numbered turn.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (key, value) in &self.tags {
            // Written from the record's own fields below; a second copy could only contradict.
            if START_TAGS.contains(&key.as_str()) {
                continue;
            }
            writeln!(f, "[{}:{}]", escape(key, true), escape(value, false))?;
        }
        let (setup, first) = match &self.start {
            Some((setup, side)) => {
                writeln!(f, "[position:{setup}]")?;
                writeln!(f, "[to-move:{side}]")?;
                if *setup != self.rules.start {
                    writeln!(f, "[rules-start:{}]", self.rules.start)?;
                }
                (setup, *side)
            }
            None => (&self.rules.start, Side::Attackers),
        };
        writeln!(f, "[rules:{}]", write_rules(&self.rules, setup, first))?;
        for (turn, pair) in self.moves.chunks(2).enumerate() {
            write!(f, "{}.", turn + 1)?;
            for mv in pair {
                write!(f, " {mv}")?;
            }
            writeln!(f)?;
        }
        match self.end {
            Some(RecordEnd::Resigned) => writeln!(f, "---"),
            Some(RecordEnd::Timeout) => writeln!(f, "timeout"),
            None => Ok(()),
        }
    }
}

/// The OTN `result` tag value of a status: `1` attackers win, `-1` defenders win, `0` draw, `?`.
#[must_use]
pub fn result_tag(status: Status) -> &'static str {
    match status {
        Status::Finished(outcome) => match outcome.winner {
            Some(Side::Attackers) => "1",
            Some(Side::Defenders) => "-1",
            None => "0",
        },
        Status::Ongoing => "?",
    }
}
