//! Random legal games of every preset and option, from the preset's start and from a custom
//! position with either side to move, written as OTN records and read back: the same rules,
//! start, moves (with captures and statuses), position, result and player names, and a record
//! that `OpenTafl`'s reader would replay from the same start. Mutated records are read or refused,
//! never a panic. Seeded (`OTN_SEED`); the seed is printed, and a failing game's label names it.

use tafl_rules::otn::{GameRecord, parse_rules_and_first_side, result_tag};
use tafl_rules::{Game, Position, Side};

mod rule_sets;
use rule_sets::rule_sets;

/// splitmix64: a seeded sequence that is the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn seed(default: u64) -> u64 {
    let seed = std::env::var("OTN_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(default);
    eprintln!("seed {seed} (set OTN_SEED to change it)");
    seed
}

/// Random play, preferring captures and endings half the time so that games end and captures
/// are written; with `takebacks`, now and then a move is taken back.
fn random_game(start: Position, rng: &mut Rng, max_plies: usize, takebacks: bool) -> Game {
    let mut game = Game::new(start);
    while game.status().is_ongoing() && game.ply() < max_plies {
        let legal = game.position().legal_moves();
        let capturing: Vec<_> = legal
            .iter()
            .copied()
            .filter(|mv| game.preview(*mv).is_ok_and(|p| !p.captures.is_empty() || !p.status.is_ongoing()))
            .collect();
        let mv = if !capturing.is_empty() && rng.below(2) == 0 {
            capturing[rng.below(capturing.len())]
        } else {
            legal[rng.below(legal.len())]
        };
        game.play(mv).unwrap();
        if takebacks && game.status().is_ongoing() && rng.below(10) == 0 {
            game.take_back();
        }
    }
    game
}

/// Names with every character that could end a tag or start the moves early, for either reader.
const ATTACKER_NAME: &str = "Ālice \"[the] first\" | 100% \u{202e}evil\u{202c} 🐉";
const DEFENDER_NAME: &str = "bob: the 2nd. Team 1. 11. [|]";

/// The tags as `OpenTafl`'s `GameSerializer.parseTags` reads them: from each `[` to its first
/// `:` the key, from there to the next `]` the value, stopping at the first `1.` outside a tag.
fn opentafl_tags(record: &str) -> Vec<(String, String)> {
    let mut tags = Vec::new();
    let mut rest = record;
    loop {
        let tag = rest.find('[');
        let moves = rest.find("1.");
        match (tag, moves) {
            (Some(at), moves) if moves.is_none_or(|m| at < m) => {
                let body = &rest[at + 1..];
                let Some(colon) = body.find(':') else { return tags };
                let value = &body[colon + 1..];
                let Some(close) = value.find(']') else { return tags };
                tags.push((body[..colon].to_owned(), value[..close].to_owned()));
                rest = &value[close + 1..];
            }
            _ => return tags,
        }
    }
}

fn check_round_trip(game: &Game, label: &str) {
    let tags = vec![
        ("attackers".to_owned(), ATTACKER_NAME.to_owned()),
        ("defenders".to_owned(), DEFENDER_NAME.to_owned()),
        ("result".to_owned(), result_tag(game.status()).to_owned()),
    ];
    let record = GameRecord::from_game(game, tags);
    let text = record.to_string();
    let parsed = GameRecord::parse(&text).unwrap_or_else(|e| panic!("{label}: the record does not read: {e}\n{text}"));
    assert_eq!(parsed, record, "{label}: read back differently\n{text}");
    let replayed = parsed.replay().unwrap_or_else(|(ply, e)| panic!("{label}: ply {ply} does not replay: {e}\n{text}"));
    assert_eq!(replayed.start().rules(), game.start().rules(), "{label}: rules");
    assert_eq!(replayed.start(), game.start(), "{label}: start");
    assert_eq!(replayed.start().to_move(), game.start().to_move(), "{label}: first side");
    assert_eq!(replayed.moves(), game.moves(), "{label}: moves");
    assert_eq!(replayed.position(), game.position(), "{label}: position");
    assert_eq!(replayed.status(), game.status(), "{label}: status");
    assert_eq!(parsed.tag("attackers"), Some(ATTACKER_NAME), "{label}");
    assert_eq!(parsed.tag("defenders"), Some(DEFENDER_NAME), "{label}");

    // `OpenTafl` reads the rules tag alone for the start and the side to move first, and its
    // moves from the first `1. ` in the record, wherever it stands.
    let theirs = opentafl_tags(&text);
    let keys: Vec<&str> = theirs.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        keys,
        ["attackers", "defenders", "result"].iter().chain(start_keys(&record)).copied().collect::<Vec<_>>()
    );
    let rules = &theirs.iter().find(|(k, _)| k == "rules").expect("a rules tag").1;
    let (rules, first) = parse_rules_and_first_side(rules).unwrap_or_else(|e| panic!("{label}: {e}\n{text}"));
    assert_eq!(rules.start, game.start().setup(), "{label}: the start OpenTafl reads\n{text}");
    assert_eq!(first, game.start().to_move(), "{label}: the side OpenTafl moves first\n{text}");
    let moves_at = text.find("1. ");
    let first_turn = text.find("\n1. ").map(|at| at + 1);
    assert_eq!(moves_at, first_turn, "{label}: OpenTafl would start reading moves elsewhere\n{text}");
}

