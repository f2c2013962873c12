// utxo_flush_batches: the UTXO flush cut into batches (#31645) on the model database. Two blocks
// are flushed; the second at the original side's default batch size (16 MiB), the optimized
// side's (32 MiB) and two sizes the input chooses (choices.json's BatchSize). The final content
// must be the same at every size, and it must be what the cursor says (dirty unspent coins at
// their value, dirty spent ones gone, clean ones untouched, the best-block marker 'B' at the new
// tip, no head-blocks marker 'H'). A crash before the chosen partial batch must leave the old
// content, the batches before it, no best block and head blocks = [new, old]; flushing the same
// entries again with the same tip (at the other size) must give the uninterrupted content, and a
// second crash during that recovery must keep the head blocks' old tip; another tip must be refused.
#include <equifuzz/harness.h>
#include <utxo_flush/pair.h>

using namespace equifuzz;
using namespace equifuzz::utxo_flush;

EQUIFUZZ_TARGET(utxo_flush_batches)
{
    FuzzedDataProvider fdp{input.data(), input.size()};
    const FlushInput in{DecodeFlush(fdp)};
    const auto desc{[&] { return Describe(in); }};

    const Content db1{Flush({}, in.block1, TIP1, in.size_b).content};
    const FlushResult at_a{Flush(db1, in.block2, TIP2, in.size_a)};
    const DbContent final_a{at_a.content};
    Compare(desc, {{Model(original_side().name), DbContent{Flush(db1, in.block2, TIP2, original_side().default_batch_bytes).content}},
                   {Model(optimized_side().name), DbContent{Flush(db1, in.block2, TIP2, optimized_side().default_batch_bytes).content}},
                   {Model("batch size a"), final_a},
                   {Model("batch size b"), DbContent{Flush(db1, in.block2, TIP2, in.size_b).content}}});

    // What the cursor says the flush must leave.
    Require(BestBlock(at_a.content) == TIP2 && !HeadBlocks(at_a.content), "markers-after-flush", desc, final_a);
    Content expected{db1};
    expected[Bytes{DB_BEST_BLOCK}] = Bytes(TIP2.begin(), TIP2.end());
    for (const CursorEntry& e : in.block2) {
        if (!e.dirty) continue;
        if (e.spent) expected.erase(CoinKey(e.txid, e.n));
        else expected[CoinKey(e.txid, e.n)] = CoinValue(e.coin);
    }
    Require(at_a.content == expected, "content-is-the-cursors", desc, DbContent{expected});

    if (in.crash_before == 0 || in.crash_before > at_a.partial_batches) return;
    const FlushResult crashed{Flush(db1, in.block2, TIP2, in.size_a, in.crash_before)};
    const DbContent state{crashed.content};
    if (in.crash_before == 1) {
        Require(crashed.content == db1, "crash-before-first-batch-writes-nothing", desc, state);
        return;
    }
    const auto heads{HeadBlocks(crashed.content)};
    Require(!BestBlock(crashed.content) && heads && heads->first == TIP2 && heads->second == TIP1,
            "crash-leaves-no-best-block-and-head-blocks-new-old", desc, state);
    // Every key is at its old value (or absent) or at its new one.
    Require(EachCoinOldOrNew(crashed.content, db1, at_a.content), "each-coin-old-or-new", desc, state);
    const FlushResult recovered{Flush(crashed.content, in.block2, TIP2, in.size_b)};
    Require(recovered.content == at_a.content, "recovery-gives-the-uninterrupted-content", desc, DbContent{recovered.content});
    Require(!Flush(crashed.content, in.block2, TIP_OTHER, in.size_b).stopped.empty(), "another-tip-is-refused", desc, state);
    const FlushResult again{Flush(crashed.content, in.block2, TIP2, in.size_a, 2)};
    if (again.stopped.empty()) return; // fewer than two partial batches this time
    const auto heads_again{HeadBlocks(again.content)};
    Require(heads_again && heads_again->first == TIP2 && heads_again->second == TIP1, "nested-crash-keeps-old-tip", desc,
            DbContent{again.content});
}
