//! Every host operation and every refusal, on a real database file. Each refusal is checked to
//! say what to do and to leave every table exactly as it was.

mod support;

use support::{NOW, PLACE, alice, bob, carol, find_game, game, host, refused, request, said};
use tafl_bot::host::Host;
use tafl_bot::host::{
    BoardStyle, ChallengeState, EndReason, Ending, HostError, MoveEffect, OfferAction, OfferKind, OfferOutcome,
    SeenBoard, SideChoice, User,
};
use tafl_rules::{Reason, Side, Variant};

// ----- challenges -----

support::both! {
    async fn a_challenge_to_a_named_opponent_is_open_until_answered() {
        let host = host().await;
        let c = host.challenge(&request(&alice(), Some(&bob()), "copenhagen", SideChoice::Defenders), NOW).await.unwrap();
        assert_eq!(c.state, ChallengeState::Open);
        assert_eq!(c.challenger, alice());
        assert_eq!(c.opponent, Some(bob()));
        assert_eq!(c.variant, "copenhagen");
        assert_eq!(c.expires_at, NOW + 24 * 3600);
        assert_eq!(host.challenges(102, NOW).await.unwrap().len(), 1, "bob sees the challenge");
        assert!(host.challenges(103, NOW).await.unwrap().is_empty(), "carol does not");
    }
}

support::both! {
    async fn accepting_starts_a_game_with_the_sides_asked_for() {
        let host = host().await;
        let c = host.challenge(&request(&alice(), Some(&bob()), "copenhagen", SideChoice::Defenders), NOW).await.unwrap();
        let accepted = host.accept(c.id, &bob(), NOW + 5).await.unwrap();
        assert_eq!(accepted.game.defender, alice());
        assert_eq!(accepted.game.attacker, bob());
        assert_eq!(accepted.game.ply, 0);
        assert_eq!(accepted.game.to_move, Side::Attackers);
        assert_eq!(accepted.notify, vec![alice().id]);
        assert_eq!(accepted.challenge.state, ChallengeState::Accepted);
        assert_eq!(accepted.challenge.game_id, Some(accepted.game.id));
    }
}

support::both! {
    async fn accepting_names_the_new_game_before_it_is_committed_and_a_refusal_names_none() {
        // A click answering with the board holds the game's delivery lane from this call on.
        let host = host().await;
        let c = host.challenge(&request(&alice(), Some(&bob()), "brandubh", SideChoice::Defenders), NOW).await.unwrap();
        let mut named = Vec::new();
        let error = refused!(host, host.accept_with(c.id, &carol(), NOW, &mut |game| named.push(game)));
        assert!(matches!(error, HostError::NotYourChallenge { .. }), "{error}");
        assert!(named.is_empty(), "a refused accept starts no game: {named:?}");
        let accepted = host.accept_with(c.id, &bob(), NOW, &mut |game| named.push(game)).await.unwrap();
        assert_eq!(named, vec![accepted.game.id]);
    }
}

support::both! {
    async fn an_open_challenge_may_be_accepted_by_anyone_but_the_challenger() {
        let host = host().await;
        let c = host.challenge(&request(&alice(), None, "brandubh", SideChoice::Attackers), NOW).await.unwrap();
        let error = refused!(host, host.accept(c.id, &alice(), NOW));
        assert_eq!(error, HostError::OwnChallenge { id: c.id });
        assert!(said(&error).contains("cannot accept your own challenge"), "{error}");
        let accepted = host.accept(c.id, &carol(), NOW).await.unwrap();
        assert_eq!(accepted.game.defender, carol());
    }
}

support::both! {
    async fn a_random_side_puts_one_player_on_each_side_and_both_ways_happen() {
        let host = host().await;
        let mut challenger_attacks = [false, false];
        for n in 0..40 {
            let c = host.challenge(&request(&alice(), Some(&bob()), "tablut", SideChoice::Random), NOW + n).await.unwrap();
            let g = host.accept(c.id, &bob(), NOW + n).await.unwrap().game;
            assert_ne!(g.attacker, g.defender);
            challenger_attacks[usize::from(g.attacker == alice())] = true;
        }
        assert_eq!(challenger_attacks, [true, true], "40 coin flips came up both ways");
    }
}

support::both! {
    async fn challenging_yourself_is_refused_and_changes_nothing() {
        let host = host().await;
        let error =
            refused!(host, host.challenge(&request(&alice(), Some(&alice()), "copenhagen", SideChoice::Random), NOW));
        assert_eq!(error, HostError::ChallengeYourself);
        assert!(said(&error).starts_with("You cannot challenge yourself"));
    }
}

support::both! {
    async fn an_unknown_variant_is_refused_with_the_list_of_variants() {
        let host = host().await;
        let error = refused!(host, host.challenge(&request(&alice(), Some(&bob()), "chess", SideChoice::Random), NOW));
        let message = said(&error);
        assert!(message.contains("\"chess\" is not a variant"), "{message}");
        assert!(message.contains("copenhagen"), "{message}");
    }
}

support::both! {
    async fn an_unknown_option_is_refused_naming_the_options_the_preset_has() {
        let host = host().await;
        let mut req = request(&alice(), Some(&bob()), "historical-9", SideChoice::Random);
        req.options = vec!["throne=none".to_owned()];
        let message = said(&refused!(host, host.challenge(&req, NOW)));
        assert!(message.contains("no option \"throne\""), "{message}");
        req.options = vec!["escape=sideways".to_owned()];
        let message = said(&refused!(host, host.challenge(&req, NOW)));
        assert!(message.contains("edge or corner"), "{message}");
        // Stored sorted, the two would have swapped which one wins: refused, against the bot too.
        req.options = vec!["escape=edge".to_owned(), "escape=corner".to_owned()];
        let message = said(&refused!(host, host.challenge(&req, NOW)));
        assert_eq!(message, "The options escape=edge and escape=corner contradict each other; give one of them.");
        req.opponent = None;
        let message = said(&refused!(host, host.challenge_bot(&req, 1, false, NOW)));
        assert!(message.contains("contradict each other"), "{message}");
        // The same option twice is one option.
        req.options = vec!["escape=edge".to_owned(), "escape=EDGE".to_owned()];
        assert_eq!(host.challenge_bot(&req, 1, false, NOW).await.unwrap().options, "escape=edge");
    }
}

support::both! {
    async fn options_are_checked_and_stored_in_canonical_form() {
        let host = host().await;
        let mut req = request(&alice(), Some(&bob()), "historical-9", SideChoice::Attackers);
        req.options = vec![" Escape = CORNER ".to_owned()];
        let c = host.challenge(&req, NOW).await.unwrap();
        assert_eq!(c.options, "escape=corner");
        let g = host.accept(c.id, &bob(), NOW).await.unwrap().game;
        assert_eq!(g.options, "escape=corner");
        assert_eq!(g.position.rules().escape, tafl_rules::Escape::Corner);
    }
}

support::both! {
    async fn a_challenge_and_its_game_keep_the_clock_asked_for() {
        let host = host().await;
        let mut req = request(&alice(), Some(&bob()), "copenhagen", SideChoice::Random);
        req.clock = Some("3d+7d".parse().unwrap());
        let c = host.challenge(&req, NOW).await.unwrap();
        assert_eq!(c.clock.to_string(), "3d+7d");
        assert_eq!(host.challenge_by_id(c.id).await.unwrap().clock, req.clock.unwrap(), "stored and read back");
        let g = host.accept(c.id, &bob(), NOW + 5).await.unwrap().game;
        assert_eq!(Some(g.clock), req.clock);
        assert_eq!(g.deadline_at, Some(NOW + 5 + 3 * 86_400), "the first turn starts at the acceptance");
    }
}

support::both! {
    async fn one_person_cannot_flood_others_with_challenges() {
        let host = host().await;
        for _ in 0..10 {
            host.challenge(&request(&alice(), None, "brandubh", SideChoice::Random), NOW).await.unwrap();
        }
        let error = refused!(host, host.challenge(&request(&alice(), None, "brandubh", SideChoice::Random), NOW));
        assert_eq!(error, HostError::TooManyChallenges(10));
    }
}

/// A challenge as Discord shows it: made at `at`, its card posted.
async fn shown_challenge(host: &Host, request: tafl_bot::host::ChallengeRequest, at: i64) -> tafl_bot::host::Challenge {
    let c = host.challenge(&request, at).await.unwrap();
    host.set_challenge_message(c.id, 2, 900_000 + c.id).await.unwrap();
    c
}

support::both! {
    async fn one_person_cannot_ping_another_without_end_by_withdrawing_and_challenging_again() {
        let host = host().await;
        let to_bob = || request(&alice(), Some(&bob()), "brandubh", SideChoice::Random);
        let shown = |at: i64| shown_challenge(&host, to_bob(), at);
        // Accepted challenges do not count: friends play as many games as they like.
        for n in 0..5 {
            let c = shown(NOW + n).await;
            host.accept(c.id, &bob(), NOW + n).await.unwrap();
        }
        // Nor do challenges Discord never showed (the bot withdrew them; nobody was mentioned).
        for n in 0..3 {
            let c = host.challenge(&to_bob(), NOW + 6 + n).await.unwrap();
            host.cancel(c.id, alice().id, NOW + 6 + n).await.unwrap();
        }
        // Withdrawn, declined, or open: three in a day, then no more to Bob until a day after
        // the first.
        let first = shown(NOW + 10).await;
        host.cancel(first.id, alice().id, NOW + 11).await.unwrap();
        let second = shown(NOW + 12).await;
        host.decline(second.id, bob().id, NOW + 13).await.unwrap();
        shown(NOW + 14).await;
        let error = refused!(host, host.challenge(&to_bob(), NOW + 15));
        assert_eq!(error, HostError::TooManyChallengesTo { opponent: bob(), count: 3, again_at: NOW + 10 + 86_400 });
        let words = said(&error);
        let start = "You have challenged @bob 3 times in the last day without a game; you may challenge them again ";
        assert!(words.starts_with(start) && words.ends_with(" UTC."), "{words}");
        // Others are not held back, nor an open challenge, nor Bob himself.
        host.challenge(&request(&alice(), Some(&carol()), "brandubh", SideChoice::Random), NOW + 15).await.unwrap();
        host.challenge(&request(&alice(), None, "brandubh", SideChoice::Random), NOW + 15).await.unwrap();
        host.challenge(&request(&bob(), Some(&alice()), "brandubh", SideChoice::Random), NOW + 15).await.unwrap();
        // A day after the first, one may be made again, and a day after the second another; then
        // the day holds the third (still open) and those two: the next waits for the third.
        let later = NOW + 13 + 86_400;
        shown(later).await;
        shown(later).await;
        let error = refused!(host, host.challenge(&to_bob(), later));
        assert!(matches!(error, HostError::TooManyChallengesTo { again_at, .. } if again_at == NOW + 14 + 86_400));
    }
}

