//! OTN rules strings and game records (`OpenTafl` notation).
