// entries_operations_checkpoint.cpp: fuzz entries for operations: checkpoint size and I/O, interruptions, the chain to the bill
#include "entry_points.hpp"
#include "inputs.hpp"
#include "inspect.hpp"
#include "repr.hpp"

namespace fuzz {

void register_operations_checkpoint(registry&) {}

}  // namespace fuzz
