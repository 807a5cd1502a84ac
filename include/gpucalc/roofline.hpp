// roofline.hpp: how long work takes at best on a GPU, and which bound holds: op-level
// rooflines, attention, LLM prefill and decode, the MFU-based training estimate, and
// measurements and claims held against the roofline
#pragma once

#include "roofline/attention.hpp"
#include "roofline/inference.hpp"
#include "roofline/measured.hpp"
#include "roofline/op.hpp"
#include "roofline/training.hpp"
#include "roofline/item.hpp"
