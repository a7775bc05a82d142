//! Game records through the host: a game exported with `Host::export` and imported back with
//! `Host::import` is the same game (rules, preset and options, start, moves, result and reason,
//! players), however it ended; and records that contradict themselves are refused in one
//! sentence.

#[path = "../../rules/tests/rule_sets/mod.rs"]
mod rule_sets;
mod support;

use support::{NOW, PLACE, alice, bob, game, host, request, said};
use tafl_bot::host::{EndReason, Ending, GameView, Host, HostError, OfferAction, RecordFault, SideChoice};
use tafl_rules::{Reason, Side, Variant};

/// Exports `id`, imports it back with the same players, and returns both views and the record.
async fn round_trip(host: &Host, id: i64) -> (GameView, GameView, String) {
    let original = host.show(id).await.unwrap();
    let record = host.export(id).await.unwrap();
    let imported = host
        .import(&record, &original.attacker, &original.defender, PLACE, NOW + 10)
        .await
        .unwrap_or_else(|e| panic!("the exported record does not import back: {}\n{record}", said(&e)));
    (original, imported, record)
}

fn assert_same_game(original: &GameView, imported: &GameView, record: &str) {
    assert_eq!(imported.position.rules(), original.position.rules(), "rules\n{record}");
    assert_eq!(imported.position, original.position, "final position\n{record}");
    assert_eq!(imported.ply, original.ply, "plies\n{record}");
    assert_eq!(imported.to_move, original.to_move, "side to move\n{record}");
    assert_eq!(imported.ending, original.ending, "result and reason\n{record}");
    assert_eq!(imported.attacker, original.attacker, "attacker\n{record}");
    assert_eq!(imported.defender, original.defender, "defender\n{record}");
    assert_eq!(imported.variant, original.variant, "variant\n{record}");
    assert_eq!(imported.options, original.options, "options\n{record}");
}

/// Brandubh: a4-a3 d3-c3 a3-a4 c3-d3 brings the start back; twice more is a threefold
/// repetition (a draw in brandubh).
const CYCLE: [&str; 4] = ["a4-a3", "d3-c3", "a3-a4", "c3-d3"];

async fn play_all(host: &Host, id: i64, moves: &[&str]) {
    for mv in moves {
        let view = host.show(id).await.unwrap();
        let user = view.player_to_move().unwrap().id;
        host.play(id, user, mv, None, NOW + 5).await.unwrap();
    }
}

/// Brandubh's rules string.
fn brandubh() -> String {
    tafl_rules::otn::rules_string(&Variant::Brandubh.rules())
}

support::both! {
    async fn games_ending_every_way_a_person_can_end_them_export_and_import_back_the_same() {
        let host = host().await;
        // Repetition on the board.
        let g = game(&host, "brandubh").await;
        play_all(&host, g.id, &[CYCLE, CYCLE].concat()).await;
        let (o, i, r) = round_trip(&host, g.id).await;
        assert_eq!(o.ending, Some(Ending { winner: None, reason: EndReason::Board(Reason::Repetition) }));
        assert_same_game(&o, &i, &r);
        // Resignation by the side to move, and by the side that just moved.
        for resigner in [bob(), alice()] {
            let g = game(&host, "brandubh").await;
            play_all(&host, g.id, &["a4-a3"]).await;
            host.resign(g.id, resigner.id, None, NOW + 6).await.unwrap();
            let (o, i, r) = round_trip(&host, g.id).await;
            assert_same_game(&o, &i, &r);
        }
        // Draw by agreement.
        let g = game(&host, "brandubh").await;
        play_all(&host, g.id, &["a4-a3", "d3-c3"]).await;
        host.draw(g.id, alice().id, OfferAction::Offer, None, NOW + 6).await.unwrap();
        host.draw(g.id, bob().id, OfferAction::Accept, None, NOW + 7).await.unwrap();
        let (o, i, r) = round_trip(&host, g.id).await;
        assert_same_game(&o, &i, &r);
        // Time.
        let g = game(&host, "brandubh").await;
        play_all(&host, g.id, &["a4-a3", "d3-c3"]).await;
        host.time_out(g.id, NOW + 6).await.unwrap();
        let (o, i, r) = round_trip(&host, g.id).await;
        assert_eq!(o.ending.unwrap().reason, EndReason::Time);
        assert_same_game(&o, &i, &r);
        // Abandoned, won by claim.
        let g = game(&host, "brandubh").await;
        play_all(&host, g.id, &["a4-a3", "d3-c3"]).await;
        host.claim(g.id, bob().id, NOW + 30 * 86_400).await.unwrap();
        let (o, i, r) = round_trip(&host, g.id).await;
        assert_eq!(o.ending.unwrap().reason, EndReason::Abandoned);
        assert_same_game(&o, &i, &r);
    }
}

