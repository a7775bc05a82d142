//! The tafl bot: game hosting, storage, the Discord front end and the command-line tools.

pub mod cli;
pub mod discord;
pub mod host;
pub mod limits;
pub mod local;
pub mod present;
pub mod printable;
pub mod store;
