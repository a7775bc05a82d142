//! Helpers shared by the end-to-end tests: a fake Discord that the real bot connects to.

pub mod fake_discord;
