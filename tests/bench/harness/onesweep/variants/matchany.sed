# matchany: onesweep_rank_tile finds a key's peers with one __match_any_sync instead of
# onesweep_peers_of's eight votes.
s|const unsigned int peers = onesweep_peers_of(digit);|const unsigned int peers = __match_any_sync(ONESWEEP_FULL_WARP, digit);|
