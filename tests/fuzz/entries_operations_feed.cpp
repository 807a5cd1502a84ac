// entries_operations_feed.cpp: fuzz entries for operations: keeping the GPUs fed by the input pipeline
#include "entry_points.hpp"
#include "inputs.hpp"
#include "inspect.hpp"
#include "repr.hpp"

namespace fuzz {

void register_operations_feed(registry&) {}

}  // namespace fuzz
