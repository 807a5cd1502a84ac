// scaling.hpp: how work spreads over many GPUs: what a collective costs on a node's and a
// cluster's links (the alpha-beta model), and the scaling laws (Amdahl, Gustafson, the
// Universal Scalability Law) with their fit to a user's measurements, and how long decode and
// prefill take on a serving replica split across GPUs
#pragma once

#include "scaling/cluster_collectives.hpp"
#include "scaling/collectives.hpp"
#include "scaling/fit.hpp"
#include "scaling/inference.hpp"
#include "scaling/laws.hpp"
#include "scaling/placement.hpp"
#include "scaling/step.hpp"
#include "scaling/step_compute.hpp"
#include "scaling/step_layout.hpp"
#include "scaling/step_search.hpp"
