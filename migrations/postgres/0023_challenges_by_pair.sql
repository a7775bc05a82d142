-- How many challenges one person made another in the last day that did not start a game
-- (declined, withdrawn, expired or still open): a challenge withdrawn and made again at once
-- mentioned the one challenged each time, with no end. Looked up by the pair at each challenge.
CREATE INDEX challenges_by_pair ON challenges (challenger_id, opponent_id, created_at);