support::both! {
    /// Ten open challenges at most, but withdrawing them and making ten more left card after card
    /// in the channel: thirty a day that start no game, to anyone or open to all.
    async fn one_person_cannot_fill_a_channel_with_challenges_by_withdrawing_and_making_more() {
        let host = host().await;
        let open = || request(&alice(), None, "brandubh", SideChoice::Random);
        let shown = |at: i64| shown_challenge(&host, open(), at);
        // Accepted ones do not count.
        for n in 0..3 {
            let c = shown(NOW + n).await;
            host.accept(c.id, &bob(), NOW + n).await.unwrap();
        }
        for n in 0..30 {
            let c = shown(NOW + 10 + n).await;
            host.cancel(c.id, alice().id, NOW + 10 + n).await.unwrap();
        }
        let error = refused!(host, host.challenge(&open(), NOW + 50));
        assert_eq!(error, HostError::TooManyChallengesToday { count: 30, again_at: NOW + 10 + 86_400 });
        let words = said(&error);
        let start = "You have made 30 challenges in the last day that started no game; you may challenge again ";
        assert!(words.starts_with(start) && words.ends_with(" UTC."), "{words}");
        let ru = tafl_bot::present::text::host_error(&error, tafl_bot::present::Lang::console("ru"));
        assert!(ru.starts_with("За сутки вы сделали 30 вызовов, и ни один не привёл к партии;"), "{ru}");
        // Someone else is not held back; a day after the first, one more may be made.
        host.challenge(&request(&bob(), None, "brandubh", SideChoice::Random), NOW + 50).await.unwrap();
        shown(NOW + 10 + 86_400).await;
        let error = refused!(host, host.challenge(&open(), NOW + 10 + 86_400));
        assert!(matches!(error, HostError::TooManyChallengesToday { again_at, .. } if again_at == NOW + 11 + 86_400));
    }
}

support::both! {
    async fn accepting_a_challenge_meant_for_someone_else_is_refused() {
        let host = host().await;
        let c = host.challenge(&request(&alice(), Some(&bob()), "copenhagen", SideChoice::Random), NOW).await.unwrap();
        let error = refused!(host, host.accept(c.id, &carol(), NOW));
        assert_eq!(
            said(&error),
            format!("Challenge #{} is meant for @bob, not for you; start your own with /challenge.", c.id)
        );
    }
}

support::both! {
    async fn a_challenge_is_accepted_only_once() {
        let host = host().await;
        let c = host.challenge(&request(&alice(), None, "copenhagen", SideChoice::Random), NOW).await.unwrap();
        host.accept(c.id, &bob(), NOW).await.unwrap();
        let error = refused!(host, host.accept(c.id, &carol(), NOW));
        assert_eq!(error, HostError::ChallengeClosed { id: c.id, state: ChallengeState::Accepted });
    }
}

support::both! {
    async fn a_missing_challenge_is_refused() {
        let host = host().await;
        let error = refused!(host, host.accept(999, &bob(), NOW));
        assert_eq!(said(&error), "There is no challenge #999; check the number, or start one with /challenge.");
    }
}

support::both! {
    async fn challenges_expire_and_then_cannot_be_accepted() {
        let host = host().await;
        let c = host.challenge(&request(&alice(), Some(&bob()), "copenhagen", SideChoice::Random), NOW).await.unwrap();
        let later = c.expires_at;
        let error = refused!(host, host.accept(c.id, &bob(), later));
        assert_eq!(error, HostError::ChallengeExpired { id: c.id });
        assert!(host.expire_challenges(later - 1).await.unwrap().is_empty());
        let expired = host.expire_challenges(later).await.unwrap();
        assert_eq!(expired.len(), 1);
        assert_eq!(expired[0].state, ChallengeState::Expired);
        assert_eq!(host.challenge_by_id(c.id).await.unwrap().state, ChallengeState::Expired);
        assert!(host.expire_challenges(later + 10).await.unwrap().is_empty(), "expiry happens once");
    }
}

support::both! {
    async fn the_named_opponent_may_decline_and_nobody_else() {
        let host = host().await;
        let c = host.challenge(&request(&alice(), Some(&bob()), "copenhagen", SideChoice::Random), NOW).await.unwrap();
        assert!(matches!(refused!(host, host.decline(c.id, carol().id, NOW)), HostError::NotYourChallenge { .. }));
        assert_eq!(refused!(host, host.decline(c.id, alice().id, NOW)), HostError::OwnChallenge { id: c.id });
        assert_eq!(host.decline(c.id, bob().id, NOW).await.unwrap().state, ChallengeState::Declined);
        assert_eq!(
            refused!(host, host.accept(c.id, &bob(), NOW)),
            HostError::ChallengeClosed { id: c.id, state: ChallengeState::Declined }
        );
    }
}

support::both! {
    async fn an_open_challenge_cannot_be_declined() {
        let host = host().await;
        let c = host.challenge(&request(&alice(), None, "copenhagen", SideChoice::Random), NOW).await.unwrap();
        assert_eq!(refused!(host, host.decline(c.id, bob().id, NOW)), HostError::DeclineOpen { id: c.id });
    }
}

support::both! {
    async fn only_the_challenger_may_cancel() {
        let host = host().await;
        let c = host.challenge(&request(&alice(), Some(&bob()), "copenhagen", SideChoice::Random), NOW).await.unwrap();
        let error = refused!(host, host.cancel(c.id, bob().id, NOW));
        assert_eq!(said(&error), format!("Only @alice, who made challenge #{}, can withdraw it.", c.id));
        assert_eq!(host.cancel(c.id, alice().id, NOW).await.unwrap().state, ChallengeState::Cancelled);
        assert_eq!(
            refused!(host, host.cancel(c.id, alice().id, NOW)),
            HostError::ChallengeClosed { id: c.id, state: ChallengeState::Cancelled }
        );
    }
}

support::both! {
    async fn display_names_are_cleaned_and_kept_up_to_date() {
        let host = host().await;
        let odd = User::new(101, &format!("a\u{0}l\u{202e}ice{}", "ж".repeat(500)));
        host.challenge(&request(&odd, Some(&bob()), "copenhagen", SideChoice::Random), NOW).await.unwrap();
        let c = host.challenges(101, NOW).await.unwrap().remove(0);
        assert!(c.challenger.name.starts_with("al\u{202e}iceж"));
        assert_eq!(c.challenger.name.chars().count(), 64);
        host.remember_user(&User::new(101, "   "), NOW).await.unwrap();
        assert_eq!(host.challenge_by_id(c.id).await.unwrap().challenger.name, "someone");
    }
}

// ----- moves -----

support::both! {
    async fn a_move_is_stored_with_its_captures_and_the_turn_passes() {
        let host = host().await;
        let g = game(&host, "copenhagen").await;
        let played = host.play(g.id, alice().id, "D1-D3", Some(0), NOW).await.unwrap();
        assert_eq!(played.notation, "d1-d3");
        assert_eq!(played.game.ply, 1);
        assert_eq!(played.game.to_move, Side::Defenders);
        assert_eq!(played.notify, vec![bob().id]);
        assert_eq!(played.game.last_move.unwrap().to_string(), "d1-d3");
        let shown = host.show(g.id).await.unwrap();
        assert_eq!(shown.ply, 1);
        assert_eq!(shown.position, played.game.position);
    }
}

support::both! {
    async fn captures_are_recorded_in_the_notation() {
        let host = host().await;
        let g = game(&host, "brandubh").await;
        let moves = find_game(Variant::Brandubh, Reason::KingCaptured, 200);
        let mut with_capture = None;
        for (n, mv) in moves.iter().enumerate() {
            let user = if n % 2 == 0 { alice().id } else { bob().id };
            let played = host.play(g.id, user, mv.split('x').next().unwrap(), Some(n), NOW).await.unwrap();
            assert_eq!(&played.notation, mv);
            if mv.contains('x') {
                with_capture = Some(mv.clone());
            }
        }
        assert!(with_capture.is_some(), "the game had a capture: {moves:?}");
    }
}

support::both! {
    async fn a_stale_ply_is_refused_as_the_board_has_changed() {
        let host = host().await;
        let g = game(&host, "copenhagen").await;
        host.play(g.id, alice().id, "d1-d3", Some(0), NOW).await.unwrap();
        let error = refused!(host, host.play(g.id, bob().id, "f4-f3", Some(0), NOW));
        assert!(said(&error).starts_with("The board has changed"), "{error}");
        // The same click delivered twice: the second is stale, never a second move.
        let error = refused!(host, host.play(g.id, alice().id, "d1-d3", Some(0), NOW));
        assert_eq!(error, HostError::StaleBoard { id: g.id, ply: 1, expected: 0 });
    }
}

support::both! {
    async fn a_move_in_someone_elses_game_is_refused() {
        let host = host().await;
        let g = game(&host, "copenhagen").await;
        let error = refused!(host, host.play(g.id, carol().id, "d1-d3", None, NOW));
        assert_eq!(said(&error), "Game #1 is not yours: only its two players can do that.");
    }
}

support::both! {
    async fn a_move_out_of_turn_is_refused() {
        let host = host().await;
        let g = game(&host, "copenhagen").await;
        let error = refused!(host, host.play(g.id, bob().id, "f4-f3", None, NOW));
        assert_eq!(said(&error), "It is not your turn: @alice to move.");
    }
}

