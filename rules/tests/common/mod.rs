//! Test support: positions drawn as ASCII diagrams, and assertions that play one move and check
//! everything it did.
//!
//! A diagram reads like the board, rank numbers on the left and file letters underneath:
//!
//! ```text
//! 7 # . . . . . #
//! 6 . . . . . . .
//! 5 . . t . . . .
//! 4 . . T + . . .
//! 3 . . . . . . .
//! 2 . . . . . . .
//! 1 # . . K . . #
//!   a b c d e f g
//! ```
//!
//! `t` attacker, `T` defender, `K` king, `.` empty, `+` the empty throne, `#` an empty corner. The
//! special squares must be drawn exactly where the rules put them (and `.` never stands on one), so
//! a diagram that misplaces the throne or forgets that a preset has corners fails loudly instead of
//! testing a different position than the reader sees.

// Every test binary includes this module and uses a different part of it.
#![allow(dead_code)]

use tafl_rules::{
    Game, IllegalMove, Move, MoveText, Outcome, Piece, Position, Reason, Rules, Setup, Side, Square, Status, Variant,
};

pub const ATTACKERS: Side = Side::Attackers;
pub const DEFENDERS: Side = Side::Defenders;
pub const ONGOING: Status = Status::Ongoing;

/// A game won by `winner` for `reason`.
#[must_use]
pub const fn win(winner: Side, reason: Reason) -> Status {
    Status::Finished(Outcome { winner: Some(winner), reason })
}

#[must_use]
pub const fn attackers_win(reason: Reason) -> Status {
    win(Side::Attackers, reason)
}

#[must_use]
pub const fn defenders_win(reason: Reason) -> Status {
    win(Side::Defenders, reason)
}

#[must_use]
pub const fn draw(reason: Reason) -> Status {
    Status::Finished(Outcome { winner: None, reason })
}

/// A preset's rules with options (`"king_armed=false"`, `"escape=edge"`).
#[track_caller]
#[must_use]
pub fn rules(variant: Variant, options: &[&str]) -> Rules {
    variant.rules_with_texts(options).unwrap_or_else(|e| panic!("{variant} {options:?}: {e}"))
}

#[track_caller]
#[must_use]
pub fn sq(text: &str) -> Square {
    text.parse().unwrap_or_else(|e| panic!("{e}"))
}

#[track_caller]
#[must_use]
pub fn mv(text: &str) -> Move {
    text.parse().unwrap_or_else(|e| panic!("{e}"))
}

/// What a diagram shows: the pieces, and the squares drawn as throne or corner.
#[derive(Debug)]
pub struct Diagram {
    pub setup: Setup,
    pub thrones: Vec<Square>,
    pub corners: Vec<Square>,
}

/// Reads a diagram (see the module docs). Panics with the offending line when it is malformed.
#[track_caller]
#[must_use]
pub fn diagram(text: &str) -> Diagram {
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let (footer, rows) = lines.split_last().expect("a diagram has rows and a file-letter line");
    let files: Vec<&str> = footer.split_whitespace().collect();
    let size = files.len();
    for (n, letter) in files.iter().enumerate() {
        let wanted = char::from(b'a' + n as u8).to_string();
        assert_eq!(*letter, wanted, "the file-letter line must read a b c …, got {footer:?}");
    }
    assert_eq!(rows.len(), size, "a {size}-file diagram needs {size} ranks");
    let mut setup = Setup::empty(size as u8);
    let mut thrones = Vec::new();
    let mut corners = Vec::new();
    for (n, row) in rows.iter().enumerate() {
        let rank = size - n;
        let mut cells = row.split_whitespace();
        let label = cells.next().expect("a rank line starts with its number");
        assert_eq!(label, rank.to_string(), "ranks count down from {size} to 1: line {row:?}");
        let cells: Vec<&str> = cells.collect();
        assert_eq!(cells.len(), size, "rank {rank} needs {size} squares: {row:?}");
        for (file, cell) in cells.into_iter().enumerate() {
            let square = Square::new(file as u8, (rank - 1) as u8).expect("small board");
            let piece = match cell {
                "." => None,
                "+" => {
                    thrones.push(square);
                    None
                }
                "#" => {
                    corners.push(square);
                    None
                }
                "t" => Some(Piece::Attacker),
                "T" => Some(Piece::Defender),
                "K" => Some(Piece::King),
                other => panic!("{other:?} on {square} is not one of . + # t T K"),
            };
            setup.set(square, piece);
        }
    }
    Diagram { setup, thrones, corners }
}

/// The position a diagram shows under `rules`, with `to_move` to move. The drawn throne and
/// corners must be exactly the rules' empty special squares.
#[track_caller]
#[must_use]
pub fn position(rules: &Rules, text: &str, to_move: Side) -> Position {
    let d = diagram(text);
    let position = Position::from_setup(rules.clone(), &d.setup, to_move)
        .unwrap_or_else(|e| panic!("the diagram is not a valid position: {e}\n{text}"));
    let size = position.size();
    for file in 0..size {
        for rank in 0..size {
            let square = Square::new(file, rank).expect("small board");
            if position.piece_at(square).is_some() {
                continue;
            }
            assert_eq!(
                d.thrones.contains(&square),
                position.is_throne(square),
                "{square}: draw the empty throne as + and nothing else as +"
            );
            assert_eq!(
                d.corners.contains(&square),
                position.is_corner(square),
                "{square}: draw an empty corner as # and nothing else as #"
            );
        }
    }
    position
}

