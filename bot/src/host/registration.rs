//! The servers holding a copy of the slash commands of their own (see
//! `discord/registration.rs`): recorded before the bot registers the commands in one
//! (`DISCORD_GUILD_ID`), forgotten once a later registration elsewhere cleared them there.

use super::{Host, HostError};
use crate::store;

impl Host {
    /// The commands are about to be registered in `guild` as its own, at `now`.
    pub async fn commands_registered_in(&self, guild: i64, now: i64) -> Result<(), HostError> {
        transaction!(self.db.begin_write(), |tx| {
            store::guild_commands::record(&mut tx, guild, now).await?;
            Ok(())
        })
    }

    /// Every server where the commands were registered as its own and not cleared since.
    pub async fn servers_with_own_commands(&self) -> Result<Vec<i64>, HostError> {
        let mut tx = self.db.begin_read().await?;
        Ok(store::guild_commands::all(&mut tx).await?)
    }

    /// The commands of `guild` were cleared, or went with the bot: nothing is left to clear there.
    pub async fn commands_cleared_in(&self, guild: i64) -> Result<(), HostError> {
        transaction!(self.db.begin_write(), |tx| {
            store::guild_commands::forget(&mut tx, guild).await?;
            Ok(())
        })
    }
}
