# matchany: rank_tile finds a key's peers with one __match_any_sync instead of peers_of's eight votes.
s|const unsigned int peers = peers_of(digit);|const unsigned int peers = __match_any_sync(FULL_WARP, digit);|
