// AFL++'s custom mutator interface over a target's EQUIFUZZ_MUTATOR (equifuzz/mutator.h), linked
// with the target's file (compiled with EQUIFUZZ_AFL_MUTATOR_LIBRARY) into lib<target>_afl_mutator.so.
// afl-fuzz loads it (AFL_CUSTOM_MUTATOR_LIBRARY) and calls afl_custom_fuzz in a stage of its own;
// its havoc stage still runs, so the library applies the structured mutation on every call and
// declines (size 0: afl-fuzz skips the call) where the body does.
#include <equifuzz/mutator.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

// The library is compiled with hidden visibility: afl-fuzz sees these three and nothing else.
#define EQUIFUZZ_AFL_EXPORT __attribute__((visibility("default")))

namespace {

struct State {
    explicit State(unsigned int seed) : rng{seed} {}
    std::mt19937 rng;
    std::vector<uint8_t> out; //!< the last mutated input; afl-fuzz reads it before the next call
};

} // namespace

extern "C" EQUIFUZZ_AFL_EXPORT void* afl_custom_init(void* /*afl*/, unsigned int seed)
{
    return new State{seed};
}

extern "C" EQUIFUZZ_AFL_EXPORT size_t afl_custom_fuzz(void* data, uint8_t* buf, size_t buf_size, uint8_t** out_buf,
                                                      uint8_t* /*add_buf*/, size_t /*add_buf_size*/, size_t max_size)
{
    State& state{*static_cast<State*>(data)};
    // Never null: afl-fuzz treats a null buffer as an error (an empty input's buffer may be one).
    static uint8_t none{0};
    *out_buf = buf != nullptr ? buf : &none;
    state.out.assign(buf, buf + buf_size);
    equifuzz::Mutation m{state.out, max_size, static_cast<uint32_t>(state.rng())};
    if (!EquifuzzStructuredMutation()(m) || state.out.empty() || state.out.size() > max_size ||
        std::equal(state.out.begin(), state.out.end(), buf, buf + buf_size)) {
        return 0;
    }
    *out_buf = state.out.data();
    return state.out.size();
}

extern "C" EQUIFUZZ_AFL_EXPORT void afl_custom_deinit(void* data)
{
    delete static_cast<State*>(data);
}
