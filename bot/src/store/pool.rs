//! How many connections the bot keeps and how long one statement may wait, from the environment
//! (`DATABASE_MAX_CONNECTIONS`, `DATABASE_STATEMENT_TIMEOUT_MS`), so that an operator sizes them
//! for the database behind the bot rather than for this machine.
//!
//! On `SQLite` the timeout is the busy timeout: the only thing a statement waits for there is
//! another writer's lock. On `PostgreSQL` it is `statement_timeout`, which ends any statement that
//! runs longer (a lock wait included).

use std::time::Duration;

/// The pool's size and the statement timeout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PoolSettings {
    pub max_connections: u32,
    pub statement_timeout: Duration,
}

/// The most connections one process may ask for: `PostgreSQL`'s default `max_connections` is 100,
/// shared by every process, and `SQLite` has one writer whatever the pool.
pub const MAX_CONNECTIONS_LIMIT: u32 = 1_000;
/// The longest statement timeout accepted: one hour. Longer is a typo, not a setting.
pub const STATEMENT_TIMEOUT_LIMIT_MS: u64 = 3_600_000;

impl Default for PoolSettings {
    /// Four connections: the host writes one transaction at a time per process, and reads are
    /// short. Ten seconds: writes take milliseconds, so the wait is only reached when something
    /// is badly wrong.
    fn default() -> PoolSettings {
        PoolSettings { max_connections: 4, statement_timeout: Duration::from_secs(10) }
    }
}

impl PoolSettings {
    /// Reads the two variables through `var` (unset or blank: the default), each checked with a
    /// one-sentence error naming the variable.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<PoolSettings, String> {
        let var = |name: &str| var(name).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
        let mut settings = PoolSettings::default();
        if let Some(text) = var("DATABASE_MAX_CONNECTIONS") {
            settings.max_connections = match text.parse::<u32>() {
                Ok(n) if (1..=MAX_CONNECTIONS_LIMIT).contains(&n) => n,
                _ => {
                    return Err(format!(
                        "DATABASE_MAX_CONNECTIONS must be a whole number from 1 to {MAX_CONNECTIONS_LIMIT}, not {:?}",
                        crate::cli::shorten(&text, 40)
                    ));
                }
            };
        }
        if let Some(text) = var("DATABASE_STATEMENT_TIMEOUT_MS") {
            settings.statement_timeout = match text.parse::<u64>() {
                Ok(ms) if (1..=STATEMENT_TIMEOUT_LIMIT_MS).contains(&ms) => Duration::from_millis(ms),
                _ => {
                    return Err(format!(
                        "DATABASE_STATEMENT_TIMEOUT_MS must be milliseconds from 1 to {STATEMENT_TIMEOUT_LIMIT_MS}, not {:?}",
                        crate::cli::shorten(&text, 40)
                    ));
                }
            };
        }
        Ok(settings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(vars: &[(&str, &str)]) -> Result<PoolSettings, String> {
        PoolSettings::from_vars(|name| vars.iter().find(|(k, _)| *k == name).map(|(_, v)| (*v).to_owned()))
    }

    #[test]
    fn unset_or_blank_variables_keep_four_connections_and_ten_seconds() {
        assert_eq!(settings(&[]).unwrap(), PoolSettings::default());
        assert_eq!(settings(&[("DATABASE_MAX_CONNECTIONS", " ")]).unwrap(), PoolSettings::default());
        assert_eq!(PoolSettings::default().max_connections, 4);
        assert_eq!(PoolSettings::default().statement_timeout, Duration::from_secs(10));
    }

    #[test]
    fn both_variables_are_read() {
        let read = settings(&[("DATABASE_MAX_CONNECTIONS", "16"), ("DATABASE_STATEMENT_TIMEOUT_MS", "2500")]).unwrap();
        assert_eq!(read, PoolSettings { max_connections: 16, statement_timeout: Duration::from_millis(2500) });
    }

    #[test]
    fn bad_values_are_one_sentence_naming_the_variable() {
        for (name, value) in [
            ("DATABASE_MAX_CONNECTIONS", "0"),
            ("DATABASE_MAX_CONNECTIONS", "1001"),
            ("DATABASE_MAX_CONNECTIONS", "-3"),
            ("DATABASE_MAX_CONNECTIONS", "four"),
            ("DATABASE_STATEMENT_TIMEOUT_MS", "0"),
            ("DATABASE_STATEMENT_TIMEOUT_MS", "5s"),
            ("DATABASE_STATEMENT_TIMEOUT_MS", "3600001"),
        ] {
            let error = settings(&[(name, value)]).unwrap_err();
            assert!(error.starts_with(name), "{error}");
            assert!(error.contains(&format!("{value:?}")), "{error}");
            assert!(!error.contains('\n'), "{error}");
        }
    }
}
