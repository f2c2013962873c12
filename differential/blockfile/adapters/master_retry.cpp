// The optimized side with master's BufferedWriter::flush (spec 2.7): the pending count is reset
// only after write_buffer succeeded and the last flush is left to the destructor. After a failed
// write the already-XORed bytes stay pending; the destructor's flush XORs them again and, if the
// file accepts them this time, writes plaintext. If it fails again, the destructor throws
// (std::terminate in C++). Build it in place of the optimized side:
//
//     cmake --preset libfuzzer -B build/blk-master -DEQUIFUZZ_BLOCKFILE_OPTIMIZED=$PWD/differential/blockfile/adapters/master_retry.cpp
//
// The same switch is planted as the mutant mutants/master_retry.patch, so `./equifuzz mutants`
// hunts it and ctest's mutant/blockfile/master_retry replays what was found.
#define EQUIFUZZ_BLOCKFILE_MASTER_RETRY 1
#include "../optimized.cpp"
