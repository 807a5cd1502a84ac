// operations.hpp: the time of moving data outside the GPU in a training job: checkpoint size,
// write and restore time, interruptions from spot reclaims and hardware failures chained to the
// checkpoint interval and the bill; keeping the GPUs fed by the input pipeline; and the same
// workload on a CPU and on a GPU
#pragma once

#include "operations/checkpoint.hpp"
#include "operations/cpu_compare.hpp"
#include "operations/input_demand.hpp"
#include "operations/input_pipeline.hpp"
#include "operations/interruptions.hpp"
