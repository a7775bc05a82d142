//! Correspondence clocks: how much time a player has for a move, written and read as short
//! strings (`3d`, `1d12h`, `3d+7d`, `none`), and the arithmetic of deadlines and reminders.
//!
//! A clock is one of:
//! * none: the game is untimed and never times out;
//! * a time per move (`3d`): each turn gives the player to move that much time, whatever they
//!   used before;
//! * a time per move plus a reserve (`3d+7d`): each turn gives the time per move plus the
//!   player's reserve; time left unused on a turn is saved into the reserve, up to the cap (7 days
//!   here), and a turn longer than the time per move is paid from the reserve. The reserve
//!   starts empty, so the first turn is just the time per move.
//!
//! A `Clock` can only be made valid (through [`FromStr`] or the constructors), so the host never
//! stores an absurd one.

use std::fmt::{self, Write as _};
use std::str::FromStr;

const MINUTE: i64 = 60;
const HOUR: i64 = 60 * MINUTE;
const DAY: i64 = 24 * HOUR;

/// The shortest time per move: a clock must leave time to look at the board.
pub const MIN_PER_MOVE: i64 = MINUTE;
/// The longest time per move: a month; longer is an untimed game in disguise.
pub const MAX_PER_MOVE: i64 = 30 * DAY;
/// The largest reserve a player may save up.
pub const MAX_RESERVE: i64 = 60 * DAY;
/// The last warning comes when a tenth of the turn's time is left, but never earlier than this
/// before the deadline: on a week-long turn, "17 hours left" would come too early to matter.
pub const LAST_WARNING_MAX: i64 = 6 * HOUR;

/// Why a clock cannot be played. The durations are in seconds.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    /// Text that does not read as a clock (shown shortened and without control characters).
    #[error("{input:?} is not a clock")]
    Unreadable { input: String },
    #[error("no time per move")]
    NoTime,
    #[error("{seconds}s per move is too short")]
    TooShort { seconds: i64 },
    #[error("{seconds}s per move is too long")]
    TooLong { seconds: i64 },
    #[error("a reserve of {seconds}s is no reserve")]
    NoReserve { seconds: i64 },
    #[error("a reserve of {seconds}s is too long")]
    ReserveTooLong { seconds: i64 },
}

/// A correspondence clock (see the module docs for what each kind means).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Clock {
    /// Seconds per move; `None` for an untimed game.
    per_move: Option<i64>,
    /// The most a reserve may hold; `None` without a reserve.
    reserve_cap: Option<i64>,
}

impl Clock {
    /// No clock: the game is never lost on time.
    pub const UNTIMED: Clock = Clock { per_move: None, reserve_cap: None };

    /// A fixed time per move, checked to be between [`MIN_PER_MOVE`] and [`MAX_PER_MOVE`].
    pub fn per_move(seconds: i64) -> Result<Clock, ClockError> {
        check_per_move(seconds)?;
        Ok(Clock { per_move: Some(seconds), reserve_cap: None })
    }

    /// A time per move plus a reserve saved up to `cap` seconds (at most [`MAX_RESERVE`]).
    pub fn with_reserve(per_move: i64, cap: i64) -> Result<Clock, ClockError> {
        check_per_move(per_move)?;
        if cap < MIN_PER_MOVE {
            return Err(ClockError::NoReserve { seconds: cap.max(0) });
        }
        if cap > MAX_RESERVE {
            return Err(ClockError::ReserveTooLong { seconds: cap });
        }
        Ok(Clock { per_move: Some(per_move), reserve_cap: Some(cap) })
    }

    /// A clock as stored: trusted, since only valid clocks are ever written.
    pub(crate) fn from_row(per_move: Option<i64>, reserve_cap: Option<i64>) -> Clock {
        Clock { per_move, reserve_cap: per_move.and(reserve_cap) }
    }

    /// Seconds per move, `None` for an untimed game.
    #[must_use]
    pub const fn seconds_per_move(self) -> Option<i64> {
        self.per_move
    }

    /// The cap of the reserve, `None` for clocks without one.
    #[must_use]
    pub const fn reserve_cap(self) -> Option<i64> {
        self.reserve_cap
    }

    #[must_use]
    pub const fn is_untimed(self) -> bool {
        self.per_move.is_none()
    }

    /// The deadline of a turn starting at `start` for a player whose reserve holds `reserve`.
    pub(crate) fn deadline(self, start: i64, reserve: i64) -> Option<i64> {
        let per_move = self.per_move?;
        let reserve = if self.reserve_cap.is_some() { reserve.max(0) } else { 0 };
        Some(start.saturating_add(per_move).saturating_add(reserve))
    }