support::both! {
    async fn a_move_in_a_missing_game_is_refused() {
        let host = host().await;
        let error = refused!(host, host.play(42, alice().id, "d1-d3", None, NOW));
        assert_eq!(said(&error), "There is no game #42; see your games with /games.");
    }
}

support::both! {
    async fn a_malformed_move_is_refused_with_the_parsers_sentence() {
        let host = host().await;
        let g = game(&host, "copenhagen").await;
        let error = refused!(host, host.play(g.id, alice().id, "hello", None, NOW));
        assert!(matches!(error, HostError::BadMove(_)));
        assert!(said(&error).contains("write moves like e1-e3"), "{error}");
    }
}

support::both! {
    /// A phone's long dashes and a Russian layout's `е` are read as what the player meant.
    async fn a_move_typed_with_cyrillic_letters_or_a_long_dash_is_played_as_meant() {
        let host = host().await;
        let g = game(&host, "copenhagen").await;
        let played = host.play(g.id, alice().id, "h1\u{2014}h3", None, NOW).await.unwrap();
        assert_eq!(played.notation, "h1-h3");
        let played = host.play(g.id, bob().id, "f4\u{2013}f3", None, NOW + 1).await.unwrap();
        assert_eq!(played.notation, "f4-f3");
        let played = host.play(g.id, alice().id, "е1-е3", None, NOW + 2);
        assert_eq!(played.await.unwrap().notation, "e1-e3", "Cyrillic е read as e");
    }
}

support::both! {
    async fn an_illegal_move_is_refused_with_the_engines_sentence() {
        let host = host().await;
        let g = game(&host, "copenhagen").await;
        let error = refused!(host, host.play(g.id, alice().id, "d1-e2", None, NOW));
        assert!(said(&error).contains("pieces move along a rank or a file"), "{error}");
        let error = refused!(host, host.play(g.id, alice().id, "f6-f8", None, NOW));
        assert!(said(&error).contains("belongs to the defenders"), "{error}");
        let error = refused!(host, host.play(g.id, alice().id, "d1-d3xd2", None, NOW));
        assert!(said(&error).contains("captures nothing, not d2"), "{error}");
        let error = refused!(host, host.play(g.id, alice().id, "z1-z3", None, NOW));
        assert!(said(&error).contains("z1 is off the board: this one is 11×11"), "{error}");
    }
}

support::both! {
    async fn huge_and_odd_unicode_input_is_refused_without_a_panic() {
        let host = host().await;
        let g = game(&host, "copenhagen").await;
        for text in ["", " ", "\u{0}", "e1-e3\u{202e}", &"ж".repeat(100_000), "🦀-🦀", "e99999999999-e3", "d1-d3 x"] {
            let error = refused!(host, host.play(g.id, alice().id, text, None, NOW));
            assert!(matches!(error, HostError::BadMove(_) | HostError::IllegalMove(_)), "{text:?}: {error:?}");
            assert!(said(&error).len() < 300, "the message stays short");
        }
        let choices = host.legal_moves(g.id, alice().id, &"ж".repeat(100_000), 25).await.unwrap();
        assert!(choices.is_empty());
    }
}

support::both! {
    async fn a_move_on_the_board_forecasts_the_game_it_leaves_and_returns_the_board_after_it() {
        let host = host().await;
        let g = game(&host, "brandubh").await;
        let moves = find_game(Variant::Brandubh, Reason::KingEscaped, 200);
        for (n, mv) in moves.iter().enumerate() {
            let user = if n % 2 == 0 { alice().id } else { bob().id };
            let mut forecasts = Vec::new();
            let (played, state) = host
                .play_on_board(g.id, user, mv, Some(SeenBoard::at_ply(n)), NOW, &mut |view, history, _| {
                    forecasts.push((view.clone(), history.clone()));
                })
                .await
                .unwrap();
            assert_eq!((state.game.ply, &state.game.position), (played.game.ply, &played.game.position), "ply {n}");
            assert_eq!(state.history.ply(), n + 1);
            // Nothing is delivered here, so the newest board item is the one this move recorded.
            assert!(state.covers.is_some(), "ply {n}: the move's board item is covered");
            if n + 1 < moves.len() {
                // Forecast once, and exactly as the move left the game.
                let [(view, history)] = forecasts.as_slice() else { panic!("ply {n}: {} forecasts", forecasts.len()) };
                assert_eq!((view.ply, &view.position, view.to_move), (state.game.ply, &state.game.position, state.game.to_move));
                assert_eq!((view.ending, &view.last_move), (None, &state.game.last_move));
                assert_eq!(history.moves(), state.history.moves());
            } else {
                // The move that ends the game is not forecast: its ending is known once recorded.
                assert!(forecasts.is_empty());
                assert!(state.game.is_over());
            }
        }
        // A refused move forecasts nothing and changes nothing.
        let mut forecast = false;
        refused!(host, host.play_on_board(g.id, alice().id, "a4-a5", None, NOW, &mut |_, _, _| forecast = true));
        assert!(!forecast);
    }
}

support::both! {
    async fn a_game_that_ends_on_the_board_is_finished_and_refuses_further_moves() {
        let host = host().await;
        let g = game(&host, "brandubh").await;
        let moves = find_game(Variant::Brandubh, Reason::KingEscaped, 200);
        let mut last = None;
        for (n, mv) in moves.iter().enumerate() {
            let user = if n % 2 == 0 { alice().id } else { bob().id };
            last = Some(host.play(g.id, user, mv, Some(n), NOW).await.unwrap());
        }
        let last = last.unwrap();
        assert_eq!(
            last.game.ending,
            Some(Ending { winner: Some(Side::Defenders), reason: EndReason::Board(Reason::KingEscaped) })
        );
        assert_eq!(last.notify, vec![alice().id, bob().id]);
        let user = if moves.len().is_multiple_of(2) { alice().id } else { bob().id };
        let error = refused!(host, host.play(g.id, user, "a4-a5", None, NOW));
        assert_eq!(said(&error), format!("Game #{} is over; start a new one with /challenge.", g.id));
        assert!(said(&refused!(host, host.resign(g.id, user, None, NOW))).contains("is over"));
        assert!(said(&refused!(host, host.draw(g.id, user, OfferAction::Offer, None, NOW))).contains("is over"));
    }
}

support::both! {
    async fn the_king_captured_ends_the_game_for_the_attackers() {
        let host = host().await;
        let g = game(&host, "tablut").await;
        let moves = find_game(Variant::Tablut, Reason::KingCaptured, 300);
        for (n, mv) in moves.iter().enumerate() {
            let user = if n % 2 == 0 { alice().id } else { bob().id };
            host.play(g.id, user, mv, Some(n), NOW).await.unwrap();
        }
        let shown = host.show(g.id).await.unwrap();
        assert_eq!(
            shown.ending,
            Some(Ending { winner: Some(Side::Attackers), reason: EndReason::Board(Reason::KingCaptured) })
        );
        assert_eq!(host.games(alice().id, false).await.unwrap().len(), 0, "no ongoing games");
        let all = host.games(alice().id, true).await.unwrap();
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].ending.unwrap().winner, Some(Side::Attackers));
    }
}

// ----- resign, draw, takeback, time -----

support::both! {
    async fn resigning_gives_the_opponent_the_win() {
        let host = host().await;
        let g = game(&host, "copenhagen").await;
        assert!(matches!(refused!(host, host.resign(g.id, carol().id, None, NOW)), HostError::NotAPlayer(_)));
        let finished = host.resign(g.id, bob().id, None, NOW).await.unwrap();
        assert_eq!(finished.game.ending, Some(Ending { winner: Some(Side::Attackers), reason: EndReason::Resignation }));
        assert_eq!(finished.notify, vec![alice().id, bob().id]);
        assert!(matches!(refused!(host, host.resign(g.id, alice().id, None, NOW)), HostError::GameOver { .. }));
    }
}

support::both! {
    async fn a_draw_offer_accepted_ends_the_game_by_agreement() {
        let host = host().await;
        let g = game(&host, "fetlar").await;
        let offered = host.draw(g.id, alice().id, OfferAction::Offer, None, NOW).await.unwrap();
        assert!(matches!(offered, OfferOutcome::Offered { notify: 102, .. }));
        assert!(matches!(
            refused!(host, host.draw(g.id, alice().id, OfferAction::Offer, None, NOW)),
            HostError::AlreadyOffered { .. }
        ));
        assert!(matches!(
            refused!(host, host.draw(g.id, alice().id, OfferAction::Accept, None, NOW)),
            HostError::OwnOffer { .. }
        ));
        assert!(matches!(
            refused!(host, host.draw(g.id, carol().id, OfferAction::Accept, None, NOW)),
            HostError::NotAPlayer(_)
        ));
        let accepted = host.draw(g.id, bob().id, OfferAction::Accept, None, NOW).await.unwrap();
        assert_eq!(accepted.game().ending, Some(Ending { winner: None, reason: EndReason::Agreement }));
    }
}

support::both! {
    async fn offering_a_draw_when_the_opponent_offered_one_accepts_it() {
        let host = host().await;
        let g = game(&host, "fetlar").await;
        host.draw(g.id, alice().id, OfferAction::Offer, None, NOW).await.unwrap();
        let outcome = host.draw(g.id, bob().id, OfferAction::Offer, None, NOW).await.unwrap();
        assert!(matches!(outcome, OfferOutcome::Accepted { .. }));
    }
}

