// The pair's list of sides (ours; Core's join when the pair has Core sides).
#include "side.h"

EQUIFUZZ_DEFINE_SIDES(equifuzz::utxo_flush)
