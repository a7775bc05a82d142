//! The real bot (the same `discord::serve` that `tafl-bot run` uses) against the fake Discord.
//! What the answers say is checked in English and Russian; the transport (TLS, rate limits,
//! server errors, a dropped gateway) is the same in any language and checked once.

use std::path::PathBuf;
use tafl_bot::present::text::{self, Refusal};

use serde_json::{Value, json};
use tafl_e2e::fake_discord::{APPLICATION_ID, FakeDiscord, Fault, Recorded, in_guild};
use tafl_e2e::harness::{TestBot, temp_dir};
use tafl_e2e::in_english_and_russian;
use tafl_rules::Variant;

in_english_and_russian!(
    tafl_variants_answers_with_all_twelve_presets,
    tafl_variants_answers_in_a_server_channel_too,
    tafl_rules_answers_with_the_rules_and_the_start_position_as_a_png,
    the_rules_answer_is_shown_in_the_channel_with_its_board,
    the_variant_option_autocompletes_from_what_is_typed,
);

/// `english` or `russian`, as `locale` speaks.
fn says<'w>(locale: &str, english: &'w str, russian: &'w str) -> &'w str {
    if locale.starts_with("en") { english } else { russian }
}

/// Checks that a Russian answer has no English prose in it (the OTN rules string is notation).
fn assert_no_english(locale: &str, text: &str) {
    if !locale.starts_with("en") {
        let english = tafl_bot::present::check::english_words(text, &["OTN"]);
        assert!(english.is_empty(), "English in a {locale} answer: {english:?}\n{text}");
    }
}

/// A bot served in this process, with its own database file, removed when it stops.
struct Bot {
    bot: TestBot,
    dir: PathBuf,
}

impl Bot {
    /// Through `DISCORD_API_BASE` (plain HTTP, serenity's rate limiter off), or through
    /// `DISCORD_API_RESOLVE` + `DISCORD_API_CA` when the fake speaks TLS.
    fn start(fake: &FakeDiscord, guild: Option<u64>) -> Bot {
        let dir = temp_dir("discord");
        Bot { bot: TestBot::start_in(fake, &dir, guild), dir }
    }