support::both! {
    async fn a_declined_or_withdrawn_draw_offer_leaves_the_game_going() {
        let host = host().await;
        let g = game(&host, "fetlar").await;
        assert!(matches!(
            refused!(host, host.draw(g.id, bob().id, OfferAction::Decline, None, NOW)),
            HostError::NoOffer { .. }
        ));
        assert!(matches!(
            refused!(host, host.draw(g.id, bob().id, OfferAction::Accept, None, NOW)),
            HostError::NoOffer { .. }
        ));
        host.draw(g.id, alice().id, OfferAction::Offer, None, NOW).await.unwrap();
        let declined = host.draw(g.id, bob().id, OfferAction::Decline, None, NOW).await.unwrap();
        assert!(matches!(declined, OfferOutcome::Declined { withdrawn: false, notify: 101, .. }));
        // Each offer pings the opponent: the same one again waits for a move.
        let again = refused!(host, host.draw(g.id, alice().id, OfferAction::Offer, None, NOW));
        assert_eq!(again, HostError::OfferedThisMove { id: g.id, kind: OfferKind::Draw });
        assert_eq!(
            said(&again),
            format!(
                "You already offered a draw in game #{} since the last move; you can offer again after the next move.",
                g.id
            )
        );
        host.play(g.id, alice().id, "d1-d3", None, NOW).await.unwrap();
        host.draw(g.id, alice().id, OfferAction::Offer, None, NOW).await.unwrap();
        let withdrawn = host.draw(g.id, alice().id, OfferAction::Decline, None, NOW).await.unwrap();
        assert!(matches!(withdrawn, OfferOutcome::Declined { withdrawn: true, .. }));
        let again = refused!(host, host.draw(g.id, alice().id, OfferAction::Offer, None, NOW));
        assert_eq!(again, HostError::OfferedThisMove { id: g.id, kind: OfferKind::Draw });
        // The opponent's own offer is not held back by it.
        host.draw(g.id, bob().id, OfferAction::Offer, None, NOW).await.unwrap();
        host.draw(g.id, alice().id, OfferAction::Decline, None, NOW).await.unwrap();
        // A takeback that brings the game back to this ply came after moves: offering is open again.
        host.play(g.id, bob().id, "f4-f3", None, NOW).await.unwrap();
        host.takeback(g.id, bob().id, OfferAction::Offer, None, NOW).await.unwrap();
        host.takeback(g.id, alice().id, OfferAction::Accept, None, NOW).await.unwrap();
        assert_eq!(host.show(g.id).await.unwrap().ply, 1);
        host.draw(g.id, alice().id, OfferAction::Offer, None, NOW).await.unwrap();
        assert!(host.show(g.id).await.unwrap().ending.is_none());
    }
}

support::both! {
    /// An offer kept open across its maker's own move and declined after it: the check looked at
    /// the ply the offer was made at, and let it be made again at once.
    async fn a_draw_offer_declined_after_its_makers_move_waits_for_the_next_move() {
        let host = host().await;
        let g = game(&host, "copenhagen").await;
        host.draw(g.id, alice().id, OfferAction::Offer, None, NOW).await.unwrap();
        host.play(g.id, alice().id, "d1-d3", None, NOW).await.unwrap();
        host.draw(g.id, bob().id, OfferAction::Decline, None, NOW).await.unwrap();
        let again = refused!(host, host.draw(g.id, alice().id, OfferAction::Offer, None, NOW));
        assert_eq!(again, HostError::OfferedThisMove { id: g.id, kind: OfferKind::Draw });
        host.play(g.id, bob().id, "f4-f3", None, NOW).await.unwrap();
        host.draw(g.id, alice().id, OfferAction::Offer, None, NOW).await.unwrap();
    }
}

support::both! {
    /// A takeback accepted in the same second as a later decline: ordered by time, the two
    /// could not be told apart, and the declined offer could be made again at once.
    async fn a_takeback_before_a_decline_in_the_same_second_does_not_free_the_offer() {
        let host = host().await;
        let g = game(&host, "copenhagen").await;
        host.play(g.id, alice().id, "d1-d3", None, NOW).await.unwrap();
        host.takeback(g.id, alice().id, OfferAction::Offer, None, NOW).await.unwrap();
        host.takeback(g.id, bob().id, OfferAction::Accept, None, NOW).await.unwrap();
        host.draw(g.id, alice().id, OfferAction::Offer, None, NOW).await.unwrap();
        host.draw(g.id, bob().id, OfferAction::Decline, None, NOW).await.unwrap();
        let again = refused!(host, host.draw(g.id, alice().id, OfferAction::Offer, None, NOW));
        assert_eq!(again, HostError::OfferedThisMove { id: g.id, kind: OfferKind::Draw });
    }
}

support::both! {
    async fn moving_instead_of_answering_a_draw_offer_lets_it_lapse() {
        let host = host().await;
        let g = game(&host, "fetlar").await;
        host.draw(g.id, bob().id, OfferAction::Offer, None, NOW).await.unwrap();
        host.play(g.id, alice().id, "d1-d3", None, NOW).await.unwrap();
        assert!(matches!(
            refused!(host, host.draw(g.id, alice().id, OfferAction::Accept, None, NOW)),
            HostError::NoOffer { .. }
        ));
        // An offer made before one's own move stays for the opponent to answer.
        host.draw(g.id, bob().id, OfferAction::Offer, None, NOW).await.unwrap();
        host.play(g.id, bob().id, "f4-f3", None, NOW).await.unwrap();
        assert!(matches!(
            host.draw(g.id, alice().id, OfferAction::Accept, None, NOW).await.unwrap(),
            OfferOutcome::Accepted { .. }
        ));
    }
}

support::both! {
    async fn an_accepted_takeback_removes_the_requesters_last_move() {
        let host = host().await;
        let g = game(&host, "copenhagen").await;
        assert_eq!(
            refused!(host, host.takeback(g.id, alice().id, OfferAction::Offer, None, NOW)),
            HostError::NothingToTakeBack(g.id)
        );
        host.play(g.id, alice().id, "d1-d3", None, NOW).await.unwrap();
        assert_eq!(
            refused!(host, host.takeback(g.id, bob().id, OfferAction::Offer, None, NOW)),
            HostError::NothingToTakeBack(g.id)
        );
        host.takeback(g.id, alice().id, OfferAction::Offer, None, NOW).await.unwrap();
        assert!(matches!(
            refused!(host, host.takeback(g.id, alice().id, OfferAction::Accept, None, NOW)),
            HostError::OwnOffer { .. }
        ));
        let outcome = host.takeback(g.id, bob().id, OfferAction::Accept, None, NOW).await.unwrap();
        assert!(matches!(outcome, OfferOutcome::Accepted { plies_taken_back: 1, .. }));
        assert_eq!(outcome.game().ply, 0);
        assert_eq!(outcome.game().to_move, Side::Attackers);
        let moves: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM moves").fetch_one(host.db().pool()).await.unwrap();
        assert_eq!(moves, 0);
        host.play(g.id, alice().id, "h1-h3", Some(0), NOW).await.unwrap();
    }
}

support::both! {
    async fn a_draw_offer_lapses_when_a_takeback_changes_the_position_it_answered() {
        let host = host().await;
        let g = game(&host, "copenhagen").await;
        host.play(g.id, alice().id, "d1-d3", None, NOW).await.unwrap();
        host.play(g.id, bob().id, "f4-f3", None, NOW).await.unwrap();
        // Alice offers a draw and moves: her own offer stands after her move.
        host.draw(g.id, alice().id, OfferAction::Offer, None, NOW).await.unwrap();
        host.play(g.id, alice().id, "h1-h3", None, NOW).await.unwrap();
        // Bob takes back his move and her reply: the game is back before the offer.
        host.takeback(g.id, bob().id, OfferAction::Offer, None, NOW).await.unwrap();
        let outcome = host.takeback(g.id, alice().id, OfferAction::Accept, None, NOW).await.unwrap();
        assert!(matches!(outcome, OfferOutcome::Accepted { plies_taken_back: 2, .. }));
        assert!(host.board_state(g.id).await.unwrap().offers.is_empty(), "the board shows no offer");
        let refused = refused!(host, host.draw(g.id, bob().id, OfferAction::Accept, None, NOW));
        assert!(matches!(refused, HostError::NoOffer { .. }), "{refused:?}");
        assert!(host.show(g.id).await.unwrap().ending.is_none());
    }
}

support::both! {
    async fn a_board_from_before_a_takeback_is_refused_at_the_same_ply_by_its_moves_tag() {
        let host = host().await;
        let g = game(&host, "copenhagen").await;
        host.play(g.id, alice().id, "d1-d3", None, NOW).await.unwrap();
        // Bob's menus on this board carry its ply and the tag of its moves.
        let old = host.board_state(g.id).await.unwrap();
        let old_tag = tafl_bot::host::moves_tag(&old.history);
        host.board_to_move(g.id, bob().id, SeenBoard { ply: 1, tag: Some(old_tag) }).await.unwrap();
        host.takeback(g.id, alice().id, OfferAction::Offer, None, NOW).await.unwrap();
        host.takeback(g.id, bob().id, OfferAction::Accept, None, NOW).await.unwrap();
        host.play(g.id, alice().id, "h1-h3", None, NOW).await.unwrap();
        // Ply 1 again, another position: the old board's menus and moves are refused.
        let new = host.board_state(g.id).await.unwrap();
        let new_tag = tafl_bot::host::moves_tag(&new.history);
        assert_ne!(old_tag, new_tag);
        let stale = refused!(host, host.board_to_move(g.id, bob().id, SeenBoard { ply: 1, tag: Some(old_tag) }));
        assert!(matches!(stale, HostError::StaleBoard { .. }), "{stale:?}");
        let stale = refused!(host, host.play_on_board(g.id, bob().id, "f4-f3", Some(SeenBoard { ply: 1, tag: Some(old_tag) }), NOW, &mut |_, _, _| ()));
        assert!(matches!(stale, HostError::StaleBoard { .. }), "{stale:?}");
        // The current board's tag, or none (a menu drawn before tags), is taken.
        host.board_to_move(g.id, bob().id, SeenBoard { ply: 1, tag: Some(new_tag) }).await.unwrap();
        host.board_to_move(g.id, bob().id, SeenBoard::at_ply(1)).await.unwrap();
        host.play_on_board(g.id, bob().id, "f4-f3", Some(SeenBoard { ply: 1, tag: Some(new_tag) }), NOW, &mut |_, _, _| ()).await.unwrap();
    }
}

