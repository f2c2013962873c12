// Our #31551 model in master's shape (spec 2.7), built into every build as master_retry_side():
// a failed flush keeps its obfuscated bytes pending and the destructor writes them again (or
// throws from it). Bitcoin Core's own BufferedWriter is compared with this under write faults;
// adapters/master_retry.cpp builds the same shape as the optimized side (a build option).
#define EQUIFUZZ_SIDE_ROLE master_retry
#define EQUIFUZZ_BLOCKFILE_MASTER_RETRY 1
#include "optimized.cpp"
