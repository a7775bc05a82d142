//! Discord's limits on what a bot sends, which the fake enforces as Discord does: a body over
//! one is refused whole, so a message that grew too long is lost, not cut.
//!
//! Lengths are counted in Unicode code points (`chars().count()`), as Discord's API counts the
//! strings it decodes; an emoji outside the Basic Multilingual Plane is one character, not the
//! two UTF-16 units some libraries count.
//!
//! A refusal is answered as Discord answers it: 400 "Invalid Form Body" (50035) with an
//! `errors` tree that names the field (`data.embeds.0.fields.3.value`) and what is wrong with
//! it, the shape serenity reads into `DiscordJsonError::errors`; or 413 "Request entity too
//! large" (40005) for a file over [`MAX_FILE_BYTES`].

use serde_json::{Map, Value, json};

use crate::fake_discord::Part;

/// A message's content.
pub const MAX_CONTENT: usize = 2000;
/// Embeds in one message.
pub const MAX_EMBEDS: usize = 10;
/// An embed's title.
pub const MAX_EMBED_TITLE: usize = 256;
/// An embed's description.
pub const MAX_EMBED_DESCRIPTION: usize = 4096;
/// Fields in one embed.
pub const MAX_EMBED_FIELDS: usize = 25;
/// A field's name.
pub const MAX_FIELD_NAME: usize = 256;
/// A field's value.
pub const MAX_FIELD_VALUE: usize = 1024;
/// An embed footer's text.
pub const MAX_FOOTER_TEXT: usize = 2048;
/// An embed author's name.
pub const MAX_AUTHOR_NAME: usize = 256;
/// Titles, descriptions, field names and values, footers and authors of all of a message's
/// embeds together.
pub const MAX_EMBEDS_TOTAL: usize = 6000;
/// Action rows in one message (or modal).
pub const MAX_ACTION_ROWS: usize = 5;
/// Buttons in one action row; a select menu fills a row alone.
pub const MAX_ROW_BUTTONS: usize = 5;
/// A button's label.
pub const MAX_BUTTON_LABEL: usize = 80;
/// A component's `custom_id`.
pub const MAX_CUSTOM_ID: usize = 100;
/// Options of a select menu.
pub const MAX_SELECT_OPTIONS: usize = 25;
/// A select option's label, value and description, each.
pub const MAX_OPTION_TEXT: usize = 100;
/// A select menu's placeholder.
pub const MAX_SELECT_PLACEHOLDER: usize = 150;
/// Autocomplete choices in one answer.
pub const MAX_CHOICES: usize = 25;
/// An autocomplete choice's name (and a string value).
pub const MAX_CHOICE_NAME: usize = 100;
/// A thread's name.
pub const MAX_THREAD_NAME: usize = 100;
/// A modal's title, and a text input's label.
pub const MAX_MODAL_TITLE: usize = 45;
/// A text input's placeholder.
pub const MAX_INPUT_PLACEHOLDER: usize = 100;
/// A text input's prefilled value.
pub const MAX_INPUT_VALUE: usize = 4000;
/// Files in one message.
pub const MAX_FILES: usize = 10;
/// One uploaded file, for a bot in a server without boosts and in DMs: 20 MiB since Discord
/// raised the default from 10 MiB in September 2026 ("Uploading Files" in Discord's API
/// reference, discord-api-docs pull request 8578).
pub const MAX_FILE_BYTES: usize = 20 * 1024 * 1024;

/// Why Discord refuses a body: the field, as a dotted path, and Discord's code and words for
/// what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invalid {
    pub field: String,
    pub code: &'static str,
    pub message: String,
}

/// Discord's answer to a body it refuses.
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// 400 Invalid Form Body (50035), naming the field.
    Form(Invalid),
    /// 413 Request entity too large (40005): a file over [`MAX_FILE_BYTES`].
    TooLarge,
    /// 400 Cannot send an empty message (50006).
    Empty,
}

impl Refusal {
    /// The HTTP status and JSON body Discord answers with.
    #[must_use]
    pub fn answer(&self) -> (u16, Value) {
        match self {
            Refusal::Form(invalid) => (400, form_error(invalid)),
            Refusal::TooLarge => (413, json!({ "message": "Request entity too large", "code": 40_005 })),
            Refusal::Empty => (400, json!({ "message": "Cannot send an empty message", "code": 50_006 })),
        }
    }
}