support::both! {
    async fn an_aborted_game_exports_a_record_that_imports_back_as_aborted() {
        let host = host().await;
        let g = game(&host, "brandubh").await;
        play_all(&host, g.id, &["a4-a3"]).await;
        host.claim(g.id, alice().id, NOW + 30 * 86_400).await.unwrap();
        let (o, i, r) = round_trip(&host, g.id).await;
        assert_eq!(o.ending, Some(Ending { winner: None, reason: EndReason::Aborted }));
        assert!(r.contains("[result:?]") && r.contains("[termination:aborted]"), "{r}");
        assert_same_game(&o, &i, &r);
        // Without a result tag at all, the termination says as much.
        let record = format!("[termination:aborted]\n[rules:{}]\n1. a4-a3\n", brandubh());
        let imported = host.import(&record, &alice(), &bob(), PLACE, NOW).await.unwrap();
        assert_eq!(imported.ending, Some(Ending { winner: None, reason: EndReason::Aborted }));
        assert!(host.leaderboard("seed-001", None, 10, NOW + 86_400).await.unwrap().entries.is_empty(), "nobody is rated");
    }
}

support::both! {
    async fn a_preset_played_with_an_option_imports_back_as_that_preset_and_option() {
        let host = host().await;
        for (variant, option) in [("tablut", "king_armed=false"), ("historical-7", "escape=edge"), ("tablut", "king_armed=true")] {
            let mut asked = request(&alice(), Some(&bob()), variant, SideChoice::Attackers);
            asked.options = vec![option.to_owned()];
            let challenge = host.challenge(&asked, NOW).await.unwrap();
            let g = host.accept(challenge.id, &bob(), NOW + 1).await.unwrap().game;
            assert_eq!(g.options, option);
            let first = host.legal_moves(g.id, alice().id, "", 1).await.unwrap()[0].notation.clone();
            host.play(g.id, alice().id, &first, None, NOW + 2).await.unwrap();
            host.resign(g.id, bob().id, None, NOW + 3).await.unwrap();
            let (o, i, r) = round_trip(&host, g.id).await;
            assert!(r.contains(&format!("[variant:{variant}]\n")) && r.contains(&format!("[options:{option}]\n")), "{r}");
            assert_same_game(&o, &i, &r);
        }
    }
}

support::both! {
    async fn variant_tags_that_do_not_give_the_records_rules_are_a_label_and_the_rules_decide() {
        let host = host().await;
        let tablut = tafl_rules::otn::rules_string(&Variant::Tablut.rules());
        let unarmed = tafl_rules::otn::rules_string(&Variant::Tablut.rules_with_texts(&["king_armed=false"]).unwrap());
        let cases = [
            // An option the rules do not have: the preset whose rules these are.
            (format!("[variant:tablut]\n[options:king_armed=false]\n[rules:{tablut}]"), "tablut", ""),
            // Another tool's name for the preset, or another preset's.
            (format!("[variant:Tablut 9x9]\n[rules:{tablut}]"), "tablut", ""),
            (format!("[variant:brandubh]\n[rules:{tablut}]"), "tablut", ""),
            // An option this preset has not, or one that does not parse.
            (format!("[variant:tablut]\n[options:escape=edge]\n[rules:{unarmed}]"), "custom", ""),
            (format!("[variant:tablut]\n[options:king_armed=maybe]\n[rules:{unarmed}]"), "custom", ""),
            // No tags: the rules alone, which are no preset's own.
            (format!("[rules:{unarmed}]"), "custom", ""),
            (format!("[variant:tablut]\n[options:king_armed=false]\n[rules:{unarmed}]"), "tablut", "king_armed=false"),
        ];
        for (head, variant, options) in cases {
            // Tablut's moves, under every rules string here.
            let record = format!("{head}\n1. d1-d3 e3-f3\n---\n");
            let imported = host.import(&record, &alice(), &bob(), PLACE, NOW).await.unwrap();
            assert_eq!((imported.variant.as_str(), imported.options.as_str()), (variant, options), "{record}");
        }
    }
}