support::both! {
    async fn a_takeback_after_the_reply_removes_both_moves() {
        let host = host().await;
        let g = game(&host, "copenhagen").await;
        host.play(g.id, alice().id, "d1-d3", None, NOW).await.unwrap();
        host.play(g.id, bob().id, "f4-f3", None, NOW).await.unwrap();
        host.takeback(g.id, alice().id, OfferAction::Offer, None, NOW).await.unwrap();
        assert_eq!(
            refused!(host, host.takeback(g.id, bob().id, OfferAction::Offer, None, NOW)),
            HostError::TakebackPending { id: g.id }
        );
        let outcome = host.takeback(g.id, bob().id, OfferAction::Accept, None, NOW).await.unwrap();
        assert!(matches!(outcome, OfferOutcome::Accepted { plies_taken_back: 2, .. }));
        assert_eq!(host.show(g.id).await.unwrap().ply, 0);
    }
}

support::both! {
    async fn a_declined_takeback_changes_no_move_and_a_move_lapses_a_request() {
        let host = host().await;
        let g = game(&host, "copenhagen").await;
        host.play(g.id, alice().id, "d1-d3", None, NOW).await.unwrap();
        host.takeback(g.id, alice().id, OfferAction::Offer, None, NOW).await.unwrap();
        assert!(matches!(
            host.takeback(g.id, bob().id, OfferAction::Decline, None, NOW).await.unwrap(),
            OfferOutcome::Declined { .. }
        ));
        assert_eq!(host.show(g.id).await.unwrap().ply, 1);
        // Asking again before a move would only ping the opponent again.
        let again = refused!(host, host.takeback(g.id, alice().id, OfferAction::Offer, None, NOW));
        assert_eq!(again, HostError::OfferedThisMove { id: g.id, kind: OfferKind::Takeback });
        host.play(g.id, bob().id, "f4-f3", None, NOW).await.unwrap();
        host.takeback(g.id, alice().id, OfferAction::Offer, None, NOW).await.unwrap();
        host.play(g.id, alice().id, "h1-h3", None, NOW).await.unwrap();
        assert!(matches!(
            refused!(host, host.takeback(g.id, bob().id, OfferAction::Accept, None, NOW)),
            HostError::NoOffer { .. }
        ));
    }
}

support::both! {
    async fn running_out_of_time_loses_for_the_side_to_move() {
        let host = host().await;
        let g = game(&host, "copenhagen").await;
        host.play(g.id, alice().id, "d1-d3", None, NOW).await.unwrap();
        host.play(g.id, bob().id, "f4-f3", None, NOW).await.unwrap();
        host.play(g.id, alice().id, "h1-h3", None, NOW).await.unwrap();
        let finished = host.time_out(g.id, NOW + 86_400).await.unwrap();
        assert_eq!(finished.game.ending, Some(Ending { winner: Some(Side::Attackers), reason: EndReason::Time }));
        assert!(matches!(refused!(host, host.time_out(g.id, NOW)), HostError::GameOver { .. }));
    }
}

support::both! {
    async fn a_game_can_be_finished_for_every_reason() {
        let host = host().await;
        for reason in EndReason::ALL {
            let g = game(&host, "copenhagen").await;
            // A game without a result has no winner.
            let winner = if reason.has_result() { Some(Side::Defenders) } else { None };
            let ending = Ending { winner, reason };
            let finished = host.finish(g.id, ending, NOW).await.unwrap();
            assert_eq!(finished.game.ending, Some(ending));
            assert_eq!(host.show(g.id).await.unwrap().ending, Some(ending), "{reason} is stored and read back");
        }
    }
}

// ----- listing, autocomplete, records -----

support::both! {
    async fn a_players_games_list_says_whose_turn_it_is() {
        let host = host().await;
        let g1 = game(&host, "copenhagen").await;
        let g2 = game(&host, "brandubh").await;
        host.play(g2.id, alice().id, "d2-c2", None, NOW + 10).await.unwrap();
        let list = host.games(alice().id, false).await.unwrap();
        assert_eq!(list.iter().map(|s| s.id).collect::<Vec<_>>(), vec![g2.id, g1.id]);
        assert!(!list[0].my_turn());
        assert!(list[1].my_turn());
        assert_eq!(list[0].opponent, bob());
        assert!(host.games(carol().id, true).await.unwrap().is_empty());
    }
}

support::both! {
    async fn legal_moves_are_filtered_by_prefix_and_labelled() {
        let host = host().await;
        let g = game(&host, "copenhagen").await;
        let all = host.legal_moves(g.id, alice().id, "", 1000).await.unwrap();
        assert_eq!(all.len(), g.position.legal_moves().len());
        let d1 = host.legal_moves(g.id, alice().id, "D1 -", 1000).await.unwrap();
        assert!(!d1.is_empty());
        assert!(d1.iter().all(|c| c.notation.starts_with("d1")), "{d1:?}");
        assert!(d1.iter().any(|c| c.notation.starts_with("d1-")));
        assert_eq!(host.legal_moves(g.id, alice().id, "d1d3", 1000).await.unwrap()[0].notation, "d1-d3");
        assert_eq!(host.legal_moves(g.id, alice().id, "", 25).await.unwrap().len(), 25);
        assert!(matches!(host.legal_moves(g.id, bob().id, "", 25).await, Err(HostError::NotYourTurn { .. })));
        assert!(matches!(host.legal_moves(g.id, carol().id, "", 25).await, Err(HostError::NotAPlayer(_))));
    }
}

support::both! {
    async fn legal_moves_mark_captures_escapes_and_threats() {
        let host = host().await;
        let g = game(&host, "sea-battle-9").await;
        let moves = find_game(Variant::SeaBattle9, Reason::KingEscaped, 200);
        for (n, mv) in moves[..moves.len() - 1].iter().enumerate() {
            let user = if n % 2 == 0 { alice().id } else { bob().id };
            host.play(g.id, user, mv, None, NOW).await.unwrap();
        }
        let choices = host.legal_moves(g.id, bob().id, "", 25).await.unwrap();
        let escape = Some(MoveEffect::Wins(Reason::KingEscaped));
        assert_eq!(choices[0].effect, escape, "winning moves come first: {choices:?}");
        let last = moves.last().unwrap();
        assert!(choices.iter().any(|c| c.notation == last.split('x').next().unwrap() && c.effect == escape));
        // The label a front end shows says it.
        let english = tafl_bot::present::Lang::console("en");
        assert!(tafl_bot::present::text::move_label(&choices[0], english).ends_with("escape!"));
        // Captures and threats appear somewhere in a random game: check the label format on the way.
        let g = game(&host, "brandubh").await;
        let moves = find_game(Variant::Brandubh, Reason::KingCaptured, 200);
        let mut seen_capture = false;
        for (n, mv) in moves.iter().enumerate() {
            let user = if n % 2 == 0 { alice().id } else { bob().id };
            if let Some((from_to, caps)) = mv.split_once('x') {
                let choices = host.legal_moves(g.id, user, from_to, 5).await.unwrap();
                assert_eq!(choices[0].notation, from_to);
                let claimed: Vec<String> = caps.split('x').map(str::to_owned).collect();
                let found: Vec<String> = choices[0].captures.iter().map(ToString::to_string).collect();
                assert_eq!(found, claimed, "{choices:?}");
                let label = tafl_bot::present::text::move_label(&choices[0], tafl_bot::present::Lang::console("en"));
                assert!(label.starts_with(&format!("{from_to} x {}", claimed.join("/"))), "{label}");
                seen_capture = true;
            }
            host.play(g.id, user, mv, None, NOW).await.unwrap();
        }
        assert!(seen_capture);
    }
}

support::both! {
    async fn an_exported_record_imports_back_as_the_same_finished_game() {
        let host = host().await;
        let g = game(&host, "brandubh").await;
        let moves = find_game(Variant::Brandubh, Reason::KingCaptured, 200);
        for (n, mv) in moves.iter().enumerate() {
            let user = if n % 2 == 0 { alice().id } else { bob().id };
            host.play(g.id, user, mv, None, NOW).await.unwrap();
        }
        let record = host.export(g.id).await.unwrap();
        assert!(record.contains("[attackers:alice]"), "{record}");
        assert!(record.contains("[result:1]"), "{record}");
        assert!(record.contains("[termination:king_captured]"), "{record}");
        let imported = host.import(&record, &carol(), &bob(), PLACE, NOW).await.unwrap();
        assert!(imported.imported);
        assert_eq!(imported.variant, "brandubh");
        assert_eq!(imported.ply, moves.len());
        assert_eq!(imported.ending, host.show(g.id).await.unwrap().ending);
        assert_eq!(imported.position, host.show(g.id).await.unwrap().position);
        // The record has no dates: its summary claims no duration (the import took none).
        assert_eq!(host.summary(imported.id).await.unwrap().duration, None);
        assert!(host.summary(g.id).await.unwrap().duration.is_some());
    }
}

support::both! {
    async fn a_resigned_game_exports_and_imports_with_its_resignation() {
        let host = host().await;
        let g = game(&host, "copenhagen").await;
        host.play(g.id, alice().id, "d1-d3", None, NOW).await.unwrap();
        host.resign(g.id, bob().id, None, NOW).await.unwrap();
        let record = host.export(g.id).await.unwrap();
        assert!(record.trim_end().ends_with("---"), "{record}");
        let imported = host.import(&record, &alice(), &bob(), PLACE, NOW).await.unwrap();
        assert_eq!(imported.ending, Some(Ending { winner: Some(Side::Attackers), reason: EndReason::Resignation }));
    }
}

support::both! {
    async fn an_ongoing_game_exports_with_an_unknown_result() {
        let host = host().await;
        let g = game(&host, "copenhagen").await;
        host.play(g.id, alice().id, "d1-d3", None, NOW).await.unwrap();
        let record = host.export(g.id).await.unwrap();
        assert!(record.contains("[result:?]"));
        assert!(record.contains("1. d1-d3"));
    }
}

