//! Board images: a position (with highlights, names, clocks) to PNG bytes; a game to a GIF.
