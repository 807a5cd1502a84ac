// memory.hpp: how many bytes a training or inference job needs on each GPU, and whether,
// on how many GPUs, and at what batch or context it fits
#pragma once

#include "memory/fit.hpp"
#include "memory/training_fit.hpp"
#include "memory/inference.hpp"
#include "memory/overhead.hpp"
#include "memory/training.hpp"
#include "memory/item.hpp"