    /// The mover's reserve after a turn from `start` to `now`: the time per move left unused is
    /// saved (up to the cap), time used beyond it is paid from the reserve (never below zero).
    pub(crate) fn bank(self, reserve: i64, start: i64, now: i64) -> i64 {
        match (self.per_move, self.reserve_cap) {
            (Some(per_move), Some(cap)) => {
                let used = now.saturating_sub(start).max(0);
                reserve.saturating_add(per_move).saturating_sub(used).clamp(0, cap)
            }
            _ => 0,
        }
    }
}

fn check_per_move(seconds: i64) -> Result<(), ClockError> {
    if seconds <= 0 {
        return Err(ClockError::NoTime);
    }
    if seconds < MIN_PER_MOVE {
        return Err(ClockError::TooShort { seconds });
    }
    if seconds > MAX_PER_MOVE {
        return Err(ClockError::TooLong { seconds });
    }
    Ok(())
}

impl FromStr for Clock {
    type Err = ClockError;

    /// Reads `none`/`off`, a time per move (`3d`, `1d12h`, `1d 12h`, `36h`, `90m`, `2 days`,
    /// `3 дня`, `3д`) or a time per move with a reserve (`3d+7d`).
    fn from_str(text: &str) -> Result<Clock, ClockError> {
        let shown: String = text.trim().chars().filter(|c| !c.is_control()).take(32).collect();
        let bad = || ClockError::Unreadable { input: shown.clone() };
        if text.chars().count() > 64 {
            return Err(bad());
        }
        let lower = text.trim().to_lowercase();
        if matches!(lower.as_str(), "none" | "off" | "no" | "untimed" | "нет" | "без" | "без часов") {
            return Ok(Clock::UNTIMED);
        }
        let mut parts = lower.split('+');
        let per_move = parse_duration(parts.next().unwrap_or("")).ok_or_else(bad)?;
        let cap = match parts.next() {
            Some(part) => Some(parse_duration(part).ok_or_else(bad)?),
            None => None,
        };
        if parts.next().is_some() {
            return Err(bad());
        }
        match cap {
            None => Clock::per_move(per_move),
            Some(cap) => Clock::with_reserve(per_move, cap),
        }
    }
}

impl fmt::Display for Clock {
    /// The short form, which [`FromStr`] reads back: `none`, `1d12h`, `3d+7d`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.per_move, self.reserve_cap) {
            (None, _) => f.write_str("none"),
            (Some(per_move), None) => f.write_str(&format_duration(per_move)),
            (Some(per_move), Some(cap)) => write!(f, "{}+{}", format_duration(per_move), format_duration(cap)),
        }
    }
}

impl serde::Serialize for Clock {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Clock {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Clock, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// The seconds of a unit word, English or Russian, in any of its usual forms.
fn unit_seconds(unit: &str) -> Option<i64> {
    Some(match unit {
        "w" | "wk" | "wks" | "week" | "weeks" | "н" | "нед" | "неделя" | "недели" | "недель" | "неделю" => {
            7 * DAY
        }
        "d" | "day" | "days" | "д" | "дн" | "день" | "дня" | "дней" | "сут" | "сутки" | "суток" => {
            DAY
        }
        "h" | "hr" | "hrs" | "hour" | "hours" | "ч" | "час" | "часа" | "часов" => HOUR,
        "m" | "min" | "mins" | "minute" | "minutes" | "м" | "мин" | "минута" | "минуты" | "минут" | "минуту" => {
            MINUTE
        }
        "s" | "sec" | "secs" | "second" | "seconds" | "с" | "сек" | "секунд" | "секунды" | "секунда" => {
            1
        }
        _ => return None,
    })
}

/// A sum of `number unit` pairs in seconds (`1d12h`, `1 day 12 hours`, `2 дня`, `1 дн. 12 ч`),
/// `None` when anything else is written, a number has no unit, or the sum overflows.
#[must_use]
pub fn parse_duration(text: &str) -> Option<i64> {
    let text = text.to_lowercase();
    let mut chars = text.chars().peekable();
    let mut total: i64 = 0;
    let mut pairs = 0;
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace() || *c == ',') {
            chars.next();
        }
        if chars.peek().is_none() {
            break;
        }
        let mut number: i64 = 0;
        let mut digits = 0;
        while let Some(digit) = chars.peek().and_then(|c| c.to_digit(10)) {
            number = number.checked_mul(10)?.checked_add(i64::from(digit))?;
            digits += 1;
            chars.next();
        }
        if digits == 0 {
            return None;
        }
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let mut unit = String::new();
        while let Some(&c) = chars.peek() {
            if !c.is_alphabetic() {
                break;
            }
            unit.push(c);
            chars.next();
        }
        // A dot may close a unit word, as Russians abbreviate days (`1 дн. 12 ч`, as the bot
        // itself writes them); nowhere else.
        if !unit.is_empty() && chars.peek() == Some(&'.') {
            chars.next();
        }
        total = total.checked_add(number.checked_mul(unit_seconds(&unit)?)?)?;
        pairs += 1;
    }
    (pairs > 0).then_some(total)
}