/// `{"message": "Invalid Form Body", "code": 50035, "errors": {"data": {"content": {"_errors":
/// [...]}}}}`, the tree following the field's path.
fn form_error(invalid: &Invalid) -> Value {
    let mut tree = json!({ "_errors": [{ "code": invalid.code, "message": invalid.message }] });
    for key in invalid.field.rsplit('.') {
        let mut parent = Map::new();
        parent.insert(key.to_owned(), tree);
        tree = Value::Object(parent);
    }
    json!({ "message": "Invalid Form Body", "code": 50_035, "errors": tree })
}

type Checked = Result<(), Refusal>;

fn refuse(field: &str, code: &'static str, message: String) -> Checked {
    Err(Refusal::Form(Invalid { field: field.to_owned(), code, message }))
}

fn path(prefix: &str, key: impl std::fmt::Display) -> String {
    if prefix.is_empty() { key.to_string() } else { format!("{prefix}.{key}") }
}

/// The length of `value` as Discord counts it (code points); 0 when it is not a string.
#[must_use]
pub fn length(value: &Value) -> usize {
    value.as_str().map_or(0, |text| text.chars().count())
}

/// A string field of at most `max` characters.
fn text(value: &Value, field: &str, max: usize) -> Checked {
    if length(value) > max {
        return refuse(field, "BASE_TYPE_MAX_LENGTH", format!("Must be {max} or fewer in length."));
    }
    Ok(())
}

/// An array field of at most `max` items.
fn items(value: &Value, field: &str, max: usize) -> Checked {
    let count = value.as_array().map_or(0, Vec::len);
    if count > max {
        return refuse(field, "BASE_TYPE_BAD_LENGTH", format!("Must be between 0 and {max} in length."));
    }
    Ok(())
}

fn each(value: &Value) -> impl Iterator<Item = (usize, &Value)> {
    value.as_array().into_iter().flatten().enumerate()
}

/// A message as created or edited (`prefix` is `data` inside an interaction callback, empty
/// elsewhere), with the files of its multipart body. An edit is checked for the fields it sets.
pub fn message(body: &Value, prefix: &str, parts: &[Part]) -> Checked {
    text(&body["content"], &path(prefix, "content"), MAX_CONTENT)?;
    embeds(&body["embeds"], &path(prefix, "embeds"))?;
    components(&body["components"], &path(prefix, "components"))?;
    allowed_mentions(&body["allowed_mentions"], &path(prefix, "allowed_mentions"))?;
    files(parts)
}

/// A new message must show something: content, an embed, a component or a file.
pub fn not_empty(body: &Value, parts: &[Part]) -> Checked {
    let has = |key: &str| body[key].as_array().is_some_and(|list| !list.is_empty());
    let has_file = parts.iter().any(|part| part.name.starts_with("files["));
    if length(&body["content"]) == 0 && !has("embeds") && !has("components") && !has("sticker_ids") && !has_file {
        return Err(Refusal::Empty);
    }
    Ok(())
}

fn embeds(list: &Value, field: &str) -> Checked {
    items(list, field, MAX_EMBEDS)?;
    let mut total = 0;
    for (i, embed) in each(list) {
        let at = |key: &str| path(&path(field, i), key);
        text(&embed["title"], &at("title"), MAX_EMBED_TITLE)?;
        text(&embed["description"], &at("description"), MAX_EMBED_DESCRIPTION)?;
        text(&embed["footer"]["text"], &path(&at("footer"), "text"), MAX_FOOTER_TEXT)?;
        text(&embed["author"]["name"], &path(&at("author"), "name"), MAX_AUTHOR_NAME)?;
        items(&embed["fields"], &at("fields"), MAX_EMBED_FIELDS)?;
        for (j, entry) in each(&embed["fields"]) {
            let place = path(&at("fields"), j);
            text(&entry["name"], &path(&place, "name"), MAX_FIELD_NAME)?;
            text(&entry["value"], &path(&place, "value"), MAX_FIELD_VALUE)?;
            total += length(&entry["name"]) + length(&entry["value"]);
        }
        total += length(&embed["title"])
            + length(&embed["description"])
            + length(&embed["footer"]["text"])
            + length(&embed["author"]["name"]);
    }
    if total > MAX_EMBEDS_TOTAL {
        return refuse(
            field,
            "MAX_EMBED_SIZE_EXCEEDED",
            format!("Embed size exceeds maximum size of {MAX_EMBEDS_TOTAL}"),
        );
    }
    Ok(())
}

