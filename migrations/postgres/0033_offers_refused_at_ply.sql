-- offers.refused_at_ply: the ply of the game when a draw offer or takeback request was declined
-- or withdrawn (NULL otherwise, for offers from before, and once a takeback has been accepted
-- since: the game comes back to that ply only after moves). The same player makes it again only
-- once a move has been played since: a draw offer kept open across its maker's own move and
-- declined after it was made again at once, pinging the opponent, when the check looked at the
-- ply it was made at.
ALTER TABLE offers ADD COLUMN refused_at_ply BIGINT;
