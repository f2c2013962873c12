// Script pair: peak heap memory per evaluation (spec 2, "Resources"). Every global operator
// new/delete of this program is counted (bytes by malloc_usable_size), so the figure is what one
// evaluation allocates above what its input already holds: the interpreter's stacks, the copies it
// makes, hash outputs. Scenarios are script/stress.h's (tapscript witness scripts, the element as
// an initial witness item): 520-byte items on the 520 side, 8000-byte items on Variants G and T.
//   build/bench/bench/script_quality            a Markdown table
#include <script/pair.h>
#include <script/stress.h>

#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <new>

namespace {
size_t g_live{0};
size_t g_peak{0};

void* Counted(size_t n)
{
    void* p{std::malloc(n ? n : 1)};
    if (!p) throw std::bad_alloc{};
    g_live += malloc_usable_size(p);
    if (g_live > g_peak) g_peak = g_live;
    return p;
}

void Uncounted(void* p) noexcept
{
    if (!p) return;
    g_live -= malloc_usable_size(p);
    std::free(p);
}
} // namespace

void* operator new(size_t n) { return Counted(n); }
void* operator new[](size_t n) { return Counted(n); }
void operator delete(void* p) noexcept { Uncounted(p); }
void operator delete[](void* p) noexcept { Uncounted(p); }
void operator delete(void* p, size_t) noexcept { Uncounted(p); }
void operator delete[](void* p, size_t) noexcept { Uncounted(p); }

using namespace equifuzz::script;

namespace {

struct Measured {
    const char* error;
    size_t peak; //!< bytes above the live heap at the start of the evaluation
};

Measured Measure(const Side& side, const EvalInput& in)
{
    const FakeChecker checker;
    const size_t base{g_live};
    g_peak = g_live;
    const EvalResult r{side.eval(in, checker)};
    const Measured m{ErrorName(r.error), g_peak - base};
    return m;
}

std::string Kib(size_t bytes)
{
    char buf[32];
    if (bytes < 10 * 1024) {
        std::snprintf(buf, sizeof(buf), "%zu B", bytes);
    } else if (bytes < 1024 * 1024) {
        std::snprintf(buf, sizeof(buf), "%.0f KiB", bytes / 1024.0);
    } else {
        std::snprintf(buf, sizeof(buf), "%.1f MiB", bytes / (1024.0 * 1024.0));
    }
    return buf;
}

} // namespace

int main()
{
    const auto small{StressScenarios(MAX_SCRIPT_ELEMENT_SIZE)};
    const auto large{StressScenarios(LARGE_ELEMENT_SIZE)};
    std::printf("Peak heap per evaluation (bytes allocated above the input; result in parentheses)\n\n");
    std::printf("| scenario | 520 side, 520-byte item | Variant G, 8000-byte item | Variant T, 8000-byte item | G / 520 |\n");
    std::printf("|---|---|---|---|---|\n");
    for (size_t i = 0; i < small.size(); ++i) {
        const Measured o{Measure(original_side(), small[i].input)};
        const Measured g{Measure(optimized_side(), large[i].input)};
        const Measured t{Measure(variant_t_side(), large[i].input)};
        std::printf("| %s | %s (%s) | %s (%s) | %s (%s) | %.1fx |\n", large[i].summary.c_str(), Kib(o.peak).c_str(), o.error,
                    Kib(g.peak).c_str(), g.error, Kib(t.peak).c_str(), t.error, o.peak ? double(g.peak) / double(o.peak) : 0.0);
    }
    return 0;
}
