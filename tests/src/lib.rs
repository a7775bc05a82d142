//! Helpers shared by the end-to-end tests: a fake Discord that the real bot connects to, and the
//! bot and players that use it.

pub mod bot_load;
pub mod discord_limits;
pub mod fake_discord;
pub mod harness;
pub mod postgres;
pub mod scratch;
