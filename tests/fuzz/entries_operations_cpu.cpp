// entries_operations_cpu.cpp: fuzz entries for operations: CPUs, and one workload on a CPU and a GPU
#include "entry_points.hpp"
#include "inputs.hpp"
#include "inspect.hpp"
#include "repr.hpp"

namespace fuzz {

void register_operations_cpu(registry&) {}

}  // namespace fuzz