fn components(rows: &Value, field: &str) -> Checked {
    items(rows, field, MAX_ACTION_ROWS)?;
    for (i, row) in each(rows) {
        let row_field = path(&path(field, i), "components");
        let children = &row["components"];
        let selects = each(children).filter(|(_, c)| c["type"].as_u64().is_some_and(|t| t != 2)).count();
        if selects > 0 && children.as_array().map_or(0, Vec::len) > 1 {
            return refuse(
                &row_field,
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width".into(),
            );
        }
        items(children, &row_field, MAX_ROW_BUTTONS)?;
        for (j, component) in each(children) {
            component_fields(component, &path(&row_field, j))?;
        }
    }
    Ok(())
}

/// A button or select menu.
fn component_fields(component: &Value, field: &str) -> Checked {
    text(&component["custom_id"], &path(field, "custom_id"), MAX_CUSTOM_ID)?;
    text(&component["label"], &path(field, "label"), MAX_BUTTON_LABEL)?;
    text(&component["placeholder"], &path(field, "placeholder"), MAX_SELECT_PLACEHOLDER)?;
    let options = &component["options"];
    items(options, &path(field, "options"), MAX_SELECT_OPTIONS)?;
    for (k, option) in each(options) {
        let at = path(&path(field, "options"), k);
        for key in ["label", "value", "description"] {
            text(&option[key], &path(&at, key), MAX_OPTION_TEXT)?;
        }
    }
    for key in ["min_values", "max_values"] {
        if component[key].as_u64().is_some_and(|n| n > MAX_SELECT_OPTIONS as u64) {
            let message = format!("int value should be less than or equal to {MAX_SELECT_OPTIONS}.");
            return refuse(&path(field, key), "NUMBER_TYPE_MAX", message);
        }
    }
    Ok(())
}