/// The keys of the tags a record writes for its start, in order.
fn start_keys(record: &GameRecord) -> &'static [&'static str] {
    match &record.start {
        None => &["rules"],
        Some((setup, _)) if *setup == record.rules.start => &["position", "to-move", "rules"],
        Some(_) => &["position", "to-move", "rules-start", "rules"],
    }
}

#[test]
fn random_games_of_every_preset_and_option_round_trip_through_otn() {
    let base = seed(0x5eed_2024);
    let mut endings = std::collections::BTreeMap::new();
    for (variant, options) in rule_sets() {
        let rules = variant.rules_with_texts(&options).unwrap();
        for n in 0..6u64 {
            let seed = base ^ (n << 32) ^ (variant.id().len() as u64) << 8 ^ options.len() as u64;
            let label = format!("{variant} {options:?} seed {seed}");
            let mut rng = Rng(seed);
            let start = Position::new(rules.clone()).unwrap();
            let game = random_game(start.clone(), &mut rng, 600, n % 2 == 1);
            *endings.entry(format!("{:?}", game.status())).or_insert(0) += 1;
            check_round_trip(&game, &label);

            // A custom position: somewhere in a random game, with either side to move; and the
            // preset's own start with the defenders first.
            let len = 4 + rng.below(30);
            let mid = random_game(start.clone(), &mut rng, len, false);
            for side in Side::ALL {
                let Ok(custom) = start.with_setup(&mid.position().setup(), side) else { continue };
                let game = random_game(custom, &mut rng, 300, false);
                check_round_trip(&game, &format!("{label} custom, {side:?} first"));
            }
            let defenders_first = start.with_setup(&rules.start, Side::Defenders).unwrap();
            let game = random_game(defenders_first, &mut rng, 300, false);
            check_round_trip(&game, &format!("{label} its start, defenders first"));
        }
    }
    eprintln!("endings seen: {endings:?}");
    assert!(endings.len() >= 2, "the games end in more than one way: {endings:?}");
}

/// Mutations of valid records (characters changed, inserted, removed, or pieces copied
/// elsewhere) are read or refused, never a panic; a refusal is one line, and a record read is
/// written again as one that reads back the same.
#[test]
fn mutated_records_are_read_or_refused_never_a_panic() {
    let mut rng = Rng(seed(7));
    let alphabet: Vec<char> = "[]:/-x.+| \n0123456789%abcdefghijklmnopqrstKTt?#\u{feff}é🐉".chars().collect();
    for (variant, options) in rule_sets() {
        let rules = variant.rules_with_texts(&options).unwrap();
        let start = Position::new(rules).unwrap();
        let game = random_game(start, &mut rng, 120, false);
        let tags = vec![
            ("attackers".to_owned(), ATTACKER_NAME.to_owned()),
            ("result".to_owned(), result_tag(game.status()).to_owned()),
        ];
        let text = GameRecord::from_game(&game, tags).to_string();
        for _ in 0..3000 {
            let mut chars: Vec<char> = text.chars().collect();
            for _ in 0..=rng.below(4) {
                let at = rng.below(chars.len());
                match rng.below(4) {
                    0 => chars[at] = alphabet[rng.below(alphabet.len())],
                    1 => chars.insert(at, alphabet[rng.below(alphabet.len())]),
                    2 => {
                        chars.remove(at);
                    }
                    _ => {
                        let end = (at + rng.below(40)).min(chars.len());
                        let piece: Vec<char> = chars[at..end].to_vec();
                        let to = rng.below(chars.len());
                        for (k, c) in piece.into_iter().enumerate() {
                            chars.insert(to + k, c);
                        }
                    }
                }
            }
            let mutated: String = chars.into_iter().collect();
            match GameRecord::parse(&mutated) {
                Ok(record) => {
                    if let Err((_, e)) = record.replay() {
                        let said = e.to_string();
                        assert!(!said.contains('\n'), "{said}");
                    }
                    let again = record.to_string();
                    let reread = GameRecord::parse(&again);
                    assert_eq!(
                        reread.as_ref(),
                        Ok(&record),
                        "our own output of {mutated:?} reads back otherwise: {again}"
                    );
                }
                Err(e) => assert!(!e.to_string().contains('\n'), "{e}"),
            }
        }
    }
}