support::both! {
    async fn records_that_are_broken_or_unfinished_are_refused() {
        let host = host().await;
        let error = refused!(host, host.import("nonsense", &alice(), &bob(), PLACE, NOW));
        assert!(said(&error).starts_with("The OTN game record cannot be read at line 1"), "{error}");
        let rules = tafl_rules::otn::rules_string(&Variant::Copenhagen.rules());
        let unfinished = format!("[rules:{rules}]\n1. d1-d3\n");
        let error = refused!(host, host.import(&unfinished, &alice(), &bob(), PLACE, NOW));
        assert!(said(&error).contains("does not say how the game ended"), "{error}");
        let illegal = format!("[rules:{rules}]\n1. d1-e3\n---\n");
        let error = refused!(host, host.import(&illegal, &alice(), &bob(), PLACE, NOW));
        assert!(said(&error).contains("Ply 1 of the record cannot be played"), "{error}");
        let huge = "ж".repeat(2_000_000);
        refused!(host, host.import(&huge, &alice(), &bob(), PLACE, NOW));
    }
}

support::both! {
    async fn a_record_with_a_result_tag_imports_as_a_draw_by_agreement() {
        let host = host().await;
        let rules = tafl_rules::otn::rules_string(&Variant::Fetlar.rules());
        let record = format!("[result:0]\n[rules:{rules}]\n1. d1-d3 f4-f3\n");
        let imported = host.import(&record, &alice(), &bob(), PLACE, NOW).await.unwrap();
        assert_eq!(imported.ending, Some(Ending { winner: None, reason: EndReason::Agreement }));
        assert_eq!(imported.variant, "fetlar");
        // A termination that cannot end a game so is not taken at its word: a win is by
        // resignation, not agreement; a draw by agreement, not resignation.
        let won = format!("[result:1]\n[termination:agreement]\n[rules:{rules}]\n1. d1-d3 f4-f3\n");
        let imported = host.import(&won, &alice(), &bob(), PLACE, NOW).await.unwrap();
        assert_eq!(imported.ending, Some(Ending { winner: Some(Side::Attackers), reason: EndReason::Resignation }));
        let drawn = format!("[result:0]\n[termination:resignation]\n[rules:{rules}]\n1. d1-d3 f4-f3\n");
        let imported = host.import(&drawn, &alice(), &bob(), PLACE, NOW).await.unwrap();
        assert_eq!(imported.ending, Some(Ending { winner: None, reason: EndReason::Agreement }));
        // A result tag naming a different winner from the moves or the end marker: refused.
        let timeout = format!("[result:1]\n[rules:{rules}]\n1. d1-d3 f4-f3\ntimeout\n");
        let error = refused!(host, host.import(&timeout, &alice(), &bob(), PLACE, NOW));
        assert_eq!(said(&error), "The record's result tag names a different winner from its moves; correct the tag or leave it out.");
    }
}

support::both! {
    async fn the_database_survives_reopening() {
        let path = support::temp_path("reopen");
        let id = {
            let host = tafl_bot::host::Host::new(tafl_bot::store::Db::open_file(&path).await.unwrap());
            let g = game(&host, "copenhagen").await;
            host.play(g.id, alice().id, "d1-d3", None, NOW).await.unwrap();
            host.db().close().await;
            g.id
        };
        let host = tafl_bot::host::Host::new(tafl_bot::store::Db::open_file(&path).await.unwrap());
        assert_eq!(host.show(id).await.unwrap().ply, 1);
        host.play(id, bob().id, "f4-f3", Some(1), NOW).await.unwrap();
    }
}

support::both! {
    async fn a_game_whose_move_text_cache_is_stale_loads_from_the_move_list() {
        let host = host().await;
        let g = game(&host, "copenhagen").await;
        host.play(g.id, alice().id, "d1-d3", None, NOW).await.unwrap();
        host.play(g.id, bob().id, "f4-f3", None, NOW).await.unwrap();
        let cached: String = sqlx::query_scalar("SELECT movetext FROM games WHERE id = $1")
            .bind(g.id)
            .fetch_one(host.db().pool())
            .await
            .unwrap();
        assert_eq!(cached, "d1-d3 f4-f3");
        // As a game written before the cache existed.
        sqlx::query("UPDATE games SET movetext = '' WHERE id = $1").bind(g.id).execute(host.db().pool()).await.unwrap();
        assert_eq!(host.show(g.id).await.unwrap().ply, 2);
        let played = host.play(g.id, alice().id, "h1-h3", Some(2), NOW).await.unwrap();
        assert_eq!(played.game.ply, 3);
    }
}

support::both! {
    async fn a_takeback_rewrites_the_move_text_cache() {
        let host = host().await;
        let g = game(&host, "copenhagen").await;
        host.play(g.id, alice().id, "d1-d3", None, NOW).await.unwrap();
        host.play(g.id, bob().id, "f4-f3", None, NOW).await.unwrap();
        host.takeback(g.id, bob().id, OfferAction::Offer, None, NOW).await.unwrap();
        host.takeback(g.id, alice().id, OfferAction::Accept, None, NOW).await.unwrap();
        let cached: String = sqlx::query_scalar("SELECT movetext FROM games WHERE id = $1")
            .bind(g.id)
            .fetch_one(host.db().pool())
            .await
            .unwrap();
        assert_eq!(cached, "d1-d3");
    }
}

support::both! {
    async fn reading_or_exporting_a_missing_game_is_refused() {
        let host = host().await;
        assert_eq!(host.show(7).await.unwrap_err(), HostError::NoSuchGame(7));
        assert_eq!(host.export(7).await.unwrap_err(), HostError::NoSuchGame(7));
        assert_eq!(host.legal_moves(7, alice().id, "", 25).await.unwrap_err(), HostError::NoSuchGame(7));
        assert_eq!(refused!(host, host.resign(7, alice().id, None, NOW)), HostError::NoSuchGame(7));
        assert_eq!(refused!(host, host.time_out(7, NOW)), HostError::NoSuchGame(7));
    }
}

support::both! {
    async fn offers_in_someone_elses_or_a_finished_game_are_refused() {
        let host = host().await;
        let g = game(&host, "copenhagen").await;
        host.play(g.id, alice().id, "d1-d3", None, NOW).await.unwrap();
        assert_eq!(
            refused!(host, host.takeback(g.id, carol().id, OfferAction::Offer, None, NOW)),
            HostError::NotAPlayer(g.id)
        );
        assert_eq!(
            refused!(host, host.draw(g.id, carol().id, OfferAction::Decline, None, NOW)),
            HostError::NotAPlayer(g.id)
        );
        host.resign(g.id, alice().id, None, NOW).await.unwrap();
        assert!(matches!(
            refused!(host, host.takeback(g.id, alice().id, OfferAction::Offer, None, NOW)),
            HostError::GameOver { .. }
        ));
        assert!(matches!(host.legal_moves(g.id, bob().id, "", 25).await, Err(HostError::GameOver { .. })));
        assert!(matches!(
            refused!(host, host.finish(g.id, Ending { winner: None, reason: EndReason::Agreement }, NOW)),
            HostError::GameOver { .. }
        ));
    }
}

support::both! {
    async fn an_expired_challenge_cannot_be_declined_or_cancelled() {
        let host = host().await;
        let c = host.challenge(&request(&alice(), Some(&bob()), "copenhagen", SideChoice::Random), NOW).await.unwrap();
        assert_eq!(refused!(host, host.decline(c.id, bob().id, c.expires_at)), HostError::ChallengeExpired { id: c.id });
        assert_eq!(refused!(host, host.cancel(c.id, alice().id, c.expires_at)), HostError::ChallengeExpired { id: c.id });
    }
}

support::both! {
    async fn a_record_with_rules_of_no_preset_imports_as_a_custom_game_that_replays() {
        let host = host().await;
        // Tablut with shieldwalls: no preset, with any options, plays so.
        let rules = tafl_rules::Rules {
            shieldwall: tafl_rules::Shieldwall::On { corners_may_close: true },
            ..Variant::Tablut.rules()
        };
        let text = tafl_rules::otn::rules_string(&rules);
        let record = format!("[variant:tablut]\n[rules:{text}]\n1. d1-d3 e3-f3\n---\n");
        let imported = host.import(&record, &alice(), &bob(), PLACE, NOW).await.unwrap();
        assert_eq!((imported.variant.as_str(), imported.options.as_str()), ("custom", ""));
        assert_eq!(imported.position.rules(), &rules);
        assert_eq!(imported.ending, Some(Ending { winner: Some(Side::Defenders), reason: EndReason::Resignation }));
        let exported = host.export(imported.id).await.unwrap();
        assert!(exported.contains(&format!("[rules:{text}]")), "{exported}");
    }
}

support::both! {
    async fn a_record_of_a_preset_with_an_option_imports_as_that_preset_when_its_tags_say_so() {
        let host = host().await;
        let rules = Variant::Tablut.rules_with_texts(&["king_armed=false"]).unwrap();
        let text = tafl_rules::otn::rules_string(&rules);
        let record = format!("[variant:tablut]\n[options:king_armed=false]\n[rules:{text}]\n1. d1-d3 e3-f3\n---\n");
        let imported = host.import(&record, &alice(), &bob(), PLACE, NOW).await.unwrap();
        assert_eq!((imported.variant.as_str(), imported.options.as_str()), ("tablut", "king_armed=false"));
        assert!(!imported.position.rules().king_armed);
        assert_eq!(imported.ending, Some(Ending { winner: Some(Side::Defenders), reason: EndReason::Resignation }));
        let exported = host.export(imported.id).await.unwrap();
        assert!(exported.contains("[variant:tablut]\n") && exported.contains("[options:king_armed=false]\n"), "{exported}");
        assert!(exported.contains(&format!("[rules:{text}]")), "{exported}");
        // The same rules without the tags are no preset's own: a custom game.
        let record = format!("[rules:{text}]\n1. d1-d3 e3-f3\n---\n");
        let imported = host.import(&record, &alice(), &bob(), PLACE, NOW).await.unwrap();
        assert_eq!(imported.variant, "custom");
    }
}

