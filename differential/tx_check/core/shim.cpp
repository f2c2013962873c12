// The tx_check pair's Bitcoin Core sides: Core's own CheckTransaction, compiled from a Core tree
// (cmake/CoreObjects.cmake builds this file once per tree, its symbols kept apart). No registry
// tree has #31682 (it was closed unmerged): every tree's CheckTransaction uses std::set, and our
// optimized model must give its verdict and reason. A tree with #31682 (a reviewer's checkout,
// EQUIFUZZ_CORE_OPTIMIZED_SRC) is driven the same way.
//
// The transaction reaches Core as bytes: our model serializes it without witness, Core reads it
// into its own CMutableTransaction (TX_NO_WITNESS: the checks never look at witnesses, and a
// transaction without inputs must not be taken for the witness marker) and checks a CTransaction.
// For blocks, CheckBlock itself lives in validation.cpp with the whole node behind it; its
// transaction rules are applied here around Core's CheckTransaction, IsCoinBase and txid, in
// CheckBlock's order: the coinbase first and only first, then every transaction's checks.
#include "../side.h"

#include <equifuzz/core_shim.h>

#include <crypto/sha256.h>
#include <consensus/tx_check.h>
#include <consensus/validation.h>
#include <primitives/transaction.h>
#include <streams.h>

#include <functional>
#include <memory>
#include <vector>

namespace equifuzz::tx_check {
namespace {

EQUIFUZZ_CORE_SHA256_AUTODETECT();

CTransactionRef ToCore(const Transaction& tx)
{
    const Bytes bytes{SerializeTransaction(tx, /*with_witness=*/false)};
    // SpanReader reads our bytes in place; a DataStream would copy up to 1 MB into a
    // zero-after-free vector and wipe it again, per transaction and per tree.
    CMutableTransaction mtx;
    SpanReader{bytes} >> TX_NO_WITNESS(mtx);
    return MakeTransactionRef(std::move(mtx));
}

TxVerdict Check(const CTransaction& tx)
{
    TxValidationState state;
    if (CheckTransaction(tx, state)) return {true, ""};
    return {false, state.GetRejectReason()};
}

TxVerdict CheckTx(const Transaction& tx)
{
    return Check(*ToCore(tx));
}

BlockVerdict CheckBlk(const Block& block)
{
    std::vector<CTransactionRef> vtx;
    for (const Transaction& tx : block.txs) vtx.push_back(ToCore(tx));
    if (vtx.empty() || !vtx[0]->IsCoinBase()) return {false, "bad-cb-missing", ""};
    for (size_t i = 1; i < vtx.size(); ++i) {
        if (vtx[i]->IsCoinBase()) return {false, "bad-cb-multiple", ""};
    }
    for (const CTransactionRef& tx : vtx) {
        const TxVerdict v{Check(*tx)};
        if (!v.valid) return {false, v.reason, "Transaction check failed (tx hash " + tx->GetHash().ToString() + ") "};
    }
    return {true, "", ""};
}

std::function<TxVerdict()> PrepareCheck(const Transaction& tx)
{
    return [core = ToCore(tx)] { return Check(*core); };
}

const Side CORE{"Bitcoin Core CheckTransaction (" EQUIFUZZ_CORE_TREE ")", CheckTx, CheckBlk, PrepareCheck};

} // namespace
} // namespace equifuzz::tx_check

EQUIFUZZ_EXPORT_SIDE(equifuzz::tx_check, equifuzz::tx_check::CORE)