support::both! {
    async fn a_custom_start_with_the_defenders_first_survives_export_and_import_twice() {
        let host = host().await;
        let record = format!(
            "[result:-1]\n[position:/7/3t3/3T3/ttTK1tt/3T3/3t3/7/]\n[to-move:defenders]\n[rules:{}]\n1. d4-e4 a4-a3\n2. e4-e5\n",
            brandubh()
        );
        let first = host.import(&record, &alice(), &bob(), PLACE, NOW).await.unwrap();
        assert_eq!(first.variant, "brandubh");
        let (o, i, r) = round_trip(&host, first.id).await;
        assert_same_game(&o, &i, &r);
        assert_eq!(i.position.rules().start, Variant::Brandubh.rules().start);
        // OpenTafl, which reads the rules tag alone, starts where the game did.
        assert!(r.contains("[rules:dim:7 atkf:n ") && r.contains("start:/7/3t3/3T3/ttTK1tt/3T3/3t3/7/]"), "{r}");
        let (o2, i2, r2) = round_trip(&host, i.id).await;
        assert_same_game(&o2, &i2, &r2);
        let without_id = |r: &str| r.lines().filter(|l| !l.starts_with("[game:")).map(str::to_owned).collect::<Vec<_>>();
        assert_eq!(without_id(&r2), without_id(&r));
    }
}

support::both! {
    async fn a_record_with_the_defenders_moving_first_by_its_rules_string_imports() {
        let host = host().await;
        let rules = brandubh().replace("dim:7", "dim:7 atkf:n");
        let record = format!("[result:1]\n[rules:{rules}]\n1. d3-c3 a4-a3\n");
        let imported = host.import(&record, &alice(), &bob(), PLACE, NOW).await.unwrap();
        assert_eq!((imported.ply, imported.to_move), (2, Side::Defenders));
        assert_eq!(imported.variant, "brandubh");
        assert_eq!(imported.ending, Some(Ending { winner: Some(Side::Attackers), reason: EndReason::Resignation }));
    }
}

support::both! {
    async fn an_end_marker_after_a_game_that_ended_on_the_board_is_refused() {
        let host = host().await;
        let moves = support::find_game(Variant::Brandubh, Reason::KingCaptured, 200);
        // All the moves after one turn number, which a reader skips.
        let text = format!("[rules:{}]\n1. {}\n", brandubh(), moves.join(" "));
        // The king was captured on the last move, and yet the record says the side to move
        // resigned (or ran out of time) afterwards: which is it?
        for marker in ["---", "timeout"] {
            let record = format!("{text}{marker}\n");
            let error = host.import(&record, &alice(), &bob(), PLACE, NOW).await.unwrap_err();
            assert_eq!(error, HostError::BadRecord(RecordFault::EndAfterFinish), "{marker}");
            assert_eq!(
                said(&error),
                "The record's moves already end the game on the board, yet it then says the side to move resigned \
                 or ran out of time; remove the --- or timeout after the last move."
            );
        }
        // Without the marker it imports, ended as the board says.
        let imported = host.import(&text, &alice(), &bob(), PLACE, NOW).await.unwrap();
        assert_eq!(imported.ending.unwrap().reason, EndReason::Board(Reason::KingCaptured));
    }
}