support::both! {
    async fn an_imported_record_may_start_from_a_custom_position() {
        let host = host().await;
        let rules = tafl_rules::otn::rules_string(&Variant::Brandubh.rules());
        let record = format!(
            "[position:/7/3t3/3T3/ttTK1tt/3T3/3t3/7/]\n[to-move:defenders]\n[rules:{rules}]\n1. d4-e4\n[result:-1]\n"
        );
        let error = host.import(&record, &alice(), &bob(), PLACE, NOW).await;
        // Tags after the moves are not OTN; whatever the parser says, nothing panics and the
        // message is one sentence.
        if let Err(error) = error {
            assert!(!said(&error).contains('\n'));
        }
        let record = format!(
            "[result:-1]\n[position:/7/3t3/3T3/ttTK1tt/3T3/3t3/7/]\n[to-move:defenders]\n[rules:{rules}]\n1. d4-e4\n"
        );
        let imported = host.import(&record, &alice(), &bob(), PLACE, NOW).await.unwrap();
        assert_eq!(imported.ply, 1);
        assert_eq!(imported.to_move, Side::Attackers);
        assert_eq!(host.show(imported.id).await.unwrap().position, imported.position);
    }
}

support::both! {
    async fn a_servers_language_is_read_once_and_changes_made_here_are_seen_at_once() {
        let host = host().await;
        let guild = 77;
        host.note_caller(&alice(), Some("en-US"), Some(guild), Some("ru"), &[], NOW).await.unwrap();
        let language = host.server_language(guild).await.unwrap();
        assert_eq!((language.discord.as_deref(), language.chosen.as_deref()), (Some("ru"), None));
        // Changed behind this process's back: the remembered language answers, without a read.
        sqlx::query("UPDATE servers SET language = 'de' WHERE id = $1").bind(guild).execute(host.db().pool()).await.unwrap();
        assert_eq!(host.server_language(guild).await.unwrap().chosen, None);
        // Changes made through the host are seen at once.
        host.set_server_language(guild, Some("en"), NOW).await.unwrap();
        assert_eq!(host.server_language(guild).await.unwrap().chosen.as_deref(), Some("en"));
        host.note_caller(&alice(), Some("en-US"), Some(guild), Some("uk"), &[], NOW).await.unwrap();
        let language = host.server_language(guild).await.unwrap();
        assert_eq!((language.discord.as_deref(), language.chosen.as_deref()), (Some("uk"), Some("en")));
        host.set_server_language(guild, None, NOW).await.unwrap();
        assert_eq!(host.server_language(guild).await.unwrap().code(), Some("uk"));
    }
}

support::both! {
    async fn a_locale_reported_before_the_person_is_recorded_is_kept_once_they_are() {
        let host = host().await;
        let newcomer = tafl_bot::host::User::new(555, "newcomer");
        host.note_caller(&newcomer, Some("ru"), None, None, &[], NOW).await.unwrap();
        assert_eq!(host.user_locale(newcomer.id).await.unwrap(), None, "nobody to keep it on yet");
        host.remember_user(&newcomer, NOW).await.unwrap();
        host.note_caller(&newcomer, Some("ru"), None, None, &[], NOW).await.unwrap();
        assert_eq!(host.user_locale(newcomer.id).await.unwrap().as_deref(), Some("ru"));
    }
}

support::both! {
    async fn a_player_who_changes_their_name_is_shown_by_the_new_one_from_their_next_interaction() {
        let host = host().await;
        let game = game(&host, "brandubh").await;
        host.note_caller(&User::new(alice().id, "Alicia\u{7}"), Some("en-US"), None, None, &[], NOW + 1).await.unwrap();
        let view = host.show(game.id).await.unwrap();
        assert_eq!(view.attacker.name, "Alicia", "cleaned like every stored name");
        // The same name again writes nothing: the row's last change stays where it was.
        let changed = || async {
            let at: i64 = sqlx::query_scalar("SELECT updated_at FROM users WHERE id = $1")
                .bind(alice().id)
                .fetch_one(host.db().pool())
                .await
                .unwrap();
            at
        };
        assert_eq!(changed().await, NOW + 1);
        host.note_caller(&User::new(alice().id, "Alicia"), Some("en-US"), None, None, &[], NOW + 2).await.unwrap();
        assert_eq!(changed().await, NOW + 1);
        // Someone never recorded gets no row from an interaction alone.
        host.note_caller(&User::new(556, "passer-by"), Some("ru"), None, None, &[], NOW).await.unwrap();
        let rows: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM users WHERE id = 556").fetch_one(host.db().pool()).await.unwrap();
        assert_eq!(rows, 0);
    }
}

support::both! {
    async fn a_server_names_its_players_as_it_calls_them_and_everywhere_else_their_display_names_show() {
        let host = host().await;
        let game = game(&host, "brandubh").await;
        host.play(game.id, alice().id, "d2-c2", None, NOW + 2).await.unwrap();
        host.play(game.id, bob().id, "d3-c3", None, NOW + 3).await.unwrap();
        // Alice's nickname on the game's server, cleaned like every stored name; Bob has none.
        let names = [(alice().id, Some(" Саша\u{7} ")), (bob().id, None)];
        host.note_caller(&alice(), None, Some(PLACE.guild), None, &names, NOW + 4).await.unwrap();
        let view = host.show(game.id).await.unwrap();
        assert_eq!((view.attacker.name.as_str(), view.defender.name.as_str()), ("Саша", "bob"));
        host.resign(game.id, bob().id, None, NOW + 5).await.unwrap();
        let summary = host.summary(game.id).await.unwrap();
        assert_eq!(summary.game.attacker.name, "Саша");
        let rated: Vec<&str> = summary.rating_changes.iter().map(|c| c.user.name.as_str()).collect();
        assert_eq!(rated, ["Саша", "bob", "Саша", "bob"], "the game's server names her in every scope it rated");
        let board = |guild| {
            let host = host.clone();
            async move {
                let board = host.leaderboard("brandubh", guild, 10, NOW + 6).await.unwrap();
                board.entries.iter().map(|e| e.user.name.clone()).collect::<Vec<_>>()
            }
        };
        assert_eq!(board(Some(PLACE.guild)).await, ["Саша", "bob"]);
        assert_eq!(board(None).await, ["alice", "bob"], "the global board is no server's");
        assert_eq!(host.profile(alice().id, Some(PLACE.guild), NOW + 6).await.unwrap().user.name, "Саша");
        assert_eq!(host.profile(alice().id, None, NOW + 6).await.unwrap().user.name, "alice");
        // Another server knows her by her display name, and a challenge there says so.
        let elsewhere = tafl_bot::host::Place { guild: 9, ..PLACE };
        let mut req = request(&alice(), Some(&bob()), "brandubh", SideChoice::Attackers);
        req.place = elsewhere;
        assert_eq!(host.challenge(&req, NOW + 7).await.unwrap().challenger.name, "alice");
        req.place = PLACE;
        assert_eq!(host.challenge(&req, NOW + 7).await.unwrap().challenger.name, "Саша");
        // A nickname of only spaces is none, and none gives her display name back.
        host.note_caller(&alice(), None, Some(PLACE.guild), None, &[(alice().id, Some("  "))], NOW + 8).await.unwrap();
        assert_eq!(host.show(game.id).await.unwrap().attacker.name, "alice");
        let rows: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM member_names").fetch_one(host.db().pool()).await.unwrap();
        assert_eq!(rows, 0);
        // Outside a server nobody has a server's name.
        host.note_caller(&alice(), None, None, None, &[(alice().id, Some("Саша"))], NOW + 9).await.unwrap();
        assert_eq!(host.show(game.id).await.unwrap().attacker.name, "alice");
    }
}

support::both! {
    async fn a_name_written_by_another_process_is_overwritten_once_this_ones_memory_expires() {
        let (one, two) = support::two_dbs().await;
        let (one, two) = (Host::new(one), Host::new(two));
        let game = game(&one, "brandubh").await;
        let name = |host: Host| async move { host.show(game.id).await.unwrap().attacker.name };
        let alicia = User::new(alice().id, "Alicia");
        one.note_caller(&alicia, None, None, None, &[], NOW + 1).await.unwrap();
        // Renamed back while talking to the other process, and then to this one again.
        two.note_caller(&alice(), None, None, None, &[], NOW + 2).await.unwrap();
        one.note_caller(&alicia, None, None, None, &[], NOW + 3).await.unwrap();
        assert_eq!(name(one.clone()).await, "alice", "this one remembers writing Alicia: no write");
        // Once its memory expires, it writes again.
        let one = one.with_noted_ttl(std::time::Duration::ZERO);
        one.note_caller(&alicia, None, None, None, &[], NOW + 4).await.unwrap();
        assert_eq!(name(one).await, "Alicia");
    }
}

support::both! {
    async fn a_thread_closed_to_the_bot_is_left_only_when_the_bot_opened_it() {
        let host = host().await;
        // The bot opened this game's thread under its board.
        let opened = game(&host, "brandubh").await;
        host.set_thread(opened.id, 70, NOW).await.unwrap();
        // This one was challenged in a thread people opened.
        let mut req = request(&alice(), Some(&bob()), "brandubh", SideChoice::Attackers);
        req.place = tafl_bot::host::Place { thread: Some(80), ..PLACE };
        let c = host.challenge(&req, NOW).await.unwrap();
        let theirs = host.accept(c.id, &bob(), NOW).await.unwrap().game;
        assert_eq!(theirs.place.thread, Some(80));

        // Closed to the bot: only the bot's own thread hands its game to the channel.
        assert!(!host.leave_thread(theirs.id, true, NOW).await.unwrap());
        assert_eq!(host.show(theirs.id).await.unwrap().place.thread, Some(80));
        assert!(host.leave_thread(opened.id, true, NOW).await.unwrap());
        assert_eq!(host.show(opened.id).await.unwrap().place.thread, None);
        // Deleted: any thread is forgotten, once.
        assert!(host.leave_thread(theirs.id, false, NOW).await.unwrap());
        assert!(!host.leave_thread(theirs.id, false, NOW).await.unwrap());
        assert_eq!(host.show(theirs.id).await.unwrap().place.thread, None);
    }
}