/// `parse` may not name "users" (or "roles") when `users` (or `roles`) lists ids.
fn allowed_mentions(mentions: &Value, field: &str) -> Checked {
    let parse: Vec<&str> = mentions["parse"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    for kind in ["users", "roles"] {
        if parse.contains(&kind) && mentions[kind].as_array().is_some_and(|ids| !ids.is_empty()) {
            let message = format!("parse:[\"{kind}\"] and {kind}: [ids...] are mutually exclusive.");
            return refuse(&path(field, "parse"), "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE", message);
        }
    }
    Ok(())
}

fn files(parts: &[Part]) -> Checked {
    let uploads: Vec<&Part> = parts.iter().filter(|part| part.name.starts_with("files[")).collect();
    if uploads.len() > MAX_FILES {
        return refuse("files", "BASE_TYPE_BAD_LENGTH", format!("Must be between 0 and {MAX_FILES} in length."));
    }
    if uploads.iter().any(|part| part.data.len() > MAX_FILE_BYTES) {
        return Err(Refusal::TooLarge);
    }
    Ok(())
}

/// The `data` of an autocomplete answer (callback type 8).
pub fn choices(data: &Value) -> Checked {
    let list = &data["choices"];
    items(list, "data.choices", MAX_CHOICES)?;
    for (i, choice) in each(list) {
        let at = path("data.choices", i);
        text(&choice["name"], &path(&at, "name"), MAX_CHOICE_NAME)?;
        if length(&choice["name"]) == 0 {
            return refuse(&path(&at, "name"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.".into());
        }
        text(&choice["value"], &path(&at, "value"), MAX_CHOICE_NAME)?;
    }
    Ok(())
}

/// The `data` of a modal (callback type 9).
pub fn modal(data: &Value) -> Checked {
    text(&data["title"], "data.title", MAX_MODAL_TITLE)?;
    text(&data["custom_id"], "data.custom_id", MAX_CUSTOM_ID)?;
    items(&data["components"], "data.components", MAX_ACTION_ROWS)?;
    for (i, row) in each(&data["components"]) {
        for (j, input) in each(&row["components"]) {
            let at = path(&path(&path("data.components", i), "components"), j);
            text(&input["custom_id"], &path(&at, "custom_id"), MAX_CUSTOM_ID)?;
            text(&input["label"], &path(&at, "label"), MAX_MODAL_TITLE)?;
            text(&input["placeholder"], &path(&at, "placeholder"), MAX_INPUT_PLACEHOLDER)?;
            text(&input["value"], &path(&at, "value"), MAX_INPUT_VALUE)?;
        }
    }
    Ok(())
}

/// The body of a thread's creation: a name of 1 to 100 characters.
pub fn thread(body: &Value) -> Checked {
    let count = length(&body["name"]);
    if !(1..=MAX_THREAD_NAME).contains(&count) {
        let message = format!("Must be between 1 and {MAX_THREAD_NAME} in length.");
        return refuse("name", "BASE_TYPE_BAD_LENGTH", message);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field_of(checked: Checked) -> String {
        match checked {
            Err(Refusal::Form(invalid)) => invalid.field,
            other => panic!("not a form error: {other:?}"),
        }
    }

    #[test]
    fn content_is_counted_in_code_points() {
        // 2000 emoji are 4000 UTF-16 units and 8000 bytes, and still 2000 characters.
        let emoji = "🛡".repeat(MAX_CONTENT);
        assert_eq!(message(&json!({ "content": emoji }), "", &[]), Ok(()));
        let over = "a".repeat(MAX_CONTENT + 1);
        assert_eq!(field_of(message(&json!({ "content": over }), "data", &[])), "data.content");
    }

    #[test]
    fn the_error_tree_names_the_field_as_discord_does() {
        let long = "x".repeat(MAX_FIELD_VALUE + 1);
        let body = json!({ "embeds": [{ "title": "t" }, { "fields": [{ "name": "a", "value": "b" }, { "name": "c", "value": long }] }] });
        let refused = message(&body, "", &[]).unwrap_err();
        let (status, answer) = refused.answer();
        assert_eq!(status, 400);
        assert_eq!(answer["code"], 50_035);
        assert_eq!(
            answer["errors"]["embeds"]["1"]["fields"]["1"]["value"]["_errors"][0]["code"],
            "BASE_TYPE_MAX_LENGTH"
        );
    }

    #[test]
    fn the_embeds_of_a_message_share_six_thousand_characters() {
        let description = "d".repeat(MAX_EMBED_DESCRIPTION);
        let two = json!({ "embeds": [{ "description": description }, { "description": "e".repeat(2000) }] });
        assert_eq!(field_of(message(&two, "", &[])), "embeds");
        let fits = json!({ "embeds": [{ "description": description }, { "description": "e".repeat(1904) }] });
        assert_eq!(message(&fits, "", &[]), Ok(()));
    }

    #[test]
    fn a_select_menu_fills_its_row_and_a_row_holds_five_buttons() {
        let button = json!({ "type": 2, "style": 1, "label": "b", "custom_id": "x" });
        let six = json!({ "components": [{ "type": 1, "components": vec![button.clone(); 6] }] });
        assert_eq!(field_of(message(&six, "", &[])), "components.0.components");
        let select = json!({ "type": 3, "custom_id": "s", "options": [] });
        let mixed = json!({ "components": [{ "type": 1, "components": [select, button] }] });
        assert_eq!(field_of(message(&mixed, "", &[])), "components.0.components");
    }

    #[test]
    fn a_file_over_the_limit_is_too_large() {
        let part = |size: usize| Part {
            name: "files[0]".to_owned(),
            filename: Some("a.gif".to_owned()),
            content_type: None,
            data: vec![0; size],
        };
        assert_eq!(message(&json!({}), "", &[part(MAX_FILE_BYTES)]), Ok(()));
        assert_eq!(message(&json!({}), "", &[part(MAX_FILE_BYTES + 1)]), Err(Refusal::TooLarge));
    }

    #[test]
    fn users_may_not_be_both_parsed_and_listed() {
        let body = json!({ "content": "hi", "allowed_mentions": { "parse": ["users"], "users": ["1"] } });
        assert_eq!(field_of(message(&body, "", &[])), "allowed_mentions.parse");
        let body = json!({ "content": "hi", "allowed_mentions": { "parse": [], "users": ["1"] } });
        assert_eq!(message(&body, "", &[]), Ok(()));
    }
}