support::both! {
    async fn a_termination_tag_naming_an_ending_the_moves_do_not_reach_is_refused() {
        let host = host().await;
        let rules = brandubh();
        // No king was captured here, nor did one escape; the tags say so.
        for termination in ["king_captured", "king_escaped", "repetition"] {
            let record = format!("[result:1]\n[termination:{termination}]\n[rules:{rules}]\n1. a4-a3 d3-c3\n");
            let error = host.import(&record, &alice(), &bob(), PLACE, NOW).await.unwrap_err();
            assert_eq!(error, HostError::BadRecord(RecordFault::ContradictoryTermination), "{termination}");
            assert_eq!(
                said(&error),
                "The record's termination tag names an ending on the board that its moves do not reach; correct the \
                 tag or leave it out."
            );
        }
        // Or another ending than the one they reach.
        let moves = support::find_game(Variant::Brandubh, Reason::KingCaptured, 200);
        let record = format!("[termination:king_escaped]\n[rules:{rules}]\n1. {}\n", moves.join(" "));
        let error = host.import(&record, &alice(), &bob(), PLACE, NOW).await.unwrap_err();
        assert_eq!(error, HostError::BadRecord(RecordFault::ContradictoryTermination));
    }
}

support::both! {
    async fn a_record_giving_a_tag_two_values_is_refused_in_one_sentence() {
        let host = host().await;
        let record = format!("[result:1]\n[rules:{}]\n[result:-1]\n1. a4-a3\n", brandubh());
        let error = host.import(&record, &alice(), &bob(), PLACE, NOW).await.unwrap_err();
        assert_eq!(
            said(&error),
            "The record gives the result tag two different values (the second at line 3); keep the right one and \
             remove the other."
        );
        let russian = tafl_bot::present::text::host_error(&error, tafl_bot::present::Lang::console("ru"));
        assert!(russian.starts_with("В записи тегу result даны два разных значения"), "{russian}");
    }
}

support::both! {
    async fn random_games_of_every_preset_and_option_round_trip_through_export_and_import() {
        let seed: u64 = std::env::var("OTN_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x00C0_FFEE);
        eprintln!("seed {seed} (set OTN_SEED to change it)");
        let host = host().await;
        let mut rng = support::Rng(seed | 1);
        let mut cases = 0;
        for (variant, options) in rule_sets::rule_sets() {
            let options: Vec<String> = options.iter().map(|&o| o.to_owned()).collect();
            let mut asked = request(&alice(), Some(&bob()), variant.id(), SideChoice::Attackers);
            asked.options = options.clone();
            let challenge = host.challenge(&asked, NOW).await.unwrap();
            let g = host.accept(challenge.id, &bob(), NOW + 1).await.unwrap().game;
            let limit = 20 + rng.below(160);
            let mut now = NOW + 2;
            loop {
                let view = host.show(g.id).await.unwrap();
                if view.ending.is_some() || view.ply >= limit {
                    break;
                }
                let player = view.player_to_move().unwrap().id;
                let choices = host.legal_moves(g.id, player, "", 500).await.unwrap();
                let mv = &choices[rng.below(choices.len())].notation;
                now += 1;
                host.play(g.id, player, mv, None, now).await.unwrap();
                let view = host.show(g.id).await.unwrap();
                if view.ending.is_none() && view.ply >= 2 && rng.below(12) == 0 {
                    let proposer = view.player_to_move().unwrap().id;
                    let other = if proposer == alice().id { bob().id } else { alice().id };
                    host.takeback(g.id, proposer, OfferAction::Offer, None, now).await.unwrap();
                    host.takeback(g.id, other, OfferAction::Accept, None, now).await.unwrap();
                }
            }
            let view = host.show(g.id).await.unwrap();
            if view.ending.is_none() {
                match rng.below(4) {
                    0 => {
                        let resigner = if rng.below(2) == 0 { alice().id } else { bob().id };
                        host.resign(g.id, resigner, None, now).await.unwrap();
                    }
                    1 => {
                        host.draw(g.id, alice().id, OfferAction::Offer, None, now).await.unwrap();
                        host.draw(g.id, bob().id, OfferAction::Accept, None, now).await.unwrap();
                    }
                    2 => {
                        host.time_out(g.id, now).await.unwrap();
                    }
                    _ => {
                        let waiting = if view.to_move == Side::Attackers { bob().id } else { alice().id };
                        host.claim(g.id, waiting, now + 15 * 86_400).await.unwrap();
                    }
                }
            }
            let (o, i, r) = round_trip(&host, g.id).await;
            eprintln!("{} {:?}: {} plies, {:?}", variant.id(), options, o.ply, o.ending);
            assert_same_game(&o, &i, &r);
            cases += 1;
        }
        assert_eq!(cases, 21);
    }
}