support::both! {
    async fn a_new_board_is_refused_to_a_stranger_and_for_a_finished_game() {
        // The front end checks both from a read made before this call: a game that ended in
        // between got a second, final board, and a stranger could post one for a game they do
        // not play from any other front end.
        let host = host().await;
        let g = game(&host, "brandubh").await;
        let stranger = refused!(host, host.request_board(g.id, carol().id, NOW + 2));
        assert!(matches!(stranger, HostError::NotAPlayer(id) if id == g.id), "{stranger:?}");
        host.request_board(g.id, bob().id, NOW + 2).await.unwrap();
        host.resign(g.id, alice().id, None, NOW + 3).await.unwrap();
        let over = refused!(host, host.request_board(g.id, alice().id, NOW + 4));
        assert!(matches!(over, HostError::GameOver { id } if id == g.id), "{over:?}");
    }
}

// `/tafl board` asked again and again (a double tap, an impatient player) posted a board per
// request, each leaving the one before it behind without its controls: a player's repeats now
// post one board, and are answered with it while it is new.
support::both! {
    async fn a_players_repeated_requests_for_a_new_board_post_one() {
        use tafl_bot::host::outbox::NEW_BOARD_REPEAT_SECS;
        use tafl_bot::host::{BoardRequest, Show};
        let host = host().await;
        let g = game(&host, "brandubh").await;
        support::drain(&host, NOW).await;
        assert_eq!(host.request_board(g.id, alice().id, NOW).await.unwrap(), BoardRequest::Asked);
        assert_eq!(host.request_board(g.id, alice().id, NOW).await.unwrap(), BoardRequest::AlreadyAsked);
        // Bob's is his own (drawn in his style), not a repeat of Alice's.
        assert_eq!(host.request_board(g.id, bob().id, NOW).await.unwrap(), BoardRequest::Asked);
        let lane = format!("game:{}", g.id);
        let mut posted = 900;
        while let Some(item) = host.outbox_head(&lane, NOW).await.unwrap() {
            if matches!(item.show, Show::NewBoard { .. }) {
                posted += 1;
                host.replace_board(g.id, 2, posted, None, None, BoardStyle::default(), NOW).await.unwrap();
            }
            host.delivered(item.id, Some(posted), NOW).await.unwrap();
        }
        assert_eq!(posted, 902, "two boards posted: Alice's and Bob's");
        // Alice's board is no longer the game's (Bob's came after it): she gets a new one.
        assert_eq!(host.request_board(g.id, alice().id, NOW + 1).await.unwrap(), BoardRequest::Asked);
        // Bob's is, and new: he is shown it.
        let just = BoardRequest::JustPosted { channel: 2, message: 902 };
        assert_eq!(host.request_board(g.id, bob().id, NOW + NEW_BOARD_REPEAT_SECS).await.unwrap(), just);
        // A while later it may have scrolled away: a new one.
        assert_eq!(host.request_board(g.id, bob().id, NOW + NEW_BOARD_REPEAT_SECS + 1).await.unwrap(), BoardRequest::Asked);
    }
}

// ----- a channel deleted under its games -----

/// The items recorded in `game`'s lane and not yet delivered.
async fn pending_in(host: &Host, game: tafl_bot::host::GameId) -> Vec<tafl_bot::host::Show> {
    let lane = tafl_bot::host::outbox::game_lane(game);
    let mut shown = Vec::new();
    while let Some(item) = host.outbox_head(&lane, NOW).await.unwrap() {
        shown.push(item.show.clone());
        host.delivered(item.id, None, NOW).await.unwrap();
    }
    shown
}

// A moderator deletes a channel with games going on: they went on unseen, every board and notice
// refused there. Each is now recorded as having no channel, once, with a notice for its players.
support::both! {
    async fn a_deleted_channel_leaves_its_games_and_its_threads_games_without_one_and_says_so_once() {
        use tafl_bot::host::{Due, Place, Show};
        let host = host().await;
        let mut timed = request(&alice(), Some(&bob()), "brandubh", SideChoice::Attackers);
        timed.clock = Some("1h".parse().unwrap());
        let c = host.challenge(&timed, NOW).await.unwrap();
        let here = host.accept(c.id, &bob(), NOW + 1).await.unwrap().game;
        // A game challenged in a thread people opened under the channel goes with it.
        let mut in_thread = request(&alice(), Some(&carol()), "brandubh", SideChoice::Attackers);
        in_thread.place = Place { thread: Some(80), ..PLACE };
        let c = host.challenge(&in_thread, NOW).await.unwrap();
        let threaded = host.accept(c.id, &carol(), NOW + 1).await.unwrap().game;
        let mut other = request(&bob(), Some(&carol()), "brandubh", SideChoice::Attackers);
        other.place = Place { channel: 3, ..PLACE };
        let c = host.challenge(&other, NOW).await.unwrap();
        let elsewhere = host.accept(c.id, &carol(), NOW + 1).await.unwrap().game;
        let over = game(&host, "brandubh").await;
        host.resign(over.id, alice().id, None, NOW + 2).await.unwrap();
        support::drain(&host, NOW + 2).await;

        let marked = host.channel_deleted(PLACE.channel, NOW + 10).await.unwrap();
        assert_eq!(marked, vec![here.id, threaded.id], "the games going on in the channel and its threads");
        for id in [here.id, threaded.id] {
            assert!(host.show(id).await.unwrap().channel_gone, "game {id}");
            assert_eq!(pending_in(&host, id).await, vec![Show::ChannelGone { game: id }], "game {id}");
        }
        assert!(!host.show(elsewhere.id).await.unwrap().channel_gone);
        assert!(pending_in(&host, elsewhere.id).await.is_empty());
        assert!(pending_in(&host, over.id).await.is_empty(), "a finished game has nothing to move");
        let listed = host.games(alice().id, false).await.unwrap();
        assert!(listed.iter().all(|g| g.channel_gone), "{listed:?}");

        // The event and a post refused there afterwards (or a second process) mark nothing twice.
        assert!(host.channel_deleted(PLACE.channel, NOW + 11).await.unwrap().is_empty());
        assert!(pending_in(&host, here.id).await.is_empty(), "its players are told once");

        // The game goes on, its clock too: a move by command is played, and the clock runs out.
        let deadline = host.show(here.id).await.unwrap().deadline_at.expect("a timed game");
        assert_eq!(deadline, NOW + 1 + 3_600, "not paused");
        let played = host.play(here.id, alice().id, "d2-c2", None, NOW + 20).await.unwrap();
        assert!(played.game.channel_gone, "a move does not bring the channel back");
        let found = support::run(&host, NOW + 30, NOW + 2 * 3_600, 60).await;
        let timed_out = found.iter().find_map(|(at, due)| match due {
            Due::TimedOut(finished) if finished.game.id == here.id => Some(*at),
            _ => None,
        });
        assert!(timed_out.is_some_and(|at| at <= NOW + 20 + 3_600 + 60), "{found:?}");
    }
}

// `/tafl board` of a game whose channel was deleted answered "posted" and posted nothing: the
// board went to the deleted channel. Asked in a channel of its server where games are allowed,
// it now moves the game there; anywhere else it is refused, and nothing changes.
support::both! {
    async fn a_new_board_of_a_game_without_a_channel_moves_it_where_a_player_asks_for_it() {
        use tafl_bot::host::{BoardRequest, Place, ServerSettings, Show};
        let host = host().await;
        let g = game(&host, "brandubh").await;
        host.set_thread(g.id, 70, NOW + 1).await.unwrap();
        let finished = game(&host, "brandubh").await;
        host.resign(finished.id, alice().id, None, NOW + 1).await.unwrap();
        let allowed = Place { guild: PLACE.guild, channel: 5, thread: None };
        let settings = ServerSettings { channels: vec![allowed.channel], ..ServerSettings::default() };
        host.set_server_settings(PLACE.guild, &settings, NOW + 1).await.unwrap();
        host.channel_deleted(PLACE.channel, NOW + 2).await.unwrap();
        support::drain(&host, NOW + 2).await;

        let nowhere = refused!(host, host.request_board(g.id, bob().id, NOW + 3));
        assert_eq!(nowhere, HostError::ChannelGone { id: g.id });
        assert!(said(&nowhere).contains("channel was deleted"), "{}", said(&nowhere));
        let other_server = Place { guild: 9, ..allowed };
        let error = refused!(host, host.request_board_at(g.id, bob().id, Some(other_server), NOW + 3));
        assert_eq!(error, HostError::ChannelGone { id: g.id });
        let closed = Place { channel: 6, ..allowed };
        let error = refused!(host, host.request_board_at(g.id, bob().id, Some(closed), NOW + 3));
        assert_eq!(error, HostError::ChannelNotAllowed);
        let error = refused!(host, host.request_board_at(g.id, carol().id, Some(allowed), NOW + 3));
        assert_eq!(error, HostError::NotAPlayer(g.id));
        assert!(pending_in(&host, g.id).await.is_empty(), "no refusal records anything");

        // Bob moves it: its board goes there, and Alice, to move, is told there.
        assert_eq!(host.request_board_at(g.id, bob().id, Some(allowed), NOW + 4).await.unwrap(), BoardRequest::Moved);
        let moved = host.show(g.id).await.unwrap();
        assert_eq!((moved.place, moved.channel_gone), (allowed, false));
        assert_eq!(host.own_thread(g.id).await.unwrap(), None, "the old thread is forgotten");
        assert_eq!(
            pending_in(&host, g.id).await,
            vec![Show::NewBoard { game: g.id, by: bob().id }, Show::YourMove { game: g.id, ply: 0, after_takeback: false, again: false }]
        );
        // From now on it is an ordinary game of its new channel.
        assert!(host.channel_deleted(PLACE.channel, NOW + 5).await.unwrap().is_empty());
        let again = host.request_board_at(g.id, alice().id, Some(closed), NOW + 5).await.unwrap();
        assert_eq!(again, BoardRequest::Asked, "a board of a game with a channel goes where it is played");
        assert_eq!(host.show(g.id).await.unwrap().place, allowed);
        let over = refused!(host, host.request_board_at(finished.id, alice().id, Some(allowed), NOW + 5));
        assert_eq!(over, HostError::GameOver { id: finished.id });
    }
}
