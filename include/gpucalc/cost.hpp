// cost.hpp: what GPU work costs: prices and job cost, spot and checkpointing, owning (TCO) and
// rent-vs-buy, energy, carbon and rack power, and the cost of a training run or of serving.
// Durations come in as inputs or from roofline.hpp; this module never estimates one itself.
#pragma once

#include "cost/energy.hpp"
#include "cost/prices.hpp"
#include "cost/run.hpp"
#include "cost/spot.hpp"
#include "cost/base_load.hpp"
#include "cost/tco.hpp"
