//! `board_messages` and `challenge_messages`: where the Discord front end shows each game and
//! challenge, so that it can edit them in place after a restart.

use sqlx::AnyConnection;

/// The board message of a game, and its latest "your move" notice.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct BoardMessageRow {
    pub channel_id: i64,
    pub message_id: i64,
    pub notice_id: Option<i64>,
    /// The ply the message shows; `None` when unknown (it is then redrawn).
    pub shown_ply: Option<i64>,
    /// Whether the message shows the game over (migration 0024).
    #[sqlx(try_from = "super::Flag")]
    pub shown_over: bool,
    /// How the message is drawn, by name (`standard`/`flipped`, `classic`/`high-contrast`):
    /// the style of whoever posted it (migration 0032).
    pub orientation: String,
    pub theme: String,
}

/// How a board message is drawn, by name (see [`BoardMessageRow::orientation`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StyleNames<'a> {
    pub orientation: &'a str,
    pub theme: &'a str,
}

pub async fn board(conn: &mut AnyConnection, game_id: i64) -> Result<Option<BoardMessageRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT channel_id, message_id, notice_id, shown_ply, shown_over, orientation, theme \
         FROM board_messages WHERE game_id = $1",
    )
    .bind(game_id)
    .fetch_optional(conn)
    .await
}

/// Makes `message_id` the board message of a game, drawn in `style`, showing `shown_ply` and,
/// with `shown_over`, the game over (a new board replaces the old one; the notice stays until
/// the next one replaces it).
#[allow(clippy::too_many_arguments)]
pub async fn set_board(
    conn: &mut AnyConnection,
    game_id: i64,
    channel_id: i64,
    message_id: i64,
    shown_ply: Option<i64>,
    shown_over: bool,
    style: StyleNames<'_>,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO board_messages \
         (game_id, channel_id, message_id, shown_ply, shown_over, orientation, theme, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
         ON CONFLICT (game_id) DO UPDATE SET channel_id = excluded.channel_id, message_id = excluded.message_id, \
         shown_ply = excluded.shown_ply, shown_over = excluded.shown_over, orientation = excluded.orientation, \
         theme = excluded.theme, updated_at = excluded.updated_at",
    )
    .bind(game_id)
    .bind(channel_id)
    .bind(message_id)
    .bind(shown_ply)
    .bind(shown_over)
    .bind(style.orientation)
    .bind(style.theme)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}

/// Records that the board message `message_id` of a game now shows `ply` and, with `over`, the
/// game over; false when that message is no longer the game's board.
pub async fn set_shown(
    conn: &mut AnyConnection,
    game_id: i64,
    message_id: i64,
    ply: i64,
    over: bool,
    now: i64,
) -> Result<bool, sqlx::Error> {
    let updated = sqlx::query(
        "UPDATE board_messages SET shown_ply = $1, shown_over = $2, updated_at = $3 WHERE game_id = $4 AND message_id = $5",
    )
    .bind(ply)
    .bind(over)
    .bind(now)
    .bind(game_id)
    .bind(message_id)
    .execute(conn)
    .await?;
    Ok(updated.rows_affected() > 0)
}

/// Records the latest notice of a game (`None`: the game has none any more) and returns the one
/// it replaces. Does nothing (and returns `None`) for a game without a board message.
pub async fn replace_notice(
    conn: &mut AnyConnection,
    game_id: i64,
    notice_id: Option<i64>,
    now: i64,
) -> Result<Option<i64>, sqlx::Error> {
    let previous: Option<Option<i64>> = sqlx::query_scalar("SELECT notice_id FROM board_messages WHERE game_id = $1")
        .bind(game_id)
        .fetch_optional(&mut *conn)
        .await?;
    sqlx::query("UPDATE board_messages SET notice_id = $1, updated_at = $2 WHERE game_id = $3")
        .bind(notice_id)
        .bind(now)
        .bind(game_id)
        .execute(conn)
        .await?;
    Ok(previous.flatten())
}

/// The channel and message of a challenge card.
pub async fn challenge(conn: &mut AnyConnection, challenge_id: i64) -> Result<Option<(i64, i64)>, sqlx::Error> {
    sqlx::query_as("SELECT channel_id, message_id FROM challenge_messages WHERE challenge_id = $1")
        .bind(challenge_id)
        .fetch_optional(conn)
        .await
}

pub async fn set_challenge(
    conn: &mut AnyConnection,
    challenge_id: i64,
    channel_id: i64,
    message_id: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO challenge_messages (challenge_id, channel_id, message_id) VALUES ($1, $2, $3) \
         ON CONFLICT (challenge_id) DO UPDATE SET channel_id = excluded.channel_id, message_id = excluded.message_id",
    )
    .bind(challenge_id)
    .bind(channel_id)
    .bind(message_id)
    .execute(conn)
    .await?;
    Ok(())
}
