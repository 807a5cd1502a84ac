// roofline.hpp: how long work takes at best on a GPU, and which bound holds: op-level
// rooflines and LLM prefill, decode and training time (every duration gpucalc estimates)
#pragma once

#include "roofline/llm.hpp"
#include "roofline/op.hpp"
