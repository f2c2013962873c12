// The siphash pair's results as report fields.
#include "pair.h"

#include <string>

namespace equifuzz::siphash {
namespace {

Outcome& AddWords(Outcome& o, const std::string& name, const std::vector<uint64_t>& values)
{
    std::string s;
    for (const uint64_t v : values) s += (s.empty() ? "" : ",") + Hex64(v);
    return o.Add(name, s);
}

} // namespace

Outcome ShapeOutcome::ToOutcome() const
{
    Outcome o;
    o.Add("hash(h)", Hex64(hash_uint256)).Add("hash(h,n)", Hex64(hash_uint256_extra));
    return o;
}

Outcome StreamOutcome::ToOutcome() const
{
    Outcome o;
    return AddWords(o, "finalizes", finalizes);
}

Outcome UJShapeOutcome::ToOutcome() const
{
    Outcome o;
    o.Add("outpoint(h,n)", Hex64(outpoint)).Add("jumbo(h)", Hex64(jumbo_only));
    return o;
}

Outcome UJNormalOutcome::ToOutcome() const
{
    Outcome o;
    o.Add("normal(h)", Hex64(normal)).Add("normal(h,extra)", Hex64(normal_extra));
    return o;
}

} // namespace equifuzz::siphash
