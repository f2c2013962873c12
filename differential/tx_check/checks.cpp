// The tx_check pair's verdicts as report fields.
#include "pair.h"

namespace equifuzz::tx_check {

Outcome ToOutcome(const TxVerdict& v)
{
    return Outcome{}.Add("valid", v.valid).Add("reason", v.reason);
}

Outcome ToOutcome(const BlockVerdict& v)
{
    return Outcome{}.Add("valid", v.valid).Add("reason", v.reason).Add("debug", v.debug);
}

} // namespace equifuzz::tx_check