    /// Asks the bot to stop and checks that it stopped cleanly and promptly.
    async fn stop(self) {
        self.bot.stop().await;
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn embed_of(callback: &Recorded) -> &Value {
    let json = callback.json.as_ref().expect("the callback has a JSON body");
    assert_eq!(json["type"], 4, "an immediate message answer: {json}");
    &json["data"]["embeds"][0]
}

async fn tafl_variants_answers_with_all_twelve_presets(locale: &'static str) {
    let fake = FakeDiscord::start().await;
    let bot = Bot::start(&fake, None);
    fake.wait_until_ready().await;

    let interaction = fake.push_interaction(fake.slash_command("tafl", "variants", &json!([]), 42, locale));
    let callback = fake.wait_for("the answer to /tafl variants", |r| r.path == interaction.callback_path()).await;

    let embed = embed_of(&callback);
    assert_eq!(embed["title"], says(locale, "Tafl variants", "Варианты тафла"));
    let corner = says(locale, "king escapes to a corner", "король уходит в угол");
    assert!(embed["description"].as_str().unwrap().contains(corner), "{embed}");
    assert_no_english(locale, &format!("{}\n{}", embed["title"], embed["description"]));
    let paths: Vec<String> = fake.requests().iter().map(|r| format!("{} {}", r.method, r.path)).collect();
    assert!(fake.unknown_requests().is_empty(), "the fake served every request: {paths:#?}");
    let description = embed["description"].as_str().expect("a description");
    for variant in Variant::ALL {
        assert!(description.contains(&format!("`{}`", variant.id())), "{} missing from {description}", variant.id());
    }
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_are_registered_globally_with_russian_names() {
    let fake = FakeDiscord::start().await;
    let bot = Bot::start(&fake, None);
    let registration = fake.wait_until_ready().await;

    assert_eq!(registration.path, format!("/api/v10/applications/{APPLICATION_ID}/commands"));
    let commands = registration.json.expect("a JSON list of commands");
    let tafl = &commands[0];
    assert_eq!(tafl["name"], "tafl");
    assert_eq!(tafl["name_localizations"]["ru"], "тафл");
    let options = tafl["options"].as_array().expect("subcommands");
    let variants = options.iter().find(|o| o["name"] == "variants").expect("a variants subcommand");
    assert_eq!(variants["name_localizations"]["ru"], "варианты");
    assert!(variants["description_localizations"]["ru"].is_string());

    // Everything a Russian client shows of the command is Russian: every subcommand's, option's
    // and choice's name and description has its Russian text, and none is English. Names are
    // words joined by `_`, checked to be Cyrillic one by one.
    let mut texts = vec![tafl["description_localizations"]["ru"].as_str().expect("a Russian description").to_owned()];
    let mut missing = Vec::new();
    let mut latin_names = Vec::new();
    let mut visit = |item: &Value, path: &str| {
        let name = item["name_localizations"]["ru"].as_str();
        match name {
            Some(name) if name.chars().all(|c| c == '_' || c == '-' || c.is_ascii_digit() || !c.is_ascii()) => {}
            Some(name) => latin_names.push(format!("{path}: {name}")),
            None => missing.push(format!("{path}: name")),
        }
        if item.get("type").is_some_and(Value::is_number) && item.get("description").is_some() {
            match item["description_localizations"]["ru"].as_str() {
                Some(description) => texts.push(description.to_owned()),
                None => missing.push(format!("{path}: description")),
            }
        }
    };
    for subcommand in options {
        let path = subcommand["name"].as_str().unwrap_or_default().to_owned();
        visit(subcommand, &path);
        for option in subcommand["options"].as_array().into_iter().flatten() {
            let path = format!("{path} {}", option["name"].as_str().unwrap_or_default());
            visit(option, &path);
            for choice in option["choices"].as_array().into_iter().flatten() {
                let path = format!("{path} = {}", choice["name"].as_str().unwrap_or_default());
                visit(choice, &path);
            }
        }
    }
    assert!(missing.is_empty(), "no Russian text: {missing:#?}");
    assert!(latin_names.is_empty(), "Latin letters in Russian names: {latin_names:#?}");
    // Values to type are the same in every language (clocks such as `none`, `false`, variant
    // ids such as `copenhagen`), and so are names (Discord, the OTN format).
    let typed = ["none", "false", "copenhagen", "Discord", "OTN"];
    let english = tafl_bot::present::check::english_words(&texts.join("\n"), &typed);
    assert!(english.is_empty(), "English in the Russian commands: {english:?}\n{texts:#?}");
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_a_guild_id_the_commands_are_registered_in_that_guild_only() {
    let fake = FakeDiscord::start().await;
    let bot = Bot::start(&fake, Some(77));
    let registration = fake.wait_until_ready().await;

    assert_eq!(registration.path, format!("/api/v10/applications/{APPLICATION_ID}/guilds/77/commands"));
    assert!(fake.requests().iter().all(|r| r.path != format!("/api/v10/applications/{APPLICATION_ID}/commands")));
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_tls_the_bot_keeps_the_real_discord_urls_and_answers() {
    let fake = FakeDiscord::start_tls().await;
    let bot = Bot::start(&fake, None);
    fake.wait_until_ready().await;

    let interaction = fake.push_interaction(fake.slash_command("tafl", "variants", &json!([]), 42, "en-US"));
    let callback = fake.wait_for("the answer to /tafl variants", |r| r.path == interaction.callback_path()).await;

    assert_eq!(embed_of(&callback)["title"], "Tafl variants");
    let requests = fake.requests();
    assert!(requests.iter().all(|r| r.host.as_deref() == Some("discord.com")), "{requests:#?}");
    assert!(fake.unknown_requests().is_empty(), "{requests:#?}");
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_the_bot_does_not_know_gets_a_private_one_sentence_answer() {
    let fake = FakeDiscord::start().await;
    let bot = Bot::start(&fake, None);
    fake.wait_until_ready().await;

    let interaction = fake.push_interaction(fake.slash_command("tafl", "no-such-command", &json!([]), 42, "ru"));
    let callback = fake.wait_for("the answer to an unknown command", |r| r.path == interaction.callback_path()).await;

    let json = callback.json.expect("a JSON answer");
    assert_eq!(json["type"], 4);
    assert_eq!(json["data"]["flags"], 64, "ephemeral: only the caller sees it");
    let ru = tafl_bot::present::Lang::discord(Some("ru"));
    assert_eq!(json["data"]["content"], text::refusal(Refusal::UnknownCommand, ru));
    assert!(json["data"]["content"].as_str().unwrap().starts_with("Этой команды больше нет"));
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rate_limited_answer_is_retried_by_serenity_and_sent_once() {
    let fake = FakeDiscord::start_tls().await;
    let bot = Bot::start(&fake, None);
    fake.wait_until_ready().await;
    fake.fail_next(|r| r.path.ends_with("/callback"), 1, Fault::RateLimited { seconds: 0.05 });

    let interaction = fake.push_interaction(fake.slash_command("tafl", "variants", &json!([]), 42, "en-US"));
    let answered =
        fake.wait_for("the retried answer", |r| r.path == interaction.callback_path() && r.status == 204).await;

    assert_eq!(embed_of(&answered)["title"], "Tafl variants");
    let statuses: Vec<u16> =
        fake.requests().iter().filter(|r| r.path == interaction.callback_path()).map(|r| r.status).collect();
    assert_eq!(statuses, [429, 204], "one refusal, then exactly one answer");
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_the_gateway_drops_the_bot_reconnects_and_answers() {
    let fake = FakeDiscord::start().await;
    let bot = Bot::start(&fake, None);
    fake.wait_until_ready().await;
    fake.wait_for_connections(1).await;

    fake.drop_gateway();
    fake.wait_for_connections(2).await;
    let interaction = fake.push_interaction(fake.slash_command("tafl", "variants", &json!([]), 42, "en-US"));
    let callback = fake.wait_for("the answer after reconnecting", |r| r.path == interaction.callback_path()).await;

    assert_eq!(embed_of(&callback)["title"], "Tafl variants");
    assert_eq!(fake.identifies(), 1, "the session was resumed, not started again");
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_error_on_the_answer_is_retried_and_the_answer_sent_once() {
    let fake = FakeDiscord::start_tls().await;
    let bot = Bot::start(&fake, None);
    fake.wait_until_ready().await;
    fake.fail_next(|r| r.path.ends_with("/callback"), 2, Fault::ServerError(500));

    let interaction = fake.push_interaction(fake.slash_command("tafl", "variants", &json!([]), 42, "en-US"));
    let answered =
        fake.wait_for("the retried answer", |r| r.path == interaction.callback_path() && r.status == 204).await;

    assert_eq!(embed_of(&answered)["title"], "Tafl variants");
    let statuses: Vec<u16> =
        fake.requests().iter().filter(|r| r.path == interaction.callback_path()).map(|r| r.status).collect();
    assert_eq!(statuses, [500, 500, 204], "two failures, then exactly one answer");
    bot.stop().await;
}

async fn tafl_variants_answers_in_a_server_channel_too(locale: &'static str) {
    let fake = FakeDiscord::start().await;
    let bot = Bot::start(&fake, Some(77));
    fake.wait_until_ready().await;

    let mut command =
        in_guild(fake.slash_command("tafl", "variants", &json!([]), 42, locale), 77, 1_500_000_000_000_000_001);
    command["guild_locale"] = json!(locale);
    let interaction = fake.push_interaction(command);
    let callback = fake.wait_for("the answer in a server", |r| r.path == interaction.callback_path()).await;

    assert_eq!(embed_of(&callback)["title"], says(locale, "Tafl variants", "Варианты тафла"));
    bot.stop().await;
}

/// BOT.md: public answers are in the server's language, whatever the asker's client speaks; the
/// variants' list and the rules are posted for the channel.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_variants_and_rules_are_posted_in_the_servers_language() {
    let fake = FakeDiscord::start().await;
    let bot = Bot::start(&fake, Some(77));
    fake.wait_until_ready().await;
    let in_a_russian_server = |subcommand: &str, options: &Value| {
        let mut command =
            in_guild(fake.slash_command("tafl", subcommand, options, 42, "en-US"), 77, 1_500_000_000_000_000_001);
        command["guild_locale"] = json!("ru");
        fake.push_interaction(command)
    };

    let listed = in_a_russian_server("variants", &json!([]));
    let callback = fake.wait_for("the variants", |r| r.path == listed.callback_path()).await;
    assert_eq!(embed_of(&callback)["title"], "Варианты тафла");
    let options = json!([{ "name": "variant", "type": 3, "value": "brandubh" }]);
    let ruled = in_a_russian_server("rules", &options);
    let callback = fake.wait_for("the rules", |r| r.path == ruled.callback_path()).await;
    let embed = embed_of(&callback);
    assert_eq!(embed["title"], "Брандубх");
    assert_no_english("ru", &format!("{}\n{}", embed["title"], embed["description"]));
    // A name the asker could not have meant is refused to them, in their own language.
    let options = json!([{ "name": "variant", "type": 3, "value": "chess" }]);
    let refused = in_a_russian_server("rules", &options);
    let callback = fake.wait_for("the refusal", |r| r.path == refused.callback_path()).await;
    let refusal = callback.json.as_ref().unwrap()["data"]["content"].as_str().unwrap_or_default().to_owned();
    assert!(refusal.starts_with("There is no such variant"), "{callback:#?}");
    assert_eq!(callback.json.as_ref().unwrap()["data"]["flags"], 64, "privately: {callback:#?}");
    bot.stop().await;
}

async fn tafl_rules_answers_with_the_rules_and_the_start_position_as_a_png(locale: &'static str) {
    let fake = FakeDiscord::start().await;
    let bot = Bot::start(&fake, None);
    fake.wait_until_ready().await;

    let options = json!([{ "name": "variant", "type": 3, "value": "brandubh" }]);
    let interaction = fake.push_interaction(fake.slash_command("tafl", "rules", &options, 42, locale));
    let callback = fake.wait_for("the answer to /tafl rules", |r| r.path == interaction.callback_path()).await;

    let embed = embed_of(&callback);
    assert_eq!(embed["title"], says(locale, "Brandubh", "Брандубх"));
    assert_eq!(embed["image"]["url"], "attachment://brandubh.png");
    let otn = says(locale, "OTN rules: `dim:7", "Правила в OTN: `dim:7");
    assert!(embed["description"].as_str().unwrap().contains(otn), "{embed}");
    assert_no_english(locale, &format!("{}\n{}", embed["title"], embed["description"]));
    let file =
        callback.parts.iter().find(|p| p.filename.as_deref() == Some("brandubh.png")).expect("the board as a file");
    assert!(file.data.starts_with(b"\x89PNG\r\n"), "a PNG image");
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_variant_gets_a_private_answer_in_the_callers_language() {
    let fake = FakeDiscord::start().await;
    let bot = Bot::start(&fake, None);
    fake.wait_until_ready().await;

    let options = json!([{ "name": "variant", "type": 3, "value": "chess" }]);
    let interaction = fake.push_interaction(fake.slash_command("tafl", "rules", &options, 42, "ru"));
    let callback = fake.wait_for("the refusal", |r| r.path == interaction.callback_path()).await;

    let json = callback.json.expect("a JSON answer");
    assert_eq!(json["data"]["flags"], 64, "ephemeral");
    let ru = tafl_bot::present::Lang::discord(Some("ru"));
    assert_eq!(json["data"]["content"], text::refusal(Refusal::UnknownVariant, ru));
    assert!(json["data"]["content"].as_str().unwrap().starts_with("Такого варианта нет"));
    bot.stop().await;
}

async fn the_variant_option_autocompletes_from_what_is_typed(locale: &'static str) {
    let fake = FakeDiscord::start().await;
    let bot = Bot::start(&fake, None);
    fake.wait_until_ready().await;

    // The English name's start, and the start of the name in the reader's language.
    for typed in ["histor", says(locale, "Histor", "Истор")] {
        let options = json!([{ "name": "variant", "type": 3, "value": typed, "focused": true }]);
        let mut autocomplete = fake.slash_command("tafl", "rules", &options, 42, locale);
        autocomplete["type"] = json!(4);
        let interaction = fake.push_interaction(autocomplete);
        let callback = fake.wait_for("the autocomplete answer", |r| r.path == interaction.callback_path()).await;

        let json = callback.json.expect("a JSON answer");
        assert_eq!(json["type"], 8, "an autocomplete result");
        let choices = json["data"]["choices"].as_array().unwrap();
        let values: Vec<&str> = choices.iter().map(|c| c["value"].as_str().unwrap()).collect();
        assert_eq!(values, ["historical-7", "historical-9", "historical-11"], "{typed}");
        let names: Vec<&str> = choices.iter().map(|c| c["name"].as_str().unwrap()).collect();
        let first = says(locale, "Historical 7×7", "Исторический тафл 7×7");
        assert!(names[0].starts_with(first), "{names:?}");
        assert_no_english(locale, &names.join("\n"));
    }
    bot.stop().await;
}

async fn the_rules_answer_is_shown_in_the_channel_with_its_board(locale: &'static str) {
    let fake = FakeDiscord::start().await;
    let bot = Bot::start(&fake, None);
    fake.wait_until_ready().await;

    let options = json!([{ "name": "variant", "type": 3, "value": "brandubh" }]);
    let interaction = fake.push_interaction(fake.slash_command("tafl", "rules", &options, 42, locale));
    let answer = fake.wait_for_original(&interaction).await;

    assert!(answer.text().starts_with(says(locale, "Brandubh\n", "Брандубх\n")), "{}", answer.text());
    assert_no_english(locale, &answer.text());
    assert_eq!(answer.attachments.len(), 1);
    assert_eq!(answer.attachments[0].filename, "brandubh.png");
    assert!(answer.attachments[0].data.starts_with(b"\x89PNG\r\n"));
    assert!(!answer.is_ephemeral());
    let channel = interaction.payload["channel_id"].as_str().unwrap().parse().unwrap();
    assert_eq!(fake.messages_in(channel).iter().map(|m| m.id).collect::<Vec<_>>(), [answer.id]);
    bot.stop().await;
}
