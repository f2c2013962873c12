#include "stress.h"

#include "crypto.h"
#include "opcodes.h"

namespace equifuzz::script {
namespace {

StressScenario Tapscript(std::string name, std::string summary, size_t element, Bytes script, size_t extra_items = 0)
{
    StressScenario s{std::move(name), std::move(summary), {}};
    s.input.stack.assign(1 + extra_items, Bytes(element, 0x5a));
    s.input.script = std::move(script);
    s.input.sigversion = SigVersion::TAPSCRIPT;
    s.input.as_witness_script = true;
    return s;
}

//! Drops `items` items (2DROP where it can) and leaves OP_1: the clean stack tapscript wants.
void DropAllThenTrue(Bytes& script, size_t items)
{
    for (; items >= 2; items -= 2) script.push_back(OP_2DROP);
    if (items) script.push_back(OP_DROP);
    script.push_back(OP_1);
}

} // namespace

std::vector<StressScenario> StressScenarios(size_t element)
{
    std::vector<StressScenario> out;
    {
        Bytes s{OP_SHA256, OP_DROP, OP_1};
        out.push_back(Tapscript("SHA256", "ITEM SHA256 DROP 1", element, s));
    }
    {
        Bytes s;
        for (int i = 0; i < 100; ++i) s.push_back(OP_SHA256);
        s.insert(s.end(), {OP_DROP, OP_1});
        out.push_back(Tapscript("SHA256 x100", "ITEM SHA256 (x100) DROP 1", element, s));
    }
    {
        Bytes s(999, OP_DUP);
        DropAllThenTrue(s, 1000);
        out.push_back(Tapscript("DUP x999", "ITEM DUP (x999): 1000 copies, then dropped", element, s));
    }
    {
        Bytes s{OP_0, OP_PICK};
        s.insert(s.end(), 499, OP_2DUP);
        DropAllThenTrue(s, 1000);
        out.push_back(Tapscript("0 PICK, 2DUP x499", "ITEM 0 PICK, 2DUP (x499): 1000 copies without OP_DUP", element, s));
    }
    {
        Bytes s;
        // Each round leaves one more copy on each stack: 500 on the stack, 499 on the alt stack.
        for (int i = 0; i < 499; ++i) s.insert(s.end(), {OP_DUP, OP_DUP, OP_TOALTSTACK});
        DropAllThenTrue(s, 500);
        out.push_back(Tapscript("DUP DUP TOALTSTACK x499", "ITEM (DUP DUP TOALTSTACK) x499: 999 copies over both stacks", element, s));
    }
    {
        Bytes s;
        s.push_back(OP_DUP); // the 1001st item: STACK_SIZE
        out.push_back(Tapscript("1000 items, DUP", "1000 initial items, DUP: over the stack limit", element, s, 999));
    }
    return out;
}

} // namespace equifuzz::script
