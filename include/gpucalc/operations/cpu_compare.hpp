// operations/cpu_compare.hpp: the same workload on a CPU and on a GPU: time, energy and cost
#pragma once