/// A number of seconds in the short form clocks are written in: `3d`, `1d12h`, `1h30m`, `45s`.
#[must_use]
pub fn format_duration(seconds: i64) -> String {
    if seconds <= 0 {
        return "0m".to_owned();
    }
    let mut text = String::new();
    let mut rest = seconds;
    for (unit, size) in [("d", DAY), ("h", HOUR), ("m", MINUTE), ("s", 1)] {
        if rest >= size {
            let _ = write!(text, "{}{unit}", rest / size);
            rest %= size;
        }
    }
    text
}

/// When the halfway reminder of a turn from `start` to `deadline` is due.
pub(crate) fn half_at(start: i64, deadline: i64) -> i64 {
    start + (deadline - start).max(0) / 2
}

/// When the last warning of a turn is due: a tenth of the turn's time before the deadline, but
/// no earlier than [`LAST_WARNING_MAX`] before it.
pub(crate) fn warning_at(start: i64, deadline: i64) -> i64 {
    deadline - ((deadline - start).max(0) / 10).min(LAST_WARNING_MAX)
}

/// The next moment something happens in a turn, given how many reminders were sent (0: none,
/// 1: the halfway one, 2: the last warning too): the next reminder, else the deadline.
pub(crate) fn next_due(start: i64, deadline: i64, reminders_sent: i64) -> i64 {
    match reminders_sent {
        0 => half_at(start, deadline),
        1 => warning_at(start, deadline),
        _ => deadline,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Clock {
        text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn a_time_per_move_is_read_in_every_usual_form() {
        for (text, seconds) in [
            ("3d", 3 * DAY),
            ("1d12h", DAY + 12 * HOUR),
            ("1d 12h", DAY + 12 * HOUR),
            ("36h", 36 * HOUR),
            ("90m", 90 * MINUTE),
            ("2 days", 2 * DAY),
            ("1 day", DAY),
            ("1 day 12 hours", DAY + 12 * HOUR),
            ("3 дня", 3 * DAY),
            ("3д", 3 * DAY),
            ("5 дней", 5 * DAY),
            ("12 часов", 12 * HOUR),
            ("1w", 7 * DAY),
            ("  3D ", 3 * DAY),
            ("1h30m", 90 * MINUTE),
            ("1m", MINUTE),
            ("30d", 30 * DAY),
        ] {
            let clock = parse(text);
            assert_eq!(clock.seconds_per_move(), Some(seconds), "{text}");
            assert_eq!(clock.reserve_cap(), None, "{text}");
        }
    }

    #[test]
    fn none_and_off_mean_an_untimed_game() {
        for text in ["none", "off", "None", "OFF", "нет", "untimed"] {
            assert_eq!(parse(text), Clock::UNTIMED, "{text}");
        }
        assert!(Clock::UNTIMED.is_untimed());
        assert_eq!(Clock::default(), Clock::UNTIMED);
    }

    #[test]
    fn a_reserve_clock_reads_time_per_move_plus_cap() {
        let clock = parse("3d+7d");
        assert_eq!(clock.seconds_per_move(), Some(3 * DAY));
        assert_eq!(clock.reserve_cap(), Some(7 * DAY));
        assert_eq!(parse("1d 12h + 2 days"), Clock::with_reserve(DAY + 12 * HOUR, 2 * DAY).unwrap());
        assert_eq!(parse("3д+7д"), clock);
    }

    #[test]
    fn the_short_form_is_read_back_as_the_same_clock() {
        for text in ["none", "3d", "1d12h", "1h30m", "3d+7d", "90m+1d", "1m", "30d+60d", "1d1h1m1s"] {
            let clock = parse(text);
            assert_eq!(clock.to_string().parse::<Clock>(), Ok(clock), "{text} shown as {clock}");
        }
        assert_eq!(parse("36h").to_string(), "1d12h");
        assert_eq!(parse("90m").to_string(), "1h30m");
        assert_eq!(parse("3 дня+7 дней").to_string(), "3d+7d");
    }

    #[test]
    fn unreadable_clocks_are_refused_with_the_text_shown() {
        for text in
            ["", "3", "3x", "d3", "three days", "3d+", "+7d", "3d+7d+1d", "1y", "3d-1h", "3.5d", "1e9d", "🕐", "3dd"]
        {
            let error = text.parse::<Clock>().expect_err(text);
            assert_eq!(error, ClockError::Unreadable { input: text.trim().to_owned() }, "{text}");
        }
    }

    #[test]
    fn absurd_clocks_are_refused() {
        for (text, expected) in [
            ("0d", ClockError::NoTime),
            ("0m", ClockError::NoTime),
            ("30s", ClockError::TooShort { seconds: 30 }),
            ("59s", ClockError::TooShort { seconds: 59 }),
            ("31d", ClockError::TooLong { seconds: 31 * DAY }),
            ("3650d", ClockError::TooLong { seconds: 3650 * DAY }),
            ("520w", ClockError::TooLong { seconds: 520 * 7 * DAY }),
            ("999999999999999999999d", ClockError::Unreadable { input: "999999999999999999999d".into() }),
            ("3d+61d", ClockError::ReserveTooLong { seconds: 61 * DAY }),
            ("3d+0d", ClockError::NoReserve { seconds: 0 }),
            ("0d+7d", ClockError::NoTime),
        ] {
            assert_eq!(text.parse::<Clock>(), Err(expected), "{text}");
        }
        assert!(matches!("99999999999999d".parse::<Clock>(), Err(ClockError::TooLong { .. })));
        assert!(Clock::per_move(i64::MAX).is_err());
        assert!(Clock::per_move(-5).is_err());
        assert!(Clock::with_reserve(DAY, -1).is_err());
    }

    #[test]
    fn a_long_string_is_refused_and_shown_shortened() {
        let long = "1d ".repeat(100);
        let Err(ClockError::Unreadable { input }) = long.parse::<Clock>() else { panic!("refused as unreadable") };
        assert!(input.chars().count() <= 32, "{input}");
    }

    #[test]
    fn deadlines_add_the_reserve_only_for_reserve_clocks() {
        let fixed = parse("1d");
        assert_eq!(fixed.deadline(100, 5000), Some(100 + DAY));
        let reserve = parse("1d+3d");
        assert_eq!(reserve.deadline(100, 5000), Some(100 + DAY + 5000));
        assert_eq!(Clock::UNTIMED.deadline(100, 0), None);
    }

    #[test]
    fn unused_time_is_banked_up_to_the_cap_and_overtime_is_paid_from_the_reserve() {
        let clock = parse("1d+2d");
        // Moved after 6 hours: 18 hours saved.
        assert_eq!(clock.bank(0, 0, 6 * HOUR), 18 * HOUR);
        // Saved up to the cap, never more.
        assert_eq!(clock.bank(47 * HOUR, 0, HOUR), 2 * DAY);
        // A turn of 30 hours uses 6 hours of the reserve.
        assert_eq!(clock.bank(10 * HOUR, 0, 30 * HOUR), 4 * HOUR);
        // Never below zero.
        assert_eq!(clock.bank(HOUR, 0, 3 * DAY), 0);
        assert_eq!(parse("1d").bank(0, 0, HOUR), 0, "fixed clocks bank nothing");
    }

    #[test]
    fn reminders_come_at_half_time_and_near_the_end() {
        // A one-day turn: halfway after 12 hours, last warning with 2.4 hours left.
        assert_eq!(half_at(0, DAY), 12 * HOUR);
        assert_eq!(warning_at(0, DAY), DAY - DAY / 10);
        // A week: the last warning waits until 6 hours are left.
        assert_eq!(warning_at(0, 7 * DAY), 7 * DAY - 6 * HOUR);
        assert_eq!(next_due(0, DAY, 0), 12 * HOUR);
        assert_eq!(next_due(0, DAY, 1), DAY - DAY / 10);
        assert_eq!(next_due(0, DAY, 2), DAY);
        assert!(half_at(0, MINUTE) < warning_at(0, MINUTE) && warning_at(0, MINUTE) < MINUTE);
    }

    #[test]
    fn durations_are_written_short() {
        assert_eq!(format_duration(3 * DAY), "3d");
        assert_eq!(format_duration(DAY + 12 * HOUR + 5), "1d12h5s");
    }
}
