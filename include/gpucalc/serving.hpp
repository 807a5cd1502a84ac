// serving.hpp: how many GPUs serve a request rate at a latency target: one replica's capacity
// under continuous batching and its behaviour at a load, and the queueing of requests for batch
// slots (Erlang B and C, the M/M/c and approximate M/G/c waits, the fewest servers for a wait),
// and the fewest replicas for a request rate at a TTFT and TPOT SLO, with its cost per token
#pragma once

#include "serving/capacity.hpp"
#include "serving/load.hpp"
#include "serving/queueing.hpp"
#include "serving/replicas.hpp"