/// Plays `text` in the diagram's position and checks all of it: the move is listed by
/// `legal_moves` and accepted by `check`; it captures exactly `captures`; the game's status on the
/// board is `status`; the piece moved, the captured squares are empty and nothing else changed.
/// Returns the position after the move.
#[track_caller]
pub fn assert_move(
    rules: &Rules,
    board: &str,
    to_move: Side,
    text: &str,
    captures: &[&str],
    status: Status,
) -> Position {
    let before = position(rules, board, to_move);
    let m = mv(text);
    assert!(before.legal_moves().contains(&m), "{text} is missing from legal_moves in\n{before}");
    assert_eq!(before.check(m), Ok(()), "check refuses {text} in\n{before}");
    let mut after = before.clone();
    let effects = after.play(m).unwrap_or_else(|e| panic!("{e}\n{before}"));
    let mut expected: Vec<Square> = captures.iter().map(|c| sq(c)).collect();
    expected.sort_unstable();
    assert_eq!(effects.captures, expected, "captures of {text} in\n{before}");
    assert_eq!(effects.status, status, "status after {text} in\n{before}\nleading to\n{after}");
    assert_eq!(after.to_move(), to_move.opponent(), "the turn passes");
    let moved = before.piece_at(m.from);
    for (square, _) in before.pieces().chain(after.pieces()) {
        let want = if square == m.to {
            moved
        } else if square == m.from || expected.contains(&square) {
            None
        } else {
            before.piece_at(square)
        };
        assert_eq!(after.piece_at(square), want, "{square} after {text} in\n{before}\nleading to\n{after}");
    }
    after
}

/// Checks that `text` is illegal in the diagram's position with exactly the error message
/// `message`, that `legal_moves` does not list it, and that `play` leaves the position unchanged.
#[track_caller]
pub fn assert_illegal(rules: &Rules, board: &str, to_move: Side, text: &str, message: &str) {
    let before = position(rules, board, to_move);
    let m = mv(text);
    assert!(!before.legal_moves().contains(&m), "legal_moves lists the illegal {text} in\n{before}");
    let mut after = before.clone();
    let error: IllegalMove = after.play(m).expect_err(text);
    assert_eq!(error.to_string(), message, "in\n{before}");
    assert_eq!(before.check(m), Err(error), "check and play disagree");
    assert_eq!(after, before, "a refused move changed the position");
}

/// An attacker's move next to the king under `rules`: it takes no man, ends with `status`, and
/// never removes the king (a captured king stays on the board, the game over).
#[track_caller]
pub fn assert_king_move(rules: &Rules, board: &str, text: &str, status: Status) {
    let after = assert_move(rules, board, Side::Attackers, text, &[], status);
    assert!(after.pieces().any(|(_, p)| p == Piece::King), "the king is never removed");
}

/// A king who steps between two attackers (b3 and d3) is not taken by them; an attacker that
/// lands beside him with no partner opposite (a4-c4) does not take him; one that closes a pair
/// with it (g2-c2) does. The statuses after the four plies, on a 7x7 board with a corner a1 and
/// the throne d4 (the king on c2, the defenders to move).
#[track_caller]
#[must_use]
pub fn king_steps_between_two_attackers(rules: &Rules) -> Vec<Status> {
    let board = "
        7 # . . . . . #
        6 . . . . . . .
        5 . . . . . T .
        4 t . . + . . .
        3 . t . t . . .
        2 . . K . . . t
        1 # . . . . . #
          a b c d e f g
        ";
    let mut g = game(rules, board, Side::Defenders);
    play_all(&mut g, &["c2-c3", "a4-c4", "f5-f6", "g2-c2"])
}

/// The squares a piece on `from` may reach, as sorted text (`["e2", "e3"]`).
#[track_caller]
#[must_use]
pub fn destinations(position: &Position, from: &str) -> Vec<String> {
    let from = sq(from);
    let mut out: Vec<Square> = position.legal_moves().into_iter().filter(|m| m.from == from).map(|m| m.to).collect();
    out.sort_unstable();
    out.into_iter().map(|s| s.to_string()).collect()
}

/// A game from the diagram's position.
#[track_caller]
#[must_use]
pub fn game(rules: &Rules, board: &str, to_move: Side) -> Game {
    Game::new(position(rules, board, to_move))
}

/// Plays moves (with optional claimed captures, `e1-e3xe2`) in a game, checking each is accepted,
/// and returns the status after each.
#[track_caller]
pub fn play_all(game: &mut Game, moves: &[&str]) -> Vec<Status> {
    moves
        .iter()
        .map(|text| {
            let written: MoveText = text.parse().unwrap_or_else(|e| panic!("{e}"));
            let before = game.position().to_string();
            game.play_text(&written).unwrap_or_else(|e| panic!("{text}: {e}\n{before}")).status
        })
        .collect()
}
